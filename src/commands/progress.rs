//! The progress bar of every long command (table builds, book builds, matches, training): one
//! look on stderr, `<what> [bar] done/total <unit>  <message>  [elapsed < eta]`. indicatif hides
//! it when stderr is not a terminal, so logs and pipes get no bar lines. `Bars` shows a library
//! job's `Progress` so: a bar a stage, its notes as lines on stderr. `Overall` is the whole of a
//! job made of parts (a table build's pairs), a bar above the part's, and its figures for the
//! lines a log gets.

use indicatif::{HumanDuration, MultiProgress, ProgressBar, ProgressState, ProgressStyle};
use moulin::job_progress::Progress;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The one template: a prefix naming the part of the job, the bar, the count, the unit and a
/// message the job updates.
const TEMPLATE: &str = "{prefix}{bar:30} {pos}/{len} {msg} [{elapsed} < {eta}]";

/// A bar over `len` items counted in `unit` (`"positions"`, `"games"`...), with `prefix` before
/// it (empty, or such as `"ply 3/8 "`, ending with a space) and `done` items already counted (a
/// resumed job). The job's own words go in `set_message`, after the unit.
pub fn bar(len: u64, done: u64, prefix: &str, unit: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(&TEMPLATE.replace("{msg}", &format!("{unit} {{msg}}")))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    let bar = ProgressBar::new(len)
        .with_style(style)
        .with_prefix(prefix.to_string());
    bar.set_position(done.min(len));
    bar
}

/// How far a job of parts is: its parts and items, what was done before this run (a resumed
/// job), and when this run started working.
#[derive(Clone, Copy, Debug)]
struct Counts {
    parts: u64,
    parts_done: u64,
    len: u64,
    done: u64,
    /// Items found done (a resumed job's): counted as done, not in the rate.
    resumed: u64,
    /// When the first part of this run began.
    started: Option<Instant>,
}

impl Counts {
    /// The time left at this run's rate, once this run has done something (`None` before, and
    /// once all is done).
    fn left(&self, now: Instant) -> Option<Duration> {
        let worked = self.done.saturating_sub(self.resumed);
        let to_do = self.len.saturating_sub(self.done);
        if worked == 0 || to_do == 0 {
            return None;
        }
        let secs = now.duration_since(self.started?).as_secs_f64();
        Some(Duration::from_secs_f64(secs * to_do as f64 / worked as f64))
    }
}

/// The whole of a job made of parts (a table build's pairs): a bar over all its items above the
/// bar of the part under way, and the whole's figures (`figures`) for the line each part ends
/// with, which is all that a log or a pipe gets. The time left is at this run's average rate,
/// the parts found done (a resumed job) counted as done but not in the rate: indicatif's own
/// estimate follows the last seconds, which in a job of hours swing with each part's phases.
pub struct Overall {
    multi: MultiProgress,
    bar: ProgressBar,
    parts_unit: String,
    unit: String,
    counts: Arc<Mutex<Counts>>,
    /// The bar of the part under way (none between parts, nor for a part found done).
    current: Mutex<Option<ProgressBar>>,
}

impl Overall {
    /// The counts, even after a thread panicked holding them.
    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A job of `parts` parts counted in `parts_unit` (`"pairs"`), of `len` items in all
    /// counted in `unit` (`"positions"`).
    pub fn new(parts: u64, len: u64, parts_unit: &str, unit: &str) -> Overall {
        let counts = Arc::new(Mutex::new(Counts {
            parts,
            parts_done: 0,
            len,
            done: 0,
            resumed: 0,
            started: None,
        }));
        let shared = Arc::clone(&counts);
        let template = TEMPLATE
            .replace("{msg}", &format!("{unit} {{msg}}"))
            .replace("{eta}", "{left}");
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "left",
                move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let now = Instant::now();
                    let left = shared.lock().ok().and_then(|c| c.left(now));
                    let _ = match left {
                        Some(d) => write!(w, "{:#}", HumanDuration(d)),
                        None => write!(w, "?"),
                    };
                },
            );
        let multi = MultiProgress::new();
        let bar = multi.add(
            ProgressBar::new(len)
                .with_style(style)
                .with_prefix("all ")
                .with_message(format!("(0/{parts} {parts_unit})")),
        );
        Overall {
            multi,
            bar,
            parts_unit: parts_unit.to_string(),
            unit: unit.to_string(),
            counts,
            current: Mutex::new(None),
        }
    }

    /// The bar of the part under way, if any (a handle: the bar is shared).
    fn current(&self) -> Option<ProgressBar> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// `n` more items of the part under way are done.
    fn inc(&self, n: u64) {
        let done = {
            let mut c = self.counts();
            c.done += n;
            c.done
        };
        self.bar.set_position(done);
    }

    fn count_part(&self, resumed: u64) {
        let (done, parts_done, parts) = {
            let mut c = self.counts();
            c.parts_done += 1;
            c.done += resumed;
            c.resumed += resumed;
            (c.done, c.parts_done, c.parts)
        };
        self.bar.set_position(done);
        self.bar
            .set_message(format!("({parts_done}/{parts} {})", self.parts_unit));
    }

    /// The whole's figures: `in all: 3 of 28 pairs, 5000 of 90000 positions (5.6%), about 2
    /// hours left` (the time left once this run has done something, and not at the end).
    pub fn figures(&self) -> String {
        let c = *self.counts();
        let share = if c.len == 0 {
            100.0
        } else {
            100.0 * c.done as f64 / c.len as f64
        };
        let mut text = format!(
            "in all: {} of {} {}, {} of {} {} ({share:.1}%)",
            c.parts_done, c.parts, self.parts_unit, c.done, c.len, self.unit
        );
        if let Some(left) = c.left(Instant::now()) {
            text.push_str(&format!(", about {} left", HumanDuration(left)));
        }
        text
    }

    /// The job is over: its bar goes.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A job of parts told as stages: each stage is a part, its bar under the whole's; a stage that
