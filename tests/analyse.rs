//! `moulin analyse`: a game graded move by move (text and JSON), the advisor's list of every
//! legal move, and bad input refused with one message.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

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
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-analyse-{}", std::process::id()));
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

/// A game of moulin against itself at a low level, as a record file: blunders to be found.
fn sample_game(dir: &std::path::Path) -> std::path::PathBuf {
    let records = dir.join("sample.pgn");
    let _ = std::fs::remove_file(&records);
    let me = env!("CARGO_BIN_EXE_moulin");
    let out = Command::new(me)
        .args([
            "match",
            "--engine",
            &format!("name=a cmd={me} option.Level=4"),
        ])
        .args(["--engine", &format!("name=b cmd={me} option.Level=2")])
        .args(["--games", "1", "--movetime", "20", "--seed", "3"])
        .arg("--pgn")
        .arg(&records)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    records
}

/// The analysis page of the sample game, searched to `depth`, in `dir`.
fn sample_page(dir: &std::path::Path, depth: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let game = sample_game(dir);
    let page = dir.join("analysis.html");
    let (g, p) = (game.to_str().unwrap(), page.to_str().unwrap());
    ok(&[g, "--depth", depth, "--html", p]);
    page
}

#[test]
fn the_html_page_draws_the_graph_and_the_critical_boards_offline() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-html-{}", std::process::id()));
    let page = sample_page(&dir, "4");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(html.contains("<polyline"), "the value graph");
    assert!(
        html.matches("<svg").count() >= 2,
        "the graph and at least one board"
    );
    assert!(html.contains("class=\"blunder\"") || html.contains("class=\"mistake\""));
    // Offline: no script, and no address but the SVG namespace.
    assert!(!html.contains("<script"));
    let addresses = html.matches("http").count();
    let namespaces = html.matches("http://www.w3.org/2000/svg").count();
    assert_eq!(addresses, namespaces);
}

/// Opens the page in headless Chromium (Debian package chromium) and takes a screenshot, the
/// picture docs/play-and-analyse.md shows: `cargo test --release --test analyse -- --ignored`, then copy
/// `$TMPDIR/moulin-html-shot/analysis.png` to `docs/analysis.png`.
#[test]
#[ignore = "needs Debian's chromium; makes the picture of docs/play-and-analyse.md"]
fn the_html_page_renders_in_headless_chromium() {
    let dir = std::env::temp_dir().join("moulin-html-shot");
    let page = sample_page(&dir, "6");
    let shot = dir.join("analysis.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1000,1400",
        ])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium is installed (Debian package chromium)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
    println!("screenshot: {}", shot.display());
}

#[test]
fn exact_values_of_a_placing_position() {
    // Tables up to 3 a side: a placing position that ends with 3 a side is covered.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-{}-analyse-exact", std::process::id()));
    let d = dir.to_str().unwrap();
    let built = Command::new(env!("CARGO_BIN_EXE_moulin"))
        .args(["tables", "build", "--pieces", "3", "--dir", d])
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    // Two a side on the board, one each in hand: some moves win, one draws, the others lose.
    let fen = "***O*O@*/****@***/******** w p p 2 1 2 1 0 0 -1 -1 -1 -1 0 0 9";
    let text = ok(&["--position", "--exact", "--tables", d, "--fen", fen]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("white to move: "), "{text}");
    assert!(lines.last().unwrap().starts_with("exact: "), "{text}");
    let moves: Vec<(&str, &str)> = lines[1..lines.len() - 1]
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0], w[1])
        })
        .collect();
    // Every legal move once (20 empty points; the mill's removals make several turns of one).
    let game = moulin::Game::from_fen(fen, moulin::Rules::nine()).unwrap();
    let legal = moulin::rules::movegen::legal_moves(game.position(), moulin::Convention::Turn);
    assert_eq!(moves.len(), legal.len(), "{text}");
    // Best first; d3 closes a mill (taking c4 leaves Black two pieces) and wins.
    let count = |v: &str| moves.iter().filter(|m| m.1 == v).count();
    assert_eq!(
        (count("win"), count("draw"), count("loss")),
        (7, 1, 13),
        "{text}"
    );
    assert!(
        moves.iter().any(|m| m.0 == "d3xc4" && m.1 == "win"),
        "{text}"
    );
    let rank = |v: &str| {
        ["loss", "draw", "win"]
            .iter()
            .position(|&x| x == v)
            .unwrap()
    };
    assert!(
        moves.windows(2).all(|w| rank(w[0].1) >= rank(w[1].1)),
        "{text}"
    );
    // Not a moving-phase position, and not without tables.
    let moving = "**OO*O@*/****@**@/******** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 9";
    let out = moulin(&["--position", "--exact", "--tables", d, "--fen", moving]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("moving phase"));
    let out = moulin(&["--position", "--exact", "--fen", fen]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
