//! How a conversation ends other than by `quit`: the end of input answers what was asked before
//! it (a pending `isready`, a search with limits, perft), and an output that is gone (its reader
//! left, or a full device) ends the search and the engine without waiting for `stop`.

use super::harness::shared;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A placing position outside the book, whose search deepens by seconds a depth past 15.
const DEEP: &str = "position startpos moves d6 d2 f4 b4 d7 g7";

fn spawn(stdout: Stdio) -> Child {
    crate::shared::moulin()
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts")
}

/// Waits at most `limit` for `child` to end.
fn ended_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        thread::sleep(Duration::from_millis(2));
    }
    None
}

fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut text).unwrap();
    text
}

/// The lines the engine answers to `input` followed by the end of input, and how it exits.
fn answers(input: &str) -> (Vec<String>, ExitStatus) {
    let mut child = spawn(Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // What the engine knows, said before the first `readyok`, is not what these tests look at.
    let lines = text.lines().filter(|l| !super::harness::is_inventory(l));
    (lines.map(str::to_string).collect(), out.status)
}

/// `printf 'isready\n' | moulin`: the book is still being read when the input ends; `readyok`
/// comes once it is, before the engine exits.
#[test]
fn a_pending_isready_is_answered_at_the_end_of_input() {
    let _gate = shared();
    let (lines, status) = answers("isready\n");
    assert_eq!(lines, ["readyok"]);
    assert!(status.success(), "{status:?}");
}

/// A search with limits runs to its end and answers; `go infinite`, which nothing could stop
/// any more, is stopped at once and answers; perft counts to its end. Everything in order.
#[test]
fn what_was_asked_before_the_end_of_input_is_answered() {
    let _gate = shared();
    let (lines, status) = answers(&format!("isready\n{DEEP}\ngo depth 12\n"));
    assert!(status.success(), "{status:?}");
    assert_eq!(
        lines.first().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 12 ")),
        "the search went to its depth: {lines:?}"
    );

    let started = Instant::now();
    let (lines, status) = answers(&format!("{DEEP}\ngo infinite\n"));
    assert!(status.success(), "{status:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    let (lines, status) = answers("perft 6\n");
    assert!(status.success(), "{status:?}");
    assert_eq!(lines.len(), 24 + 2, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "nodes 99274176");
}

/// The GUI closes its end of the engine's stdout in the middle of `go infinite`, and sends
/// nothing more (no `stop`, no `quit`, its end of stdin still open): the engine notices, ends
/// the search and exits, killed by SIGPIPE as other programs writing to a closed pipe are. The
/// pipe is closed at depth 16, when the next `info` line is seconds away: the engine does not
/// wait for a write to fail.
#[test]
fn a_closed_output_ends_the_search_and_the_engine() {
    let _gate = shared();
    let mut child = spawn(Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{DEEP}\ngo infinite").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("info depth 16 ") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the engine ended");
    }
    drop(stdout);
    let closed = Instant::now();
    let status = ended_within(&mut child, Duration::from_secs(2));
    let took = closed.elapsed();
    let stderr = if status.is_some() {
        stderr_of(&mut child)
    } else {
        let _ = child.kill();
        String::new()
    };
    println!("go infinite with its output closed: the engine ended after {took:?}");
    let status = status.expect("the engine searches on with nobody to hear it");
    assert_eq!(status.signal(), Some(libc::SIGPIPE), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    drop(stdin);
}

/// Stdout on a full device: the first answer cannot be written; the engine says so in one line
/// on stderr and exits with status 1 instead of going on deaf and dumb.
#[test]
fn a_full_output_ends_the_engine_with_one_error() {
    let _gate = shared();
    let full = File::options().write(true).open("/dev/full").unwrap();
    let mut child = spawn(Stdio::from(full));
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "uci").unwrap();
    let status = ended_within(&mut child, Duration::from_secs(5));
    if status.is_none() {
        let _ = child.kill();
    }
    let status = status.expect("the engine goes on with its output full");
    let stderr = stderr_of(&mut child);
    assert_eq!(status.code(), Some(1), "{status:?}: {stderr}");
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        ["moulin: cannot write to standard output: No space left on device (os error 28)"]
    );
    drop(stdin);
}
