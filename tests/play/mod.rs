//! `moulin play` driven through a real terminal (a pseudo-terminal): a whole game typed move by
//! move, an illegal move, undo, save, new and load, and quit; input in bursts.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod pty;

use pty::Pty;

use moulin::rng::Rng;
use moulin::rules::movegen;
use moulin::{Convention, Game, Rules};
use std::os::unix::fs::FileTypeExt;

/// The moves moulin announced, in order.
fn engine_moves(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split("moulin plays ").nth(1))
        .filter_map(|m| m.split_whitespace().next())
        .map(String::from)
        .collect()
}

/// A game against level 1 at 20 ms a move, its first board shown.
fn started() -> Pty {
    let pty = Pty::start("--level 1 --movetime 20 --plain");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
    pty
}

/// Types `quit` and checks that the program ends.
fn quit(pty: &mut Pty) {
    pty.keys("quit");
    assert!(pty.wait_end().is_some(), "quit ends the program");
}

#[test]
fn a_whole_game_typed_at_the_terminal_then_undo_save_load_and_quit() {
    let mut pty = started();
    // An illegal move: what was wrong and the legal choices; nothing changes.
    pty.keys("d9");
    let t = pty.wait("the refusal", |t| t.contains("Legal moves:"));
    assert!(t.contains("'d9' is not a legal move here"), "{t}");
    let mut game = Game::new(Rules::nine());
    let mut rng = Rng::new(17);
    let mut seen = 0;
    let mut typed = 0;
    while game.outcome().is_none() && typed < 400 {
        let legal = movegen::legal_moves(game.position(), Convention::Turn);
        let mv = legal[rng.below(legal.len())];
        let text = mv.written_at(game.position(), Convention::Turn);
        game.play(mv);
        pty.keys(&text);
        typed += 1;
        if game.outcome().is_some() {
            break;
        }
        let t = pty.wait("moulin's answer", |t| engine_moves(t).len() > seen);
        let answer = engine_moves(&t)[seen].clone();
        seen += 1;
        game.play_token(&answer)
            .unwrap_or_else(|e| panic!("moulin played {answer}: {e}\n{t}"));
    }
    // At least the whole placing was typed.
    assert!(typed >= 9, "{typed} moves typed");
    println!(
        "a game of {} plies typed at the terminal",
        game.moves().len()
    );
    let t = pty.wait("the end of the game", |t| t.contains("Game over: "));
    let end = game.outcome().expect("the game ended").score();
    assert!(t.contains(&format!("Game over: {end}")), "{t}");
    // Undo after the end: the game goes on from the player's last turn.
    pty.keys("undo");
    let t = pty.wait("the undo", |t| t.contains("Took back"));
    assert!(
        t.trim_end().ends_with('>') || t.contains("white (you) to move"),
        "{t}"
    );
    // Save, start a new game, load the saved one.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pgn");
    pty.keys(&format!("save {}", file.display()));
    pty.wait("the save", |t| t.contains("saved "));
    let saved = moulin::record::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved.len(), 1);
    let moves = saved[0].moves.len();
    assert!(moves > 0 && saved[0].tag("White") == Some("?"), "{saved:?}");
    let moulin = format!(
        "moulin {}, level 1, 20 ms a move",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(saved[0].tag("Black"), Some(moulin.as_str()));
    pty.keys("new");
    pty.wait("the new game", |t| t.contains("A new game."));
    pty.keys(&format!("load {}", file.display()));
    let t = pty.wait("the load", |t| t.contains("loaded "));
    assert!(t.contains(&format!("loaded {moves} moves")), "{t}");
    quit(&mut pty);
}

#[test]
fn load_refuses_a_record_nested_too_deep_and_reads_one_with_a_byte_order_mark() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-play-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 100,000 nested variations overflowed the stack.
    let deep = dir.join("deep.pgn");
    let n = 100_000;
    let text = format!("1. d6 {}{} *\n", "(d6 ".repeat(n), ")".repeat(n));
    std::fs::write(&deep, text).unwrap();
    let bom = dir.join("bom.pgn");
    std::fs::write(&bom, "\u{feff}[Event \"e\"]\n\n1. d6 f4 *\n").unwrap();
    let mut pty = started();
    pty.keys(&format!("load {}", deep.display()));
    let t = pty.wait("the refusal", |t| t.contains("deeper than"));
    assert!(
        t.contains("line 1, column 407: variations nest deeper than the 100 levels"),
        "{t}"
    );
    pty.keys(&format!("load {}", bom.display()));
    let t = pty.wait("the load", |t| t.contains("loaded "));
    assert!(t.contains("loaded 2 moves"), "{t}");
    quit(&mut pty);
}

