//! The ears the session gives the engine (`engine::Listener`): a search's progress and the
//! engine's notes worded in the session's dialect and written at once, its threads' ends relayed
//! to the engine loop (`Event::Engine`). In GBGP a search's progress is thinned to the first line
//! of each `gbgp::INFO_EVERY` from its start (the GUI reads one line a frame, 17 ms, on the
//! mover's clock), the last one held back written when it ends, so that the final depth shows;
//! of the notes only errors and book moves reach the GUI (it reads any other `info string` as
//! search progress): the rest is logged.

use super::dialect::Dialect;
use super::event::Event;
use super::gbgp;
use super::reply::{info_line, one_line, Out};
use crate::engine::{BookAnswer, Done, Listener, Note};
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::Info;
use std::sync::mpsc::SyncSender;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// The session's side of the engine's reports.
pub(super) struct Relay {
    out: Out,
    events: SyncSender<Event>,
    state: Mutex<State>,
}

/// What the relay keeps between reports.
struct State {
    dialect: Dialect,
    /// GBGP: when a progress line was last written, and the last one held back since.
    last_shown: Instant,
    held: Option<String>,
}

impl Relay {
    /// Writes to `out` and relays the engine's threads' ends on `events`.
    pub(super) fn new(out: Out, events: SyncSender<Event>) -> Relay {
        Relay {
            out,
            events,
            state: Mutex::new(State {
                dialect: Dialect::Uci,
                last_shown: Instant::now(),
                held: None,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Words from now on in `dialect`.
    pub(super) fn set_dialect(&self, dialect: Dialect) {
        self.state().dialect = dialect;
    }

    /// A search starts: GBGP's thinning counts from now.
    pub(super) fn search_starts(&self) {
        let mut state = self.state();
        state.last_shown = Instant::now();
        state.held = None;
    }
}

impl Listener for Relay {
    fn info(&self, root: &Position, notation: Convention, info: &Info) {
        let mut state = self.state();
        match state.dialect {
            Dialect::Uci => self.out.line(&info_line(info, root, notation)),
            Dialect::Gbgp if info.multipv == 1 => {
                let line = gbgp::info_line(info, root);
                if state.last_shown.elapsed() >= gbgp::INFO_EVERY {
                    state.last_shown = Instant::now();
                    state.held = None;
                    self.out.line(&line);
                } else {
                    state.held = Some(line);
                }
            }
            Dialect::Gbgp => {}
        }
    }

    fn note(&self, note: Note) {
        let dialect = self.state().dialect;
        self.out.lines(note_lines(&note, dialect));
    }

    fn done(&self, done: Done) {
        if done.ends_job() {
            // The progress line held back is written before the answer.
            if let Some(line) = self.state().held.take() {
                self.out.line(&line);
            }
        }
        let _ = self.events.send(Event::Engine(Box::new(done)));
    }
}

/// The lines that say `note` in `dialect` (none where the dialect says nothing of it): an error
/// as the dialect's error line; perft's and the bench's lines as they are (with perft's total
/// and a stop said in `info string`); a book move as a search's line; any other note in an
/// `info string` in UCI only (the engine logs them).
fn note_lines(note: &Note, dialect: Dialect) -> Vec<String> {
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
        _ if note.is_error() => vec![match dialect {
            Dialect::Uci => format!("info string error: {}", text()),
            Dialect::Gbgp => gbgp::error_line(&text()),
        }],
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
                time_ms: 0,
                pv,
            };
            let proven = answer.proven.map_or(String::new(), |v| {
                format!(" proven {}", crate::search::exact::name(v))
            });
            vec![
                info_line(&info, root, notation),
                format!(
                    "info string book {} weight {}{proven}",
                    answer.turn.turn_notation(),
                    answer.weight
                ),
            ]
        }
        Dialect::Gbgp => vec![gbgp::book_line(root, answer.result.score, &pv)],
    }
}
