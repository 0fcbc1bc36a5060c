//! The protocol of protocol.md: a UCI-style conversation on stdin/stdout.
//!
//! Three kinds of thread take part. A reader thread turns stdin into lines (bytes, decoded
//! lossily, each at most `command::MAX_LINE` long) and sends them over a channel. The engine loop
//! (the caller of `run`) owns the game, the settings and the searcher; it parses each line into a
//! `Command` and acts on it at once, so input is never held up by a search. `go` and `perft` run
//! on a worker thread of their own that reports back over the same channel; `stop` and
//! `ponderhit` reach it through the shared `Control`. Only this module prints, one whole line at a
//! time under the stdout lock, flushed at once, so lines never interleave.
//!
//! The opening book (`crate::book`) is loaded at start on a thread of its own; in a book
//! position `go` answers at once from it instead of starting a search.

mod command;
mod options;

pub use command::{parse, Command, CommandError, Go, Start, MAX_LINE};
pub use options::{Changed, OptionError, Settings};

use crate::book::{self, Book};
use crate::rng::Rng;
use crate::rules::board::{BoardKind, ByColor, Point};
use crate::rules::fen::{self, FenError};
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::notation::{self, MoveError};
use crate::rules::perft;
use crate::rules::position::Position;
use crate::search::eval;
use crate::search::tt::Bound;
use crate::search::{Control, Info, Limits, Score, SearchResult, Searcher};
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Runs the protocol on stdin/stdout until `quit` or the end of input.
pub fn run() -> io::Result<()> {
    let (tx, rx) = mpsc::sync_channel(256);
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("moulin-input".into())
        .spawn(move || read_lines(io::stdin().lock(), &reader_tx))?;
    Engine::new(tx, rx).run();
    Ok(())
}

/// What the engine loop waits for.
enum Event {
    /// One line of input.
    Line(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped whole.
    TooLong(usize),
    /// The end of input.
    Eof,
    /// The search thread is done and gives the searcher back.
    SearchDone(Box<Searcher>, SearchResult),
    /// The search thread panicked (a bug): the searcher is lost.
    SearchPanicked(String),
    /// Perft finished (`Some(total, time)`) or was stopped (`None`).
    PerftDone(Option<(u64, Duration)>),
}

/// Splits `input` into lines and sends them, then `Eof`. Never holds more than `MAX_LINE` bytes
/// of one line.
fn read_lines(mut input: impl BufRead, tx: &SyncSender<Event>) {
    let mut line = Vec::new();
    let mut dropped = 0usize;
    let event = |line: &[u8], dropped: usize| {
        if dropped > 0 {
            Event::TooLong(line.len() + dropped)
        } else {
            Event::Line(String::from_utf8_lossy(line).into_owned())
        }
    };
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading input: {e}");
                break;
            }
        };
        if buf.is_empty() {
            if !line.is_empty() || dropped > 0 {
                let _ = tx.send(event(&line, dropped));
            }
            break;
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let take = chunk.len().min(MAX_LINE.saturating_sub(line.len()));
        line.extend_from_slice(&chunk[..take]);
        dropped = dropped.saturating_add(chunk.len() - take);
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            if tx.send(event(&line, dropped)).is_err() {
                return;
            }
            line.clear();
            dropped = 0;
        }
    }
    let _ = tx.send(Event::Eof);
}

/// The only writer of stdout.
#[derive(Clone, Copy)]
struct Out;

impl Out {
    fn line(self, text: &str) {
        self.lines([text]);
    }

    /// Writes lines under one lock, so that no other thread's line comes between them.
    fn lines<S: AsRef<str>>(self, lines: impl IntoIterator<Item = S>) {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for line in lines {
            let line = line.as_ref();
            log::trace!(">> {line}");
            // A closed stdout is not worth dying for: the next read will see the end of input.
            let _ = writeln!(out, "{line}").and_then(|_| out.flush());
        }
    }
}

