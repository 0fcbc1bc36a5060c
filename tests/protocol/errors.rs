//! Errors: every malformed or illegal line answers one error line and changes nothing.

use super::harness::{shared, Engine, START, TIMEOUT};

/// Lines each refused with one error line, leaving the position as it was.
const BAD_COMMANDS: &[&str] = &[
    "bogus",
    "uci now",
    "isready please",
    "setoption",
    "setoption Hash 3",
    "setoption name",
    "setoption name Hash",
    "setoption name Hash value",
    "setoption name Colour value red",
    "setoption name Hash value 0",
    "setoption name Hash value 1000000000000",
    "setoption name Hash value big",
    "setoption name Threads value 0",
    "setoption name Threads value 65",
    "setoption name MultiPV value -1",
    "setoption name Ponder value maybe",
    "setoption name Style value fancy",
    "setoption name MoveNotation value both",
    "setoption name Variant value chess",
    "setoption name Pieces value 13",
    "setoption name Pieces value 2",
    "setoption name FirstPlayer value red",
    "setoption name Diagonals value sometimes",
    "setoption name Flying value 2",
    "setoption name MillProtection value maybe",
    "setoption name DoubleMill value three",
    "setoption name Reform value perhaps",
    "setoption name NoCapture value 10001",
    "setoption name Repetition value twofold",
    "setoption name MovingInPlacing value 2",
    "setoption name FullBoard value lost",
    "position",
    "position startpos d6",
    "position fen",
    "position fen nonsense",
    "position fen ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0",
    "position fen ********/********/******** w p p 0 10 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "position nowhere",
    "position startpos moves d6 d6",
    "position startpos moves d6 f4 d9",
    "position startpos moves d6-d5",
    "position startpos moves xd6",
    "position startpos moves d7 a1 g7 d1 a7 d6",
    "position startpos moves d7 a1 g7 d1 a7xg7",
    "position startpos moves d6xf4",
    "position startpos moves é",
    "go depth",
    "go depth deep",
    "go movetime 1e3",
    "go fast",
    "go searchmoves",
    "go searchmoves d6",
    "go depth 1 searchmoves a7 xd6",
    "go searchmoves zz",
    "go perft",
    "go perft 41",
    "perft",
    "perft -1",
    "perft 99",
    "perft 3 4",
    "d now",
    "fen please",
    "moves all",
    "eval me",
    "help me",
    "stop now",
    "ponderhit now",
    "quit now",
    "ucinewgame again",
    "debug maybe",
];

#[test]
fn every_error_is_one_line_and_changes_nothing() {
    let _gate = shared();
    let mut e = Engine::start();
    // The searches below are of positions in the opening book: search them.
    e.ask("setoption name OwnBook value false");
    e.ask("position startpos moves d6 f4");
    for bad in BAD_COMMANDS {
        e.refused(bad);
    }
    // A refused setoption keeps the value: the table size did not change, nor the rules.
    assert!(e.ask("d").iter().any(|l| l.starts_with("Rules: nine")));
    // A position string that does not read and one that reads but is no position are told apart,
    // and both name the field.
    let syntax =
        e.refused("position fen ********/********/******** x p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1");
    assert!(syntax.contains("bad position string, field 2"), "{syntax}");
    let impossible =
        e.refused("position fen ********/********/******** w p p 0 10 0 9 0 0 -1 -1 -1 -1 0 0 1");
    assert!(
        impossible.contains("impossible position, field 6"),
        "{impossible}"
    );
    // Invalid UTF-8 and control characters.
    e.send_bytes(b"\xff\xfe\xfd go\n");
    let line = e.next_line(TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string error: unknown command"),
        "{line}"
    );
    e.send_bytes(b"\x01\x02\x1b[2J\n");
    let line = e.next_line(TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string error: ") && !line.contains('\x1b'),
        "{line}"
    );
    // A line far too long.
    let mut long = b"position startpos moves".to_vec();
    long.extend(" d6".repeat(100_000).as_bytes());
    long.push(b'\n');
    e.send_bytes(&long);
    let line = e.next_line(TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string error: line too long"),
        "{line}"
    );
    // Blank lines are ignored.
    assert_eq!(e.ask(""), Vec::<String>::new());
    assert_eq!(e.ask(" \t \r"), Vec::<String>::new());
    // Commands that need the engine idle wait for the search (`waiting.rs`), the others answer
    // at once: nothing is refused.
    e.send("go infinite");
    assert_eq!(e.ask_quiet("fen").len(), 1);
    for waits in [
        "go depth 1",
        "perft 1",
        "setoption name Hash value 2",
        "ucinewgame",
    ] {
        e.send(waits);
    }
    e.send("stop");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 2, "{lines:?}");
    // Perft, stopped as it starts (the `stop` came after it), or already done.
    let perft = |l: &String| l == "info string perft stopped" || l.starts_with("nodes ");
    assert!(lines.iter().any(perft), "{lines:?}");
    assert_eq!(e.fen(), START);
    e.quit();
}

/// A malformed `setoption` or `position` shows the form expected and the line meant.
#[test]
fn malformed_commands_show_their_form_and_the_line_meant() {
    let _gate = shared();
    let mut e = Engine::start();
    let form = "(the form is 'setoption name <id> [value <x>]')";
    for (line, meant) in [
        ("setoption Hash 32", "setoption name Hash value 32"),
        ("setoption name Hash 32", "setoption name Hash value 32"),
        (
            "setoption name Move Overhead 30",
            "setoption name MoveOverhead value 30",
        ),
        ("position d6 f4", "position startpos moves d6 f4"),
        ("position startpos d6 f4", "position startpos moves d6 f4"),
    ] {
        let error = e.refused(line);
        assert!(
            error.ends_with(&format!("; did you mean '{meant}'?")),
            "{line}: {error}"
        );
        if line.starts_with("setoption") {
            assert!(error.contains(form), "{line}: {error}");
        }
    }
    // The line meant is right: it is obeyed.
    assert_eq!(e.ask("setoption name Hash value 32"), Vec::<String>::new());
    for line in ["setoption", "setoption name", "setoption name Hash"] {
        let error = e.refused(line);
        assert!(error.ends_with(form), "{line}: {error}");
    }
    e.quit();
}

/// The protocol's `perft` has the limit of `moulin perft` (`perft::binary_perft_refuses_...`).
#[test]
fn perft_has_the_limit_of_the_subcommand() {
    let _gate = shared();
    let limit = moulin::rules::perft::MAX_DEPTH;
    let mut e = Engine::start();
    for line in [
        format!("perft {}", limit + 1),
        format!("go perft {}", limit + 1),
    ] {
        let error = e.refused(&line);
        assert!(
            error.contains(&format!("(0 to {limit})")),
            "{line}: {error}"
        );
    }
    // The deepest is taken, and `stop` ends it.
    e.send(&format!("perft {limit}"));
    e.send("stop");
    let lines = e.until(|l| l == "info string perft stopped" || l.starts_with("nodes "));
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    e.quit();
}
