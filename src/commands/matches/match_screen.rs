//! What the user sees of a running `moulin match` on stderr: the progress bar (W/D/L, Elo, LLR)
//! on a terminal, a line per finished game and, every `--score-interval` games, the running
//! score, both whatever stderr is and in the form cutechess-cli gives them; and, when a signal
//! stops the match, the command that resumes it.

use indicatif::ProgressBar;
use moulin::matches::numbers::stats::{self, Decision, Sprt, Tally};
use moulin::matches::run::game_line::Record;
use moulin::matches::run::runner::Event;
use moulin::matches::run::standings::Standings;
use moulin::matches::run::summary;
use moulin::text::quoted;
use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

/// Writes `text` to stderr, above the bar when there is one. A stderr that cannot be written to
/// is no reason to stop a match.
fn tell(bar: Option<&ProgressBar>, text: &str) {
    let write = || {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    };
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// The line a finished game gets, in the form cutechess-cli gives: `Finished game 3 (a vs b):
/// 1/2-1/2 {reason}`, with moulin's own words for the reason.
fn finished_game(r: &Record) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}\n",
        r.game, r.white, r.black, r.result, r.reason
    )
}

/// The running score of the pairing of `a` and `b` (`t`, from `a`'s view), as cutechess-cli
/// prints it: `Score of a vs b: W - L - D  [score] N`, the Elo difference with its 95%
/// interval, the LOS and the draw ratio, and the SPRT's LLR (with why it cannot decide, when it
/// cannot) for a match under `sprt`.
pub(crate) fn score_lines(a: &str, b: &str, t: &Tally, sprt: Option<&Sprt>) -> String {
    let mut out = format!(
        "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}\n",
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5),
        t.games()
    );
    if let Some(e) = t.estimate() {
        out.push_str(&format!(
            "Elo difference: {} {}, LOS: {}, DrawRatio: {}\n",
            stats::show_estimate(&e),
            stats::show_interval(e.interval),
            stats::show_percent(e.los),
            stats::show_percent(t.draw_ratio())
        ));
    }
    if let Some(sprt) = sprt {
        let (llr, _) = sprt.test(t);
        let (lo, hi) = sprt.bounds();
        let share = if llr >= 0.0 { llr / hi } else { llr / -lo };
        out.push_str(&format!(
            "SPRT: llr {llr:.3} ({:.1}%), lbound {lo:.3}, ubound {hi:.3}{}\n",
            100.0 * share,
            summary::undecidable(t, llr, sprt)
        ));
    }
    out
}

/// The progress bar's message: W/D/L, the Elo estimate and the SPRT's LLR, as far as known.
fn progress_message(t: &Tally, sprt: Option<(f64, Decision)>) -> String {
    let mut m = format!("W {} D {} L {}", t.wins, t.draws, t.losses);
    if let Some(e) = t.estimate() {
        m.push_str(&format!("  Elo {}", stats::show_estimate(&e)));
    }
    if let Some((llr, _)) = sprt {
        m.push_str(&format!("  LLR {llr:.2}"));
        if t.alike().is_some() {
            m.push_str(" (results all alike: undecided)");
        }
    }
    m
}

/// What the user sees of a running match: the bar, made when the games begin, a line per
/// finished game, and the score every `interval` games; the bar's message is the first
/// pairing's W/D/L, Elo and LLR for a match, nothing for a tournament.
pub(crate) struct Screen {
    bar: OnceLock<ProgressBar>,
    /// For a tournament, the engine its ratings are anchored on and its rating.
    tournament: Option<(usize, f64)>,
    sprt: Option<Sprt>,
    interval: u64,
}

impl Screen {
    /// The screen of a match (or of a tournament whose ratings are anchored on `tournament`'s
    /// engine at its rating) under `sprt`, its score every `interval` games (never for 0).
    pub(crate) fn new(
        tournament: Option<(usize, f64)>,
        sprt: Option<Sprt>,
        interval: u64,
    ) -> Screen {
        Screen {
            bar: OnceLock::new(),
            tournament,
            sprt,
            interval,
        }
    }

    /// Shows one event of the runner.
    pub(crate) fn show(&self, event: Event) {
        match event {
            Event::Started { games, done } => {
                self.bar
                    .get_or_init(|| crate::commands::progress::bar(games, done, "", "games"));
            }
            Event::Game {
                record,
                standings,
                sprt,
            } => {
                let bar = self.bar.get();
                let mut text = finished_game(record);
                text.push_str(&self.score(record, standings));
                tell(bar, &text);
                if let Some(bar) = bar {
                    bar.inc(1);
                    let message = if self.tournament.is_some() {
                        String::new()
                    } else {
                        progress_message(&standings.recaps[0].tally, sprt)
                    };
                    bar.set_message(message);
                }
            }
        }
    }

    /// When the games played reach a multiple of the interval, the standings as cutechess-cli
    /// prints them: for a tournament of more than two engines, the table of every engine
    /// (rating, error, games, score, draws); else the score lines of the pairing of `record`.
    fn score(&self, record: &Record, standings: &Standings) -> String {
        let games = u64::from(standings.games());
        if self.interval == 0 || games % self.interval != 0 {
            return String::new();
        }
        if let Some((anchor, anchor_elo)) = self.tournament {
            if standings.names.len() > 2 {
                return summary::ranking_table(standings, anchor, anchor_elo);
            }
        }
        let Some(k) = standings.pairing_of(&record.white, &record.black) else {
            return String::new();
        };
        let (a, b) = standings.pairings[k];
        let (a, b) = (&standings.names[a], &standings.names[b]);
        let sprt = self.sprt.as_ref().filter(|_| self.tournament.is_none());
        score_lines(a, b, &standings.recaps[k].tally, sprt)
    }