#[test]
fn a_move_and_enter_in_one_write_are_played() {
    let pty = started();
    // A fast typist or a paste: the move and Enter (here a line feed) arrive in one write.
    let mark = pty.mark();
    pty.burst("d2\n");
    let t = pty.wait_since(mark, "moulin's answer", |t| t.contains("moulin plays "));
    assert!(!t.contains("not a legal move"), "{t}");
    // And a carriage return, what the Enter key sends.
    let mark = pty.mark();
    pty.burst("board\r");
    pty.wait_since(mark, "the board", |t| t.contains("a   b   c   d"));
}

#[test]
fn a_pasted_burst_of_several_commands_is_answered_whole() {
    let pty = started();
    let mark = pty.mark();
    pty.burst("level 3\nflip\nhelp\n");
    let t = pty.wait_since(mark, "the three answers", |t| t.contains("Commands:"));
    let level = t.find("moulin plays at level 3").expect("level answered");
    let flipped = t.find("   g   f   e   d").expect("the board flipped");
    assert!(
        level < flipped && flipped < t.find("Commands:").unwrap(),
        "{t}"
    );
    // A paste in a terminal arrives as keys: bracketed paste (which would hold the pasted lines
    // as one entry until another Enter) is never turned on.
    assert!(!pty.text().contains("\x1b[?2004h"), "{:?}", pty.text());
}

/// A record of `moves` (nine men's morris) written to a file of the test's own; its path.
fn record_file(name: &str, moves: &[&str]) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let moves: Vec<String> = moves.iter().map(|m| (*m).to_string()).collect();
    let record = moulin::record::Record::new("nine", None, &moves, "*");
    std::fs::write(&file, moulin::record::write(&record)).unwrap();
    file
}

/// The boards drawn in `text` (each ends with the files' line).
fn boards(text: &str) -> usize {
    text.matches("   a   b   c   d   e   f   g").count()
}

#[test]
fn the_board_is_drawn_once_a_turn_with_the_last_move_and_its_removal_marked() {
    let pty = started();
    let t = pty.answer("d2", "moulin's board", |t| {
        t.contains("moulin plays ") && t.contains("white (you) to move")
    });
    assert!(t.contains("you play d2"), "{t}");
    assert_eq!(boards(&t), 1, "one board for the turn:\n{t}");
    // moulin's placement is marked, with the legend.
    let answer = engine_moves(&t)[0].clone();
    assert!(t.contains("[@]"), "{t}");
    assert!(
        t.contains(&format!(
            "Last move: black {answer} (marked [ ] on the board)"
        )),
        "{t}"
    );
    // A game whose last move removed a piece: black g1 closed the mill a1-d1-g1 and took a7.
    let file = record_file("removal.pgn", &["a7", "a1", "d7", "d1", "b6", "g1xa7"]);
    let t = pty.answer(
        &format!("load {}", file.display()),
        "the loaded board",
        |t| t.contains("white (you) to move"),
    );
    assert!(
        t.contains("Last move: black g1xa7 (marked [ ] on the board; x where a7 was removed)"),
        "{t}"
    );
    // a7 (the removed piece) and g1 (the placement) on the board drawn from White's side.
    assert!(t.contains("7  x-----------O"), "{t}");
    assert!(t.contains("1  @-----------@----------[@]"), "{t}");
}

