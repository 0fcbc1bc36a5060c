//! `bench` as a protocol command: the figures of `moulin bench`, stoppable, with `isready`
//! answered meanwhile and the commands after it waiting for it.

use crate::harness::{shared, Engine};
use std::process::Command;
use std::time::{Duration, Instant};

/// A bench line without its time (`time N ms`), which differs from run to run.
fn timeless(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.iter().position(|w| *w == "time") {
        Some(i) => [&words[..i], &words[i + 3..]].concat().join(" "),
        None => line.to_string(),
    }
}

#[test]
fn bench_answers_the_figures_of_the_subcommand() {
    let _gate = shared();
    let out = Command::new(env!("CARGO_BIN_EXE_moulin"))
        .args(["bench", "--depth", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let subcommand: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(subcommand.len(), 15, "{subcommand:?}");
    let mut e = Engine::start();
    e.send("bench depth 5");
    let lines = e.until(|l| l.ends_with(" nps"));
    assert_eq!(lines.len(), 15, "{lines:?}");
    for (ours, theirs) in lines[..14].iter().zip(&subcommand[..14]) {
        assert_eq!(timeless(ours), timeless(theirs));
    }
    // The last line: the total node count first, as the subcommand writes it.
    let total = |l: &str| l.split(' ').next().unwrap().to_string();
    assert_eq!(total(&lines[14]), total(&subcommand[14]));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    let err = e.ask_one("bench 5");
    assert!(err.starts_with("info string error: bench: "), "{err}");
    e.quit();
}

#[test]
fn bench_runs_like_perft_isready_answered_and_stop_ending_it() {
    let _gate = shared();
    let mut e = Engine::start();
    e.send("bench");
    // Answered during the bench, before its first line (the first position takes a while).
    let lines = e.ask("isready");
    assert!(lines.len() < 14, "{lines:?}");
    // A search waits for it; `stop` ends it within one position's search.
    e.send("go depth 1");
    let t = Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let stopped = lines
        .iter()
        .position(|l| l == "info string bench stopped")
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(lines[..stopped].iter().all(|l| l.contains(" nodes ")));
    assert!(lines.len() > stopped + 1, "{lines:?}");
    e.quit();
}
