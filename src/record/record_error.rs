//! What is wrong with a record or an openings file, where it stands.

use crate::rules::fen::FenError;
use crate::rules::notation::MoveError;
use crate::rules::RuleError;

/// What is wrong at a place of a record file: the reader's own words, or the error of the
/// rules that refused the record's start or a move there (kept whole, as the source).
#[derive(Debug, thiserror::Error)]
pub enum Why {
    /// What the reader found wrong (a token out of place, a tag given twice).
    #[error("{0}")]
    Text(String),
    /// The game's start (its `Variant` or `FEN` tag) is refused.
    #[error(transparent)]
    Start(Box<RecordError>),
    /// A move cannot be played there.
    #[error(transparent)]
    Move(#[from] MoveError),
}

impl From<&str> for Why {
    fn from(text: &str) -> Why {
        Why::Text(text.to_string())
    }
}

impl From<String> for Why {
    fn from(text: String) -> Why {
        Why::Text(text)
    }
}

/// What is wrong with a record: the first problem of a record file, where it stands; or, in a
/// record read, the rules its `Variant` tag names, its `FEN` tag or a move of its main line.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// A problem of a record file at a line and a column.
    #[error("line {line}, column {column}: {message}")]
    At {
        /// From 1.
        line: usize,
        /// From 1, in characters.
        column: usize,
        /// What is wrong there.
        #[source]
        message: Why,
    },
    /// The `Variant` tag names no preset.
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// The `FEN` tag is not a position under the rules.
    #[error("FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A move of the main line cannot be played.
    #[error("move {number}: {source}")]
    Move {
        /// The move's number in the line, from 1.
        number: usize,
        /// Why it cannot be played.
        source: MoveError,
    },
    /// A record file that cannot be read on.
    #[error("line {line}, column {column}: cannot read on: {source}")]
    Read {
        /// From 1.
        line: usize,
        /// From 1, in characters.
        column: usize,
        /// The system's error.
        source: std::io::Error,
    },
    /// A word of an opening line too long to be a move or a position-string field.
    #[error("{word} is too long to be a move or a field (at most {max} bytes)")]
    LongWord {
        /// The word, quoted with `text::quoted`.
        word: String,
        /// The longest a word may be, in bytes.
        max: usize,
    },
    /// An opening line's position string has fewer than 17 fields.
    #[error("a position string has 17 fields")]
    FenFields,
    /// An opening's position string is not a position under the rules.
    #[error(transparent)]
    OpeningFen(FenError),
    /// An opening's move cannot be played.
    #[error(transparent)]
    OpeningMove(MoveError),
    /// An opening ends the game.
    #[error("the game is already over after these moves")]
    Over,
    /// A line of an openings file that is not an opening.
    #[error("{file}, line {line}: {text}: {error}")]
    OpeningLine {
        /// The file's name.
        file: String,
        /// The line's number, from 1.
        line: usize,
        /// The line, quoted with `text::quoted`.
        text: String,
        /// What is wrong with it.
        #[source]
        error: Box<RecordError>,
    },
    /// A game of a PGN openings file that is not an opening.
    #[error("{file}, game {game}: {error}")]
    OpeningGame {
        /// The file's name.
        file: String,
        /// The game's number in the file, from 1.
        game: usize,
        /// What is wrong with it.
        #[source]
        error: Box<RecordError>,
    },
    /// A game of a PGN openings file played under other rules than the match's.
    #[error("its Variant tag {variant} is not the rules in force ({rules})")]
    OpeningVariant {
        /// The tag's value, quoted with `text::quoted`.
        variant: String,
        /// The rules in force, by their preset's name.
        rules: String,
    },
    /// A first opening past the end of the book.
    #[error("start={start} but {file} holds {count} openings")]
    OpeningStart {
        /// The file's name.
        file: String,
        /// The opening asked for first, from 1.
        start: usize,
        /// The openings the book holds.
        count: usize,
    },
    /// An openings file without an opening.
    #[error("{file}: no opening in the file")]
    NoOpening {
        /// The file's name.
        file: String,
    },
    /// An openings file that cannot be read.
    #[error("cannot read openings file {}: {source}", path.display())]
    ReadOpenings {
        /// The file.
        path: std::path::PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}