/// Why a command was refused. Every error is one line `info string error: <this>`.
#[derive(Debug)]
enum Error {
    Command(CommandError),
    Option(OptionError),
    Fen(FenError),
    /// A move of `position ... moves` (index from 0).
    Move(usize, MoveError),
    SearchMove(MoveError),
    NotInSearch(String),
    Busy(&'static str),
    Thread(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Command(e) => e.fmt(f),
            Error::Option(e) => e.fmt(f),
            Error::Fen(e) => write!(f, "position: {e}"),
            Error::Move(i, e) => write!(f, "position: move {}: {e}", i + 1),
            Error::SearchMove(e) => write!(f, "go searchmoves: {e}"),
            Error::NotInSearch(t) => write!(
                f,
                "go searchmoves: '{}' is no legal move here",
                command::shown(t)
            ),
            Error::Busy(what) => write!(f, "{what} is running: send stop first"),
            Error::Thread(e) => write!(f, "cannot start a thread: {e}"),
        }
    }
}

impl From<CommandError> for Error {
    fn from(e: CommandError) -> Error {
        Error::Command(e)
    }
}

/// Makes any text one safe output line: control characters escaped, at most 400 characters.
fn one_line(text: &str) -> String {
    command::printable(text, 400)
}

/// A search in progress, or finished and waiting to be released.
struct SearchJob {
    infinite: bool,
    /// Pondering, and no `ponderhit` yet.
    pondering: bool,
    /// `stop` came.
    stopped: bool,
    /// The result, held back while the search is infinite or pondering (UCI).
    held: Option<SearchResult>,
    notation: Convention,
    /// The root, to tell whether the best move ends our turn (then a ponder move is shown).
    root: Position,
    /// A legal move to answer with if the search thread dies.
    fallback: Option<Move>,
}

impl SearchJob {
    fn may_answer(&self) -> bool {
        self.stopped || (!self.infinite && !self.pondering)
    }
}

enum Job {
    Search(Box<SearchJob>),
    Perft { depth: u32, stopped: bool },
}

impl Job {
    fn stopped(&self) -> bool {
        match self {
            Job::Search(j) => j.stopped,
            Job::Perft { stopped, .. } => *stopped,
        }
    }
}

/// How long a command that follows `stop` waits for the stopped job to end before it is refused.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// How long `quit` waits for a stopped search to give its `bestmove`.
const QUIT_WAIT: Duration = Duration::from_millis(40);

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The engine loop's state.
struct Engine {
    out: Out,
    settings: Settings,
    game: Game,
    /// `None` while a search thread has it.
    searcher: Option<Searcher>,
    control: Arc<Control>,
    job: Option<Job>,
    /// For the worker threads to report on.
    events: SyncSender<Event>,
    incoming: Receiver<Event>,
    /// Events received while waiting for a stopped job, to handle next.
    backlog: VecDeque<Event>,
    /// The opening book.
    book: BookSlot,
    /// Every book loaded so far, by path: switching variants back and forth reads a file once.
    loaded_books: Vec<(PathBuf, Arc<Book>)>,
    /// A book turn answered in part (its step alone under `MoveNotation action`, or the first of
    /// two removals): the position it leaves and the whole turn, so that the next `go` in that
    /// position answers the rest of the turn.
    book_pending: Option<(Position, book::BookMove)>,
    /// For the weighted choice of book moves.
    random: Rng,
}

/// The opening book, loaded at start on a thread of its own and waited for at the first `go`.
enum BookSlot {
    None,
    Loading(thread::JoinHandle<Option<(PathBuf, Book)>>),
    Ready(Arc<Book>),
}

/// The book file the settings name: `BookFile`, or the default book of the variant in force
/// (`None` for custom rules, which have none).
fn book_path(settings: &Settings) -> Option<PathBuf> {
    if !settings.book_file.is_empty() {
        return Some(PathBuf::from(&settings.book_file));
    }
    let variant = settings.rules.preset_name()?;
    book::find_default(variant).or_else(|| {
        log::warn!(
            "no opening book for variant {variant} ({} not found next to the executable nor in the \
             repository's book/): playing without one",
            book::file_name(variant)
        );
        None
    })
}

/// Loads a book: a missing file is a warning on stderr, a corrupt one an `info string error`
/// naming the line; either way the engine plays without a book.
fn load_book(path: PathBuf, out: Out) -> Option<(PathBuf, Book)> {
    if !path.is_file() {
        log::warn!(
            "opening book {} not found: playing without one",
            path.display()
        );
        return None;
    }
    match Book::load(&path) {
        Ok(b) => {
            log::info!("opening book {}: {} positions", path.display(), b.len());
            Some((path, b))
        }
        Err(e) => {
            out.line(&format!(
                "info string error: opening book {}; playing without a book",
                one_line(&e.to_string())
            ));
            None
        }
    }
}

