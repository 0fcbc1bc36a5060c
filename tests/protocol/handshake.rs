//! The handshake and the options: the greeting on a terminal, `uci`, `help`, and the rule
//! options that reset the position.

use super::harness::{shared, word_after, Engine};
use std::io::{Read, Write};
use std::process::Stdio;

/// What the engine writes on stderr with `stdin`, once `write` sent it `quit`.
fn stderr_with_stdin(stdin: Stdio, write: impl FnOnce(&mut std::process::Child)) -> String {
    let mut child = crate::shared::moulin()
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env("RUST_LOG", "warn")
        .spawn()
        .expect("the engine starts");
    write(&mut child);
    let mut text = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(child.wait().unwrap().success());
    text
}

/// On a terminal the protocol says at once how to begin, on stderr (stdout stays the
/// protocol's); piped, as a GUI or a script runs it, it says nothing.
#[test]
fn a_terminal_is_greeted_on_stderr_and_a_pipe_is_not() {
    let _gate = shared();
    let greeting = format!("moulin {}: type help\n", env!("CARGO_PKG_VERSION"));
    let (mut master, terminal) = crate::shared::terminal::open(24, 80);
    let text = stderr_with_stdin(Stdio::from(terminal), |_| {
        master.write_all(b"quit\n").unwrap();
    });
    assert_eq!(text, greeting);
    let text = stderr_with_stdin(Stdio::piped(), |child| {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"quit\n").unwrap();
    });
    assert_eq!(text, "");
}

#[test]
fn uci_handshake_lists_every_option() {
    let _gate = shared();
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert_eq!(
        lines[0],
        format!("id name moulin {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "MoveOverhead",
        "Ponder",
        "Style",
        "MoveNotation",
        "Variant",
        "FirstPlayer",
        "Pieces",
        "Diagonals",
        "Flying",
        "MillProtection",
        "DoubleMill",
        "Reform",
        "NoCapture",
        "Repetition",
        "MovingInPlacing",
        "FullBoard",
        "OwnBook",
        "BookFile",
        "BookVariety",
        "TablesPath",
        "TablesCache",
        "SolvedPlacing",
        "Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "OpeningSolution",
        "EvalFile",
    ] {
        let line = options
            .iter()
            .find(|l| word_after(l, "name") == Some(name))
            .unwrap_or_else(|| panic!("no option {name}"));
        assert!(
            line.contains(" type ") && line.contains(" default "),
            "{line}"
        );
    }
    assert_eq!(options.len(), 31);
    assert!(lines.contains(
        &"option name SolvedPlacing type combo default testing var testing var random var off"
            .into()
    ));
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".into()));
    assert!(lines.contains(&"option name UCI_Elo type spin default 2000 min 166 max 2000".into()));
    assert!(lines.contains(&"option name Level type spin default 20 min 1 max 20".into()));
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1024".into()));
    assert!(lines.contains(&"option name Ponder type check default false".into()));
    assert!(lines.contains(&"option name LearnOverhead type check default true".into()));
    assert!(lines.contains(&"option name TablesPath type string default installed".into()));
    assert!(lines.contains(&"option name Style type combo default full var full var plain".into()));
    assert!(lines
        .contains(&"option name MoveNotation type combo default turn var turn var action".into()));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    assert_eq!(e.ask("debug on"), Vec::<String>::new());
    e.quit();
}

#[test]
fn help_lists_commands_and_subcommands() {
    let _gate = shared();
    let out = crate::shared::moulin().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("perft"), "{text}");
    let mut e = Engine::start();
    let help = e.ask("help").join("\n");
    for cmd in [
        "uci",
        "isready",
        "setoption",
        "ucinewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "quit",
        "perft",
        "eval",
        "moves",
        "fen",
        "bench",
    ] {
        assert!(help.contains(cmd), "help lacks {cmd}");
    }
    e.quit();
}
#[test]
fn rule_options_reset_the_position() {
    let _gate = shared();
    let mut e = Engine::start();
    for (option, value, check) in [
        ("Pieces", "12", " 0 12 0 12 "),
        ("FirstPlayer", "black", " b p p "),
        ("Variant", "lasker", " 0 10 0 10 "),
        ("Diagonals", "true", ""),
        ("Flying", "never", ""),
        ("MillProtection", "always", ""),
        ("DoubleMill", "per-mill", ""),
        ("Reform", "illegal", ""),
        ("NoCapture", "0", ""),
        ("Repetition", "off", ""),
        ("MovingInPlacing", "true", ""),
        ("FullBoard", "blocked", ""),
        ("variant", "NINE", " 0 9 0 9 "),
    ] {
        e.ask("position startpos moves d6");
        assert_eq!(
            e.ask(&format!("setoption name {option} value {value}")),
            Vec::<String>::new()
        );
        let fen = e.fen();
        assert!(
            fen.starts_with("********/********/******** "),
            "{option}: {fen}"
        );
        assert!(fen.contains(check), "{option}: {fen}");
    }
    // Under 12 pieces, a position string must fit the rules in force.
    e.ask("setoption name Pieces value 12");
    e.ask("position startpos moves d6 d7");
    assert!(e.fen().contains(" 1 11 1 11 "));
    e.quit();
}
