//! The search: negamax alpha-beta with principal variation search, iterative deepening and
//! aspiration windows, over a transposition table shared by every thread (Lazy SMP on a rayon
//! pool). Moves are whole turns (a step with its removals); at a root with a removal pending they
//! are lone removals.
//!
//! The search never prints: it reports through a callback that the protocol formats.

use crate::eval;
use crate::rules::board::{Bitboard, ByColor, Point};
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::{Outcome, Position};
use crate::rules::Repetition;
use crate::tt::{Bound, Entry, TranspositionTable};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Larger than any score.
pub const INF: i32 = 32000;
/// The score of a win at the root; a win `p` plies away scores `MATE - p`.
pub const MATE: i32 = 31000;
/// Scores beyond this are wins or losses by distance.
pub const MATE_BOUND: i32 = MATE - 1000;
/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;
/// Quiescence answers the opponent's mill threats in its first plies only.
const THREAT_QPLIES: usize = 4;

/// A score as the protocol reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-pieces for the side to move.
    Cp(i32),
    /// A forced win in this many of the side to move's own turns; negative when losing.
    Mate(i32),
}

impl Score {
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }
}

/// What limits a search. All fields default to "no limit".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Milliseconds left on each side's clock.
    pub time: ByColor<Option<u64>>,
    /// Milliseconds added per move.
    pub inc: ByColor<u64>,
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search the expected position until `ponderhit` (then the limits apply) or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// How the search plays; `Full` is the engine, `Plain` a baseline for matches (plain alpha-beta:
/// no table, no ordering heuristics, material-only evaluation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Full,
    Plain,
}

/// Settings that outlive one search.
#[derive(Clone, Debug)]
pub struct Options {
    pub multipv: usize,
    /// Milliseconds kept in reserve for the communication with the GUI.
    pub move_overhead: u64,
    pub style: Style,
    pub weights: eval::Weights,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            multipv: 1,
            move_overhead: 30,
            style: Style::Full,
            weights: eval::Weights::DEFAULT,
        }
    }
}

/// Shared between the search and the protocol thread: `stop` and `ponderhit` act through it.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the clock for this move started (reset at `ponderhit`).
    start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Control {
        Control::new()
    }
}

impl Control {
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }

    /// Readies the control for a new search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes the real one, its clock
    /// starting now.
    pub fn ponderhit(&self) {
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn elapsed(&self) -> Duration {
        self.start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    /// `Some` when the score is only a bound (the aspiration window failed).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` when the game is over (or no root move was allowed).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    /// The game's outcome when it is already over.
    pub outcome: Option<Outcome>,
}

impl SearchResult {
    /// The answer when there is nothing to search: the game is over (`outcome`) or no root move
    /// is allowed.
    pub fn nothing(outcome: Option<Outcome>) -> SearchResult {
        SearchResult {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            outcome,
        }
    }
}

/// The search engine: the shared table, the thread pool and the options.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    pool: rayon::ThreadPool,
    threads: usize,
    pub options: Options,
}

