//! Iterative deepening at the root: one depth after another, each root search in an aspiration
//! window around the previous score that widens on failure, the root moves kept sorted best
//! first, `MultiPV` lines one after another, and the decision when to stop between iterations.

use super::score::{is_decisive, INF, MATE};
use super::threads::{Line, RootChoice};
use super::timeman::{Progress, ITERATION_START_SHARE};
use super::tt::Bound;
use super::worker::{RootEffort, Worker};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::sync::atomic::Ordering;

impl Worker<'_> {
    /// Iterative deepening over the root moves; returns the move chosen.
    pub(super) fn iterate(
        &mut self,
        pos: &Position,
        mut root: Vec<Move>,
        max_depth: u32,
        multipv: usize,
        report: &mut dyn FnMut(&Line),
    ) -> RootChoice {
        let mut best = RootChoice {
            best: root[0],
            ponder: None,
            score: 0,
            depth: 0,
        };
        let mut scores = vec![-INF; root.len()];
        let mut prev_score = 0;
        // What the iterations have shown, to scale the move's time between them.
        let mut progress = Progress::default();
        // Helpers start at different depths so that the threads spread over the tree.
        let first_depth = 1 + (self.id % 2) as u32;
        let mut depth = first_depth;
        while depth <= max_depth {
            let mut lines: Vec<Line> = Vec::with_capacity(multipv);
            for k in 0..multipv {
                let score = self.aspiration(
                    pos,
                    &mut root[k..],
                    &mut scores[k..],
                    depth,
                    k,
                    prev_score,
                    report,
                );
                if self.stopped {
                    break;
                }
                if k == 0 {
                    prev_score = score;
                }
                lines.push(self.line(depth, k, score, None));
            }
            if lines.len() < multipv {
                // Stopped inside the iteration. Its first move was the previous best; a move
                // that finished ahead of it was proven better, so it is kept.
                if lines.is_empty()
                    && self.pv_len[0] > 0
                    && depth > first_depth
                    && self.pv[0][0] != best.best
                {
                    best.best = self.pv[0][0];
                    best.ponder = (self.pv_len[0] > 1).then(|| self.pv[0][1]);
                    best.score = scores[0];
                    if self.id == 0 {
                        // The answer changes: say so, so that the last line agrees with it.
                        self.flush_nodes();
                        report(&self.line(depth, 0, scores[0], Some(Bound::Lower)));
                    }
                }
                break;
            }
            let effort = self.root_effort;
            progress.iteration(
                depth,
                depth > first_depth && lines[0].pv[0] == best.best,
                lines[0].score,
                is_decisive(lines[0].score),
                effort.best_move as f64 / effort.all.max(1) as f64,
            );
            best = RootChoice::of(&lines[0]);
            self.post(&lines[0], max_depth);
            if self.id == 0 {
                self.flush_nodes();
                for l in &lines {
                    report(l);
                }
            }
            // A forced result within the depth searched will not change.
            let decided = is_decisive(prev_score) && ((MATE - prev_score.abs()) as u32) < depth;
            if self.id == 0
                && (self.past_soft_limit(progress.scale()) || (decided && self.may_stop_early()))
            {
                break;
            }
            depth += 1;
            if self.id > 0 {
                // Helpers stay ahead of what is already done, so that the threads spread over
                // different depths of the tree.
                let done = self.shared.completed_depth.load(Ordering::Relaxed) as u32;
                depth = depth.max(done + 1);
            }
            if self.shared.abort.load(Ordering::Relaxed) {
                break;
            }
        }
        best
    }

    /// Makes a completed iteration known to the other threads; reaching the depth limit ends the
    /// whole search.
    fn post(&self, line: &Line, max_depth: u32) {
        let mut slot = self
            .shared
            .completed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.as_ref().is_none_or(|c| line.depth > c.depth) {
            *slot = Some(line.clone());
            self.shared
                .completed_depth
                .store(u64::from(line.depth), Ordering::Relaxed);
        }
        if line.depth >= max_depth {
            self.shared.abort.store(true, Ordering::SeqCst);
        }
    }

    /// One root search at `depth` for the `k`-th line, in a window around the previous score that
    /// widens on failure.
    #[allow(clippy::too_many_arguments)]
    fn aspiration(
        &mut self,
        pos: &Position,
        root: &mut [Move],
        scores: &mut [i32],
        depth: u32,
        k: usize,
        prev: i32,
        report: &mut dyn FnMut(&Line),
    ) -> i32 {
        // The line so far survives a re-search that is stopped before it completes a move.
        self.pv_len[0] = 0;
        let mut delta = 40;
        let (mut alpha, mut beta) = if depth >= 5 && k == 0 && !is_decisive(prev) {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.root_search(pos, root, scores, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            if alpha == -INF && beta == INF {
                // The whole range: no wider window can give another score.
                return s;
            }
            let bound = if s <= alpha {
                alpha = (alpha - delta).max(-INF);
                beta = i32::midpoint(alpha, beta) + delta / 2;
                Bound::Upper
            } else if s >= beta {
                beta = (beta + delta).min(INF);
                Bound::Lower
            } else {
                return s;
            };
            if self.id == 0 && depth > 8 {
                self.flush_nodes();
                report(&self.line(depth, k, s, Some(bound)));
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn may_stop_early(&self) -> bool {
        !self.shared.infinite && !self.shared.control.is_pondering()
    }

    fn line(&self, depth: u32, k: usize, score: i32, bound: Option<Bound>) -> Line {
        Line {
            depth,
            seldepth: self.seldepth as u32,
            multipv: k + 1,
            score,
            bound,
            pv: self.pv[0][..self.pv_len[0].max(1)].to_vec(),
        }
    }

    /// Searches the root moves of `root`, keeping them sorted best first.
    fn root_search(
        &mut self,
        pos: &Position,
        root: &mut [Move],
        scores: &mut [i32],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        let start_nodes = self.nodes;
        let mut best_nodes = 0;
        for i in 0..root.len() {
            let mv = root[i];
            let before = self.nodes;
            let mut child = *pos;
            child.play(mv);
            let turn_ended = child.side_to_move() != pos.side_to_move();
            let d = depth as i32 - 1;
            let score = if i == 0 {
                -self.child(&child, turn_ended, d, -beta, -alpha, 1)
            } else {
                let s = -self.child(&child, turn_ended, d, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta {
                    -self.child(&child, turn_ended, d, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            scores[i] = score;
            best = best.max(score);
            let spent = self.nodes - before;
            // The first move, or one proven better than it: a score at or below alpha is only a
            // bound, and bounds of different moves do not compare.
            if i == 0 || score > alpha {
                best_nodes = spent;
                self.set_pv(0, mv);
                // Bring the new best move to the front, keeping the others' order.
                root[..=i].rotate_right(1);
                scores[..=i].rotate_right(1);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.pv_len[0] == 0 && !self.stopped {
            self.pv[0][0] = root[0];
            self.pv_len[0] = 1;
        }
        self.root_effort = RootEffort {
            best_move: best_nodes,
            all: self.nodes - start_nodes,
        };
        best
    }

    /// Whether the move's time is spent, between iterations: its soft limit (the time
    /// manager's optimum) times `scale` (`Progress::scale`), within the hard limit, less what
    /// an iteration that is unlikely to finish would take (`ITERATION_START_SHARE`).
    fn past_soft_limit(&self, scale: f64) -> bool {
        if self.shared.infinite || self.shared.control.is_pondering() || self.shared.fixed_time {
            return false;
        }
        let deadline = self.shared.deadline;
        match deadline.soft {
            Some(soft) => {
                let scaled = deadline
                    .hard
                    .map_or(soft.mul_f64(scale), |hard| soft.mul_f64(scale).min(hard));
                self.shared.control.elapsed() >= scaled.mul_f64(ITERATION_START_SHARE)
            }
            None => false,
        }
    }
}
