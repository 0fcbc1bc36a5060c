//! What the person types at `moulin play`'s prompt: the commands (`help`, `undo`, `save`,
//! `load`...), each answered, a misused one with its usage; anything else is a move, played or
//! answered with what was wrong and the legal choices.

use super::board_paint::picture;
use super::engine_side::Moulin;
use super::play_table::{lock, Table};
use moulin::durable::DurableError;
use moulin::record::{self, Record};
use moulin::rules::board::{Color, Point};
use moulin::rules::fen;
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::rules::position::Position;
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
        names: &["name"],
        args: "NAME",
        what: "your name in the saved game",
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

/// What the prompt does with a line.
pub(super) enum Reply {
    /// Show this text.
    Say(String),
    /// Leave.
    Quit,
    /// Ask this yes-or-no question; a yes does the second part.
    Ask(String, Confirmed),
}

/// What a yes to a question does.
pub(super) enum Confirmed {
    Quit,
    /// Saves the game over this file.
    Replace(String),
}

/// The answer to one line typed at the prompt (a command or a move).
pub(super) fn answer(line: &str, table: &Arc<Mutex<Table>>, moulin: &Moulin) -> Reply {
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
        ("quit" | "exit", []) => return quit(&lock(table)),
        ("help" | "?", []) => help(),
        ("board" | "d", []) => picture(&lock(table)),
        ("flip", []) => {
            let mut t = lock(table);
            t.flipped = !t.flipped;
            picture(&t)
        }
        ("stop", []) => {
            if lock(table).thinking.is_some() {
                moulin.stop();
                "moulin moves now.".into()
            } else {
                "moulin is not thinking.".into()
            }
        }
        ("level", [n]) => level(table, n),
        ("new", []) => {
            moulin.stop_and_wait(table);
            let mut t = lock(table);
            let rules = t.rules;
            t.new_game(rules);
            format!("A new game.\n{}", picture(&t))
        }
        ("undo", []) => {
            moulin.stop_and_wait(table);
            let mut t = lock(table);
            undo(&mut t)
        }
        ("hint", []) => hint(table, moulin),
        ("name", [_, ..]) => name(table, line),
        ("save", [file]) if std::fs::symlink_metadata(file).is_ok() => {
            return Reply::Ask(
                format!("{} exists. Replace it?", moulin::text::quoted(file)),
                Confirmed::Replace((*file).to_string()),
            );
        }
        ("save", [file]) => save(&mut lock(table), file, false),
        ("save!", [file]) => save(&mut lock(table), file, true),
        ("load", [file]) => {
            moulin.stop_and_wait(table);
            load(&mut lock(table), file)
        }
        _ => usage(&first).unwrap_or_else(|| human_move(table, line)),
    };
    Reply::Say(answer)
}

/// `quit`: leaves, or first asks whether to, when the game has moves not saved.
fn quit(t: &Table) -> Reply {
    if t.unsaved && !t.game.moves().is_empty() {
        Reply::Ask(
            "The game is not saved (save FILE keeps it). Quit anyway?".into(),
            Confirmed::Quit,
        )
    } else {
        Reply::Quit
    }
}

/// `level N`: moulin's level from its next move, 1 to 20.
fn level(table: &Mutex<Table>, n: &str) -> String {
    match n.parse::<u8>() {
        Ok(n) if (1..=20).contains(&n) => {
            lock(table).level = n;
            format!("moulin plays at level {n} from its next move.")
        }
        _ => format!(
            "level {}: expected a whole number from 1 to 20",
            moulin::text::printable(n, moulin::text::MAX_SHOWN)
        ),
    }
}

/// `hint`: moulin thinks about the player's move, unless it is thinking or the game is over.
fn hint(table: &Arc<Mutex<Table>>, moulin: &Moulin) -> String {
    if lock(table).thinking.is_some() {
        "wait: moulin is thinking (stop makes it move now)".into()
    } else if lock(table).over().is_some() {
        "the game is over".into()
    } else {
        moulin.start_thinking(table, true);
        "thinking about a hint...".into()
    }
}