impl Engine {
    fn new(events: SyncSender<Event>, incoming: Receiver<Event>) -> Engine {
        let settings = Settings::default();
        Engine {
            out: Out,
            game: Game::new(settings.rules),
            searcher: Some(new_searcher(&settings)),
            settings,
            control: Arc::new(Control::new()),
            job: None,
            events,
            incoming,
            backlog: VecDeque::new(),
            book: BookSlot::None,
            loaded_books: Vec::new(),
            book_pending: None,
            random: Rng::from_time(),
        }
    }

    /// Starts loading the book of the settings on a thread of its own.
    fn load_book_in_background(&mut self) {
        if !self.settings.own_book {
            return;
        }
        let Some(path) = book_path(&self.settings) else {
            return;
        };
        let out = self.out;
        self.book = match thread::Builder::new()
            .name("moulin-book".into())
            .spawn(move || load_book(path, out))
        {
            Ok(handle) => BookSlot::Loading(handle),
            Err(e) => {
                log::warn!("cannot start the book loader: {e}; playing without a book");
                BookSlot::None
            }
        };
    }

    /// Loads the book the settings name now (after `setoption`), unless it is already loaded.
    fn reload_book(&mut self) {
        self.book_pending = None;
        let wanted = if self.settings.own_book {
            book_path(&self.settings)
        } else {
            None
        };
        self.wait_for_book();
        let Some(wanted) = wanted else {
            self.book = BookSlot::None;
            return;
        };
        if let Some((_, b)) = self.loaded_books.iter().find(|(p, _)| *p == wanted) {
            self.book = BookSlot::Ready(Arc::clone(b));
            return;
        }
        self.book = match load_book(wanted, self.out) {
            Some((p, b)) => {
                let b = Arc::new(b);
                self.loaded_books.push((p, Arc::clone(&b)));
                BookSlot::Ready(b)
            }
            None => BookSlot::None,
        };
    }

    /// Waits for a book being loaded.
    fn wait_for_book(&mut self) {
        if let BookSlot::Loading(_) = self.book {
            let BookSlot::Loading(handle) = std::mem::replace(&mut self.book, BookSlot::None)
            else {
                unreachable!("matched above")
            };
            if let Ok(Some((p, b))) = handle.join() {
                let b = Arc::new(b);
                self.loaded_books.push((p, Arc::clone(&b)));
                self.book = BookSlot::Ready(b);
            }
        }
    }

