//! The search: negamax alpha-beta with principal variation search, iterative deepening and
//! aspiration windows, over a transposition table shared by every thread (Lazy SMP on a rayon
//! pool). Moves are whole turns (a step with its removals); at a root with a removal pending they
//! are lone removals. The search imports the rules layer only.
//!
//! One concept a file: `Searcher` here drives a search and gathers its result; `limits` and
//! `control` bound it (time, nodes, `stop`); `threads` is what the threads share; `iterate` is
//! iterative deepening at the root; `worker` is one thread's negamax; `quiesce` the horizon;
//! `ordering` move ordering; `tt` the shared table; `eval` the evaluation; `score` the encoding of
//! scores; `features` the styles of play as data; `bench` the node-count signature.
//!
//! The search never prints: it reports through a callback that the protocol formats.

pub mod bench;
mod control;
pub mod eval;
mod features;
mod iterate;
mod limits;
mod ordering;
mod placing;
mod quiesce;
mod score;
pub mod strength;
mod threads;
pub mod tt;
mod worker;

pub use control::Control;
pub use features::{Features, Style};
pub use limits::Limits;
pub use score::{class, Score, INF, MATE, MATE_BOUND, TABLE_BOUND, TABLE_WIN};
pub use strength::Strength;

use crate::rng::Rng;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Outcome;
use crate::tables::{play, Tables, Value as TableValue};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use threads::{build_pool, Line, Shared, BUSY_SLOTS};
use tt::{Bound, TranspositionTable};
use worker::Worker;

/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;

/// Settings that outlive one search.
#[derive(Clone, Debug)]
pub struct Options {
    pub multipv: usize,
    /// Milliseconds kept in reserve for the communication with the GUI.
    pub move_overhead: u64,
    pub style: Style,
    pub weights: eval::Weights,
    /// Use the learned placing evaluation where it serves the rules (`eval::Placing`).
    pub learned: bool,
    /// Endgame tables: covered positions are exact (`TablesPath`).
    pub tables: Option<Arc<Tables>>,
    /// Play below full strength (`Level`, `UCI_LimitStrength`): fewer nodes, noisy choice among
    /// the best root moves, no endgame tables.
    pub strength: Option<Strength>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            multipv: 1,
            move_overhead: 30,
            style: Style::Full,
            weights: eval::Weights::DEFAULT,
            learned: true,
            tables: None,
            strength: None,
        }
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
    /// The value the endgame tables give the root, when the move came from them.
    pub table: Option<TableValue>,
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
            table: None,
        }
    }
}

/// The search engine: the shared table, the thread pool and the options.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    pool: rayon::ThreadPool,
    threads: usize,
    pub options: Options,
    /// The noise of a limited strength.
    rng: Rng,
}

impl Searcher {
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            pool: build_pool(threads),
            threads: threads.max(1),
            options: Options::default(),
            rng: Rng::from_time(),
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

    /// Searches `pos` (a game of its own, without history) to `depth`, its root restricted to
    /// `searchmoves` when some are given, reporting nothing: the fixed-depth searches of the
    /// book, the labels and the critical positions.
    pub fn search_to_depth(
        &mut self,
        pos: &crate::rules::position::Position,
        depth: u32,
        searchmoves: Vec<Move>,
    ) -> SearchResult {
        let limits = Limits {
            depth: Some(depth),
            searchmoves,
            ..Limits::default()
        };
        self.search(
            &Game::from_position(*pos),
            &limits,
            &Control::new(),
            &mut |_| {},
        )
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
        let strength = self.options.strength;
        let tables = self
            .options
            .tables
            .as_deref()
            .filter(|t| strength.is_none() && t.serves(pos.rules()));
        if let Some((best, value)) = tables.and_then(|t| play::best_move(t, &pos, &root_moves)) {
            // Covered: the value-keeping move at once.
            let score = Score::from_internal(score::from_tables(value, 0));
            report(&Info {
                depth: 1,
                seldepth: 1,
                multipv: 1,
                score,
                bound: None,
                nodes: 0,
                nps: 0,
                hashfull: self.tt.hashfull(),
                time_ms: 0,
                pv: vec![best],
            });
            return SearchResult {
                best: Some(best),
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                outcome: None,
                table: Some(value),
            };
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
            deadline: limits::deadline(&pos, limits, self.options.move_overhead),
            node_limit: match strength {
                Some(s) => Some(limits.nodes.map_or(s.nodes(), |n| n.min(s.nodes()))),
                None => limits.nodes,
            },
            infinite: limits.infinite,
            fixed_time: limits.movetime.is_some(),
            features: self.options.style.features(),
            tables,
            weights: if self.options.learned {
                self.options.weights.for_rules(pos.rules())
            } else {
                self.options.weights
            },
        };
        let history = game.history().to_vec();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 10)
            .clamp(1, MAX_PLY as u32 - 10);
        let shown = self.options.multipv.clamp(1, root_moves.len());
        // A limited strength chooses among the best few root moves: it searches them all.
        let multipv = match strength {
            Some(s) => shown.max(s.candidates()).min(root_moves.len()),
            None => shown,
        };
        // The latest line of each root move searched: (score, exact, pv).
        let mut candidates: Vec<Option<(i32, bool, Vec<Move>)>> = vec![None; multipv];
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
                if line.multipv <= shown {
                    report(&progress(&shared, start, line));
                }
                if let Some(slot) = candidates.get_mut(line.multipv - 1) {
                    // Only exact lines: a bound (a stopped iteration's "proven better" move, an
                    // aspiration failure) would hide the exact line of its rank.
                    if !line.pv.is_empty() && line.bound.is_none() {
                        *slot = Some((line.score, line.bound.is_none(), line.pv.clone()));
                    }
                }
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
                report(&progress(
                    &shared,
                    start,
                    &Line {
                        bound: None,
                        ..c.clone()
                    },
                ));
                (best, ponder, score, depth) = (c.pv[0], c.pv.get(1).copied(), c.score, c.depth);
            }
        }
        if let Some(s) = strength {
            // The candidates with an exact score (a bound says little of a move's worth).
            let lines: Vec<&(i32, bool, Vec<Move>)> =
                candidates.iter().flatten().filter(|c| c.1).collect();
            if !lines.is_empty() {
                let scores: Vec<i32> = lines.iter().map(|c| c.0).collect();
                let chosen = lines[s.choose(&scores, &mut self.rng)];
                (best, ponder, score) = (chosen.2[0], chosen.2.get(1).copied(), chosen.0);
            }
        }
        SearchResult {
            best: Some(best),
            ponder,
            score: Score::from_internal(score),
            depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            outcome: None,
            table: None,
        }
    }
}

/// The progress report of a root line.
fn progress(shared: &Shared, start: Instant, line: &Line) -> Info {
    let elapsed = start.elapsed();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    Info {
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
    }
}
