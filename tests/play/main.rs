//! `moulin play` driven through a real terminal (a pseudo-terminal): a whole game typed move by
//! move, an illegal move, undo, save, new and load, and quit; input in bursts.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod pty;

use pty::Pty;

use moulin::rng::Rng;
use moulin::rules::movegen;
use moulin::{Convention, Game, Rules};

/// The moves moulin announced, in order.
fn engine_moves(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split("moulin plays ").nth(1))
        .filter_map(|m| m.split_whitespace().next())
        .map(String::from)
        .collect()
}

/// Types `quit` and checks that the program ends.
fn quit(pty: &mut Pty) {
    pty.keys("quit");
    assert!(pty.wait_end().is_some(), "quit ends the program");
}

#[test]
fn a_whole_game_typed_at_the_terminal_then_undo_save_load_and_quit() {
    let mut pty = Pty::start("--level 1 --movetime 20 --plain");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
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
    assert!(moves > 0 && saved[0].tag("White") == Some("you"));
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
    let mut pty = Pty::start("--level 1 --movetime 20 --plain");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
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
    let pty = Pty::start("--level 1 --movetime 20 --plain");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
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
    let pty = Pty::start("--level 1 --movetime 20 --plain");
    pty.wait("the first board", |t| t.contains("white (you) to move"));
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
