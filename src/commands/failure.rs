//! The command line's edge: `Failure`, the one error type of the handlers. `?` takes any
//! library error into it (every `std::error::Error` that can cross threads, and text), keeping it
//! whole with its `source()` chain; what a user needs to know of the command's side ("--openings
//! FILE") is put in front of it by `context`, never by formatting the error into a string. The
//! user reads it as one line, "what: why" (`output::ending`).
//!
//! `Failure` is not itself a `std::error::Error`: that is what lets `?` take every error into it
//! (the same choice as `anyhow::Error`, without the crate: the chain is kept by `Within`, and
//! the exit statuses need the variants below).

use moulin::box_error::BoxError;
use std::error::Error;
use std::fmt;
use std::io;

/// Why a command did not finish.
#[derive(Debug)]
pub enum Failure {
    /// The reader of standard output left (a closed pipe): nothing more to say to anyone.
    Closed,
    /// What went wrong: an error of the library (or of the command's own), with what the command
    /// was doing put in front of it by `context`.
    Failed(BoxError),
    /// The command line itself is wrong (a value out of range, a malformed spec): nothing was
    /// done. Exit status 2, as for clap's own usage errors.
    Usage(BoxError),
}

impl Failure {
    /// The failure of a write to standard output.
    #[must_use]
    pub fn of_stdout(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::from(e).context("cannot write to standard output")
        }
    }

    /// A usage error (exit status 2), `why` the command line is wrong: a bad flag value, a
    /// missing argument, options that conflict. Nothing was done.
    #[must_use]
    pub fn usage(why: impl Into<BoxError>) -> Failure {
        Failure::Usage(why.into())
    }

    /// This failure as a usage error (exit status 2): what the command was given is wrong.
    /// A closed output stays closed.
    #[must_use]
    pub fn into_usage(self) -> Failure {
        match self {
            Failure::Failed(cause) => Failure::Usage(cause),
            other => other,
        }
    }

    /// This failure with `what` in front ("what: why"); a closed output stays closed.
    #[must_use]
    pub fn context(self, what: impl fmt::Display) -> Failure {
        let what = what.to_string();
        match self {
            Failure::Closed => Failure::Closed,
            Failure::Usage(source) => Failure::Usage(Box::new(Within { what, source })),
            Failure::Failed(source) => Failure::Failed(Box::new(Within { what, source })),
        }
    }
}

/// Every error that can cross threads, and a line of text (`String`, `&str`), is a `Failure`:
/// what `?` uses.
impl<E: Into<BoxError>> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Failed(e.into())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Closed => f.write_str("standard output closed"),
            Failure::Failed(cause) | Failure::Usage(cause) => write!(f, "{cause}"),
        }
    }
}

/// An error with what the command was doing when it came: "what: why", its source the error.
#[derive(Debug)]
struct Within {
    /// What the command was doing, or the input it concerns ("--openings FILE").
    what: String,
    /// The error itself.
    source: BoxError,
}

impl fmt::Display for Within {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

impl Error for Within {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.source)
    }
}

/// `context` on a `Result`: its error becomes a `Failure` with `what` in front.
pub trait Context<T> {
    /// The error, if any, as a `Failure` with `what` in front.
    fn context(self, what: impl fmt::Display) -> Result<T, Failure>;

    /// `context`, `what` made only when there is an error.
    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T, Failure>;

    /// The error, if any, as a usage error (`Failure::into_usage`): the command line was wrong.
    fn usage(self) -> Result<T, Failure>;
}

impl<T, E: Into<Failure>> Context<T> for Result<T, E> {
    fn context(self, what: impl fmt::Display) -> Result<T, Failure> {
        self.map_err(|e| e.into().context(what))
    }

    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T, Failure> {
        self.map_err(|e| e.into().context(what()))
    }

    fn usage(self) -> Result<T, Failure> {
        self.map_err(|e| e.into().into_usage())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_comes_first_and_the_cause_stays_the_source() {
        let read: Result<(), io::Error> = Err(io::Error::other("disk on fire"));
        let failure = read.context("--openings a.txt").unwrap_err();
        assert_eq!(failure.to_string(), "--openings a.txt: disk on fire");
        let Failure::Failed(cause) = failure else {
            panic!("not a cause")
        };
        let source = cause.source().unwrap();
        assert!(source.downcast_ref::<io::Error>().is_some());
    }

    #[test]
    fn a_closed_output_stays_closed_and_a_usage_error_a_usage_error() {
        let closed: Result<(), Failure> = Err(Failure::Closed);
        assert!(matches!(closed.context("x"), Err(Failure::Closed)));
        let usage: Result<(), Failure> = Err(Failure::Usage("bad".into()));
        let failure = usage.context("--tc").unwrap_err();
        let plain: Result<(), &str> = Err("3 engines");
        assert!(matches!(plain.usage(), Err(Failure::Usage(_))));
        assert!(matches!(Failure::usage("give --plies"), Failure::Usage(_)));
        assert!(matches!(&failure, Failure::Usage(_)));
        assert_eq!(failure.to_string(), "--tc: bad");
    }

    #[test]
    fn text_is_a_failure_too() {
        let f: Failure = "no engine".into();
        assert_eq!(f.to_string(), "no engine");
        let f = Failure::from(format!("{} engines", 2)).context("--engine");
        assert_eq!(f.to_string(), "--engine: 2 engines");
    }
}
