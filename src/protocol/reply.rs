//! Every line the engine writes: the one writer of stdout (and its watch for a reader that
//! left), the error line, the UCI forms of `bestmove`, `info` and `help`, and the engine's notes
//! and answers worded in the dialect.

use super::command::CommandError;
use super::dialect::Dialect;
use super::event::Event;
use super::gbgp;
use super::waiting;
use crate::engine::{BookAnswer, EngineError, Note, OptionError, SearchAnswer};
use crate::rules::fen::FenError;
use crate::rules::notation::{Convention, MoveError};
use crate::rules::position::Position;
use crate::search::tt::Bound;
use crate::search::{Info, SearchResult};
use std::fmt;
use std::io::{self, Write};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, OnceLock};
use std::thread;

/// The only writer of stdout. A write that fails (the reader gone, a full disk) means the
/// output is gone for good: the first cause is kept, later lines are dropped, and the session
/// is told (`Event::OutputGone`), so that it ends its search and itself rather than go on with
/// nobody to hear it.
#[derive(Clone)]
pub(super) struct Out {
    gone: Arc<OnceLock<io::Error>>,
    events: SyncSender<Event>,
}

impl Out {
    /// The writer of stdout, telling the session on `events` when the output is gone.
    pub(super) fn new(events: SyncSender<Event>) -> Out {
        Out {
            gone: Arc::new(OnceLock::new()),
            events,
        }
    }

    pub(super) fn line(&self, text: &str) {
        self.lines([text]);
    }

    /// Writes lines under one lock, so that no other thread's line comes between them.
    pub(super) fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) {
        if self.is_gone() {
            return;
        }
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for line in lines {
            let line = line.as_ref();
            log::trace!(">> {line}");
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                self.fail(e);
                return;
            }
        }
    }

    /// Whether the output is gone.
    pub(super) fn is_gone(&self) -> bool {
        self.gone.get().is_some()
    }

    /// Why the output is gone, if it is.
    pub(super) fn failure(&self) -> Option<io::Error> {
        self.gone
            .get()
            .map(|e| io::Error::new(e.kind(), e.to_string()))
    }

    /// Notes that the output is gone (the first cause is kept) and tells the session.
    fn fail(&self, e: io::Error) {
        log::debug!("standard output is gone: {e}");
        if self.gone.set(e).is_ok() {
            // Never blocks: with the channel full, the session is busy and sees `is_gone`
            // after the event at hand.
            let _ = self.events.try_send(Event::OutputGone);
        }
    }

    /// Watches stdout on a thread of its own: a pipe whose reader left (or a terminal that hung
    /// up) is noticed at once, not at the next line written, which a deep search may write
    /// only minutes later.
    pub(super) fn watch(&self) -> io::Result<()> {
        let out = self.clone();
        thread::Builder::new()
            .name("moulin-output".into())
            .spawn(move || {
                if reader_left() {
                    out.fail(io::Error::from(io::ErrorKind::BrokenPipe));
                }
            })
            .map(|_| ())
    }
}

/// Waits until stdout's reader is gone: true then; false when stdout cannot be watched (closed,
/// or a poll error). A file or a terminal that stays open is waited on forever.
fn reader_left() -> bool {
    // No event asked for: poll reports only an error (a pipe with no reader left) or a hang-up.
    let mut fd = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: 0,
        revents: 0,
    };
    loop {
        // SAFETY: `fd` is one valid `pollfd`, borrowed for the call only.
        let n = unsafe { libc::poll(&raw mut fd, 1, -1) };
        if n < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        if fd.revents & libc::POLLNVAL != 0 {
            return false;
        }
        if fd.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            return true;
        }
    }
}

/// Why a command was refused. Every error is one line `info string error: <this>`.
#[derive(Debug)]
pub(super) enum Error {
    Command(CommandError),
    Option(OptionError),
    Fen(FenError),
    /// A move of `position ... moves` (index from 0).
    Move(usize, MoveError),
    /// What the engine refused (`searchmoves`, a thread).
    Engine(EngineError),
    /// A line that could not wait for the running job (the queue is full), as shown.
    Dropped(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Command(e) => e.fmt(f),
            Error::Option(e) => e.fmt(f),
            Error::Fen(e) => write!(f, "position: {e}"),
            Error::Move(i, e) => write!(f, "position: move {}: {e}", i + 1),
            Error::Engine(e) => e.fmt(f),
            Error::Dropped(line) => write!(
                f,
                "{line} dropped: {} commands or {} MB wait already for the running job",
                waiting::MAX_LINES,
                waiting::MAX_BYTES >> 20
            ),
        }
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Error {
        Error::Engine(e)
    }
}

