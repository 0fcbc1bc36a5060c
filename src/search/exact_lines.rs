//! Every root move's exact value, where the placing solution or the endgame tables value them
//! all, best first: the lines a search reports at once for `go infinite` and `MultiPV` above 1
//! (`known_root`), and those the analysis grades with. Written once, so that a GUI's analysis
//! mode and `moulin analyse` show the same exact values as the engine plays by.

use super::exact::solved::{self, Choice};
use super::exact::Wdl;
use super::Score;
use crate::rng::Rng;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::tables::{perfect_play, Tables, Value};

/// The root's value, and where it is known from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The placing solution's (1 a win, 0 a draw, -1 a loss for the side to move).
    Solved(Wdl),
    /// The endgame tables', with its distance.
    Table(Value),
}

/// The root's moves with their exact values.
#[derive(Clone, Debug)]
pub struct ExactLines {
    /// Each move with its exact score for the side to move, best first; among equals the move
    /// the engine plays (the one that leaves the opponent the most ways to go wrong, or the
    /// tables' own) first.
    pub lines: Vec<(Move, Score)>,
    /// The moves that keep the root's value.
    pub kept: Vec<Move>,
    /// The root's value.
    pub value: Known,
}

impl ExactLines {
    /// The move the engine plays: the first line's.
    pub fn best(&self) -> Move {
        self.lines[0].0
    }

    /// The root's value as a score.
    pub fn score(&self) -> Score {
        match self.value {
            Known::Solved(v) => Score::solved(v),
            Known::Table(v) => Score::table(v),
        }
    }
}

/// The exact value of each of `moves` in `pos`, when `tables` know them all: in the placing, by
/// the placing solution (or the opening's); in the moving phase, by the endgame tables.
pub fn exact_lines(tables: &Tables, pos: &Position, moves: &[Move]) -> Option<ExactLines> {
    if moves.is_empty() {
        None
    } else if pos.is_placing() {
        solved_lines(tables, pos, moves)
    } else if tables.serves(pos.rules()) {
        table_lines(tables, pos, moves)
    } else {
        None
    }
}

/// The placing solution's lines: the testing move first among those that keep the value.
fn solved_lines(tables: &Tables, pos: &Position, moves: &[Move]) -> Option<ExactLines> {
    let values = solved::move_values(tables, pos, moves)?;
    let best = solved::choose_among(
        tables,
        pos,
        moves,
        &values,
        Choice::Testing,
        &mut Rng::new(0),
    )?;
    let kept = keeping(moves, &values, |v| *v == best.value);
    let lines = ordered(
        moves,
        values.iter().map(|&v| Score::solved(v)),
        best.moves[0],
    );
    Some(ExactLines {
        lines,
        kept,
        value: Known::Solved(best.value),
    })
}

/// The endgame tables' lines: the tables' own move first among equals.
fn table_lines(tables: &Tables, pos: &Position, moves: &[Move]) -> Option<ExactLines> {
    let values = moves
        .iter()
        .map(|&m| perfect_play::value_of_move(tables, pos, m))
        .collect::<Option<Vec<_>>>()?;
    let (best, value) = perfect_play::best_move(tables, pos, moves)?;
    let kept = keeping(moves, &values, |v| v.wdl() == value.wdl());
    let lines = ordered(moves, values.iter().map(|&v| Score::table(v)), best);
    Some(ExactLines {
        lines,
        kept,
        value: Known::Table(value),
    })
}

/// The moves whose value `keeps`.
fn keeping<V>(moves: &[Move], values: &[V], keeps: impl Fn(&V) -> bool) -> Vec<Move> {
    moves
        .iter()
        .zip(values)
        .filter(|(_, v)| keeps(v))
        .map(|(&m, _)| m)
        .collect()
}

/// `moves` with their `scores`, best first, `first` ahead of its equals.
fn ordered(moves: &[Move], scores: impl Iterator<Item = Score>, first: Move) -> Vec<(Move, Score)> {
    let mut lines: Vec<(Move, Score)> = moves.iter().copied().zip(scores).collect();
    let rank = |s: Score| match s {
        Score::Cp(c) => i64::from(c),
        // Exact scores are never mates; a mate would rank by its sign.
        Score::Mate(m) => i64::from(m.signum()) * i64::from(i32::MAX),
    };
    lines.sort_by_key(|&(m, s)| (std::cmp::Reverse(rank(s)), m != first));
    lines
}
