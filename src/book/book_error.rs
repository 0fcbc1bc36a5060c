//! The book's errors: what is wrong with a book's text and where (`TextError`, its `TextFlaw`),
//! and what went wrong with a book command or file (`BookError`).

use crate::durable::DurableError;
use crate::rules::fen::FenError;
use crate::rules::notation::MoveError;
use std::fmt;
use std::path::{Path, PathBuf};

/// What is wrong with a book's text, and where: a line of it, or the file as a whole.
#[derive(Debug, thiserror::Error)]
#[error("{}", located(self.file.as_deref(), self.line, &self.flaw))]
pub struct TextError {
    /// The file, when known.
    pub file: Option<String>,
    /// The line (from 1), or 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    #[source]
    pub flaw: TextFlaw,
}

/// What is wrong with a book's text: the error of what read it (a position string, a move, a
/// setting, the book's evaluation), or the book's own check, in words.
#[derive(Debug, thiserror::Error)]
pub enum TextFlaw {
    /// The book's own check, in words.
    #[error("{0}")]
    Said(String),
    /// A position string that does not read.
    #[error(transparent)]
    Position(#[from] FenError),
    /// A move that does not read.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A setting out of its bounds, or searches that cannot be repeated.
    #[error(transparent)]
    Book(#[from] Box<BookError>),
    /// The threads asked for could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// Why not.
        source: rayon::ThreadPoolBuildError,
    },
}

/// A message with the file and line it is about, as `TextError` shows it.
fn located(file: Option<&str>, line: usize, message: &dyn fmt::Display) -> String {
    match (file, line) {
        (Some(file), 0) => format!("{file}: {message}"),
        (Some(file), n) => format!("{file}, line {n}: {message}"),
        (None, 0) => message.to_string(),
        (None, n) => format!("line {n}: {message}"),
    }
}

impl TextError {
    /// The error `message` at line `line` (0: the file as a whole), in a file not named yet.
    pub fn at(line: usize, message: impl Into<String>) -> TextError {
        TextError::of(line, TextFlaw::Said(message.into()))
    }

    /// The error of what read line `line` (0: the file as a whole), in a file not named yet.
    pub fn of(line: usize, flaw: impl Into<TextFlaw>) -> TextError {
        TextError {
            file: None,
            line,
            flaw: flaw.into(),
        }
    }

    /// The same error, at line `line`.
    #[must_use]
    pub fn at_line(self, line: usize) -> TextError {
        TextError { line, ..self }
    }

    /// The same error, naming the file.
    #[must_use]
    pub fn in_file(mut self, path: &Path) -> TextError {
        self.file = Some(path.display().to_string());
        self
    }

    /// The same error, said of the data `origin` names (a file, or the built-in book).
    #[must_use]
    pub fn in_origin(mut self, origin: &crate::shipped::Origin) -> TextError {
        self.file = Some(origin.to_string());
        self
    }
}

/// What went wrong in the book layer: a book that does not read, a file or journal that cannot
/// be read or written, a setting out of its bounds, a book that cannot be searched again.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The book's text is wrong (the file and line are named when known).
    #[error(transparent)]
    Text(#[from] TextError),
    /// A book file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A journal or an output file could not be read, written or locked.
    #[error(transparent)]
    Journal(#[from] DurableError),
    /// A setting is out of its bounds (`check_setting`).
    #[error("{name} {value} is out of bounds ({min} to {max})")]
    OutOfBounds {
        /// The setting, as its flag or header field names it.
        name: String,
        /// The value given.
        value: i64,
        /// The least value allowed.
        min: i64,
        /// The greatest value allowed.
        max: i64,
    },
    /// The book's searches used another evaluation than this build's: its entries cannot be
    /// searched again.
    #[error(
        "the book's searches used the evaluation {}, this build has {}: its entries cannot be \
         searched again (rebuild the book)",
        evaluation_text(*book),
        evaluation_text(*ours)
    )]
    Evaluation {
        /// The fingerprint of the book's evaluation (`eval::fingerprint`).
        book: u64,
        /// The fingerprint of this build's.
        ours: u64,
    },
    /// A book is at the path a build would write, and the build would not cover it (`what`
    /// says why).
    #[error("{what}: give another --out, or --force to replace it")]
    Refused {
        /// The book there and why the build would not cover it.
        what: String,
    },
    /// A book would be larger than the engine reads (`MAX_FILE_BYTES`).
    #[error("the expanded book would be {bytes} bytes, more than the {max} the engine reads")]
    TooLarge {
        /// The size of the book's text.
        bytes: usize,
        /// The largest book the engine reads.
        max: u64,
    },
}

/// An evaluation fingerprint as headers and messages give it: `hand` or 16 hex digits.
pub fn evaluation_text(e: u64) -> String {
    if e == 0 {
        "hand".to_string()
    } else {
        format!("{e:016x}")
    }
}
