//! Engines of the GBGP dialect (`proto=gbgp`, the protocol of the Nine Morris 3D GUI): moulin
//! itself in that dialect against moulin in UCI, and the stand-in engine's `--gbgp` mode, which
//! logs every line it receives so that what the runner sends can be checked word for word.

use super::harness::*;
use super::script::status_of;
use std::path::{Path, PathBuf};

/// A match of the fake engine in UCI (`uci`) against the fake engine given `flags` in GBGP
/// (`gbgp`), which logs what it receives to `log`, with the flags `extra` (split at spaces: the
/// test's paths hold none); the exit code, stdout and stderr.
fn fake_match(flags: &str, log: &Path, extra: &str) -> (Option<i32>, String, String) {
    let f = fake();
    let _ = std::fs::remove_file(log);
    let a = format!("name=uci cmd={}", f.display());
    let b = format!(
        "name=gbgp cmd=\"{} --gbgp --log {} {flags}\" proto=gbgp",
        f.display(),
        log.display()
    );
    let mut args = vec!["match", "--engine", &a, "--engine", &b, "--grace", "2000"];
    args.extend(extra.split_whitespace());
    status_of(&args)
}

/// A log file for the GBGP engine and a records file not there yet, both named after `test`.
fn log_and_records(test: &str) -> (PathBuf, PathBuf) {
    let records = temp(&format!("gbgp-{test}.txt"));
    let _ = std::fs::remove_file(&records);
    (temp(&format!("gbgp-{test}.log")), records)
}

/// The lines the GBGP engine received.
fn log_lines(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn moulin_in_uci_against_moulin_in_gbgp() {
    for (name, time) in [("movetime", "--movetime 20"), ("clock", "--tc 1+0.05")] {
        let records = temp(&format!("gbgp-moulin-{name}.txt"));
        let pgn = temp(&format!("gbgp-moulin-{name}.pgn"));
        let a = format!("name=uci cmd={} option.Hash=8", moulin().display());
        let b = format!("name=gbgp cmd={} proto=gbgp", moulin().display()) + " option.Hash=8";
        let flags = format!(
            "--games 2 --concurrency 2 --grace 2000 --seed 5 --max-plies 60 {time} \
             --records {} --pgn {}",
            records.display(),
            pgn.display()
        );
        let mut args = vec!["match", "--engine", &a, "--engine", &b];
        args.extend(flags.split_whitespace());
        let stdout = run_ok(&args);
        let (w, d, l) = wdl(&stdout);
        assert_eq!(w + d + l, 2, "{stdout}");
        assert!(stdout.contains("Forfeits: uci 0, gbgp 0"), "{stdout}");
        replay_ok(&records, 2);
        let from_pgn = run_ok(&["replay", pgn.to_str().unwrap()]);
        assert!(from_pgn.contains("2 consistent, 0 failed"), "{from_pgn}");
        // The same summary from either file of the match.
        let from_records = run_ok(&["replay", records.to_str().unwrap()]);
        assert!(from_records.contains("Elo difference"), "{from_records}");
        assert_eq!(results_lines(&from_pgn), results_lines(&from_records));
    }
}

#[test]
fn the_runner_speaks_gbgp_as_the_gui_does() {
    // Game 1: the GBGP engine has Black; game 2: White, from a set-up start with no move after
    // it, which it gets as a bare position string.
    let rules = moulin::Rules::nine();
    let mut game = moulin::Game::new(rules);
    game.play_tokens(["d2", "d6"]).unwrap();
    let openings = temp("gbgp-openings.txt");
    std::fs::write(
        &openings,
        format!("fen {}\n", moulin::rules::fen::write(game.position())),
    )
    .unwrap();
    let log = temp("gbgp-speaks.log");
    for time in ["--movetime 5", "--tc 5+0.1"] {
        let extra = format!("--games 2 --openings {} {time}", openings.display());
        let (code, stdout, _) = fake_match("", &log, &extra);
        assert_eq!(code, Some(0), "{stdout}");
        assert!(stdout.contains("Forfeits: uci 0, gbgp 0"), "{stdout}");
        let lines = log_lines(&log);
        // The handshake, then each game's start, as the GUI sends them.
        assert_eq!(
            lines[..7],
            [
                "gbgp",
                "setoption name TwelveMensMorris value false",
                "isready",
                "stop",
                "newgame",
                "isready",
                "isready",
            ],
            "{lines:?}"
        );
        assert_eq!(lines.iter().filter(|l| *l == "newgame").count(), 2);
        let positions: Vec<&String> = lines.iter().filter(|l| l.starts_with("position")).collect();
        assert!(
            positions[0].starts_with("position pos w:wd2:bd6:2 moves "),
            "{positions:?}"
        );
        assert!(
            positions.iter().any(|p| *p == "position pos w:wd2:bd6:2"),
            "{positions:?}"
        );
        assert!(positions.iter().all(|p| p.starts_with("position pos ")));
        let gos: Vec<&String> = lines.iter().filter(|l| l.starts_with("go")).collect();
        assert!(!gos.is_empty());
        for go in &gos {
            let words: Vec<&str> = go.split_whitespace().collect();
            if time.starts_with("--movetime") {
                assert_eq!(words, ["go", "movetime", "5"]);
            } else {
                assert_eq!(words.len(), 5, "{go}");
                assert_eq!((words[1], words[3]), ("wtime", "btime"), "{go}");
            }
        }
        for uci_word in ["uci", "ucinewgame"] {
            assert!(!lines.iter().any(|l| l == uci_word), "{lines:?}");
        }
        assert_eq!(lines.last().map(String::as_str), Some("quit"));
    }
}

#[test]
fn the_twelve_variant_is_told_by_twelve_mens_morris() {
    let log = temp("gbgp-twelve.log");
    let (code, stdout, _) = fake_match("", &log, "--games 2 --movetime 5 --variant twelve");
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("Forfeits: uci 0, gbgp 0"), "{stdout}");
    let lines = log_lines(&log);
    assert_eq!(lines[1], "setoption name TwelveMensMorris value true");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("position pos w:w:b:1 moves")));
}