#[test]
fn a_mill_closed_by_a_placement_is_completed_by_the_piece_alone() {
    let pty = started();
    let file = record_file("mill.pgn", &["a7", "b4", "d7", "d2"]);
    pty.keys(&format!("load {}", file.display()));
    pty.wait("the load", |t| t.contains("loaded 4 moves"));
    let t = pty.answer("g7", "the question", |t| {
        t.contains("g7 closes a mill, remove which piece? > ")
    });
    assert!(
        t.contains("g7 closes a mill: type the piece to remove, such as xb4 or b4"),
        "{t}"
    );
    // A piece that cannot be removed: said, and the move still waits for its removal.
    let t = pty.answer("a7", "the refusal", |t| {
        t.contains("g7 closes a mill, remove which piece? > ")
    });
    assert!(t.contains("'a7' cannot be removed after g7"), "{t}");
    assert!(t.contains("You can remove: b4 d2"), "{t}");
    let t = pty.answer("d2", "moulin's answer", |t| {
        t.contains("moulin plays ") && t.contains("white (you) to move")
    });
    assert!(t.contains("you play g7xd2"), "{t}");
    // Again, with the removal written xb4.
    pty.answer("undo", "the undo", |t| t.contains("Took back 2 moves"));
    let mark = pty.mark();
    pty.keys("g7");
    pty.keys("xb4");
    let t = pty.wait_since(mark, "moulin's answer", |t| t.contains("moulin plays "));
    assert!(t.contains("you play g7xb4"), "{t}");
    // An empty point after a mill is another placement: the mill's move is dropped.
    pty.answer("undo", "the undo", |t| t.contains("Took back 2 moves"));
    pty.answer("g7", "the question", |t| {
        t.contains("remove which piece? > ")
    });
    let t = pty.answer("a1", "moulin's answer", |t| t.contains("moulin plays "));
    assert!(t.contains("you play a1"), "{t}");
}

#[test]
fn every_command_misused_answers_its_usage() {
    let pty = started();
    let mark = pty.mark();
    pty.burst(
        "level\rlevel 3 4\rsave\rsave! a b\rload\rhint now\rundo 2\rnew game\rflip x\r\
         stop it\rboard 1\rd 1\rhelp me\rquit now\rexit 0\r",
    );
    let t = pty.wait_since(mark, "the answers", |t| t.matches("usage: ").count() >= 15);
    for usage in [
        "usage: level N  (moulin's level, 1 to 20)",
        "usage: save FILE",
        "usage: save! FILE",
        "usage: load FILE",
        "usage: hint  (",
        "usage: undo  (",
        "usage: new  (",
        "usage: flip  (",
        "usage: stop  (",
        "usage: board  (",
        "usage: help  (",
        "usage: quit  (",
    ] {
        assert!(t.contains(usage), "{usage}:\n{t}");
    }
    assert!(!t.contains("not a legal move"), "{t}");
    // A number out of range is said as such.
    pty.answer("level 30", "the refusal", |t| {
        t.contains("level 30: expected a whole number from 1 to 20")
    });
}

#[test]
fn quit_asks_before_dropping_an_unsaved_game_and_the_end_of_input_still_ends() {
    let mut pty = started();
    pty.answer("d2", "moulin's answer", |t| {
        t.contains("white (you) to move")
    });
    pty.answer("quit", "the question", |t| {
        t.contains("The game is not saved (save FILE keeps it). Quit anyway? (y/n) ")
    });
    pty.answer("n", "the game going on", |t| t.contains("Playing on"));
    pty.answer("board", "the board", |t| boards(t) == 1);
    pty.answer("quit", "the question again", |t| t.contains("Quit anyway?"));
    pty.keys("y");
    let status = pty.wait_end().expect("a yes ends the program");
    assert!(status.success(), "{status:?}");
    // The end of input (Ctrl-D) at the question ends it cleanly; at the prompt it asks as
    // `quit` does, and a second one ends.
    for before in ["quit\r", "\x04"] {
        let mut pty = started();
        pty.answer("d2", "moulin's answer", |t| {
            prompt_after(t, "white (you) to move")
        });
        let mark = pty.mark();
        pty.burst(before);
        pty.wait_since(mark, "the question", |t| t.contains("Quit anyway? (y/n) "));
        pty.burst("\x04");
        let status = pty.wait_end().expect("the end of input ends the program");
        assert!(status.success(), "{status:?}");
    }
}

/// Whether `text` shows the prompt after `what`: the line editor is reading again (a Ctrl-C
/// sent before would reach the terminal's own handling, not the program's).
fn prompt_after(text: &str, what: &str) -> bool {
    text.find(what).is_some_and(|i| text[i..].contains("> "))
}

