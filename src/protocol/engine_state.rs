//! The engine a session drives, as Stockfish's `Engine` is the one its `uci` loop drives: the
//! one owner of the settings, the game, the searcher, the job running (a search, perft or the
//! bench, `jobs`), the opening books (`books`), the endgame tables (`loaded_tables`) and the
//! GUI's learned overhead (`overhead`). The session (`session`) keeps the conversation and asks
//! through these methods; what only the engine knows (a table file changed, perft's count) it
//! writes itself, and a search's answer it hands back (`SearchAnswer`) for the session to say in
//! its dialect.

use super::books::Books;
use super::command::{Go, Start};
use super::dialect::Dialect;
use super::event::{Event, LoadError, TablesRead};
use super::jobs::{self, Ends, Job, Reporting, SearchAnswer, SearchJob};
use super::loaded_tables::LoadedTables;
use super::options::{Changed, OverheadReserve, Settings};
use super::overhead::{Overhead, GBGP_PRIOR_MS};
use super::reply::{one_line, Error, Out};
use crate::book::Book;
use crate::rules::game::Game;
use crate::rules::gbgp_position;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::bench::BenchTotal;
use crate::search::eval::network::{self, Network};
use crate::search::exact::solved;
use crate::search::{Control, Limits, Score, SearchResult, Searcher, SolvedChoice};
use crate::tables::placing;
use crate::tables::{TableChange, Values};
use std::path::PathBuf;
use std::sync::mpsc::SyncSender;
use std::sync::Arc;
use std::time::Duration;

/// The engine's state: everything but the conversation.
pub(super) struct Engine {
    settings: Settings,
    game: Game,
    /// `None` while a search thread has it.
    searcher: Option<Searcher>,
    /// Shared with the job running: `stop`, `ponderhit`, the move's clock.
    control: Arc<Control>,
    job: Option<Job>,
    books: Books,
    tables: LoadedTables,
    /// What the GUI charges per move beyond the engine's own time, learned from the clocks.
    overhead: Overhead,
    /// The network evaluation `EvalFile` names, when it was read whole.
    network: Option<Arc<Network>>,
    /// The writer of stdout, for what the engine says of itself and its jobs' lines.
    out: Out,
    /// For the threads it starts (jobs, book and tables readers) to report on.
    events: SyncSender<Event>,
}

/// A `go` made ready to search (`Engine::plan_search`): its limits and its job, and whether
/// the book may answer it (the session then waits for a book or tables being read first).
pub(super) struct SearchPlan {
    job: SearchJob,
    limits: Limits,
    consults_book: bool,
}

impl SearchPlan {
    /// Whether the book may answer (the game goes on, no `searchmoves`, full strength).
    pub(super) fn consults_book(&self) -> bool {
        self.consults_book
    }
}

impl Engine {
    /// The engine with the default settings, writing to `out` and told of its threads' reports
    /// on `events`.
    pub(super) fn new(out: Out, events: SyncSender<Event>) -> Engine {
        let settings = Settings::default();
        Engine {
            game: Game::new(settings.rules),
            searcher: Some(settings.new_searcher()),
            settings,
            control: Arc::new(Control::new()),
            job: None,
            books: Books::new(),
            tables: LoadedTables::default(),
            overhead: Overhead::default(),
            network: None,
            out,
            events,
        }
    }

    /// The settings in force.
    pub(super) fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game being played.
    pub(super) fn game(&self) -> &Game {
        &self.game
    }

    /// Whether no job runs.
    pub(super) fn is_idle(&self) -> bool {
        self.job.is_none()
    }