    /// The book's answer in the current position, if it has one: the `info string book` line
    /// and the result to give as `bestmove`.
    fn book_answer(&mut self) -> Option<(String, SearchResult)> {
        if !self.settings.own_book {
            return None;
        }
        self.wait_for_book();
        let BookSlot::Ready(book) = &self.book else {
            return None;
        };
        let book = Arc::clone(book);
        let pos = *self.game.position();
        let legal = movegen::legal_moves(&pos, Convention::Turn);
        let (bm, chosen) = match self.book_pending.take() {
            // The removal of a book turn whose step was answered alone.
            Some((after_step, bm)) if after_step == pos => {
                let removal = legal.iter().copied().find(|m| {
                    m.is_removal_only() && m.removals().all(|r| bm.mv.removals().any(|t| t == r))
                })?;
                (bm, removal)
            }
            _ => {
                let bm = book.choose(&pos, self.settings.book_variety, self.random.unit())?;
                if !legal.contains(&bm.mv) {
                    return None;
                }
                (bm, bm.mv)
            }
        };
        let mut after = pos;
        after.play(chosen);
        if after.pending_removals() > 0 {
            // One of two removals: the next `go` answers the other.
            self.book_pending = Some((after, bm));
        } else if self.settings.notation == Convention::Action
            && chosen.to().is_some()
            && chosen.removal_count() > 0
        {
            // `bestmove` shows the step alone: the next `go` answers the removal.
            let mut after_step = pos;
            after_step.play(chosen.without_removals());
            self.book_pending = Some((after_step, bm));
        }
        let ponder = book
            .probe(&after)
            .and_then(|moves| moves.first().map(|m| m.mv));
        let score = match bm.score {
            Score::Cp(x) => format!("cp {x}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        let info = format!(
            "info string book {} score {score} weight {}",
            bm.mv.turn_notation(),
            bm.weight
        );
        Some((
            info,
            SearchResult {
                best: Some(chosen),
                ponder,
                score: bm.score,
                depth: 0,
                nodes: 0,
                outcome: None,
            },
        ))
    }

    fn run(mut self) {
        self.load_book_in_background();
        loop {
            let event = match self.backlog.pop_front() {
                Some(e) => e,
                None => match self.incoming.recv() {
                    Ok(e) => e,
                    Err(_) => break,
                },
            };
            if self.handle(event) == Flow::Quit {
                break;
            }
        }
        // Quit: a running job is stopped and, if it ends at once, answers; the process ends
        // with this thread either way.
        self.stop();
        self.wait_for_stopped_job(QUIT_WAIT);
    }

    fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(text) => {
                log::debug!("<< {text}");
                match command::parse(&text) {
                    Ok(None) => {}
                    Ok(Some(Command::Quit)) => return Flow::Quit,
                    Ok(Some(cmd)) => {
                        let done = panic::catch_unwind(AssertUnwindSafe(|| self.execute(cmd)));
                        match done {
                            Ok(Ok(())) => {}
                            Ok(Err(e)) => self.error(&e),
                            Err(p) => self.out.line(&format!(
                                "info string error: internal error: {}",
                                one_line(&panic_message(p))
                            )),
                        }
                    }
                    Err(e) => self.error(&Error::Command(e)),
                }
            }
            Event::TooLong(n) => self.error(&Error::Command(CommandError::TooLong(n))),
            Event::Eof => return Flow::Quit,
            Event::SearchDone(searcher, result) => {
                self.searcher = Some(*searcher);
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
                self.out.line(&format!(
                    "info string error: internal error in the search: {}",
                    one_line(&msg)
                ));
                if let Some(Job::Search(job)) = self.job.take() {
                    let result = SearchResult {
                        best: job.fallback,
                        ponder: None,
                        score: Score::Cp(0),
                        depth: 0,
                        nodes: 0,
                        outcome: None,
                    };
                    self.answer(&job, &result);
                }
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
        }
        Flow::Continue
    }

    fn error(&self, e: &Error) {
        let text = one_line(&e.to_string());
        log::debug!("refused: {text}");
        self.out.line(&format!("info string error: {text}"));
    }

    /// Refuses commands that need the searcher or the worker while a job runs. A job that was
    /// told to stop is waited for (briefly), so that `stop` then `go` works without waiting for
    /// `bestmove` in between; input that arrives meanwhile is kept for later.
    fn idle(&mut self) -> Result<(), Error> {
        self.wait_for_stopped_job(STOP_WAIT);
        match self.job {
            None => Ok(()),
            Some(Job::Search(_)) => Err(Error::Busy("a search")),
            Some(Job::Perft { .. }) => Err(Error::Busy("perft")),
        }
    }

    /// Waits at most `limit` for a job told to stop to end (and answer).
    fn wait_for_stopped_job(&mut self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while self.job.as_ref().is_some_and(Job::stopped) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(
                    e @ (Event::SearchDone(..) | Event::SearchPanicked(_) | Event::PerftDone(_)),
                ) => {
                    self.handle(e);
                }
                Ok(e) => self.backlog.push_back(e),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
    }

    /// `stop`: the job ends as soon as it can; a held result is given at once.
    fn stop(&mut self) {
        match self.job.as_mut() {
            Some(Job::Search(job)) => {
                job.stopped = true;
                self.control.stop();
                self.release();
            }
            Some(Job::Perft { stopped, .. }) => {
                *stopped = true;
                self.control.stop();
            }
            None => {}
        }
    }

