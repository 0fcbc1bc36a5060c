//! The session: one conversation (its dialect, the output, the lines waiting for the running
//! job or for the book or tables being read, the replies), driving the engine
//! (`crate::engine::Engine`), as Stockfish's `uci` loop drives its `Engine`; the engine's
//! reports come through the session's `Relay`. The engine loop (the
//! caller of `run`) reads each line as it comes, so input is never held up by a search: a line
//! is obeyed at once or waits in its turn (`waiting`).

use super::command::{self, Command, CommandError, Go, Start};
use super::dialect::Dialect;
use super::display;
use super::event::Event;
use super::gbgp;
use super::relay::Relay;
use super::reply::{answer_lines, error_line, inventory_lines, one_line, Error, Out, HELP};
use super::waiting::{Line, Timing, Waiting};
use crate::engine::{panic_message, Done, Engine, SearchAnswer, Settings, GBGP_PRIOR_MS};
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::gbgp_position;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use std::collections::VecDeque;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a GBGP `isready` waits for a stopped job to give its `bestmove` first.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// How long a `go` waits for the book or tables being read before it plays without them.
const LOAD_WAIT: Duration = Duration::from_secs(10);

/// How often the tables' files are looked at while a search runs (`check_tables`: a `stat` a
/// file, about 3 µs each).
const TABLES_WATCH: Duration = Duration::from_millis(100);

/// How long `quit` waits for a stopped search to give its `bestmove`.
const QUIT_WAIT: Duration = Duration::from_millis(40);

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The conversation, and the engine it drives.
pub(super) struct Session {
    out: Out,
    dialect: Dialect,
    /// A line that was not blank came: the dialect is settled.
    greeted: bool,
    /// The engine: settings, game, searcher, job, books, tables, network, overhead.
    engine: Engine,
    /// What the engine reports, worded in the dialect.
    relay: Arc<Relay>,
    /// Commands waiting for the job to end, in order.
    waiting: Waiting,
    incoming: Receiver<Event>,
    /// Events received while waiting for a stopped job, to handle next.
    backlog: VecDeque<Event>,
    /// `quit` came, or the end of input: an `isready` still waiting for the book or tables
    /// waits for them at most `LOAD_WAIT`, then is answered.
    ending: bool,
    /// What the engine last said it knows (`say_inventory`), if it said it.
    said_inventory: Option<[String; 4]>,
}

