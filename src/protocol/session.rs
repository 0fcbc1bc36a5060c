//! The session: the state of one conversation (settings, game, searcher, the job running, the
//! commands waiting for it, the book) and what each command does. The engine loop (the caller of
//! `run`) reads each line as it comes, so input is never held up by a search: a line is obeyed
//! at once or waits in its turn (`waiting`).

use super::books::Books;
use super::command::Go;
use super::command::{Command, Start};
use super::dialect::Dialect;
use super::event::{Event, LoadError};
use super::gbgp;
use super::jobs::{self, Ends, Job, Reporting, SearchJob};
use super::options::{Changed, OverheadReserve, Settings};
use super::overhead::Overhead;
use super::reply::{bestmove_line, one_line, panic_message, Error, Out, HELP};
use super::waiting::{Line, Waiting};
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::gbgp_position;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::{Control, Score, SearchResult, Searcher, SolvedChoice};
use crate::tables::{TableChange, Tables, Values};
use std::collections::VecDeque;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a GBGP `isready` waits for a stopped job to give its `bestmove` first.
pub(super) const STOP_WAIT: Duration = Duration::from_secs(5);

/// How long a `go` waits for the book or tables being read before it plays without them.
const LOAD_WAIT: Duration = Duration::from_secs(10);

/// How often the tables' files are looked at while a search runs (`check_tables`: a `stat` a
/// file, about 3 µs each).
const TABLES_WATCH: Duration = Duration::from_millis(100);

/// How long `quit` waits for a stopped search to give its `bestmove`.
pub(super) const QUIT_WAIT: Duration = Duration::from_millis(40);

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    Quit,
}

/// The engine loop's state.
pub(super) struct Session {
    pub(super) out: Out,
    pub(super) dialect: Dialect,
    /// A line that was not blank came: the dialect is settled.
    pub(super) greeted: bool,
    pub(super) settings: Settings,
    pub(super) game: Game,
    /// `None` while a search thread has it.
    pub(super) searcher: Option<Searcher>,
    pub(super) control: Arc<Control>,
    pub(super) job: Option<Job>,
    /// Commands waiting for the job to end, in order.
    pub(super) waiting: Waiting,
    /// For the worker threads to report on.
    pub(super) events: SyncSender<Event>,
    pub(super) incoming: Receiver<Event>,
    /// Events received while waiting for a stopped job, to handle next.
    pub(super) backlog: VecDeque<Event>,
    /// The opening books.
    pub(super) books: Books,
    /// `isready`s waiting for a book being read: each is answered once it is in force.
    pub(super) ready_waiting: usize,
    /// The endgame tables in force (`TablesPath`), shared with the searcher.
    pub(super) tables: Option<Arc<Tables>>,
    /// The tables directory being read on a thread of its own.
    pub(super) tables_loading: bool,
    /// The number of the last tables request: a read answers only if it is the last one.
    pub(super) tables_request: u64,
    /// Changed table files being read again on threads of their own (`check_tables`).
    pub(super) tables_rereading: usize,
    /// What the GUI charges per move beyond the engine's own time, learned from the clocks.
    pub(super) overhead: Overhead,
}

impl Session {
    pub(super) fn new(events: SyncSender<Event>, incoming: Receiver<Event>) -> Session {
        let settings = Settings::default();
        Session {
            out: Out::new(events.clone()),
            dialect: Dialect::Uci,
            greeted: false,
            game: Game::new(settings.rules),
            searcher: Some(settings.new_searcher()),
            settings,
            control: Arc::new(Control::new()),
            job: None,
            waiting: Waiting::default(),
            events,
            incoming,
            backlog: VecDeque::new(),
            books: Books::new(),
            ready_waiting: 0,
            tables: None,
            tables_loading: false,
            tables_request: 0,
            tables_rereading: 0,
            overhead: Overhead::default(),
        }
    }

