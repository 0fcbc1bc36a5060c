//! The opening book: positions folded to their canonical form under the board's 16 symmetries,
//! each with the moves a deep search found within a margin of the best, with their scores and
//! weights. This module owns the book's settings and their bounds, a book move and its weight,
//! the book's errors (`BookError`, `TextError`) and where the default books are; the files:
//!
//! - `lookup`: a loaded book (`Book`), its lookup and the choice of a move;
//! - `format`: reads and writes the text file of `book/README.md`;
//! - `deep_search`: the searches that make a book entry (`search_entry`) and their settings;
//! - `graph`: the book as a graph of positions from the start: its main lines by drop-out
//!   priority (the frontier), what its moves reach, and the whole book written sorted;
//! - `two_trees`: makes a book by deep search over both sides' trees (`moulin book build`);
//! - `expand`: grows a book along its main lines (`moulin book expand`);
//! - `check`: checks a book, its entries against fresh searches and its exits against deeper
//!   ones (`moulin book check`);
//! - `exact`: checks the book moves of the placing with the exact solver (`moulin book exact`);
//! - `cover`: adds proven lines where match openings end (`moulin book cover`).
//!
//! Lookup: the key of a position is its canonical board (`symmetry::canonical`) with the hands,
//! the side to move and the pending removals, packed exactly into 64 bits, so equal keys are
//! equal positions up to symmetry (no hash collisions). Moves are stored in the canonical frame
//! and mapped back through the inverse of the symmetry that folded the position.

pub mod check;
pub mod cover;
pub mod deep_search;
pub mod exact;
pub mod expand;
pub mod format;
pub mod graph;
pub mod lookup;
pub mod two_trees;

pub use format::{Header, Line};
pub use lookup::{lookup_ns, Book};

use crate::durable::DurableError;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::{Score, MATE};
use std::path::{Path, PathBuf};

/// What is wrong with a book's text, and where: a line of it, or the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", located(self.file.as_deref(), self.line, &self.message))]
pub struct TextError {
    /// The file, when known.
    pub file: Option<String>,
    /// The line (from 1), or 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A message with the file and line it is about, as `TextError` shows it.
fn located(file: Option<&str>, line: usize, message: &str) -> String {
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
        TextError {
            file: None,
            line,
            message: message.into(),
        }
    }

    /// The same error, naming the file.
    #[must_use]
    pub fn in_file(mut self, path: &Path) -> TextError {
        self.file = Some(path.display().to_string());
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

/// Reads the text of a book file (for the commands that check and amend one).
pub fn read_text(path: &Path) -> Result<String, BookError> {
    std::fs::read_to_string(path).map_err(|source| BookError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// An evaluation fingerprint as headers and messages give it: `hand` or 16 hex digits.
pub fn evaluation_text(e: u64) -> String {
    if e == 0 {
        "hand".to_string()
    } else {
        format!("{e:016x}")
    }
}

/// The ply of a placing position: the pieces placed so far.
pub fn ply_of(pos: &Position) -> u32 {
    2 * u32::from(pos.rules().pieces) - pos.placements_left()
}

/// The version of the text format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The bounds of a book's settings, checked on the flags of `book build` and on every header
/// read (`check_setting`), so that neither a flag nor a file can ask for a table that cannot be
/// allocated or a search that does not end: plies of the book tree (each ply multiplies the
/// positions; 8 hold about 62,000), ...
pub const MAX_PLIES: u32 = 16;
/// ... the deepest ply of an expanded book (`book expand`), ...
pub const MAX_EXPANDED: u32 = 41;
/// ... search depth in turns (one search at depth 12 already takes seconds), ...
pub const MAX_DEPTH: u32 = 20;
/// ... margin in centi-pieces (ten pieces), ...
pub const MAX_MARGIN: i32 = 1000;
/// ... and hash table of each search in MB (one per worker thread), ...
pub const MAX_HASH_MB: u32 = 1024;
/// ... and worker threads of a build.
pub const MAX_THREADS: usize = 256;

/// The worker threads of a book command given none: every core, at most `MAX_THREADS`.
pub fn default_threads(given: Option<usize>) -> usize {
    given.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
    })
}
/// The largest book file the engine reads (the shipped books are a few MB), so that a wrong
/// `BookFile` cannot hold the engine up or fill its memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Checks a book setting against its bounds; the error names the setting and its bounds.
pub fn check_setting(name: &str, value: i64, min: i64, max: i64) -> Result<(), BookError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(BookError::OutOfBounds {
            name: name.to_string(),
            value,
            min,
            max,
        })
    }
}

