//! The opening book: positions folded to their canonical form under the board's 16 symmetries,
//! each with the moves a deep search found within a margin of the best, with their scores and
//! weights. The files:
//!
//! - `book_move`: a book move and its weight, the scale of book scores, how a move is picked;
//! - `settings`: the book's settings and their bounds, the format's version, where the default
//!   books are;
//! - `book_error`: the book's errors (`BookError`, `TextError` and its `TextFlaw`);
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

pub mod book_error;
pub mod book_move;
pub mod check;
pub mod cover;
pub mod deep_search;
pub mod exact;
pub mod expand;
pub mod format;
pub mod graph;
pub mod lookup;
pub mod settings;
pub mod two_trees;

pub use book_error::{evaluation_text, BookError, TextError, TextFlaw};
pub use book_move::{ply_of, score_value, weight, BookMove, Variety};
pub use format::{Header, Line};
pub use lookup::{lookup_ns, Book};
pub use settings::{
    check_setting, default_book, default_threads, file_name, read_text, FORMAT_VERSION, MAX_DEPTH,
    MAX_EXPANDED, MAX_FILE_BYTES, MAX_HASH_MB, MAX_MARGIN, MAX_PLIES, MAX_THREADS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::moves::Move;
    use crate::rules::symmetry::{self, fold, SYMMETRIES};
    use crate::rules::Rules;
    use crate::search::{Score, MATE};

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
