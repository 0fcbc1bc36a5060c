//! Play and grading from the placing solution (`tables::placing`): the value of every move of a
//! placing position it covers, and, among the moves that keep the value, the one that leaves the
//! opponent the most ways to go wrong.

use super::wdl::{outcome, Wdl};
use crate::rng::Rng;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
pub use crate::tables::placing_play::{known_value, move_value, move_values};
use crate::tables::Tables;

/// How the engine picks among the moves that keep a solved position's value (`SolvedPlacing`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choice {
    /// The moves that leave the opponent the most replies that give value away; the search
    /// breaks ties.
    Testing,
    /// Any one of them, drawn at random (to measure `Testing` against).
    Random,
    /// The placing solution is not used for play (the search and the exact solver as without
    /// it).
    Off,
}

impl Choice {
    /// The option's values, as written.
    pub const NAMES: [&'static str; 3] = ["testing", "random", "off"];

    /// The choice named `text`.
    pub fn from_name(text: &str) -> Option<Choice> {
        match text {
            "testing" => Some(Choice::Testing),
            "random" => Some(Choice::Random),
            "off" => Some(Choice::Off),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Choice::NAMES[self as usize]
    }
}

/// The replies in `child` (the position after a move) that give value away for the side that
/// makes them: the opponent's ways to go wrong. `None` when some value is unknown.
pub fn mistakes_left(tables: &Tables, child: &Position) -> Option<u32> {
    let held = known_value(tables, child)?;
    if outcome(child).is_some() {
        return Some(0);
    }
    let mut replies = Vec::new();
    movegen::generate(child, Convention::Turn, &mut replies);
    let mut count = 0;
    for r in replies {
        if move_value(tables, child, r)? < held {
            count += 1;
        }
    }
    Some(count)
}

/// What the placing solution says of a position's moves: its value and the moves to consider.
pub struct Solved {
    /// The position's value for its side to move.
    pub value: Wdl,
    /// The moves that keep it, those that leave the opponent the most ways to go wrong first
    /// (`Testing`: the best of them only; `Random`: one drawn).
    pub moves: Vec<Move>,
    /// The opponent's ways to go wrong after `moves[0]`: `None` when the values of the replies
    /// are not known (an opening's solution that ends at the next ply), and `moves` is then
    /// every move that keeps the value, for the search to pick from.
    pub mistakes: Option<u32>,
}

/// The moves of `pos` (among `moves`) the engine considers under `choice`, when the placing
/// solution covers the position and its moves. Where it does not cover the replies (the last
/// ply of an opening's solution), every move that keeps the value: the search picks.
pub fn choose(
    tables: &Tables,
    pos: &Position,
    moves: &[Move],
    choice: Choice,
    rng: &mut Rng,
) -> Option<Solved> {
    if choice == Choice::Off || moves.is_empty() {
        return None;
    }
    choose_among(
        tables,
        pos,
        moves,
        &move_values(tables, pos, moves)?,
        choice,
        rng,
    )
}

/// `choose`, the values of `moves` known (`move_values`).
pub fn choose_among(
    tables: &Tables,
    pos: &Position,
    moves: &[Move],
    values: &[Wdl],
    choice: Choice,
    rng: &mut Rng,
) -> Option<Solved> {
    let value = values.iter().copied().max()?;
    let keeping: Vec<Move> = moves
        .iter()
        .zip(values)
        .filter(|&(_, &v)| v == value)
        .map(|(&m, _)| m)
        .collect();
    let after = |mv: Move| {
        let mut child = *pos;
        child.play(mv);
        mistakes_left(tables, &child)
    };
    if choice == Choice::Random {
        let mv = keeping[rng.below(keeping.len())];
        return Some(Solved {
            value,
            moves: vec![mv],
            mistakes: after(mv),
        });
    }
    // With only the solution's first plies (the opening's), the engine plays on by search from
    // the positions it steers to, and the one that leaves the opponent the most ways to go
    // wrong is often as sharp for the engine just past the file: the search picks among every
    // move that keeps the value (200 games at 1 s against the engine without the file: -12
    // Elo and 22 games lost from drawn positions against 15 with the count, +5 Elo and 13
    // against 16 with the search; docs/results.md).
    let counted = if tables.placing_is_whole() {
        keeping
            .iter()
            .map(|&m| after(m).map(|c| (m, c)))
            .collect::<Option<Vec<(Move, u32)>>>()
    } else {
        None
    };
    let Some(counted) = counted else {
        // The replies' values are not known, or not counted: every move that keeps the value.
        return Some(Solved {
            value,
            moves: keeping,
            mistakes: None,
        });
    };
    let most = counted.iter().map(|&(_, c)| c).max()?;
    Some(Solved {
        value,
        moves: counted
            .iter()
            .filter(|&&(_, c)| c == most)
            .map(|&(m, _)| m)
            .collect(),
        mistakes: Some(most),
    })
}