    fn execute(&mut self, cmd: Command) -> Result<(), Error> {
        match cmd {
            Command::Uci => {
                let mut lines = vec![
                    format!("id name moulin {}", env!("CARGO_PKG_VERSION")),
                    "id author the moulin developers".to_string(),
                ];
                lines.extend(Settings::uci_lines());
                lines.push("uciok".into());
                self.out.lines(lines);
            }
            Command::Debug => {}
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => {
                self.idle()?;
                let mut settings = self.settings.clone();
                let changed = settings
                    .set(&name, value.as_deref())
                    .map_err(Error::Option)?;
                self.settings = settings;
                let searcher = self
                    .searcher
                    .get_or_insert_with(|| new_searcher(&self.settings));
                match changed {
                    Changed::Hash => searcher.set_hash(self.settings.hash_mb),
                    Changed::Threads => searcher.set_threads(self.settings.threads),
                    Changed::Search => apply_options(searcher, &self.settings),
                    Changed::Protocol => {}
                    Changed::Rules => {
                        self.game = Game::new(self.settings.rules);
                        if self.settings.book_file.is_empty() {
                            // The default book follows the variant.
                            self.reload_book();
                        }
                    }
                    Changed::Book => self.reload_book(),
                }
            }
            Command::UciNewGame => {
                self.idle()?;
                if let Some(s) = self.searcher.as_mut() {
                    s.new_game();
                }
                self.game = Game::new(self.settings.rules);
                self.book_pending = None;
            }
            Command::Position { start, moves } => {
                let mut game = match start {
                    Start::StartPos => Game::new(self.settings.rules),
                    Start::Fen(text) => {
                        Game::from_fen(&text, self.settings.rules).map_err(Error::Fen)?
                    }
                };
                game.play_tokens(moves.iter().map(String::as_str))
                    .map_err(|(i, e)| Error::Move(i, e))?;
                self.game = game;
            }
            Command::Go(go) => {
                self.idle()?;
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
            Command::Quit => {}
            Command::Display => self.out.lines(self.display()),
            Command::Fen => self.out.line(&fen::write(self.game.position())),
            Command::Moves => {
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
            Command::Eval => self.out.lines(self.eval()),
            Command::Perft(depth) => {
                self.idle()?;
                self.start_perft(depth)?;
            }
            Command::Help => self.out.lines(HELP),
        }
        Ok(())
    }

    /// Prints a held result once the search may answer.
    fn release(&mut self) {
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
    fn answer(&self, job: &SearchJob, result: &SearchResult) {
        let mut lines = Vec::new();
        if let Some(outcome) = result.outcome {
            lines.push(format!(
                "info string game over: {} {}",
                outcome.score(),
                outcome.describe()
            ));
        }
        lines.push(bestmove_line(&job.root, result, job.notation));
        self.out.lines(lines);
    }

    fn action_or_turn(&self, mv: Move) -> String {
        mv.written(self.settings.notation)
    }

    fn start_search(&mut self, go: &Go) -> Result<(), Error> {
        let root = *self.game.position();
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            time: ByColor::new(go.wtime, go.btime),
            inc: ByColor::new(go.winc.unwrap_or(0), go.binc.unwrap_or(0)),
            movestogo: go.movestogo,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves: search_moves(&root, &go.searchmoves)?,
        };
        let notation = self.settings.notation;
        let mut job = SearchJob {
            infinite: go.infinite,
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
        let at_once = match self.game.outcome() {
            // Nothing to search.
            Some(outcome) => Some(SearchResult::nothing(Some(outcome))),
            None if go.searchmoves.is_empty() => self.book_answer().map(|(info, result)| {
                self.out.line(&info);
                result
            }),
            None => None,
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
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| new_searcher(&self.settings));
        self.control.reset(go.ponder);
        let game = self.game.clone();
        let control = Arc::clone(&self.control);
        let tx = self.events.clone();
        let out = self.out;
        thread::Builder::new()
            .name("moulin-go".into())
            .spawn(move || {
                let done = panic::catch_unwind(AssertUnwindSafe(move || {
                    let result = searcher.search(&game, &limits, &control, &mut |info| {
                        out.line(&info_line(info, notation))
                    });
                    (searcher, result)
                }));
                let _ = tx.send(match done {
                    Ok((searcher, result)) => Event::SearchDone(Box::new(searcher), result),
                    Err(p) => Event::SearchPanicked(panic_message(p)),
                });
            })
            .map_err(Error::Thread)?;
        self.job = Some(Job::Search(Box::new(job)));
        Ok(())
    }

    fn start_perft(&mut self, depth: u32) -> Result<(), Error> {
        let pos = *self.game.position();
        let conv = self.settings.notation;
        self.control.reset(false);
        let control = Arc::clone(&self.control);
        let tx = self.events.clone();
        let out = self.out;
        thread::Builder::new()
            .name("moulin-perft".into())
            .spawn(move || {
                let started = Instant::now();
                let stopped = || control.is_stopped();
                let mut each = |mv: Move, n| out.line(&format!("{} {n}", mv.written(conv)));
                let Some(total) = perft::divide(&pos, depth, conv, &stopped, &mut each) else {
                    let _ = tx.send(Event::PerftDone(None));
                    return;
                };
                let _ = tx.send(Event::PerftDone(Some((total, started.elapsed()))));
            })
            .map_err(Error::Thread)?;
        self.job = Some(Job::Perft {
            depth,
            stopped: false,
        });
        Ok(())
    }

    /// The `d` command: the board, then the state in words.
    fn display(&self) -> Vec<String> {
        let pos = self.game.position();
        let mut lines = board_drawing(pos);
        let text = fen::write(pos);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let field = |i: usize| fields.get(i).copied().unwrap_or("?");
        let phase = match field(2) {
            "p" => "placing",
            "m" => "moving",
            _ => "game over",
        };
        let action = match field(3) {
            "p" => "place".to_string(),
            "s" => "move".to_string(),
            _ => format!("remove ({} pending)", pos.pending_removals()),
        };
        let side = pos.side_to_move();
        lines.push(String::new());
        lines.push(format!("Position: {text}"));
        lines.push(format!("Side to move: {}", side.name()));
        lines.push(format!("Phase: {phase}, action: {action}"));
        for c in [side, !side] {
            lines.push(format!(
                "{}: {} on board, {} in hand",
                c.name(),
                pos.on_board(c),
                pos.in_hand(c)
            ));
        }
        lines.push(format!(
            "No-capture plies: {} (draw at {}); move number {}; seen {} time(s)",
            pos.no_capture_plies(),
            pos.rules()
                .no_capture
                .map_or("never".to_string(), |n| n.to_string()),
            pos.fullmove(),
            self.game.occurrences().max(1)
        ));
        let rules: Vec<String> = pos
            .rules()
            .options()
            .into_iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        lines.push(format!(
            "Rules: {} ({})",
            self.settings.value("Variant"),
            rules.join(" ")
        ));
        if let Some(o) = self.game.outcome() {
            lines.push(format!("Game over: {} {}", o.score(), o.describe()));
        }
        lines
    }

    /// The `eval` command: each term for both sides, then the evaluation.
    fn eval(&self) -> Vec<String> {
        let pos = self.game.position();
        let us = pos.side_to_move();
        let weights = eval::Weights::DEFAULT;
        let (white, black) = (
            eval::terms(pos, crate::Color::White, &weights),
            eval::terms(pos, crate::Color::Black, &weights),
        );
        let mut lines = vec![format!("{:<16}{:>8}{:>8}", "term", "white", "black")];
        for ((name, w), (_, b)) in white.named().into_iter().zip(black.named()) {
            lines.push(format!("{name:<16}{w:>8}{b:>8}"));
        }
        lines.push(format!(
            "{:<16}{:>8}{:>8}",
            "total",
            white.total(),
            black.total()
        ));
        lines.push(format!(
            "Evaluation: {} for {} (the side to move, tempo {} included)",
            eval::evaluate(pos, &weights),
            us.name(),
            weights.tempo
        ));
        lines
    }
}

fn new_searcher(settings: &Settings) -> Searcher {
    let mut s = Searcher::new(settings.hash_mb, settings.threads);
    apply_options(&mut s, settings);
    s
}

fn apply_options(searcher: &mut Searcher, settings: &Settings) {
    searcher.options.multipv = settings.multipv;
    searcher.options.move_overhead = settings.move_overhead;
    searcher.options.style = settings.style;
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// The root moves `searchmoves` names. A step given alone stands for every turn made of it; a
/// step followed by its removals as tokens of their own (`d6 xb4`) is one turn.
fn search_moves(root: &Position, tokens: &[String]) -> Result<Vec<Move>, Error> {
    let legal = movegen::legal_moves(root, Convention::Turn);
    let mut chosen = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let mut token = tokens[i].clone();
        i += 1;
        let is_removal = |t: &str| t.starts_with(['x', 'X']);
        if !is_removal(&token) {
            while i < tokens.len() && is_removal(&tokens[i]) {
                token.push_str(&tokens[i]);
                i += 1;
            }
        }
        let mv = notation::parse_move(root, &token).map_err(Error::SearchMove)?;
        let before = chosen.len();
        for &t in &legal {
            let matches = t == mv || (mv.removal_count() == 0 && t.without_removals() == mv);
            if matches && !chosen.contains(&t) {
                chosen.push(t);
            }
        }
        if chosen.len() == before && !legal.contains(&mv) {
            return Err(Error::NotInSearch(token));
        }
    }
    Ok(chosen)
}

/// `bestmove <move> [ponder <move>]` in the notation in force. In the action notation a turn
/// that removes is answered with its step only; a ponder move is shown only when the printed
/// move ends our turn.
fn bestmove_line(root: &Position, result: &SearchResult, notation: Convention) -> String {
    let Some(best) = result.best else {
        return "bestmove none".into();
    };
    let mut after = *root;
    after.play(best);
    let (shown, turn_ends) = match notation {
        Convention::Turn => (best.turn_notation(), after.pending_removals() == 0),
        Convention::Action => {
            let tokens = best.action_tokens();
            let first = tokens.first().cloned().unwrap_or_default();
            (first, tokens.len() == 1 && after.pending_removals() == 0)
        }
    };
    let mut line = format!("bestmove {shown}");
    if let (Some(ponder), true) = (result.ponder, turn_ends) {
        let p = match notation {
            Convention::Turn => ponder.turn_notation(),
            Convention::Action => ponder.action_tokens().first().cloned().unwrap_or_default(),
        };
        if !p.is_empty() {
            line.push_str(" ponder ");
            line.push_str(&p);
        }
    }
    line
}

/// One `info` line of search progress.
fn info_line(info: &Info, notation: Convention) -> String {
    let score = match info.score {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {}",
        info.depth, info.seldepth, info.multipv, info.nodes, info.nps, info.hashfull, info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&mv.written(notation));
        }
    }
    line
}

/// The board of RULES.md §1 with the pieces (`O` white, `@` black, `.` empty), drawn from the
/// rules' own adjacency table so that the diagonal board shows its diagonals. Files a-g run every
/// 4 columns, ranks 7-1 every 2 rows.
fn board_drawing(pos: &Position) -> Vec<String> {
    const W: usize = 25;
    const H: usize = 13;
    let mut grid = [[b' '; W]; H];
    let at = |p: Point| {
        let name = p.name().as_bytes();
        let col = (name[0] - b'a') as usize * 4;
        let row = (b'7' - name[1]) as usize * 2;
        (row, col)
    };
    let topology = pos.rules().topology();
    for p in Point::all() {
        for q in topology.adjacent[p.index()] {
            if q <= p {
                continue;
            }
            let ((r1, c1), (r2, c2)) = (at(p), at(q));
            if r1 == r2 {
                for cell in &mut grid[r1][c1.min(c2) + 1..c1.max(c2)] {
                    *cell = b'-';
                }
            } else if c1 == c2 {
                for row in &mut grid[r1.min(r2) + 1..r1.max(r2)] {
                    row[c1] = b'|';
                }
            } else {
                // A diagonal: one stroke halfway.
                let (r, c) = ((r1 + r2) / 2, (c1 + c2) / 2);
                let falling = (r2 > r1) == (c2 > c1);
                grid[r][c] = if falling { b'\\' } else { b'/' };
            }
        }
    }
    for p in Point::all() {
        let (r, c) = at(p);
        grid[r][c] = match pos.color_at(p) {
            Some(crate::Color::White) => b'O',
            Some(crate::Color::Black) => b'@',
            None => b'.',
        };
    }
    let mut lines: Vec<String> = grid
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let label = if r % 2 == 0 {
                char::from(b'7' - r as u8 / 2)
            } else {
                ' '
            };
            format!("{label}  {}", String::from_utf8_lossy(row).trim_end())
        })
        .collect();
    lines.push("   a   b   c   d   e   f   g".into());
    if pos.rules().board == BoardKind::Diagonal {
        lines.push("   (diagonal board)".into());
    }
    lines
}

