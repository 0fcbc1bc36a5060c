//! Playing from the placing solution, beside perfect play from the moving tables
//! (`perfect_play`): the value of a position known without a search (a game over, the placing
//! solution, the moving tables) and the value of each move, for the engine's choice
//! (`search::exact::solved`) and for the checks (`placing_verify`, `pack::compare`).

use super::placing::solution::Solution;
use super::table_set::Tables;
use super::values::{Value, Wdl};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The value of `pos` for its side to move known without a search: the game's end, the placing
/// solution (when there is one) or the moving tables.
pub fn known(pos: &Position, solution: Option<&Solution>, tables: &Tables) -> Option<Wdl> {
    if let Some(o) = pos.quick_outcome() {
        return Some(o.value_for(pos.side_to_move()));
    }
    if pos.is_placing() {
        return solution?.value(pos);
    }
    tables.probe(pos).map(Value::wdl)
}

/// The value of the position `pos` for its side to move, known without a search: a game over, the
/// placing solution, or the moving tables.
pub fn known_value(tables: &Tables, pos: &Position) -> Option<Wdl> {
    known(pos, tables.placing(), tables)
}

/// The value of `mv` in `pos` for the side that plays it, when it is known without a search.
pub fn move_value(tables: &Tables, pos: &Position, mv: Move) -> Option<Wdl> {
    let mut child = *pos;
    child.play(mv);
    let v = known_value(tables, &child)?;
    Some(if child.side_to_move() == pos.side_to_move() {
        v
    } else {
        -v
    })
}

/// The value of each of `moves` in `pos` for its side to move, when the placing solution covers
/// the position and every move's value is known.
pub fn move_values(tables: &Tables, pos: &Position, moves: &[Move]) -> Option<Vec<Wdl>> {
    tables.placing_value(pos)?;
    moves
        .iter()
        .map(|&mv| move_value(tables, pos, mv))
        .collect()
}
