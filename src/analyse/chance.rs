//! Winning chances: the one scale every value of an analysis is read on (docs/play-and-analyse.md,
//! "Winning chances"). A search's value in centi-pieces becomes a chance as lichess turns
//! centipawns into one, a piece counted as lichess counts a pawn; a won or lost game, by the
//! search, the endgame tables or the placing solution, stands at 100 or 0, an exact draw at 50.
//! A move is graded by the chance it gave away, labelled by lichess's thresholds, and each move's
//! accuracy follows lichess's formula.

use crate::search::Score;

/// lichess's slope of the winning chances, per centipawn, here per centi-piece.
const SLOPE: f64 = 0.003_682_08;

/// A move that gives away this many points of winning chance or more (of 100) is a blunder
/// (lichess: 0.3 on its scale of -1 to 1), as is one that throws a win or a draw away.
pub const BLUNDER: f64 = 15.0;
/// A move that gives away this many points or more is a mistake (lichess: 0.2).
pub const MISTAKE: f64 = 10.0;
/// A move that gives away this many points or more is an inaccuracy (lichess: 0.1).
pub const INACCURACY: f64 = 5.0;

/// Won (1), lost (-1) or neither (0): by the search's win or loss, or by the endgame tables'
/// and the placing solution's.
#[must_use]
pub fn class(score: Score) -> i32 {
    match score {
        Score::Mate(m) => m.signum(),
        Score::Cp(c) if c.abs() >= crate::search::TABLE_BOUND => c.signum(),
        Score::Cp(_) => 0,
    }
}

/// The winning chance of a value for the side it is of, in percent: `50 + 50 × (2 / (1 +
/// e^(−0.00368208 × cp)) − 1)` of a value of `cp` centi-pieces (lichess's, of centipawns); 100
/// for a won game, 0 for a lost one, 50 for a draw (exact or a search's 0.00).
#[must_use]
pub fn win_chance(score: Score) -> f64 {
    match (class(score), score) {
        (0, Score::Cp(c)) => 100.0 / (1.0 + (-SLOPE * f64::from(c)).exp()),
        (c, _) => 50.0 + 50.0 * f64::from(c.signum()),
    }
}

/// The winning chance a move gave away, in points from 0 to 100, when it took the mover from
/// `before` to `after` (both from the mover's side): nothing when both are the same win or loss
/// (a slower win gives nothing away), else the drop in `win_chance`, never below 0.
#[must_use]
pub fn chance_lost(before: Score, after: Score) -> f64 {
    let (b, a) = (class(before), class(after));
    if a != 0 && a == b {
        return 0.0;
    }
    (win_chance(before) - win_chance(after)).max(0.0)
}

/// Whether a move from `before` to `after` (the mover's side) threw a result away: from won to
/// not won, or from not lost to lost.
#[must_use]
pub fn thrown(before: Score, after: Score) -> bool {
    class(after) < class(before)
}

/// The accuracy of a move that gave away `lost` points of winning chance, in percent: lichess's
/// `103.1668 × e^(−0.04354 × lost) − 3.1669`, within 0 and 100 (100 for nothing lost, about 79
/// for an inaccuracy's 5 points, 62 for a mistake's 10, 50 for a blunder's 15).
#[must_use]
pub fn accuracy(lost: f64) -> f64 {
    (103.166_8 * (-0.043_54 * lost).exp() - 3.166_9).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_follow_lichess_and_decided_games_stand_at_the_ends() {
        // +1 piece: 59.1%, as lichess puts +1 pawn; +3: 75.1%.
        assert!((win_chance(Score::Cp(100)) - 59.10).abs() < 0.01);
        assert!((win_chance(Score::Cp(300)) - 75.11).abs() < 0.01);
        assert!((win_chance(Score::Cp(-300)) + win_chance(Score::Cp(300)) - 100.0).abs() < 1e-9);
        assert!((win_chance(Score::Cp(0)) - 50.0).abs() < 1e-12);
        assert!((win_chance(Score::Mate(-4)) - 0.0).abs() < 1e-12);
        assert!((win_chance(Score::solved(1)) - 100.0).abs() < 1e-12);
        let table_win = |d| Score::Cp(crate::search::TABLE_WIN - d);
        // A slower win gives nothing away; a draw thrown into a loss is half the scale.
        assert!(chance_lost(table_win(3), table_win(90)).abs() < 1e-12);
        assert!((chance_lost(Score::Cp(0), Score::solved(-1)) - 50.0).abs() < 1e-12);
        assert!(thrown(Score::Cp(0), Score::solved(-1)));
        assert!(!thrown(Score::Mate(3), Score::Mate(5)));
        assert!(chance_lost(Score::Cp(0), Score::Cp(50)).abs() < 1e-12);
        // lichess's accuracy: 100 for nothing, half for a blunder's 15 points.
        assert!(accuracy(0.0) > 99.99);
        assert!((accuracy(15.0) - 50.5).abs() < 0.1);
        assert!(accuracy(100.0) < 1.0);
    }
}
