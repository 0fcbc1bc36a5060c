//! The shipped data built into the binary: a copy of it alone in an empty folder, with a home
//! and a cache of its own, benches and plays the start exactly as the checkout does, and says
//! what it knows in four lines at the first `isready`.

use super::harness::{is_inventory, scratch};
use std::io::Write;
use std::process::{Command, Stdio};

/// The documented bench (README, docs/results.md): the network built in evaluates.
const BENCH_NODES: &str = "4756899 nodes";

/// A copy of the binary in a fresh folder of its own, with that folder as its home and cache.
fn lone_copy(name: &str) -> (std::path::PathBuf, Command) {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("moulin");
    std::fs::copy(env!("CARGO_BIN_EXE_moulin"), &bin).unwrap();
    let mut command = Command::new(&bin);
    command
        .current_dir(&dir)
        .env("HOME", &dir)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env_remove("RUST_LOG");
    (dir, command)
}

#[test]
fn a_binary_copied_alone_benches_and_plays_the_start_as_the_checkout_does() {
    let _guard = super::harness::shared();
    let (dir, mut bench) = lone_copy("lone-copy");
    let out = bench.arg("bench").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains(BENCH_NODES), "{text}");

    let (_, mut engine) = lone_copy("lone-copy-engine");
    let mut child = engine
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition startpos\ngo depth 1\neval\nisready\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    for option in ["EvalFile", "OpeningSolution", "BookFile"] {
        let line = format!("option name {option} type string default built-in");
        assert!(lines.contains(&line.as_str()), "{text}");
    }
    // Four lines say what it knows, once, before the first `readyok`.
    let said: Vec<&str> = lines.iter().copied().filter(|l| is_inventory(l)).collect();
    assert_eq!(said.len(), 4, "{text}");
    let first_ready = lines.iter().position(|l| *l == "readyok").unwrap();
    assert!(lines[..first_ready].ends_with(&said), "{text}");
    for (line, starts) in said.iter().zip([
        "info string evaluation: network built-in nine.nnue: 108212 bytes",
        "info string opening solution built-in nine-opening.sol: 8200054 bytes",
        "info string opening book built-in nine.book: ",
        "info string endgame tables: none installed for the rules in force",
    ]) {
        assert!(line.starts_with(starts), "{line}: {text}");
    }
    // The start is an exact draw, by the opening's solution built in.
    assert!(
        lines.contains(&"info string placing solution draw"),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Network: ") && l.contains("for white")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_named_replaces_the_built_in_data_and_none_turns_it_off() {
    let _guard = super::harness::shared();
    let mut e = super::harness::Engine::start_with(&["--option", "EvalFile=none"]);
    e.send("setoption name BookFile value none");
    e.send("setoption name OpeningSolution value none");
    e.send("isready");
    let lines = e.until_all(|l| l == "readyok");
    assert_eq!(
        lines,
        [
            "info string evaluation: hand-written; network: none (EvalFile none)",
            "info string opening solution: none (OpeningSolution none)",
            "info string opening book: none (BookFile none)",
            "info string endgame tables: none installed for the rules in force (moulin tables \
             install)",
            "readyok",
        ]
    );
    // The built-in data back, as `built-in` names it; said again since it changed.
    e.send("setoption name OpeningSolution value built-in");
    e.send("isready");
    let lines = e.until_all(|l| l == "readyok");
    assert!(
        lines[1].starts_with("info string opening solution built-in nine-opening.sol"),
        "{lines:?}"
    );
    // Nothing changed: nothing said.
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.quit();
}

/// No code of the library or the binary reads the checkout at run time: `CARGO_MANIFEST_DIR`
/// is named only in tests (a `#[cfg(test)]` module, or `tests/`), so that a binary copied away
/// from its checkout cannot find the checkout's files.
#[test]
fn no_code_but_tests_names_the_checkout() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // A test module sits at the end of its file.
            let code = text.split("#[cfg(test)]").next().unwrap();
            let is_test_file = path.to_string_lossy().ends_with("_tests.rs")
                || path.to_string_lossy().contains("/testing.rs");
            if code.contains("CARGO_MANIFEST_DIR") && !is_test_file {
                found.push(path.display().to_string());
            }
        }
    }
    assert!(found.is_empty(), "{found:?}");
}

/// What the lines say follows each setting: `OwnBook false`, a level below full strength (the
/// parts are loaded but not used), a value cleared (`value` with nothing after it: the built-in
/// data again), and `built-in` for the tables (the installed set, as empty and `installed`).
#[test]
fn the_lines_follow_the_book_the_level_and_a_cleared_value() {
    let _guard = super::harness::shared();
    let mut e = super::harness::Engine::start_with(&["--option", "TablesPath=built-in"]);
    let said = |e: &mut super::harness::Engine, cmd: &str| {
        e.send(cmd);
        e.send("isready");
        e.until_all(|l| l == "readyok")
    };
    let first = said(&mut e, "setoption name EvalFile value none");
    assert_eq!(
        first[3],
        "info string endgame tables: none installed for the rules in force (moulin tables install)",
        "{first:?}"
    );
    let cleared = said(&mut e, "setoption name EvalFile value ");
    assert!(
        cleared[0].starts_with("info string evaluation: network built-in nine.nnue"),
        "{cleared:?}"
    );
    let no_book = said(&mut e, "setoption name OwnBook value false");
    assert_eq!(no_book[2], "info string opening book: none (OwnBook false)");
    e.send("setoption name OwnBook value true");
    let level = said(&mut e, "setoption name Level value 5");
    for line in &level[..3] {
        assert!(
            line.ends_with("(not used at Level 5: full strength only)"),
            "{level:?}"
        );
    }
    e.quit();
}

/// An opening's solution that cannot be used is said once: a later change of the tables does not
/// read it, nor say it, again; naming it again does (it may have been mended).
#[test]
fn a_refused_opening_solution_is_said_once_until_named_again() {
    let _guard = super::harness::shared();
    let mut e = super::harness::Engine::start();
    let folder = std::env::temp_dir();
    let errors = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| l.starts_with("info string error: opening solution"))
            .count()
    };
    let named = format!("setoption name OpeningSolution value {}", folder.display());
    assert_eq!(errors(&e.ask(&named)), 1);
    assert_eq!(errors(&e.ask("setoption name TablesPath value none")), 0);
    assert_eq!(
        errors(&e.ask("setoption name TablesPath value installed")),
        0
    );
    assert_eq!(errors(&e.ask(&named)), 1);
    e.quit();
}
