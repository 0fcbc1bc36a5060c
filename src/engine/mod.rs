//! The engine, one library type for every front end, as Stockfish's `Engine` is the one its
//! `uci` loop drives: the one owner of the settings, the game, the searcher, the job running (a
//! search, perft or the bench, `jobs`), the opening books (`books`), the endgame tables
//! (`loaded_tables`), the network, and the GUI's learned overhead (`overhead`). The protocol
//! (both dialects), the terminal game and the analysis drive it through these methods; it
//! words nothing: it reports to the front end's `Listener` (`report`: a search's progress, the
//! `Note`s it says of itself, and the `Done` of its threads, which the front end hands back to
//! `Engine::done`). Where a move comes from (the book, the placing solution, the tables, the
//! search) is decided once, in `policy`; `options` is the table of its options.

mod books;
pub mod inventory;
mod jobs;
mod knowledge;
mod loaded_tables;
mod named_files;
mod options;
mod overhead;
pub mod policy;
mod report;

pub use jobs::{Go, SearchAnswer};
pub use knowledge::Knowledge;
pub use named_files::check_named;
pub use options::{Changed, Expected, OptionError, OverheadReserve, Settings, SETOPTION_FORM};
pub use overhead::GBGP_PRIOR_MS;
pub use report::{panic_message, BookAnswer, Done, EngineError, Listener, LoadError, Note, Part};

use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use crate::search::eval::network::Network;
use crate::search::{Control, Limits, Score, SearchResult, Searcher};
use crate::shipped;
use crate::tables::placing;
use crate::tables::Tables;
use books::Books;
use inventory::{Absent, Evaluation, Inventory};
use jobs::{Ends, Job, Reporting, SearchJob};
use loaded_tables::LoadedTables;
use overhead::Overhead;
use std::sync::Arc;

/// The engine: everything but the conversation.
pub struct Engine {
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
    /// What the evaluation is (the network as loaded, or why none).
    evaluation: Evaluation,
    /// The front end's ears, for the engine and the threads it starts (jobs, book and tables
    /// readers).
    listener: Arc<dyn Listener>,
}

/// A `go` made ready to search (`Engine::plan_search`): its limits and its job, and whether
/// the book may answer it (the front end then waits for a book or tables being read first).
pub struct SearchPlan {
    job: SearchJob,
    limits: Limits,
    consults_book: bool,
}

impl SearchPlan {
    /// Whether the book may answer (the game goes on, no `searchmoves`, full strength).
    pub fn consults_book(&self) -> bool {
        self.consults_book
    }
}

impl Engine {
    /// The engine with the default settings, reporting to `listener`. Nothing is read yet:
    /// `load` reads the book, the tables and the network the settings name.
    pub fn new(listener: Arc<dyn Listener>) -> Engine {
        Engine::with_settings(Settings::default(), listener)
    }

