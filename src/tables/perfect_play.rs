//! Playing from the tables: in a covered position, the move that keeps the value: the shortest
//! win, the longest loss, and among drawing moves the one that leaves the opponent the fewest
//! drawing replies (the others lose for it).

use super::table_set::Tables;
use super::values::Value;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;

/// The value for the mover of playing `mv` in `pos`, under the game's draw rules, if the tables
/// cover the result. A removal is one ply: the result's own distance is not added to it.
pub fn value_of_move(tables: &Tables, pos: &Position, mv: Move) -> Option<Value> {
    let mut child = *pos;
    child.play(mv);
    let theirs = result_after(pos, &child, |c| tables.probe_in_game(c))?;
    let step = |d: u16| if mv.removal_count() > 0 { 1 } else { d + 1 };
    Some(match theirs {
        Value::Loss(d) => Value::Win(step(d)),
        Value::Win(d) => Value::Loss(step(d)),
        Value::Draw => Value::Draw,
    })
}

/// The value of `child` (the position after a move in `pos`) for the side to move there: the
/// game's result when the move ended it (from `pos`'s mover's view, turned), else `probe`'s.
fn result_after(
    pos: &Position,
    child: &Position,
    probe: impl Fn(&Position) -> Option<Value>,
) -> Option<Value> {
    match child.quick_outcome() {
        Some(o) => Some(match o.winner() {
            Some(w) if w == pos.side_to_move() => Value::Loss(0),
            Some(_) => Value::Win(0),
            None => Value::Draw,
        }),
        None => probe(child),
    }
}

/// The moves of `moves` that keep the tables' value of `pos` as it is without draw rules, where
/// the tables cover `pos` and every move's result; `None` otherwise, or when no move keeps it
/// (the only keeping moves ended the game by a draw rule).
///
/// Where the draw rules leave some values undecided (`Tables::probe_in_game`), this is what
/// stays sure: the rules can only turn a win or a loss into a draw, so a move that keeps the
/// value is never worse under them than one that gives it away. From a drawn position, such a
/// move keeps the draw; from a won one, the winning chances.
pub fn keeping_moves(tables: &Tables, pos: &Position, moves: &[Move]) -> Option<Vec<Move>> {
    let held = tables.probe(pos)?.wdl();
    let mut keep = Vec::new();
    for &mv in moves {
        let mut child = *pos;
        child.play(mv);
        let theirs = result_after(pos, &child, |c| tables.probe(c))?.wdl();
        let ours = if child.side_to_move() == pos.side_to_move() {
            theirs
        } else {
            -theirs
        };
        if ours >= held {
            keep.push(mv);
        }
    }
    (!keep.is_empty()).then_some(keep)
}

/// The best of `moves` by the tables, with its value; `None` when a move's result is not
/// covered (a table is missing) or there is no move.
pub fn best_move(tables: &Tables, pos: &Position, moves: &[Move]) -> Option<(Move, Value)> {
    let mut valued = Vec::with_capacity(moves.len());
    for &mv in moves {
        valued.push((mv, value_of_move(tables, pos, mv)?));
    }
    let rank = |&(mv, v): &(Move, Value)| -> (u8, i64) {
        match v {
            Value::Win(d) => (2, -i64::from(d)),
            Value::Draw => (1, -(drawing_replies(tables, pos, mv) as i64)),
            Value::Loss(d) => (0, i64::from(d)),
        }
    };
    // The first of the best, so that the choice is the same on every run.
    let mut best: Option<((u8, i64), (Move, Value))> = None;
    for item in valued {
        let r = rank(&item);
        if best.as_ref().is_none_or(|(b, _)| r > *b) {
            best = Some((r, item));
        }
    }
    best.map(|(_, item)| item)
}

/// How many replies to `mv` keep the draw for the opponent (a reply it has not proven worse).
fn drawing_replies(tables: &Tables, pos: &Position, mv: Move) -> usize {
    let mut child = *pos;
    child.play(mv);
    movegen::legal_moves(&child, Convention::Turn)
        .into_iter()
        .filter(|&r| matches!(value_of_move(tables, &child, r), Some(Value::Draw) | None))
        .count()
}