/// Sends Ctrl-C and waits for the question of an unsaved game.
fn interrupt_asks(pty: &Pty) {
    let mark = pty.mark();
    pty.burst("\x03");
    pty.wait_since(mark, "the question", |t| {
        t.contains("The game is not saved (save FILE keeps it). Quit anyway? (y/n) ")
    });
}

/// Waits for the program to end, and checks that it ended well.
fn ended_well(pty: &mut Pty, what: &str) {
    let status = pty.wait_end().unwrap_or_else(|| panic!("{what}"));
    assert!(status.success(), "{status:?}");
}

#[test]
fn ctrl_c_asks_as_quit_does_and_a_second_one_ends() {
    // Nothing to lose: Ctrl-C ends at once.
    let mut pty = started();
    pty.wait("the prompt", |t| prompt_after(t, "to move"));
    pty.burst("\x03");
    ended_well(&mut pty, "Ctrl-C ends a game without moves");
    assert!(!pty.text().contains("Quit anyway?"), "{}", pty.text());
    // A move not saved: Ctrl-C asks; no plays on, yes ends.
    let mut pty = started();
    pty.answer("d2", "moulin's answer", |t| {
        prompt_after(t, "white (you) to move")
    });
    interrupt_asks(&pty);
    pty.answer("n", "the game going on", |t| prompt_after(t, "Playing on"));
    interrupt_asks(&pty);
    pty.keys("y");
    ended_well(&mut pty, "a yes ends the program");
    // A second Ctrl-C at the question ends it too, moulin thinking meanwhile or not.
    let mut pty = started();
    pty.answer("d2", "moulin thinking", |t| {
        prompt_after(t, "moulin is thinking")
    });
    interrupt_asks(&pty);
    pty.burst("\x03");
    ended_well(&mut pty, "a second Ctrl-C ends the program");
    // Saved: Ctrl-C asks nothing.
    let mut pty = started();
    let file = record_file("ctrl-c.pgn", &[]);
    let _ = std::fs::remove_file(&file);
    pty.answer("d2", "moulin's answer", |t| t.contains("moulin plays "));
    pty.answer(&format!("save {}", file.display()), "the save", |t| {
        prompt_after(t, "saved ")
    });
    pty.burst("\x03");
    assert!(pty.wait_end().is_some(), "Ctrl-C ends a saved game at once");
    assert!(!pty.text().contains("Quit anyway?"), "{}", pty.text());
}

#[test]
fn the_saved_game_names_the_player_and_moulin_with_its_settings() {
    let mut pty = Pty::start("--level 3 --movetime 20 --plain --name Ada");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
    pty.answer("d2", "moulin's answer", |t| t.contains("moulin plays "));
    let file = record_file("named.pgn", &[]);
    let _ = std::fs::remove_file(&file);
    // Saved (`save` or `save!`), the record's players: the person's name, and moulin's at
    // `level`.
    let saved_as = |save: &str, name: &str, level: u8| {
        pty.answer(&format!("{save} {}", file.display()), "the save", |t| {
            t.contains("saved 2 moves")
        });
        let r = moulin::record::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let moulin = format!(
            "moulin {}, level {level}, 20 ms a move",
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(r[0].tag("White"), Some(name));
        assert_eq!(r[0].tag("Black"), Some(moulin.as_str()));
    };
    saved_as("save", "Ada", 3);
    // Renamed at the prompt (spaces kept), moulin's level changed: both in the record.
    pty.answer("name  Ada  Lovelace ", "the name", |t| {
        t.contains("white is 'Ada  Lovelace' in a saved game.")
    });
    pty.answer("level 5", "the level", |t| t.contains("level 5"));
    saved_as("save!", "Ada  Lovelace", 5);
    let t = pty.answer("name", "the usage", |t| t.contains("usage: "));
    assert!(
        t.contains("usage: name NAME  (your name in the saved game)"),
        "{t}"
    );
    quit(&mut pty);
    // A bad name is refused by the flag, naming what was wrong.
    let out = crate::shared::moulin()
        .args(["play", "--name", ""])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("--name") && err.contains("expected a name of 1 to 80 characters"),
        "{err}"
    );
}

