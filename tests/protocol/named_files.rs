//! A data file the user named that cannot be used ends the command, once, with the file and the
//! reason; a running session says it in one error line of its dialect; the defaults keep their
//! quiet fallback.

use super::harness::scratch;
use crate::pgn::harness::{run as run_bytes, Run};

/// Runs moulin with `args` and `input` on stdin (killed after a minute).
fn run(args: &[&str], input: &str) -> Run {
    run_bytes(args, input.as_bytes())
}

/// A folder of this test's own with a file that is no network, no solution and no book.
fn not_data() -> std::path::PathBuf {
    let path = scratch("named-files-not-data.txt");
    std::fs::write(&path, "a user's note, not a data file\n").unwrap();
    path
}

#[test]
fn a_file_named_on_the_command_line_that_cannot_be_used_ends_moulin_before_the_handshake() {
    let _guard = super::harness::shared();
    let junk = not_data();
    let junk = junk.to_str().unwrap();
    for name in ["EvalFile", "OpeningSolution", "TablesPath", "BookFile"] {
        for value in ["/no/such/typo.data", junk] {
            for input in ["gbgp\nisready\n", "uci\nisready\n"] {
                let out = run(&["--option", &format!("{name}={value}")], input);
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(out.code.is_some_and(|c| c != 0), "{name}={value}: {err}");
                assert!(
                    out.stdout.is_empty(),
                    "{name}={value}: nothing for the GUI to misread: {:?}",
                    out.stdout
                );
                let lines: Vec<&str> = err.lines().collect();
                assert_eq!(lines.len(), 1, "{name}={value}: said once: {err}");
                assert!(
                    lines[0].contains(&format!("--option {name}={value}: ")),
                    "{name}={value}: {err}"
                );
            }
        }
    }
    // `none` and the default are no files: the engine starts.
    for name in ["EvalFile", "OpeningSolution", "TablesPath"] {
        let out = run(&["--option", &format!("{name}=none")], "isready\n");
        assert_eq!(out.code, Some(0), "{name}=none");
        assert!(out.stdout.ends_with("\nreadyok\n"), "{}", out.stdout);
        let part = match name {
            "EvalFile" => "evaluation: hand-written; network: none (EvalFile none)",
            "OpeningSolution" => "opening solution: none (OpeningSolution none)",
            _ => "endgame tables: none (TablesPath none)",
        };
        assert!(
            out.stdout.contains(&format!("info string {part}\n")),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn a_file_named_to_analyse_or_play_that_cannot_be_used_ends_the_command() {
    let _guard = super::harness::shared();
    let junk = not_data();
    let junk = junk.to_str().unwrap();
    for flag in ["--eval-file", "--opening-solution"] {
        for value in ["/no/such/typo.data", junk] {
            for command in [
                vec!["analyse", "--depth", "2", "--moves", "d6 b4", flag, value],
                vec!["play", "--plain", flag, value],
            ] {
                let out = run(&command, "quit\n");
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.code, Some(2), "{command:?}: {err}");
                assert!(
                    err.lines().count() == 1 && err.contains(flag) && err.contains(value),
                    "{command:?}: {err}"
                );
            }
        }
    }
}
