//! `moulin play`: a game against moulin for a person at a terminal (docs/play-and-analyse.md, "Playing"). The board
//! is drawn after each move, in colour when the terminal has it; moves are read in either
//! notation with line editing and history (rustyline); the engine thinks on a thread of its own
//! and the prompt stays open meanwhile (`stop` makes it move at once).

use super::args::BadValue;
use super::output::{out, outln};
use crate::book::{self, Book, BookMove, Variety};
use crate::commands::failure::{Context, Failure};
use crate::durable::DurableError;
use crate::record::{self, Record};
use crate::rng::Rng;
use crate::rules::board::{ByColor, Color, Point};
use crate::rules::diagram::{board_drawing_from, drawing_cell};
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use crate::search::exact;
use crate::search::{Control, Limits, Score, SearchResult, Searcher, Strength, TABLE_BOUND};
use crate::tables::Tables;
use crate::tables::Value as TableValue;
use rustyline::error::ReadlineError;
use rustyline::{DefaultEditor, ExternalPrinter};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The flags of `moulin play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "At the prompt, type a move (d6, d6-d5, d6xb4; after a move that \
closes a mill, the piece alone completes it: xb4 or b4) or a command: hint (moulin's move for \
you and its value, exact where --tables and a placing solution there decide), undo, new, \
flip, level N, stop, board, save FILE (asks before replacing a file), save! FILE, load FILE, \
help, quit (asks first if the game is not saved). A command misused is answered with its usage. \
The board is drawn once a turn, the last move marked: [ ] on its points, x where it removed \
a piece. Input may come in bursts: a pasted line or several lines run as typed."
)]
pub struct PlayArgs {
    /// The colour you play: white or black.
    #[arg(long, default_value = "white")]
    pub color: String,
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// moulin's level, 1 (weakest) to 20 (full strength; protocol.md, option Level).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=20))]
    pub level: u8,
    /// moulin's time per move in milliseconds, without --clock (1 to 600000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: u64,
    /// A clock for both sides, MINUTES[+SECONDS] (such as 5+3: five minutes, three seconds
    /// added a move); a side whose time runs out loses.
    #[arg(long, value_name = "M[+S]")]
    pub clock: Option<String>,
    /// Endgame tables for moulin's play and for exact hints (docs/endgame-tables.md, "Endgame
    /// tables").
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// No colours, even on a terminal that has them (also the environment variable `NO_COLOR`).
    #[arg(
        long,
        help = "No colours, even on a terminal that has them (also NO_COLOR in the environment)"
    )]
    pub plain: bool,
}

/// Both clocks: milliseconds left, and the increment.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    left: ByColor<u64>,
    inc: u64,
}

/// Reads `M[+S]`.
fn parse_clock(text: &str) -> Result<Clocks, BadValue> {
    let bad = || {
        BadValue(format!(
            "--clock {text}: expected MINUTES[+SECONDS], such as 5 or 5+3"
        ))
    };
    let (m, s) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = m.trim().parse().map_err(|_| bad())?;
    let seconds: f64 = s.trim().parse().map_err(|_| bad())?;
    if !(minutes > 0.0 && minutes <= 600.0 && (0.0..=600.0).contains(&seconds)) {
        return Err(bad());
    }
    let ms = (minutes * 60_000.0) as u64;
    Ok(Clocks {
        left: ByColor::new(ms, ms),
        inc: (seconds * 1000.0) as u64,
    })
}

/// The game and everything about it that the prompt and the engine's thread share.
struct Table {
    game: Game,
    /// The games before each move, for `undo`.
    before: Vec<Game>,
    human: Color,
    flipped: bool,
    level: u8,
    variant: String,
    /// The rules of `variant` (a loaded game may change both).
    rules: Rules,
    clocks: Option<Clocks>,
    /// When the side to move started its turn.
    turn_started: Instant,
    /// A side that lost on time.
    flagged: Option<Color>,
    /// Changed by every move, undo and new game: an engine answer for another one is dropped.
    generation: u64,
    /// The engine is thinking (its control, to stop it).
    thinking: Option<Arc<Control>>,
    colour: bool,
    /// The player's placement or step that closed a mill, waiting for the piece to remove.
    pending: Option<String>,
    /// Moves were made since the game was last saved or loaded.
    unsaved: bool,
}

impl Table {
    fn new_game(&mut self, rules: Rules) {
        self.rules = rules;
        self.game = Game::new(rules);
        self.before.clear();
        self.pending = None;
        self.unsaved = false;
        self.flagged = None;
        self.generation += 1;
        self.turn_started = Instant::now();
        if let Some(c) = self.clocks.as_mut() {
            let start = c.left.white.max(c.left.black);
            c.left = ByColor::new(start, start);
        }
    }

    /// Whether the engine starts thinking now: for its move (or, `hint`, for the human's), in
    /// a game still going, and not already thinking.
    fn engine_starts(&self, hint: bool) -> bool {
        let to_move = self.game.position().side_to_move();
        self.thinking.is_none() && self.over().is_none() && (to_move == self.human) == hint
    }

    fn over(&self) -> Option<String> {
        if let Some(c) = self.flagged {
            return Some(format!(
                "{} {} wins on time",
                if c == Color::White { "0-1" } else { "1-0" },
                (!c).name()
            ));
        }
        self.game
            .outcome()
            .map(|o| format!("{} {}", o.score(), o.describe()))
    }

    /// Plays a move already checked legal, unless the mover's clock ran out first (then
    /// `false`: the mover lost on time); the mover's clock gains its increment.
    fn play(&mut self, mv: crate::rules::moves::Move) -> bool {
        let mover = self.game.position().side_to_move();
        if let Some(c) = self.clocks.as_mut() {
            let used = self.turn_started.elapsed().as_millis() as u64;
            if used >= c.left[mover] {
                c.left[mover] = 0;
                self.flagged = Some(mover);
                self.generation += 1;
                return false;
            }
            c.left[mover] = c.left[mover] - used + c.inc;
        }
        self.before.push(self.game.clone());
        self.game.play(mv);
        self.unsaved = true;
        self.generation += 1;
        self.turn_started = Instant::now();
        true
    }

    fn who(&self, c: Color) -> String {
        if c == self.human {
            format!("{} (you)", c.name())
        } else {
            format!("{} (moulin, level {})", c.name(), self.level)
        }
    }

    /// The board and the state, as lines.
    fn picture(&self) -> String {
        let pos = self.game.position();
        let mut out = String::new();
        for line in self.marked_board() {
            out.push_str(&self.paint(&line));
            out.push('\n');
        }
        for c in [Color::White, Color::Black] {
            let clock = self.clocks.map_or(String::new(), |k| {
                let ms = k.left[c];
                format!(", clock {}:{:02}", ms / 60_000, ms / 1000 % 60)
            });
            out.push_str(&format!(
                "{}: {} on the board, {} in hand{clock}\n",
                self.who(c),
                pos.on_board(c),
                pos.in_hand(c)
            ));
        }
        if let (Some(last), Some(before)) = (self.game.moves().last(), self.before.last()) {
            let text = last.written_at(before.position(), Convention::Turn);
            let removed: Vec<String> = last.removals().map(|p| p.name().to_string()).collect();
            let removal = if removed.is_empty() {
                String::new()
            } else {
                format!("; x where {} was removed", removed.join(", "))
            };
            out.push_str(&format!(
                "Last move: {} {text} (marked [ ] on the board{removal})\n",
                before.position().side_to_move().name()
            ));
        }
        if let Some(end) = self.over() {
            out.push_str(&format!(
                "Game over: {end}. Type new, undo, save FILE or quit.\n"
            ));
        } else {
            let side = pos.side_to_move();
            let what = if pos.in_hand(side) > 0 {
                "place a piece"
            } else {
                "move a piece"
            };
            out.push_str(&format!("{} to move: {what}\n", self.who(side)));
        }
        out
    }

    /// The board's drawing with the last move marked: its points in brackets (`[O]`, and `[.]`
    /// where a piece stepped from), an `x` where it removed a piece.
    fn marked_board(&self) -> Vec<String> {
        let mut lines: Vec<Vec<char>> = board_drawing_from(self.game.position(), self.flipped)
            .iter()
            .map(|l| l.chars().collect())
            .collect();
        let Some(last) = self.game.moves().last() else {
            return lines.into_iter().map(String::from_iter).collect();
        };
        // Each edit: a character put at an offset from the point's left neighbour.
        let mut mark = |p, edits: &[(usize, char)]| {
            let (row, col) = drawing_cell(p, self.flipped);
            let line = &mut lines[row];
            if line.len() < col + 2 {
                line.resize(col + 2, ' ');
            }
            for &(offset, c) in edits {
                line[col - 1 + offset] = c;
            }
        };
        for p in last.from().into_iter().chain(last.to()) {
            mark(p, &[(0, '['), (2, ']')]);
        }
        for p in last.removals() {
            mark(p, &[(1, 'x')]);
        }
        lines.into_iter().map(String::from_iter).collect()
    }

    /// Pieces and the last move's marks in colour when the terminal has it.
    fn paint(&self, line: &str) -> String {
        if !self.colour {
            return line.to_string();
        }
        let mut out = String::new();
        for ch in line.chars() {
            match ch {
                'O' => out.push_str("\x1b[1;33mO\x1b[0m"),
                '@' => out.push_str("\x1b[1;31m@\x1b[0m"),
                '[' | ']' => out.push_str(&format!("\x1b[1;36m{ch}\x1b[0m")),
                'x' => out.push_str("\x1b[1;35mx\x1b[0m"),
                c => out.push(c),
            }
        }
        out
    }
}

/// The searcher and what it plays from, passed to the thinking thread and back.
struct Engine {
    searcher: Searcher,
    book: Option<Arc<Book>>,
    movetime: u64,
    rng: Rng,
}

/// A command of the prompt: its names, its arguments and what it does, for `help` and for the
/// usage that answers a misuse.
struct Command {
    names: &'static [&'static str],
    args: &'static str,
    what: &'static str,
}

const COMMANDS: &[Command] = &[
    Command {
        names: &["hint"],
        args: "",
        what: "moulin's move for you, with its value",
    },
    Command {
        names: &["undo"],
        args: "",
        what: "take back your last move (and moulin's answer)",
    },
    Command {
        names: &["new"],
        args: "",
        what: "a new game (same colours and level)",
    },
    Command {
        names: &["flip"],
        args: "",
        what: "turn the board half a turn",
    },
    Command {
        names: &["level"],
        args: "N",
        what: "moulin's level, 1 to 20",
    },
    Command {
        names: &["stop"],
        args: "",
        what: "moulin moves at once",
    },
    Command {
        names: &["board", "d"],
        args: "",
        what: "draw the board again",
    },
    Command {
        names: &["save"],
        args: "FILE",
        what: "write the game as a record (docs/matches.md, \"Game records (PGN)\"); \
               asks before replacing a file",
    },
    Command {
        names: &["save!"],
        args: "FILE",
        what: "the same, replacing a file without asking",
    },
    Command {
        names: &["load"],
        args: "FILE",
        what: "play on from a record's game",
    },
    Command {
        names: &["help", "?"],
        args: "",
        what: "this text",
    },
    Command {
        names: &["quit", "exit"],
        args: "",
        what: "leave (asks first if the game is not saved)",
    },
];

/// The text of `help`.
fn help() -> String {
    let mut text = String::from(
        "Moves: d6 (place), d6-d5 (move or fly), d6xb4 or d6 xb4 (with a removal);\n\
         after a move that closes a mill, the piece alone (xb4 or b4) completes it.\n\
         Commands:\n",
    );
    for c in COMMANDS {
        let call = format!("{} {}", c.names[0], c.args);
        text.push_str(&format!("  {call:<11} {}\n", c.what));
    }
    text.pop();
    text
}

/// The usage of the command named `word`, if it is one.
fn usage(word: &str) -> Option<String> {
    let c = COMMANDS.iter().find(|c| c.names.contains(&word))?;
    let call = format!("{} {}", c.names[0], c.args);
    Some(format!("usage: {}  ({})", call.trim_end(), c.what))
}

/// Runs `moulin play`.
pub(super) fn run(args: &PlayArgs) -> Result<(), Failure> {
    let rules = crate::Rules::named(&args.variant)?;
    let human = match args.color.to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => return Err(format!("--color {other}: expected white or black").into()),
    };
    let clocks = args.clock.as_deref().map(parse_clock).transpose()?;
    let mut searcher = Searcher::new(64, 1);
    if let Some(dir) = &args.tables {
        let t = Tables::open(dir, &rules).context("endgame tables")?;
        searcher.options.tables = Some(Arc::new(t));
    }
    let book = book::find_default(&args.variant)
        .and_then(|p| Book::load(&p).ok())
        .map(Arc::new);
    let colour =
        !args.plain && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    let table = Arc::new(Mutex::new(Table {
        game: Game::new(rules),
        before: Vec::new(),
        human,
        flipped: human == Color::Black,
        level: args.level,
        variant: args.variant.clone(),
        rules,
        clocks,
        turn_started: Instant::now(),
        flagged: None,
        generation: 0,
        thinking: None,
        colour,
        pending: None,
        unsaved: false,
    }));
    let engine = Arc::new(Mutex::new(Some(Engine {
        searcher,
        book,
        movetime: args.movetime,
        rng: Rng::from_time(),
    })));
    // Without bracketed paste a terminal sends a paste as keys, so each pasted line runs as if
    // typed; with it, the lines would wait in the editor as one multi-line entry.
    let config = rustyline::Config::builder().bracketed_paste(false).build();
    let mut rl = DefaultEditor::with_config(config).context("cannot read the terminal")?;
    let printer = rl
        .create_external_printer()
        .context("cannot write to the terminal")?;
    let printer: Printer = Arc::new(Mutex::new(Box::new(printer)));
    outln!(
        "moulin {}: you play {}; type help for the commands.",
        env!("CARGO_PKG_VERSION"),
        human.name()
    )?;
    out!("{}", lock(&table).picture())?;
    let result = converse(&mut rl, &table, &engine, &printer);
    stop_and_wait(&table, &engine);
    result
}

/// The prompt's loop: reads lines and answers them until `quit` or the end of input.
fn converse(
    rl: &mut DefaultEditor,
    table: &Arc<Mutex<Table>>,
    engine: &Arc<Mutex<Option<Engine>>>,
    printer: &Printer,
) -> Result<(), Failure> {
    loop {
        if lock(table).engine_starts(false) {
            // Written here, on the prompt's thread before the engine starts: through the
            // printer it could run into the engine's own message.
            outln!("moulin is thinking... (type stop to make it move now)")?;
        }
        start_thinking(table, engine, printer, false);
        let prompt = match &lock(table).pending {
            Some(mv) => format!("{mv} closes a mill, remove which piece? > "),
            None => "> ".to_string(),
        };
        let Some(line) = read_line(rl, &prompt)? else {
            return Ok(());
        };
        if line.is_empty() {
            continue;
        }
        let _ = rl.add_history_entry(line.as_str());
        let text = match answer(&line, table, engine, printer) {
            Reply::Say(text) => text,
            Reply::Quit => return Ok(()),
            Reply::Ask(question, then) => {
                let Some(yes) = read_line(rl, &format!("{question} (y/n) "))? else {
                    return Ok(());
                };
                let yes = yes.to_ascii_lowercase().starts_with('y');
                match then {
                    Confirmed::Quit if yes => return Ok(()),
                    Confirmed::Quit => "Playing on (save FILE keeps the game).".into(),
                    Confirmed::Replace(file) if yes => save(&mut lock(table), &file, true),
                    Confirmed::Replace(file) => format!("{} kept.", crate::text::quoted(&file)),
                }
            }
        };
        outln!("{text}")?;
    }
}

/// One line typed at `prompt`, trimmed; `None` at the end of input (or Ctrl-C).
fn read_line(rl: &mut DefaultEditor, prompt: &str) -> Result<Option<String>, Failure> {
    match rl.readline(prompt) {
        Ok(l) => Ok(Some(l.trim().to_string())),
        Err(ReadlineError::Interrupted | ReadlineError::Eof) => Ok(None),
        // The prompt is written to standard output: its reader may have left.
        Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Closed)
        }
        Err(e) => Err(Failure::from(e).context("reading the terminal")),
    }
}

/// What the prompt does with a line.
enum Reply {
    /// Show this text.
    Say(String),
    /// Leave.
    Quit,
    /// Ask this yes-or-no question; a yes does the second part.
    Ask(String, Confirmed),
}

/// What a yes to a question does.
enum Confirmed {
    Quit,
    /// Saves the game over this file.
    Replace(String),
}

/// The printer that writes above the prompt, shared with the thinking thread.
type Printer = Arc<Mutex<Box<dyn ExternalPrinter + Send>>>;

/// The answer to one line typed at the prompt (a command or a move).
fn answer(
    line: &str,
    table: &Arc<Mutex<Table>>,
    engine: &Arc<Mutex<Option<Engine>>>,
    printer: &Printer,
) -> Reply {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("").to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    // Where a save writes is checked before any question: what is there, and the folder.
    if let ("save" | "save!", [file]) = (first.as_str(), rest.as_slice()) {
        if let Err(e) = save_target(file) {
            return Reply::Say(e.to_string());
        }
    }
    let answer = match (first.as_str(), rest.as_slice()) {
        ("quit" | "exit", []) => {
            let t = lock(table);
            return if t.unsaved && !t.game.moves().is_empty() {
                Reply::Ask(
                    "The game is not saved (save FILE keeps it). Quit anyway?".into(),
                    Confirmed::Quit,
                )
            } else {
                Reply::Quit
            };
        }
        ("help" | "?", []) => help(),
        ("board" | "d", []) => lock(table).picture(),
        ("flip", []) => {
            let mut t = lock(table);
            t.flipped = !t.flipped;
            t.picture()
        }
        ("stop", []) => match &lock(table).thinking {
            Some(c) => {
                c.stop();
                "moulin moves now.".into()
            }
            None => "moulin is not thinking.".into(),
        },
        ("level", [n]) => match n.parse::<u8>() {
            Ok(n) if (1..=20).contains(&n) => {
                lock(table).level = n;
                format!("moulin plays at level {n} from its next move.")
            }
            _ => format!(
                "level {}: expected a whole number from 1 to 20",
                crate::text::printable(n, crate::text::MAX_SHOWN)
            ),
        },
        ("new", []) => {
            stop_and_wait(table, engine);
            let mut t = lock(table);
            let rules = t.rules;
            t.new_game(rules);
            format!("A new game.\n{}", t.picture())
        }
        ("undo", []) => {
            stop_and_wait(table, engine);
            let mut t = lock(table);
            undo(&mut t)
        }
        ("hint", []) => {
            if lock(table).thinking.is_some() {
                "wait: moulin is thinking (stop makes it move now)".into()
            } else if lock(table).over().is_some() {
                "the game is over".into()
            } else {
                start_thinking(table, engine, printer, true);
                "thinking about a hint...".into()
            }
        }
        ("save", [file]) if std::fs::symlink_metadata(file).is_ok() => {
            return Reply::Ask(
                format!("{} exists. Replace it?", crate::text::quoted(file)),
                Confirmed::Replace((*file).to_string()),
            );
        }
        ("save", [file]) => save(&mut lock(table), file, false),
        ("save!", [file]) => save(&mut lock(table), file, true),
        ("load", [file]) => {
            stop_and_wait(table, engine);
            load(&mut lock(table), file)
        }
        _ => usage(&first).unwrap_or_else(|| human_move(table, line)),
    };
    Reply::Say(answer)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A move typed by the player: played, or what was wrong and the legal choices. After a move
/// that closes a mill, a point alone (`xd5` or `d5`) is the piece it removes.
fn human_move(table: &Mutex<Table>, text: &str) -> String {
    let mut t = lock(table);
    if t.thinking.is_some() {
        return "wait: moulin is thinking (stop makes it move now)".into();
    }
    if let Some(end) = t.over() {
        return format!("the game is over ({end}): new, undo, save FILE or quit");
    }
    let pos = *t.game.position();
    if pos.side_to_move() != t.human {
        return "it is moulin's turn".into();
    }
    let typed: String = text
        .split_whitespace()
        .collect::<String>()
        .to_ascii_lowercase();
    let point = typed.strip_prefix('x').unwrap_or(&typed);
    let playable = |token: &str| t.game.clone().play_token(token).is_ok();
    // A point after a mill is the piece to remove; one that is not removable but a move of its
    // own (an empty point in the placing: no point is both) starts another move instead.
    let removing = match &t.pending {
        Some(mv)
            if Point::parse(point).is_some()
                && (playable(&format!("{mv}x{point}")) || !playable(&typed)) =>
        {
            Some(mv.clone())
        }
        _ => None,
    };
    let joined = removing
        .as_ref()
        .map_or_else(|| typed.clone(), |mv| format!("{mv}x{point}"));
    let legal: Vec<String> = movegen::legal_moves(&pos, Convention::Turn)
        .into_iter()
        .map(|m| m.written_at(&pos, Convention::Turn))
        .collect();
    let mut probe = t.game.clone();
    match probe.play_token(&joined) {
        Ok(_) if probe.position().pending_removals() > 0 => {
            let choices = removable(&legal, &joined);
            t.pending = Some(joined.clone());
            format!(
                "{joined} closes a mill: type the piece to remove, such as x{0} or {0} \
                 (you can remove {1})",
                choices.first().map_or("..", String::as_str),
                choices.join(" ")
            )
        }
        Ok(mv) => {
            t.pending = None;
            let written = mv.written_at(&pos, Convention::Turn);
            if !t.play(mv) {
                return format!("too late: your time ran out.\n{}", t.picture());
            }
            // The board is drawn once a turn: after moulin's answer, or now if the game is over.
            if t.over().is_some() {
                t.picture()
            } else {
                format!("you play {written}")
            }
        }
        Err(e) => match removing {
            Some(mv) => format!(
                "{} cannot be removed after {mv}: {e}\nYou can remove: {}",
                crate::text::quoted(point),
                removable(&legal, &mv).join(" ")
            ),
            None => format!(
                "{} is not a legal move here: {e}\nLegal moves: {}\n(type help for the commands)",
                crate::text::quoted(text),
                legal.join(" ")
            ),
        },
    }
}

/// The pieces that the moves in `legal` remove first after `partial` (a move that closed a mill).
fn removable(legal: &[String], partial: &str) -> Vec<String> {
    let prefix = format!("{partial}x");
    let mut points: Vec<String> = legal
        .iter()
        .filter_map(|m| m.strip_prefix(&prefix))
        .filter_map(|rest| rest.split('x').next())
        .map(String::from)
        .collect();
    points.sort();
    points.dedup();
    points
}

/// Takes back the player's last move and what moulin answered to it.
fn undo(t: &mut Table) -> String {
    let human = t.human;
    let mut undone = 0;
    while let Some(prev) = t.before.pop() {
        t.game = prev;
        undone += 1;
        if t.game.position().side_to_move() == human {
            break;
        }
    }
    if undone == 0 {
        return "nothing to undo".into();
    }
    t.pending = None;
    t.unsaved = true;
    t.flagged = None;
    t.generation += 1;
    t.turn_started = Instant::now();
    format!("Took back {undone} move(s).\n{}", t.picture())
}

/// Checks where `save FILE` writes, before it asks anything: only over a regular file, and in a
/// folder that takes a new file (`durable::check_files`); the error names what is there, or
/// the folder and why.
fn save_target(file: &str) -> Result<(), DurableError> {
    let path = std::path::Path::new(file);
    crate::durable::check_files(&[crate::durable::CommandFile::writes("the file", path)])
}

/// `save FILE` (a file there is kept) or `save! FILE` (`replace`): the game as a record, written
/// whole or not at all.
fn save(t: &mut Table, file: &str, replace: bool) -> String {
    if !replace && std::fs::symlink_metadata(file).is_ok() {
        return format!(
            "{} exists: kept. Type save! {file} to replace it, or give another name",
            crate::text::quoted(file)
        );
    }
    let start = t.before.first().unwrap_or(&t.game).clone();
    let mut texts = Vec::new();
    let mut g = start;
    for mv in t.game.moves() {
        texts.push(mv.written_at(g.position(), Convention::Turn));
        g.play(*mv);
    }
    let result = t.over().map_or("*".to_string(), |e| {
        e.split(' ').next().unwrap_or("*").to_string()
    });
    let mut r = Record::new(&t.variant, None, &texts, &result);
    r.set("Event", "moulin play");
    if t.flagged.is_some() {
        r.set("Termination", "time forfeit");
    }
    r.set("Date", &crate::date::Date::today().pgn());
    let name = |c: Color| {
        if c == t.human {
            "you".to_string()
        } else {
            format!("moulin level {}", t.level)
        }
    };
    r.set("White", &name(Color::White));
    r.set("Black", &name(Color::Black));
    match crate::durable::write_atomic(std::path::Path::new(file), record::write(&r).as_bytes()) {
        Ok(()) => {
            t.unsaved = false;
            format!("saved {} moves to {file}", texts.len())
        }
        Err(e) => e.to_string(),
    }
}

/// `load FILE`: plays on from a record's first game.
fn load(t: &mut Table, file: &str) -> String {
    let input = match crate::input_file::open_regular(std::path::Path::new(file)) {
        Ok(f) => std::io::BufReader::new(f),
        Err(e) => return format!("cannot read {file}: {e}"),
    };
    // The first game: the file is read no further.
    let r = match record::games(input).next() {
        Some(Ok(r)) => r,
        Some(Err(e)) => return format!("{file}: {e}"),
        None => return format!("{file}: no game in it"),
    };
    if r.tag("FEN").is_some() {
        return format!("{file}: a game from a set-up position cannot be played on here");
    }
    let rules = match r.rules() {
        Ok(rules) => rules,
        Err(e) => return format!("{file}: {e}"),
    };
    t.new_game(rules);
    t.variant = r.tag("Variant").unwrap_or("nine").to_ascii_lowercase();
    for mv in r.move_texts() {
        let mut g = t.game.clone();
        match g.play_token(&mv) {
            Ok(m) => {
                t.before.push(t.game.clone());
                t.game.play(m);
            }
            Err(e) => return format!("{file}: {mv}: {e}"),
        }
    }
    t.generation += 1;
    t.unsaved = false;
    format!(
        "loaded {} moves from {file}\n{}",
        r.moves.len(),
        t.picture()
    )
}

/// Asks a thinking engine to stop and waits for its thread to give the searcher back.
fn stop_and_wait(table: &Mutex<Table>, engine: &Mutex<Option<Engine>>) {
    if let Some(c) = lock(table).thinking.clone() {
        c.stop();
    }
    let until = Instant::now() + Duration::from_secs(10);
    while lock(engine).is_none() && Instant::now() < until {
        thread::sleep(Duration::from_millis(5));
    }
    lock(table).generation += 1;
}

/// Starts the engine on its thread when it is moulin's turn (or for a hint): it plays its move
/// (or gives the hint) when done, unless the game changed meanwhile.
fn start_thinking(
    table: &Arc<Mutex<Table>>,
    engine: &Arc<Mutex<Option<Engine>>>,
    printer: &Printer,
    hint: bool,
) {
    let mut t = lock(table);
    if !t.engine_starts(hint) {
        return;
    }
    let Some(mut e) = lock(engine).take() else {
        return;
    };
    let control = Arc::new(Control::new());
    t.thinking = Some(Arc::clone(&control));
    let game = t.game.clone();
    let generation = t.generation;
    let level = if hint { 20 } else { t.level };
    let limits = match (t.clocks, hint) {
        (Some(c), false) => Limits {
            time: ByColor::new(Some(c.left.white), Some(c.left.black)),
            inc: ByColor::new(c.inc, c.inc),
            ..Limits::default()
        },
        _ => Limits {
            movetime: Some(e.movetime),
            ..Limits::default()
        },
    };
    drop(t);
    let (table, engine, printer) = (Arc::clone(table), Arc::clone(engine), Arc::clone(printer));
    thread::spawn(move || {
        e.searcher.options.strength = Strength::level(f64::from(level));
        // A hint takes the book's best move; moulin's own moves vary by the weights.
        let variety = if hint {
            Variety::Best
        } else {
            Variety::Weighted
        };
        let from_book = if level == 20 {
            e.book
                .as_ref()
                .and_then(|b| b.choose(game.position(), variety, e.rng.unit()))
        } else {
            None
        };
        let (best, said) = if let Some(bm) = from_book {
            (Some(bm.mv), book_value(&bm))
        } else {
            let result = e.searcher.search(&game, &limits, &control, &mut |_| {});
            (result.best, hint_value(&result))
        };
        // `thinking` is cleared before the engine is given back, so that whoever waits for the
        // engine (`stop_and_wait`) finds the table ready for the next search.
        let message = {
            let mut t = lock(&table);
            t.thinking = None;
            match best {
                Some(mv) if t.generation == generation => {
                    let text = mv.written_at(game.position(), Convention::Turn);
                    if hint {
                        Some(format!("hint: {text} ({said})"))
                    } else if t.play(mv) {
                        Some(format!("moulin plays {text}\n{}", t.picture()))
                    } else {
                        Some(format!("moulin ran out of time.\n{}", t.picture()))
                    }
                }
                _ => None,
            }
        };
        *lock(&engine) = Some(e);
        if let Some(m) = message {
            let _ = lock(&printer).print(m);
        }
    });
}

/// What a hint says of its move's value for the side to move: exact where the placing solution
/// or the endgame tables decide it, else the search's score in pieces.
fn hint_value(result: &SearchResult) -> String {
    if let Some(v) = result.solved {
        return format!("{}, exact by the placing solution", exact::name(v));
    }
    if let Some(v) = result.table {
        return match v {
            TableValue::Draw => "draw, exact by the endgame tables".into(),
            _ => format!(
                "{v} in {} plies to the next removal, exact by the endgame tables",
                v.distance()
            ),
        };
    }
    score_words(result.score, "by search")
}

/// What the opening book knows of its move's value for the side to move.
fn book_value(bm: &BookMove) -> String {
    match bm.exact {
        Some(v) => format!(
            "at least a {}, proved by the exact solver, from the opening book",
            exact::name(v)
        ),
        None => score_words(bm.score, "by the opening book's search"),
    }
}

/// A search's score for the side to move, in words; a score in pieces says `by` whom.
fn score_words(score: Score, by: &str) -> String {
    match score {
        Score::Mate(n) if n > 0 => format!("a win in {n} turns"),
        Score::Mate(n) => format!("a loss in {} turns", -n),
        Score::Cp(x) if x >= TABLE_BOUND => "a win, by the endgame tables".into(),
        Score::Cp(x) if x <= -TABLE_BOUND => "a loss, by the endgame tables".into(),
        Score::Cp(x) => format!("{:+.2} pieces {by}", f64::from(x) / 100.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_says_its_value_exactly_where_it_is_known() {
        let result = |score, table, solved| SearchResult {
            score,
            table,
            solved,
            ..SearchResult::nothing(None)
        };
        let said = |r: SearchResult| hint_value(&r);
        assert_eq!(
            said(result(Score::solved(0), None, Some(0))),
            "draw, exact by the placing solution"
        );
        assert_eq!(
            said(result(Score::Cp(28_990), Some(TableValue::Win(9)), None)),
            "win in 9 plies to the next removal, exact by the endgame tables"
        );
        assert_eq!(
            said(result(Score::Cp(0), Some(TableValue::Draw), None)),
            "draw, exact by the endgame tables"
        );
        assert_eq!(
            said(result(Score::Cp(-28_500), None, None)),
            "a loss, by the endgame tables"
        );
        assert_eq!(said(result(Score::Mate(3), None, None)), "a win in 3 turns");
        assert_eq!(
            said(result(Score::Cp(-45), None, None)),
            "-0.45 pieces by search"
        );
    }

    /// A printer for tests: what the engine's thread would write above the prompt is dropped.
    struct Silent;

    impl ExternalPrinter for Silent {
        fn print(&mut self, _: String) -> rustyline::Result<()> {
            Ok(())
        }
    }

    /// A table for a new game of nine men's morris, the player White.
    fn new_table() -> Arc<Mutex<Table>> {
        let rules = Rules::nine();
        Arc::new(Mutex::new(Table {
            game: Game::new(rules),
            before: Vec::new(),
            human: Color::White,
            flipped: false,
            level: 1,
            variant: "nine".into(),
            rules,
            clocks: None,
            turn_started: Instant::now(),
            flagged: None,
            generation: 0,
            thinking: None,
            colour: false,
            pending: None,
            unsaved: false,
        }))
    }

    /// What the prompt answers to `line`: the text, `asks: QUESTION`, or `quits`.
    fn say(table: &Arc<Mutex<Table>>, line: &str) -> String {
        let engine = Arc::new(Mutex::new(None));
        let printer: Printer = Arc::new(Mutex::new(Box::new(Silent)));
        match answer(line, table, &engine, &printer) {
            Reply::Say(text) => text,
            Reply::Ask(question, _) => format!("asks: {question}"),
            Reply::Quit => "quits".into(),
        }
    }

    #[test]
    fn a_step_that_closes_a_mill_is_completed_by_the_piece_alone_and_marked() {
        // A random game (seeded) to a moving position where White has a step closing a mill.
        let (game, step) = (0..1000)
            .find_map(|seed| {
                let mut rng = Rng::new(seed);
                let mut game = Game::new(Rules::nine());
                while game.outcome().is_none() && game.moves().len() < 200 {
                    let pos = *game.position();
                    let legal = movegen::legal_moves(&pos, Convention::Turn);
                    let texts = legal.iter().map(|m| m.written_at(&pos, Convention::Turn));
                    let closing = texts.clone().find(|t| t.contains('-') && t.contains('x'));
                    if let Some(step) = closing.filter(|_| pos.side_to_move() == Color::White) {
                        return Some((game, step));
                    }
                    game.play(legal[rng.below(legal.len())]);
                }
                None
            })
            .unwrap();
        let table = new_table();
        lock(&table).game = game.clone();
        lock(&table).before.push(game);
        let (from_to, removal) = step.split_once('x').unwrap();
        let removal = removal.split('x').next().unwrap();
        let asked = say(&table, from_to);
        assert!(
            asked.starts_with(&format!(
                "{from_to} closes a mill: type the piece to remove"
            )),
            "{asked}"
        );
        assert_eq!(lock(&table).pending.as_deref(), Some(from_to));
        // A command meanwhile leaves the move waiting.
        assert!(say(&table, "help").contains("Commands:"));
        let played = say(&table, &format!("x{removal}"));
        assert_eq!(played, format!("you play {from_to}x{removal}"));
        assert_eq!(lock(&table).pending, None);
        // The board marks the step's two points and the removed piece.
        let t = lock(&table);
        let board = t.marked_board();
        let (from, to) = from_to.split_once('-').unwrap();
        let at = |p: &str| drawing_cell(Point::parse(p).unwrap(), false);
        let cell = |p: &str, d: usize| {
            let (row, col) = at(p);
            board[row].chars().nth(col + d - 1).unwrap()
        };
        let sides = |p| (cell(p, 0), cell(p, 1), cell(p, 2));
        assert_eq!(sides(from), ('[', '.', ']'), "{board:#?}");
        assert_eq!(sides(to), ('[', 'O', ']'), "{board:#?}");
        assert_eq!(cell(removal, 1), 'x', "{board:#?}");
    }

    #[test]
    fn save_and_quit_ask_before_losing_a_file_or_a_game() {
        let dir = std::env::temp_dir().join(format!("moulin-play-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let table = new_table();
        let say = |line: &str| say(&table, line);
        let file = dir.join("mine.pgn");
        let name = file.to_str().unwrap();
        std::fs::write(&file, "precious\n").unwrap();
        assert_eq!(say("quit"), "quits", "nothing to lose");
        say("d6");
        assert!(say("quit").starts_with("asks: The game is not saved"));
        let asked = say(&format!("save {name}"));
        assert!(
            asked.starts_with("asks: ") && asked.contains("exists. Replace it?"),
            "{asked}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "precious\n");
        let saved = say(&format!("save! {name}"));
        assert_eq!(say("quit"), "quits", "saved");
        assert!(saved.starts_with("saved 1 moves"), "{saved}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("1. d6"), "{text}");
        // A new file needs no confirmation.
        let other = dir.join("new.pgn");
        let saved = say(&format!("save {}", other.to_str().unwrap()));
        assert!(saved.starts_with("saved 1 moves"), "{saved}");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), text);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn clocks_read_minutes_and_seconds() {
        let c = parse_clock("5+3").unwrap();
        assert_eq!(c.left.white, 300_000);
        assert_eq!(c.inc, 3000);
        assert_eq!(parse_clock("0.5").unwrap().left.black, 30_000);
        for bad in ["", "x", "5+", "-1", "0", "5+x", "100000"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
    }
}