impl Searcher {
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            pool: build_pool(threads),
            threads: threads.max(1),
            options: Options::default(),
        }
    }

    /// Resizes the table (its contents are lost).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(mb));
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.pool = build_pool(self.threads);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches the game's current position within `limits`, reporting progress to `report`.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let pos = *game.position();
        if let Some(outcome) = game.outcome() {
            return SearchResult::nothing(Some(outcome));
        }
        let mut root_moves = movegen::legal_moves(&pos, Convention::Turn);
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        if root_moves.is_empty() {
            return SearchResult::nothing(None);
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            control,
            nodes: AtomicU64::new(0),
            abort: AtomicBool::new(false),
            busy: if self.threads > 1 {
                (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
            } else {
                Vec::new()
            },
            threads: self.threads,
            completed: Mutex::new(None),
            completed_depth: AtomicU64::new(0),
            deadline: deadline(&pos, limits, &self.options),
            node_limit: limits.nodes,
            infinite: limits.infinite,
            fixed_time: limits.movetime.is_some(),
            style: self.options.style,
            weights: self.options.weights,
        };
        let history = game.history().to_vec();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 10)
            .clamp(1, MAX_PLY as u32 - 10);
        let multipv = self.options.multipv.clamp(1, root_moves.len());
        let threads = self.threads;
        let start = Instant::now();
        let mut main_result = None;
        self.pool.in_place_scope(|scope| {
            for id in 1..threads {
                let shared = &shared;
                let root_moves = root_moves.clone();
                let history = history.clone();
                scope.spawn(move |_| {
                    let mut w = Worker::new(shared, id, &history);
                    w.iterate(&pos, root_moves, max_depth, 1, &mut |_| {});
                    w.flush_nodes();
                });
            }
            let mut w = Worker::new(&shared, 0, &history);
            let r = w.iterate(&pos, root_moves.clone(), max_depth, multipv, &mut |line| {
                let elapsed = start.elapsed();
                let nodes = shared.nodes.load(Ordering::Relaxed);
                report(&Info {
                    depth: line.depth,
                    seldepth: line.seldepth,
                    multipv: line.multipv,
                    score: Score::from_internal(line.score),
                    bound: line.bound,
                    nodes,
                    nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
                    hashfull: shared.tt.hashfull(),
                    time_ms: elapsed.as_millis() as u64,
                    pv: line.pv.clone(),
                });
            });
            w.flush_nodes();
            // The main thread decides: the helpers stop with it.
            shared.abort.store(true, Ordering::SeqCst);
            main_result = Some(r);
        });
        let (mut best, mut ponder, mut score, mut depth) =
            main_result.expect("the main worker ran");
        // A helper that completed a deeper iteration than the main thread has the better answer.
        if multipv == 1 {
            let deeper = shared
                .completed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            if let Some(c) = deeper.filter(|c| c.depth > depth && !c.pv.is_empty()) {
                let elapsed = start.elapsed();
                let nodes = shared.nodes.load(Ordering::Relaxed);
                report(&Info {
                    depth: c.depth,
                    seldepth: c.seldepth,
                    multipv: 1,
                    score: Score::from_internal(c.score),
                    bound: None,
                    nodes,
                    nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
                    hashfull: shared.tt.hashfull(),
                    time_ms: elapsed.as_millis() as u64,
                    pv: c.pv.clone(),
                });
                (best, ponder, score, depth) = (c.pv[0], c.pv.get(1).copied(), c.score, c.depth);
            }
        }
        SearchResult {
            best: Some(best),
            ponder,
            score: Score::from_internal(score),
            depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            outcome: None,
        }
    }
}

fn build_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("moulin-search-{i}"))
        .build()
        .or_else(|_| rayon::ThreadPoolBuilder::new().num_threads(1).build())
        .expect("a one-thread pool can always be built")
}

/// Time limits for this move: (soft, hard). The soft limit ends iterative deepening between
/// iterations; the hard one stops the search wherever it is.
#[derive(Clone, Copy, Debug)]
struct Deadline {
    soft: Option<Duration>,
    hard: Option<Duration>,
}

fn deadline(pos: &Position, limits: &Limits, options: &Options) -> Deadline {
    let overhead = options.move_overhead;
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
        return Deadline {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let us = pos.side_to_move();
    let Some(left) = limits.time[us] else {
        return Deadline {
            soft: None,
            hard: None,
        };
    };
    let inc = limits.inc[us];
    let usable = left.saturating_sub(overhead).max(1);
    // Spread the time over the moves to go (or an estimate of them), plus most of the increment.
    let moves = limits.movestogo.unwrap_or(35).clamp(1, 60) as u64;
    let soft = (usable / moves)
        .saturating_add(inc / 4 * 3)
        .min(usable / 2)
        .max(1);
    let hard = soft.saturating_mul(4).min(usable / 3 * 2).max(soft);
    Deadline {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
    }
}

/// What every thread of one search shares.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    nodes: AtomicU64,
    /// Set when the main thread has finished, to stop the helpers.
    abort: AtomicBool,
    /// Positions being searched right now, by which thread (see `mark_busy`).
    busy: Vec<AtomicU64>,
    threads: usize,
    /// The deepest iteration any thread has completed, with its principal line.
    completed: Mutex<Option<Line>>,
    completed_depth: AtomicU64,
    deadline: Deadline,
    node_limit: Option<u64>,
    infinite: bool,
    /// `movetime`: use all of it, since nothing is saved for later moves.
    fixed_time: bool,
    style: Style,
    weights: eval::Weights,
}

/// Slots of the table of positions being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;

