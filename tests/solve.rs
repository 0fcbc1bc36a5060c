//! `moulin solve`: a placing position's value proven by search with the endgame tables, each
//! move's too, the same as the exact analysis says; bad input refused with one message; and,
//! with the tables up to 9 a side, the start proven a draw.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::rng::Rng;
use moulin::rules::movegen::legal_moves;
use moulin::search::exact::proof::{prove, ProofMemory};
use moulin::tables::placing::solution::{Found, Solution};
use moulin::tables::placing_play;
use moulin::tables::Tables;
use moulin::Convention;
use std::path::{Path, PathBuf};

/// What `moulin <args>` printed: its standard output when it succeeded, else its standard
/// error (which must then be one line, with nothing on standard output).
fn run(args: &[&str]) -> Result<String, String> {
    let out = crate::shared::moulin()
        .args(args)
        .output()
        .expect("moulin runs");
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    if out.status.success() {
        return Ok(stdout);
    }
    assert!(stdout.is_empty(), "{args:?}: {stdout}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    Err(stderr)
}

fn ok(args: &[&str]) -> String {
    run(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// The error line of a command that must fail.
fn refused(args: &[&str]) -> String {
    run(args).expect_err("the command fails")
}

/// Tables up to 3 a side, built once for this test binary.
fn small_tables() -> &'static str {
    static DIR: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("moulin-{}-solve", std::process::id()));
        let d = dir.to_str().unwrap().to_string();
        ok(&["tables", "build", "--files", "--pieces", "3", "--dir", &d]);
        d
    })
}

/// Two a side on the board, one each in hand: some moves win, one draws, the others lose
/// (tests/analyse.rs values them with `analyse --position --exact`).
const TWO_AND_ONE: &str = "***O*O@*/****@***/******** w p p 2 1 2 1 0 0 -1 -1 -1 -1 0 0 9";

/// Each legal move of `fen` and its value for the side to move, by `analyse --position --exact`
/// with the tables in `dir`, in move order.
fn exact_values(dir: &str, fen: &str) -> Vec<(String, String)> {
    let exact = ok(&[
        "analyse",
        "--position",
        "--exact",
        "--tables",
        dir,
        "--fen",
        fen,
    ]);
    let mut values: Vec<(String, String)> = exact
        .lines()
        .skip(1)
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 2).then(|| (w[0].to_string(), w[1].to_string()))
        })
        .collect();
    values.sort();
    values
}

/// Each move `solve --each` printed, with its value, in move order.
fn each_move(text: &str) -> Vec<(String, String)> {
    let mut moves: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("move "))
        .map(|l| {
            let (mv, rest) = l.split_once(": ").unwrap();
            let value = rest.split_whitespace().next().unwrap();
            (mv.to_string(), value.to_string())
        })
        .collect();
    moves.sort();
    moves
}