    /// The engine with `settings`, reporting to `listener`; nothing read yet (`load`).
    pub fn with_settings(settings: Settings, listener: Arc<dyn Listener>) -> Engine {
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
            evaluation: Evaluation::HandWritten(Absent::Reading),
            listener,
        }
    }

    /// Reads what the settings name: the book, the tables and the opening's solution (on
    /// threads of their own, `Done` when read), and the network.
    pub fn load(&mut self) {
        self.request_book();
        self.request_tables();
        self.load_network();
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The tables in force (endgame tables, the placing solution or the opening's), if any.
    pub fn tables(&self) -> Option<&Arc<Tables>> {
        self.tables.in_force()
    }

    /// The network evaluation in force, if any (the search uses it where it serves the rules,
    /// at full strength).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// What the engine knows besides its search, in force now: each part in one line.
    pub fn inventory(&self) -> Inventory {
        let (tables, opening) = self.tables.known().clone();
        let s = &self.settings;
        let limited = s.strength().map(|_| {
            if s.limit_strength {
                format!("UCI_Elo {}", s.elo)
            } else {
                format!("Level {}", s.level)
            }
        });
        Inventory {
            limited,
            evaluation: self.evaluation.clone(),
            opening,
            book: self.books.known(),
            tables,
        }
    }

    /// Whether no job runs.
    pub fn is_idle(&self) -> bool {
        self.job.is_none()
    }

    /// Whether the job running ends only at `stop` (`go infinite`, `go ponder`, a `go`
    /// without limits, not told to stop yet).
    pub fn runs_until_stop(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.ends_without_stop())
    }

    /// Whether the job running was told to stop.
    pub fn is_stopping(&self) -> bool {
        self.job.as_ref().is_some_and(Job::stopped)
    }

    /// Whether the book in force is still being read.
    pub fn book_is_loading(&self) -> bool {
        self.books.is_loading()
    }

    /// Whether tables are being read, or changed files read again.
    pub fn tables_are_reading(&self) -> bool {
        self.tables.is_reading()
    }

    /// Plays without the book being read (it took too long).
    pub fn give_up_book(&mut self) {
        self.books.give_up();
    }

    /// Reads the book the settings name.
    fn request_book(&mut self) {
        self.books.request(&self.settings, &self.listener);
    }

    /// `setoption`: sets the option `name` to `value` (checked first: a value refused changes
    /// nothing) and does what the change needs; what comes of it (a size cut, a file that
    /// cannot be used) is noted to the listener.
    ///
    /// # Errors
    ///
    /// No such option, or a value it does not take.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let mut settings = self.settings.clone();
        let changed = settings.set(name, value)?;
        if name.eq_ignore_ascii_case("OpeningSolution") {
            // Named again: read again, even a file refused before (it may be mended).
            self.tables.forget_refused_opening();
        }
        self.apply(settings, changed);
        Ok(())
    }

    /// Plays under `rules` (a GUI's mode): the game starts again, and the book, tables and
    /// network follow, as a change of `Variant` does. The same rules again change nothing.
    pub fn set_rules(&mut self, rules: Rules) {
        if rules == self.settings.rules {
            return;
        }
        let mut settings = self.settings.clone();
        settings.rules = rules;
        self.apply(settings, Changed::Rules);
    }

    /// Reads and writes moves in `notation`.
    pub fn set_notation(&mut self, notation: Convention) {
        self.settings.notation = notation;
    }

    /// Puts changed settings in force and does what the change needs.
    fn apply(&mut self, settings: Settings, changed: Changed) {
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
                let kept = searcher.set_hash(asked);
                if kept < asked {
                    log::warn!("Hash: {asked} MB do not fit in the memory left: {kept} MB");
                    self.listener.note(Note::HashCut { asked, kept });
                }
            }
            Changed::Threads => searcher.set_threads(self.settings.threads),
            Changed::Search => self.settings.apply_to(searcher),
            Changed::Protocol => {}
            Changed::TablesCache => {
                let asked = self.settings.tables_cache_mb;
                let kept = self.tables.in_force().map_or_else(
                    || crate::tables::block_cache::fits(asked << 20),
                    |t| t.set_cache_bytes(asked << 20),
                ) >> 20;
                if kept < asked {
                    log::warn!("TablesCache: {asked} MB do not fit in the memory left: {kept} MB");
                    self.listener.note(Note::TablesCacheCut { asked, kept });
                }
            }
            Changed::Rules => self.rules_changed(&before),
            Changed::Book => self.request_book(),
            Changed::Tables => self.request_tables(),
            Changed::Network => self.load_network(),
        }
        if changed == Changed::Rules && shipped::is_default(self.settings.eval_file.as_ref()) {
            // The default network follows the variant.
            self.load_network();
        }
    }

    /// New rules (from `before`): the game starts again; the default book follows the
    /// variant; the tables are read again when the moving phase's rules changed, and so is
    /// the opening's solution when the placing's rules or the variant (its default file) did.
    fn rules_changed(&mut self, before: &Rules) {
        self.game = Game::new(self.settings.rules);
        if shipped::is_default(self.settings.book_file.as_ref()) {
            self.request_book();
        }
        let rules = self.settings.rules;
        let serves = self.tables.in_force().is_some_and(|t| t.serves(&rules));
        let opening_changed = !shipped::is_none(self.settings.opening_solution.as_ref())
            && (placing::fingerprint(before) != placing::fingerprint(&rules)
                || before.preset_name() != rules.preset_name());
        if !serves || opening_changed {
            self.request_tables();
        }
    }

    /// Reads the network `EvalFile` names (`network_path`). A file that cannot be used is
    /// noted, and the search evaluates without it.
    fn load_network(&mut self) {
        (self.network, self.evaluation) = knowledge::read_network(&self.settings, &*self.listener);
        self.share_tables();
    }

    /// `ucinewgame`: the start position, a searcher and an overhead that forget the last game.
    pub fn new_game(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.new_game();
        }
        self.game = Game::new(self.settings.rules);
        self.books.forget_pending();
        self.overhead.reset();
    }

    /// `position ...`: the game to play on (set up by the front end under `settings().rules`).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Reads the tables `TablesPath` and the opening's solution `OpeningSolution` name
    /// (`LoadedTables::request`).
    fn request_tables(&mut self) {
        self.tables.request(&self.settings, &self.listener);
        self.share_tables();
    }

    /// Drops and reads again the table files changed since they were read
    /// (`LoadedTables::check`).
    pub fn check_tables(&mut self) {
        self.tables.check(&self.listener);
        self.share_tables();
    }

    /// A thread of the engine's ended (handed back by the front end): a read comes into
    /// force, a job's end is noted; a search's answer, if it may be given now.
    pub fn done(&mut self, done: Done) -> Option<SearchAnswer> {
        match done {
            Done::Search(searcher, result) => return self.search_done(*searcher, result),
            Done::SearchPanicked(_) => return self.search_panicked(),
            Done::BookLoaded(source, read) => self.books.loaded(source, read, &*self.listener),
            Done::TablesLoaded(request, read) => {
                self.tables
                    .loaded(request, read, &self.settings, &*self.listener);
                self.share_tables();
            }
            Done::TablesReread(request, read) => {
                self.tables.reread(request, read, &*self.listener);
                self.share_tables();
            }
            Done::Perft(done) => self.perft_done(done),
            Done::Bench(done) => self.bench_done(done),
        }
        None
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
    fn search_done(&mut self, searcher: Searcher, result: SearchResult) -> Option<SearchAnswer> {
        // The tables in force (changed files may have been dropped meanwhile).
        self.searcher = Some(searcher);
        self.share_tables();
        self.check_tables();
        let Some(Job::Search(mut job)) = self.job.take() else {
            return None;
        };
        if job.may_answer() {
            return Some(self.finish(&job, result));
        }
        job.held = Some(result);
        self.job = Some(Job::Search(job));
        None
    }

    /// The search thread panicked (the searcher is lost): the answer is the job's fallback
    /// move.
    fn search_panicked(&mut self) -> Option<SearchAnswer> {
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
        Some(self.finish(&job, result))
    }

    /// Perft finished (`Some(total, time)`) or was stopped.
    fn perft_done(&mut self, done: Option<(u64, std::time::Duration)>) {
        let depth = match self.job.take() {
            Some(Job::Perft { depth, .. }) => depth,
            _ => 0,
        };
        self.listener.note(match done {
            Some((leaves, time)) => Note::PerftDone {
                depth,
                leaves,
                time,
            },
            None => Note::PerftStopped,
        });
    }

    /// The bench finished (`Some(total)`) or was stopped.
    fn bench_done(&mut self, done: Option<crate::search::bench::BenchTotal>) {
        self.job = None;
        self.listener.note(match done {
            Some(total) => Note::BenchDone(total),
            None => Note::BenchStopped,
        });
    }

    /// `stop`: the job ends as soon as it can; a held result is the answer at once.
    pub fn stop(&mut self) -> Option<SearchAnswer> {
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
    pub fn ponderhit(&mut self) -> Option<SearchAnswer> {
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
        Some(self.finish(&job, result))
    }

    /// The answer of `job`: its time teaches the overhead when `go` gave a clock.
    fn finish(&mut self, job: &SearchJob, result: SearchResult) -> SearchAnswer {
        if job.clocked {
            self.overhead.answered(result.best);
        }
        SearchAnswer {
            root: job.root,
            notation: job.notation,
            result,
        }
    }

    /// The first half of `go`: its limits, the overhead learned from its clock, its job. The
    /// GUI's known charge per move, `prior_ms`, is kept in reserve until the game teaches one
    /// (`GBGP_PRIOR_MS` for the Nine Morris 3D GUI; a UCI GUI or match runner may charge
    /// nothing: 0).
    ///
    /// # Errors
    ///
    /// A `searchmoves` move that cannot be read or is not legal.
    pub fn plan_search(&mut self, go: &Go, prior_ms: u64) -> Result<SearchPlan, EngineError> {
        let root = *self.game.position();
        let mut limits = jobs::limits(go, &root)?;
        let clocked = self.learn_overhead(&limits);
        if self.settings.overhead == OverheadReserve::Learned {
            (limits.reserve, limits.reserve_peak) = self.overhead.charges(prior_ms);
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
        let consults_book =
            policy::consults_book(&self.game, &limits.searchmoves, self.settings.strength());
        Ok(SearchPlan {
            job,
            limits,
            consults_book,
        })
    }

    /// The second half of `go`: the answer at once when the game is over or the book knows
    /// the position (held if the search may not answer yet), otherwise the search started
    /// (`policy::choose` decides).
    ///
    /// # Errors
    ///
    /// The search's thread could not be started.
    pub fn start_search(&mut self, plan: SearchPlan) -> Result<Option<SearchAnswer>, EngineError> {
        let SearchPlan {
            job,
            limits,
            consults_book,
        } = plan;
        let mut job = Box::new(job);
        let source = policy::choose(
            &self.game,
            consults_book,
            &self.settings,
            self.tables.in_force().map(|t| &**t),
            &mut self.books,
        );
        let (at_once, book_to_check) = match source {
            policy::Source::Over(outcome) => (Some(SearchResult::nothing(Some(outcome))), None),
            policy::Source::Book(answer) => {
                let result = answer.result.clone();
                self.listener.note(Note::BookMove {
                    root: job.root,
                    notation: job.notation,
                    answer: Box::new(answer),
                });
                (Some(result), None)
            }
            policy::Source::CheckedBook(answer) => (None, Some(answer)),
            policy::Source::Search => (None, None),
        };
        if let Some(result) = at_once {
            // Answer now, or when released.
            if job.may_answer() {
                return Ok(Some(self.finish(&job, result)));
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
            job.notation,
            self.reporting(),
        )?;
        self.job = Some(Job::Search(job));
        Ok(None)
    }

    /// A `go` with the side to move's clock, not pondering: the GUI's charge of the previous
    /// move is learned (`Overhead::asked`), and noted when it changed by much. Whether the `go`
    /// had such a clock (its answer is then timed, `Overhead::answered`).
    fn learn_overhead(&mut self, limits: &Limits) -> bool {
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
            log::info!(
                "overhead: the GUI charges about {ms} ms a move beyond the engine's own time; \
                 kept in reserve besides MoveOverhead"
            );
            self.listener.note(Note::Overhead { ms });
        }
        true
    }

    /// `perft`: counts on a thread of its own.
    ///
    /// # Errors
    ///
    /// Its thread could not be started.
    pub fn start_perft(&mut self, depth: u32) -> Result<(), EngineError> {
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
    ///
    /// # Errors
    ///
    /// Its thread could not be started.
    pub fn start_bench(&mut self, depth: Option<u32>) -> Result<(), EngineError> {
        self.control.reset(false);
        jobs::spawn_bench(depth, self.reporting())?;
        self.job = Some(Job::Bench { stopped: false });
        Ok(())
    }

    /// What a job thread needs to report back.
    fn reporting(&self) -> Reporting {
        Reporting {
            control: Arc::clone(&self.control),
            listener: Arc::clone(&self.listener),
        }
    }
}
