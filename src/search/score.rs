//! Scores: how the search encodes wins, losses and centi-pieces in one `i32`, and the `Score`
//! that it reports, which each protocol dialect writes its own way (`Display` gives UCI's
//! `cp N` / `mate N`).
//!
//! Inside the search a score is centi-pieces for the side to move, or a decided game: a win `p`
//! plies from the root is `MATE - p`, a loss `-(MATE - p)`, so that nearer wins score higher.

use std::fmt;

/// Larger than any score.
pub const INF: i32 = 32000;
/// The score of a win at the root; a win `p` plies away scores `MATE - p`.
pub const MATE: i32 = 31000;
/// Scores beyond this are wins or losses by distance.
pub const MATE_BOUND: i32 = MATE - 1000;

/// A win the endgame tables prove, at the root with the removal that keeps it next: scores from
/// `TABLE_BOUND` up to it are such wins, `TABLE_WIN - score` plies from the root to that removal.
pub const TABLE_WIN: i32 = MATE_BOUND - 1000;
/// Scores beyond this (and below `MATE_BOUND`) are wins or losses the tables prove.
pub const TABLE_BOUND: i32 = TABLE_WIN - 1000;

/// The largest static evaluation, in centi-pieces (a hundred pieces, far beyond any real
/// position's): every evaluation, hand-written or a network's, is kept within `±EVAL_LIMIT`, so
/// that no evaluation is ever read as a table win or a mate, whatever weights a file holds.
pub const EVAL_LIMIT: i32 = 10_000;

/// `s` kept within the evaluation's range (`EVAL_LIMIT`).
#[inline]
pub const fn within_eval(s: i32) -> i32 {
    if s > EVAL_LIMIT {
        EVAL_LIMIT
    } else if s < -EVAL_LIMIT {
        -EVAL_LIMIT
    } else {
        s
    }
}

/// The score of a table value `ply` plies from the root.
#[inline]
pub fn from_tables(v: crate::tables::Value, ply: usize) -> i32 {
    use crate::tables::Value;
    // Distances beyond 800 plies (none are known) share one score, so that every table score
    // stays within its band whatever the ply.
    let d = d_clamped(v);
    match v {
        Value::Win(_) => TABLE_WIN - ply as i32 - d,
        Value::Loss(_) => -(TABLE_WIN - ply as i32 - d),
        Value::Draw => 0,
    }
}

/// The score of a value of the placing solution (win 1, draw 0, loss -1 for the side to move):
/// the least table win, as no distance is known.
#[inline]
pub fn from_solved(v: i8) -> i32 {
    i32::from(v) * TABLE_BOUND
}

fn d_clamped(v: crate::tables::Value) -> i32 {
    i32::from(v.distance().min(800))
}

/// The score of the side to move that has lost, `ply` plies from the root.
#[inline]
pub const fn mated_at(ply: usize) -> i32 {
    -(MATE - ply as i32)
}

/// Mate distance pruning: no line from a node `ply` plies from the root can beat a win found
/// closer to the root, nor lose faster than being mated here. Returns the score to return when
/// that leaves no window.
#[inline]
pub fn mate_distance_cut(alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let alpha = alpha.max(mated_at(ply));
    let beta = beta.min(MATE - ply as i32 - 1);
    (alpha >= beta).then_some(alpha)
}

/// Whether a score is a decided game (a win or a loss by distance).
#[inline]
pub const fn is_decisive(s: i32) -> bool {
    s >= MATE_BOUND || s <= -MATE_BOUND
}

/// Win and loss scores (by mate or by the endgame tables) are stored in the transposition table
/// relative to the node, so that they mean the same wherever the position is met again.
#[inline]
pub fn to_table(s: i32, ply: usize) -> i32 {
    if s >= TABLE_BOUND {
        s + ply as i32
    } else if s <= -TABLE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The inverse of `to_table`.
#[inline]
pub fn from_table(s: i32, ply: usize) -> i32 {
    if s >= TABLE_BOUND {
        s - ply as i32
    } else if s <= -TABLE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// A score as the search reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-pieces for the side to move.
    Cp(i32),
    /// A forced win in this many of the side to move's own turns; negative when losing.
    Mate(i32),
}

impl Score {
    /// The reported form of a value of the placing solution (`from_solved`).
    pub fn solved(v: i8) -> Score {
        Score::from_internal(from_solved(v))
    }

    /// The reported score of an endgame table's value at the root.
    pub fn table(v: crate::tables::Value) -> Score {
        Score::from_internal(from_tables(v, 0))
    }

    /// The reported form of a search score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-i32::midpoint(MATE, s))
        } else {
            Score::Cp(s)
        }
    }
}

/// The value class a score stands for under `threshold`: won (1) at or above it, lost (-1) at
/// or below its negation, drawn (0) between. The book's exit check and the critical suite judge
/// values by it.
pub fn class(score: i32, threshold: i32) -> i32 {
    if score >= threshold {
        1
    } else if score <= -threshold {
        -1
    } else {
        0
    }
}

/// UCI's form: `cp N` or `mate N`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(x) => write!(f, "cp {x}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_and_losses_by_distance() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(mated_at(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-35), Score::Cp(-35));
        assert_eq!(Score::Mate(-3).to_string(), "mate -3");
        assert_eq!(Score::Cp(12).to_string(), "cp 12");
        assert!(is_decisive(mated_at(7)) && !is_decisive(500));
        for s in [MATE - 9, mated_at(12), 77] {
            assert_eq!(from_table(to_table(s, 5), 5), s);
        }
    }
}