impl Session {
    /// A session that reads `incoming` (lines, and the reports of the threads that `events`
    /// reaches).
    pub(super) fn new(events: SyncSender<Event>, incoming: Receiver<Event>) -> Session {
        let out = Out::new(events.clone());
        let relay = Arc::new(Relay::new(out.clone(), events));
        Session {
            engine: Engine::new(relay.clone()),
            relay,
            out,
            dialect: Dialect::Uci,
            greeted: false,
            waiting: Waiting::default(),
            incoming,
            backlog: VecDeque::new(),
            ending: false,
            said_inventory: None,
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
        self.engine.load();
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
    /// any other runs to its end and answers. An `isready` waiting for the book or tables is
    /// answered once they are read (at most `LOAD_WAIT`).
    fn end_of_input(&mut self) {
        self.ending = true;
        loop {
            if self.run_waiting() == Flow::Quit || self.out.is_gone() {
                return;
            }
            if self.engine.is_idle() && self.waiting.is_empty() {
                break;
            }
            if self.engine.runs_until_stop() {
                self.stop();
                continue;
            }
            let Some(event) = self.next_event() else {
                break;
            };
            if self.handle(event) == Flow::Quit {
                return;
            }
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
            if self.engine.is_idle() {
                return self.incoming.recv().ok();
            }
            match self.incoming.recv_timeout(TABLES_WATCH) {
                Ok(e) => return Some(e),
                Err(RecvTimeoutError::Timeout) => self.engine.check_tables(),
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Does what `event` asks: a line is obeyed or waits; a thread's report goes to the engine,
    /// and what it ends is answered.
    fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(text) => return self.arrived(Line::Text(text)),
            Event::TooLong(n) => return self.arrived(Line::TooLong(n)),
            Event::Eof => {
                self.end_of_input();
                return Flow::Quit;
            }
            Event::OutputGone => return Flow::Quit,
            // A read's end: an `isready` waiting for it is answered in its turn
            // (`run_waiting`).
            Event::Engine(done) => {
                if let Done::SearchPanicked(msg) = &*done {
                    self.error_text(&format!("internal error in the search: {}", one_line(msg)));
                }
                let answer = self.engine.done(*done);
                self.say(answer);
            }
        }
        Flow::Continue
    }

    /// A line of input: obeyed at once, or kept to be obeyed in its turn (`run_waiting`).
    fn arrived(&mut self, line: Line) -> Flow {
        let parsed = self.parse(&line);
        if let Ok(None) = parsed {
            return Flow::Continue;
        }
        let timing = Timing::of(&parsed, self.dialect);
        let nothing_waits = self.waiting.is_empty();
        if timing == Timing::StopFirst && nothing_waits {
            self.stop();
        }
        let now = match timing {
            Timing::AtOnce => true,
            Timing::InTurn | Timing::Free => nothing_waits,
            Timing::Ready | Timing::WhenLoaded => nothing_waits && self.is_ready(),
            Timing::Idle | Timing::StopFirst => nothing_waits && self.engine.is_idle(),
        };
        match parsed {
            Ok(Some(Command::Stop)) => self.waiting.stop(),
            // A `quit` that waits its turn: an `isready` before it is not kept waiting long.
            Ok(Some(Command::Quit)) if !now => self.ending = true,
            _ => {}
        }
        if now {
            return self.obey(parsed);
        }
        let timing = if timing == Timing::Ready && nothing_waits {
            Timing::WhenLoaded
        } else {
            timing
        };
        if let Err(line) = self.waiting.push(line, timing) {
            let shown = match line {
                Line::Text(text) => crate::text::quoted(text.trim()),
                Line::TooLong(n) => format!("a line of {n} bytes"),
            };
            self.error(&Error::Dropped(shown));
        }
        Flow::Continue
    }

    /// Obeys the waiting lines whose turn has come, in order, until one must wait for the job
    /// running (or a `quit`).
    fn run_waiting(&mut self) -> Flow {
        while let Some(timing) = self.waiting.front() {
            let turn = match timing {
                Timing::AtOnce | Timing::Free => true,
                Timing::InTurn => self.engine.is_idle() || self.engine.runs_until_stop(),
                Timing::Ready => {
                    (self.engine.is_idle() || self.engine.runs_until_stop()) && self.is_ready()
                }
                Timing::WhenLoaded => self.is_ready(),
                Timing::Idle => self.engine.is_idle(),
                Timing::StopFirst => {
                    self.stop();
                    self.engine.is_idle()
                }
            };
            if !turn {
                break;
            }
            let Some((line, stopped)) = self.waiting.pop() else {
                break;
            };
            let parsed = self.parse(&line);
            if self.obey(parsed) == Flow::Quit {
                return Flow::Quit;
            }
            if stopped {
                self.stop();
            }
        }
        Flow::Continue
    }

    /// A line understood in the session's dialect; the first line that is not blank settles
    /// the dialect (`gbgp` starts GBGP).
    fn parse(&mut self, line: &Line) -> Result<Option<Command>, CommandError> {
        let text = match line {
            Line::Text(text) => text,
            Line::TooLong(n) => return Err(CommandError::TooLong(*n)),
        };
        log::debug!("<< {text}");
        let parsed = match self.dialect {
            Dialect::Uci if !self.greeted && text.trim() == gbgp::HELLO => {
                self.start_gbgp();
                gbgp::parse(text)
            }
            Dialect::Uci => command::parse(text),
            Dialect::Gbgp => gbgp::parse(text),
        };
        self.greeted |= !text.trim().is_empty();
        parsed
    }

    /// Does what a parsed line says (an error line if it is malformed or refused).
    fn obey(&mut self, parsed: Result<Option<Command>, CommandError>) -> Flow {
        match parsed {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => return Flow::Quit,
            Ok(Some(cmd)) => {
                let done = panic::catch_unwind(AssertUnwindSafe(|| self.execute(cmd)));
                match done {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => self.error(&e),
                    Err(p) => self.error_text(&format!(
                        "internal error: {}",
                        one_line(&panic_message(&*p))
                    )),
                }
            }
            Err(e) => self.error(&Error::Command(e)),
        }
        Flow::Continue
    }

    /// Does what `cmd` asks. A command that needs the engine idle comes only when no job runs
    /// (`waiting`).
    fn execute(&mut self, cmd: Command) -> Result<(), Error> {
        match cmd {
            Command::Uci => self.identify(),
            Command::Debug | Command::Quit => {}
            Command::IsReady => {
                // Its turn comes once the book and tables are in force (`is_ready`).
                if self.dialect == Dialect::Gbgp {
                    // The GUI takes a `bestmove` after `readyok` as a move of its next game:
                    // a stopped search answers first.
                    self.wait_for_stopped_job(STOP_WAIT);
                }
                self.say_inventory(true);
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => self.set_position(start, &moves)?,
            Command::Go(go) => {
                // No table whose file changed since it was read is probed.
                self.engine.check_tables();
                match go.perft {
                    Some(depth) => self.engine.start_perft(depth)?,
                    None => self.go(&go)?,
                }
            }
            Command::Stop => self.stop(),
            Command::PonderHit => {
                let answer = self.engine.ponderhit();
                self.say(answer);
            }
            Command::Display => self
                .out
                .lines(display::board(self.engine.game(), self.engine.settings())),
            Command::Fen => {
                let pos = self.engine.game().position();
                self.out.line(&match self.dialect {
                    Dialect::Uci => fen::write(pos),
                    Dialect::Gbgp => gbgp_position::write(pos),
                });
            }
            Command::Moves => self.list_moves(),
            Command::Eval => {
                let pos = self.engine.game().position();
                self.out.lines(display::terms(pos));
                let evaluation = self.engine.inventory().evaluation;
                let network = self.engine.network().map(|n| &**n);
                self.out
                    .line(&display::network_line(pos, network, &evaluation));
            }
            Command::Perft(depth) => self.engine.start_perft(depth)?,
            Command::Bench(depth) => self.engine.start_bench(depth)?,
            Command::Help => self.out.lines(HELP),
        }
        Ok(())
    }

    /// The error line of a refused command.
    fn error(&self, e: &Error) {
        let text = one_line(&e.to_string());
        log::debug!("refused: {text}");
        self.error_text(&text);
    }

    /// One error line, in the dialect's form.
    fn error_text(&self, text: &str) {
        self.out.line(&error_line(text, self.dialect));
    }

    /// The first line was `gbgp`: the GUI's rules and notation from now on.
    fn start_gbgp(&mut self) {
        log::info!("speaking GBGP");
        self.dialect = Dialect::Gbgp;
        self.relay.set_dialect(Dialect::Gbgp);
        self.engine.set_notation(Convention::Turn);
        self.engine.set_rules(gbgp::rules(false));
    }

    /// Whether an `isready` may be answered now: ready means a `go` is answered at once, so not
    /// while the book or tables are being read (table files changed since they were read are
    /// looked for first, and read again). When the session ends (`quit` behind it, or the end
    /// of input), nothing will come after it: it waits for them at most `LOAD_WAIT`, then is
    /// answered.
    fn is_ready(&mut self) -> bool {
        self.engine.check_tables();
        if !self.is_loading() {
            return true;
        }
        if self.ending {
            self.wait_for_loading();
            return true;
        }
        false
    }

    /// Whether the book, or tables that `readyok` waits for, are being read.
    fn is_loading(&self) -> bool {
        self.engine.book_is_loading() || self.waits_for_tables()
    }

    /// Waits for the book or tables being read (at most `LOAD_WAIT`), keeping other input for
    /// later: a `go` sent before `readyok` answers from them.
    fn wait_for_loading(&mut self) {
        let loading = Session::is_loading;
        let loaded = |e: &Event| matches!(e, Event::Engine(d) if d.ends_read());
        if !self.wait_while(LOAD_WAIT, loading, loaded) {
            // The book is given up; tables still being read come into force when they are
            // read, for later moves.
            log::warn!(
                "the opening book or tables took more than {} s to read: going on without them \
                 for now",
                LOAD_WAIT.as_secs()
            );
            self.engine.give_up_book();
        }
    }

    /// Whether `readyok` and `go` wait for tables being read. Not in GBGP: the GUI allows 5 s
    /// for `readyok` and its clock runs during `go`, while large tables take longer to read;
    /// they come into force once read.
    fn waits_for_tables(&self) -> bool {
        self.engine.tables_are_reading() && self.dialect == Dialect::Uci
    }

    /// Waits at most `limit` for a job told to stop to end (and answer).
    fn wait_for_stopped_job(&mut self, limit: Duration) {
        let stopping = |s: &Session| s.engine.is_stopping();
        let ended = |e: &Event| matches!(e, Event::Engine(d) if d.ends_job());
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
    fn stop(&mut self) {
        let answer = self.engine.stop();
        self.say(answer);
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
                lines.push(gbgp::twelve_option_line(&self.engine.settings().rules));
                lines.push(gbgp::HELLO_DONE.into());
            }
        }
        self.out.lines(lines);
    }

    /// `setoption name NAME [value VALUE]`: in GBGP, its `Twelve` option too.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Error> {
        match self.dialect {
            Dialect::Gbgp if gbgp::is_twelve(name) => {
                // The same mode again changes nothing (nor are tables read again).
                let twelve = gbgp::twelve_value(value).map_err(Error::Option)?;
                self.engine.set_rules(gbgp::rules(twelve));
            }
            _ => self.engine.set_option(name, value).map_err(Error::Option)?,
        }
        Ok(())
    }

    /// `position ...`: the game from `start` after `moves`, under the rules in force.
    fn set_position(&mut self, start: Start, moves: &[String]) -> Result<(), Error> {
        let rules = self.engine.settings().rules;
        let mut game = match start {
            Start::StartPos => Game::new(rules),
            Start::Fen(text) => Game::from_fen(&text, rules).map_err(Error::Fen)?,
            Start::Gbgp(text) => gbgp_position::read(&text, &rules)
                .map(Game::from_position)
                .map_err(Error::Fen)?,
        };
        game.play_tokens(moves.iter().map(String::as_str))
            .map_err(|(i, e)| Error::Move(i, e))?;
        self.engine.set_game(game);
        Ok(())
    }

    /// `moves`: the legal moves of the position, in the session's notation.
    fn list_moves(&self) {
        let game = self.engine.game();
        let notation = self.engine.settings().notation;
        let moves = if game.outcome().is_some() {
            Vec::new()
        } else {
            movegen::legal_moves(game.position(), notation)
        };
        let mut line = String::from("moves");
        for mv in moves {
            line.push(' ');
            line.push_str(&mv.written(notation));
        }
        self.out.line(&line);
    }

    /// `go`: answers at once when the game is over or the book knows the position, otherwise
    /// starts the search. A `go` the book may answer waits for the book or tables being read.
    fn go(&mut self, go: &Go) -> Result<(), Error> {
        // GBGP is the Nine Morris 3D GUI's: its known charge until the game teaches one. A UCI
        // GUI or match runner may charge nothing: only what is learned.
        let prior_ms = match self.dialect {
            Dialect::Gbgp => GBGP_PRIOR_MS,
            Dialect::Uci => 0,
        };
        let plan = self.engine.plan_search(go, prior_ms)?;
        if plan.consults_book() {
            self.wait_for_loading();
        }
        self.say_inventory(false);
        self.relay.search_starts();
        let answer = self.engine.start_search(plan)?;
        self.say(answer);
        Ok(())
    }

    /// In UCI, what the engine knows besides its search, a line a part (`info string`), when
    /// it changed since last said (`again`: at `isready`) or was never said (at `go`). The
    /// book and the tables are in force by then: `isready` waits for them.
    fn say_inventory(&mut self, again: bool) {
        if self.dialect != Dialect::Uci || (!again && self.said_inventory.is_some()) {
            return;
        }
        let lines = self.engine.inventory().lines();
        if self.said_inventory.as_ref() != Some(&lines) {
            self.out.lines(inventory_lines(&lines));
            self.said_inventory = Some(lines);
        }
    }

    /// The end of a search, if it came: what the result knows exactly, then `bestmove`.
    fn say(&self, answer: Option<SearchAnswer>) {
        if let Some(answer) = answer {
            self.out.lines(answer_lines(&answer, self.dialect));
        }
    }
}