    /// Takes the bar off the screen.
    pub(crate) fn clear(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

/// A word as a POSIX shell reads it back unchanged: bare when it holds only safe characters,
/// else in single quotes.
fn shell_word(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=:+,@%^".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The command that resumes this process's match: its own command line, `--force` taken off
/// and `--resume` added when it is not there.
pub(crate) fn resume_command(args: &[String]) -> String {
    let mut words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !matches!(*a, "--force" | "-force"))
        .collect();
    if !words.iter().any(|a| matches!(*a, "--resume" | "-resume")) {
        words.push("--resume");
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a stopped match's finished games are: its records (then it resumes), its `--pgn` file.
pub(crate) struct Kept<'a> {
    /// Whether the match has records (`--records`).
    pub(crate) records: bool,
    /// Its `--pgn` file, if any.
    pub(crate) pgn: Option<&'a Path>,
}

/// Tells on stderr that `signal` stopped the match, where its finished games are, and the
/// command that resumes it (a match with records), or what the same command does again (a
/// match with a `--pgn` file only: a new match, its games added to that file).
pub(crate) fn interrupted(signal: i32, kept: &Kept) {
    let name = match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    let args: Vec<String> = std::env::args().collect();
    tell(None, &stopped(name, kept, &args));
}

/// The lines `interrupted` tells, for the command line `args`.
fn stopped(name: &str, kept: &Kept, args: &[String]) -> String {
    let head = format!("moulin: match stopped by {name}; ");
    match (kept.records, kept.pgn) {
        (true, pgn) => format!(
            "{head}the records{} keep every game finished before it. Resume it with:\n  {}\n",
            pgn.map_or(String::new(), |p| format!(
                " (and the --pgn file {})",
                quoted(&p.display().to_string())
            )),
            resume_command(args)
        ),
        (false, Some(pgn)) => format!(
            "{head}every game finished before it is in the --pgn file {}. Without --records the \
             match cannot be resumed: the same command plays a new match and adds its games to \
             that file, as cutechess-cli does (--force replaces it); a match with --records FILE \
             can be resumed with --resume\n",
            quoted(&pgn.display().to_string())
        ),
        (false, None) => format!(
            "{head}its games are not kept (no --records, no --pgn): a match with --records FILE \
             can be resumed with --resume\n"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resume_command_is_the_command_with_resume() {
        let args = [
            "target/release/moulin",
            "match",
            "--engine",
            "name=a cmd=./it's",
            "--records",
            "r.txt",
            "--force",
        ]
        .map(String::from);
        assert_eq!(
            resume_command(&args),
            "target/release/moulin match --engine 'name=a cmd=./it'\\''s' --records r.txt --resume"
        );
    }

    #[test]
    fn a_stopped_match_says_where_its_games_are() {
        let args = ["moulin", "match", "--pgn", "g.pgn"].map(String::from);
        let pgn = Path::new("g.pgn");
        let only_pgn = Kept {
            records: false,
            pgn: Some(pgn),
        };
        let text = stopped("SIGINT", &only_pgn, &args);
        assert!(
            text.contains("every game finished before it is in the --pgn file 'g.pgn'")
                && text.contains("adds its games to that file")
                && !text.contains("not kept"),
            "{text}"
        );
        let both = Kept {
            records: true,
            pgn: Some(pgn),
        };
        let text = stopped("SIGTERM", &both, &args);
        assert!(
            text.contains("the records (and the --pgn file 'g.pgn') keep every game")
                && text.ends_with("--pgn g.pgn --resume\n"),
            "{text}"
        );
        let none = Kept {
            records: false,
            pgn: None,
        };
        assert!(stopped("SIGHUP", &none, &args).contains("not kept (no --records, no --pgn)"));
    }

    #[test]
    fn score_lines_as_cutechess_prints_them() {
        let mut t = Tally::default();
        for p in [1.0, 0.5, 1.0, 0.0, 0.5] {
            t.add_game(p);
        }
        let lines = score_lines("a", "b", &t, None);
        assert!(
            lines.starts_with("Score of a vs b: 2 - 1 - 2  [0.600] 5\n"),
            "{lines}"
        );
        assert!(lines.contains("\nElo difference: +70.4 "), "{lines}");
        // docs/matches.md's example: 5 pairs of 0.5, 1, 1, 1.5 and 2 points.
        t.pairs = [0, 1, 2, 1, 1];
        (t.wins, t.losses, t.draws) = (5, 3, 2);
        let lines = score_lines("new", "old", &t, None);
        assert!(
            lines.starts_with("Score of new vs old: 5 - 3 - 2  [0.600] 10\n")
                && lines.ends_with(
                    "Elo difference: +70.4 [-194.5, +526.4], LOS: 76.2%, DrawRatio: 20.0%\n"
                ),
            "{lines}"
        );
        // Four games won: a bound, no infinity.
        let mut t = Tally::default();
        for _ in 0..4 {
            t.add_game(1.0);
        }
        let lines = score_lines("a", "b", &t, None);
        assert!(
            lines.contains("Elo difference: > -72.1 [-72.1, +inf], LOS: n/a"),
            "{lines}"
        );
    }
}
