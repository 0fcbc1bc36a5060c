//! `moulin analyse`: a game graded move by move (text and JSON), the advisor's list of every
//! legal move, and bad input refused with one message.

use std::process::{Command, Output};

fn moulin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_moulin"))
        .arg("analyse")
        .args(args)
        .output()
        .expect("moulin runs")
}

fn ok(args: &[&str]) -> String {
    let out = moulin(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The advisor's lines after `moves`: (move, value as a number, W/L far above and below).
fn advice(moves: &[&str], depth: &str) -> Vec<(String, i32)> {
    let mut args = vec!["--position", "--depth", depth, "--moves"];
    args.extend(moves);
    let text = ok(&args);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().contains(" to move: "), "{text}");
    lines
        .map(|l| {
            let mut words = l.split_whitespace();
            let mv = words.next().unwrap().to_string();
            let v = words.next().unwrap();
            let value = match v.as_bytes()[0] {
                b'W' => 100_000 - v[1..].parse::<i32>().unwrap(),
                b'L' => -100_000 + v[1..].parse::<i32>().unwrap(),
                _ => v.parse().unwrap(),
            };
            (mv, value)
        })
        .collect()
}

#[test]
fn the_advisor_values_every_legal_move_best_first() {
    let lines = advice(&["d7", "a1", "g7", "d1"], "4");
    // 20 empty points, and a7 closes a mill with two removals to choose from: 21 moves.
    assert_eq!(lines.len(), 21, "{lines:?}");
    assert!(lines.windows(2).all(|w| w[0].1 >= w[1].1), "{lines:?}");
    assert!(lines.iter().any(|(m, _)| m == "a7xd1"), "{lines:?}");
    let json = ok(&[
        "--position",
        "--depth",
        "3",
        "--moves",
        "d7",
        "a1",
        "--json",
    ]);
    assert_eq!(json.matches("\"move\":").count(), 22, "{json}");
}

#[test]
fn the_worst_move_is_graded_as_the_advisor_values_it() {
    let before = ["d7", "a1", "g7", "d1"];
    let lines = advice(&before, "5");
    let (best, best_value) = lines[0].clone();
    let (worst, worst_value) = lines.last().unwrap().clone();
    // A drop of 120 cp or more: a mistake at least.
    assert!(best_value - worst_value >= 120, "{lines:?}");
    let mut args = vec!["--depth", "5", "--moves"];
    args.extend(before);
    args.push(&worst);
    let text = ok(&args);
    let row = text.lines().nth(before.len() + 1).unwrap();
    assert!(
        row.contains(&worst) && (row.contains("mistake") || row.contains("blunder")),
        "{text}"
    );
    assert!(
        row.contains(&format!(" {best} (")),
        "the better move is shown: {text}"
    );
    assert!(
        text.contains("white: ") && text.contains("mistake"),
        "{text}"
    );
    args.push("--json");
    let json = ok(&args);
    assert!(
        json.starts_with("{\"result\":") && json.trim_end().ends_with("]}"),
        "{json}"
    );
    assert_eq!(json.matches("\"ply\":").count(), before.len() + 1);
    assert!(
        json.contains("\"label\":\"mistake\"") || json.contains("\"label\":\"blunder\""),
        "{json}"
    );
}

#[test]
fn bad_input_is_one_message_and_a_failure() {
    let dir = std::env::temp_dir().join(format!("moulin-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. d6 d6 *\n").unwrap();
    let bad = bad.to_str().unwrap();
    for (args, says) in [
        (vec!["--moves", "d2", "d2"], "occupied"),
        (vec!["--moves", "zz"], "zz"),
        (
            vec!["--variant", "chess", "--moves", "d2"],
            "unknown variant",
        ),
        (vec!["--fen", "x", "--position"], "--fen"),
        (vec![bad], "line 1, column 7"),
        (vec!["/no/such/file.pgn"], "cannot read"),
        (vec![bad, "--game", "0"], "line 1"),
        (vec![], "nothing to analyse"),
        (vec!["--moves", "d7", "a1", "g7", "d1", "a7"], "removal"),
    ] {
        let out = moulin(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