impl Shared<'_> {
    /// A busy slot holds the position's key with its low byte replaced by the searching thread's
    /// id plus one.
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key >> 50) as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether another thread is searching the position with this key.
    fn busy_elsewhere(&self, key: u64, id: usize) -> bool {
        let v = self.busy_slot(key).load(Ordering::Relaxed);
        v >> 8 == key >> 8 && v & 0xff != id as u64 + 1
    }

    /// Claims the position for this thread, unless another thread holds its slot.
    fn mark_busy(&self, key: u64, id: usize) -> bool {
        let slot = self.busy_slot(key);
        let mine = key & !0xff | (id as u64 + 1);
        slot.compare_exchange(0, mine, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    fn unmark_busy(&self, key: u64, id: usize) {
        let mine = key & !0xff | (id as u64 + 1);
        let _ = self
            .busy_slot(key)
            .compare_exchange(mine, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// One finished root line.
#[derive(Clone)]
struct Line {
    depth: u32,
    seldepth: u32,
    multipv: usize,
    score: i32,
    bound: Option<Bound>,
    pv: Vec<Move>,
}

/// One thread's search state.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    id: usize,
    nodes: u64,
    pending_nodes: u64,
    stopped: bool,
    seldepth: usize,
    /// Keys of the positions at the start of each turn: the game's, then the search path's.
    keys: Vec<u64>,
    killers: [[Move; 2]; MAX_PLY + 2],
    /// Indexed by origin (24 for a placement) and destination.
    history: Box<[[i32; 24]; 25]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lists: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    deferred: Vec<Vec<u16>>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, id: usize, history: &[u64]) -> Worker<'a> {
        Worker {
            shared,
            id,
            nodes: 0,
            pending_nodes: 0,
            stopped: false,
            seldepth: 0,
            keys: history.to_vec(),
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[0; 24]; 25]),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            deferred: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// Iterative deepening over the root moves; returns (best, ponder, score, depth).
    fn iterate(
        &mut self,
        pos: &Position,
        mut root: Vec<Move>,
        max_depth: u32,
        multipv: usize,
        report: &mut dyn FnMut(&Line),
    ) -> (Move, Option<Move>, i32, u32) {
        let mut best = (root[0], None, 0, 0);
        let mut scores = vec![-INF; root.len()];
        let mut prev_score = 0;
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
                    && self.pv[0][0] != best.0
                {
                    best.0 = self.pv[0][0];
                    best.1 = (self.pv_len[0] > 1).then(|| self.pv[0][1]);
                    best.2 = scores[0];
                    if self.id == 0 {
                        // The answer changes: say so, so that the last line agrees with it.
                        self.flush_nodes();
                        report(&self.line(depth, 0, scores[0], Some(Bound::Lower)));
                    }
                }
                break;
            }
            best = (
                lines[0].pv[0],
                lines[0].pv.get(1).copied(),
                lines[0].score,
                depth,
            );
            self.post(&lines[0], max_depth);
            if self.id == 0 {
                self.flush_nodes();
                for l in &lines {
                    report(l);
                }
            }
            // A forced result within the depth searched will not change.
            let decided =
                prev_score.abs() >= MATE_BOUND && ((MATE - prev_score.abs()) as u32) < depth;
            if self.id == 0 && (self.past_soft_limit() || (decided && self.may_stop_early())) {
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
            .unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|c| line.depth > c.depth) {
            *slot = Some(line.clone());
            self.shared
                .completed_depth
                .store(line.depth as u64, Ordering::Relaxed);
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
        let (mut alpha, mut beta) = if depth >= 5 && k == 0 && prev.abs() < MATE_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.root_search(pos, root, scores, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            let bound = if s <= alpha {
                alpha = (alpha - delta).max(-INF);
                beta = (alpha + beta) / 2 + delta / 2;
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
        for i in 0..root.len() {
            let mv = root[i];
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
            // The first move, or one proven better than it: a score at or below alpha is only a
            // bound, and bounds of different moves do not compare.
            if i == 0 || score > alpha {
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
        best
    }

    /// The line at `ply` becomes `mv` followed by the line just found at `ply + 1`.
    fn set_pv(&mut self, ply: usize, mv: Move) {
        let n = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Searches a child: the same side's continuation when its turn has not ended (a removal is
    /// pending), the opponent's reply otherwise.
    fn child(
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

    /// Adds the nodes not yet counted to the shared count.
    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
    }

    fn past_soft_limit(&self) -> bool {
        if self.shared.infinite || self.shared.control.is_pondering() || self.shared.fixed_time {
            return false;
        }
        match self.shared.deadline.soft {
            // Do not start an iteration that is unlikely to finish.
            Some(soft) => self.shared.control.elapsed() >= soft * 6 / 10,
            None => false,
        }
    }

    /// Counts a node and, every so often, checks the stop conditions.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= 1024 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.pending_nodes, Ordering::Relaxed)
                + self.pending_nodes;
            self.pending_nodes = 0;
            if self.shared.control.is_stopped() || self.shared.abort.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.id == 0 {
                if self.shared.node_limit.is_some_and(|n| total >= n) {
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

    fn negamax(
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
        let plain = self.shared.style == Style::Plain;

        if let Some(outcome) = pos.quick_outcome() {
            return match outcome.winner() {
                Some(_) => -(MATE - ply as i32),
                None => 0,
            };
        }
        if pos.pending_removals() == 0 && self.is_repetition(pos) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        // Mate distance pruning: no line from here can beat a win found closer to the root.
        let alpha0 = alpha.max(-(MATE - ply as i32));
        let beta0 = beta.min(MATE - ply as i32 - 1);
        if alpha0 >= beta0 {
            return alpha0;
        }
        if depth <= 0 {
            return if plain {
                self.evaluate(pos)
            } else {
                self.quiesce(pos, alpha, beta, ply, 0)
            };
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let mut tt_move = Move::NULL;
        if !plain {
            if let Some(e) = self.shared.tt.probe(key) {
                tt_move = e.mv;
                if !pv_node && e.depth >= depth {
                    let s = score_from_tt(e.score, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        return s;
                    }
                }
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut order = std::mem::take(&mut self.scores[ply]);
        movegen::generate(pos, Convention::Turn, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            self.scores[ply] = order;
            // Blocked: the side to move loses.
            return -(MATE - ply as i32);
        }
        if !plain {
            self.score_moves(pos, &list, &mut order, tt_move, ply);
        } else {
            order.clear();
            order.resize(list.len(), 0);
        }

        let us = pos.side_to_move();
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let n = list.len();
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        // Moves are taken best-ordered first; then those deferred because another thread was
        // searching them (ABDADA: Weill, "The ABDADA distributed minimax search algorithm",
        // 1996), by which time the table often holds their result.
        let mut next = 0;
        let mut searched = 0;
        while next < n + deferred.len() {
            let i = if next < n {
                // Selection sort: the next best-ordered move.
                let mut j = next;
                for k in next + 1..n {
                    if order[k] > order[j] {
                        j = k;
                    }
                }
                list.swap(next, j);
                order.swap(next, j);
                next
            } else {
                deferred[next - n] as usize
            };
            let may_defer = next < n;
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
            let d = depth - 1;
            let index = searched;
            searched += 1;
            let score = if index == 0 {
                -self.child(&child, turn_ended, d, -beta, -alpha, ply + 1)
            } else {
                // Late move reductions: late quiet moves are searched shallower first, and again
                // at full depth only when they look better than the best so far. Quiet: no
                // removal, not the table move, a killer or a block of an opponent's mill.
                let quiet = mv.removal_count() == 0 && order[i] < 1 << 24;
                let r = if depth >= 3 && index >= 2 && quiet && !plain {
                    1 + (index >= 6 && depth >= 5) as i32 + (index >= 14 && depth >= 8) as i32
                        - pv_node as i32
                } else {
                    0
                };
                let mut s = -self.child(&child, turn_ended, d - r, -alpha - 1, -alpha, ply + 1);
                if r > 0 && s > alpha {
                    s = -self.child(&child, turn_ended, d, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    -self.child(&child, turn_ended, d, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if marked {
                self.shared.unmark_busy(child.key(), self.id);
            }
            if self.stopped {
                self.lists[ply] = list;
                self.scores[ply] = order;
                self.deferred[ply] = deferred;
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        if !plain && mv.removal_count() == 0 {
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
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = order;
        self.deferred[ply] = deferred;
        if !plain {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                Entry {
                    mv: best_move,
                    score: score_to_tt(best, ply),
                    depth,
                    bound,
                },
            );
        }
        best
    }

    /// Quiescence: at the horizon, the side to move may stand pat or close a mill; mills are
    /// followed until none closes, so that leaves are quiet.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        if pos.pending_removals() == 0 && !pos.has_legal_move() {
            return -(MATE - ply as i32);
        }
        let mut stand = self.evaluate(pos);
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
        for &mv in list.iter() {
            let mut child = *pos;
            child.play(mv);
            self.count_node();
            if self.stopped {
                break;
            }
            let score = match child.quick_outcome() {
                Some(o) if o.winner().is_some() => MATE - ply as i32 - 1,
                Some(_) => 0,
                None => -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1),
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

    fn evaluate(&self, pos: &Position) -> i32 {
        match self.shared.style {
            Style::Full => eval::evaluate(pos, &self.shared.weights),
            Style::Plain => eval::material(pos),
        }
    }

    /// Orders moves: the table move, then moves that close a mill (by the value of what they
    /// remove), moves that block an opponent's mill, killers, then history.
    fn score_moves(
        &self,
        pos: &Position,
        list: &[Move],
        order: &mut Vec<i32>,
        tt_move: Move,
        ply: usize,
    ) {
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
        order.clear();
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
}

fn history_from(mv: Move) -> usize {
    mv.from().map_or(24, Point::index)
}

fn history_to(mv: Move) -> usize {
    mv.to().map_or(0, Point::index)
}

/// Win and loss scores are stored relative to the node, so that they mean the same wherever the
/// position is met again.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