#[test]
fn save_asks_before_replacing_a_file() {
    let mut pty = started();
    let file = record_file("precious.pgn", &["d2"]);
    let precious = std::fs::read_to_string(&file).unwrap();
    pty.answer("a7", "moulin's answer", |t| t.contains("moulin plays "));
    // Asked whether to replace the file: no, then yes.
    for (reply, then) in [("n", "' kept."), ("y", "saved 2 moves")] {
        pty.answer(&format!("save {}", file.display()), "the question", |t| {
            t.contains("exists. Replace it? (y/n) ")
        });
        pty.answer(reply, then, |t| t.contains(then));
        if reply == "n" {
            assert_eq!(std::fs::read_to_string(&file).unwrap(), precious);
        }
    }
    let saved = moulin::record::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved[0].moves[0].mv, "a7");
    // Saved: quit asks nothing.
    pty.keys("quit");
    assert!(pty.wait_end().is_some(), "quit ends a saved game at once");
}

/// `load` of a named pipe is refused at once, the game kept (it froze the game until Ctrl-C,
/// which lost it); `save` over a named pipe is refused rather than asked about (a yes replaced
/// the pipe); `save` where no file can be made says so, naming the folder, before any question.
#[test]
fn load_and_save_refuse_what_is_not_a_regular_file() {
    let mut pty = started();
    let dir = record_file("kept.pgn", &["d2"])
        .parent()
        .unwrap()
        .to_path_buf();
    let pipe = dir.join("pipe.pgn");
    let _ = std::fs::remove_file(&pipe);
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    pty.answer("a7", "moulin's answer", |t| t.contains("moulin plays "));
    let t = pty.answer(&format!("load {}", pipe.display()), "the refusal", |t| {
        t.contains("not a regular file")
    });
    assert!(t.contains("pipe.pgn") && t.contains("a named pipe"), "{t}");
    let t = pty.answer(&format!("save {}", pipe.display()), "the refusal", |t| {
        t.contains("not a regular file")
    });
    assert!(
        t.contains("a named pipe") && !t.contains("Replace it?"),
        "{t}"
    );
    assert!(std::fs::symlink_metadata(&pipe)
        .unwrap()
        .file_type()
        .is_fifo());
    // A file there, in a folder that takes no new file: said before any question, with the
    // folder's name.
    // (`/proc` is a system folder: refused as such, before any question.)
    let t = pty.answer("save /proc/self/comm", "the refusal", |t| {
        t.contains("not a regular file")
    });
    assert!(
        t.contains("'/proc/self/comm' is a name in a system folder") && !t.contains("Replace it?"),
        "{t}"
    );
    let t = pty.answer("save no-such-folder/g.pgn", "the refusal", |t| {
        t.contains("cannot make a file")
    });
    assert!(t.contains("folder 'no-such-folder'"), "{t}");
    // The game was kept: both moves are saved.
    let saved = dir.join("after-pipe.pgn");
    let _ = std::fs::remove_file(&saved);
    pty.answer(&format!("save {}", saved.display()), "the save", |t| {
        t.contains("saved 2 moves")
    });
    let _ = std::fs::remove_file(&pipe);
    quit(&mut pty);
}

/// The value in parentheses after `hint: MOVE`.
fn hint_value(text: &str) -> String {
    let after = text.split("hint: ").nth(1).expect("a hint");
    let open = after.find('(').expect("a value");
    let close = after.find(")\r").or_else(|| after.find(')')).unwrap();
    after[open + 1..close].to_string()
}

#[test]
fn a_hint_gives_its_value_from_the_book_or_the_search() {
    // At the start the shipped opening's solution answers, exactly.
    let pty = started();
    let t = pty.answer("hint", "the hint", |t| t.contains("hint: "));
    assert_eq!(hint_value(&t), "draw, exact by the placing solution");
    // Without it, the opening book, with its value.
    let pty = Pty::start("--level 1 --movetime 20 --plain --opening-solution none");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
    let t = pty.answer("hint", "the hint", |t| t.contains("hint: "));
    let value = hint_value(&t);
    assert!(
        value.ends_with(" pieces by the opening book's search")
            || (value.starts_with("at least a ") && value.ends_with("from the opening book")),
        "{value}"
    );
    // Lasker has no book here: the search's score.
    let pty = Pty::start("--variant lasker --level 1 --movetime 50 --plain");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
    let t = pty.answer("hint", "the hint", |t| t.contains("hint: "));
    let value = hint_value(&t);
    assert!(value.ends_with(" pieces by search"), "{value}");
}

