//! Legal move generation, in either convention of docs/rules.md, "Perft": whole turns (a step with
//! its removals) or actions (a step, then each removal as a move of its own), and a fast count of
//! the legal moves for perft's last ply.
//!
//! Generation reads no rule option itself: it combines the position's rule readers.

use crate::rules::board::{Bitboard, Point};
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;

/// Fills `out` with the legal moves of `pos` in convention `conv`. A position whose side to move
/// has lost on material has none; one with a removal pending has only lone removals.
pub fn generate(pos: &Position, conv: Convention, out: &mut Vec<Move>) {
    out.clear();
    if pos.lost_on_material() {
        return;
    }
    if pos.pending_removals() > 0 {
        out.extend(pos.removable().iter().map(Move::removal));
        return;
    }
    pos.for_each_step(|from, to| {
        let formed = pos.mills_formed(from, to);
        if formed.illegal {
            return true;
        }
        let step = match from {
            Some(f) => Move::step(f, to),
            None => Move::place(to),
        };
        let due = pos.removals_due(formed.count);
        if due == 0 || conv == Convention::Action {
            out.push(step);
        } else {
            push_with_removals(pos, step, due, out);
        }
        true
    });
}

/// Fills `out` with the legal whole turns of `pos` that close a mill and remove (the "captures"
/// of the quiescence search).
pub fn generate_removing(pos: &Position, out: &mut Vec<Move>) {
    out.clear();
    if pos.lost_on_material() || pos.pending_removals() > 0 {
        return;
    }
    let t = pos.rules().topology();
    let us = pos.side_to_move();
    let ours = pos.pieces(us);
    let empty = pos.empty();
    let mut consider = |from: Option<Point>, to: Point| {
        let formed = pos.mills_formed(from, to);
        let due = pos.removals_due(formed.count);
        if !formed.illegal && due > 0 {
            let step = match from {
                Some(f) => Move::step(f, to),
                None => Move::place(to),
            };
            push_with_removals(pos, step, due, out);
        }
    };
    if pos.in_hand(us) > 0 {
        for to in t.completing_points(ours, empty) {
            consider(None, to);
        }
    }
    if pos.may_move() {
        for from in ours {
            for to in t.completing_points(ours.without(from), pos.targets(from)) {
                consider(Some(from), to);
            }
        }
    }
    out.retain(|m| m.removal_count() > 0);
}

/// The legal moves of `pos` in a new vector.
pub fn legal_moves(pos: &Position, conv: Convention) -> Vec<Move> {
    let mut out = Vec::new();
    generate(pos, conv, &mut out);
    out
}

/// Pushes `step` with every legal choice of `due` removals (1 to 3), or `step` alone when there
/// is nothing to remove.
fn push_with_removals(pos: &Position, step: Move, due: u8, out: &mut Vec<Move>) {
    let removable = pos.removable();
    if removable.is_empty() {
        out.push(step);
        return;
    }
    if due == 1 {
        out.extend(removable.iter().map(|r| step.with_removal(r)));
        return;
    }
    for set in removal_sets(pos, due) {
        out.push(set.iter().fold(step, super::moves::Move::with_removal));
    }
}

/// The distinct sets of up to `due` removals (two, or three when one piece closes three mills on
/// the diagonal board), each legal when taken in some order. A set holds fewer than `due` only
/// when nothing more may be removed after it.
fn removal_sets(pos: &Position, due: u8) -> Vec<Bitboard> {
    fn walk(pos: &Position, theirs: Bitboard, taken: Bitboard, left: u8, out: &mut Vec<Bitboard>) {
        let can = if left == 0 {
            Bitboard::EMPTY
        } else {
            pos.removable_from(theirs)
        };
        if can.is_empty() {
            out.push(taken);
            return;
        }
        for r in can {
            walk(pos, theirs.without(r), taken.with(r), left - 1, out);
        }
    }
    let mut out = Vec::new();
    walk(
        pos,
        pos.pieces(!pos.side_to_move()),
        Bitboard::EMPTY,
        due,
        &mut out,
    );
    out.sort_unstable_by_key(|b| b.0);
    out.dedup();
    out
}

/// How many moves to choose from when a step earns `due` removals.
fn removal_choices(pos: &Position, due: u8) -> u64 {
    let removable = pos.removable();
    match (due, removable.count()) {
        (0, _) | (_, 0) => 1,
        (1, n) => u64::from(n),
        _ => removal_sets(pos, due).len() as u64,
    }
}

/// The number of legal moves of `pos` in convention `conv`, without generating them: what
/// `generate` would produce, counted with bitboards where mills cannot form.
pub fn count(pos: &Position, conv: Convention) -> u64 {
    if pos.lost_on_material() {
        return 0;
    }
    if pos.pending_removals() > 0 {
        return u64::from(pos.removable().count());
    }
    let us = pos.side_to_move();
    let t = pos.rules().topology();
    let empty = pos.empty();
    let ours = pos.pieces(us);
    let mut total = 0u64;
    // Placements: every empty point is one move, except where a mill forms.
    if pos.in_hand(us) > 0 {
        let closers = t.completing_points(ours, empty);
        total += u64::from(empty.count() - closers.count());
        for to in closers {
            total += step_moves(pos, None, to, conv);
        }
    }
    if pos.may_move() {
        for from in ours {
            let targets = pos.targets(from);
            let closers = t.completing_points(ours.without(from), targets);
            total += u64::from(targets.count() - closers.count());
            for to in closers {
                total += step_moves(pos, Some(from), to, conv);
            }
        }
    }
    total
}

/// The number of moves made of the step `from`-`to`, which may form a mill.
#[inline]
fn step_moves(pos: &Position, from: Option<Point>, to: Point, conv: Convention) -> u64 {
    let formed = pos.mills_formed(from, to);
    if formed.illegal {
        0
    } else if conv == Convention::Action {
        1
    } else {
        removal_choices(pos, pos.removals_due(formed.count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn start_has_24_placements() {
        let pos = Position::start(Rules::nine());
        assert_eq!(legal_moves(&pos, Convention::Turn).len(), 24);
        assert_eq!(count(&pos, Convention::Turn), 24);
    }
}
