//! The search: negamax alpha-beta with principal variation search, iterative deepening and
//! aspiration windows, over a transposition table shared by every thread (Lazy SMP on a rayon
//! pool). Moves are whole turns (a step with its removals); at a root with a removal pending they
//! are lone removals. The search imports the rules layer only.
//!
//! One concept a file: `Searcher` here drives a search (the root's moves, the exact solver's
//! proof of the root, the endgame tables' move, iterative deepening, the check of its choice)
//! and gathers its result; `limits` and `control` bound it (time, nodes, `stop`, and the shares
//! of the move's time); `threads` is what the threads share; `iterate` is iterative deepening
//! at the root; `worker` is one thread's negamax; `quiesce` the horizon; `ordering` move
//! ordering; `tt` the shared table; `eval` the evaluation, `learned` the shape of its learned
//! weights and `placing` their values; `score` the encoding of scores; `features` the styles of
//! play as data; `bench` the node-count signature. `exact/` is the exact solver of the placing
//! near its end: the solver and its memory, its proof of the root before the search and its
//! check of the search's choice after.
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
#[cfg(test)]
mod table_root_tests;
mod threads;
mod timeman;
pub mod tt;
mod worker;

pub use control::Control;
pub use features::{Features, Style};
pub use limits::{Limits, MAX_DEPTH, MAX_PLY, MAX_THREADS};
pub use score::{class, Score, INF, MATE, MATE_BOUND, TABLE_BOUND, TABLE_WIN};
pub use strength::Strength;

use crate::rng::Rng;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::{Outcome, Position};
use crate::tables::{perfect_play, Tables, Value as TableValue};
pub use exact::solved::Choice as SolvedChoice;
use exact::solved::{self, Solved};
use exact::{choice_check, root_proof, ChoiceCheck, RootProof, Verdict, Wdl};
use limits::{Budget, Deadline};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use threads::{build_pool, Line, Shared, BUSY_SLOTS};
use timeman::{
    Horizon, CHECKED_SEARCH_END, PROVE_DRAW_END, PROVE_WIN_END, SEARCH_AGAIN_SHARE,
    SOLVED_TIE_SEARCH_END, SOLVER_END, WIN_OPEN_SEARCH_END,
};
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
    /// Use the learned placing evaluation where it serves the rules (`eval::Placing`).
    pub learned: bool,
    /// Endgame tables: covered positions are exact (`TablesPath`).
    pub tables: Option<Arc<Tables>>,
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