    /// Whether the job running ends only at `stop` (`go infinite`, `go ponder`, a `go`
    /// without limits, not told to stop yet).
    pub(super) fn runs_until_stop(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.ends_without_stop())
    }

    /// Whether the job running was told to stop.
    pub(super) fn is_stopping(&self) -> bool {
        self.job.as_ref().is_some_and(Job::stopped)
    }

    /// Whether the book in force is still being read.
    pub(super) fn book_is_loading(&self) -> bool {
        self.books.is_loading()
    }

    /// Whether tables are being read, or changed files read again.
    pub(super) fn tables_are_reading(&self) -> bool {
        self.tables.is_reading()
    }

    /// Plays without the book being read (it took too long).
    pub(super) fn give_up_book(&mut self) {
        self.books.give_up();
    }

    /// Reads the book the settings name (at the start of the conversation).
    pub(super) fn request_book(&mut self) {
        self.books.request(&self.settings, &self.events);
    }

    /// Puts changed settings in force and does what the change needs.
    pub(super) fn apply(&mut self, settings: Settings, changed: Changed) {
        let before = self.settings.rules;
        self.settings = settings;
        let searcher = match self.searcher.take() {
            Some(s) => s,
            None => self.new_searcher(),
        };
        let searcher = self.searcher.insert(searcher);
        match changed {
            Changed::Hash => {
                let asked = self.settings.hash_mb;
                let got = searcher.set_hash(asked);
                if got < asked {
                    self.out.line(&format!(
                        "info string Hash: {asked} MB do not fit in the memory this process may \
                         use (its address-space limit, its memory): the table has {got} MB"
                    ));
                }
            }
            Changed::Threads => searcher.set_threads(self.settings.threads),
            Changed::Search => self.settings.apply_to(searcher),
            Changed::Protocol => {}
            Changed::TablesCache => {
                let asked = self.settings.tables_cache_mb;
                let kept = crate::tables::pack::cache::set_capacity_bytes(asked << 20) >> 20;
                if kept < asked {
                    self.out.line(&format!(
                        "info string TablesCache: {asked} MB do not fit in the memory this \
                         process may use (its address-space limit, its memory): the cache keeps \
                         at most {kept} MB"
                    ));
                }
            }
            Changed::Rules => {
                self.game = Game::new(self.settings.rules);
                if self.settings.book_file.is_empty() {
                    // The default book follows the variant.
                    self.books.request(&self.settings, &self.events);
                }
                // Tables are read again when the moving phase's rules changed, and so is the
                // opening's solution when the placing's rules or the variant (its default file)
                // changed.
                let rules = self.settings.rules;
                let serves = self.tables.in_force().is_some_and(|t| t.serves(&rules));
                let opening_changed = self.settings.opening_solution != "none"
                    && (placing::fingerprint(&before) != placing::fingerprint(&rules)
                        || before.preset_name() != rules.preset_name());
                if !serves || opening_changed {
                    self.request_tables();
                }
            }
            Changed::Book => self.books.request(&self.settings, &self.events),
            Changed::Tables => self.request_tables(),
            Changed::Network => self.load_network(),
        }
        if changed == Changed::Rules && self.settings.eval_file.is_empty() {
            // The default network follows the variant.
            self.load_network();
        }
    }

    /// Reads the network `EvalFile` names (`network_path`); at the start of the conversation
    /// too. A file that cannot be used is one error line, and the search evaluates without it.
    pub(super) fn load_network(&mut self) {
        self.network = network_path(&self.settings).and_then(|path| {
            match Network::read(&path, &self.settings.rules) {
                Ok(net) => Some(Arc::new(net)),
                Err(e) => {
                    self.out.line(&format!(
                        "info string error: {}; evaluating without it",
                        one_line(&e.to_string())
                    ));
                    None
                }
            }
        });
        self.share_tables();
    }

    /// `ucinewgame`: the start position, a searcher and an overhead that forget the last game.
    pub(super) fn new_game(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.new_game();
        }
        self.game = Game::new(self.settings.rules);
        self.books.forget_pending();
        self.overhead.reset();
    }

    /// `position ...`: the game from `start` after `moves`.
    pub(super) fn set_position(&mut self, start: Start, moves: &[String]) -> Result<(), Error> {
        let rules = self.settings.rules;
        let mut game = match start {
            Start::StartPos => Game::new(rules),
            Start::Fen(text) => Game::from_fen(&text, rules).map_err(Error::Fen)?,
            Start::Gbgp(text) => gbgp_position::read(&text, &rules)
                .map(Game::from_position)
                .map_err(Error::Fen)?,
        };
        game.play_tokens(moves.iter().map(String::as_str))
            .map_err(|(i, e)| Error::Move(i, e))?;
        self.game = game;
        Ok(())
    }

    /// Reads the tables `TablesPath` and the opening's solution `OpeningSolution` name
    /// (`LoadedTables::request`); at the start of the conversation too.
    pub(super) fn request_tables(&mut self) {
        self.tables.request(&self.settings, &self.events, &self.out);
        self.share_tables();
    }

    /// Drops and reads again the table files changed since they were read
    /// (`LoadedTables::check`).
    pub(super) fn check_tables(&mut self) {
        self.tables.check(&self.events, &self.out);
        self.share_tables();
    }

    /// Tables read on their thread (in force if they answer the last request).
    pub(super) fn tables_loaded(&mut self, request: u64, read: TablesRead) {
        self.tables.loaded(request, read, &self.settings, &self.out);
        self.share_tables();
    }

    /// Changed table files read again (in force if they answer the last request).
    pub(super) fn tables_reread(
        &mut self,
        request: u64,
        read: Vec<(TableChange, Result<Values, LoadError>)>,
    ) {
        self.tables.reread(request, read, &self.out);
        self.share_tables();
    }

    /// A book read on its thread (`Books::loaded`).
    pub(super) fn book_loaded(&mut self, path: PathBuf, read: Result<Box<Book>, LoadError>) {
        self.books.loaded(path, read, &self.out);
    }

    /// The tables in force, for the searcher too.
    fn share_tables(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.options.tables = self.tables.in_force().cloned();
            s.options.network.clone_from(&self.network);
        }
    }

    /// A searcher made from the settings, with the tables in force.
    fn new_searcher(&self) -> Searcher {
        let mut s = self.settings.new_searcher();
        s.options.tables = self.tables.in_force().cloned();
        s.options.network.clone_from(&self.network);
        s
    }

    /// The search thread is done and gives the searcher back: the answer, unless it is held
    /// (an infinite or pondering search, not stopped yet). A word on any table file that
    /// changed during the search.
    pub(super) fn search_done(
        &mut self,
        searcher: Searcher,
        result: SearchResult,
    ) -> Option<SearchAnswer> {
        // The tables in force (changed files may have been dropped meanwhile).
        self.searcher = Some(searcher);
        self.share_tables();
        self.check_tables();
        let Some(Job::Search(mut job)) = self.job.take() else {
            return None;
        };
        if job.may_answer() {
            return Some(self.finish(job, result));
        }
        job.held = Some(result);
        self.job = Some(Job::Search(job));
        None
    }

    /// The search thread panicked (the searcher is lost): the answer is the job's fallback
    /// move.
    pub(super) fn search_panicked(&mut self) -> Option<SearchAnswer> {
        let Some(Job::Search(job)) = self.job.take() else {
            return None;
        };
        let result = SearchResult {
            best: job.fallback,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            outcome: None,
            table: None,
            solved: None,
        };
        Some(self.finish(job, result))
    }

    /// Perft finished (`Some(total, time)`) or was stopped: its last lines.
    pub(super) fn perft_done(&mut self, done: Option<(u64, Duration)>) {
        let depth = match self.job.take() {
            Some(Job::Perft { depth, .. }) => depth,
            _ => 0,
        };
        match done {
            Some((nodes, time)) => {
                let secs = time.as_secs_f64();
                self.out.lines([
                    format!(
                        "info string perft {depth}: {nodes} leaves in {secs:.3} s ({:.0} leaves/s)",
                        nodes as f64 / secs.max(1e-9)
                    ),
                    format!("nodes {nodes}"),
                ]);
            }
            None => self.out.line("info string perft stopped"),
        }
    }

    /// The bench finished (`Some(total)`) or was stopped: its last line.
    pub(super) fn bench_done(&mut self, done: Option<BenchTotal>) {
        self.job = None;
        match done {
            Some(total) => self.out.line(&total.to_string()),
            None => self.out.line("info string bench stopped"),
        }
    }

    /// `stop`: the job ends as soon as it can; a held result is the answer at once.
    pub(super) fn stop(&mut self) -> Option<SearchAnswer> {
        match self.job.as_mut() {
            Some(Job::Search(job)) => {
                job.stopped = true;
                self.control.stop();
                self.release()
            }
            Some(Job::Perft { stopped, .. } | Job::Bench { stopped }) => {
                *stopped = true;
                self.control.stop();
                None
            }
            None => None,
        }
    }

    /// `ponderhit`: the search pondering goes on for real; a held result is the answer at
    /// once.
    pub(super) fn ponderhit(&mut self) -> Option<SearchAnswer> {
        let Some(Job::Search(job)) = self.job.as_mut() else {
            return None;
        };
        if !job.pondering {
            return None;
        }
        job.pondering = false;
        self.control.ponderhit();
        self.release()
    }

    /// A held result, once the search may answer.
    fn release(&mut self) -> Option<SearchAnswer> {
        let ready = matches!(&self.job, Some(Job::Search(j)) if j.held.is_some() && j.may_answer());
        if !ready {
            return None;
        }
        let Some(Job::Search(mut job)) = self.job.take() else {
            return None;
        };
        let result = job.held.take()?;
        Some(self.finish(job, result))
    }

    /// The answer of `job`: its time teaches the overhead when `go` gave a clock.
    fn finish(&mut self, job: Box<SearchJob>, result: SearchResult) -> SearchAnswer {
        if job.clocked {
            self.overhead.answered(result.best);
        }
        SearchAnswer { job, result }
    }

    /// The first half of `go`: its limits, the overhead learned from its clock, its job.
    pub(super) fn plan_search(&mut self, go: &Go, dialect: Dialect) -> Result<SearchPlan, Error> {
        let root = *self.game.position();
        let mut limits = jobs::limits(go, &root)?;
        let clocked = self.learn_overhead(&limits, dialect);
        if self.settings.overhead == OverheadReserve::Learned {
            // GBGP is the Nine Morris 3D GUI's: its known charge until the game teaches one. A
            // UCI GUI or match runner may charge nothing: only what is learned.
            let prior = match dialect {
                Dialect::Gbgp => GBGP_PRIOR_MS,
                Dialect::Uci => 0,
            };
            (limits.reserve, limits.reserve_peak) = self.overhead.charges(prior);
        }
        let job = SearchJob {
            clocked,
            ends: Ends::of(go),
            pondering: go.ponder,
            stopped: false,
            held: None,
            notation: self.settings.notation,
            root,
            fallback: limits.searchmoves.first().copied().or_else(|| {
                movegen::legal_moves(&root, Convention::Turn)
                    .first()
                    .copied()
            }),
        };
        // The book is the full engine's (a limited level searches every move).
        let consults_book = self.game.outcome().is_none()
            && go.searchmoves.is_empty()
            && self.settings.strength().is_none();
        Ok(SearchPlan {
            job,
            limits,
            consults_book,
        })
    }

    /// The second half of `go`: the answer at once when the game is over or the book knows
    /// the position (held if the search may not answer yet), otherwise the search started.
    pub(super) fn start_search(
        &mut self,
        plan: SearchPlan,
        dialect: Dialect,
    ) -> Result<Option<SearchAnswer>, Error> {
        let SearchPlan {
            job,
            limits,
            consults_book,
        } = plan;
        let mut job = Box::new(job);
        let (root, notation) = (job.root, job.notation);
        let outcome = self.game.outcome();
        let book = if consults_book {
            // Where the placing solution decides the move (`SolvedPlacing`), the search plays
            // it at once: a book move, even one proven to keep a draw, may miss a win.
            let solved = !self.books.has_pending() && self.solution_decides(&root);
            (!solved)
                .then(|| self.books.answer(&self.settings, &root))
                .flatten()
        } else {
            None
        };
        // With endgame tables, a placing book move is played once the exact solver has not
        // found it giving value away (on the search thread: the protocol keeps answering
        // meanwhile), unless the solver proved it offline (`book cover`). A book turn answered
        // in part is finished from the book.
        let proven = book.as_ref().is_some_and(|b| b.proven);
        let book = book.map(|b| (b.lines(&root, notation, dialect), b.result));
        let checked = root.is_placing()
            && self.tables.in_force().is_some_and(|t| t.has_moving())
            && !self.books.has_pending()
            && !proven;
        let (book_to_check, book_now) = if checked { (book, None) } else { (None, book) };
        let at_once = match outcome {
            // Nothing to search.
            Some(outcome) => Some(SearchResult::nothing(Some(outcome))),
            None => book_now.map(|(lines, result)| {
                self.out.lines(lines);
                result
            }),
        };
        if let Some(result) = at_once {
            // Answer now, or when released.
            if job.may_answer() {
                return Ok(Some(self.finish(job, result)));
            }
            job.held = Some(result);
            self.job = Some(Job::Search(job));
            return Ok(None);
        }
        let searcher = self.searcher.take().unwrap_or_else(|| self.new_searcher());
        self.control.reset(job.pondering);
        jobs::spawn_search(
            searcher,
            self.game.clone(),
            limits,
            book_to_check,
            notation,
            dialect,
            self.reporting(),
        )?;
        self.job = Some(Job::Search(job));
        Ok(None)
    }

    /// A `go` with the side to move's clock, not pondering: the GUI's charge of the previous
    /// move is learned (`Overhead::asked`), and said when it changed by much (`info string` in
    /// UCI; the GBGP GUI would take it for search progress, so there it is only logged). Whether
    /// the `go` had such a clock (its answer is then timed, `Overhead::answered`).
    fn learn_overhead(&mut self, limits: &Limits, dialect: Dialect) -> bool {
        let us = self.game.position().side_to_move();
        let Some(left) = limits.time[us].filter(|_| !limits.ponder) else {
            self.overhead.unclocked();
            return false;
        };
        let said = self.overhead.asked(
            self.game.start(),
            self.game.moves(),
            us,
            left,
            limits.inc[us],
        );
        if let (Some(ms), OverheadReserve::Learned) = (said, self.settings.overhead) {
            let text = format!(
                "overhead: the GUI charges about {ms} ms a move beyond the engine's own time; \
                 kept in reserve besides MoveOverhead"
            );
            log::info!("{text}");
            if dialect == Dialect::Uci {
                self.out.line(&format!("info string {text}"));
            }
        }
        true
    }

    /// Whether the placing solution decides the move in `root`: it covers the position and
    /// every move's result (an opening's solution covers the moves of its plies but its last),
    /// and the search follows it (`SolvedPlacing` not `off`, one line).
    fn solution_decides(&self, root: &Position) -> bool {
        self.settings.solved_placing != SolvedChoice::Off
            && self.settings.multipv == 1
            && self.tables.in_force().is_some_and(|t| {
                let moves = movegen::legal_moves(root, Convention::Turn);
                t.serves(root.rules()) && solved::move_values(t, root, &moves).is_some()
            })
    }

    /// `perft`: counts on a thread of its own.
    pub(super) fn start_perft(&mut self, depth: u32) -> Result<(), Error> {
        self.control.reset(false);
        let pos = *self.game.position();
        jobs::spawn_perft(pos, depth, self.settings.notation, self.reporting())?;
        self.job = Some(Job::Perft {
            depth,
            stopped: false,
        });
        Ok(())
    }

    /// `bench`: the bench of `moulin bench` on a thread of its own.
    pub(super) fn start_bench(&mut self, depth: Option<u32>) -> Result<(), Error> {
        self.control.reset(false);
        jobs::spawn_bench(depth, self.reporting())?;
        self.job = Some(Job::Bench { stopped: false });
        Ok(())
    }

    /// What a job thread needs to report back.
    fn reporting(&self) -> Reporting {
        Reporting {
            control: Arc::clone(&self.control),
            events: self.events.clone(),
            out: self.out.clone(),
        }
    }
}

/// The network file the settings name (`EvalFile`: `network::chosen_path`).
fn network_path(settings: &Settings) -> Option<PathBuf> {
    network::chosen_path(settings.eval_file.as_ref(), &settings.rules)
}
