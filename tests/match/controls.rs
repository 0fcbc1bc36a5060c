//! Each engine's own time control, `--each`, and what the PGN records of them: the `go` lines
//! each engine receives (the fake engine logs them with `--log`), the `TimeControl` tags, and a
//! comment of score, depth and time on every move an engine played.

use super::harness::*;
use std::path::Path;

/// The `go` lines of a `--log` file.
fn go_lines(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("go"))
        .map(String::from)
        .collect()
}

/// A fake engine named `name`, logging what it receives to a file of its own (tests run at
/// once), with `keys` added to its spec; the spec and the log's path.
fn logged(name: &str, flags: &str, keys: &str) -> (String, std::path::PathBuf) {
    static LOGS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = LOGS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let log = fresh(&format!("{name}-{n}.log"));
    let spec = format!(
        "name={name} cmd=\"{} --log {} {flags}\" {keys}",
        fake().display(),
        log.display()
    );
    (spec, log)
}

/// Runs a match of `games` between the specs `a` and `b` with `extra` flags; its stdout.
fn play(a: &str, b: &str, games: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "match", "--engine", a, "--engine", b, "--games", games, "--grace", "2000", "--seed", "5",
    ];
    args.extend(extra);
    run_ok(&args)
}

/// A path in the run's temporary folder, with no file there.
fn fresh(name: &str) -> std::path::PathBuf {
    let path = temp(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The PGN games of a file.
fn pgn_games(path: &Path) -> Vec<moulin::record::Record> {
    moulin::record::read(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn each_engine_is_told_its_own_control() {
    // `--each` gives both a clock; `b` overrides it with a time per move.
    let (a, a_log) = logged("a", "", "");
    let (b, b_log) = logged("b", "", "st=0.05");
    let pgn = fresh("own.pgn");
    let stdout = play(
        &a,
        &b,
        "2",
        &[
            "--each",
            "tc=1+0.1 option.Hash=4",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(stdout.contains("Forfeits: a 0, b 0"), "{stdout}");
    // Each engine's control in the summary, as they differ.
    assert!(stdout.contains("a 1+0.1, b movetime 50 ms"), "{stdout}");
    // The clock side is told its own clock and increment, and only that (the other side has
    // none); the other side its time per move.
    let a_gos = go_lines(&a_log);
    assert!(a_gos.len() > 4, "{a_gos:?}");
    for go in &a_gos {
        let w: Vec<&str> = go.split_whitespace().collect();
        let shape_white = w.len() == 5 && w[1] == "wtime" && w[3] == "winc" && w[4] == "100";
        let shape_black = w.len() == 5 && w[1] == "btime" && w[3] == "binc" && w[4] == "100";
        assert!(shape_white || shape_black, "{go}");
        assert!(w[2].parse::<u64>().unwrap() <= 1_000 + 100 * 200, "{go}");
    }
    // The first go of game 1 (a has White) shows the whole base.
    assert_eq!(a_gos[0], "go wtime 1000 winc 100");
    let b_gos = go_lines(&b_log);
    assert!(
        !b_gos.is_empty() && b_gos.iter().all(|g| g == "go movetime 50"),
        "{b_gos:?}"
    );
    // --each's option reached both engines.
    for log in [&a_log, &b_log] {
        let text = std::fs::read_to_string(log).unwrap();
        assert!(text.contains("setoption name Hash value 4"), "{text}");
    }
    // The PGN has each side's control, as cutechess writes them when they differ.
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        let white_is_a = g.tag("White") == Some("a");
        let (w, b) = if white_is_a {
            ("1+0.1", "0.05/move")
        } else {
            ("0.05/move", "1+0.1")
        };
        assert_eq!(g.tag("WhiteTimeControl"), Some(w), "{g:?}");
        assert_eq!(g.tag("BlackTimeControl"), Some(b), "{g:?}");
        assert_eq!(g.tag("TimeControl"), None, "{g:?}");
    }
}

#[test]
fn moves_per_period_refill_the_clock() {
    let (a, a_log) = logged("a", "--delay 20", "");
    let (b, _) = logged("b", "", "");
    let pgn = fresh("period.pgn");
    let stdout = play(
        &a,
        &b,
        "1",
        &[
            "--tc",
            "2/0.5",
            "--max-plies",
            "40",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(stdout.contains("Forfeits: a 0, b 0"), "{stdout}");
    // a has White in game 1: its own clock and turns to go, period after period.
    let gos = go_lines(&a_log);
    assert!(gos.len() >= 5, "{gos:?}");
    let mut last_time = None;
    for (i, go) in gos.iter().enumerate() {
        let w: Vec<&str> = go.split_whitespace().collect();
        assert_eq!(w[1], "wtime", "{go}");
        assert_eq!(
            w[9..],
            ["movestogo", if i % 2 == 0 { "2" } else { "1" }],
            "{go}"
        );
        let wtime: u64 = w[2].parse().unwrap();
        if i % 2 == 0 && i > 0 {
            // A new period: the base is given again on top of what was left.
            assert!(wtime > 500 && wtime > last_time.unwrap(), "{gos:?}");
        }
        if i % 2 == 1 {
            // The 20 ms the engine took were charged.
            assert!(wtime <= last_time.unwrap() - 20, "{gos:?}");
        }
        last_time = Some(wtime);
    }
    assert_eq!(gos[0], "go wtime 500 btime 500 winc 0 binc 0 movestogo 2");
    for g in pgn_games(&pgn) {
        assert_eq!(g.tag("TimeControl"), Some("2/0.5"), "{g:?}");
    }
}

#[test]
fn nodes_and_depth_are_sent_and_a_hung_search_still_loses() {
    let (a, a_log) = logged("a", "", "nodes=500");
    let (b, b_log) = logged("b", "", "depth=3");
    let pgn = fresh("nodes.pgn");
    let stdout = play(
        &a,
        &b,
        "2",
        &["--each", "tc=inf", "--pgn", pgn.to_str().unwrap()],
    );
    assert!(stdout.contains("Forfeits: a 0, b 0"), "{stdout}");
    assert!(
        stdout.contains("a inf nodes 500, b inf depth 3"),
        "{stdout}"
    );
    let a_gos = go_lines(&a_log);
    assert!(
        !a_gos.is_empty() && a_gos.iter().all(|g| g == "go nodes 500"),
        "{a_gos:?}"
    );
    let b_gos = go_lines(&b_log);
    assert!(
        !b_gos.is_empty() && b_gos.iter().all(|g| g == "go depth 3"),
        "{b_gos:?}"
    );
    for g in pgn_games(&pgn) {
        // No time control, in PGN's words.
        assert_eq!(g.tag("TimeControl"), Some("-"), "{g:?}");
    }
    // With a clock, the limits come after it.
    let (a, a_log) = logged("a", "", "tc=5+0.5 depth=2");
    let (b, _) = logged("b", "", "movetime=30 nodes=7");
    play(&a, &b, "1", &[]);
    assert_eq!(go_lines(&a_log)[0], "go wtime 5000 winc 500 depth 2");
    // A search bounded by no time that never ends loses on time after --search-timeout.
    let (a, _) = logged("a", "", "");
    let (b, _) = logged("b", "--hang-at 2", "");
    let started = std::time::Instant::now();
    let stdout = play(
        &a,
        &b,
        "1",
        &["--each", "tc=inf depth=1", "--search-timeout", "300"],
    );
    assert!(stdout.contains("Forfeits: a 0, b 1"), "{stdout}");
    assert!(stdout.contains("time 1"), "{stdout}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn moulin_answers_nodes_depth_and_movestogo() {
    let records = fresh("moulin-limits.txt");
    let a = format!(
        "name=n cmd={} option.Hash=8 tc=inf nodes=300",
        moulin().display()
    );
    let b = format!(
        "name=d cmd={} option.Hash=8 tc=10/2 depth=2",
        moulin().display()
    );
    let stdout = play(&a, &b, "2", &["--records", records.to_str().unwrap()]);
    assert!(stdout.contains("Forfeits: n 0, d 0"), "{stdout}");
    replay_ok(&records, 2);
}

#[test]
fn pgn_moves_carry_score_depth_and_time() {
    let (a, _) = logged("a", "--ply-depth", "");
    let (b, _) = logged("b", "--ply-depth --hash-scores", "");
    let pgn = fresh("comments.pgn");
    play(
        &a,
        &b,
        "4",
        &[
            "--movetime",
            "5",
            "--random-plies",
            "3",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 4);
    let mut mates = 0;
    for g in &games {
        assert_eq!(g.tag("TimeControl"), Some("0.005/move"), "{g:?}");
        for (i, ply) in g.moves.iter().enumerate() {
            let first = ply.comments.first().map(String::as_str);
            if i < 3 {
                assert_eq!(first, Some("book"), "{g:?}");
                continue;
            }
            // `<score>/<depth> <time>s`, the depth the engine gave for this move.
            let comment = first.unwrap_or_else(|| panic!("move {i} has no comment: {g:?}"));
            let (score, rest) = comment.split_once('/').expect(comment);
            let (depth, time) = rest.split_once(' ').expect(comment);
            assert_eq!(depth, (i + 1).to_string(), "{comment}");
            let well_formed = |s: &str| {
                let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
                if let Some(n) = digits.strip_prefix('M') {
                    n.parse::<u32>().is_ok() && s.len() > digits.len()
                } else {
                    let (units, hundredths) = digits.split_once('.').unwrap_or(("", ""));
                    units.parse::<u32>().is_ok() && hundredths.len() == 2
                }
            };
            assert!(well_formed(score), "{comment}");
            mates += usize::from(score.contains('M'));
            let secs = time.strip_suffix('s').expect(comment);
            assert!(secs.parse::<f64>().is_ok(), "{comment}");
        }
    }
    // The fake engine's hashed scores hold mates now and then, written as cutechess does.
    assert!(mates > 0, "no mate score in {games:?}");
    let stdout = run_ok(&["replay", pgn.to_str().unwrap()]);
    assert!(
        stdout.contains("replayed 4 games") && stdout.contains("0 failed"),
        "{stdout}"
    );
}

#[test]
fn bad_time_words_are_usage_errors_naming_the_word() {
    let f = fake();
    let spec = |keys: &str| format!("name=x cmd={} {keys}", f.display());
    let other = format!("name=y cmd={}", f.display());
    let cases: [(String, Vec<&str>, &str); 10] = [
        (spec("tc=1+x"), vec![], "'x'"),
        (spec("tc=0/5"), vec![], "'0'"),
        (spec("tc=0+0"), vec![], "no time"),
        (spec("st=0"), vec![], "no time"),
        (spec("movetime=-5"), vec![], "movetime '-5'"),
        (spec("nodes=0"), vec![], "nodes '0'"),
        (spec("depth=deep"), vec![], "depth 'deep'"),
        (spec("tc=inf"), vec![], "no nodes= or depth="),
        (spec(""), vec!["--each", "tc=fast"], "(from --each)"),
        (spec(""), vec!["--each", "tc=\"1"], "--each"),
    ];
    for (engine, extra, needle) in cases {
        let mut args = vec![
            "match", "--engine", &engine, "--engine", &other, "--games", "2",
        ];
        args.extend(extra.iter().copied());
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine} {extra:?}: {stderr}");
        assert!(stderr.contains(needle), "{engine} {extra:?}: {stderr}");
    }
}

#[test]
fn each_is_part_of_what_resume_checks() {
    let records = fresh("each.txt");
    let (a, _) = logged("a", "", "");
    let (b, _) = logged("b", "", "");
    let r = records.to_str().unwrap();
    play(&a, &b, "2", &["--each", "st=0.01", "--records", r]);
    let settings = std::fs::read_to_string(&records).unwrap();
    assert!(settings.contains(" each=st=0.01 "), "{settings}");
    // Another --each is another match.
    let args = [
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "4",
        "--records",
        r,
        "--resume",
        "--grace",
        "2000",
    ];
    let mut other = args.to_vec();
    other.extend(["--each", "st=0.02"]);
    let out = run(&other);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("each"));
    let mut same = args.to_vec();
    same.extend(["--each", "st=0.01"]);
    let stdout = run_ok(&same);
    let (w, d, l) = wdl(&stdout);
    assert_eq!(w + d + l, 4, "{stdout}");
}

/// A control character in a spec's value would reach the engine (a line break in an option's
/// value is a second command: `quit` ended the engine) or the records (where it was a space, so
/// that a resume with a space passed as the same match): every value is refused before
/// anything starts, naming the spec, the key and the character.
#[test]
fn control_characters_never_reach_an_engine() {
    let records = fresh("control.txt");
    let r = records.to_str().unwrap();
    let (good, _) = logged("good", "", "");
    for (keys, extra, needle) in [
        ("option.Hash=\"8\nquit\"", vec![], "option.Hash"),
        ("option.\"Ha\rsh\"=8", vec![], "option.Ha\\rsh"),
        ("option.Hash=\"8\u{1b}[2J\"", vec![], "option.Hash"),
        ("arg=\"--x\ny\"", vec![], "arg"),
        (
            "",
            vec!["--each", "option.Hash=\"8\nquit\""],
            "(from --each)",
        ),
    ] {
        let (spec, log) = logged("odd", "", keys);
        let mut args = vec![
            "match",
            "--engine",
            &spec,
            "--engine",
            &good,
            "--games",
            "2",
            "--movetime",
            "5",
            "--records",
            r,
        ];
        args.extend(extra.iter().copied());
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{keys} {extra:?}: {stderr}");
        // One line: the spec, the key and the character, escaped.
        let line = stderr.lines().find(|l| l.contains("bad engine spec"));
        let line = line.unwrap_or_else(|| panic!("{keys}: {stderr}"));
        assert!(
            line.contains(needle) && line.contains("control character"),
            "{line}"
        );
        assert!(!log.exists(), "{keys}: the engine was started");
        assert!(!records.exists(), "{keys}: records made");
    }
    // Records of a match whose option holds a space are not resumed by one holding a line break
    // (the records wrote a line break as a space).
    let odd = |value: &str| format!("name=odd cmd={} option.Hash=\"{value}\"", fake().display());
    let (spaced, broken) = (odd("8 quit"), odd("8\nquit"));
    let flags = ["--movetime", "5", "--seed", "5", "--records", r];
    let mut first = vec![
        "match", "--engine", &spaced, "--engine", &good, "--games", "2",
    ];
    first.extend(flags);
    run_ok(&first);
    let mut again = vec![
        "match", "--engine", &broken, "--engine", &good, "--games", "4",
    ];
    again.extend(flags);
    again.push("--resume");
    let out = run(&again);
    assert_eq!(out.status.code(), Some(2));
    replay_ok(&records, 2);
}
