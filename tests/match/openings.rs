//! `--openings`: books of lines or of PGN games, in order or shuffled by the seed, begun at any
//! opening and cut to a number of turns; each opening played with both colours.

use super::harness::{fake, run, temp};
use moulin::matches::run::game_line::Record;
use std::path::Path;

/// The openings of a records file's games, as opening lines, in game order.
fn openings_played(records: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(records).unwrap();
    let mut all: Vec<Record> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| Record::parse(l).unwrap())
        .collect();
    all.sort_by_key(|r| r.game);
    all.iter().map(|r| r.opening.to_line()).collect()
}

/// Plays `games` games of the stand-in against itself with `--openings openings` and `extra`
/// flags; the openings of its games.
fn play(name: &str, openings: &str, games: &str, extra: &[&str]) -> Vec<String> {
    let records = temp(name);
    let engine = format!("cmd={}", fake().display());
    let mut args = vec![
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        games,
        "--movetime",
        "20",
        "--openings",
        openings,
        "--records",
        records.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = run(&args);
    assert!(out.status.success(), "{openings}");
    openings_played(&records)
}

/// A match of the stand-in against itself with `--openings value` and nothing else.
fn with_openings(value: &str) -> std::process::Output {
    let engine = format!("cmd={}", fake().display());
    run(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--openings",
        value,
    ])
}

#[test]
fn a_pgn_file_is_a_book_of_its_games_cut_to_plies() {
    // A match's own PGN (games played to their end), read back as a book: each game's moves,
    // cut to three turns before they are checked.
    let lines = temp("pgn-book-lines.txt");
    let set_up = "fen ********/O*@*O*@*/@*O*@*O* w p p 4 5 4 5 0 0 -1 -1 -1 -1 0 0 5";
    std::fs::write(&lines, format!("d6 f4 d2 b4\n{set_up}\n")).unwrap();
    let pgn = temp("pgn-book.pgn");
    let first = play(
        "pgn-book-first.records",
        lines.to_str().unwrap(),
        "4",
        &["--pgn", pgn.to_str().unwrap()],
    );
    assert_eq!(first.len(), 4);
    // Whole, its finished games are no openings, and the error says what to do.
    let whole = with_openings(pgn.to_str().unwrap());
    let err = String::from_utf8_lossy(&whole.stderr);
    assert!(
        err.contains("already over") && err.contains("plies=N"),
        "{err}"
    );
    let book = format!("file={} plies=3", pgn.display());
    let again = play("pgn-book-again.records", &book, "8", &[]);
    // Game k of the first match is opening k of the book: its opening and moves, cut.
    let text = std::fs::read_to_string(temp("pgn-book-first.records")).unwrap();
    let mut games: Vec<Record> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| Record::parse(l).unwrap())
        .collect();
    games.sort_by_key(|r| r.game);
    for (pair, g) in games.iter().enumerate() {
        let mut moves: Vec<String> = g.opening.moves.iter().chain(&g.moves).cloned().collect();
        moves.truncate(3);
        let expected = moulin::record::openings::Opening {
            fen: g.opening.fen.clone(),
            moves,
        }
        .to_line();
        // Each opening is played twice, colours swapped.
        assert_eq!(again[2 * pair], expected);
        assert_eq!(again[2 * pair + 1], expected);
    }
}

#[test]
fn random_order_follows_the_seed_and_start_begins_where_asked() {
    let path = temp("order-book.txt");
    let lines = ["d6 f4", "a1 a4", "g7 g4", "b2 b4", "c3 c4", "e3 e4"];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let p = path.display();
    let start = play(
        "order-start.records",
        &format!("file={p} start=5"),
        "6",
        &[],
    );
    assert_eq!(
        start,
        ["c3 c4", "c3 c4", "e3 e4", "e3 e4", "d6 f4", "d6 f4"]
    );
    let random = format!("file={p} order=random");
    let seeded = |name: &str, seed: &str| play(name, &random, "12", &["--seed", seed]);
    let a = seeded("order-a.records", "11");
    assert_eq!(a, seeded("order-b.records", "11"));
    let firsts: std::collections::HashSet<Vec<String>> = (0..6)
        .map(|s| seeded(&format!("order-{s}.records"), &s.to_string()))
        .collect();
    assert!(firsts.len() > 1, "every seed gave the same order");
    // Each opening once in a cycle, with both colours.
    let mut cycle: Vec<&String> = a.iter().step_by(2).collect();
    assert_eq!(a.iter().skip(1).step_by(2).collect::<Vec<_>>(), cycle);
    cycle.sort();
    let mut sorted = lines.to_vec();
    sorted.sort_unstable();
    assert_eq!(cycle, sorted);
}

#[test]
fn a_bad_openings_value_is_a_usage_error_naming_it() {
    for (value, needle) in [
        ("file=x order=shuffled", "sequential or random"),
        ("file=x start=0", "'start=0'"),
    ] {
        let out = with_openings(value);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{value}: {err}");
        assert!(err.contains(needle), "{value}: {err}");
    }
}

#[test]
fn an_endless_or_huge_openings_file_is_refused_at_once_in_bounded_memory() {
    // The openings are read before an engine starts: moulin itself stands in for one.
    let engine = format!("cmd={}", super::harness::moulin().display());
    let dir = temp("hostile-openings");
    let engines = ["--engine", &engine, "--engine", &engine];
    let args: Vec<&str> = ["match"]
        .into_iter()
        .chain(engines)
        .chain(["--openings", "INPUT"])
        .collect();
    crate::shared::bounded::hostile_inputs_refused(
        &args,
        &dir,
        &["openings", "larger than the 64 MB"],
    );
}
