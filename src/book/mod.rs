//! The opening book: positions folded to their canonical form under the board's 16 symmetries,
//! each with the moves a deep search found within a margin of the best, with their scores and
//! weights. This module owns the book's key, its lookup and the choice of a move; `format` reads
//! and writes the text file of `book/README.md`, `build` makes a book by search, `check` checks
//! one.
//!
//! Lookup: the key of a position is its canonical board (`symmetry::canonical`) with the hands,
//! the side to move and the pending removals, packed exactly into 64 bits, so equal keys are
//! equal positions up to symmetry (no hash collisions). Moves are stored in the canonical frame
//! and mapped back through the inverse of the symmetry that folded the position.

pub mod build;
pub mod check;
pub mod cover;
pub mod exact;
pub mod expand;
pub mod format;

pub use format::{BookError, Header, Line};

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::symmetry::{self, fold, keyable};
use crate::rules::Rules;
use crate::search::{Score, MATE};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

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
pub fn check_setting(name: &str, value: i64, min: i64, max: i64) -> Result<(), String> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(format!("{name} {value} is out of bounds ({min} to {max})"))
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

/// A loaded book: its header and its moves by key.
#[derive(Clone, Debug)]
pub struct Book {
    pub header: Header,
    /// The rules of the header's variant: the book is used only under these.
    pub rules: Rules,
    entries: FxHashMap<u64, Box<[BookMove]>>,
}

impl Book {
    /// A book from parsed lines; a position given twice is an error naming the second line.
    pub fn from_lines(header: Header, lines: Vec<Line>) -> Result<Book, BookError> {
        let rules = header.rules()?;
        let mut entries = FxHashMap::default();
        entries.reserve(lines.len());
        for line in lines {
            let key = fold(&line.pos).key;
            if entries.insert(key, line.moves.into_boxed_slice()).is_some() {
                return Err(BookError::at(
                    line.number,
                    "this position is already in the book",
                ));
            }
        }
        Ok(Book {
            header,
            rules,
            entries,
        })
    }

    /// Reads a book from its text; `source` names it in errors.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let (header, lines) = format::parse(text)?;
        Book::from_lines(header, lines)
    }

    /// Reads a book file of at most `MAX_FILE_BYTES`.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        use std::io::Read;
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| BookError::io(path, &e))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(BookError::at(
                0,
                format!(
                    "larger than the {} MB a book may be: not read",
                    MAX_FILE_BYTES >> 20
                ),
            )
            .in_file(path));
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| BookError::at(0, format!("not text: {e}")).in_file(path))?;
        Book::parse(&text).map_err(|e| e.in_file(path))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book moves of `pos`, best first, in `pos`'s own frame; `None` when the position is not
    /// in the book or the book is for other rules.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Vec<BookMove>> {
        if *pos.rules() != self.rules || !keyable(pos) {
            return None;
        }
        let folded = fold(pos);
        let moves = self.entries.get(&folded.key)?;
        let back = symmetry::inverse(folded.symmetry);
        Some(
            moves
                .iter()
                .map(|m| BookMove {
                    mv: m.mv.transformed(back),
                    ..*m
                })
                .collect(),
        )
    }

    /// Whether the position is in the book, without mapping its moves.
    #[inline]
    pub fn contains(&self, pos: &Position) -> bool {
        *pos.rules() == self.rules && keyable(pos) && self.entries.contains_key(&fold(pos).key)
    }

    /// The move to play in `pos`, if the book has one: the best, or a weighted choice drawn with
    /// `random` (a number in `0..1`).
    pub fn choose(&self, pos: &Position, variety: Variety, random: f64) -> Option<BookMove> {
        let moves = self.probe(pos)?;
        match variety {
            Variety::Best => moves.first().copied(),
            Variety::Weighted => {
                let total: u32 = moves.iter().map(|m| m.weight).sum();
                let mut pick = (random.clamp(0.0, 1.0) * f64::from(total)) as u32;
                for m in &moves {
                    if pick < m.weight {
                        return Some(*m);
                    }
                    pick -= m.weight;
                }
                moves.last().copied()
            }
        }
    }
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

/// The cost of a lookup (`probe`, which folds the position, finds it and maps its moves back),
/// in nanoseconds: every position of `lines` under each of the 16 symmetries, `rounds` times.
pub fn lookup_ns(book: &Book, lines: &[Line], rounds: usize) -> f64 {
    let positions: Vec<Position> = lines
        .iter()
        .flat_map(|l| (0..symmetry::SYMMETRIES).map(move |s| l.pos.transformed(s)))
        .collect();
    let started = std::time::Instant::now();
    let mut found = 0usize;
    for _ in 0..rounds.max(1) {
        for p in &positions {
            found += book.probe(std::hint::black_box(p)).map_or(0, |m| m.len());
        }
    }
    std::hint::black_box(found);
    started.elapsed().as_nanos() as f64 / (positions.len() * rounds.max(1)).max(1) as f64
}

/// The flags of `moulin book bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The book file (default: the book of the standard game).
    pub file: Option<PathBuf>,
}

/// `moulin book bench`: loads a book and prints its load time and the cost of a lookup.
pub fn run_bench(args: BenchArgs) -> Result<(), String> {
    let path = match args.file {
        Some(p) => p,
        None => find_default("nine").ok_or("no book/nine.book found")?,
    };
    let started = std::time::Instant::now();
    let book = Book::load(&path).map_err(|e| e.to_string())?;
    let load = started.elapsed();
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let (_, lines) = format::parse(&text).map_err(|e| e.in_file(&path).to_string())?;
    let ns = lookup_ns(&book, &lines, 5);
    println!(
        "{}: {} positions loaded in {} ms; {ns:.0} ns per lookup",
        path.display(),
        book.len(),
        load.as_millis()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::symmetry::SYMMETRIES;

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
