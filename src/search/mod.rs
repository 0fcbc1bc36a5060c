//! The search: negamax alpha-beta with principal variation search, iterative deepening and
//! aspiration windows, over a transposition table shared by every thread (Lazy SMP on a rayon
//! pool). Moves are whole turns (a step with its removals); at a root with a removal pending they
//! are lone removals. The search imports the rules layer only.
//!
//! One concept a file: `Searcher` here drives a search (the root's moves, iterative deepening) and
//! gathers its result; `known_root` is what is known exactly at the root around the search (the
//! placing solution's and the tables' moves, the exact solver's proof of the root and its check of
//! the search's choice); `limits` and `control` bound it (time, nodes, `stop`, and the shares of
//! the move's time); `threads` is what the threads share; `iterate` is iterative deepening at the
//! root; `worker` is one thread's negamax; `quiesce` the horizon; `ordering` move ordering; `tt`
//! the shared table; `eval/` the evaluation (its dispatch, the hand-written evaluation, the
//! linear terms and the network); `score` the encoding of scores; `style` the styles of play as
//! data; `bench` the node-count signature. `exact/` is the exact solver of the placing near its end: the
//! solver and its memory, its proof of the root before the search and its check of the search's
//! choice after.
//!
//! The search never prints: it reports through a callback that the protocol formats.

pub mod bench;
mod control;
pub mod eval;
pub mod exact;
pub mod exact_lines;
mod iterate;
pub mod keeping;
mod known_root;
mod limits;
mod ordering;
mod quiesce;
mod score;
pub mod strength;
mod style;
#[cfg(test)]
mod table_root_tests;
mod threads;
mod timeman;
pub mod tt;
mod worker;

pub use control::Control;
pub use limits::{Limits, MAX_DEPTH, MAX_PLY, MAX_THREADS};
pub use score::{class, Score, EVAL_LIMIT, INF, MATE, MATE_BOUND, TABLE_BOUND, TABLE_WIN};
pub use strength::Strength;
pub use style::{Features, Style};

use crate::rng::Rng;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::{Outcome, Position};
use crate::tables::{Tables, Value as TableValue};
use eval::Evaluation;
pub use exact::solved::Choice as SolvedChoice;
use exact::Wdl;
use limits::{Budget, Deadline};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use threads::{build_pool, Line, RootChoice, Shared, BUSY_SLOTS};
use timeman::Horizon;
use tt::{Bound, TranspositionTable};
use worker::Worker;

/// Settings that outlive one search.
#[derive(Clone, Debug)]
pub struct Options {
    /// The best root moves reported, each with its line (`MultiPV`).
    pub multipv: usize,
    /// Milliseconds kept in reserve for the communication with the GUI.
    pub move_overhead: u64,
    /// How the search plays (`Style`).
    pub style: Style,
    /// The weights of the hand-written evaluation.
    pub weights: eval::Weights,
    /// Use the fitted placing evaluation where it serves the rules (`eval::LinearTerms`).
    pub learned: bool,
    /// Endgame tables: covered positions are exact (`TablesPath`).
    pub tables: Option<Arc<Tables>>,
    /// The network evaluation (`EvalFile`), used where it serves the rules and `learned` is on.
    pub network: Option<Arc<eval::network::Network>>,
    /// Play below full strength (`Level`, `UCI_LimitStrength`): fewer nodes, noisy choice among
    /// the best root moves, no endgame tables.
    pub strength: Option<Strength>,
    /// How moves are picked where the placing solution covers the root (`SolvedPlacing`).
    pub solved_placing: SolvedChoice,
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
            network: None,
            strength: None,
            solved_placing: SolvedChoice::Testing,
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The rank of the line among the best root moves (1: the best).
    pub multipv: usize,
    /// The line's score, for the side to move.
    pub score: Score,
    /// `Some` when the score is only a bound (the aspiration window failed).
    pub bound: Option<Bound>,
    /// The positions visited so far, by every thread.
    pub nodes: u64,
    /// Positions visited a second.
    pub nps: u64,
    /// Exact values the line's search found so far (UCI's `tbhits`): the endgame tables'
    /// answers, and the root moves valued exactly (by the tables or the placing solution)
    /// before it; above zero on every line whose score is exact.
    pub tbhits: u64,
    /// How full the transposition table is, in permille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal line.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` when the game is over (or no root move was allowed).
    pub best: Option<Move>,
    /// The expected answer to `best`, when the line has one.
    pub ponder: Option<Move>,
    /// The score of `best`, for the side to move.
    pub score: Score,
    /// The depth of the iteration that chose `best`.
    pub depth: u32,
    /// The positions visited, by every thread.
    pub nodes: u64,
    /// The game's outcome when it is already over.
    pub outcome: Option<Outcome>,
    /// The value the endgame tables give the root, when the move came from them.
    pub table: Option<TableValue>,
    /// The root's value by the placing solution, when the move came from it: the move keeps
    /// it.
    pub solved: Option<Wdl>,
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
            solved: None,
        }
    }
}

