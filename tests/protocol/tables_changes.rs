//! Table files that change, or are not what they seem, under a running engine: cut short, written
//! over in place with another table's bytes, renamed over, cut during a search; a named pipe
//! among the tables; a header whose width byte was changed, a file cut inside its header. Real
//! files and a real engine.

use super::harness::{scratch, shared, Engine};
use super::tables::three_a_side;
use moulin::tables::{file, sample, Tables, Value};
use moulin::{Color, Rules};
use std::fs::OpenOptions;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// White to move closes a mill by flying g7 to c5 and wins at once (3-3).
const WON: &str = "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";

/// 4 against 3, White to move: not covered by 3-a-side tables, but Black's mills lead to 3-3
/// positions, which the search probes.
const NOT_COVERED: &str = "OO*O****/**@@****/*O****@* w m s 4 0 3 0 0 0 -1 -1 -1 -1 0 0 20";

/// A fresh folder holding a copy of the 3-a-side tables of `nine`.
fn copy_of_three(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(file::path(three_a_side(), 3, 3), file::path(&dir, 3, 3)).unwrap();
    dir
}

/// An engine reading the tables of `dir` (checked: they are in force).
fn engine_with(dir: &Path) -> Engine {
    let mut e = Engine::start();
    let lines = e.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    assert!(lines.is_empty(), "{lines:?}");
    e
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

/// The line that reports the change of `file`.
fn change_line<'a>(lines: &'a [String], what: &str) -> &'a String {
    lines
        .iter()
        .find(|l| l.starts_with("info string ") && l.contains("3-3.tbl") && l.contains(what))
        .unwrap_or_else(|| panic!("no line on 3-3.tbl saying {what:?}: {lines:?}"))
}

/// Renamed over by a whole table (as `tables build` writes), a table is read again, checked and
/// used. Cut short under a running engine (the same file, fewer bytes), it is not probed: the
/// next command notices, says so, and the engine answers without it (it died of SIGBUS before).
#[test]
fn a_table_replaced_is_read_again_and_one_cut_is_dropped() {
    let _gate = shared();
    let dir = copy_of_three("changes-short");
    let path = file::path(&dir, 3, 3);
    let good = std::fs::read(&path).unwrap();
    let mut e = engine_with(&dir);
    assert!(answered_from_tables(&go_in(&mut e, WON)));
    let fresh = dir.join("fresh.tmp");
    std::fs::write(&fresh, &good).unwrap();
    std::fs::rename(&fresh, &path).unwrap();
    let lines = go_in(&mut e, WON);
    change_line(&lines, "another file");
    change_line(&lines, "read again and checked");
    assert!(
        lines.contains(&"info string tables win dtc 1".to_string()),
        "{lines:?}"
    );
    let inode = std::fs::metadata(&path).unwrap().ino();
    OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1000)
        .unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
    let lines = go_in(&mut e, WON);
    assert!(!answered_from_tables(&lines), "{lines:?}");
    let line = change_line(&lines, "changed");
    assert!(line.contains("210180 to 1000 bytes"), "{line}");
    // Read again, it is refused as cut: the engine plays without it.
    let line = change_line(&lines, "is cut");
    assert!(line.starts_with("info string error: "), "{line}");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `twelve`'s 3-3 table, built once.
fn twelve_three() -> PathBuf {
    let dir = scratch("changes-twelve");
    let _ = std::fs::remove_dir_all(&dir);
    let out = crate::shared::moulin()
        .args([
            "tables",
            "build",
            "--files",
            "--pieces",
            "3",
            "--variant",
            "twelve",
        ])
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    dir
}

