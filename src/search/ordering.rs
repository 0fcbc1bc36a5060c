//! Move ordering: the table move, then moves that close a mill (by the value of what they
//! remove), moves that block an opponent's mill, the killers, then the history of quiet moves
//! that caused cut-offs. With ordering off (the plain style) moves keep generation order.

use super::limits::MAX_PLY;
use crate::rules::board::{Bitboard, Point};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// Brings the best-ordered of `list[next..]` to `next` (one step of a selection sort: most nodes
/// cut off after a few moves, so the rest is never sorted).
pub(super) fn select(list: &mut [Move], order: &mut [i32], next: usize) {
    let mut j = next;
    for k in next + 1..list.len() {
        if order[k] > order[j] {
            j = k;
        }
    }
    list.swap(next, j);
    order.swap(next, j);
}

/// The move to search as the `next`-th: the best-ordered of those not yet taken, then, once the
/// list is used up, those deferred because another thread was searching them (by which time the
/// table often holds their result). Returns its index in `list` and whether it may still be
/// deferred.
#[inline]
pub(super) fn pick(
    list: &mut [Move],
    order: &mut [i32],
    deferred: &[u16],
    next: usize,
) -> (usize, bool) {
    if next < list.len() {
        select(list, order, next);
        (next, true)
    } else {
        (usize::from(deferred[next - list.len()]), false)
    }
}

/// What one thread learns about moves while it searches: two killers per ply and the history of
/// quiet moves that caused cut-offs, indexed by origin (24 for a placement) and destination.
pub(super) struct MoveOrder {
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Box<[[i32; 24]; 25]>,
    /// Off in the plain style: moves keep generation order and nothing is learnt.
    enabled: bool,
}

impl MoveOrder {
    pub(super) fn new(enabled: bool) -> MoveOrder {
        MoveOrder {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[0; 24]; 25]),
            enabled,
        }
    }

    /// Fills `order` with a score per move of `list`, higher first.
    pub(super) fn score_moves(
        &self,
        pos: &Position,
        list: &[Move],
        order: &mut Vec<i32>,
        tt_move: Move,
        ply: usize,
    ) {
        order.clear();
        if !self.enabled {
            order.resize(list.len(), 0);
            return;
        }
        let us = pos.side_to_move();
        let t = pos.rules().topology();
        let theirs = pos.pieces(!us);
        let ours = pos.pieces(us);
        let empty = pos.empty();
        let their_closers = t.completing_points(theirs, empty);
        // Opponent pieces that take part in their open mills or block ours are worth removing.
        let mut hot = Bitboard::EMPTY;
        for line in &t.lines[..t.line_count] {
            let th = *line & theirs;
            let ou = *line & ours;
            if th.count() == 2 && ou.is_empty() {
                hot |= th;
            }
            if ou.count() == 2 && th.count() == 1 {
                hot |= th;
            }
        }
        for &mv in list {
            let s = if mv == tt_move {
                1 << 30
            } else if mv.removal_count() > 0 {
                let mut v = 1 << 26;
                for r in mv.removals() {
                    v += if hot.has(r) { 1000 } else { 0 };
                    v += (t.adjacent[r.index()] & empty).count() as i32 * 10;
                }
                v
            } else if mv.to().is_some_and(|to| their_closers.has(to)) {
                1 << 25
            } else if mv == self.killers[ply][0] {
                1 << 24
            } else if mv == self.killers[ply][1] {
                (1 << 24) - 1
            } else {
                self.history[history_from(mv)][history_to(mv)]
            };
            order.push(s);
        }
    }

    /// A quiet move caused a cut-off: it becomes the first killer of its ply, and its history
    /// grows with the depth (halving every entry when one grows too large).
    pub(super) fn remember_cutoff(&mut self, mv: Move, depth: i32, ply: usize) {
        if !self.enabled || mv.removal_count() > 0 {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let h = &mut self.history[history_from(mv)][history_to(mv)];
        *h += depth * depth;
        if *h > 1 << 20 {
            for row in self.history.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }
}

fn history_from(mv: Move) -> usize {
    mv.from().map_or(24, Point::index)
}

fn history_to(mv: Move) -> usize {
    mv.to().map_or(0, Point::index)
}
