//! `moulin analyse`: a game graded move by move (text and JSON), the advisor's list of every
//! legal move, and bad input refused with one message.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use std::process::{Command, Output};

fn moulin(args: &[&str]) -> Output {
    crate::shared::moulin()
        .arg("analyse")
        .args(args)
        .output()
        .expect("moulin runs")
}

/// A folder of this test run's own, made anew: `name` and the process id.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch folder `name` holding the tables of every position of 3 a side.
fn tables_of_three(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let built = crate::shared::moulin()
        .args([
            "tables",
            "build",
            "--pieces",
            "3",
            "--dir",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    dir
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

/// The advisor's lines after `moves`: (move, value in centi-pieces read from the pieces shown,
/// W/L far above and below).
fn advice(moves: &[&str], depth: &str) -> Vec<(String, i32)> {
    // The search's values: without the shipped opening's solution, which values the first
    // plies' moves exactly.
    let mut args = vec![
        "--opening-solution",
        "none",
        "--position",
        "--depth",
        depth,
        "--moves",
    ];
    args.extend(moves);
    let text = ok(&args);
    let mut lines = text.lines();
    let first = lines.next().unwrap();
    let side = first.split_whitespace().next().unwrap();
    assert!(
        first.starts_with(&format!("{side} to move (values for {side}): ")),
        "{text}"
    );
    lines
        .map(|l| {
            let mut words = l.split_whitespace();
            let mv = words.next().unwrap().to_string();
            let v = words.next().unwrap();
            let value = match v.as_bytes()[0] {
                b'W' => 100_000 - v[1..].parse::<i32>().unwrap(),
                b'L' => -100_000 + v[1..].parse::<i32>().unwrap(),
                _ => {
                    // Pieces with two decimals and a sign: `+0.35`, `-1.20`, `0.00`.
                    assert!(v.len() >= 4 && v.as_bytes()[v.len() - 3] == b'.', "{v}");
                    (v.parse::<f64>().unwrap() * 100.0).round() as i32
                }
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
    let mut args = vec!["--opening-solution", "none", "--depth", "5", "--moves"];
    args.extend(before);
    args.push(&worst);
    let text = ok(&args);
    let row = text.lines().nth(before.len() + 2).unwrap();
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
        json.starts_with("{\"values\":\"white\",\"result\":") && json.trim_end().ends_with("]}"),
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
    let dir = scratch("moulin-analyse");
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

/// A game between moulin at levels 4 and 2 (White wins in 57 plies), as a record file with
/// its tags: blunders to be found.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analyse-sample.pgn");

/// The analysis page of the sample game, searched to `depth`, in `dir`.
fn sample_page(dir: &std::path::Path, depth: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let page = dir.join("analysis.html");
    let _ = std::fs::remove_file(&page);
    ok(&[SAMPLE, "--depth", depth, "--html", page.to_str().unwrap()]);
    page
}

/// The text of an element's attribute-free opening tag names, closed in order: a page whose
/// elements nest (void elements and self-closed SVG elements aside), the script's text skipped.
fn check_nesting(html: &str) {
    const VOID: [&str; 4] = ["meta", "br", "input", "!DOCTYPE"];
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("every tag ends");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name), "closing {name}");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap().to_string();
            if VOID.contains(&name.as_str()) {
                continue;
            }
            if name == "script" {
                let close = rest.find("</script>").expect("a script ends");
                rest = &rest[close + "</script>".len()..];
                continue;
            }
            open.push(name);
        }
    }
    assert!(open.is_empty(), "left open: {open:?}");
}

/// The page's embedded data.
fn embedded_data(html: &str) -> &str {
    let start = html
        .find("<script id=\"analysis-data\" type=\"application/json\">")
        .expect("the data");
    let data = &html[start..];
    let data = &data[data.find('>').unwrap() + 1..];
    &data[..data.find("</script>").unwrap()]
}

/// Checks a page against the text analysis of the same game: well-formed, offline, with every
/// step's board and every ply's values, label and move as the text gives them.
fn check_page(html: &str, text: &str) {
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    check_nesting(html);
    // Offline: nothing is fetched, whatever the element.
    for fetch in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    let addresses = html.matches("http").count();
    let namespaces = html.matches("http://www.w3.org/2000/svg").count();
    assert_eq!(addresses, namespaces, "no address but the SVG namespace");
    let data = embedded_data(html);
    // The rows, the lines that say where exact knowledge ends (`--- ...`) aside.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(2)
        .take_while(|l| {
            l.starts_with(' ') || l.starts_with("---") || l.as_bytes()[0].is_ascii_digit()
        })
        .filter(|l| !l.starts_with("---"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(!rows.is_empty(), "{text}");
    assert_eq!(
        data.matches("\"board\":").count(),
        rows.len() + 1,
        "a step a ply"
    );
    for row in &rows {
        // Values that are one word (`+35`, `W3`, `draw`) are checked; `win 12` splits.
        let (ply, mv) = (row[0], row[2]);
        let at = data
            .find(&format!("{{\"ply\":{ply},"))
            .expect("the ply's data");
        let item = &data[at..];
        let item = &item[..item.find("\"advice\"").unwrap()];
        assert!(
            item.contains(&format!("\"move\":{{\"text\":\"{mv}\"")),
            "{item}"
        );
        if row.len() > 6 && !row[3].starts_with('w') && !row[3].starts_with('l') {
            assert!(
                item.contains(&format!("\"before\":\"{}\"", row[3])),
                "{row:?} {item}"
            );
        }
        let label = row
            .iter()
            .find(|w| ["best", "good", "inaccuracy", "mistake", "blunder"].contains(w));
        assert!(
            item.contains(&format!("\"label\":\"{}\"", label.unwrap())),
            "{row:?} {item}"
        );
        assert!(
            html.contains(&format!("data-step=\"{ply}\"")),
            "the move leads to its step"
        );
    }
}

/// The lines between points the page draws.
fn edges(data: &str) -> usize {
    let list = data.split("\"edges\":[").nth(1).unwrap();
    list[..list.find("]]").unwrap()].matches('[').count()
}

#[test]
fn the_html_page_is_a_board_to_step_through_offline() {
    let dir = scratch("moulin-html");
    let page = sample_page(&dir, "4");
    let html = std::fs::read_to_string(&page).unwrap();
    let text = ok(&[SAMPLE, "--depth", "4"]);
    check_page(&html, &text);
    // The board, the bar, the graph with its zero line and ply ticks, the summary, the tags.
    for part in [
        "id=\"board\"",
        "id=\"evalbar\"",
        "id=\"graph\"",
        "class=\"zero\"",
        ">10</text>",
        "blunders ??",
        "accuracy",
        "average chance lost (points)",
        "class=\"edge ends\"",
        "exact ends</text>",
        "in pieces (+1.00: White a piece ahead",
        ">+10</text>",
        ">-2</text>",
        "Event: moulin match",
        "(White) vs",
        "<h2>Legend</h2>",
    ] {
        assert!(html.contains(part), "{part}");
    }
    assert!(html.contains("class=\"mv blunder\"") || html.contains("class=\"mv mistake\""));
    // One unit: pieces, in the text as on the page; nothing in centi-pieces.
    assert!(!html.contains("centi") && !text.contains("centi"), "{text}");
    assert!(
        text.contains(" points of winning chance lost a move on average"),
        "{text}"
    );
    // Where the opening's solution ends, said in the text as on the graph.
    assert!(
        text.contains(
            "\n--- exact knowledge ends after ply 10: the values below are the search's (depth 4)"
        ),
        "{text}"
    );
    // The nine men's board: 32 lines between points, no diagonal.
    assert_eq!(edges(embedded_data(&html)), 32);
}

#[test]
fn the_page_of_a_twelve_game_from_a_set_up_position_draws_its_board() {
    let dir = scratch("moulin-html-twelve");
    let page = dir.join("twelve.html");
    // Twelve men's morris from a set-up position: White on d5 and a7, Black on d3.
    let fen = "O***@***/********/*******O w p p 2 10 1 11 0 0 -1 -1 -1 -1 0 0 2";
    let args = [
        "--variant",
        "twelve",
        "--fen",
        fen,
        "--depth",
        "3",
        "--moves",
        "b6",
        "d1",
    ];
    let text = ok(&args);
    let mut with_page = args.to_vec();
    with_page.extend(["--html", page.to_str().unwrap()]);
    ok(&with_page);
    let html = std::fs::read_to_string(&page).unwrap();
    check_page(&html, &text);
    let data = embedded_data(&html);
    // 32 lines and the 8 of twelve's four diagonals.
    assert_eq!(edges(data), 40);
    // The first step is the set-up position: d5 (point 0) white, d3 (4) black, a7 (23) white.
    let board = &data[data.find("\"board\":\"").unwrap() + 9..][..24];
    assert_eq!(board, "w...b..................w", "{data}");
}

#[test]
fn two_runs_of_a_game_give_the_same_json() {
    // The default budget is a depth: nothing depends on the machine's speed.
    let args = ["--moves", "d2", "d6", "--json"];
    let first = ok(&args);
    let second = ok(&args);
    assert_eq!(first, second);
}

#[test]
fn text_and_json_give_values_from_whites_side() {
    let moves = ["d2", "d6", "f4", "b4", "b6", "f6", "d1", "g7"];
    let mut args = vec![
        "--no-book",
        "--opening-solution",
        "none",
        "--depth",
        "6",
        "--moves",
    ];
    args.extend(moves);
    let text = ok(&args);
    assert!(text.starts_with("values from White's side\n"), "{text}");
    // From one side, the value after a move is the value before the next one.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(2)
        .take(moves.len())
        .map(|l| l.split_whitespace().collect())
        .collect();
    for w in rows.windows(2) {
        assert_eq!(w[0][4], w[1][3], "{text}");
    }
    args.push("--json");
    let json = ok(&args);
    assert!(json.starts_with("{\"values\":\"white\","), "{json}");
    let values = |key: &str| -> Vec<&str> {
        json.split(&format!("\"{key}\":{{\"cp\":"))
            .skip(1)
            .map(|s| &s[..s.find('}').unwrap()])
            .collect()
    };
    let (before, after) = (values("before"), values("after"));
    assert_eq!(before.len(), moves.len(), "{json}");
    assert_eq!(&after[..after.len() - 1], &before[1..], "{json}");
    assert!(
        json.contains("\"sides\":{\"white\":{\"moves\":4,"),
        "{json}"
    );
}

#[test]
fn all_moves_values_every_legal_move_of_every_position() {
    let json = ok(&[
        "--all-moves",
        "--depth",
        "3",
        "--moves",
        "d2",
        "d6",
        "--json",
    ]);
    let advice: Vec<usize> = json
        .split("\"advice\":[")
        .skip(1)
        .map(|s| s[..s.find(']').unwrap()].matches("\"move\":").count())
        .collect();
    // 24 empty points, then 23.
    assert_eq!(advice, [24, 23], "{json}");
}

#[test]
fn positions_the_tables_cover_are_graded_by_their_exact_value() {
    let dir = tables_of_three("moulin-analyse-graded-exact");
    let d = dir.to_str().unwrap();
    // Three a side, flying: White (d5, g1, a7) wins, in 11 plies to a removal.
    let fen = "O***@***/********/*@*O*@*O w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 9";
    let args = [
        "--tables", d, "--fen", fen, "--moves", "g1-e5", "d3-c5", "d5-e4", "c5-e3",
    ];
    let text = ok(&args);
    let rows: Vec<&str> = text.lines().skip(2).take(4).collect();
    assert!(rows[0].contains(" win 11 "), "{text}");
    for row in &rows {
        let words: Vec<&str> = row.split_whitespace().collect();
        // win n before and after, never a score; a slower win loses nothing.
        assert_eq!((words[3], words[5]), ("win", "win"), "{text}");
        assert!(
            words[4].parse::<u32>().is_ok() && words[6].parse::<u32>().is_ok(),
            "{text}"
        );
        assert!(
            row.ends_with("[exact]") && !row.contains(" +") && !row.contains(" -"),
            "{text}"
        );
        assert_eq!(words[7], "0.0", "{text}");
    }
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json = ok(&json_args);
    assert!(
        json.contains("\"before\":{\"exact\":\"win\",\"distance\":11}"),
        "{json}"
    );
    assert!(!json.contains("\"cp\":"), "{json}");
    let page = dir.join("exact.html");
    json_args.pop();
    json_args.extend(["--html", page.to_str().unwrap()]);
    ok(&json_args);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"before\":\"win 11\""),
        "the page shows it too"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exact_values_of_a_placing_position() {
    // Tables up to 3 a side: a placing position that ends with 3 a side is covered.
    let dir = tables_of_three("moulin-analyse-exact");
    let d = dir.to_str().unwrap();
    // Two a side on the board, one each in hand: some moves win, one draws, the others lose.
    let fen = "***O*O@*/****@***/******** w p p 2 1 2 1 0 0 -1 -1 -1 -1 0 0 9";
    let text = ok(&["--position", "--exact", "--tables", d, "--fen", fen]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("white to move (values for white): "),
        "{text}"
    );
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

/// The labels of a graded game's plies (JSON), in order.
fn labels(json: &str) -> Vec<String> {
    json.split("\"label\":\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect()
}

/// A game between two strong engines (moulin against itself at depth 12, from the imposed
/// opening d6 f4): its placings keep the value, so none is labelled `?!`, `?` or `??`, whatever
/// the search's depth's parity does to the values from ply to ply; the imposed moves (`{book}`)
/// and moulin's book moves are shown as `book`, not graded, and the summary counts the rest.
#[test]
#[ignore = "two games at depth 12 played and analysed twice: about 20 s"]
fn the_placings_of_strong_engines_are_not_labelled() {
    let dir = scratch("moulin-analyse-strong");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "d6 f4\n").unwrap();
    let pgn = dir.join("games.pgn");
    let bin = env!("CARGO_BIN_EXE_moulin");
    let engine =
        |name: &str| format!("name={name} cmd={bin} tc=inf depth=12 option.BookVariety=best");
    let played = Command::new(bin)
        .args(["match", "--engine", &engine("a"), "--engine", &engine("b")])
        .args(["--games", "2", "--max-plies", "24"])
        .args(["--openings", openings.to_str().unwrap()])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(played.status.success(), "{played:?}");
    let record = pgn.to_str().unwrap();
    assert!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .contains("1. d6 {book} 1... f4 {book}"),
        "the opening is imposed"
    );
    for book in [true, false] {
        let mut args = vec![record, "--json"];
        if !book {
            args.push("--no-book");
        }
        let json = ok(&args);
        let labels = labels(&json);
        let placings = &labels[..18];
        assert!(
            placings
                .iter()
                .all(|l| ["book", "best", "good"].contains(&l.as_str())),
            "book {book}: {placings:?}\n{json}"
        );
        let books = labels.iter().filter(|l| *l == "book").count();
        if book {
            // The imposed moves at least, then moulin's book as far as the game follows it.
            assert!(placings[..2] == ["book", "book"], "{labels:?}");
            assert!(labels[..books].iter().all(|l| l == "book"), "{labels:?}");
        } else {
            assert_eq!(books, 0, "{labels:?}");
        }
        // The summary counts the graded moves, the book moves apart.
        let white = labels.iter().step_by(2);
        let graded = white.clone().filter(|l| *l != "book").count();
        let white_books = white.filter(|l| *l == "book").count();
        assert!(
            json.contains(&format!("\"sides\":{{\"white\":{{\"moves\":{graded},")),
            "{json}"
        );
        assert!(
            json.contains(&format!("\"book\":{white_books}}}")),
            "{json}"
        );
    }
    let text = ok(&[record]);
    assert!(text.contains(" book "), "{text}");
    assert!(
        !text.contains(" 1 mistakes") && !text.contains(" 1 blunders"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_summary_says_one_move_one_mistake() {
    // White's fifth ply is the worst move there, a mistake or a blunder: the summary's nouns in
    // the singular.
    let before = ["d7", "a1", "g7", "d1"];
    let lines = advice(&before, "5");
    let worst = lines.last().unwrap().0.clone();
    let mut args = vec!["--no-book", "--depth", "5", "--moves"];
    args.extend(before);
    args.push(&worst);
    let text = ok(&args);
    let white = text.lines().find(|l| l.starts_with("white: ")).unwrap();
    assert!(white.starts_with("white: 3 moves graded: "), "{text}");
    assert!(
        white.contains("1 mistake,") || white.contains("1 blunder,"),
        "{text}"
    );
    assert!(
        !text.contains(" 1 mistakes") && !text.contains(" 1 blunders"),
        "{text}"
    );
}

/// From a position the 3-a-side tables win, `--position` values every legal move exactly, best
/// first; and every move is graded by its exact value: one that keeps the win loses nothing and
/// is never labelled, one that throws it away is a blunder (every kept move graded, and the
/// first thrown ones: each grading is a run of its own).
#[test]
fn a_move_that_keeps_the_exact_value_is_never_a_mistake() {
    let dir = tables_of_three("moulin-analyse-kept");
    let d = dir.to_str().unwrap();
    let fen = "O***@***/********/*@*O*@*O w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 9";
    let game = moulin::Game::from_fen(fen, moulin::Rules::nine()).unwrap();
    let pos = game.position();
    let legal = moulin::rules::movegen::legal_moves(pos, moulin::Convention::Turn);
    let json = ok(&["--tables", d, "--fen", fen, "--position", "--json"]);
    let moves: Vec<(String, String)> = json
        .split("{\"move\":\"")
        .skip(1)
        .map(|m| {
            let token = m[..m.find('"').unwrap()].to_string();
            let value = m.split("\"value\":{\"exact\":\"").nth(1).unwrap_or("");
            (token, value[..value.find('"').unwrap_or(0)].to_string())
        })
        .collect();
    assert_eq!(moves.len(), legal.len(), "{json}");
    assert!(
        moves.iter().all(|(_, v)| v == "win" || v == "loss"),
        "{json}"
    );
    let kept = moves.iter().filter(|(_, v)| v == "win").count();
    assert!(kept > 0 && kept < moves.len(), "{json}");
    assert!(
        moves[..kept].iter().all(|(_, v)| v == "win"),
        "best first: {json}"
    );
    for (token, value) in moves.iter().take(kept + 3) {
        let json = ok(&["--tables", d, "--fen", fen, "--moves", token, "--json"]);
        let label = &labels(&json)[0];
        assert!(
            json.contains(&format!("\"move_value\":{{\"exact\":\"{value}\"")),
            "{token}: {json}"
        );
        if value == "win" {
            assert!(
                ["best", "good"].contains(&label.as_str()),
                "{token}: {json}"
            );
            assert!(json.contains("\"loss\":0.0,"), "{token}: {json}");
        } else {
            assert_eq!(label, "blunder", "{token}: {json}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the whole game solved (the tables of nine and the placing solution, about three hours
/// to build), every placing move of a game is graded by its exact value, never by a score.
#[test]
#[ignore = "needs the complete tables of nine in ~/.cache/moulin/tables/nine (reads them: minutes)"]
fn the_placing_solution_grades_a_game_exactly() {
    let dir = moulin::tables::default_dir("nine");
    let text = ok(&[
        "--no-book",
        "--moves",
        "d6",
        "f4",
        "d2",
        "b4",
        "--tables",
        dir.to_str().unwrap(),
    ]);
    let plies: Vec<&str> = text.lines().skip(2).take(4).collect();
    assert_eq!(plies.len(), 4, "{text}");
    for line in plies {
        let w: Vec<&str> = line.split_whitespace().collect();
        // The start is a draw, and none of these moves gives it away.
        assert_eq!((w[3], w[4], w[5]), ("draw", "draw", "0.0"), "{line}");
        assert!(line.ends_with("[exact]"), "{line}");
    }
}

use crate::webdriver;

/// A position string's board as the page's data writes it: `w`, `b` or `.` a point, in the
/// points' order.
fn board_of_fen(fen: &str) -> String {
    let rings = fen.split(' ').next().unwrap();
    rings
        .chars()
        .filter(|&c| c != '/')
        .map(|c| match c {
            'O' => 'w',
            '@' => 'b',
            _ => '.',
        })
        .collect()
}

/// What the page shows: the board's pieces, the highlighted move, the step, and the marks of the
/// move played (arrows, rings, crosses).
const SHOWN: &str = "const m = {};
for (const c of document.querySelectorAll('#board .piece')) m[c.dataset.point] = c.classList.contains('white') ? 'w' : 'b';
const d = JSON.parse(document.getElementById('analysis-data').textContent);
const cur = document.querySelector('.mv.current');
return [d.points.map(p => m[p[2]] || '.').join(''), cur ? cur.textContent : '', document.getElementById('board').dataset.step, document.querySelectorAll('#board .played').length].join(';');";

/// Steps through the analysis page of a fixed game in headless Chromium (Debian packages
/// `chromium` and `chromium-driver`) with the keyboard, a click on a move and one on the graph,
/// checking the board and the highlighted move against the JSON analysis at each; then takes the
/// pictures docs/play-and-analyse.md shows (docs/img/). `cargo test --test suite analyse:: -- --ignored`.
#[test]
#[ignore = "needs Debian's chromium and chromium-driver; remakes the pictures in docs/img/"]
fn the_page_steps_through_the_game_in_headless_chromium() {
    let dir = scratch("moulin-browser");
    let page = sample_page(&dir, "8");
    let json = ok(&[SAMPLE, "--depth", "8", "--json"]);
    let plies: Vec<&str> = json.split("{\"ply\":").skip(1).collect();
    let field = |ply: usize, key: &str| webdriver::string_after(plies[ply - 1], key);
    let browser = webdriver::Browser::start(&dir.join("profile"), 1000, 1180);
    browser.open(&format!("file://{}", page.display()));
    let expect = |step: usize| {
        let shown = browser.run(SHOWN);
        let parts: Vec<&str> = shown.split(';').collect();
        assert_eq!(parts[2], step.to_string(), "{shown}");
        if step < plies.len() {
            assert_eq!(
                parts[0],
                board_of_fen(&field(step + 1, "fen")),
                "step {step}"
            );
        }
        if step == 0 {
            assert_eq!(parts[1], "start");
        } else {
            let played = format!("{}{}", field(step, "move"), field(step, "glyph"));
            assert_eq!(parts[1], played, "step {step}");
            assert!(parts[3] != "0", "the move played is drawn at step {step}");
        }
    };
    expect(0);
    for _ in 0..5 {
        browser.key(webdriver::RIGHT);
    }
    expect(5);
    browser.key(webdriver::END);
    expect(plies.len());
    browser.key(webdriver::LEFT);
    expect(plies.len() - 1);
    browser.key(webdriver::HOME);
    expect(0);
    browser.run("document.querySelector('.mv[data-step=\"20\"]').click(); return '';");
    expect(20);
    browser.run("document.querySelector('#graph .hit[data-step=\"31\"]').dispatchEvent(new MouseEvent('click')); return '';");
    expect(31);
    // The picture: the first blunder, its better move drawn beside it.
    let blunder = (1..=plies.len())
        .find(|&p| field(p, "label") == "blunder" && field(p, "best") != field(p, "move"))
        .unwrap();
    browser.key(webdriver::HOME);
    for _ in 0..blunder {
        browser.key(webdriver::RIGHT);
    }
    expect(blunder);
    shoot(&browser, "analysis.png");
    drop(browser);
    twelve_picture(&dir);
}

/// The page's layout as a script measures it, `;` between the parts: the viewport's width and
/// the document's; the boxes (left, right, top, bottom, in CSS pixels) of the board, the move
/// list, the summary and the value above the bar; and the labels that cover a point of the board
/// (a piece's disc drawn there, whether or not a piece stands on it) or the value that covers
/// the board, `none` when none does.
const LAYOUT: &str = "const r = e => e.getBoundingClientRect();
const box = s => { const b = r(document.querySelector(s)); return [b.left, b.right, b.top, b.bottom].map(Math.round).join(','); };
const board = document.getElementById('board');
const unit = r(board).width / 300;
const discs = [...document.querySelectorAll('#board .spot')].map(s => { const b = r(s), x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2, d = 13 * unit; return { left: x - d, right: x + d, top: y - d, bottom: y + d, name: s.dataset.point }; });
const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const value = document.getElementById('evaltext');
const covered = [];
for (const l of [...document.querySelectorAll('#board text'), value]) for (const d of discs) if (hit(r(l), d)) covered.push(l.textContent + ' on ' + d.name);
if (hit(r(value), r(board))) covered.push('the value on the board');
const labels = document.querySelectorAll('#board text').length;
return [document.documentElement.clientWidth, document.documentElement.scrollWidth, box('#board'), box('#moves'), box('table.summary'), box('#evaltext'), covered.join(', ') || 'none', labels].join(';');";

/// What `LAYOUT` measured.
#[derive(Debug)]
struct Layout {
    viewport: i32,
    document: i32,
    board: [i32; 4],
    moves: [i32; 4],
    summary: [i32; 4],
    value: [i32; 4],
    covered: String,
    labels: usize,
}

impl Layout {
    fn of(browser: &webdriver::Browser) -> Layout {
        let text = browser.run(LAYOUT);
        let parts: Vec<&str> = text.split(';').collect();
        let rect = |i: usize| -> [i32; 4] {
            let v: Vec<i32> = parts[i].split(',').map(|n| n.parse().unwrap()).collect();
            [v[0], v[1], v[2], v[3]]
        };
        Layout {
            viewport: parts[0].parse().unwrap(),
            document: parts[1].parse().unwrap(),
            board: rect(2),
            moves: rect(3),
            summary: rect(4),
            value: rect(5),
            covered: parts[6].to_string(),
            labels: parts[7].parse().unwrap(),
        }
    }

    /// Nothing wider than the screen, every part within it, no label on the board's points,
    /// the files and ranks named (7 + 7 for nine men's morris).
    fn fits(&self) {
        assert!(self.document <= self.viewport, "{self:?}");
        for [left, right, ..] in [self.board, self.moves, self.summary, self.value] {
            assert!(left >= 0 && right <= self.viewport, "{self:?}");
        }
        assert_eq!(self.covered, "none", "{self:?}");
        assert_eq!(self.labels, 14, "{self:?}");
    }
}

/// The page at a phone's 400 px and on a desktop, in headless Chromium: no wider than the
/// screen, the board, the moves and the summary within it, the moves just under the board on
/// the phone and beside it on the desktop, and no label on the board's points, at the start,
/// in the middle and at the end of the game. `cargo test --test suite analyse::the_page_fits --
/// --ignored`.
#[test]
#[ignore = "needs Debian's chromium and chromium-driver"]
fn the_page_fits_a_phone_and_a_desktop_in_headless_chromium() {
    let dir = scratch("moulin-browser-layout");
    let page = sample_page(&dir, "6");
    let url = format!("file://{}", page.display());
    let phone = webdriver::Browser::start_phone(&dir.join("profile-phone"), 400, 800);
    phone.open(&url);
    for _ in 0..3 {
        let l = Layout::of(&phone);
        println!("400 px: {l:?}");
        assert_eq!(l.viewport, 400, "{l:?}");
        l.fits();
        // The moves right under the board (its buttons and the pieces in hand between), a
        // few rows of them, and the summary within two screens of the top.
        let gap = l.moves[2] - l.board[3];
        assert!((0..100).contains(&gap), "{l:?}");
        assert!(l.moves[3] - l.moves[2] >= 80, "{l:?}");
        assert!(l.summary[3] < 1600, "{l:?}");
        for _ in 0..30 {
            phone.key(webdriver::RIGHT);
        }
    }
    drop(phone);
    let desktop = webdriver::Browser::start(&dir.join("profile-desktop"), 1200, 900);
    desktop.open(&url);
    for _ in 0..3 {
        let l = Layout::of(&desktop);
        println!("1200 px: {l:?}");
        l.fits();
        // The summary and the moves beside the board, from its top down.
        assert!(
            l.summary[0] > l.board[1] && l.moves[0] > l.board[1],
            "{l:?}"
        );
        assert!(
            l.summary[2] <= l.board[2] && l.moves[2] < l.board[3],
            "{l:?}"
        );
        for _ in 0..30 {
            desktop.key(webdriver::RIGHT);
        }
    }
}

/// Saves a screenshot under docs/img/.
fn shoot(browser: &webdriver::Browser, name: &str) {
    let png = browser.screenshot();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/img")
        .join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}

/// The page of a short game of twelve men's morris, its diagonals drawn, at its fourth move.
fn twelve_picture(dir: &std::path::Path) {
    let page = dir.join("twelve.html");
    let moves = ["d6", "b6", "f6", "d2", "b4", "f4", "d7", "a7", "g4"];
    let mut args = vec![
        "--variant",
        "twelve",
        "--depth",
        "6",
        "--html",
        page.to_str().unwrap(),
        "--moves",
    ];
    args.extend(moves);
    ok(&args);
    let browser = webdriver::Browser::start(&dir.join("profile-twelve"), 1000, 880);
    browser.open(&format!("file://{}", page.display()));
    assert_eq!(
        browser.run("return String(document.querySelectorAll('#board .lines line').length);"),
        "40"
    );
    for _ in 0..4 {
        browser.key(webdriver::RIGHT);
    }
    shoot(&browser, "analysis-twelve.png");
}

/// Without any tables, the shipped opening's solution values every move of a position of its
/// plies exactly, and grades a game's first plies exactly.
#[test]
fn the_shipped_opening_solution_values_the_first_plies_exactly() {
    let json = ok(&["--position", "--json", "--moves", "d7", "a1", "g7", "d1"]);
    let moves = json.matches("\"move\":").count();
    assert_eq!(
        json.matches("\"value\":{\"exact\":").count(),
        moves,
        "{json}"
    );
    assert!(
        json.contains("{\"move\":\"a7xd1\",\"value\":{\"exact\":\"win\"}"),
        "{json}"
    );
    let text = ok(&["--moves", "d5", "e5", "e4", "d6", "c4"]);
    let exact = text
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric) && l.ends_with("[exact]"))
        .count();
    assert_eq!(exact, 5, "{text}");
}

#[test]
fn the_searches_use_the_network_that_ships_unless_told_otherwise() {
    let values = |eval: Option<&str>| {
        let mut args = vec!["--opening-solution", "none"];
        if let Some(e) = eval {
            args.extend(["--eval-file", e]);
        }
        args.extend(["--position", "--depth", "3", "--moves", "d6", "f4", "d2"]);
        let out = moulin(&args);
        assert!(out.status.success(), "{out:?}");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (shipped, banner) = values(None);
    let (hand_written, banner_none) = values(Some("none"));
    // The banner on stderr says what the grades know, a line a part, and nothing else.
    let lines: Vec<&str> = banner.lines().collect();
    assert_eq!(lines.len(), 3, "{banner}");
    assert!(
        lines[0].starts_with("evaluation: network built-in nine.nnue: "),
        "{banner}"
    );
    assert_eq!(lines[1], "opening solution: none (--opening-solution none)");
    assert!(lines[2].starts_with("endgame tables: "), "{banner}");
    assert!(
        banner_none.starts_with("evaluation: hand-written; network: none (--eval-file none)"),
        "{banner_none}"
    );
    assert_ne!(shipped, hand_written, "the network changed no value");
    // A file named that cannot be used ends the command: one line naming it, nothing analysed.
    let out = moulin(&["--eval-file", "/no/such/file.nnue", "--moves", "d6"]);
    let said = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(out.stdout.is_empty());
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("--eval-file") && said.contains("/no/such/file.nnue"),
        "{said}"
    );
}

/// A game Level 16 (Black) lost to the full engine (depth 10), the value sliding from a draw
/// to a forced win: `moulin match --engine "name=L16 cmd=moulin tc=inf nodes=1000000
/// option.Level=16" --engine "name=full cmd=moulin tc=inf depth=10" --openings
/// book/openings-nine.txt`, its second game.
const SLIDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analyse-slide.pgn");

/// The losing side of a decided game shows its mistakes: each move graded by the winning chance
/// it gave away, the value before it against the next position's (graded before by the best
/// move of one search of the same position, this game's loser read 0 mistakes and 0 blunders);
/// where the opening's solution ends is said in the text and the JSON.
#[test]
fn the_loser_of_a_slide_shows_its_mistakes() {
    let text = ok(&[SLIDE]);
    let black = text.lines().find(|l| l.starts_with("black: ")).unwrap();
    let count = |what: &str| -> usize {
        let at = black.find(&format!(" {what}")).unwrap();
        let before = black[..at].rsplit(' ').next().unwrap();
        before.parse().unwrap()
    };
    assert!(count("blunder") + count("mistake") >= 1, "{text}");
    let accuracy: f64 = black
        .rsplit("accuracy ")
        .next()
        .unwrap()
        .trim_end_matches('%')
        .parse()
        .unwrap();
    assert!(accuracy < 97.0, "{text}");
    assert!(
        text.contains("\n--- exact knowledge ends after ply 10: the values below are the search's (depth 12) ---\n 11  white"),
        "{text}"
    );
    let json = ok(&[SLIDE, "--json"]);
    assert!(
        json.contains("\"edges\":[{\"ply\":11,\"exact\":\"ends\"}]"),
        "{json}"
    );
    assert!(
        json.contains("\"thresholds\":{\"blunder\":15.0,\"mistake\":10.0,\"inaccuracy\":5.0}"),
        "{json}"
    );
}

/// A draw thrown into a loss within the opening's solution (ply 6, exact: a blunder), then the
/// win kept to ply 10, where exact knowledge ends: past it the win is held, in the text, the
/// JSON and on the page's graph and bar (at the top of the one scale), never a leap back to a
/// few pieces.
#[test]
fn a_proven_win_is_held_past_the_end_of_exact_knowledge() {
    let moves = [
        "d6", "b4", "d2", "b6", "f4", "g7", "b2", "d5", "e4", "e5", "c5", "g4", "f2xg4", "g4",
    ];
    let mut args = vec!["--no-book", "--depth", "6", "--moves"];
    args.extend(moves);
    let text = ok(&args);
    let row = |ply: usize| {
        text.lines()
            .find(|l| l.starts_with(&format!("{ply:>3}  ")))
            .unwrap()
    };
    assert!(row(6).contains("50.0  blunder ??"), "{text}");
    assert!(
        text.contains("--- exact knowledge ends after ply 10: the values below are the search's (depth 6); White's proven win is held"),
        "{text}"
    );
    for ply in 11..=14 {
        assert!(row(ply).ends_with("[White's win held]"), "{text}");
    }
    let json = ok(&[args.as_slice(), &["--json"]].concat());
    assert_eq!(json.matches("\"held\":\"white\"").count(), 4, "{json}");
    let dir = scratch("moulin-analyse-held");
    let page = dir.join("held.html");
    ok(&[args.as_slice(), &["--html", page.to_str().unwrap()]].concat());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<g class=\"edge ends\" data-ply=\"11\">"),
        "the edge on the graph"
    );
    assert_eq!(
        html.matches("<rect class=\"held\"").count(),
        4,
        "held steps drawn"
    );
    assert!(
        html.contains("<polyline class=\"searched\""),
        "the search's own values dotted"
    );
    // Steps 11 to 14 stand at the top of the bar, their value written with the win held.
    let data = embedded_data(&html);
    let gauges: Vec<&str> = data
        .split("\"gauge\":")
        .skip(1)
        .map(|s| &s[..s.find('}').unwrap()])
        .collect();
    assert_eq!(gauges.len(), moves.len() + 1, "{data}");
    assert!(gauges[11..].iter().all(|g| *g == "1.0000"), "{gauges:?}");
    assert!(data.contains("(White's win held)\""), "{data}");
    let _ = std::fs::remove_dir_all(&dir);
}