/// The moves of a random game (seeded) that reaches three pieces a side, all placed, with White
/// to move and the game going on.
fn three_a_side(seed: u64) -> Option<Vec<String>> {
    use moulin::rules::board::Color;
    let mut game = Game::new(Rules::nine());
    let mut rng = Rng::new(seed);
    let mut texts = Vec::new();
    while game.outcome().is_none() && texts.len() < 300 {
        let pos = *game.position();
        let placed = pos.in_hand(Color::White) + pos.in_hand(Color::Black) == 0;
        let three = pos.on_board(Color::White) == 3 && pos.on_board(Color::Black) == 3;
        if placed && three && pos.side_to_move() == Color::White {
            return Some(texts);
        }
        let legal = movegen::legal_moves(&pos, Convention::Turn);
        let mv = legal[rng.below(legal.len())];
        texts.push(mv.written_at(&pos, Convention::Turn));
        game.play(mv);
    }
    None
}

#[test]
fn a_hint_is_exact_where_the_endgame_tables_decide() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-play-tables-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let built = crate::shared::moulin()
        .args(["tables", "build", "--files", "--pieces", "3", "--dir", d])
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    let moves = (0..5000)
        .find_map(three_a_side)
        .expect("a game to three a side");
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let file = record_file("three.pgn", &moves);
    let pty = Pty::start(&format!("--level 1 --movetime 50 --plain --tables {d}"));
    pty.wait("the first board", |t| t.contains("white (you) to move"));
    pty.keys(&format!("load {}", file.display()));
    pty.wait("the load", |t| t.contains("loaded "));
    let t = pty.answer("hint", "the hint", |t| t.contains("hint: "));
    let value = hint_value(&t);
    assert!(
        value == "draw, exact by the endgame tables"
            || (value.ends_with(" plies to the next removal, exact by the endgame tables")
                && ["win in ", "loss in "].iter().any(|w| value.starts_with(w))),
        "{value}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--fen` starts the game from a position (to practise an endgame), which a saved record keeps;
/// `--clock` is said at the start, a base under a minute in seconds (`5+3` is five seconds).
#[test]
fn a_game_starts_from_a_position_string_and_says_its_clock() {
    let mut game = Game::new(Rules::nine());
    game.play_tokens(["d2", "d6", "f4", "b4", "b2", "f6"])
        .unwrap();
    let fen = moulin::rules::fen::write(game.position());
    let file = record_file("from-fen.pgn", &[]);
    let _ = std::fs::remove_file(&file);
    let mut pty = Pty::start_with(&["--plain", "--level", "1", "--clock", "5+3", "--fen", &fen]);
    let text = pty.wait("the first board", |t| t.contains("white (you) to move"));
    assert!(
        text.contains("you play white; clock 5 s a side + 3 s a move;"),
        "{text}"
    );
    let text = pty.answer(&format!("save {}", file.display()), "the save", |t| {
        t.contains("saved 0 moves")
    });
    quit(&mut pty);
    let r = moulin::record::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(r[0].tag("FEN"), Some(fen.as_str()), "{text}");
    // A position that cannot be is refused by the flag, naming it.
    let out = crate::shared::moulin()
        .args(["play", "--fen", "w:nonsense"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--fen") && err.contains("position"), "{err}");
}

/// The clock ticks while nobody types: the person's flag falls when their time runs out, said
/// at once above the prompt, not when they next type a move.
#[test]
fn the_flag_falls_while_the_person_thinks() {
    let mut pty = Pty::start("--plain --level 1 --clock 1");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
    let text = pty.wait("the flag", |t| t.contains("0-1 black wins on time"));
    assert!(text.contains("clock 1 s a side"), "{text}");
    let text = pty.answer("d2", "the refusal", |t| t.contains("the game is over"));
    assert!(text.contains("wins on time"), "{text}");
    quit(&mut pty);
}