/// Another table's bytes copied over a table in place (the same file, the same size) are not
/// answered from: the engine answered from them before, with no word.
#[test]
fn a_table_written_over_in_place_is_not_answered_from() {
    let _gate = shared();
    let twelve_dir = twelve_three();
    let nine = Tables::open(three_a_side(), &Rules::nine()).unwrap();
    let twelve = Tables::open(&twelve_dir, &Rules::preset("twelve").unwrap()).unwrap();
    // A position whose value differs between the two tables.
    let mut rng = moulin::rng::Rng::new(11);
    let (fen, value) = sample::sample(&nine, &Rules::nine(), 400, false, &mut rng)
        .into_iter()
        .find_map(|p| {
            let pos = moulin::rules::fen::read(&p.fen, &Rules::nine()).unwrap();
            let us = pos.side_to_move();
            let other = twelve.value(pos.pieces(us).0, pos.pieces(!us).0).unwrap();
            (other != p.value && pos.side_to_move() == Color::White).then_some((p.fen, p.value))
        })
        .expect("a position the tables disagree on");
    let dir = copy_of_three("changes-over");
    let path = file::path(&dir, 3, 3);
    let mut e = engine_with(&dir);
    let lines = go_in(&mut e, &fen);
    let said = |v: Value| format!("info string tables {v} dtc {}", v.distance());
    assert!(lines.contains(&said(value)), "{lines:?}");
    let inode = std::fs::metadata(&path).unwrap().ino();
    std::fs::write(&path, std::fs::read(file::path(&twelve_dir, 3, 3)).unwrap()).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
    let lines = go_in(&mut e, &fen);
    assert!(!answered_from_tables(&lines), "{lines:?}");
    change_line(&lines, "changed");
    // Read again, it is refused as made for other rules.
    change_line(&lines, "other rules");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&twelve_dir);
}

/// An engine with a fresh copy of the 3-a-side tables, 300 ms into a `go infinite` whose search
/// probes them: the folder, the table's file and the engine.
fn searching(name: &str) -> (PathBuf, PathBuf, Engine) {
    let dir = copy_of_three(name);
    let path = file::path(&dir, 3, 3);
    let mut e = engine_with(&dir);
    e.ask(&format!("position fen {NOT_COVERED}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    (dir, path, e)
}

/// A table cut while a search probes it (between the check at `go` and the probes): the engine
/// does not die, answers, and says what happened.
#[test]
fn a_table_cut_during_a_search_does_not_kill_the_engine() {
    let _gate = shared();
    let (dir, path, mut e) = searching("changes-search");
    OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let lines: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.starts_with("info depth"))
        .collect();
    change_line(&lines, "changed");
    // Still playing, without the table.
    let lines = go_in(&mut e, WON);
    assert!(!answered_from_tables(&lines), "{lines:?}");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table written over in place while a search runs (no byte cut, so no fault): the engine
/// notices within a moment, during the search, and the search stops reading it.
#[test]
fn a_table_written_during_a_search_is_withdrawn_at_once() {
    use std::io::{Seek, SeekFrom, Write};
    let _gate = shared();
    let (dir, path, mut e) = searching("changes-during");
    let mut f = OpenOptions::new().write(true).open(&path).unwrap();
    f.seek(SeekFrom::Start(40)).unwrap();
    f.write_all(&vec![0u8; 210_140]).unwrap();
    drop(f);
    let written = Instant::now();
    let lines = e.until(|l| l.contains("3-3.tbl") && l.contains("changed"));
    assert!(
        written.elapsed() < Duration::from_secs(2),
        "{:?}",
        written.elapsed()
    );
    let line = lines.last().unwrap();
    assert!(line.contains("written to in place"), "{line}");
    // Read again (on a thread of its own, so before or after the `bestmove`), it is refused.
    let refused = |l: &str| l.starts_with("info string error: ") && l.contains("checksum mismatch");
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    if !lines.iter().any(|l| refused(l)) {
        e.until(refused);
    }
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `moulin` with `args`, killed after `limit`: its stderr, or `None` if it had to be killed.
fn run_within(args: &[&str], limit: Duration) -> Option<String> {
    let mut child = crate::shared::moulin()
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

/// A table cut inside its header is said to be so, with the bytes it has, not with the system's
/// "failed to fill whole buffer".
#[test]
fn a_table_cut_inside_its_header_says_so() {
    let dir = copy_of_three("changes-header");
    let path = file::path(&dir, 3, 3);
    let good = std::fs::read(&path).unwrap();
    for keep in [0, 20, 39] {
        std::fs::write(&path, &good[..keep]).unwrap();
        let err = run_within(
            &["tables", "stats", "--dir", dir.to_str().unwrap()],
            Duration::from_secs(20),
        )
        .unwrap();
        assert!(
            err.contains("3-3.tbl")
                && err.contains(&format!("cut inside its header ({keep} bytes of 40)")),
            "{err}"
        );
        assert!(!err.contains("fill whole buffer"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
