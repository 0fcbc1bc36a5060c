//! `moulin play`: a game against moulin for a person at a terminal (docs/play-and-analyse.md, "Playing"). The board
//! is drawn after each move, in colour when the terminal has it; moves are read in either
//! notation with line editing and history (rustyline); the engine thinks on a thread of its own
//! and the prompt stays open meanwhile (`stop` makes it move at once).

use super::output::{out, outln, Failure};
use crate::book::{self, Book, Variety};
use crate::record::{self, Record};
use crate::rng::Rng;
use crate::rules::board::{ByColor, Color};
use crate::rules::diagram::board_drawing_from;
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
    /// Endgame tables for moulin's play (docs/endgame-tables.md, "Endgame tables").
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
fn parse_clock(text: &str) -> Result<Clocks, String> {
    let bad = || format!("--clock {text}: expected MINUTES[+SECONDS], such as 5 or 5+3");
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
}

impl Table {
    fn new_game(&mut self, rules: Rules) {
        self.rules = rules;
        self.game = Game::new(rules);
        self.before.clear();
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
        for line in board_drawing_from(pos, self.flipped) {
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
                format!(" (removed {})", removed.join(", "))
            };
            out.push_str(&format!(
                "Last move: {} {text}{removal}\n",
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

    /// Pieces in colour when the terminal has it.
    fn paint(&self, line: &str) -> String {
        if !self.colour {
            return line.to_string();
        }
        let mut out = String::new();
        for ch in line.chars() {
            match ch {
                'O' => out.push_str("\x1b[1;33mO\x1b[0m"),
                '@' => out.push_str("\x1b[1;31m@\x1b[0m"),
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

const HELP: &str = "\
Moves: d6 (place), d6-d5 (move or fly), d6xb4 or d6 xb4 (with a removal).
Commands:
  hint        moulin's suggestion for you
  undo        take back your last move (and moulin's answer)
  new         a new game (same colours and level)
  flip        turn the board half a turn
  level N     moulin's level, 1 to 20
  stop        moulin moves at once
  board       draw the board again
  save FILE   write the game as a record (docs/matches.md, \"Game records
              (PGN)\"); a file there is kept
  save! FILE  the same, replacing a file there
  load FILE   play on from a record's game
  help        this text
  quit        leave";

/// Runs `moulin play`.
pub(super) fn run(args: &PlayArgs) -> Result<(), Failure> {
    let rules = crate::Rules::named(&args.variant).map_err(|e| e.to_string())?;
    let human = match args.color.to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => return Err(format!("--color {other}: expected white or black").into()),
    };
    let clocks = args.clock.as_deref().map(parse_clock).transpose()?;
    let mut searcher = Searcher::new(64, 1);
    if let Some(dir) = &args.tables {
        let t = Tables::open(dir, &rules).map_err(|e| format!("endgame tables: {e}"))?;
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
    let mut rl =
        DefaultEditor::with_config(config).map_err(|e| format!("cannot read the terminal: {e}"))?;
    let printer = rl
        .create_external_printer()
        .map_err(|e| format!("cannot write to the terminal: {e}"))?;
    let printer: Printer = Arc::new(Mutex::new(Box::new(printer)));
    outln!(
        "moulin {}: you play {}; type help for the commands.",
        env!("CARGO_PKG_VERSION"),
        human.name()
    )?;
    out!("{}", lock(&table).picture())?;
    loop {
        if lock(&table).engine_starts(false) {
            // Written here, on the prompt's thread before the engine starts: through the
            // printer it could run into the engine's own message.
            outln!("moulin is thinking... (type stop to make it move now)")?;
        }
        start_thinking(&table, &engine, &printer, false);
        let line = match rl.readline("> ") {
            Ok(l) => l,
            Err(ReadlineError::Interrupted | ReadlineError::Eof) => break,
            // The prompt is written to standard output: its reader may have left.
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                stop_and_wait(&table, &engine);
                return Err(Failure::Closed);
            }
            Err(e) => return Err(format!("reading the terminal: {e}").into()),
        };
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        let _ = rl.add_history_entry(line.as_str());
        let Some(answer) = answer(&line, &table, &engine, &printer) else {
            break;
        };
        if let Err(e) = outln!("{answer}") {
            stop_and_wait(&table, &engine);
            return Err(e);
        }
    }
    stop_and_wait(&table, &engine);
    Ok(())
}

/// The printer that writes above the prompt, shared with the thinking thread.
type Printer = Arc<Mutex<Box<dyn ExternalPrinter + Send>>>;

/// The answer to one line typed at the prompt (a command or a move); `None` for `quit`.
fn answer(
    line: &str,
    table: &Arc<Mutex<Table>>,
    engine: &Arc<Mutex<Option<Engine>>>,
    printer: &Printer,
) -> Option<String> {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("").to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    let answer = match (first.as_str(), rest.as_slice()) {
        ("quit" | "exit", []) => return None,
        ("help" | "?", []) => HELP.to_string(),
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
            _ => format!("level {n}: expected a whole number from 1 to 20"),
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
        ("save", [file]) => save(&lock(table), file, false),
        ("save!", [file]) => save(&lock(table), file, true),
        ("load", [file]) => {
            stop_and_wait(table, engine);
            load(&mut lock(table), file)
        }
        ("save" | "save!" | "load", _) => format!("{first} FILE: give one file name"),
        _ => human_move(table, line),
    };
    Some(answer)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A move typed by the player: played, or what was wrong and the legal choices.
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
    let joined: String = text.split_whitespace().collect();
    let mut probe = t.game.clone();
    let legal: Vec<String> = movegen::legal_moves(&pos, Convention::Turn)
        .into_iter()
        .map(|m| m.written_at(&pos, Convention::Turn))
        .collect();
    match probe.play_token(&joined) {
        Ok(_) if probe.position().pending_removals() > 0 => format!(
            "{joined} closes a mill: add the piece to remove, such as {joined}x{}",
            legal
                .iter()
                .find_map(|m| m.strip_prefix(&format!("{joined}x")))
                .unwrap_or("..")
        ),
        Ok(mv) => {
            if !t.play(mv) {
                return format!("too late: your time ran out.\n{}", t.picture());
            }
            t.picture()
        }
        Err(e) => format!(
            "'{text}' is not a legal move here: {e}\nLegal moves: {}\n(type help for the commands)",
            legal.join(" ")
        ),
    }
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
    t.flagged = None;
    t.generation += 1;
    t.turn_started = Instant::now();
    format!("Took back {undone} move(s).\n{}", t.picture())
}

/// `save FILE` (a file there is kept) or `save! FILE` (`replace`): the game as a record, written
/// whole or not at all.
fn save(t: &Table, file: &str, replace: bool) -> String {
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
        Ok(()) => format!("saved {} moves to {file}", texts.len()),
        Err(e) => e.to_string(),
    }
}

/// `load FILE`: plays on from a record's first game.
fn load(t: &mut Table, file: &str) -> String {
    let input = match std::fs::File::open(file) {
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
        let from_book = if level == 20 {
            e.book.as_ref().and_then(|b| {
                b.choose(game.position(), Variety::Weighted, e.rng.unit())
                    .map(|bm| bm.mv)
            })
        } else {
            None
        };
        let (best, said) = if let Some(mv) = from_book {
            (Some(mv), "from the book".to_string())
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
    match result.score {
        Score::Mate(n) if n > 0 => format!("a win in {n} turns"),
        Score::Mate(n) => format!("a loss in {} turns", -n),
        Score::Cp(x) if x >= TABLE_BOUND => "a win, by the endgame tables".into(),
        Score::Cp(x) if x <= -TABLE_BOUND => "a loss, by the endgame tables".into(),
        Score::Cp(x) => format!("{:+.2} pieces by search", f64::from(x) / 100.0),
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

    #[test]
    fn save_keeps_a_file_there_unless_told_to_replace_it() {
        let dir = std::env::temp_dir().join(format!("moulin-play-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::nine();
        let table = Arc::new(Mutex::new(Table {
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
        }));
        let engine = Arc::new(Mutex::new(None));
        let printer: Printer = Arc::new(Mutex::new(Box::new(Silent)));
        let say = |line: &str| answer(line, &table, &engine, &printer).unwrap();
        let file = dir.join("mine.pgn");
        let name = file.to_str().unwrap();
        std::fs::write(&file, "precious\n").unwrap();
        say("d6");
        let refused = say(&format!("save {name}"));
        assert!(
            refused.contains("exists") && refused.contains("save!"),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "precious\n");
        let saved = say(&format!("save! {name}"));
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
