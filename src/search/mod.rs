//! The search: negamax alpha-beta with principal variation search, iterative deepening and
//! aspiration windows, over a transposition table shared by every thread (Lazy SMP on a rayon
//! pool). Moves are whole turns (a step with its removals); at a root with a removal pending they
//! are lone removals. The search imports the rules layer only.
//!
//! One concept a file: `Searcher` here drives a search and gathers its result; `limits` and
//! `control` bound it (time, nodes, `stop`); `threads` is what the threads share; `iterate` is
//! iterative deepening at the root; `worker` is one thread's negamax; `quiesce` the horizon;
//! `ordering` move ordering; `tt` the shared table; `eval` the evaluation, `learned` the shape
//! of its learned weights and `placing` their values; `score` the encoding of scores;
//! `features` the styles of play as data; `bench` the node-count signature.
//!
//! The search never prints: it reports through a callback that the protocol formats.

pub mod bench;
mod control;
pub mod eval;
pub mod exact;
mod features;
mod iterate;
mod learned;
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
pub use limits::{Limits, MAX_PLY};
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
    /// What the exact solver of placing positions has proven in this game.
    exact: exact::Memory,
}

/// Positions the exact solver of placing positions remembers (16 bytes each).
const EXACT_MEMORY: usize = 1 << 22;
/// The exact solver's share of a search that no check follows (no clock, pondering, several
/// lines, or moves to search given): it may run until this fraction of the move's time has
/// passed.
const EXACT_SHARE: f64 = 0.5;
/// In a timed search whose choice the solver checks (`verify_choice`), the root's value is
/// proven first (`prove_root`): a draw at least until `PROVE_DRAW_END` of the move's time, a
/// win until `PROVE_WIN_END`; the search ends at `VERIFY_SEARCH_END` (`WIN_OPEN_SEARCH_END`
/// when a draw is proven and a win not ruled out: the proof of the win goes on after it), the
/// solver tests its choice until `VERIFY_END`, and a search again without a refuted move gets
/// `VERIFY_RESEARCH` of the time left.
const PROVE_DRAW_END: f64 = 0.25;
const PROVE_WIN_END: f64 = 0.45;
const VERIFY_SEARCH_END: f64 = 0.7;
const WIN_OPEN_SEARCH_END: f64 = 0.5;
const VERIFY_END: f64 = 0.95;
const VERIFY_RESEARCH: f64 = 0.5;
/// The exact solver's positions in a search without a clock (about a second).
const EXACT_NODES: u64 = 4_000_000;

/// What the exact solver proved of the root before a timed search (`Searcher::prove_root`):
/// bounds on its value for the side to move, and the move that proved the lower one when it is
/// a draw or a win.
#[derive(Clone, Copy)]
struct RootProof {
    lower: exact::Wdl,
    upper: exact::Wdl,
    best: Option<Move>,
}

impl RootProof {
    const NOTHING: RootProof = RootProof {
        lower: -1,
        upper: 1,
        best: None,
    };
}

