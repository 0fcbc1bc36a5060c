//! The horizon: where the main search runs out of depth, quiescence follows the turns that close
//! a mill (and, in its first plies, the answers to the opponent's mill threats) until the
//! position is quiet, so that no leaf is scored in the middle of an exchange.

use super::eval;
use super::limits::MAX_PLY;
use super::score::{self, MATE};
use super::worker::Worker;
use crate::rules::board::Bitboard;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;

/// Quiescence answers the opponent's mill threats in its first plies only.
const THREAT_QPLIES: usize = 4;

impl Worker<'_> {
    /// The score at depth 0: quiescence, or the evaluation when quiescence is off.
    pub(super) fn horizon(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.shared.features.quiescence {
            self.quiesce(pos, alpha, beta, ply, 0)
        } else {
            self.evaluator.evaluate(pos, ply)
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
            return self.evaluator.evaluate(pos, ply);
        }
        if pos.pending_removals() == 0 && !pos.has_legal_move() {
            return score::mated_at(ply);
        }
        let mut stand = self.evaluator.evaluate(pos, ply);
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
}