/// One search of the root (`Searcher::search`): the game, its limits, control and progress
/// report, the root's moves and the move's time; what the check of the search's choice needs
/// to search the root again.
struct RootSearch<'a> {
    game: &'a Game,
    root_moves: &'a [Move],
    limits: &'a Limits,
    control: &'a Control,
    budget: Budget,
    report: &'a mut (dyn FnMut(&Info) + Send),
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

    /// Resizes the table (its contents are lost).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(mb));
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
        let mut root_moves = allowed_root_moves(&pos, limits);
        if root_moves.is_empty() {
            return SearchResult::nothing(None);
        }
        let budget = self.budget(&pos, limits);
        if let Some(solved) = self.solved_root(&pos, &root_moves, limits) {
            return self.play_solved(game, &solved, limits, control, budget, report);
        }
        let proof = self.solve_root(&pos, &mut root_moves, limits, control, budget);
        if let Some(played) = self.play_from_tables(&pos, &root_moves, report) {
            return played;
        }
        self.keep_table_value(&pos, &mut root_moves);
        let deadline = search_deadline(proof, budget);
        let result = self.search_root(game, &root_moves, limits, control, deadline, report);
        let Some(proof) = proof else {
            return result;
        };
        let mut search = RootSearch {
            game,
            root_moves: &root_moves,
            limits,
            control,
            budget,
            report,
        };
        self.check_choice(&mut search, result, proof)
    }

    /// What the placing solution says of the root's moves, when it covers the root and decides
    /// the move: one line at full strength, the choice not switched off (`SolvedPlacing`).
    fn solved_root(
        &mut self,
        pos: &Position,
        root_moves: &[Move],
        limits: &Limits,
    ) -> Option<Solved> {
        if self.options.multipv != 1 || limits.infinite {
            return None;
        }
        let tables = self.playing_tables(pos)?;
        solved::choose(
            &tables,
            pos,
            root_moves,
            self.options.solved_placing,
            &mut self.rng,
        )
    }

    /// Plays from the placing solution: its one best move at once, reported as a line of one
    /// ply; several equally testing moves, by a search among them (its score replaced by the
    /// solved value).
    fn play_solved(
        &mut self,
        game: &Game,
        solved: &Solved,
        limits: &Limits,
        control: &Control,
        budget: Budget,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let score = Score::solved(solved.value);
        let mut result = if solved.moves.len() == 1 {
            report(&self.known_line(solved.moves[0], score));
            SearchResult {
                best: Some(solved.moves[0]),
                ..SearchResult::nothing(None)
            }
        } else {
            let deadline = if budget.is_timed() {
                budget.search_until(SOLVED_TIE_SEARCH_END)
            } else {
                budget.whole()
            };
            self.search_root(
                game,
                &solved.moves,
                limits,
                control,
                deadline,
                &mut |i: &Info| {
                    report(&Info { score, ..i.clone() });
                },
            )
        };
        result.score = score;
        result.solved = Some(solved.value);
        result
    }

    /// The exact solver's step before the search, in the placing phase with tables for every
    /// moving position, for one line: in a timed search whose choice it is to check, the proof
    /// of the root's value (`prove_root_value`; a proven win leaves its move alone to search);
    /// in any other, the root's moves sifted by their values (`sift_root_moves`). The proof to
    /// check the search's choice against, when it is to be checked: not when a loss is proven
    /// (the search then picks the stoutest resistance), nor when every move left is proven to
    /// keep the value, nor when one move is left.
    fn solve_root(
        &mut self,
        pos: &Position,
        root_moves: &mut Vec<Move>,
        limits: &Limits,
        control: &Control,
        budget: Budget,
    ) -> Option<RootProof> {
        let mut checked = self.choice_is_checked(pos, limits, control, budget);
        let mut proof = RootProof::NOTHING;
        if self.options.multipv == 1 && root_moves.len() > 1 {
            if checked && limits.searchmoves.is_empty() {
                proof = self.prove_root_value(pos, control, budget);
                if let Some(win) = proof.win() {
                    *root_moves = vec![win];
                } else if proof.upper < 0 {
                    checked = false;
                }
            } else if self.sift_root_moves(pos, root_moves, control, budget) {
                // Every move left is proven: nothing for the solver to check after the search.
                checked = false;
            }
        }
        (checked && root_moves.len() > 1).then_some(proof)
    }

    /// Whether the exact solver checks the search's choice (`check_choice`): a placing position
    /// the tables serve, a timed search (not pondering, not infinite), one line at full
    /// strength.
    fn choice_is_checked(
        &self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        budget: Budget,
    ) -> bool {
        self.options.multipv == 1
            && !limits.infinite
            && !limits.ponder
            && !control.is_pondering()
            && self.exact_tables(pos).is_some()
            && budget.is_timed()
    }

    /// The root's value, as far as the solver proves it before a timed search whose choice it
    /// checks (`RootProof::prove`): a draw at least until `PROVE_DRAW_END` of the move's time,
    /// a win until `PROVE_WIN_END`.
    fn prove_root_value(&mut self, pos: &Position, control: &Control, budget: Budget) -> RootProof {
        let Some(tables) = self.exact_tables(pos) else {
            return RootProof::NOTHING;
        };
        let draw_stop = budget.solver_stop(control, PROVE_DRAW_END);
        let win_stop = budget.solver_stop(control, PROVE_WIN_END);
        RootProof::prove(&tables, &mut self.exact, pos, &draw_stop, &win_stop)
    }

    /// Keeps the root moves worth searching by their exact values, as far as the solver proves
    /// them until `SOLVER_END` of the move's time (`SOLVER_NODES` positions without a clock;
    /// `stop` ends it): `exact::root_proof::sift_root_moves`. Whether every move left is proven
    /// to keep the position's value (then the search's choice needs no check).
    fn sift_root_moves(
        &mut self,
        pos: &Position,
        root_moves: &mut Vec<Move>,
        control: &Control,
        budget: Budget,
    ) -> bool {
        let Some(tables) = self.exact_tables(pos) else {
            return false;
        };
        let stop = budget.solver_stop(control, SOLVER_END);
        let (keep, decided) =
            root_proof::sift_root_moves(&tables, &mut self.exact, &stop, pos, root_moves);
        if let Some(keep) = keep {
            root_moves.retain(|m| keep.contains(m));
        }
        decided
    }

    /// The report of a move known without a search (the tables', the placing solution's): a
    /// line of one ply.
    fn known_line(&self, mv: Move, score: Score) -> Info {
        Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
            nps: 0,
            hashfull: self.tt.hashfull(),
            time_ms: 0,
            pv: vec![mv],
        }
    }

    /// Where the endgame tables cover the root: their value-keeping move at once, reported as a
    /// line of one ply.
    fn play_from_tables(
        &self,
        pos: &Position,
        root_moves: &[Move],
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> Option<SearchResult> {
        let tables = self.playing_tables(pos)?;
        let (best, value) = perfect_play::best_move(&tables, pos, root_moves)?;
        let score = Score::from_internal(score::from_tables(value, 0));
        report(&self.known_line(best, score));
        Some(SearchResult {
            best: Some(best),
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            outcome: None,
            table: Some(value),
            solved: None,
        })
    }

    /// Where the endgame tables cover the root but the draw rules leave some move's value
    /// undecided (so the search judges them), the moves that keep the tables' value only
    /// (`perfect_play::keeping_moves`): a search's score never trades a drawn position for a
    /// lost one the rules might save. One line only: `MultiPV` shows every move.
    fn keep_table_value(&self, pos: &Position, root_moves: &mut Vec<Move>) {
        if self.options.multipv != 1 {
            return;
        }
        let Some(tables) = self.playing_tables(pos) else {
            return;
        };
        if let Some(keep) = perfect_play::keeping_moves(&tables, pos, root_moves) {
            *root_moves = keep;
        }
    }

    /// The exact solver's check of the search's choice (`exact::ChoiceCheck`), after its proof
    /// of the root (`proof`), until `CHECK_END` of the move's time: the proof of a win first
    /// where one is open, then the choice judged; a refuted choice is searched again without,
    /// as long as the move's time allows (`SEARCH_AGAIN_SHARE` of the time left), and the new
    /// choice judged in turn.
    fn check_choice(
        &mut self,
        search: &mut RootSearch<'_>,
        mut result: SearchResult,
        proof: RootProof,
    ) -> SearchResult {
        let pos = *search.game.position();
        let Some(tables) = self.exact_tables(&pos) else {
            return result;
        };
        let stop = search.budget.check_stop(search.control);
        let mut check = ChoiceCheck::new(
            &tables,
            &stop,
            search.control,
            pos,
            proof,
            search.root_moves,
        );
        if let Some(choice) = result.best {
            if let Some(verdict) = check.prove_win_first(&mut self.exact, choice) {
                play(&mut result, verdict);
                return result;
            }
        }
        let mut refuted: Vec<Move> = Vec::new();
        while let Some(best) = result.best {
            let verdict = check.judge(&mut self.exact, best);
            if verdict != Verdict::Refuted {
                play(&mut result, verdict);
                break;
            }
            refuted.push(best);
            let rest: Vec<Move> = search
                .root_moves
                .iter()
                .copied()
                .filter(|m| !refuted.contains(m))
                .collect();
            if rest.is_empty() || search.control.is_stopped() {
                break;
            }
            // Searched again without the losing moves, until a share of what is left.
            let now = search.control.elapsed();
            let deadline = search.budget.search_again_until(now, SEARCH_AGAIN_SHARE);
            result = self.search_root(
                search.game,
                &rest,
                search.limits,
                search.control,
                deadline,
                search.report,
            );
        }
        result
    }

    /// Whether `mv` keeps the exact value of the game's position (a draw at least, and a win
    /// when the position is won), as far as the exact solver proves it until `SOLVER_END` of the
    /// move's time (`SOLVER_NODES` positions without a clock): `None` when it does not know, or
    /// when the solver does not serve the position (not placing, no tables for its rules, a
    /// limited strength). The protocol checks the book's move with it.
    pub fn move_keeps_value(
        &mut self,
        game: &Game,
        mv: Move,
        limits: &Limits,
        control: &Control,
    ) -> Option<bool> {
        let pos = *game.position();
        let tables = self.exact_tables(&pos)?;
        let budget = self.budget(&pos, limits);
        let stop = budget.solver_stop(control, SOLVER_END);
        choice_check::keeps_value(&tables, &mut self.exact, &stop, &pos, mv)
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
            placing_free: tables.as_ref().is_some_and(|t| t.placing().is_some()),
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
    /// tables that serve its rules.
    fn exact_tables(&self, pos: &Position) -> Option<Arc<Tables>> {
        self.playing_tables(pos).filter(|_| pos.is_placing())
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
            weights: if self.options.learned {
                self.options.weights.for_rules(pos.rules())
            } else {
                self.options.weights
            },
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
            if let Some(c) = deeper_line(&shared, depth) {
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
        let nodes = shared.nodes.load(Ordering::Relaxed);
        if let Some(s) = strength {
            if let Some(chosen) = strength_choice(s, &candidates, &mut self.rng) {
                (best, ponder, score) = chosen;
            }
        }
        SearchResult {
            best: Some(best),
            ponder,
            score: Score::from_internal(score),
            depth,
            nodes,
            outcome: None,
            table: None,
            solved: None,
        }
    }
}

/// The deadline of the iterative-deepening search: the move's own, or, when the exact solver
/// checks its choice after (`proof`), `CHECKED_SEARCH_END` of the move's time
/// (`WIN_OPEN_SEARCH_END` when a draw is proven and a win not ruled out).
fn search_deadline(proof: Option<RootProof>, budget: Budget) -> Deadline {
    match proof {
        Some(proof) if proof.win_open() => budget.search_until(WIN_OPEN_SEARCH_END),
        Some(_) => budget.search_until(CHECKED_SEARCH_END),
        None => budget.whole(),
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

/// Plays what the check of the choice says (`Verdict`) in `result`: another move replaces the
/// search's choice, without the ponder move of the search's line.
fn play(result: &mut SearchResult, verdict: Verdict) {
    if let Verdict::PlayInstead(mv) = verdict {
        result.best = Some(mv);
        result.ponder = None;
    }
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

/// The choice of a limited strength among the root's `candidates` (the latest line of each root
/// move searched: score, exact, pv): (best, ponder, score), drawn among those with an exact
/// score (a bound says little of a move's worth); `None` when there are none.
fn strength_choice(
    s: Strength,
    candidates: &[Option<(i32, bool, Vec<Move>)>],
    rng: &mut Rng,
) -> Option<(Move, Option<Move>, i32)> {
    let lines: Vec<&(i32, bool, Vec<Move>)> = candidates.iter().flatten().filter(|c| c.1).collect();
    if lines.is_empty() {
        return None;
    }
    let scores: Vec<i32> = lines.iter().map(|c| c.0).collect();
    let chosen = lines[s.choose(&scores, rng)];
    Some((chosen.2[0], chosen.2.get(1).copied(), chosen.0))
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
