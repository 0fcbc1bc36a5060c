//! Table files that are not what they seem: a named pipe among the tables; a header whose width
//! byte was changed. Real files and a real engine.

use crate::harness::{scratch, shared, Engine};
use crate::tables::three_a_side;
use moulin::tables::file;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// White to move closes a mill by flying g7 to c5 and wins at once (3-3).
const WON: &str = "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";

/// A fresh folder holding a copy of the 3-a-side tables of `nine`.
fn copy_of_three(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(file::path(three_a_side(), 3, 3), file::path(&dir, 3, 3)).unwrap();
    dir
}

/// The lines of `position fen FEN`, `isready` and `go depth 6` (a covered position is answered
/// at once from the tables), up to `bestmove`.
fn go_in(e: &mut Engine, fen: &str) -> Vec<String> {
    let mut lines = e.ask(&format!("position fen {fen}"));
    lines.extend(e.go("go depth 6"));
    lines
}

fn answered_from_tables(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info string tables "))
}

/// Runs `moulin` with `args`, killed after `limit`: its stderr, or `None` if it had to be killed.
fn run_within(args: &[&str], limit: Duration) -> Option<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_moulin"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    Some(String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A named pipe (and a folder) named as tables are skipped with a word: `isready` is answered at
/// once and the real table is used (`isready` waited forever before); `tables stats` ends too.
#[test]
fn a_named_pipe_among_the_tables_is_skipped_without_a_wait() {
    let _gate = shared();
    let dir = copy_of_three("changes-fifo");
    let made = Command::new("mkfifo")
        .arg(file::path(&dir, 3, 4))
        .status()
        .unwrap();
    assert!(made.success());
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    e.send("isready");
    let started = Instant::now();
    let mut lines = Vec::new();
    while let Some(line) = e.next_line(Duration::from_secs(10)) {
        let ready = line == "readyok";
        lines.push(line);
        if ready {
            break;
        }
    }
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{lines:?}");
    assert!(answered_from_tables(&go_in(&mut e, WON)));
    e.quit();
    std::fs::create_dir(file::path(&dir, 4, 3)).unwrap();
    let d = dir.to_str().unwrap();
    let err = run_within(&["tables", "stats", "--dir", d], Duration::from_secs(10))
        .expect("tables stats ends");
    for name in ["3-4.tbl", "4-3.tbl"] {
        assert!(
            err.lines()
                .any(|l| l.contains(name) && l.contains("not a regular file")),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A header whose width byte was changed is reported as such, naming the file and the value,
/// not as a file cut short.
#[test]
fn a_changed_width_byte_is_named_as_such() {
    let dir = copy_of_three("changes-width");
    let path = file::path(&dir, 3, 3);
    let good = std::fs::read(&path).unwrap();
    assert_eq!(good[18], 1, "a table of a byte a value");
    for width in [2u8, 7] {
        let mut bytes = good.clone();
        bytes[18] = width;
        std::fs::write(&path, &bytes).unwrap();
        let err = run_within(
            &["tables", "stats", "--dir", dir.to_str().unwrap()],
            Duration::from_secs(20),
        )
        .unwrap();
        assert!(
            err.contains("3-3.tbl") && err.contains(&format!("width byte is {width}")),
            "{err}"
        );
        assert!(!err.contains("cut"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
