//! The searches that make a book entry: a fresh search of a position at the book's depth
//! (`fresh_search`), the book moves of a position (`search_entry`: every move within the margin
//! of the best, each searched alone), and the settings that make them reproducible
//! (`SearchSpec`). `book build`, `book expand` and `book check --search` all search this way.

use super::book_error::BookError;
use super::book_move::{score_value, BookMove};
use super::format::{self, Header};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::rules::Rules;
use crate::search::{Score, Searcher};
use rustc_hash::FxHashSet;

/// How a book's searches are made: the settings a search needs to be reproduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// The depth (turns) of every search.
    pub depth: u32,
    /// Moves within this many centi-pieces of the best are kept.
    pub margin: i32,
    /// The hash table of each search, in MB.
    pub hash_mb: u32,
    /// The evaluation (`eval::fingerprint`: 0 for the hand-written one).
    pub evaluation: u64,
}

impl SearchSpec {
    /// The settings of a book's searches, as its header gives them.
    pub fn of(header: &Header) -> SearchSpec {
        SearchSpec {
            depth: header.depth,
            margin: header.margin,
            hash_mb: header.hash_mb,
            evaluation: header.evaluation,
        }
    }

    /// Whether this build can repeat the spec's searches under `rules`: the evaluation must be
    /// the hand-written one or the learned one of this build.
    pub fn reproducible(&self, rules: &Rules) -> Result<(), BookError> {
        let ours = crate::search::eval::fingerprint(rules);
        if self.evaluation == 0 || self.evaluation == ours {
            Ok(())
        } else {
            Err(BookError::Evaluation {
                book: self.evaluation,
                ours,
            })
        }
    }
}

/// One fresh search of `pos` at the spec's depth, its root restricted to `allowed`.
pub(super) fn fresh_search(
    searcher: &mut Searcher,
    pos: &Position,
    depth: u32,
    allowed: Vec<Move>,
) -> (Option<Move>, Score) {
    searcher.new_game();
    let r = searcher.search_to_depth(pos, depth, allowed);
    (r.best, r.score)
}

/// The book moves of `pos` (any frame), best first: a fresh search at `spec.depth` gives the best
/// move and score; then the search is repeated without the moves found so far (nor the moves
/// symmetric to them, which lead to the same position), and each best move within `spec.margin`
/// of the first score is a candidate, until one falls outside. A candidate is kept when a fresh
/// search of it alone (the root restricted to it) also scores within the margin, and that score
/// is stored: searched alone, a move is a principal line and reduced less than among others, so
/// the two scores can differ by a few centi-pieces. The procedure is deterministic, so
/// `book check --search` and the tests can repeat it. When no candidate passes (even the best
/// move scores outside the margin searched alone), every move is searched alone and those within
/// the margin are kept; when none is, the position is left out of the book and the engine
/// searches it.
pub fn search_entry(searcher: &mut Searcher, pos: &Position, spec: SearchSpec) -> Vec<BookMove> {
    let legal = movegen::legal_moves(pos, Convention::Turn);
    let class: Vec<u64> = legal
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            fold(&child).key
        })
        .collect();
    let mut taken: FxHashSet<u64> = FxHashSet::default();
    let mut found: Vec<(Move, Score)> = Vec::new();
    let mut best = None;
    loop {
        let allowed: Vec<Move> = legal
            .iter()
            .zip(&class)
            .filter(|(_, c)| !taken.contains(c))
            .map(|(&m, _)| m)
            .collect();
        if allowed.is_empty() {
            break;
        }
        let (Some(mv), score) = fresh_search(searcher, pos, spec.depth, allowed) else {
            break;
        };
        let value = score_value(score);
        let top = *best.get_or_insert(value);
        if value < top - spec.margin {
            break;
        }
        let (_, alone) = fresh_search(searcher, pos, spec.depth, vec![mv]);
        if score_value(alone) >= top - spec.margin {
            found.push((mv, alone));
        }
        let i = legal.iter().position(|&m| m == mv).expect("a legal move");
        taken.insert(class[i]);
    }
    if found.is_empty() {
        // No candidate held its score searched alone: try every move (one per symmetry class)
        // alone, and keep those within the margin.
        if let Some(top) = best {
            let mut seen: FxHashSet<u64> = FxHashSet::default();
            for (&mv, &c) in legal.iter().zip(&class) {
                if seen.insert(c) {
                    let (_, alone) = fresh_search(searcher, pos, spec.depth, vec![mv]);
                    if score_value(alone) >= top - spec.margin {
                        found.push((mv, alone));
                    }
                }
            }
        }
    }
    found.sort_by_key(|&(_, s)| std::cmp::Reverse(score_value(s)));
    format::weighted(&found, spec.margin)
}

/// A searcher as the book's searches use it: one thread, the spec's table.
pub fn book_searcher(spec: SearchSpec) -> Searcher {
    let mut s = Searcher::new(spec.hash_mb as usize, 1);
    s.options.learned = spec.evaluation != 0;
    s
}