    /// Sets an option given on the command line (already checked) before the conversation.
    pub(super) fn preset(&mut self, name: String, value: String) {
        let set = Command::SetOption {
            name,
            value: Some(value),
        };
        if let Err(e) = self.execute(set) {
            self.error(&e);
        }
    }

    /// Runs the conversation until `quit`, the end of input, or an output that is gone; why
    /// the output is gone, if it is.
    pub(super) fn run(mut self) -> Option<io::Error> {
        if let Err(e) = self.out.watch() {
            log::warn!("cannot watch the output: {e}");
        }
        self.books.request(&self.settings, &self.events);
        while let Some(event) = self.next_event() {
            if self.handle(event) == Flow::Quit
                || self.out.is_gone()
                || self.run_waiting() == Flow::Quit
            {
                break;
            }
        }
        // Quit: a running job is stopped and, if it ends at once, answers; the process ends
        // with this thread either way.
        self.stop();
        self.wait_for_stopped_job(QUIT_WAIT);
        self.out.failure()
    }

    /// The end of input: what was asked before it is answered, since nothing can ask again
    /// (protocol.md §1). The commands waiting are obeyed in turn; a job that only `stop` would
    /// end (`go infinite`, `go ponder`, a `go` without limits) is stopped and answers at once;
    /// any other runs to its end and answers. Pending `isready`s are answered once the book and
    /// tables are read (at most `LOAD_WAIT`).
    fn end_of_input(&mut self) {
        self.answer_ready_at_end();
        loop {
            if self.run_waiting() == Flow::Quit || self.out.is_gone() {
                return;
            }
            match &self.job {
                None if self.waiting.is_empty() => break,
                Some(job) if !job.ends_without_stop() => {
                    self.stop();
                    continue;
                }
                _ => {}
            }
            let Some(event) = self.next_event() else {
                break;
            };
            if self.handle(event) == Flow::Quit {
                return;
            }
        }
        self.answer_ready_at_end();
    }

    /// Answers the `isready`s waiting for the book or tables, once they are read.
    fn answer_ready_at_end(&mut self) {
        if self.ready_waiting > 0 {
            self.wait_for_loading();
            self.out
                .lines(std::iter::repeat_n("readyok", self.ready_waiting));
            self.ready_waiting = 0;
        }
    }

