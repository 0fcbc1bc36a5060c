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
use super::reply::{info_line, note_lines, Out};
use crate::engine::{Done, Listener, Note};
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