impl From<CommandError> for Error {
    fn from(e: CommandError) -> Error {
        Error::Command(e)
    }
}

/// Makes any text one safe output line: control characters escaped, at most 400 characters.
pub(super) fn one_line(text: &str) -> String {
    crate::text::printable(text, 400)
}

/// `bestmove <move> [ponder <move>]` in the notation in force. In the action notation a turn
/// that removes is answered with its step only; a ponder move is shown only when the printed
/// move ends our turn.
pub(super) fn bestmove_line(
    root: &Position,
    result: &SearchResult,
    notation: Convention,
) -> String {
    let Some(best) = result.best else {
        return "bestmove none".into();
    };
    let mut after = *root;
    after.play(best);
    let (shown, turn_ends) = match notation {
        Convention::Turn => (best.turn_notation(), after.pending_removals() == 0),
        Convention::Action => {
            let tokens = best.action_tokens();
            let first = tokens.first().cloned().unwrap_or_default();
            (first, tokens.len() == 1 && after.pending_removals() == 0)
        }
    };
    let mut line = format!("bestmove {shown}");
    if let (Some(ponder), true) = (result.ponder, turn_ends) {
        let p = match notation {
            Convention::Turn => ponder.turn_notation(),
            Convention::Action => ponder.action_tokens().first().cloned().unwrap_or_default(),
        };
        if !p.is_empty() {
            line.push_str(" ponder ");
            line.push_str(&p);
        }
    }
    line
}

/// One `info` line of search progress.
pub(super) fn info_line(info: &Info, root: &Position, notation: Convention) -> String {
    let score = info.score.to_string();
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} tbhits {} \
         time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        let mut pos = *root;
        for mv in &info.pv {
            line.push(' ');
            // Removals in an order that reads back one token at a time, from the position the
            // move is played in.
            line.push_str(&mv.written_at(&pos, notation));
            pos.play(*mv);
        }
    }
    line
}

/// What the engine knows besides its search (`engine::inventory`), a line a part.
pub(super) fn inventory_lines(lines: &[String]) -> Vec<String> {
    lines.iter().map(|l| format!("info string {l}")).collect()
}

/// An error line in `dialect`'s form: `info string error: <text>` (in GBGP with the words the
/// GUI would read as fields quoted).
pub(super) fn error_line(text: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::Uci => format!("info string error: {text}"),
        Dialect::Gbgp => gbgp::error_line(text),
    }
}

/// The lines of a search's answer: in UCI what the result knows exactly (the game's end, the
/// tables' value, the placing solution's), then `bestmove`; in GBGP `bestmove` alone (the GUI
/// reads `info string` lines as search progress).
pub(super) fn answer_lines(answer: &SearchAnswer, dialect: Dialect) -> Vec<String> {
    let SearchAnswer {
        root,
        notation,
        result,
    } = answer;
    let bestmove = bestmove_line(root, result, *notation);
    if dialect == Dialect::Gbgp {
        return vec![bestmove];
    }
    let mut lines = Vec::new();
    if let Some(outcome) = result.outcome {
        lines.push(format!(
            "info string game over: {} {}",
            outcome.score(),
            outcome.describe()
        ));
    }
    if let Some(v) = result.table {
        lines.push(format!("info string tables {v} dtc {}", v.distance()));
    }
    if let Some(v) = result.solved {
        lines.push(format!(
            "info string placing solution {}",
            crate::search::exact::name(v)
        ));
    }
    lines.push(bestmove);
    lines
}

