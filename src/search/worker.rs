//! One search thread: its state (the path's keys, killers, history, the principal lines, move
//! lists per ply) and the negamax alpha-beta search with principal variation search, the table,
//! late move reductions and ABDADA deferral. Iterative deepening at the root is in `iterate`,
//! the horizon in `quiesce`, move ordering in `ordering`.

use super::eval::Evaluator;
use super::limits::MAX_PLY;
use super::ordering::{self, MoveOrder};
use super::score::{self, INF};
use super::threads::Shared;
use super::tt::{Bound, Entry};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Repetition;
use std::sync::atomic::Ordering;

/// `ln(n)` for the depths and move ranks of late move reductions, from a table made once: the
/// same values as computing it, without two logarithms for every reduced move.
fn ln(n: usize) -> f32 {
    static TABLE: std::sync::OnceLock<[f32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| std::array::from_fn(|i| (i as f32).ln()));
    table.get(n).copied().unwrap_or_else(|| (n as f32).ln())
}

/// One thread's search state.
pub(super) struct Worker<'a> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) id: usize,
    pub(super) nodes: u64,
    pub(super) pending_nodes: u64,
    /// Table probes that answered, not yet added to the shared count.
    pending_tbhits: u64,
    /// Nodes between two checks of the stop conditions: 1024, fewer under a small node limit
    /// (a weak `Level`) so that it is kept closely.
    check_every: u64,
    pub(super) stopped: bool,
    pub(super) seldepth: usize,
    /// Keys of the positions at the start of each turn: the game's, then the search path's.
    pub(super) keys: Vec<u64>,
    /// Killers and history.
    pub(super) order: MoveOrder,
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) lists: Vec<Vec<Move>>,
    pub(super) scores: Vec<Vec<i32>>,
    pub(super) deferred: Vec<Vec<u16>>,
    /// The last root search's nodes, for the time manager.
    pub(super) root_effort: RootEffort,
    /// The static evaluation, with the network's accumulators by ply.
    pub(super) evaluator: Evaluator<'a>,
}

/// The nodes of one root search, for the time manager: the share of its best move says how sure
/// the choice is.
#[derive(Clone, Copy, Default)]
pub(super) struct RootEffort {
    /// The nodes of the best move's subtree.
    pub(super) best_move: u64,
    /// The nodes of the whole root search.
    pub(super) all: u64,
}

/// What the table says at a node.
enum Probe {
    /// Its stored result settles the node.
    Cut(i32),
    /// The move to search first (`Move::NULL` when none).
    Search(Move),
}