/// A score on one scale for comparisons: centi-pieces, and wins or losses beyond them (the
/// search's internal scale).
pub fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(x) => x,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE + 2 * -n,
    }
}

/// One book move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    /// A whole turn, in the frame of the position it belongs to.
    pub mv: Move,
    /// The search's score for the side to move after this move is played first.
    pub score: Score,
    /// The weight of the move in a weighted choice (1 to 100, 100 for the best).
    pub weight: u32,
    /// Set when the exact solver proved the move keeps at least this value (-1 loss, 0 draw, 1
    /// win) for its mover (`moulin book cover`): written `>=draw` or `>=win` in place of a
    /// score, scored 0 or 1000 cp. Played without the check of protocol.md §6.
    pub exact: Option<crate::search::exact::Wdl>,
}

/// The weight of a move `diff` below the best, with margin `margin`: 100 for the best, falling
/// linearly to 1 at the margin.
pub fn weight(diff: i32, margin: i32) -> u32 {
    if margin <= 0 || diff <= 0 {
        return 100;
    }
    (100 - (99 * i64::from(diff.min(margin)) / i64::from(margin))) as u32
}

/// How the engine picks among a position's book moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variety {
    /// Always the first (best) move: deterministic.
    Best,
    /// A random choice in proportion to the weights.
    Weighted,
}

/// The file name of a variant's book: `<variant>.book`.
pub fn file_name(variant: &str) -> String {
    format!("{variant}.book")
}

/// Where the default book of a variant is looked for, in order: next to the executable, in a
/// `book/` folder next to it, and in the repository's `book/` folder.
pub fn default_locations(variant: &str) -> Vec<PathBuf> {
    let name = file_name(variant);
    let mut out = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        out.push(dir.join(&name));
        out.push(dir.join("book").join(&name));
    }
    out.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("book")
            .join(&name),
    );
    out
}

/// The first existing default book of a variant.
pub fn find_default(variant: &str) -> Option<PathBuf> {
    default_locations(variant).into_iter().find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::symmetry::{self, fold, SYMMETRIES};
    use crate::rules::Rules;

    #[test]
    fn fold_is_the_same_for_symmetric_positions_and_maps_moves_back() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d6", "f4", "a7", "c3"]).unwrap();
        let pos = *game.position();
        let folded = fold(&pos);
        for s in 0..SYMMETRIES {
            let image = pos.transformed(s);
            assert_eq!(fold(&image).key, folded.key, "symmetry {s}");
        }
        let canon = pos.transformed(folded.symmetry);
        assert_eq!(fold(&canon).key, folded.key);
        assert_eq!(fold(&canon).symmetry, 0);
        let mv = Move::place(crate::Point::parse("g7").unwrap());
        let there = mv.transformed(folded.symmetry);
        assert_eq!(there.transformed(symmetry::inverse(folded.symmetry)), mv);
    }

    #[test]
    fn scores_and_weights() {
        assert_eq!(score_value(Score::Cp(-12)), -12);
        for s in [MATE - 1, MATE - 7, -MATE + 4, -MATE + 10] {
            assert_eq!(score_value(Score::from_internal(s)), s);
        }
        assert_eq!(weight(0, 10), 100);
        assert_eq!(weight(10, 10), 1);
        assert_eq!(weight(5, 10), 51);
        assert_eq!(weight(3, 0), 100);
    }
}
