//! The protocol of protocol.md: a UCI-style conversation on stdin/stdout.
//!
//! Three kinds of thread take part. A reader thread turns stdin into lines (bytes, decoded
//! lossily, each at most `command::MAX_LINE` long) and sends them over a channel. The engine loop
//! (the caller of `run`) owns the game, the settings and the searcher; it parses each line into a
//! `Command` and acts on it at once, so input is never held up by a search. `go` and `perft` run
//! on a worker thread of their own that reports back over the same channel; `stop` and
//! `ponderhit` reach it through the shared `Control`. Only this module prints, one whole line at a
//! time under the stdout lock, flushed at once, so lines never interleave.
//!
//! The opening book (`crate::book`) is loaded at start on a thread of its own; in a book
//! position `go` answers at once from it instead of starting a search.
//!
//! Files: `input` reads lines; `command` parses them into `Command`s (the UCI dialect);
//! `session` is the state of one conversation and what each command does, with `jobs` (the
//! search and perft threads) and `books` (the opening book as the session plays it); `options`
//! is the table of options; `reply` writes every answer line and `display` the `d` and `eval`
//! pictures. The GBGP dialect of the Nine Morris 3D GUI (`gbgp`) goes beside `command` and
//! `reply`: a session whose first line is `gbgp` speaks it, with the same state and search.

mod books;
mod command;
mod display;
mod gbgp;
mod input;
mod jobs;
mod options;
mod reply;
mod session;

pub use command::{parse, Command, CommandError, Go, Start, MAX_LINE};
pub use options::{Changed, OptionError, Settings};

use crate::book::Book;
use crate::search::{SearchResult, Searcher};
use crate::tables::Tables;
use std::io;
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Runs the protocol on stdin/stdout until `quit` or the end of input, with `options` (name,
/// value) set first; a bad one is an error before anything is read.
pub fn run(options: Vec<(String, String)>) -> Result<(), String> {
    let mut check = Settings::default();
    for (name, value) in &options {
        check
            .set(name, Some(value))
            .map_err(|e| format!("--option {name}={value}: {e}"))?;
    }
    let (tx, rx) = mpsc::sync_channel(256);
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("moulin-input".into())
        .spawn(move || input::read_lines(io::stdin().lock(), &reader_tx))
        .map_err(|e| format!("cannot start the input thread: {e}"))?;
    let mut session = session::Session::new(tx, rx);
    for (name, value) in options {
        session.preset(name, value);
    }
    session.run();
    Ok(())
}

/// What the engine loop waits for.
pub(super) enum Event {
    /// One line of input.
    Line(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped whole.
    TooLong(usize),
    /// The end of input.
    Eof,
    /// The search thread is done and gives the searcher back.
    SearchDone(Box<Searcher>, SearchResult),
    /// The search thread panicked (a bug): the searcher is lost.
    SearchPanicked(String),
    /// A book was read on its thread (`None`: no such file; `Err`: what was wrong with it).
    BookLoaded(PathBuf, Result<Option<Box<Book>>, String>),
    /// Endgame tables were read on their thread for a request (`Err`: what was wrong).
    TablesLoaded(u64, Result<Box<Tables>, String>),
    /// Perft finished (`Some(total, time)`) or was stopped (`None`).
    PerftDone(Option<(u64, Duration)>),
}
