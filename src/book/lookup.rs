//! A loaded book (`Book`): its moves by key, the lookup of a position's moves in its own frame,
//! and the choice of a move to play.

use super::book_error::{BookError, TextError};
use super::book_move::{BookMove, Variety};
use super::format::{self, Header, Line};
use super::settings::{read_text, read_text_waiting};
use crate::rules::position::Position;
use crate::rules::symmetry::{self, fold, keyable};
use crate::rules::Rules;
use crate::shipped::Source;
use rustc_hash::FxHashMap;
use std::path::Path;

/// A loaded book: its header and its moves by key.
#[derive(Clone, Debug)]
pub struct Book {
    /// The header of the book's file.
    pub header: Header,
    /// The rules of the header's variant: the book is used only under these.
    pub rules: Rules,
    entries: FxHashMap<u64, Box<[BookMove]>>,
}

impl Book {
    /// A book from parsed lines; a position given twice is an error naming the second line.
    pub fn from_lines(header: Header, lines: Vec<Line>) -> Result<Book, TextError> {
        let rules = header.rules()?;
        let mut entries = FxHashMap::default();
        entries.reserve(lines.len());
        for line in lines {
            let key = fold(&line.pos).key;
            if entries.insert(key, line.moves.into_boxed_slice()).is_some() {
                return Err(TextError::at(
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

    /// Reads a book from its text.
    pub fn parse(text: &str) -> Result<Book, TextError> {
        let (header, lines) = format::parse(text)?;
        Book::from_lines(header, lines)
    }

    /// Reads a book file of at most `MAX_FILE_BYTES` (`read_text`: a regular file).
    pub fn load(path: &Path) -> Result<Book, BookError> {
        Book::parse_file(path, &read_text(path)?)
    }

    /// Reads a book file as `load` does, a named pipe included (`read_text_waiting`), for the
    /// engine, which reads its book on a thread of its own.
    pub fn load_waiting(path: &Path) -> Result<Book, BookError> {
        Book::parse_file(path, &read_text_waiting(path)?)
    }

    /// The book `source` gives: a file read as `load_waiting` reads it, or the built-in text.
    pub fn load_source(source: &Source) -> Result<Book, BookError> {
        match source {
            Source::File(path) => Book::load_waiting(path),
            Source::BuiltIn(b) => {
                // Not UTF-8 (it is, checked by the tests) shows where it is not on its line.
                let text = String::from_utf8_lossy(b.bytes);
                Ok(Book::parse(&text).map_err(|e| e.in_origin(&source.origin()))?)
            }
        }
    }

    /// The book of `text`, read from the file `path` (which its errors name).
    fn parse_file(path: &Path, text: &str) -> Result<Book, BookError> {
        Ok(Book::parse(text).map_err(|e| e.in_file(path))?)
    }

    /// The number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
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

    /// Whether `mv` is one of the book's moves of `pos`, or one the position's symmetry makes
    /// the same (from the start, d2 is d6 mirrored): the analysis shows such moves as book
    /// moves, not graded.
    pub fn has_move(&self, pos: &Position, mv: crate::rules::moves::Move) -> bool {
        let after = |m| {
            let mut child = *pos;
            child.play(m);
            fold(&child).key
        };
        self.probe(pos).is_some_and(|moves| {
            let reached = after(mv);
            moves.iter().any(|b| after(b.mv) == reached)
        })
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