/// The search engine: the shared table, the thread pool and the options.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    pool: rayon::ThreadPool,
    threads: usize,
    /// The settings of its searches.
    pub options: Options,
    /// The noise of a limited strength.
    rng: Rng,
    /// What the exact solver of placing positions has proven in this game.
    exact: exact::Memory,
}

/// Positions the exact solver of placing positions remembers (16 bytes each).
const EXACT_MEMORY: usize = 1 << 22;

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` threads, with the default
    /// options.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            pool: build_pool(threads),
            threads: threads.max(1),
            options: Options::default(),
            rng: Rng::from_time(),
            exact: exact::Memory::new(EXACT_MEMORY),
        }
    }

    /// Resizes the table (its contents are lost): the megabytes it has, fewer than `mb` where
    /// they do not fit in the memory the process may use (`TranspositionTable::new`).
    pub fn set_hash(&mut self, mb: usize) -> usize {
        // The old table given back first: under an address-space limit it counts.
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(mb));
        self.hash_mb()
    }

    /// The megabytes of the table.
    pub fn hash_mb(&self) -> usize {
        self.tt.bytes() >> 20
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.pool = build_pool(self.threads);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.exact.clear();
    }

    /// How full the transposition table is, in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` (a game of its own, without history) to `depth`, its root restricted to
    /// `searchmoves` when some are given, reporting nothing: the fixed-depth searches of the
    /// book, the labels and the critical positions.
    pub fn search_to_depth(
        &mut self,
        pos: &Position,
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

    /// Searches the game's current position within `limits`, reporting progress to `report`:
    /// the root's moves; in the placing phase, what the exact solver proves of them; the endgame
    /// tables' move where they cover the root; else the iterative-deepening search, and the
    /// solver's check of its choice. The move's time is counted once (`Budget`), and each step
    /// takes its share of it.
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
        let root_moves = allowed_root_moves(&pos, limits);
        if root_moves.is_empty() {
            return SearchResult::nothing(None);
        }
        let budget = self.budget(&pos, limits);
        if let Some(exact) = self.exact_root(game, &root_moves, limits, control, budget, report) {
            return exact;
        }
        if let Some(solved) = self.solved_root(&pos, &root_moves, limits) {
            return self.play_solved(game, &solved, limits, control, budget, report);
        }
        self.search_known(game, root_moves, limits, control, budget, report)
    }

    /// The move's time in `pos` within `limits` (`Budget`): the time manager's plan, keeping
    /// `MoveOverhead` and the learned reserve for every move to come.
    fn budget(&self, pos: &Position, limits: &Limits) -> Budget {
        Budget::new(pos, limits, self.options.move_overhead, self.horizon(pos))
    }

    /// How far the game in `pos` has to go, for the time manager: the side to move's placings
    /// left, both sides' pieces, and whether the placing solution and the endgame tables answer
    /// the rest of the game at once.
    fn horizon(&self, pos: &Position) -> Horizon {
        let us = pos.side_to_move();
        let count = |c| pos.pieces(c).count() + u32::from(pos.in_hand(c));
        let (ours, theirs) = (count(us), count(!us));
        let tables = self.playing_tables(pos);
        Horizon {
            placings: u32::from(pos.in_hand(us)),
            pieces: ours + theirs,
            own: ours,
            placing_free: tables.as_ref().is_some_and(|t| t.placing_is_whole()),
            moving_free: tables
                .as_ref()
                .is_some_and(|t| t.has(ours as usize, theirs as usize)),
        }
    }

    /// The tables the search plays by in `pos`: at full strength, tables that serve its rules.
    fn playing_tables(&self, pos: &Position) -> Option<Arc<Tables>> {
        let strength = self.options.strength;
        self.options
            .tables
            .clone()
            .filter(|t| strength.is_none() && t.serves(pos.rules()))
    }

    /// The tables the exact solver may use in `pos`: a placing position, at full strength,
    /// tables that serve its rules, with moving tables for its leaves (an opening's solution
    /// alone has none).
    fn exact_tables(&self, pos: &Position) -> Option<Arc<Tables>> {
        self.playing_tables(pos)
            .filter(|t| pos.is_placing() && t.has_moving())
    }

    /// What the threads of a search of `pos` share: the searcher's table, the limits of the
    /// search (`limits`, `deadline`; a limited strength's nodes), the style and evaluation of
    /// its options, and the endgame tables it plays by.
    fn shared<'a>(
        &'a self,
        pos: &Position,
        limits: &Limits,
        control: &'a Control,
        deadline: Deadline,
        tables: Option<&'a Tables>,
    ) -> Shared<'a> {
        Shared {
            tt: &self.tt,
            control,
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            abort: AtomicBool::new(false),
            busy: if self.threads > 1 {
                (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
            } else {
                Vec::new()
            },
            threads: self.threads,
            completed: Mutex::new(None),
            completed_depth: AtomicU64::new(0),
            deadline,
            node_limit: match self.options.strength {
                Some(s) => Some(limits.nodes.map_or(s.nodes(), |n| n.min(s.nodes()))),
                None => limits.nodes,
            },
            infinite: limits.infinite,
            fixed_time: limits.fixed_time(self.options.move_overhead).is_some(),
            features: self.options.style.features(),
            tables,
            evaluation: self.evaluation(pos),
        }
    }

    /// What a search of `pos` evaluates with: the material alone in the plain style; else,
    /// with the learned evaluations on, the network where it serves the rules, or the
    /// hand-written evaluation with the linear terms that serve them; else the hand-written one.
    fn evaluation(&self, pos: &Position) -> Evaluation<'_> {
        let learned = self.options.learned;
        let network = self.options.network.as_deref();
        if !self.options.style.features().full_evaluation {
            Evaluation::Material
        } else if let Some(net) = network.filter(|n| learned && n.serves(pos.rules())) {
            Evaluation::Network(net)
        } else if learned {
            Evaluation::Written(self.options.weights.for_rules(pos.rules()))
        } else {
            Evaluation::Written(self.options.weights)
        }
    }

    /// The iterative-deepening search of `root_moves` until `deadline`.
    fn search_root(
        &mut self,
        game: &Game,
        root_moves: &[Move],
        limits: &Limits,
        control: &Control,
        deadline: Deadline,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let pos = *game.position();
        let strength = self.options.strength;
        let playing = self.playing_tables(&pos);
        let tables = playing.as_deref();
        self.tt.new_search();
        let shared = self.shared(&pos, limits, control, deadline, tables);
        let history = game.history().to_vec();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let shown = self.options.multipv.clamp(1, root_moves.len());
        // A limited strength chooses among the best few root moves: it searches them all.
        let multipv = match strength {
            Some(s) => shown.max(s.candidates()).min(root_moves.len()),
            None => shown,
        };
        // The latest exact line of each rank searched.
        let mut candidates: Vec<Option<Line>> = vec![None; multipv];
        let threads = self.threads;
        let start = Instant::now();
        let mut main_result = None;
        self.pool.in_place_scope(|scope| {
            for id in 1..threads {
                let shared = &shared;
                let root_moves = root_moves.to_vec();
                let history = history.clone();
                scope.spawn(move |_| {
                    let mut w = Worker::new(shared, id, &history);
                    w.iterate(&pos, root_moves, max_depth, 1, &mut |_| {});
                    w.flush_nodes();
                });
            }
            let mut w = Worker::new(&shared, 0, &history);
            let r = w.iterate(&pos, root_moves.to_vec(), max_depth, multipv, &mut |line| {
                if line.multipv <= shown {
                    report(&progress(&shared, start, line));
                }
                if let Some(slot) = candidates.get_mut(line.multipv - 1) {
                    // Only exact lines: a bound (a stopped iteration's "proven better" move, an
                    // aspiration failure) would hide the exact line of its rank.
                    if !line.pv.is_empty() && line.bound.is_none() {
                        *slot = Some(line.clone());
                    }
                }
            });
            w.flush_nodes();
            // The main thread decides: the helpers stop with it.
            shared.abort.store(true, Ordering::SeqCst);
            main_result = Some(r);
        });
        let mut choice: RootChoice = main_result.expect("the main worker ran");
        // A helper that completed a deeper iteration than the main thread has the better answer.
        if multipv == 1 {
            if let Some(c) = deeper_line(&shared, choice.depth) {
                report(&progress(
                    &shared,
                    start,
                    &Line {
                        bound: None,
                        ..c.clone()
                    },
                ));
                choice = RootChoice::of(&c);
            }
        }
        let nodes = shared.nodes.load(Ordering::Relaxed);
        if let Some(s) = strength {
            if let Some(chosen) = strength_choice(s, &candidates, &mut self.rng) {
                // The depth stays the search's.
                choice = RootChoice {
                    depth: choice.depth,
                    ..chosen
                };
            }
        }
        SearchResult {
            best: Some(choice.best),
            ponder: choice.ponder,
            score: Score::from_internal(choice.score),
            depth: choice.depth,
            nodes,
            outcome: None,
            table: None,
            solved: None,
        }
    }
}

