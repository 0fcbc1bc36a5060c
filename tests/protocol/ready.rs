//! `isready` answered in order, as Stockfish answers it: each `readyok` stands where its
//! `isready` stood among the answers, while the opening book is still being read at the start,
//! in both dialects, piped in one write or typed line by line, with `quit` or the end of input
//! right behind the last `isready`.
//!
//! What each other command answers is taken from a reference engine that is asked once its book
//! is read (each command then `isready`, `Engine::ask`); a script's output must be those answers
//! in the script's order with a `readyok` where each `isready` is.

use super::harness::{shared, spawn_piped, Engine};
use std::io::Write;
use std::thread;
use std::time::Duration;

/// Scripts that a GUI or a health check sends at once, the book still being read. A job (`go`,
/// `perft`) is followed by a command that waits for it (`ucinewgame`, another job) before an
/// `isready`: an `isready` during a job is answered at once, as Stockfish answers it during a
/// search, so its place among the job's lines is not fixed.
const SCRIPTS: &[&str] = &[
    "uci\nisready\n",
    "isready\nd\nisready\n",
    "uci\nisready\nposition startpos moves d6\nfen\nisready\nmoves\nisready\n",
    "isready\nisready\nposition startpos moves d6 f4\ngo depth 3\nucinewgame\nisready\nfen\n",
    "setoption name OwnBook value false\nposition startpos moves d6 f4\ngo depth 3\nperft 2\n\
     ucinewgame\nisready\nd\n",
    "gbgp\nisready\nfen\nisready\n",
    "gbgp\nisready\nnewgame\nisready\nposition pos w:w:b:1 moves d2\nfen\nisready\nmoves\n",
];

/// A line with what varies from run to run (times, speeds, the search's lines and move) left
/// out: its place among the others is what is checked.
fn normalized(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["info", kind, ..] => format!("info {kind}"),
        ["bestmove", ..] => "bestmove".into(),
        _ => line.to_string(),
    }
}

/// What `script` must answer: each command's answer from a settled engine, in order, and
/// `readyok` for each `isready`.
fn expected(script: &str) -> Vec<String> {
    // Each command is followed by `isready`, which comes once the book is read: its answer is
    // complete then; a job's ends with its last line.
    let mut reference = Engine::start();
    let mut lines = Vec::new();
    for command in script.lines() {
        if command == "isready" {
            lines.push("readyok".to_string());
        } else if command.starts_with("go ") {
            lines.extend(reference.go(command));
        } else if command.starts_with("perft ") {
            lines.extend(reference.go_until(command, "nodes "));
        } else {
            lines.extend(reference.ask(command));
        }
    }
    lines.iter().map(|l| normalized(l)).collect()
}

/// What the engine writes for `script` then `ending` (`quit`, or nothing: the end of input),
/// written in one go or a line at a time.
fn answers(script: &str, ending: &str, typed: bool) -> Vec<String> {
    let mut child = spawn_piped();
    let mut stdin = child.stdin.take().unwrap();
    let input = format!("{script}{ending}");
    if typed {
        for line in input.lines() {
            stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
            stdin.flush().unwrap();
            thread::sleep(Duration::from_millis(15));
        }
    } else {
        stdin.write_all(input.as_bytes()).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{script:?}: {:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !super::harness::is_inventory(l))
        .map(normalized)
        .collect()
}

#[test]
fn every_readyok_stands_where_its_isready_stood() {
    let _gate = shared();
    for script in SCRIPTS {
        let want = expected(script);
        assert!(want.iter().any(|l| l == "readyok"), "{script:?}");
        for ending in ["quit\n", ""] {
            for typed in [false, true] {
                let got = answers(script, ending, typed);
                assert_eq!(got, want, "{script:?} then {ending:?}, typed: {typed}");
            }
        }
    }
}

/// The health check of the issue: `printf 'uci\nisready\nquit\n' | moulin | grep readyok`, run
/// again and again (it printed no `readyok` while the book was read).
#[test]
fn a_health_check_always_reads_readyok() {
    let _gate = shared();
    for _ in 0..5 {
        let lines = answers("uci\nisready\n", "quit\n", false);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("readyok"),
            "{lines:?}"
        );
    }
}