impl<'a> Worker<'a> {
    pub(super) fn new(shared: &'a Shared<'a>, id: usize, history: &[u64]) -> Worker<'a> {
        Worker {
            shared,
            id,
            nodes: 0,
            pending_nodes: 0,
            pending_tbhits: 0,
            check_every: shared.node_limit.map_or(1024, |n| (n / 8).clamp(8, 1024)),
            stopped: false,
            seldepth: 0,
            keys: history.to_vec(),
            order: MoveOrder::new(shared.features.ordering),
            // Made on the heap: on the stack first, the table would take 58 KB of it.
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]
                .into_boxed_slice()
                .try_into()
                .expect("MAX_PLY + 1 lines"),
            pv_len: [0; MAX_PLY + 1],
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            deferred: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            root_effort: RootEffort::default(),
            evaluator: Evaluator::new(shared.evaluation, MAX_PLY + 2),
        }
    }

    /// The line at `ply` becomes `mv` followed by the line just found at `ply + 1`.
    pub(super) fn set_pv(&mut self, ply: usize, mv: Move) {
        let n = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Searches a child: the same side's continuation when its turn has not ended (a removal is
    /// pending), the opponent's reply otherwise.
    pub(super) fn child(
        &mut self,
        child: &Position,
        turn_ended: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if turn_ended {
            self.keys.push(child.key());
            let s = self.negamax(child, depth, alpha, beta, ply);
            self.keys.pop();
            s
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    /// Adds the nodes (and table hits) not yet counted to the shared counts.
    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
        self.flush_tbhits();
    }

    /// Adds the table hits not yet counted to the shared count.
    fn flush_tbhits(&mut self) {
        if self.pending_tbhits > 0 {
            self.shared
                .tbhits
                .fetch_add(self.pending_tbhits, Ordering::Relaxed);
            self.pending_tbhits = 0;
        }
    }

    /// Counts a node and, every so often, checks the stop conditions.
    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= self.check_every {
            let total = self
                .shared
                .nodes
                .fetch_add(self.pending_nodes, Ordering::Relaxed)
                + self.pending_nodes;
            self.pending_nodes = 0;
            self.flush_tbhits();
            if self.shared.control.is_stopped() || self.shared.abort.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.id == 0 {
                // The first iteration always ends, so that the move played is a searched one.
                let searched = self.shared.completed_depth.load(Ordering::Relaxed) > 0;
                if searched && self.shared.node_limit.is_some_and(|n| total >= n) {
                    self.stopped = true;
                }
                if !self.shared.infinite && !self.shared.control.is_pondering() {
                    if let Some(hard) = self.shared.deadline.hard {
                        if self.shared.control.elapsed() >= hard {
                            self.stopped = true;
                        }
                    }
                }
            }
        }
    }

    /// Whether the position at the end of the search path repeats an earlier turn start.
    fn is_repetition(&self, pos: &Position) -> bool {
        if pos.rules().repetition == Repetition::Off {
            return false;
        }
        let n = self.keys.len();
        let window = (pos.no_capture_plies() as usize + 1).min(n.saturating_sub(1));
        let key = pos.key();
        self.keys[n - 1 - window..n - 1].contains(&key)
    }

    /// The score of a node that is decided without searching: the game is over, the position
    /// repeats, or the path is as deep as it may go.
    fn settled(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        if let Some(outcome) = pos.quick_outcome() {
            return Some(match outcome.winner() {
                Some(_) => score::mated_at(ply),
                None => 0,
            });
        }
        if pos.pending_removals() == 0 && self.is_repetition(pos) {
            return Some(0);
        }
        if let Some(v) = self.shared.tables.and_then(|t| t.probe_in_game(pos)) {
            self.pending_tbhits += 1;
            return Some(score::from_tables(v, ply));
        }
        if ply >= MAX_PLY {
            return Some(self.evaluator.evaluate(pos, ply));
        }
        None
    }

    /// Looks the position up in the table: a stored result deep enough and within the window
    /// settles a non-PV node; otherwise the stored move is searched first.
    fn probe(&self, key: u64, depth: i32, alpha: i32, beta: i32, ply: usize, pv: bool) -> Probe {
        if !self.shared.features.table {
            return Probe::Search(Move::NULL);
        }
        let Some(e) = self.shared.tt.probe(key) else {
            return Probe::Search(Move::NULL);
        };
        if !pv && e.depth >= depth {
            let s = score::from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return Probe::Cut(s);
            }
        }
        Probe::Search(e.mv)
    }

    /// Stores a node's result, with the bound it is relative to the window it was searched in.
    #[allow(clippy::too_many_arguments)]
    fn store(&self, key: u64, mv: Move, best: i32, depth: i32, alpha: i32, beta: i32, ply: usize) {
        if !self.shared.features.table {
            return;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            mv,
            score: score::to_table(best, ply),
            depth,
            bound,
        };
        self.shared.tt.store(key, entry);
    }

    /// How many plies shallower the `index`-th move searched is tried first (late move
    /// reductions: late quiet moves are searched shallower, and again at full depth only when
    /// they look better than the best so far).
    fn reduction(&self, depth: i32, index: usize, quiet: bool, pv: bool) -> i32 {
        if depth >= 3 && index >= 2 && quiet && self.shared.features.reductions {
            // Grows with the logarithms of both: deep nodes and late moves are reduced most.
            let r = 0.5 + ln(depth as usize) * ln(index) / 1.75;
            (r as i32).clamp(1, depth - 2) - i32::from(pv)
        } else {
            0
        }
    }

    /// Searches one move of a node: the first with the full window, the others with a null
    /// window (reduced when late and quiet) and again with the full window when they beat alpha
    /// (principal variation search).
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        child: &Position,
        turn_ended: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        index: usize,
        reduction: i32,
    ) -> i32 {
        let d = depth - 1;
        if index == 0 {
            return -self.child(child, turn_ended, d, -beta, -alpha, ply + 1);
        }
        let mut s = -self.child(
            child,
            turn_ended,
            d - reduction,
            -alpha - 1,
            -alpha,
            ply + 1,
        );
        if reduction > 0 && s > alpha {
            s = -self.child(child, turn_ended, d, -alpha - 1, -alpha, ply + 1);
        }
        if s > alpha && s < beta {
            -self.child(child, turn_ended, d, -beta, -alpha, ply + 1)
        } else {
            s
        }
    }

    /// Negamax alpha-beta: settle the node if it can be, probe the table, then search the
    /// ordered moves (those another thread is busy with last), and store the result.
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.stopped {
            return 0;
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = self.settled(pos, ply) {
            return s;
        }
        if let Some(s) = score::mate_distance_cut(alpha, beta, ply) {
            return s;
        }
        if depth <= 0 {
            return self.horizon(pos, alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let tt_move = match self.probe(key, depth, alpha, beta, ply, pv_node) {
            Probe::Cut(s) => return s,
            Probe::Search(mv) => mv,
        };

        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut order = std::mem::take(&mut self.scores[ply]);
        movegen::generate(pos, Convention::Turn, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            self.scores[ply] = order;
            // Blocked: the side to move loses.
            return score::mated_at(ply);
        }
        self.order.score_moves(pos, &list, &mut order, tt_move, ply);

        let us = pos.side_to_move();
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let n = list.len();
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        // Moves are taken best-ordered first, then those deferred (see `ordering::pick`).
        let mut next = 0;
        let mut searched = 0;
        while next < n + deferred.len() {
            let (i, may_defer) = ordering::pick(&mut list, &mut order, &deferred, next);
            next += 1;
            let mv = list[i];
            let mut child = *pos;
            child.play(mv);
            let turn_ended = child.side_to_move() != us;
            let sharing = self.shared.threads > 1 && depth >= 3 && searched > 0;
            if sharing && may_defer && self.shared.busy_elsewhere(child.key(), self.id) {
                deferred.push(i as u16);
                continue;
            }
            let marked = sharing && self.shared.mark_busy(child.key(), self.id);
            let index = searched;
            searched += 1;
            // Quiet: no removal, not the table move, a killer or a block of an opponent's mill.
            let quiet = mv.removal_count() == 0 && order[i] < 1 << 24;
            let r = self.reduction(depth, index, quiet, pv_node);
            let score = self.search_move(&child, turn_ended, depth, alpha, beta, ply, index, r);
            if marked {
                self.shared.unmark_busy(child.key(), self.id);
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        self.order.remember_cutoff(mv, depth, ply);
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = order;
        self.deferred[ply] = deferred;
        if self.stopped {
            return 0;
        }
        self.store(key, best_move, best, depth, original_alpha, beta, ply);
        best
    }
}