/// The root's legal moves, restricted to `searchmoves` when some are given.
fn allowed_root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let mut root_moves = movegen::legal_moves(pos, Convention::Turn);
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }
    root_moves
}

/// The line of a helper thread that completed a deeper iteration than the main thread's
/// `depth`: the better answer.
fn deeper_line(shared: &Shared, depth: u32) -> Option<Line> {
    let deeper = shared
        .completed
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    deeper.filter(|c| c.depth > depth && !c.pv.is_empty())
}

/// The choice of a limited strength among the root's `candidates` (the latest exact line of each
/// rank searched, with a move: a bound says little of a move's worth), drawn by their scores;
/// `None` when there are none.
fn strength_choice(s: Strength, candidates: &[Option<Line>], rng: &mut Rng) -> Option<RootChoice> {
    let lines: Vec<&Line> = candidates.iter().flatten().collect();
    if lines.is_empty() {
        return None;
    }
    let scores: Vec<i32> = lines.iter().map(|c| c.score).collect();
    Some(RootChoice::of(lines[s.choose(&scores, rng)]))
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
        tbhits: shared.tbhits.load(Ordering::Relaxed),
        hashfull: shared.tt.hashfull(),
        time_ms: elapsed.as_millis() as u64,
        pv: line.pv.clone(),
    }
}
