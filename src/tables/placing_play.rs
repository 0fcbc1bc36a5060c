//! Playing from the placing solution, beside perfect play from the moving tables
//! (`perfect_play`): the value of a position known without a search (a game over, the placing
//! solution, the moving tables) and the value of each move, for the engine's choice
//! (`search::exact::solved`) and for the checks (`placing_verify`, `pack::compare`).

use super::placing::solution::Solution;
use super::table_set::Tables;
use super::values::{Value, Wdl};
use crate::rules::fen;
use crate::rules::movegen::legal_moves;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;
use std::collections::BTreeMap;

/// The value of `pos` for its side to move known without a search: the game's end, the placing
/// solution (when there is one) or the moving tables.
pub fn known(pos: &Position, solution: Option<&Solution>, tables: &Tables) -> Option<Wdl> {
    if let Some(o) = pos.quick_outcome() {
        return Some(o.value_for(pos.side_to_move()));
    }
    if pos.is_placing() {
        return solution?.value_with(pos, &|p| tables.probe(p).map(Value::wdl));
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

/// A position of the first plies that the placing solution does not hold.
#[derive(Debug, thiserror::Error)]
#[error("{position}: not in the placing solution")]
pub struct NotHeld {
    /// Its position string (its class's representative).
    pub position: String,
}

/// A position of the first plies with its value by the placing solution and the moves that keep
/// it (`moulin tables placing-values`, to hold the solution against a published one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyValue {
    /// The plies played to reach it.
    pub ply: u8,
    /// Its symmetry class's representative: the least position string of its images.
    pub text: String,
    /// Its value for the side to move.
    pub value: Wdl,
    /// Every move that keeps the value, in the turn notation.
    pub keeping: Vec<String>,
}

/// Every position after 0 to `plies` plies of the placing, one per symmetry class (in the order
/// of their position strings, ply by ply), each valued by the placing solution of `tables`.
///
/// # Errors
///
/// The first position the solution does not hold.
pub fn first_plies(tables: &Tables, rules: Rules, plies: u8) -> Result<Vec<PlyValue>, NotHeld> {
    let mut out = Vec::new();
    let mut layer: BTreeMap<String, Position> = [representative(&Position::start(rules))].into();
    for ply in 0..=plies {
        let mut next = BTreeMap::new();
        for (text, pos) in layer {
            let moves = legal_moves(&pos, Convention::Turn);
            let value = tables.placing_value(&pos).ok_or_else(|| NotHeld {
                position: text.clone(),
            })?;
            let keeping = moves
                .iter()
                .filter(|&&m| move_value(tables, &pos, m) == Some(value))
                .map(|m| m.written_at(&pos, Convention::Turn))
                .collect();
            out.push(PlyValue {
                ply,
                text,
                value,
                keeping,
            });
            for m in moves.into_iter().filter(|_| ply < plies) {
                let mut child = pos;
                child.play(m);
                if child.outcome().is_none() && child.is_placing() {
                    let (t, p) = representative(&child);
                    next.insert(t, p);
                }
            }
        }
        layer = next;
    }
    Ok(out)
}

/// The least image of `pos` under the board's symmetries (by its position string), the class's
/// representative.
fn representative(pos: &Position) -> (String, Position) {
    (0..crate::rules::symmetry::SYMMETRIES)
        .map(|s| {
            let image = pos.transformed(s);
            (fen::write(&image), image)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .expect("sixteen images")
}