/// begins done is a part found done (a resumed job), counted but not in the rate; each note is
/// a line on stderr ending with the whole's figures.
impl Progress for Overall {
    fn stage(&self, len: u64, done: u64, prefix: &str, unit: &str) {
        if done >= len {
            self.count_part(len);
            return;
        }
        self.counts().started.get_or_insert_with(Instant::now);
        let part = self.multi.add(bar(len, done, prefix, unit));
        let whole = {
            let mut c = self.counts();
            c.done += done;
            c.resumed += done;
            c.done
        };
        self.bar.set_position(whole);
        let old = self
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(part);
        if let Some(old) = old {
            old.finish_and_clear();
        }
    }

    fn advance(&self, n: u64) {
        if let Some(part) = self.current() {
            part.inc(n);
        }
        self.inc(n);
    }

    fn message(&self, text: &str) {
        if let Some(part) = self.current() {
            part.set_message(text.to_string());
        }
    }

    fn finish(&self) {
        let part = self
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(part) = part {
            part.finish_and_clear();
            self.count_part(0);
        }
    }

    fn note(&self, line: &str) {
        let text = format!("{line}; {}", self.figures());
        self.multi.suspend(|| eprintln!("{text}"));
    }
}

/// A library job's progress as the command line shows it: the bar of the stage under way
/// (`bar`), and its notes on stderr.
#[derive(Default)]
pub struct Bars {
    current: Mutex<Option<ProgressBar>>,
}

impl Bars {
    /// The bar of the stage under way, if any (a handle: the bar is shared).
    fn current(&self) -> Option<ProgressBar> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Progress for Bars {
    fn stage(&self, len: u64, done: u64, prefix: &str, unit: &str) {
        let new = bar(len, done, prefix, unit);
        let old = self
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(new);
        if let Some(old) = old {
            old.finish_and_clear();
        }
    }

    fn advance(&self, n: u64) {
        if let Some(bar) = self.current() {
            bar.inc(n);
        }
    }

    fn message(&self, text: &str) {
        if let Some(bar) = self.current() {
            bar.set_message(text.to_string());
        }
    }

    fn finish(&self) {
        let old = self
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(old) = old {
            old.finish_and_clear();
        }
    }

    /// The line on stderr, the bar under way hidden while it is written.
    fn note(&self, line: &str) {
        match self.current() {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Counts;
    use std::time::{Duration, Instant};

    #[test]
    fn the_time_left_is_at_this_runs_rate_what_was_resumed_aside() {
        let now = Instant::now();
        let counts = Counts {
            parts: 4,
            parts_done: 2,
            len: 1000,
            done: 400,
            resumed: 300,
            started: now.checked_sub(Duration::from_secs(10)),
        };
        // 100 done in 10 s this run: 600 to do take 60 s.
        let left = counts.left(now).unwrap().as_secs_f64();
        assert!((left - 60.0).abs() < 0.01, "{left}");
        let resumed_only = Counts {
            done: 300,
            ..counts
        };
        assert_eq!(resumed_only.left(now), None, "nothing done in this run yet");
        let all = Counts {
            done: 1000,
            ..counts
        };
        assert_eq!(all.left(now), None, "nothing left");
    }

    #[test]
    fn the_bar_counts_from_what_is_done() {
        let bar = super::bar(10, 4, "ply 1 ", "positions");
        assert_eq!(bar.position(), 4);
        assert_eq!(bar.length(), Some(10));
        bar.inc(2);
        assert_eq!(bar.position(), 6);
        assert_eq!(super::bar(3, 9, "", "games").position(), 3);
    }
}