#[test]
fn a_placing_position_and_each_move_proven_as_the_exact_analysis_values_them() {
    let d = small_tables();
    // The exact analysis: every legal move with its value for White.
    let values = exact_values(d, TWO_AND_ONE);
    assert_eq!(values.len(), 21, "{values:?}");
    for threads in ["1", "2"] {
        let text = ok(&[
            "solve",
            "--tables",
            d,
            "--fen",
            TWO_AND_ONE,
            "--each",
            "--threads",
            threads,
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("position: {TWO_AND_ONE}"), "{text}");
        assert!(text.contains("\nvalue: win for white, to move\n"), "{text}");
        // A win: proven a draw at least, then a win, each test with its cost.
        assert!(text.contains("\ndraw at least: yes, "), "{text}");
        assert!(text.contains("\nwin: yes, "), "{text}");
        let proof = lines.last().unwrap();
        assert!(
            proof.starts_with("proof: ") && proof.contains(" positions in "),
            "{text}"
        );
        // Each move's value, one move for each class of moves alike under the symmetries
        // (the position has none but the identity: every move).
        assert_eq!(each_move(&text), values, "{text}");
    }
    // The last placement: each move leads to the moving phase, valued by the tables.
    let last = "***O*O@*/****@**@/******** w p p 2 1 3 0 0 0 -1 -1 -1 -1 0 0 9";
    let text = ok(&["solve", "--tables", d, "--fen", last, "--each"]);
    let moves = each_move(&text);
    assert!(
        !moves.is_empty() && moves == exact_values(d, last),
        "{text}"
    );
    assert!(text.contains("the tables' value"), "{text}");
    // After the winning move, Black to move has lost.
    let text = ok(&[
        "solve",
        "--tables",
        d,
        "--fen",
        TWO_AND_ONE,
        "--moves",
        "d3xc4",
    ]);
    assert!(
        text.contains("\nvalue: loss for black, to move\n"),
        "{text}"
    );
    assert!(text.contains("\ndraw at least: no, "), "{text}");
    assert!(!text.contains("\nwin: "), "{text}");
}

#[test]
fn bad_input_is_refused_with_one_message() {
    let d = small_tables();
    // The start ends with 9 a side: tables up to 3 do not reach it.
    let err = refused(&["solve", "--tables", d]);
    assert!(
        err.contains("no endgame table") && err.contains("moulin tables build"),
        "{err}"
    );
    let err = refused(&["solve", "--tables", d, "--moves", "d6", "d6"]);
    assert!(err.contains("move 2 'd6'"), "{err}");
    // A moving-phase position, and hands no game deals.
    for fen in [
        "**OO*O@*/****@**@/******** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 9",
        "***O*O@*/****@***/******** w p p 2 1 2 2 0 0 -1 -1 -1 -1 0 0 9",
    ] {
        let err = refused(&["solve", "--tables", d, "--fen", fen]);
        assert!(err.contains("not a position of the placing"), "{err}");
    }
    let err = refused(&["solve", "--tables", d, "--variant", "lasker"]);
    assert!(err.contains("every turn places a piece"), "{err}");
    let missing = format!("{d}/no-such-folder");
    let err = refused(&["solve", "--tables", &missing]);
    assert!(
        err.contains("--tables") && err.contains("no-such-folder"),
        "{err}"
    );
}

/// The endgame tables up to 9 a side: `$MOULIN_TABLES`, by default
/// `~/.cache/moulin/tables/nine`.
fn full_tables() -> PathBuf {
    let dir = std::env::var_os("MOULIN_TABLES").map_or_else(
        || {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/moulin/tables/nine")
        },
        PathBuf::from,
    );
    assert!(
        dir.join("9-9.tbl").exists(),
        "no endgame tables up to 9 a side in {}: build them first (moulin tables build \
         --pieces 9) or set MOULIN_TABLES",
        dir.display()
    );
    dir
}

/// The start of the standard game, proven a draw (about 15 s on the 2-core machine, the
/// tables' opening included).
#[test]
#[ignore = "needs the endgame tables 3-9; about 15 s"]
fn the_start_is_proven_a_draw() {
    let dir = full_tables();
    let text = ok(&["solve", "--tables", dir.to_str().unwrap()]);
    assert!(
        text.contains("\nvalue: draw for white, to move\n"),
        "{text}"
    );
    assert!(text.contains("\ndraw at least: yes, "), "{text}");
    assert!(text.contains("\nwin: no, "), "{text}");
}

/// Every position of the exact critical suite (`tests/data/critical-nine-exact.txt`: placing
/// positions after 2 to 16 turns, valued by the exact solver) proven to the value it holds
/// (about 20 s on the 2-core machine, the tables' opening included).
#[test]
#[ignore = "needs the endgame tables 3-9; about 20 s"]
fn the_exact_critical_positions_are_proven_to_their_values() {
    let rules = moulin::Rules::nine().without_draw_rules();
    let tables = Tables::open(&full_tables(), &rules).unwrap();
    let suite = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/critical-nine-exact.txt"),
    )
    .unwrap();
    let memory = ProofMemory::new(256 << 20);
    let mut checked = 0;
    for line in suite.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.splitn(4, ' ');
        let value = words.next().unwrap();
        let fen = words.nth(2).unwrap();
        let pos = moulin::rules::fen::read(fen, &rules).unwrap();
        memory.clear();
        let proof = prove(&tables, &pos, &memory, 2).unwrap();
        assert_eq!(moulin::search::exact::name(proof.value), value, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 320);
}

/// The placing solution of `dir` (`moulin tables build --placing`), whole.
fn placing_solution(dir: &Path, rules: &moulin::Rules) -> Solution {
    match Solution::open(dir, rules).unwrap() {
        Found::Whole(solution) => solution,
        _ => panic!(
            "no whole placing solution in {}: build it first (moulin tables build --placing)",
            dir.display()
        ),
    }
}