/// The lines that say `note` in `dialect` (none where the dialect says nothing of it): an error
/// as the dialect's error line; perft's and the bench's lines as they are (with perft's total
/// and a stop said in `info string`); a book move as a search's line; any other note in an
/// `info string` in UCI only (the engine logs them).
pub(super) fn note_lines(note: &Note, dialect: Dialect) -> Vec<String> {
    let text = || one_line(&note.to_string());
    match note {
        Note::BookMove {
            root,
            notation,
            answer,
        } => book_lines(answer, root, *notation, dialect),
        Note::PerftMove { .. } | Note::BenchLine(_) | Note::BenchDone(_) => vec![text()],
        Note::PerftDone { leaves, .. } => {
            vec![format!("info string {}", text()), format!("nodes {leaves}")]
        }
        Note::PerftStopped | Note::BenchStopped => vec![format!("info string {}", text())],
        _ if note.is_error() => vec![error_line(&text(), dialect)],
        _ => match dialect {
            Dialect::Uci => vec![format!("info string {}", text())],
            Dialect::Gbgp => Vec::new(),
        },
    }
}

/// The lines that state a book answer in `root` (before `bestmove`): in UCI an `info depth 0`
/// line with the score and the move as a search states them (§6), then the `info string book`
/// line (the book's whole turn, its weight, its proven value); in GBGP its `info depth 0` line
/// alone.
fn book_lines(
    answer: &BookAnswer,
    root: &Position,
    notation: Convention,
    dialect: Dialect,
) -> Vec<String> {
    let pv: Vec<_> = answer.result.best.into_iter().collect();
    match dialect {
        Dialect::Uci => {
            let info = Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score: answer.result.score,
                bound: answer.bound,
                nodes: 0,
                nps: 0,
                hashfull: 0,
                tbhits: 0,
                time_ms: 0,
                pv,
            };
            vec![
                info_line(&info, root, notation),
                format!("info string {answer}"),
            ]
        }
        Dialect::Gbgp => vec![gbgp::book_line(root, answer.result.score, &pv)],
    }
}

pub(super) const HELP: [&str; 26] = [
    "moulin speaks a UCI-style protocol; protocol.md is the full reference.",
    "  uci                          identify, list the options, answer uciok",
    "  isready                      answer readyok (also during a search)",
    "  setoption name <N> value <v> set an option (see uci for names and ranges)",
    "  ucinewgame                   forget the previous game; back to the start position",
    "  position startpos [moves m...]",
    "  position fen <string> [moves m...]",
    "                               set the position; moves as d6xb4 or d6 xb4",
    "  go [depth d] [nodes n] [movetime ms] [wtime ms] [btime ms] [winc ms] [binc ms]",
    "     [movestogo n] [infinite] [ponder] [searchmoves m...]",
    "                               search; answers info lines, then bestmove",
    "  go perft <d> | perft <d>     count the leaves d plies deep, per root move",
    "  bench [depth d]              the search of moulin bench; its last line: <nodes> nodes",
    "  stop                         end the search (or perft, or bench) now",
    "  ponderhit                    the expected move was played: ponder search goes on for real",
    "  quit                         leave (also at the end of input)",
    "  d                            draw the board and describe the position",
    "  fen                          print the position string",
    "  moves                        list the legal moves",
    "  eval                         the static evaluation, term by term",
    "  help                         this text",
    "Moves: placing d6, moving d6-d5, removing xb4; a turn that removes is d6xb4 (one token)",
    "or d6 xb4 (two tokens). Option MoveNotation chooses the form the engine writes.",
    "Points: a7 top left to g1 bottom right (see d).",
    "Bad input gets one line: info string error: <what>, and changes nothing.",
    "During a search go, perft, bench, setoption, ucinewgame wait for it (and all after them).",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Point;
    use crate::rules::game::Game;
    use crate::rules::moves::Move;
    use crate::rules::notation;
    use crate::rules::Rules;
    use crate::search::Score;
    #[test]
    fn bestmove_in_both_notations() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d7", "a1", "g7", "d1"]).unwrap();
        let root = *game.position();
        let best = notation::parse_move(&root, "a7xd1").unwrap();
        let ponder = Move::place(Point::parse("b4").unwrap());
        let result = SearchResult {
            best: Some(best),
            ponder: Some(ponder),
            score: Score::Cp(0),
            depth: 1,
            nodes: 1,
            outcome: None,
            table: None,
            solved: None,
        };
        assert_eq!(
            bestmove_line(&root, &result, Convention::Turn),
            "bestmove a7xd1 ponder b4"
        );
        assert_eq!(
            bestmove_line(&root, &result, Convention::Action),
            "bestmove a7"
        );
    }
}
