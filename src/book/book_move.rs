//! A book move and its weight; the one scale on which book scores compare; the ply of a placing
//! position; how the engine picks among a position's book moves.

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::{Score, MATE};

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

/// The ply of a placing position: the pieces placed so far.
pub fn ply_of(pos: &Position) -> u32 {
    2 * u32::from(pos.rules().pieces) - pos.placements_left()
}
