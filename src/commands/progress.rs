//! The progress bar of every long command (table builds, book builds, matches, training): one
//! look on stderr, `<what> [bar] done/total <unit>  <message>  [elapsed < eta]`. indicatif hides
//! it when stderr is not a terminal, so logs and pipes get no bar lines. `Bars` shows a library
//! job's `Progress` so: a bar a stage, its notes as lines on stderr.

use crate::job_progress::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::{Mutex, PoisonError};

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
