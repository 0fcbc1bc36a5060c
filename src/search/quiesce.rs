//! The horizon: where the main search runs out of depth, quiescence follows the turns that close
//! a mill (and, in its first plies, the answers to the opponent's mill threats) until the
//! position is quiet, so that no leaf is scored in the middle of an exchange.

use super::eval;
use super::limits::MAX_PLY;
use super::network::{Accumulator, Network, Seen};
use super::score::{self, MATE};
use super::worker::Worker;
use crate::rules::board::Bitboard;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;

/// Quiescence answers the opponent's mill threats in its first plies only.
const THREAT_QPLIES: usize = 4;

/// Features that differ (as `Seen::distance` counts them: three a point, two a hand) from which
/// an accumulator is summed from nothing rather than updated: summing costs a row for each
/// feature on, about 22 a view late in the placing, and an update about one a point that
/// differs and one or two a line through it whose threat comes or goes (a step counts 6).
const REFRESH_AT: u32 = 28;

impl Worker<'_> {
    /// The score at depth 0: quiescence, or the evaluation when quiescence is off.
    pub(super) fn horizon(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.shared.features.quiescence {
            self.quiesce(pos, alpha, beta, ply, 0)
        } else {
            self.evaluate(pos, ply)
        }
    }

    /// Quiescence: at the horizon, the side to move may stand pat or close a mill; mills are
    /// followed until none closes, so that leaves are quiet.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        if pos.pending_removals() == 0 && !pos.has_legal_move() {
            return score::mated_at(ply);
        }
        let mut stand = self.evaluate(pos, ply);
        // A mill the opponent threatens to close is answered: standing pat then costs a piece,
        // and the moves that block a threatened point are searched along with the mill closes.
        let threats = if qply < THREAT_QPLIES {
            pos.mill_threats(!pos.side_to_move())
        } else {
            Bitboard::EMPTY
        };
        if !threats.is_empty() {
            stand -= eval::PIECE;
        }
        if stand >= beta || qply >= 6 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut list = std::mem::take(&mut self.lists[ply]);
        if threats.is_empty() {
            movegen::generate_removing(pos, &mut list);
        } else {
            movegen::generate(pos, Convention::Turn, &mut list);
            list.retain(|m| m.removal_count() > 0 || m.to().is_some_and(|to| threats.has(to)));
            list.sort_by_key(|m| std::cmp::Reverse(m.removal_count()));
        }
        let mut best = stand;
        for &mv in &list {
            let mut child = *pos;
            child.play(mv);
            self.count_node();
            if self.stopped {
                break;
            }
            let score = match child.quick_outcome() {
                Some(o) if o.winner().is_some() => MATE - ply as i32 - 1,
                Some(_) => 0,
                None => match self.shared.tables.and_then(|t| t.probe_in_game(&child)) {
                    // A covered position is exact here too.
                    Some(v) => -score::from_tables(v, ply + 1),
                    None => -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1),
                },
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        best
    }

    /// The static evaluation for the side to move at `ply`: the network's where one serves
    /// the rules (`network_at`), else the evaluation of `eval`.
    pub(super) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if !self.shared.features.full_evaluation {
            return eval::material(pos);
        }
        match self.shared.network {
            Some(net) => {
                let acc = self.network_at(net, pos, ply);
                net.output(acc, pos)
            }
            None => eval::evaluate(pos, &self.shared.weights),
        }
    }

    /// The accumulator of `pos` at `ply`, made from the nearest of those kept at `ply` (a
    /// sibling's, or an earlier visit's), at `ply - 1` (the parent's, when it was evaluated)
    /// and `ply - 2`, by the features that differ; summed from nothing when none is near.
    fn network_at(&mut self, net: &Network, pos: &Position, ply: usize) -> &Accumulator {
        let seen = Seen::of(pos);
        let mut best: Option<(u32, usize)> = None;
        for k in [ply, ply.wrapping_sub(1), ply.wrapping_sub(2)] {
            if let Some(Some(acc)) = self.accumulators.get(k) {
                let d = acc.seen.distance(&seen);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, k));
                }
            }
        }
        match best {
            Some((d, k)) if d < REFRESH_AT => {
                if k != ply {
                    // A parent's: copied into this ply's place (no other copy), then updated.
                    let (below, here) = self.accumulators.split_at_mut(ply);
                    let from = below[k].as_ref().expect("a candidate is kept");
                    match &mut here[0] {
                        // Field by field: the sums copied straight into place, no temporary.
                        Some(acc) => {
                            acc.seen = from.seen;
                            acc.sums = from.sums;
                        }
                        slot @ None => *slot = Some(from.clone()),
                    }
                }
                let acc = self.accumulators[ply].as_mut().expect("just kept");
                net.update(acc, &seen);
            }
            _ => match &mut self.accumulators[ply] {
                Some(acc) => net.refresh_into(acc, &seen),
                slot @ None => *slot = Some(net.refresh(&seen)),
            },
        }
        self.accumulators[ply].as_ref().expect("just kept")
    }
}