const HELP: [&str; 24] = [
    "moulin speaks a UCI-style protocol; protocol.md is the full reference.",
    "  uci                          identify, list the options, answer uciok",
    "  isready                      answer readyok (also during a search)",
    "  setoption name <N> value <v> set an option (see uci for names and ranges)",
    "  ucinewgame                   forget the previous game; back to the start position",
    "  position startpos [moves m...]",
    "  position fen <string> [moves m...]",
    "                               set the position; moves as d6xb4 or d6 xb4",
    "  go [depth d] [nodes n] [movetime ms] [wtime ms] [btime ms] [winc ms] [binc ms]",
    "     [movestogo n] [infinite] [ponder] [searchmoves m...]",
    "                               search; answers info lines, then bestmove",
    "  go perft <d> | perft <d>     count the leaves d plies deep, per root move",
    "  stop                         end the search (or perft) now",
    "  ponderhit                    the expected move was played: ponder search goes on for real",
    "  quit                         leave (also at the end of input)",
    "  d                            draw the board and describe the position",
    "  fen                          print the position string",
    "  moves                        list the legal moves",
    "  eval                         the static evaluation, term by term",
    "  help                         this text",
    "Moves: placing d6, moving d6-d5, removing xb4; a turn that removes is d6xb4 (one token)",
    "or d6 xb4 (two tokens). Option MoveNotation chooses the form the engine writes.",
    "Points: a7 top left to g1 bottom right (see d).",
    "Bad input gets one line: info string error: <what>, and changes nothing.",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn board_drawing_shows_pieces_and_lines() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["a7", "g1"]).unwrap();
        let lines = board_drawing(game.position());
        assert_eq!(lines[0], "7  O-----------.-----------.");
        assert_eq!(lines[12], "1  .-----------.-----------@");
        assert_eq!(lines[6], "4  .---.---.       .---.---.");
        assert!(lines.iter().all(|l| !l.contains('\\')));
        let twelve = Game::new(Rules::preset("twelve").unwrap());
        let lines = board_drawing(twelve.position());
        assert_eq!(lines[1], "   | \\         |         / |");
    }

    #[test]
    fn reader_bounds_lines_and_decodes_lossily() {
        let (tx, rx) = mpsc::sync_channel(16);
        let mut input = b"uci\r\n\xff\xfe go\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\nisready");
        read_lines(&input[..], &tx);
        let got: Vec<String> = rx
            .try_iter()
            .map(|e| match e {
                Event::Line(t) => t,
                Event::TooLong(n) => format!("too long {n}"),
                Event::Eof => "eof".into(),
                _ => "?".into(),
            })
            .collect();
        assert_eq!(
            got,
            vec![
                "uci\r".to_string(),
                "\u{fffd}\u{fffd} go".into(),
                format!("too long {}", MAX_LINE + 10),
                "isready".into(),
                "eof".into()
            ]
        );
    }

    #[test]
    fn searchmoves_accept_both_forms() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d7", "a1", "g7", "d1"]).unwrap();
        let pos = *game.position();
        let all_a7 = search_moves(&pos, &["a7".into()]).unwrap();
        assert_eq!(all_a7.len(), 2);
        let one = search_moves(&pos, &["a7".into(), "xd1".into()]).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].turn_notation(), "a7xd1");
        assert!(search_moves(&pos, &["d7".into()]).is_err());
        assert!(search_moves(&pos, &["zz".into()]).is_err());
    }

    #[test]
    fn bestmove_in_both_notations() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d7", "a1", "g7", "d1"]).unwrap();
        let root = *game.position();
        let best = notation::parse_move(&root, "a7xd1").unwrap();
        let ponder = Move::place(Point::parse("b4").unwrap());
        let result = SearchResult {
            best: Some(best),
            ponder: Some(ponder),
            score: Score::Cp(0),
            depth: 1,
            nodes: 1,
            outcome: None,
        };
        assert_eq!(
            bestmove_line(&root, &result, Convention::Turn),
            "bestmove a7xd1 ponder b4"
        );
        assert_eq!(
            bestmove_line(&root, &result, Convention::Action),
            "bestmove a7"
        );
    }
}
