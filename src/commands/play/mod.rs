//! `moulin play`: a game against moulin for a person at a terminal (docs/play-and-analyse.md, "Playing"). The board
//! is drawn after each move, in colour when the terminal has it; moves are read in either
//! notation with line editing and history (rustyline); the engine thinks on a thread of its own
//! and the prompt stays open meanwhile (`stop` makes it move at once).
//!
//! Its parts: `play_table.rs` the game they share, `play_words.rs` what the person types,
//! `board_paint.rs` the board drawn, `engine_side.rs` moulin (the engine every front end
//! drives) at the table; here the flags and the prompt's loop.

mod board_paint;
mod engine_side;
mod play_table;
mod play_words;

use super::args::EngineFiles;
use super::failure::{Context, Failure};
use super::output::{out, outln};
use board_paint::picture;
use engine_side::{Moulin, Printer};
use moulin::engine::{OverheadReserve, Settings};
use moulin::rules::board::Color;
use moulin::rules::game::Game;
use play_table::{lock, parse_clock, Table};
use play_words::{answer, save, Confirmed, Reply};
use rustyline::error::ReadlineError;
use rustyline::DefaultEditor;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The flags of `moulin play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "At the prompt, type a move (d6, d6-d5, d6xb4; after a move that \
closes a mill, the piece alone completes it: xb4 or b4) or a command: hint (moulin's move for \
you and its value, exact where --tables and a placing solution there decide), undo, new, \
flip, level N, stop, board, name NAME (yours in a saved game), save FILE (asks before replacing \
a file), save! FILE, load FILE, \
help, quit (asks first if the game is not saved; so do Ctrl-C and Ctrl-D, and a second Ctrl-C \
ends). A command misused is answered with its usage. \
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
    /// A clock for both sides, as `moulin match --tc` and cutechess-cli write it: the base in
    /// seconds or minutes:seconds, then +seconds added a move (5:00+3 or 300+3: five minutes,
    /// three seconds a move; 5+3 is five seconds); a side whose time runs out loses.
    #[arg(long, value_name = "BASE[+INC]")]
    pub clock: Option<String>,
    /// Endgame tables for moulin's play and for exact hints (docs/endgame-tables.md, "Endgame
    /// tables"). By default the set `moulin tables install` installed for the variant, if any
    /// (as the engine's `TablesPath`); `none` for none.
    #[arg(long, value_name = "DIR|none")]
    pub tables: Option<PathBuf>,
    /// Your name in a saved game's record (`name NAME` at the prompt changes it; default `?`,
    /// a record's unknown player); moulin's side is named with its version and settings.
    #[arg(long, default_value = "?", value_parser = play_table::player_name)]
    pub name: String,
    /// The opening's solution (the placing solution's first plies): this file, or `none`; by
    /// default book/<variant>-opening.sol found as the book is. A whole placing solution in
    /// --tables wins. A file named that cannot be used ends the command.
    #[arg(long, value_name = "FILE|none")]
    pub opening_solution: Option<PathBuf>,
    /// The network evaluation moulin searches with: this file, or `none` for the hand-written
    /// evaluation; by default book/<variant>.nnue found as the book is (as the engine's own
    /// option does). A file named that cannot be used ends the command.
    #[arg(long, value_name = "FILE|none")]
    pub eval_file: Option<PathBuf>,
    /// Start from this position, a position string as the protocol's `position fen` takes it
    /// and `fen` prints it (to practise an endgame against the tables); `new` goes back to it.
    #[arg(long, value_name = "POSITION")]
    pub fen: Option<String>,
    /// No colours, even on a terminal that has them (also the environment variable `NO_COLOR`).
    #[arg(
        long,
        help = "No colours, even on a terminal that has them (also NO_COLOR in the environment)"
    )]
    pub plain: bool,
}

/// Runs `moulin play`.
pub(super) fn run(args: &PlayArgs) -> Result<(), Failure> {
    let rules = moulin::Rules::named(&args.variant)?;
    let human = match args.color.to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => {
            return Err(Failure::usage(format!(
                "--color {other}: expected white or black"
            )))
        }
    };
    let clocks = args
        .clock
        .as_deref()
        .map(parse_clock)
        .transpose()
        .map_err(|e| Failure::from(e).into_usage())?;
    let start = match &args.fen {
        Some(text) => Game::from_fen(text, rules)
            .map_err(|e| Failure::from(e).context("--fen").into_usage())?,
        None => Game::new(rules),
    };
    let engine = engine_settings(args, rules)?;
    let colour =
        !args.plain && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    let table = Arc::new(Mutex::new(Table {
        game: start.clone(),
        start,
        before: Vec::new(),
        human,
        flipped: human == Color::Black,
        level: args.level,
        variant: args.variant.clone(),
        rules,
        clocks,
        clock_start: clocks,
        turn_started: Instant::now(),
        flagged: None,
        generation: 0,
        thinking: None,
        colour,
        pending: None,
        unsaved: false,
        player: args.name.clone(),
        settings: String::new(),
    }));
    let moulin = Moulin::new(engine, args.movetime, &table);
    lock(&table).settings = settings(args, moulin.has_tables());
    // Without bracketed paste a terminal sends a paste as keys, so each pasted line runs as if
    // typed; with it, the lines would wait in the editor as one multi-line entry.
    let config = rustyline::Config::builder().bracketed_paste(false).build();
    let mut rl = DefaultEditor::with_config(config).context("cannot read the terminal")?;
    let printer = rl
        .create_external_printer()
        .context("cannot write to the terminal")?;
    let printer: Printer = Arc::new(Mutex::new(Box::new(printer)));
    moulin.print_to(&printer);
    watch_clocks(&table, &moulin, &printer);
    let clock = clocks.map_or(String::new(), |c| format!("; {}", c.describe()));
    outln!(
        "moulin {}: you play {}{clock}; type help for the commands.",
        env!("CARGO_PKG_VERSION"),
        human.name()
    )?;
    for line in moulin.inventory() {
        outln!("  {line}")?;
    }
    out!("{}", picture(&lock(&table)))?;
    let result = converse(&mut rl, &table, &moulin);
    moulin.stop_and_wait(&table);
    result
}

/// The engine's settings of a game: the variant, 64 MB of hash, no overhead learned (the
/// table's clocks charge nothing beyond the engine's own time), and the files the flags name
/// (by default the installed tables, the shipped opening's solution and network). A file named
/// that cannot be used ends the command.
fn engine_settings(args: &PlayArgs, rules: moulin::Rules) -> Result<Settings, Failure> {
    let files = EngineFiles {
        tables: args.tables.as_deref(),
        opening_solution: args.opening_solution.as_deref(),
        eval_file: args.eval_file.as_deref(),
    };
    Ok(Settings {
        hash_mb: 64,
        overhead: OverheadReserve::Fixed,
        ..super::args::engine_settings(rules, &files)?
    })
}

/// moulin's settings but its level, as its name in a saved record gives them.
fn settings(args: &PlayArgs, tables: bool) -> String {
    let mut text = match &args.clock {
        Some(clock) => format!("clock {clock}"),
        None => format!("{} ms a move", args.movetime),
    };
    if tables {
        text.push_str(", endgame tables");
    }
    text
}

/// How often the clocks are looked at for a flag that fell while nobody typed.
const CLOCK_WATCH: std::time::Duration = std::time::Duration::from_millis(100);

/// Watches the clocks on a thread of its own: when the side to move's time runs out (the
/// person's while they think, or moulin's), the flag falls at once, moulin stops thinking, and
/// the end is said above the prompt.
fn watch_clocks(table: &Arc<Mutex<Table>>, moulin: &Arc<Moulin>, printer: &Printer) {
    if lock(table).clocks.is_none() {
        return;
    }
    let (table, moulin, printer) = (Arc::clone(table), Arc::clone(moulin), Arc::clone(printer));
    std::thread::spawn(move || loop {
        std::thread::sleep(CLOCK_WATCH);
        let said = {
            let mut t = lock(&table);
            t.flag_falls()
                .then(|| format!("{}.\n{}", t.over().unwrap_or_default(), picture(&t)))
        };
        if let Some(text) = said {
            moulin.stop();
            let _ = lock(&printer).print(text);
        }
    });
}

/// The prompt's loop: reads lines and answers them until `quit` or the end of input.
fn converse(
    rl: &mut DefaultEditor,
    table: &Arc<Mutex<Table>>,
    moulin: &Moulin,
) -> Result<(), Failure> {
    loop {
        if lock(table).engine_starts(false) {
            // Written here, on the prompt's thread before the engine starts: through the
            // printer it could run into the engine's own message.
            outln!("moulin is thinking... (type stop to make it move now)")?;
        }
        moulin.start_thinking(table, false);
        let prompt = match &lock(table).pending {
            Some(mv) => format!("{mv} closes a mill, remove which piece? > "),
            None => "> ".to_string(),
        };
        let line = match read_line(rl, &prompt)? {
            Input::Line(line) => {
                if !line.is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                line
            }
            // Ctrl-C, or Ctrl-D at a terminal, is `quit`: it asks before an unsaved game is
            // lost. Input that is not a terminal has no one to ask: its end ends the game.
            Input::Interrupted => "quit".into(),
            Input::End if std::io::stdin().is_terminal() => "quit".into(),
            Input::End => return Ok(()),
        };
        if line.is_empty() {
            continue;
        }
        let text = match answer(&line, table, moulin) {
            Reply::Say(text) => text,
            Reply::Quit => return Ok(()),
            Reply::Ask(question, then) => {
                // Ctrl-C or Ctrl-D at the question ends the game, as a second Ctrl-C does.
                let Input::Line(yes) = read_line(rl, &format!("{question} (y/n) "))? else {
                    return Ok(());
                };
                let yes = yes.to_ascii_lowercase().starts_with('y');
                match then {
                    Confirmed::Quit if yes => return Ok(()),
                    Confirmed::Quit => "Playing on (save FILE keeps the game).".into(),
                    Confirmed::Replace(file) if yes => save(&mut lock(table), &file, true),
                    Confirmed::Replace(file) => format!("{} kept.", moulin::text::quoted(&file)),
                }
            }
        };
        outln!("{text}")?;
    }
}

/// What the person gave at a prompt.
enum Input {
    /// A line, trimmed.
    Line(String),
    /// Ctrl-C.
    Interrupted,
    /// The end of input (Ctrl-D at a terminal).
    End,
}

/// One line typed at `prompt`, or Ctrl-C, or the end of input.
fn read_line(rl: &mut DefaultEditor, prompt: &str) -> Result<Input, Failure> {
    match rl.readline(prompt) {
        Ok(l) => Ok(Input::Line(l.trim().to_string())),
        Err(ReadlineError::Interrupted) => Ok(Input::Interrupted),
        Err(ReadlineError::Eof) => Ok(Input::End),
        // The prompt is written to standard output: its reader may have left.
        Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Closed)
        }
        Err(e) => Err(Failure::from(e).context("reading the terminal")),
    }
}
