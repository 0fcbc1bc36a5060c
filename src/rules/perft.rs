//! Perft: the number of positions reached after exactly `depth` plies, draw rules ignored (a
//! finished game has no moves), in either convention. One thread, no hash table, bulk counting
//! at the last ply.

use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;

/// The deepest count accepted, the one limit of both ways to ask: `moulin perft` and the
/// protocol's `perft` (and `go perft`). The recursion holds a frame and a move list per ply, and
/// the tree grows about twentyfold a ply: a deeper count could never finish, and a depth in the
/// thousands would overflow the stack before it began.
pub const MAX_DEPTH: u32 = 40;

/// The number of leaves `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32, conv: Convention) -> u64 {
    perft_until(pos, depth, conv, &|| false).expect("never stopped")
}

/// Like `perft`, but gives up (returning `None`) soon after `stopped()` turns true: for callers
/// that count while they must stay responsive, such as the protocol's `perft` command.
fn perft_until(
    pos: &Position,
    depth: u32,
    conv: Convention,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    let mut lists: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
    recurse(pos, depth, conv, &mut lists, stopped)
}

fn recurse(
    pos: &Position,
    depth: u32,
    conv: Convention,
    lists: &mut [Vec<Move>],
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    match depth {
        0 => return Some(1),
        1 => return Some(movegen::count(pos, conv)),
        // Below three plies a subtree is small: count it without looking at the flag.
        3.. if stopped() => return None,
        _ => {}
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    movegen::generate(pos, conv, list);
    let mut total = 0;
    for &mv in list.iter() {
        let mut child = *pos;
        child.play(mv);
        total += recurse(&child, depth - 1, conv, rest, stopped)?;
    }
    Some(total)
}

/// Perft split by root move ("divide"): each legal move's count is given to `each` as soon as
/// it is known, in generation order, and the total is returned; `None` when `stopped()` turned
/// true first. Depth 0 counts the position itself and names no move.
pub fn divide(
    pos: &Position,
    depth: u32,
    conv: Convention,
    stopped: &dyn Fn() -> bool,
    each: &mut dyn FnMut(Move, u64),
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut total = 0;
    for mv in movegen::legal_moves(pos, conv) {
        let mut child = *pos;
        child.play(mv);
        let n = perft_until(&child, depth - 1, conv, stopped)?;
        each(mv, n);
        total += n;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn perft_until_agrees_and_stops() {
        let pos = Position::start(Rules::nine());
        for d in 0..5 {
            let full = perft(&pos, d, Convention::Turn);
            assert_eq!(
                perft_until(&pos, d, Convention::Turn, &|| false),
                Some(full)
            );
        }
        assert_eq!(perft_until(&pos, 4, Convention::Turn, &|| true), None);
        let mut moves = 0;
        let total = divide(&pos, 3, Convention::Turn, &|| false, &mut |_, _| moves += 1);
        assert_eq!(total, Some(perft(&pos, 3, Convention::Turn)));
        assert_eq!(moves, 24);
    }
}
