//! The training commands end to end, through the binary: labelling resumes and extends its
//! journal, the fit refuses too little data, and the suite runner counts the moves that keep a
//! position's value.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use std::path::PathBuf;

use crate::shared::bounded;

fn moulin(args: &[&str]) -> std::process::Output {
    crate::shared::moulin()
        .args(args)
        .env("XDG_CACHE_HOME", scratch("cache"))
        .output()
        .expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-train-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What `moulin train suite` prints for this engine's binary on `suite`.
fn suite_output(suite: &std::path::Path, movetime: &str) -> String {
    suite_output_with(suite, movetime, "", &[])
}

/// The suite's output for the engine with these `option.` words in its spec.
fn suite_output_with(
    suite: &std::path::Path,
    movetime: &str,
    options: &str,
    extra: &[&str],
) -> String {
    let engine = format!("cmd={} {options}", env!("CARGO_BIN_EXE_moulin"));
    let mut args = vec![
        "train",
        "suite",
        "--engine",
        &engine,
        "--suite",
        suite.to_str().unwrap(),
        "--movetime",
        movetime,
    ];
    args.extend(extra);
    let o = moulin(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The endgame tables of the ignored suite tests: `$MOULIN_TABLES`, by default
/// `~/.cache/moulin/tables/nine`.
fn tables_dir() -> String {
    std::env::var("MOULIN_TABLES").unwrap_or_else(|_| {
        format!(
            "{}/.cache/moulin/tables/nine",
            std::env::var("HOME").unwrap_or_default()
        )
    })
}

/// The `k/n` of the suite output's line that starts with `prefix` (`kept`, `win`, `draw`).
fn kept_of(out: &str, prefix: &str) -> (usize, usize) {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} line in {out}"));
    let frac = line.split_whitespace().find(|w| w.contains('/')).unwrap();
    let (k, n) = frac.split_once('/').unwrap();
    (k.parse().unwrap(), n.parse().unwrap())
}

fn data_lines(path: &PathBuf) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

#[test]
fn labelling_resumes_and_extends_its_journal() {
    let out = scratch("label").join("labels.txt");
    let _ = std::fs::remove_file(&out);
    let run = |n: &str| {
        let o = moulin(&[
            "train",
            "label",
            "--positions",
            n,
            "--depth",
            "2",
            "--threads",
            "2",
            "--no-tables",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("4");
    let first = data_lines(&out);
    assert_eq!(first.len(), 4);
    run("7");
    let second = data_lines(&out);
    assert_eq!(second.len(), 7);
    assert_eq!(
        second[..4],
        first[..],
        "the first four are kept as they were"
    );
    let mut indices: Vec<usize> = second
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..7).collect::<Vec<_>>());
    // Other settings are refused, naming both.
    let o = moulin(&[
        "train",
        "label",
        "--positions",
        "8",
        "--depth",
        "3",
        "--no-tables",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("depth 2") && err.contains("depth 3"), "{err}");
    // Seven positions are too few to fit.
    let o = moulin(&["train", "fit", "--labels", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("too few to fit"));
}

/// `train critical` on two threads: it stops once the count is found, journals every candidate
/// it judged once, and a larger `--count` resumes from the journal, keeping what was found.
#[test]
fn critical_positions_are_found_on_two_threads_and_resumed() {
    let suite = scratch("critical").join("suite.txt");
    let journals = scratch("cache").join("moulin/train/nine");
    let journal = || {
        let entries = std::fs::read_dir(&journals).unwrap();
        let mut found = entries.map(|e| e.unwrap().path()).filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("critical-")
        });
        let path = found.next().expect("a journal of train critical");
        assert!(found.next().is_none(), "one journal");
        data_lines(&path)
    };
    // A run of an earlier process with the same id left its journal: start afresh.
    let _ = std::fs::remove_dir_all(&journals);
    let run = |count: &str| {
        let o = moulin(&[
            "train",
            "critical",
            "--draw",
            "400",
            "--seed",
            "5",
            "--depth",
            "3",
            "--screen-depth",
            "2",
            "--count",
            count,
            "--threads",
            "2",
            "--out",
            suite.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        data_lines(&suite)
    };
    let first = run("3");
    assert_eq!(first.len(), 3, "{first:?}");
    let judged = journal();
    let indices = |lines: &[String]| {
        let mut i: Vec<usize> = lines
            .iter()
            .map(|l| l.split(' ').next().unwrap().parse().unwrap())
            .collect();
        i.sort_unstable();
        i
    };
    let mut once = indices(&judged);
    once.dedup();
    assert_eq!(once, indices(&judged), "each candidate journaled once");
    // Every position of the suite is a journaled verdict; the others say `none`.
    for line in &first {
        assert!(judged.iter().any(|j| j.ends_with(line.as_str())), "{line}");
    }
    let critical = judged.iter().filter(|j| !j.ends_with(" none")).count();
    assert!(
        (3..=4).contains(&critical),
        "stopped at the count: {judged:?}"
    );
    let second = run("5");
    assert_eq!(second.len(), 5, "{second:?}");
    assert!(
        first.iter().all(|l| second.contains(l)),
        "{first:?} {second:?}"
    );
    let rejudged = journal();
    assert_eq!(rejudged[..judged.len()], judged[..], "the journal resumed");
    assert!(rejudged.len() > judged.len());
}

#[test]
fn the_suite_counts_the_moves_that_keep_the_value() {
    // White threatens a7-d7-g7 and Black, to move, must block at g7: a suite that says so, and
    // one that wrongly says a1.
    let dir = scratch("suite");
    let suite = dir.join("suite.txt");
    // After a7 b6 d7 (docs/rules.md, "Points": rings from the inside, each from its top middle
    // clockwise).
    let fen = "********/*******@/O******O b p p 2 7 1 8 0 0 -1 -1 -1 -1 0 0 2";
    std::fs::write(
        &suite,
        format!("# test\ndraw 0 g7 {fen}\ndraw 0 a1 {fen}\n"),
    )
    .unwrap();
    let out = suite_output(&suite, "50");
    assert!(out.contains("kept 1/2 (50.0%)"), "{out}");
    assert!(out.contains("draw  kept 1/2"), "{out}");
}

/// The shipped critical-position suite: at least 300 positions of the placing phase after 2 to
/// 16 turns, each with one or two kept moves that are legal there.
#[test]
fn the_shipped_suite_holds_300_critical_positions() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/critical-nine.txt");
    let suite = moulin::train::critical::read_suite(&path, &moulin::Rules::nine()).unwrap();
    assert!(suite.len() >= 300, "{} positions", suite.len());
    for c in &suite {
        let pos = &c.pos;
        let placed = 18 - pos.in_hand(moulin::Color::White) - pos.in_hand(moulin::Color::Black);
        assert!(
            pos.is_placing() && (2..=16).contains(&placed),
            "{}",
            c.line()
        );
        assert!((1..=2).contains(&c.keep.len()), "{}", c.line());
    }
    let drawn = suite
        .iter()
        .filter(|c| c.value == moulin::train::critical::Value::Draw)
        .count();
    assert!(drawn >= 100, "{drawn} drawn positions");
}

/// The engine at 100 ms a move, with its endgame tables up to 7 pieces a side (as it plays its
/// matches), keeps the value of at least 99% of the suite, and of every drawn position (slow:
/// about a minute, and the tables must be built: docs/endgame-tables.md, "Endgame tables"; their directory is
/// `$MOULIN_TABLES`, by default `~/.cache/moulin/tables/nine`;
/// `cargo test --release --test suite train:: -- --ignored`). With the tables up to 9 a side, the moves
/// are judged by the exact solver (`train suite --exact`), which overrules the labels it
/// contradicts: then every move must keep the exact value.
#[test]
#[ignore = "needs the endgame tables 3-9; slow"]
fn the_engine_keeps_the_value_of_the_critical_positions() {
    let suite = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/critical-nine.txt");
    let tables = tables_dir();
    assert!(
        std::path::Path::new(&tables).join("7-7.tbl").exists(),
        "no endgame tables up to 7 a side in {tables}: build them first (moulin tables build \
         --pieces 7 --dir {tables}) or set MOULIN_TABLES"
    );
    let whole = std::path::Path::new(&tables).join("9-9.tbl").exists();
    let exact: &[&str] = if whole { &["--exact", &tables] } else { &[] };
    let out = suite_output_with(&suite, "100", &format!("option.TablesPath={tables}"), exact);
    let share = |prefix: &str| -> f64 {
        let (k, n) = kept_of(&out, prefix);
        k as f64 / n as f64
    };
    assert!(share("kept") >= 0.99, "{out}");
    let (drawn_kept, drawn) = kept_of(&out, "draw");
    assert_eq!(drawn_kept, drawn, "{out}");
    if whole {
        // Where the label is wrong, the move played keeps the exact value as often: 99% of all,
        // every exactly drawn one.
        let (mut n, mut kept) = (0, 0);
        for line in out.lines().filter(|l| l.contains(" exactly ")) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (a, b): (usize, usize) = (
                words[0].parse().unwrap(),
                words.last().unwrap().parse().unwrap(),
            );
            if words[2] == "draw:" {
                assert_eq!(b, a, "{out}");
            }
            (n, kept) = (n + a, kept + b);
        }
        assert!(n > 0, "{out}");
        assert!(kept as f64 >= 0.99 * n as f64, "{out}");
    }
}

/// The exact critical suite (every label by the solver with every table): at 100 ms a move the
/// engine keeps the value in 99% of the positions and in every drawn one. Needs the tables up
/// to 9 a side (`$MOULIN_TABLES`, by default `~/.cache/moulin/tables/nine`); about 40 s
/// (`cargo test --release --test suite train:: -- --ignored`).
#[test]
#[ignore = "needs the endgame tables 3-9; about 40 s"]
fn the_engine_keeps_the_value_of_the_exact_critical_positions() {
    let suite =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/critical-nine-exact.txt");
    let tables = tables_dir();
    assert!(
        std::path::Path::new(&tables).join("9-9.tbl").exists(),
        "no endgame tables up to 9 a side in {tables}: build them first (moulin tables build \
         --pieces 9 --dir {tables}) or set MOULIN_TABLES"
    );
    let out = suite_output_with(&suite, "100", &format!("option.TablesPath={tables}"), &[]);
    let (k, n) = kept_of(&out, "kept");
    assert_eq!(n, 320, "{out}");
    assert!(k as f64 >= 0.99 * n as f64, "{out}");
    let (k, n) = kept_of(&out, "draw");
    assert_eq!(k, n, "{out}");
}

#[test]
fn endless_or_huge_inputs_are_refused_at_once_in_bounded_memory() {
    let dir = scratch("hostile");
    let (out, engine) = (
        dir.join("out.txt"),
        format!("cmd={}", env!("CARGO_BIN_EXE_moulin")),
    );
    let out = out.to_str().unwrap();
    let longer = ["longer than the 1 MB"];
    let runs: [&[&str]; 4] = [
        &["train", "fit", "--labels", "INPUT"],
        &["train", "critical", "--labels", "INPUT", "--out", out],
        &["train", "suite", "--engine", &engine, "--suite", "INPUT"],
        &["train", "label", "--games", "INPUT", "--out", out],
    ];
    for args in runs {
        bounded::hostile_inputs_refused(args, &dir, &longer);
    }
    // The journal `--out` names is read before it is extended (a huge one: beside /dev/zero
    // its lock would be made).
    let journal = &bounded::hostile_inputs(&dir)[1];
    let journal = journal.to_str().unwrap();
    let args = ["train", "label", "--positions", "1", "--out", journal];
    bounded::refused_in_bounds(&args, &dir, journal, &longer);
}

#[test]
fn the_network_trainer_without_the_solution_says_how_to_build_it() {
    let empty = scratch("net-no-tables");
    let o = moulin(&[
        "train",
        "net",
        "--positions",
        "4096",
        "--tables",
        empty.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("no placing solution in") && err.contains("tables build --pieces 9"),
        "{err}"
    );
    // A folder that is not there is said so, not "no placing solution".
    let missing = empty.join("missing");
    let o = moulin(&["train", "net", "--tables", missing.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains(&format!(
            "the tables folder {} does not exist",
            missing.display()
        )) && !err.contains("no placing solution"),
        "{err}"
    );
    // Rules the solution cannot be built for are said so, with what is accepted, not a
    // `--pieces` that `tables build` refuses.
    let o = moulin(&["train", "net", "--variant", "twelve", "--tables", "x"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("12 pieces a side")
            && err.contains("--pieces 3 to 9")
            && !err.contains("--pieces 12"),
        "{err}"
    );
    let o = moulin(&["train", "net", "--rate", "0", "--tables", "x"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--rate"), "{err}");
}

/// The whole trainer on a little data: data made and resumed, one epoch, the file written and
/// read back by `--only-check`, the 1-ply check printed by phase. Needs the whole solution of
/// `nine` (`moulin tables build --pieces 9`, then `--placing`; `$MOULIN_TABLES` to point
/// elsewhere); about two minutes once the tables are in the page cache.
#[test]
#[ignore = "needs the whole solution of nine (moulin tables build --pieces 9, then --placing)"]
fn the_network_trainer_makes_a_file_the_engine_reads_and_checks_it() {
    let dir = scratch("net-real");
    let out = dir.join("t.nnue");
    let tables = tables_dir();
    let args = |positions: &str| {
        vec![
            "train".to_string(),
            "net".into(),
            "--positions".into(),
            positions.into(),
            "--epochs".into(),
            "1".into(),
            "--check".into(),
            "2000".into(),
            "--seed".into(),
            "5".into(),
            "--tables".into(),
            tables.clone(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = moulin(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let first = run(args("8192"));
    assert!(first.contains("data: 8192 positions drawn"), "{first}");
    let second = run(args("16384"));
    assert!(
        second.contains("data: 16384 positions drawn"),
        "extended: {second}"
    );
    for phase in ["placing", "moving", "all"] {
        assert!(second.contains(phase), "{phase} in {second}");
    }
    assert_eq!(&std::fs::read(&out).unwrap()[..8], b"MOULNNUE");
    let checked = run(vec![
        "train".into(),
        "net".into(),
        "--seed".into(),
        "5".into(),
        "--check".into(),
        "2000".into(),
        "--tables".into(),
        tables.clone(),
        "--only-check".into(),
        out.to_str().unwrap().into(),
    ]);
    assert!(checked.contains("1-ply choices"), "{checked}");
    assert!(!checked.contains("epoch"), "no training: {checked}");
}