    /// The next event: one kept for later first, else the next to come (`None`: no more will
    /// come). While a job runs, the tables' files are looked at every `TABLES_WATCH` meanwhile:
    /// a file changed during a long search is not read from for longer than that.
    fn next_event(&mut self) -> Option<Event> {
        if let Some(e) = self.backlog.pop_front() {
            return Some(e);
        }
        loop {
            if self.job.is_none() {
                return self.incoming.recv().ok();
            }
            match self.incoming.recv_timeout(TABLES_WATCH) {
                Ok(e) => return Some(e),
                Err(RecvTimeoutError::Timeout) => self.check_tables(),
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    pub(super) fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(text) => return self.arrived(Line::Text(text)),
            Event::TooLong(n) => return self.arrived(Line::TooLong(n)),
            Event::Eof => {
                self.end_of_input();
                return Flow::Quit;
            }
            Event::OutputGone => return Flow::Quit,
            Event::SearchDone(searcher, result) => {
                self.searcher = Some(*searcher);
                // The tables in force (changed files may have been dropped meanwhile), and a
                // word on any file that changed during the search.
                self.set_tables(self.tables.clone());
                self.check_tables();
                if let Some(Job::Search(mut job)) = self.job.take() {
                    if job.may_answer() {
                        self.answer(&job, &result);
                    } else {
                        job.held = Some(result);
                        self.job = Some(Job::Search(job));
                    }
                }
            }
            Event::SearchPanicked(msg) => {
                self.error_text(&format!("internal error in the search: {}", one_line(&msg)));
                if let Some(Job::Search(job)) = self.job.take() {
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
                    self.answer(&job, &result);
                }
            }
            Event::TablesLoaded(request, read) => self.tables_loaded(request, read),
            Event::TablesReread(request, read) => self.tables_reread(request, read),
            Event::BookLoaded(path, read) => {
                self.books.loaded(path, read, &self.out);
                self.answer_ready();
            }
            Event::PerftDone(done) => {
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
            Event::BenchDone(done) => {
                self.job = None;
                match done {
                    Some(total) => self.out.line(&total.to_string()),
                    None => self.out.line("info string bench stopped"),
                }
            }
        }
        Flow::Continue
    }

    pub(super) fn error(&self, e: &Error) {
        let text = one_line(&e.to_string());
        log::debug!("refused: {text}");
        self.error_text(&text);
    }

    /// One error line, in the dialect's form.
    pub(super) fn error_text(&self, text: &str) {
        match self.dialect {
            Dialect::Uci => self.out.line(&format!("info string error: {text}")),
            Dialect::Gbgp => self.out.line(&gbgp::error_line(text)),
        }
    }

    /// The first line was `gbgp`: the GUI's rules and notation from now on.
    pub(super) fn start_gbgp(&mut self) {
        log::info!("speaking GBGP");
        self.dialect = Dialect::Gbgp;
        let mut settings = self.settings.clone();
        settings.notation = Convention::Turn;
        let rules_change = settings.rules != gbgp::rules(false);
        settings.rules = gbgp::rules(false);
        self.apply(
            settings,
            if rules_change {
                Changed::Rules
            } else {
                Changed::Protocol
            },
        );
    }

    /// Reads the tables `TablesPath` names on a thread of its own (none when it is empty). Each
    /// request has a number; only the last one's answer is taken.
    fn request_tables(&mut self) {
        self.set_tables(None);
        self.tables_request += 1;
        self.tables_rereading = 0;
        if self.settings.tables_path.is_empty() {
            self.tables_loading = false;
            return;
        }
        let dir = PathBuf::from(&self.settings.tables_path);
        let rules = self.settings.rules;
        let tx = self.events.clone();
        let request = self.tables_request;
        let spawned = std::thread::Builder::new()
            .name("moulin-tables".into())
            .spawn(move || {
                // A panic while reading (a bug) still answers, so that `readyok` comes.
                let read = panic::catch_unwind(|| {
                    Tables::open(&dir, &rules)
                        .map(Box::new)
                        .map_err(|e| LoadError::Failed(e.into()))
                })
                .unwrap_or_else(|p| Err(LoadError::Panicked(panic_message(&*p))));
                let _ = tx.send(Event::TablesLoaded(request, read));
            });
        match spawned {
            Ok(_) => self.tables_loading = true,
            Err(e) => self.out.line(&format!(
                "info string error: cannot start the tables loader: {}",
                one_line(&e.to_string())
            )),
        }
    }

    /// Tables read on their thread: in force if they answer the last request.
    fn tables_loaded(&mut self, request: u64, read: Result<Box<Tables>, LoadError>) {
        if !self.tables_loading || request != self.tables_request {
            return;
        }
        self.tables_loading = false;
        match read {
            Ok(t) => {
                log::info!("endgame tables {}: {:?}", self.settings.tables_path, t);
                self.set_tables(Some(Arc::from(t)));
            }
            Err(e) => self.out.line(&format!(
                "info string error: endgame tables: {}; playing without them",
                one_line(&e.to_string())
            )),
        }
        self.answer_ready();
    }

    /// Looks for table files changed since they were read (one `stat` a file; `Tables::changes`):
    /// each is reported, dropped at once, so that no search probes it, and read again (and
    /// checked) on a thread of its own, to come back into force if it is whole.
    fn check_tables(&mut self) {
        let Some(tables) = &self.tables else {
            return;
        };
        let changed = tables.changes();
        if changed.is_empty() {
            return;
        }
        let mut kept = Tables::clone(tables);
        for c in &changed {
            // A search running with these tables stops reading the file at once.
            if let Some(mapping) = tables.values(c.mover, c.other).and_then(Values::mapping) {
                mapping.withdraw();
            }
            let text = format!(
                "endgame table {} changed: {}; dropped, reading it again",
                c.path.display(),
                c.change
            );
            log::warn!("{text}");
            self.out.line(&format!("info string {}", one_line(&text)));
            kept.remove(c.mover, c.other);
        }
        let kept = Arc::new(kept);
        self.set_tables(Some(Arc::clone(&kept)));
        let tx = self.events.clone();
        let request = self.tables_request;
        let spawned = std::thread::Builder::new()
            .name("moulin-tables".into())
            .spawn(move || {
                let read = changed
                    .into_iter()
                    .map(|c| {
                        let values = panic::catch_unwind(AssertUnwindSafe(|| {
                            kept.read_again(&c).map_err(|e| LoadError::Failed(e.into()))
                        }))
                        .unwrap_or_else(|p| Err(LoadError::Panicked(panic_message(&*p))));
                        (c, values)
                    })
                    .collect();
                let _ = tx.send(Event::TablesReread(request, read));
            });
        match spawned {
            Ok(_) => self.tables_rereading += 1,
            Err(e) => self.out.line(&format!(
                "info string error: cannot start the tables loader: {}",
                one_line(&e.to_string())
            )),
        }
    }

    /// Changed table files read again: each that is whole again is back in force.
    fn tables_reread(&mut self, request: u64, read: Vec<(TableChange, Result<Values, LoadError>)>) {
        if request != self.tables_request {
            return;
        }
        self.tables_rereading = self.tables_rereading.saturating_sub(1);
        if let Some(current) = &self.tables {
            let mut tables = Tables::clone(current);
            for (c, values) in read {
                match values {
                    Ok(values) => {
                        log::info!("endgame table {} read again and checked", c.path.display());
                        self.out.line(&format!(
                            "info string endgame table {} read again and checked: in force again",
                            one_line(&c.path.display().to_string())
                        ));
                        tables.insert(c.mover, c.other, values);
                    }
                    Err(e) => {
                        log::warn!(
                            "endgame tables: {e}; playing without {}-{}",
                            c.mover,
                            c.other
                        );
                        self.out.line(&format!(
                            "info string error: endgame tables: {}; playing without {}-{}",
                            one_line(&e.to_string()),
                            c.mover,
                            c.other
                        ));
                    }
                }
            }
            self.set_tables(Some(Arc::new(tables)));
        }
        self.answer_ready();
    }

    /// Puts tables in force, for the searcher too.
    fn set_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.tables = tables;
        if let Some(s) = self.searcher.as_mut() {
            s.options.tables.clone_from(&self.tables);
        }
    }

    /// A searcher made from the settings, with the tables in force.
    pub(super) fn new_searcher(&self) -> Searcher {
        let mut s = self.settings.new_searcher();
        s.options.tables.clone_from(&self.tables);
        s
    }

    /// Answers the `isready`s that wait, unless a book or tables are still being read.
    fn answer_ready(&mut self) {
        if !self.books.is_loading() && !self.waits_for_tables() {
            self.out
                .lines(std::iter::repeat_n("readyok", self.ready_waiting));
            self.ready_waiting = 0;
        }
    }

    /// Waits for the book or tables being read (at most `LOAD_WAIT`), keeping other input for
    /// later: a `go` sent before `readyok` answers from them.
    pub(super) fn wait_for_loading(&mut self) {
        let loading = |s: &Session| s.books.is_loading() || s.waits_for_tables();
        let loaded = |e: &Event| {
            matches!(
                e,
                Event::BookLoaded(..) | Event::TablesLoaded(..) | Event::TablesReread(..)
            )
        };
        if !self.wait_while(LOAD_WAIT, loading, loaded) {
            // The book is given up; tables still being read come into force when they are
            // read, for later moves.
            log::warn!("the opening book or tables took too long to read: this move without them");
            self.books.give_up();
            self.answer_ready();
        }
    }

    /// Whether `readyok` and `go` wait for tables being read. Not in GBGP: the GUI allows 5 s
    /// for `readyok` and its clock runs during `go`, while large tables take longer to read;
    /// they come into force once read.
    fn waits_for_tables(&self) -> bool {
        (self.tables_loading || self.tables_rereading > 0) && self.dialect == Dialect::Uci
    }

    /// Waits at most `limit` for a job told to stop to end (and answer).
    pub(super) fn wait_for_stopped_job(&mut self, limit: Duration) {
        let stopping = |s: &Session| s.job.as_ref().is_some_and(Job::stopped);
        let ended = |e: &Event| {
            matches!(
                e,
                Event::SearchDone(..)
                    | Event::SearchPanicked(_)
                    | Event::PerftDone(_)
                    | Event::BenchDone(_)
            )
        };
        self.wait_while(limit, stopping, ended);
    }

    /// Handles the `awaited` events as they come, keeping every other for later, while
    /// `waiting` holds, for at most `limit`; whether the wait ended before the limit.
    fn wait_while(
        &mut self,
        limit: Duration,
        waiting: impl Fn(&Session) -> bool,
        awaited: impl Fn(&Event) -> bool,
    ) -> bool {
        let deadline = Instant::now() + limit;
        while waiting(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(e) if awaited(&e) => {
                    self.handle(e);
                }
                Ok(e) => self.backlog.push_back(e),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return false,
            }
        }
        true
    }

