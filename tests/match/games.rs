//! Matches between stand-in engines and moulin: consistent results in both notations, forfeits, SPRT, openings through the protocol.

use super::harness::*;

use std::time::{Duration, Instant};

#[test]
fn fake_engines_play_a_consistent_match() {
    // Morabaraba has turns with two removals: the action engine answers them one `go` at a time,
    // the other in the two-token form `d6 xb4 xf2`.
    for (variant, games, extra) in [
        ("nine", 20, "--info-bestmove"),
        ("morabaraba", 10, "--two-token"),
    ] {
        let records = temp(&format!("fake-{variant}.txt"));
        let options = ["--random-plies", "6", "--concurrency", "2", "--seed", "3"];
        let stdout = turn_against_action(extra, "", variant, games, &options, &records);
        assert!(stdout.contains("pentanomial"), "{stdout}");
    }
}

#[test]
fn double_removals_are_played_and_sent_in_an_order_that_reads_back() {
    // Morabaraba from a position where White's a7 closes two mills and Black's b4 is the only
    // piece outside a mill: b4 must be taken first, and every other black piece comes before
    // b4 in point order. Greedy engines always play a7 with two removals, so each game sends
    // them as tokens of their own, both in an answer (`--two-token`) and in the `position`
    // that the action engine reads; in point order either would be refused.
    let book = temp("double-removal-openings.txt");
    std::fs::write(&book, "d7 c3 g7 d3 f2 e3xf2 f4 e4 b6 e5xf4 c5 b4\n").unwrap();
    let records = temp("double-removal.txt");
    let options = ["--openings", book.to_str().unwrap(), "--seed", "5"];
    turn_against_action(
        "--greedy --two-token",
        "--greedy",
        "morabaraba",
        4,
        &options,
        &records,
    );
    // Both engines had White, and so the double removal, in two games each.
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.matches("moves=\"a7x").count(), 4, "{text}");
}

#[test]
fn broken_engines_forfeit_and_the_match_completes() {
    let f = fake();
    for (flags, kind) in [
        ("--crash-at 3", "crash"),
        ("--illegal-at 2", "illegal"),
        ("--hang-at 2", "time"),
        ("--exit-at 2", "exit"),
        ("--garbage-at 2", "malformed"),
        ("--flood-at 2", "flood"),
    ] {
        let records = temp(&format!("broken-{kind}.txt"));
        let good = format!("name=good cmd={}", f.display());
        let bad = format!("name=bad cmd=\"{} {flags}\"", f.display());
        let started = Instant::now();
        let out = run(&[
            "match",
            "--engine",
            &good,
            "--engine",
            &bad,
            "--games",
            "4",
            "--tc",
            "1+0.05",
            "--grace",
            "200",
            "--ready-timeout",
            "300",
            "--records",
            records.to_str().unwrap(),
        ]);
        let stdout = succeeded_with_forfeits(&out, flags, "good 0, bad 4");
        assert_eq!(wdl(&stdout), (4, 0, 0), "{flags}: {stdout}");
        assert!(
            stdout.contains(&format!("Ends: {kind} 4")),
            "{flags}: {stdout}"
        );
        let text = std::fs::read_to_string(&records).unwrap();
        assert_eq!(
            text.matches(&format!("end={kind} loser=")).count(),
            4,
            "{text}"
        );
        replay_ok(&records, 4);
        // A hang costs the time left plus the grace, not more.
        assert!(started.elapsed() < Duration::from_secs(10), "{flags}");
    }
}

