//! The subcommands' standard output. Every line a command prints goes through `print` (or the
//! `out!` and `outln!` macros over it), never `println!`, which panics when a write fails. A
//! reader that left (a closed pipe: `moulin perft 6 --divide | head -1`) ends the command
//! quietly, as SIGPIPE ends other Unix tools; any other failure (a full disk) is one error line
//! and a failure status (`ending`).
//!
//! SIGPIPE itself stays ignored (Rust's default) while a command runs: `match`, `openings` and
//! `train suite` write to engines' pipes and must see an engine's end as an error, not die of
//! it. Only once the command is over, its files closed and its engines ended, does a closed
//! output end the process by SIGPIPE.

/// The edge's error, named here too for the match commands, which import it from here.
pub use super::failure::Failure;

use std::cell::RefCell;
use std::fmt;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

/// Writes `text` to standard output at once (flushed, so that a full disk is seen here).
///
/// # Errors
///
/// `Failure::Closed` when the reader left, else the system's error as one line.
pub fn print(text: fmt::Arguments<'_>) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_fmt(text)
        .and_then(|()| out.flush())
        .map_err(Failure::of_stdout)
}

/// `print!`, returning the `Failure` of the write instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::output::print(format_args!($($arg)*))
    };
}

/// `println!`, returning the `Failure` of the write instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::commands::output::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// Standard output for a callback that cannot return an error (a library's report): the first
/// failure is kept and later lines dropped; `go_on` tells the work whether to go on, `finish`
/// gives the failure to the command.
#[derive(Default)]
pub(crate) struct Report {
    failure: RefCell<Option<Failure>>,
}

impl Report {
    /// Writes a line, unless an earlier one failed.
    pub(crate) fn line(&self, text: fmt::Arguments<'_>) {
        if self.failed() {
            return;
        }
        if let Err(e) = outln!("{text}") {
            *self.failure.borrow_mut() = Some(e);
        }
    }

    /// Whether a write failed: the work may stop.
    pub(crate) fn failed(&self) -> bool {
        self.failure.borrow().is_some()
    }

    /// `Continue` while the writes succeed.
    pub(crate) fn go_on(&self) -> ControlFlow<()> {
        if self.failed() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The first failure, if any.
    pub(crate) fn finish(self) -> Result<(), Failure> {
        self.failure.into_inner().map_or(Ok(()), Err)
    }
}

/// The exit status of a command that ended with `done`: a failure is one line on stderr and
/// status 1 (`USAGE` for a usage error); a closed output ends the process by SIGPIPE, as it ends
/// other Unix tools (status 141 in a shell), so that `set -o pipefail` sees the command did not
/// finish.
#[must_use]
pub fn ending(done: Result<(), Failure>) -> ExitCode {
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Closed) => end_by_sigpipe(),
        Err(failure) => {
            eprintln!("moulin: {failure}");
            match failure {
                Failure::Usage(_) => ExitCode::from(USAGE),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

/// The exit status of a usage error, clap's and moulin's own.
pub const USAGE: u8 = 2;

/// The exit status after clap's own answer (`--help`, `--version`, a usage error), whose write
/// may fail as well.
#[must_use]
pub fn clap_ending(e: &clap::Error) -> ExitCode {
    let status = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(USAGE));
    match e.print() {
        Err(io) if !e.use_stderr() => ending(Err(Failure::of_stdout(io))),
        // A usage error that stderr refused: nothing left to tell it on.
        Ok(()) | Err(_) => status,
    }
}

/// Ends the process by SIGPIPE, its default action restored first (Rust ignores it).
fn end_by_sigpipe() -> ExitCode {
    // SAFETY: restoring a signal's default action and raising it are async-signal-safe calls
    // with no memory passed; nothing runs after them but this process's end.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    // Not reached; the shell's status for a death by SIGPIPE, should the signal be blocked.
    ExitCode::from(141)
}
