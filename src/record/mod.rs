//! Game records in a PGN-shaped text format (README, "Game records"): tag pairs, then the moves
//! in the turn notation of RULES.md §4 numbered by full moves, with `{comments}`,
//! `(variations)`, annotation glyphs (`$n`, `!`, `?`, `!!`, `??`, `!?`, `?!`) and the result;
//! and (`openings`) the openings files that say where the games of a match or a book cover start.
//!
//! ```text
//! [Event "moulin match"]
//! [Site "?"]
//! [Date "2026.11.23"]
//! [Round "3"]
//! [White "new"]
//! [Black "old"]
//! [Result "1-0"]
//! [Variant "nine"]
//!
//! 1. d6 f4 2. d2 b4 {the book ends here} 3. f6 (3. b6 d7) 3... d7 ... 1-0
//! ```
//!
//! `games` reads a file of any number of games (CRLF or LF line ends, a UTF-8 byte order mark
//! skipped) one game at a time, and checks every move, variations included, against the rules
//! the `Variant` tag names from the start the `FEN` tag gives; the first problem is an error
//! with its line and column. A game may be at most [`MAX_GAME_BYTES`] and its variations may
//! nest at most [`MAX_DEPTH`] deep, so that reading takes time in proportion to the file and
//! memory in proportion to one game, whatever the file. `write` makes the text that `read`
//! reads back to the same game.

pub mod openings;
mod read;
mod tokens;
mod write;

pub use read::{games, read, Games};
pub use write::write;

/// The most bytes a game may take, from its first token to its result: the reader holds one
/// game at a time, so this bounds its memory.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// The deepest variations may nest (a variation inside a variation ... of the main line).
pub const MAX_DEPTH: usize = 100;

use crate::rules::fen::{self, FenError};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::MoveError;
use crate::rules::{RuleError, Rules};

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
        message: String,
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
    #[error(
        "{word} is too long to be a move or a field (at most {} bytes)",
        openings::MAX_WORD
    )]
    LongWord {
        /// The word, quoted with `text::quoted`.
        word: String,
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

/// One game.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// The tag pairs, in the order read (or to be written).
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The main line.
    pub moves: Vec<Ply>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unknown or unfinished).
    pub result: String,
}

/// One move of a line, with what annotates it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Ply {
    /// The move in the turn notation (`d6`, `d6-d5`, `d6xb4`, `d6-d5xb4xa1`), as the rules
    /// write it.
    pub mv: String,
    /// Numeric annotation glyphs (`!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Lines played instead of this move, from the position before it.
    pub variations: Vec<Vec<Ply>>,
}

/// The tags written first, in this order (the "seven tag roster").
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The results a record may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl Record {
    /// A record of `moves` (turn notation) played from `start` under the preset `variant`, with
    /// the seven tags (`?` for those not given) and `Variant`, and `FEN` when the start is not
    /// the preset's.
    pub fn new(variant: &str, start: Option<&str>, moves: &[String], result: &str) -> Record {
        let mut r = Record {
            result: result.to_string(),
            ..Record::default()
        };
        for tag in ROSTER {
            r.set(tag, if tag == "Result" { result } else { "?" });
        }
        r.set("Variant", variant);
        if let Some(fen) = start {
            r.set("SetUp", "1");
            r.set("FEN", fen);
        }
        r.moves = moves
            .iter()
            .map(|m| Ply {
                mv: m.clone(),
                ..Ply::default()
            })
            .collect();
        r
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in its place if it is there, last otherwise.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The rules of the `Variant` tag (the standard game without one).
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let name = self.tag("Variant").unwrap_or("nine");
        Ok(Rules::named(name)?)
    }

    /// The game at its start: the `FEN` tag's position, or the rules' start.
    pub fn start(&self) -> Result<Game, RecordError> {
        let rules = self.rules()?;
        match self.tag("FEN") {
            Some(text) => Ok(fen::read(text, &rules).map(Game::from_position)?),
            None => Ok(Game::new(rules)),
        }
    }

    /// The main line's moves, played from the start (the record was checked when read).
    pub fn game(&self) -> Result<(Game, Vec<Move>), RecordError> {
        let mut game = self.start()?;
        let mut played = Vec::new();
        for (i, ply) in self.moves.iter().enumerate() {
            let mv = game
                .play_token(&ply.mv)
                .map_err(|source| RecordError::Move {
                    number: i + 1,
                    source,
                })?;
            played.push(mv);
        }
        Ok((game, played))
    }

    /// The main line's moves as text.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves.iter().map(|p| p.mv.clone()).collect()
    }
}