/// The placing solution against the exact solvers, which do not read it: every position of the
/// exact critical suite (valued by the solver the engine plays with) has the suite's value, and
/// the suite's kept moves keep it; and 3,000 random placing positions after 8 to 17 plies have
/// the value the proof search (`moulin solve`) gives them (about 90 s on the 2-core machine).
#[test]
#[ignore = "needs the endgame tables 3-9 and the placing solution; about 90 s"]
fn the_placing_solution_agrees_with_the_exact_solvers() {
    let rules = moulin::Rules::nine().without_draw_rules();
    let dir = full_tables();
    let tables = Tables::open_moving(&dir, &rules).unwrap();
    let solution = placing_solution(&dir, &rules);
    let suite = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/critical-nine-exact.txt"),
    )
    .unwrap();
    let (mut checked, mut more) = (0, 0);
    for line in suite.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.splitn(4, ' ').collect();
        let pos = moulin::rules::fen::read(words[3], &rules).unwrap();
        let value = solution.value(&pos).unwrap();
        assert_eq!(moulin::search::exact::name(value), words[0], "{line}");
        let kept: Vec<String> = legal_moves(&pos, Convention::Turn)
            .into_iter()
            .filter(|&mv| {
                let mut child = pos;
                child.play(mv);
                let v = placing_play::known(&child, Some(&solution), &tables).unwrap();
                let ours = if child.side_to_move() == pos.side_to_move() {
                    v
                } else {
                    -v
                };
                ours == value
            })
            .map(|mv| mv.to_string())
            .collect();
        // The suite's kept moves keep the value; the suite may leave out a move whose win its
        // maker did not find (its solver under the game's draw rules).
        for mv in words[2].split(',') {
            assert!(kept.iter().any(|k| k == mv), "{line}: {kept:?}");
        }
        more += usize::from(kept.len() > words[2].split(',').count());
        checked += 1;
    }
    assert_eq!(checked, 320);
    println!("critical suite: 320 values agree; {more} positions with more keeping moves");
    let memory = ProofMemory::new(256 << 20);
    let mut rng = Rng::new(34);
    let mut tally = [0u32; 3];
    while tally.iter().sum::<u32>() < 3000 {
        let mut pos = moulin::Position::start(rules);
        for _ in 0..8 + rng.below(10) {
            let moves = legal_moves(&pos, Convention::Turn);
            if moves.is_empty() || !pos.is_placing() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if !pos.is_placing() || pos.quick_outcome().is_some() {
            continue;
        }
        memory.clear();
        let proven = prove(&tables, &pos, &memory, 2).unwrap().value;
        let fen = moulin::rules::fen::write(&pos);
        assert_eq!(solution.value(&pos), Some(proven), "{fen}");
        tally[(proven + 1) as usize] += 1;
    }
    println!("3000 random positions: {tally:?} (loss, draw, win for the side to move)");
    assert!(tally.iter().all(|&n| n > 0), "{tally:?}");
}

/// With the placing solution, the engine plays the solution's move rather than the book's: after
/// `e4 g1 b6 e3 d2 d6` the shipped book holds f4, proven by `book cover` to keep a draw, where
/// White wins (b2, by the solution). Before, the engine played the book's f4.
#[test]
#[ignore = "needs the endgame tables 3-9 and the placing solution; about 40 s"]
fn with_the_placing_solution_a_book_move_that_misses_a_win_is_not_played() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let dir = full_tables();
    let rules = moulin::Rules::nine();
    let solution = placing_solution(&dir, &rules.without_draw_rules());
    let mut engine = crate::shared::moulin()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let mut output = BufReader::new(engine.stdout.take().unwrap()).lines();
    let mut until = |end: &str| -> Vec<String> {
        let mut lines = Vec::new();
        for line in output.by_ref() {
            let line = line.unwrap();
            let done = line.starts_with(end);
            lines.push(line);
            if done {
                return lines;
            }
        }
        panic!("the engine ended before {end}: {lines:?}");
    };
    let moves = "e4 g1 b6 e3 d2 d6";
    writeln!(input, "setoption name TablesPath value {}", dir.display()).unwrap();
    writeln!(input, "isready").unwrap();
    until("readyok");
    writeln!(input, "position startpos moves {moves}\ngo movetime 1000").unwrap();
    let lines = until("bestmove");
    writeln!(input, "quit").unwrap();
    assert!(
        lines.contains(&"info string placing solution win".to_string()),
        "{lines:?}"
    );
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let mut game = moulin::Game::new(rules);
    for m in moves.split_whitespace().chain([best]) {
        game.play_token(m).unwrap();
    }
    // Black, to move, is lost.
    assert_eq!(solution.value(game.position()), Some(-1), "{lines:?}");
    assert!(engine.wait().unwrap().success());
}
