//! `bench` as a protocol command: the figures of `moulin bench`, stoppable, with `isready`
//! answered meanwhile and the commands after it waiting for it.

use super::harness::{shared, Engine, TIMEOUT};
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
    let out = crate::shared::moulin()
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

/// A bench depth or thread count out of its bound is refused at once, with one line naming the
/// bound: `bench depth 99999999999` at the end of piped input and `moulin bench --depth
/// 100000` never ended (nor would 110, the search's deepest: the bound is 20), `-1` was searched at depth 1 but printed as depth 0, and `--threads 0`
/// or `100000` were clamped without a word.
#[test]
fn bench_numbers_out_of_their_bounds_are_refused_at_once() {
    let _gate = shared();
    let mut e = Engine::start();
    for word in ["0", "-1", "21", "110", "99999999999"] {
        let line = e.refused(&format!("bench depth {word}"));
        assert_eq!(
            line,
            format!("info string error: bench depth {word} is out of range (1 to 20)")
        );
    }
    e.quit();
    // The last command of piped input: its error, then the end.
    let mut e = Engine::start();
    e.send("bench depth 99999999999");
    drop(e.stdin.take());
    let lines = e.until(|l| l.starts_with("info string error"));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(e.wait_exit(TIMEOUT).is_some_and(|s| s.success()));
    for (flag, value, bound) in [
        ("--depth", "100000", "1..=20"),
        ("--depth", "110", "1..=20"),
        ("--depth", "0", "1..=20"),
        ("--threads", "0", "1..=64"),
        ("--threads", "100000", "1..=64"),
    ] {
        let mut e = Engine::start_with(&["bench", flag, value]);
        let status = e.wait_exit(TIMEOUT);
        let stderr = e.stderr();
        assert_eq!(
            status.and_then(|s| s.code()),
            Some(2),
            "{flag} {value}: {stderr}"
        );
        assert!(stderr.contains(bound) && stderr.contains(flag), "{stderr}");
    }
}