    /// `stop`: the job ends as soon as it can; a held result is given at once.
    pub(super) fn stop(&mut self) {
        match self.job.as_mut() {
            Some(Job::Search(job)) => {
                job.stopped = true;
                self.control.stop();
                self.release();
            }
            Some(Job::Perft { stopped, .. } | Job::Bench { stopped }) => {
                *stopped = true;
                self.control.stop();
            }
            None => {}
        }
    }

    /// `uci` (or `gbgp`): the engine's name, its options, and `uciok` (or `gbgpok`).
    fn identify(&self) {
        let mut lines = vec![
            format!("id name moulin {}", env!("CARGO_PKG_VERSION")),
            "id author the moulin developers".to_string(),
        ];
        lines.extend(Settings::uci_lines());
        match self.dialect {
            Dialect::Uci => lines.push("uciok".into()),
            Dialect::Gbgp => {
                lines.push(gbgp::twelve_option_line(&self.settings.rules));
                lines.push(gbgp::HELLO_DONE.into());
            }
        }
        self.out.lines(lines);
    }

    /// `setoption name NAME [value VALUE]`.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Error> {
        let mut settings = self.settings.clone();
        let changed = match self.dialect {
            Dialect::Gbgp if gbgp::is_twelve(name) => {
                let twelve = gbgp::twelve_value(value).map_err(Error::Option)?;
                let rules = gbgp::rules(twelve);
                if rules == settings.rules {
                    // The same mode again: nothing to reset (nor tables to read again).
                    Changed::Protocol
                } else {
                    settings.rules = rules;
                    Changed::Rules
                }
            }
            _ => settings.set(name, value).map_err(Error::Option)?,
        };
        self.apply(settings, changed);
        Ok(())
    }

    /// `position ...`: the game from `start` after `moves`.
    fn set_position(&mut self, start: Start, moves: &[String]) -> Result<(), Error> {
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

    /// `moves`: the legal moves of the position, in the session's notation.
    fn list_moves(&self) {
        let moves = if self.game.outcome().is_some() {
            Vec::new()
        } else {
            movegen::legal_moves(self.game.position(), self.settings.notation)
        };
        let mut line = String::from("moves");
        for mv in moves {
            line.push(' ');
            line.push_str(&self.action_or_turn(mv));
        }
        self.out.line(&line);
    }

    /// Does what `cmd` asks. A command that needs the engine idle comes only when no job runs
    /// (`waiting`).
    pub(super) fn execute(&mut self, cmd: Command) -> Result<(), Error> {
        match cmd {
            Command::Uci => self.identify(),
            Command::Debug | Command::Quit => {}
            Command::IsReady => {
                if self.dialect == Dialect::Gbgp {
                    // The GUI takes a `bestmove` after `readyok` as a move of its next game:
                    // a stopped search answers first.
                    self.wait_for_stopped_job(STOP_WAIT);
                }
                self.check_tables();
                // Ready means a `go` is answered at once: not while the book is being read.
                self.ready_waiting += 1;
                self.answer_ready();
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::UciNewGame => {
                if let Some(s) = self.searcher.as_mut() {
                    s.new_game();
                }
                self.game = Game::new(self.settings.rules);
                self.books.forget_pending();
                self.overhead.reset();
            }
            Command::Position { start, moves } => self.set_position(start, &moves)?,
            Command::Go(go) => {
                // No table whose file changed since it was read is probed.
                self.check_tables();
                match go.perft {
                    Some(depth) => self.start_perft(depth)?,
                    None => self.start_search(&go)?,
                }
            }
            Command::Stop => self.stop(),
            Command::PonderHit => {
                if let Some(Job::Search(job)) = self.job.as_mut() {
                    if job.pondering {
                        job.pondering = false;
                        self.control.ponderhit();
                        self.release();
                    }
                }
            }
            Command::Display => self.out.lines(self.display()),
            Command::Fen => self.out.line(&match self.dialect {
                Dialect::Uci => fen::write(self.game.position()),
                Dialect::Gbgp => gbgp_position::write(self.game.position()),
            }),
            Command::Moves => self.list_moves(),
            Command::Eval => self.out.lines(self.eval()),
            Command::Perft(depth) => self.start_perft(depth)?,
            Command::Bench(depth) => {
                self.control.reset(false);
                jobs::spawn_bench(depth, self.reporting())?;
                self.job = Some(Job::Bench { stopped: false });
            }
            Command::Help => self.out.lines(HELP),
        }
        Ok(())
    }

    /// Puts changed settings in force and does what the change needs.
    fn apply(&mut self, settings: Settings, changed: Changed) {
        self.settings = settings;
        if self.searcher.is_none() {
            self.searcher = Some(self.new_searcher());
        }
        let searcher = self.searcher.as_mut().expect("made just above");
        match changed {
            Changed::Hash => searcher.set_hash(self.settings.hash_mb),
            Changed::Threads => searcher.set_threads(self.settings.threads),
            Changed::Search => self.settings.apply_to(searcher),
            Changed::Protocol => {}
            Changed::Rules => {
                self.game = Game::new(self.settings.rules);
                if self.settings.book_file.is_empty() {
                    // The default book follows the variant.
                    self.books.request(&self.settings, &self.events);
                }
                // Tables are read again when the moving phase's rules changed.
                let serves = self
                    .tables
                    .as_ref()
                    .is_some_and(|t| t.serves(&self.settings.rules));
                if !serves {
                    self.request_tables();
                }
            }
            Changed::Book => self.books.request(&self.settings, &self.events),
            Changed::Tables => self.request_tables(),
        }
    }

    /// Prints a held result once the search may answer.
    pub(super) fn release(&mut self) {
        let ready = matches!(&self.job, Some(Job::Search(j)) if j.held.is_some() && j.may_answer());
        if ready {
            if let Some(Job::Search(mut job)) = self.job.take() {
                if let Some(result) = job.held.take() {
                    self.answer(&job, &result);
                }
            }
        }
    }

    /// The end of a search: the result if the game is over, then `bestmove`.
    pub(super) fn answer(&mut self, job: &SearchJob, result: &SearchResult) {
        if job.clocked {
            self.overhead.answered(result.best);
        }
        let mut lines = Vec::new();
        if self.dialect == Dialect::Gbgp {
            // Nothing but the move: the GUI reads `info string` lines as search progress.
            self.out
                .line(&bestmove_line(&job.root, result, job.notation));
            return;
        }
        if let Some(outcome) = result.outcome {
            lines.push(format!(
                "info string game over: {} {}",
                outcome.score(),
                outcome.describe()
            ));
        }
        if let Some(v) = result.table {
            lines.push(format!("info string tables {v} dtc {}", v.distance()));
        }
        if let Some(v) = result.solved {
            lines.push(format!(
                "info string placing solution {}",
                crate::search::exact::name(v)
            ));
        }
        lines.push(bestmove_line(&job.root, result, job.notation));
        self.out.lines(lines);
    }

    pub(super) fn action_or_turn(&self, mv: Move) -> String {
        mv.written(self.settings.notation)
    }
    /// `go`: answers at once when the game is over or the book knows the position, otherwise
    /// starts the search.
    pub(super) fn start_search(&mut self, go: &Go) -> Result<(), Error> {
        let root = *self.game.position();
        let mut limits = jobs::limits(go, &root)?;
        let clocked = self.learn_overhead(&limits);
        if self.settings.overhead == OverheadReserve::Learned {
            limits.reserve = self.overhead.reserve();
        }
        let notation = self.settings.notation;
        let mut job = SearchJob {
            clocked,
            ends: Ends::of(go),
            pondering: go.ponder,
            stopped: false,
            held: None,
            notation,
            root,
            fallback: limits.searchmoves.first().copied().or_else(|| {
                movegen::legal_moves(&root, Convention::Turn)
                    .first()
                    .copied()
            }),
        };
        let outcome = self.game.outcome();
        // The book is the full engine's (a limited level searches every move).
        let book =
            if outcome.is_none() && go.searchmoves.is_empty() && self.settings.strength().is_none()
            {
                self.wait_for_loading();
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
        let book = book.map(|b| (b.lines(&root, notation, self.dialect), b.result));
        let checked =
            root.is_placing() && self.tables.is_some() && !self.books.has_pending() && !proven;
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
                self.answer(&job, &result);
            } else {
                job.held = Some(result);
                self.job = Some(Job::Search(Box::new(job)));
            }
            return Ok(());
        }
        let searcher = self.searcher.take().unwrap_or_else(|| self.new_searcher());
        self.control.reset(go.ponder);
        jobs::spawn_search(
            searcher,
            self.game.clone(),
            limits,
            book_to_check,
            notation,
            self.dialect,
            self.reporting(),
        )?;
        self.job = Some(Job::Search(Box::new(job)));
        Ok(())
    }

    /// A `go` with the side to move's clock, not pondering: the GUI's charge of the previous
    /// move is learned (`Overhead::asked`), and said when it changed by much (`info string` in
    /// UCI; the GBGP GUI would take it for search progress, so there it is only logged). Whether
    /// the `go` had such a clock (its answer is then timed, `Overhead::answered`).
    fn learn_overhead(&mut self, limits: &crate::search::Limits) -> bool {
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
            if self.dialect == Dialect::Uci {
                self.out.line(&format!("info string {text}"));
            }
        }
        true
    }

    /// Whether the placing solution decides the move in `root`: it covers the position, and the
    /// search follows it (`SolvedPlacing` not `off`, one line).
    fn solution_decides(&self, root: &Position) -> bool {
        self.settings.solved_placing != SolvedChoice::Off
            && self.settings.multipv == 1
            && self
                .tables
                .as_ref()
                .is_some_and(|t| t.serves(root.rules()) && t.placing_value(root).is_some())
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

    /// What a job thread needs to report back.
    fn reporting(&self) -> Reporting {
        Reporting {
            control: Arc::clone(&self.control),
            events: self.events.clone(),
            out: self.out.clone(),
        }
    }
}