#[test]
fn an_engine_without_gbgpok_stops_the_run_before_the_first_game() {
    let (log, records) = log_and_records("mute");
    let extra = "--games 4 --movetime 5 --ready-timeout 300 --records";
    let extra = format!("{extra} {}", records.display());
    let (code, stdout, stderr) = fake_match("--no-uciok", &log, &extra);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("engine 'gbgp' failed before its first game: no gbgpok within 300 ms"),
        "{stderr}"
    );
    assert!(!stderr.contains("Finished game"), "{stderr}");
    assert!(!records.exists());
}

#[test]
fn an_illegal_move_or_a_false_claim_in_gbgp_forfeits_with_its_reason() {
    for (flag, end, reason) in [
        ("--illegal-at 2", "illegal", "played"),
        (
            "--none-at 2",
            "claim",
            "answered 'bestmove none' but the game is not over",
        ),
    ] {
        let (log, records) = log_and_records(end);
        let extra = "--games 1 --movetime 5 --random-plies 0 --records";
        let extra = format!("{extra} {}", records.display());
        let (code, stdout, stderr) = fake_match(flag, &log, &extra);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        assert!(stdout.contains("Forfeits: uci 0, gbgp 1"), "{stdout}");
        assert!(stdout.contains(&format!("Ends: {end} 1")), "{stdout}");
        let text = std::fs::read_to_string(&records).unwrap();
        assert!(text.contains(&format!("end={end} loser=black")), "{text}");
        let line = format!("Finished game 1 (uci vs gbgp): 1-0 {{gbgp (black) {reason}");
        assert!(stderr.contains(&line), "{stderr}");
    }
}

#[test]
fn what_gbgp_cannot_state_is_refused_before_anything_starts() {
    let log = temp("gbgp-refused.log");
    // A variant of neither nine nor twelve men: a usage error naming the engine and variant.
    let (code, _, stderr) = fake_match("", &log, "--movetime 5 --variant lasker");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("engine 'gbgp' speaks GBGP (proto=gbgp)")
            && stderr.contains("variant 'lasker' cannot be played"),
        "{stderr}"
    );
    assert!(!log.exists(), "the engine was started");
    // A start whose pieces in hand do not follow from its move number.
    let start = moulin::rules::fen::write(moulin::Game::new(moulin::Rules::nine()).position());
    let (board_to_mills, _) = start.rsplit_once(' ').unwrap();
    let openings = temp("gbgp-unstated.txt");
    std::fs::write(&openings, format!("fen {board_to_mills} 9\n")).unwrap();
    let extra = format!("--movetime 5 --openings {}", openings.display());
    let (code, _, stderr) = fake_match("", &log, &extra);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("engine 'gbgp' speaks GBGP")
            && stderr.contains("cannot state the start of opening 1"),
        "{stderr}"
    );
    assert!(!log.exists(), "the engine was started");
}
