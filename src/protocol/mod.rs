//! The protocol of protocol.md: a UCI-style conversation on stdin/stdout.
//!
//! Three kinds of thread take part. A reader thread turns stdin into lines (bytes, decoded
//! lossily, each at most `command::MAX_LINE` long) and sends them over a channel. The engine loop
//! (the caller of `run`) drives the engine (the game, the settings, the searcher); it parses each
//! line into a `Command` as it comes, so input is never held up by a search: it acts on it at
//! once, or, if the command needs the engine idle, keeps it to obey once the running job ends
//! (`waiting`). `go`, `perft` and `bench` run on a worker thread of their own that reports back
//! over the same channel; `stop` and `ponderhit` reach it through the shared `Control`. Only this
//! module prints, one whole line at a time under the stdout lock, flushed at once, so lines
//! never interleave. A fourth thread watches stdout: when its reader leaves (or a write fails)
//! the session is told, and ends its search and itself.
//!
//! The opening book (`crate::book`) is loaded at start on a thread of its own; in a book
//! position `go` answers at once from it instead of starting a search.
//!
//! Files: `event` is what the engine loop waits for and `dialect` the two dialects a session may
//! speak; `input` reads lines; `command` parses them into `Command`s (the UCI dialect);
//! `session` is one conversation (dialect, output, the lines that wait for a job in `waiting`,
//! the replies), driving the engine (`crate::engine::Engine`, as Stockfish's `uci` drives its
//! `Engine`), whose reports reach it through `relay`, its `Listener`; `reply` writes every
//! answer line and `display` the `d` and `eval` pictures. The GBGP dialect of the Nine Morris 3D
//! GUI (`gbgp`) goes beside `command` and `reply`: a session whose first line is `gbgp` speaks
//! it, with the same engine.

mod command;
mod dialect;
mod display;
mod event;
mod gbgp;
mod input;
mod relay;
mod reply;
mod session;
mod waiting;

pub use crate::engine::{Changed, OptionError, Settings};

use crate::box_error::BoxError;
use crate::engine::{self, Part};
pub use command::{parse, Command, CommandError, Go, Start, MAX_LINE};

use std::io::{self, IsTerminal, Write};
use std::sync::mpsc;
use std::thread;

/// Why the protocol could not start.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// An option given on the command line (`--option NAME=VALUE`) was refused.
    #[error("--option {name}={value}: {source}")]
    Option {
        /// The option's name, as given.
        name: String,
        /// Its value, as given.
        value: String,
        /// Why it was refused.
        source: OptionError,
    },
    /// A file an option given on the command line names (`EvalFile`, `OpeningSolution`,
    /// `TablesPath`, `BookFile`) cannot be used: the user named it, so it is not passed over.
    #[error("--option {name}={value}: {source}")]
    NamedFile {
        /// The option's name, as given.
        name: String,
        /// Its value, as given.
        value: String,
        /// Why the file cannot be used.
        source: BoxError,
    },
    /// The thread that reads stdin could not be started.
    #[error("cannot start the input thread: {source}")]
    InputThread {
        /// The system's error.
        source: io::Error,
    },
    /// Stdout is gone: its reader left (`BrokenPipe`), or a write failed (a full disk).
    #[error("cannot write to standard output: {source}")]
    Output {
        /// The system's error.
        source: io::Error,
    },
}

/// The line a person at a terminal reads first, on stderr, so that a screen that waits for a
/// command says so: only when stdin is a terminal (a GUI or a script reads stdout alone, and a
/// line there would be a word of the protocol).
pub fn greeting(stdin_is_terminal: bool) -> Option<String> {
    stdin_is_terminal.then(|| format!("moulin {}: type help", env!("CARGO_PKG_VERSION")))
}

/// Runs the protocol on stdin/stdout until `quit`, the end of input (after answering what was
/// asked before it) or an output that is gone, with `options` (name, value) set first; a bad
/// one is an error before anything is read. On a terminal the `greeting` comes first.
///
/// # Errors
///
/// An option that is refused, an input thread that cannot start, or stdout gone.
pub fn run(options: Vec<(String, String)>) -> Result<(), ProtocolError> {
    let mut check = Settings::default();
    for (name, value) in &options {
        check
            .set(name, Some(value))
            .map_err(|source| ProtocolError::Option {
                name: name.clone(),
                value: value.clone(),
                source,
            })?;
    }
    check_named_files(&check, &options)?;
    if let Some(line) = greeting(io::stdin().is_terminal()) {
        // A greeting that cannot be written (stderr closed) is no reason not to play.
        let _ = writeln!(io::stderr(), "{line}");
    }
    let (tx, rx) = mpsc::sync_channel(256);
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("moulin-input".into())
        .spawn(move || input::read_lines(io::stdin().lock(), &reader_tx))
        .map_err(|source| ProtocolError::InputThread { source })?;
    // A table file cut while the search reads it costs that table, not the engine.
    if let Err(e) = crate::tables::faults::catch_faults() {
        log::warn!("a table file cut while read will end the engine (no SIGBUS handler: {e})");
    }
    let mut session = session::Session::new(tx, rx);
    for (name, value) in options {
        session.preset(name, value);
    }
    match session.run() {
        Some(source) => Err(ProtocolError::Output { source }),
        None => Ok(()),
    }
}

/// Reads each file that `options` name (as `settings`, where they are all set, say) as the
/// engine would, under the rules in force (`engine::check_named`): one that cannot be used ends
/// moulin before the conversation starts, since the user named it (for a GUI that sets no
/// option, the command line is the only way to set these).
fn check_named_files(
    settings: &Settings,
    options: &[(String, String)],
) -> Result<(), ProtocolError> {
    for (name, value) in options {
        let part = match name.to_ascii_lowercase().as_str() {
            "evalfile" => Part::Network,
            "openingsolution" => Part::OpeningSolution,
            "tablespath" => Part::Tables,
            "bookfile" => Part::Book,
            _ => continue,
        };
        engine::check_named(settings, part).map_err(|source| ProtocolError::NamedFile {
            name: name.clone(),
            value: value.clone(),
            source: Box::new(source),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_is_greeted_and_a_pipe_is_not() {
        let line = greeting(true).unwrap();
        assert_eq!(
            line,
            format!("moulin {}: type help", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(greeting(false), None);
    }
}