impl Searcher {
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
        self.exact.clear();
    }

    /// In the placing phase, with endgame tables for every moving position: the root moves
    /// worth searching by their exact values, as far as the solver proves them within its share
    /// of the search (`share` of the move's time, or `EXACT_NODES` positions without a
    /// clock; `stop` ends it), as `Solver::root_moves` tests them. `None` when nothing is
    /// dropped: the position is not placing, no tables serve it, a position on the way is not
    /// covered, or there was not time. With it, whether every move left is proven to keep the
    /// position's value (then the search's choice needs no check).
    fn exact_root(
        &mut self,
        pos: &crate::rules::position::Position,
        moves: &[Move],
        limits: &Limits,
        control: &Control,
        share: f64,
    ) -> (Option<Vec<Move>>, bool) {
        let Some(tables) = self.exact_tables(pos) else {
            return (None, false);
        };
        let start = Instant::now();
        let stop = exact_stop(pos, limits, self.options.move_overhead, control, share);
        let mut solver = exact::Solver::new(&tables, &mut self.exact, &stop);
        let root = solver.root_moves(pos, moves);
        log::debug!(
            "exact solver: {} of {} moves kept ({} drawing at least, {} undecided) in {} \
             positions, {:.3} s",
            root.kept.len(),
            moves.len(),
            root.drawing,
            root.undecided,
            solver.nodes,
            start.elapsed().as_secs_f64()
        );
        let kept = root.kept;
        (
            (!kept.is_empty() && kept.len() < moves.len()).then_some(kept),
            root.decided,
        )
    }

    /// The root's value, as far as the solver proves it before a timed search whose choice it
    /// checks: a draw at least first (until `PROVE_DRAW_END` of the move's time), the surest
    /// step away from a loss, then a win (until `PROVE_WIN_END`). Proving the value (one move
    /// that keeps it) costs less than testing every move, which the search's choice and its
    /// check then make up for.
    fn prove_root(
        &mut self,
        pos: &crate::rules::position::Position,
        limits: &Limits,
        control: &Control,
    ) -> RootProof {
        let mut proof = RootProof::NOTHING;
        let Some(tables) = self.exact_tables(pos) else {
            return proof;
        };
        let overhead = self.options.move_overhead;
        let start = Instant::now();
        let mut nodes = 0;
        for (v, end) in [(0, PROVE_DRAW_END), (1, PROVE_WIN_END)] {
            let stop = exact_stop(pos, limits, overhead, control, end);
            let mut solver = exact::Solver::new(&tables, &mut self.exact, &stop);
            let answer = solver.at_least(pos, v);
            nodes += solver.nodes;
            match answer {
                Some(true) => {
                    proof.lower = v;
                    proof.best = solver.proving_move(pos, v);
                }
                Some(false) => {
                    proof.upper = v - 1;
                    break;
                }
                None => {}
            }
        }
        log::debug!(
            "exact solver: the root is worth {} to {} (by {}) in {nodes} positions, {:.3} s",
            exact::name(proof.lower),
            exact::name(proof.upper),
            proof.best.map_or("-".to_string(), |m| m.to_string()),
            start.elapsed().as_secs_f64()
        );
        proof
    }

    /// Whether `mv` keeps the exact value of the game's position (a draw at least, and a win
    /// when the position is won), as far as the exact solver proves it within its share of the
    /// search (`exact_root`): `None` when it does not know.
    pub fn exact_keeps(
        &mut self,
        game: &Game,
        mv: Move,
        limits: &Limits,
        control: &Control,
    ) -> Option<bool> {
        let pos = *game.position();
        let tables = self.exact_tables(&pos)?;
        let stop = exact_stop(
            &pos,
            limits,
            self.options.move_overhead,
            control,
            EXACT_SHARE,
        );
        let mut solver = exact::Solver::new(&tables, &mut self.exact, &stop);
        if !solver.move_at_least(&pos, mv, 0)? {
            return Some(false);
        }
        // It draws at least: does the position hold a win the move gives away?
        if solver.at_least(&pos, 1)? {
            return solver.move_at_least(&pos, mv, 1);
        }
        Some(true)
    }

    /// The tables the search plays by in `pos`: at full strength, tables that serve its rules.
    fn playing_tables(&self, pos: &crate::rules::position::Position) -> Option<Arc<Tables>> {
        let strength = self.options.strength;
        self.options
            .tables
            .clone()
            .filter(|t| strength.is_none() && t.serves(pos.rules()))
    }

    /// The tables the exact solver may use in `pos`: a placing position, at full strength,
    /// tables that serve its rules.
    fn exact_tables(&self, pos: &crate::rules::position::Position) -> Option<Arc<Tables>> {
        self.playing_tables(pos).filter(|_| pos.is_placing())
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
        // The time of a timed placing search that the exact solver verifies (`verify_choice`).
        let mut verified = self.verified_time(&pos, limits, control);
        let mut proof = RootProof::NOTHING;
        if self.options.multipv == 1 && root_moves.len() > 1 {
            // The placing phase near its end: only the moves that keep the exact value.
            if verified.is_some() && limits.searchmoves.is_empty() {
                proof = self.prove_root(&pos, limits, control);
                if let (1, Some(win)) = (proof.lower, proof.best) {
                    // A proven win: its move alone.
                    root_moves = vec![win];
                } else if proof.upper < 0 {
                    // Lost whatever is played: the search picks the stoutest resistance.
                    verified = None;
                }
            } else {
                let (keep, decided) =
                    self.exact_root(&pos, &root_moves, limits, control, EXACT_SHARE);
                if let Some(keep) = keep {
                    root_moves.retain(|m| keep.contains(m));
                }
                if decided {
                    // Every move left is proven: nothing for the solver to check after the
                    // search.
                    verified = None;
                }
            }
        }
        if root_moves.len() == 1 {
            verified = None;
        }
        let tables = self.playing_tables(&pos);
        if let Some((best, value)) = tables.and_then(|t| play::best_move(&t, &pos, &root_moves)) {
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
        let deadline = match verified {
            Some(t) => {
                // With a draw proven and a win still open, the proof of the win gets more.
                let share = if proof.lower == 0 && proof.upper > 0 {
                    WIN_OPEN_SEARCH_END
                } else {
                    VERIFY_SEARCH_END
                };
                let end = Some(t.mul_f64(share));
                limits::Deadline {
                    soft: end,
                    hard: end,
                }
            }
            None => limits::deadline(&pos, limits, self.options.move_overhead),
        };
        let result = self.search_root(game, &root_moves, limits, control, deadline, report);
        match verified {
            Some(t) => {
                self.verify_choice(game, &root_moves, result, proof, t, limits, control, report)
            }
            None => result,
        }
    }

    /// The time of the move when the search's choice is to be verified by the exact solver: a
    /// placing position the tables serve, a timed search (not pondering, not infinite), one line
    /// at full strength. The search then ends at `VERIFY_SEARCH_END` of it and the solver tests
    /// its choice until `VERIFY_END` (`verify_choice`).
    fn verified_time(
        &self,
        pos: &crate::rules::position::Position,
        limits: &Limits,
        control: &Control,
    ) -> Option<std::time::Duration> {
        if self.options.multipv != 1 || limits.infinite || limits.ponder || control.is_pondering() {
            return None;
        }
        self.exact_tables(pos)?;
        limits::deadline(pos, limits, self.options.move_overhead).soft
    }

    /// The exact solver's check of the search's choice in the placing phase, after its proof of
    /// the root (`proof`). Where a draw is proven and a win not ruled out, the proof of the win
    /// goes on first: a proven win is played (the search's choice if it is proven to win too,
    /// else the move that proved it). Then a choice the solver proves losing (below a draw) is
    /// not played: the move that proved a draw is played instead when there is one, else the
    /// root is searched again without it, as long as the move's time allows (`VERIFY_END` of
    /// `time`), and the new choice tested in turn. A choice proven to draw at least is then
    /// tested for a win where a win is not ruled out, and replaced by the move that proved the
    /// win if it gives the win away. A choice the solver cannot decide in time gives way to the
    /// move that proved a draw, or is played as the search chose it when there is none.
    #[allow(clippy::too_many_arguments)]
    fn verify_choice(
        &mut self,
        game: &Game,
        root_moves: &[Move],
        mut result: SearchResult,
        proof: RootProof,
        time: std::time::Duration,
        limits: &Limits,
        control: &Control,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let pos = *game.position();
        let Some(tables) = self.exact_tables(&pos) else {
            return result;
        };
        let end = time.mul_f64(VERIFY_END);
        let drawing = proof
            .best
            .filter(|m| proof.lower == 0 && root_moves.contains(m));
        let stop = |_: u64| control.is_stopped() || control.elapsed() >= end;
        let mut win_open = proof.upper > 0;
        if let (Some(_), true, Some(choice)) = (drawing, win_open, result.best) {
            // A draw is proven, a win not ruled out: the proof of the win goes on first (the
            // move that proved the draw is there to fall back on).
            let mut solver = exact::Solver::new(&tables, &mut self.exact, &stop);
            let won = solver.at_least(&pos, 1);
            log::debug!(
                "exact solver: the root {} ({} positions, at {:.3} s)",
                match won {
                    Some(true) => "wins",
                    Some(false) => "does not win",
                    None => "is not proven to win",
                },
                solver.nodes,
                control.elapsed().as_secs_f64()
            );
            if won == Some(true) {
                if solver.move_at_least(&pos, choice, 1) != Some(true) {
                    if let Some(win) = solver.proving_move(&pos, 1) {
                        log::debug!("exact solver: {win} wins, played instead of {choice}");
                        result.best = Some(win);
                        result.ponder = None;
                    }
                }
                return result;
            }
            win_open = won.is_none();
        }
        let mut refuted: Vec<Move> = Vec::new();
        while let Some(best) = result.best {
            let mut solver = exact::Solver::new(&tables, &mut self.exact, &stop);
            let verdict = solver.move_at_least(&pos, best, 0);
            log::debug!(
                "exact solver: the search's choice {best} {} ({} positions, at {:.3} s)",
                match verdict {
                    Some(true) => "draws at least",
                    Some(false) => "loses",
                    None => "is undecided",
                },
                solver.nodes,
                control.elapsed().as_secs_f64()
            );
            if verdict == Some(true) {
                // It draws at least: does the position hold a win the choice gives away? Then
                // the move that proved the win is played instead.
                if win_open
                    && solver.at_least(&pos, 1) == Some(true)
                    && solver.move_at_least(&pos, best, 1) == Some(false)
                {
                    if let Some(win) = solver.proving_move(&pos, 1) {
                        log::debug!(
                            "exact solver: {best} gives a win away; {win} wins (at {:.3} s)",
                            control.elapsed().as_secs_f64()
                        );
                        result.best = Some(win);
                        result.ponder = None;
                    }
                }
                break;
            }
            if let Some(draw) = drawing {
                // Refuted or undecided: the move proven to draw.
                log::debug!("exact solver: {draw} draws at least, played instead");
                result.best = Some(draw);
                result.ponder = None;
                break;
            }
            if verdict.is_none() {
                break;
            }
            refuted.push(best);
            let rest: Vec<Move> = root_moves
                .iter()
                .copied()
                .filter(|m| !refuted.contains(m))
                .collect();
            if rest.is_empty() || control.is_stopped() {
                break;
            }
            // Searched again without the losing moves, until a share of what is left.
            let now = control.elapsed();
            let until = Some(now + time.saturating_sub(now).mul_f64(VERIFY_RESEARCH));
            let deadline = limits::Deadline {
                soft: until,
                hard: until,
            };
            result = self.search_root(game, &rest, limits, control, deadline, report);
        }
        result
    }

    /// The iterative-deepening search of `root_moves` until `deadline`.
    fn search_root(
        &mut self,
        game: &Game,
        root_moves: &[Move],
        limits: &Limits,
        control: &Control,
        deadline: limits::Deadline,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let pos = *game.position();
        let strength = self.options.strength;
        let playing = self.playing_tables(&pos);
        let tables = playing.as_deref();
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
            deadline,
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
                .unwrap_or_else(std::sync::PoisonError::into_inner)
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

/// When the exact solver gives up: at `stop`; in a timed search once the move's clock (which
/// starts at `go`, so that a book check and the root's solve share it) has run `share` of its
/// time; in a search without a clock, or while pondering, after `EXACT_NODES` positions.
fn exact_stop<'c>(
    pos: &crate::rules::position::Position,
    limits: &Limits,
    overhead: u64,
    control: &'c Control,
    share: f64,
) -> impl Fn(u64) -> bool + 'c {
    let budget = limits::deadline(pos, limits, overhead)
        .soft
        .map(|t| t.mul_f64(share));
    move |nodes| {
        control.is_stopped()
            || match budget {
                Some(b) if !control.is_pondering() => control.elapsed() >= b,
                _ => nodes >= EXACT_NODES,
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