#[test]
fn sprt_stops_early_when_decided() {
    let f = fake();
    let strong = format!("name=greedy cmd={} arg=--greedy", f.display());
    let weak = format!("name=random cmd={}", f.display());
    let stdout = run_ok(&[
        "match",
        "--engine",
        &strong,
        "--engine",
        &weak,
        "--games",
        "400",
        "--movetime",
        "2",
        "--seed",
        "5",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let (w, d, l) = wdl(&stdout);
    assert!(w + d + l < 400, "{stdout}");
    assert!(w > l, "{stdout}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let f = fake();
    let good = format!("cmd={}", f.display());
    let book = temp("bad-book.txt");
    std::fs::write(&book, "d6 f4\nd6 d6\n").unwrap();
    for (args, needle) in [
        (vec!["--engine", "colour=red"], "two --engine specs"),
        (
            vec!["--engine", &good, "--engine", "cmd=x colour=red"],
            "unknown key 'colour'",
        ),
        (
            vec!["--engine", &good, "--engine", &good, "--variant", "chess"],
            "unknown variant 'chess'",
        ),
        (
            vec!["--engine", &good, "--engine", &good, "--tc", "fast"],
            "time control 'fast'",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &good,
                "--openings",
                book.to_str().unwrap(),
            ],
            "line 2",
        ),
        (
            vec![
                "--engine", &good, "--engine", &good, "--sprt", "elo0=5", "elo1=0",
            ],
            "below",
        ),
    ] {
        let mut full = vec!["match"];
        full.extend(args);
        let out = run(&full);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
}

#[test]
fn openings_are_made_through_the_protocol() {
    let f = fake();
    let book = temp("book.txt");
    let spec = format!("name=fake cmd={} arg=--hash-scores", f.display());
    let out = run(&[
        "openings",
        "--engine",
        &spec,
        "--plies",
        "3",
        "--depth",
        "2",
        "--margin",
        "60",
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains("(428 in all)"), "{text}");
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // Scores are spread over ±150 with some mates: some kept, most not.
    assert!(kept.len() > 20 && kept.len() < 300, "{}", kept.len());
    for line in &kept {
        let (moves, score) = line.split_once('#').unwrap();
        assert_eq!(moves.split_whitespace().count(), 3, "{line}");
        let cp: i32 = score.trim().strip_prefix("cp ").unwrap().parse().unwrap();
        assert!(cp.abs() <= 60, "{line}");
    }
    // The book drives a match.
    let good = format!("cmd={}", f.display());
    let out = run(&[
        "match",
        "--engine",
        &good,
        "--engine",
        &good,
        "--games",
        "6",
        "--movetime",
        "2",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let (w, d, l) = wdl(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(w + d + l, 6);
}

#[test]
fn moulin_against_moulin() {
    let records = temp("moulin.txt");
    let a = format!("name=turn cmd={} option.Hash=8", moulin().display());
    let b = format!(
        "name=action cmd={} notation=action option.Hash=8",
        moulin().display()
    );
    let stdout = run_ok(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "10",
        "--movetime",
        "10",
        "--grace",
        "2000",
        "--concurrency",
        "2",
        "--seed",
        "11",
        "--records",
        records.to_str().unwrap(),
    ]);
    played_all_without_forfeits(&stdout, 10);
    replay_ok(&records, 10);
}

#[test]
fn openings_are_labelled_exactly_from_the_tables() {
    // Tables up to 3 a side cover the placing positions below, which end with 3 a side.
    let tables = temp("exact-tables");
    let built = run(&[
        "tables",
        "build",
        "--pieces",
        "3",
        "--dir",
        tables.to_str().unwrap(),
    ]);
    assert!(built.status.success(), "{built:?}");
    // White to move wins; after d5 Black wins; after b2 the game is drawn (by the solver,
    // tests/analyse.rs lists every move of this position).
    let fen = "fen ***O*O@*/****@***/******** w p p 2 1 2 1 0 0 -1 -1 -1 -1 0 0 9";
    let from = temp("exact-from.txt");
    std::fs::write(&from, format!("{fen}\n{fen} moves d5\n{fen} moves b2\n")).unwrap();
    // The openings of `from` labelled into `out`, with `extra` flags; the file written.
    let label = |extra: &[&str], out: &std::path::Path| -> String {
        let mut args = vec![
            "openings",
            "--exact",
            tables.to_str().unwrap(),
            "--from",
            from.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let done = run(&args);
        assert!(done.status.success(), "{done:?}");
        std::fs::read_to_string(out).unwrap()
    };
    let text = label(&["--threads", "2"], &temp("exact-out.txt"));
    assert!(text.contains("(3 in all)"), "{text}");
    assert!(text.contains("(1 kept, 2 better and 0"), "{text}");
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(kept, [format!("{fen} moves b2  # draw")], "{text}");
    // The first two only: both won for the side to move, none kept.
    let text = label(&["--first", "2"], &temp("exact-first.txt"));
    assert!(text.contains("the first 2 of the openings of"), "{text}");
    assert!(text.contains("(2 in all)"), "{text}");
    assert!(text.contains("(0 kept, 2 better and 0"), "{text}");
    // Without the tables it needs, a solve says what is missing: an opening from the start
    // ends with 9 a side; and no tables at all is an error too.
    let start = temp("exact-start.txt");
    std::fs::write(&start, "d5 e5 e4\n").unwrap();
    let empty = temp("exact-none");
    std::fs::create_dir_all(&empty).unwrap();
    let none = run(&[
        "openings",
        "--exact",
        empty.to_str().unwrap(),
        "--from",
        from.to_str().unwrap(),
    ]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no endgame tables"));
    let out = run(&[
        "openings",
        "--exact",
        tables.to_str().unwrap(),
        "--from",
        start.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not in the tables"),
        "{out:?}"
    );
}