/// `name NAME`: the player's name in a saved game, the rest of the `line`, spaces and all.
fn name(table: &Mutex<Table>, line: &str) -> String {
    let typed = line
        .trim()
        .split_once(char::is_whitespace)
        .map_or("", |(_, r)| r.trim());
    match super::play_table::player_name(typed) {
        Ok(name) => {
            let mut t = lock(table);
            let side = t.human.name();
            let said = format!("{side} is {} in a saved game.", moulin::text::quoted(&name));
            t.player = name;
            t.unsaved |= !t.game.moves().is_empty();
            said
        }
        Err(e) => format!("name {}: {e}", moulin::text::quoted(typed)),
    }
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
                return format!("too late: your time ran out.\n{}", picture(&t));
            }
            // The board is drawn once a turn: after moulin's answer, or now if the game is over.
            if t.over().is_some() {
                picture(&t)
            } else {
                format!("you play {written}")
            }
        }
        Err(e) => match removing {
            Some(mv) => format!(
                "{} cannot be removed after {mv}: {e}\nYou can remove: {}",
                moulin::text::quoted(point),
                removable(&legal, &mv).join(" ")
            ),
            None => format!(
                "{} is not a legal move here: {e}\nLegal moves: {}\n(type help for the commands)",
                moulin::text::quoted(text),
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
    format!(
        "Took back {}.\n{}",
        moulin::text::count(undone, "move", "moves"),
        picture(t)
    )
}

/// Checks where `save FILE` writes, before it asks anything: only over a regular file, and in a
/// folder that takes a new file (`durable::check_files`); the error names what is there, or
/// the folder and why.
fn save_target(file: &str) -> Result<(), DurableError> {
    let path = std::path::Path::new(file);
    moulin::durable::check_files(&[moulin::durable::CommandFile::writes("the file", path)])
}

/// `save FILE` (a file there is kept) or `save! FILE` (`replace`): the game as a record, written
/// whole or not at all.
pub(super) fn save(t: &mut Table, file: &str, replace: bool) -> String {
    if !replace && std::fs::symlink_metadata(file).is_ok() {
        return format!(
            "{} exists: kept. Type save! {file} to replace it, or give another name",
            moulin::text::quoted(file)
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
    // A game from `--fen`'s position keeps it.
    let fen = (*t.start.start() != Position::start(t.rules)).then(|| fen::write(t.start.start()));
    let mut r = Record::new(&t.variant, fen.as_deref(), &texts, &result);
    r.set("Event", "moulin play");
    if t.flagged.is_some() {
        r.set("Termination", "time forfeit");
    }
    r.set("Date", &moulin::date::Date::today().pgn());
    r.set("White", &t.record_name(Color::White));
    r.set("Black", &t.record_name(Color::Black));
    match moulin::durable::write_atomic(std::path::Path::new(file), record::write(&r).as_bytes()) {
        Ok(()) => {
            t.unsaved = false;
            format!(
                "saved {} to {file}",
                moulin::text::count(texts.len(), "move", "moves")
            )
        }
        Err(e) => e.to_string(),
    }
}

/// `load FILE`: plays on from a record's first game.
fn load(t: &mut Table, file: &str) -> String {
    let input = match moulin::input_file::open_regular(std::path::Path::new(file)) {
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
    // The record's game starts at its rules' start, and so do new games from now on.
    t.start = moulin::Game::new(rules);
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
        "loaded {} from {file}\n{}",
        moulin::text::count(r.moves.len(), "move", "moves"),
        picture(t)
    )
}

#[cfg(test)]
mod tests {
    use super::super::board_paint::marked_board;
    use super::super::engine_side::Printer;
    use super::*;
    use moulin::rng::Rng;
    use moulin::rules::diagram::drawing_cell;
    use moulin::rules::game::Game;
    use moulin::rules::Rules;
    use rustyline::ExternalPrinter;

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
            start: Game::new(rules),
            before: Vec::new(),
            human: Color::White,
            flipped: false,
            level: 1,
            variant: "nine".into(),
            rules,
            clocks: None,
            clock_start: None,
            turn_started: Instant::now(),
            flagged: None,
            generation: 0,
            thinking: None,
            colour: false,
            pending: None,
            unsaved: false,
            player: "?".into(),
            settings: "1000 ms a move".into(),
        }))
    }

    /// What the prompt answers to `line`: the text, `asks: QUESTION`, or `quits`. moulin
    /// plays without files (nothing to read).
    fn say(table: &Arc<Mutex<Table>>, line: &str) -> String {
        let none = || "none".to_string();
        let settings = moulin::engine::Settings {
            own_book: false,
            tables_path: none(),
            opening_solution: none(),
            eval_file: none(),
            ..moulin::engine::Settings::default()
        };
        let moulin = Moulin::new(settings, 1000, table);
        let printer: Printer = Arc::new(Mutex::new(Box::new(Silent)));
        moulin.print_to(&printer);
        match answer(line, table, &moulin) {
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
        let board = marked_board(&t);
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
        assert!(saved.starts_with("saved 1 move to"), "{saved}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("1. d6"), "{text}");
        // A new file needs no confirmation.
        let other = dir.join("new.pgn");
        let saved = say(&format!("save {}", other.to_str().unwrap()));
        assert!(saved.starts_with("saved 1 move to"), "{saved}");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), text);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
