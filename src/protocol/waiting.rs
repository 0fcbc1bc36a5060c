//! Commands that wait for a running job (a search, perft or the bench), as Stockfish's loop
//! makes them wait: there a command that needs the engine idle blocks the loop until the search
//! ends, and no line after it is read meanwhile. Here the loop goes on reading, so that `stop`
//! still ends the search and `isready` is still answered; what the blocked loop would not have
//! read yet waits in this queue, in order, to be obeyed in its turn. An `isready` that comes
//! while the book or tables are read blocks the same way until they are in force, so that every
//! `readyok` stands where its `isready` stood. A `stop` ends the job running and every job the
//! commands waiting before it start (each at once, with its answer): so `stop` ends whatever was
//! asked before it, and no job waited for can be one that nothing ends.
//!
//! This file is the queue and each command's timing; the session (`session`) fills it as lines
//! come and obeys them in turn. The queue keeps lines as they came (each is parsed again when
//! obeyed: a parsed `position` takes ten times its line's bytes), at most `MAX_LINES` of them
//! and `MAX_BYTES` in all. Past that a line is dropped with one error line naming it.

use super::command::{Command, CommandError};
use super::dialect::Dialect;
use std::collections::VecDeque;

/// The most lines that wait.
pub(super) const MAX_LINES: usize = 100_000;

/// The most bytes of lines that wait (16 MB).
pub(super) const MAX_BYTES: usize = 16 << 20;

/// When a command may be obeyed while a job runs or other commands wait.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Timing {
    /// `stop`, `ponderhit`, `debug`: at once, on the job running (a `stop` ends too the jobs
    /// of the commands waiting before it, as each starts).
    AtOnce,
    /// `quit`: at once when nothing waits; behind waiting commands, once the job the commands
    /// before it started ends, or at once if only `stop` would end it.
    InTurn,
    /// `isready`: as `InTurn`, and not while the book or tables are being read (`readyok` says
    /// that a `go` is answered at once); meanwhile every command after it waits behind it, so
    /// that each `readyok` stands where its `isready` stood among the answers.
    Ready,
    /// An `isready` that came when nothing waited, while the book or tables were read: answered
    /// as soon as they are in force, whatever job runs (a `bench` or `perft` started before it
    /// answers `isready` at once, as without the loading).
    WhenLoaded,
    /// Commands that need no idle engine (`position`, `d`, `fen`, `moves`, `eval`, `help`,
    /// `uci`) and lines refused as malformed: at once when nothing waits, else in their turn.
    Free,
    /// Commands that need the engine idle (`go`, `perft`, `bench`, `setoption`,
    /// `ucinewgame`): once no job runs.
    Idle,
    /// GBGP's `newgame`: ends the job running, then as `Idle` (the GUI reads a `bestmove` that
    /// came after it as a move of the new game).
    StopFirst,
}

impl Timing {
    /// When `parsed` (a line of `dialect`) may be obeyed.
    pub(super) fn of(parsed: &Result<Option<Command>, CommandError>, dialect: Dialect) -> Timing {
        match parsed {
            Ok(Some(Command::Stop | Command::PonderHit | Command::Debug)) => Timing::AtOnce,
            Ok(Some(Command::IsReady)) => Timing::Ready,
            Ok(Some(Command::Quit)) => Timing::InTurn,
            Ok(Some(Command::UciNewGame)) if dialect == Dialect::Gbgp => Timing::StopFirst,
            Ok(Some(
                Command::Go(_)
                | Command::Perft(_)
                | Command::Bench(_)
                | Command::SetOption { .. }
                | Command::UciNewGame,
            )) => Timing::Idle,
            Ok(_) | Err(_) => Timing::Free,
        }
    }
}

/// A line of input as it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// A line.
    Text(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped whole.
    TooLong(usize),
}

impl Line {
    /// The bytes it holds.
    fn bytes(&self) -> usize {
        match self {
            Line::Text(t) => t.len(),
            Line::TooLong(_) => 0,
        }
    }
}

/// The lines that wait, in order, each with its timing and its number.
#[derive(Default)]
pub(super) struct Waiting {
    lines: VecDeque<(u64, Line, Timing)>,
    bytes: usize,
    /// The number of the next line to wait.
    next: u64,
    /// Lines numbered below this came before a `stop`: the job each starts ends at once.
    stopped_below: u64,
}

impl Waiting {
    /// Whether no line waits.
    pub(super) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The timing of the first line that waits.
    pub(super) fn front(&self) -> Option<Timing> {
        self.lines.front().map(|(_, _, t)| *t)
    }

    /// Takes the first line that waits, and whether a `stop` came after it.
    pub(super) fn pop(&mut self) -> Option<(Line, bool)> {
        let (number, line, _) = self.lines.pop_front()?;
        self.bytes -= line.bytes();
        Some((line, number < self.stopped_below))
    }

    /// A `stop` came: every job the lines waiting now start is to end at once.
    pub(super) fn stop(&mut self) {
        self.stopped_below = self.next;
    }

    /// Puts `line` last, or gives it back when `MAX_LINES` lines or `MAX_BYTES` bytes wait
    /// already.
    pub(super) fn push(&mut self, line: Line, timing: Timing) -> Result<(), Line> {
        let bytes = self.bytes + line.bytes();
        if self.lines.len() >= MAX_LINES || bytes > MAX_BYTES {
            return Err(line);
        }
        self.bytes = bytes;
        self.lines.push_back((self.next, line, timing));
        self.next += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::command::parse;
    use super::*;

    #[test]
    fn each_command_has_its_timing() {
        let timing = |line: &str, dialect| Timing::of(&parse(line), dialect);
        for (line, want) in [
            ("stop", Timing::AtOnce),
            ("ponderhit", Timing::AtOnce),
            ("debug on", Timing::AtOnce),
            ("isready", Timing::Ready),
            ("quit", Timing::InTurn),
            ("position startpos", Timing::Free),
            ("d", Timing::Free),
            ("go depth 2", Timing::Idle),
            ("perft 2", Timing::Idle),
            ("bench", Timing::Idle),
            ("setoption name Hash value 2", Timing::Idle),
            ("ucinewgame", Timing::Idle),
            ("go depth x", Timing::Free),
        ] {
            assert_eq!(timing(line, Dialect::Uci), want, "{line}");
        }
        let newgame = Timing::of(&Ok(Some(Command::UciNewGame)), Dialect::Gbgp);
        assert_eq!(newgame, Timing::StopFirst);
    }

    #[test]
    fn the_queue_is_bounded_in_lines_and_bytes() {
        let mut w = Waiting::default();
        let big = "x".repeat(MAX_BYTES / 2);
        assert!(w.push(Line::Text(big.clone()), Timing::Free).is_ok());
        assert!(w.push(Line::Text(big.clone()), Timing::Free).is_ok());
        let refused = w.push(Line::Text("go".into()), Timing::Idle);
        assert_eq!(refused, Err(Line::Text("go".into())));
        w.stop();
        assert_eq!(w.pop(), Some((Line::Text(big), true)));
        assert!(w.push(Line::Text("go".into()), Timing::Idle).is_ok());
        assert_eq!(w.front(), Some(Timing::Free));
        assert!(w.pop().is_some_and(|(_, stopped)| stopped));
        assert_eq!(w.pop(), Some((Line::Text("go".into()), false)));
        let mut w = Waiting::default();
        for _ in 0..MAX_LINES {
            assert!(w.push(Line::TooLong(1 << 20), Timing::Free).is_ok());
        }
        assert!(w.push(Line::TooLong(1), Timing::Free).is_err());
        assert!(!w.is_empty());
    }
}
