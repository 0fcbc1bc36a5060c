//! Tournaments of more than two engines: the schedule (every pairing, both colours, the same
//! openings), the ratings, crosstable and pairings, their replay, their resume, and the usage
//! errors.

use crate::harness::*;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One game of a records file: number, white, black, start and opening.
struct Game {
    number: usize,
    white: String,
    black: String,
    opening: String,
}

/// The value of `key=` in a record line (quoted or not).
fn field(line: &str, key: &str) -> String {
    let at = line
        .find(&format!(" {key}="))
        .map(|i| i + 1)
        .or_else(|| line.starts_with(&format!("{key}=")).then_some(0))
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    let rest = &line[at + key.len() + 1..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted[..quoted.find('"').unwrap()].to_string(),
        None => rest.split_whitespace().next().unwrap_or("").to_string(),
    }
}

fn games_of(records: &Path) -> Vec<Game> {
    let text = std::fs::read_to_string(records).unwrap();
    let mut games: Vec<Game> = text
        .lines()
        .filter(|l| l.starts_with("game="))
        .map(|l| Game {
            number: field(l, "game").parse().unwrap(),
            white: field(l, "white"),
            black: field(l, "black"),
            opening: format!("{} {}", field(l, "start"), field(l, "opening")),
        })
        .collect();
    games.sort_by_key(|g| g.number);
    games
}

/// The fake engine under `name`, playing randomly from `seed` (greedily, when asked).
fn fake_spec(name: &str, flags: &str) -> String {
    format!("name={name} cmd=\"{} {flags}\"", fake().display())
}

/// The tournament's results as printed: from the ratings to the pairings' last line.
fn results_part(stdout: &str) -> String {
    let from = stdout
        .find("Ratings (")
        .unwrap_or_else(|| panic!("{stdout}"));
    let rest = &stdout[from..];
    rest[..rest.find("Ends: ").unwrap_or(rest.len())].to_string()
}

/// The crosstable's cells: (row rank, column rank) → (points, games).
type Cells = HashMap<(usize, usize), (f64, f64)>;

/// The crosstable: its names in the ranking's order, and its cells.
fn crosstable(stdout: &str) -> (Vec<String>, Cells) {
    let table = &stdout[stdout.find("Crosstable").unwrap()..];
    let mut names = Vec::new();
    let mut cells = HashMap::new();
    for line in table.lines().skip(2) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(rank) = words.first().and_then(|w| w.parse::<usize>().ok()) else {
            break;
        };
        names.push(words[1].to_string());
        for (col, w) in words[2..].iter().enumerate() {
            if let Some((p, g)) = w.split_once('/') {
                cells.insert((rank, col + 1), (p.parse().unwrap(), g.parse().unwrap()));
            }
        }
    }
    (names, cells)
}

/// Runs a tournament and returns its standard output (checked to succeed).
fn tournament(kind: &str, engines: &[String], games: u32, extra: &[&str]) -> String {
    let games = games.to_string();
    let mut args = vec!["match", "--tournament", kind];
    for e in engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend([
        "--games",
        &games,
        "--movetime",
        "5",
        "--grace",
        "2000",
        "--seed",
        "11",
    ]);
    args.extend(extra);
    run_ok(&args)
}

/// Checks the schedule of the records: `per_pairing` games for each of `pairings` (names), the
/// pairing's first engine White in odd games, colours swapped within a pair from one opening,
/// and pair `p` of every pairing from the same opening.
fn check_schedule(records: &Path, pairings: &[(&str, &str)], per_pairing: usize) {
    let games = games_of(records);
    assert_eq!(games.len(), pairings.len() * per_pairing);
    let k = pairings.len();
    let by_number: BTreeMap<usize, &Game> = games.iter().map(|g| (g.number, g)).collect();
    let mut counts = vec![0; k];
    for g in &games {
        let u = (g.number - 1) / 2;
        let (first, second) = pairings[u % k];
        let (white, black) = if g.number % 2 == 1 {
            (first, second)
        } else {
            (second, first)
        };
        assert_eq!(
            (g.white.as_str(), g.black.as_str()),
            (white, black),
            "game {}",
            g.number
        );
        counts[u % k] += 1;
        if g.number % 2 == 0 {
            // Colours swapped from the same opening.
            assert_eq!(by_number[&(g.number - 1)].opening, g.opening);
        }
        // Pair p of pairing 0 has the opening of pair p of every pairing.
        let first_of_pair = by_number[&(2 * (u - u % k) + 1)];
        assert_eq!(first_of_pair.opening, g.opening, "game {}", g.number);
    }
    assert_eq!(counts, vec![per_pairing; k]);
}

/// Checks the crosstable against itself and the games: the two cells of a pairing add up to
/// its games, and every engine played the games `each` gives it.
fn check_crosstable(stdout: &str, each: &[(&str, f64)]) {
    let (names, cells) = crosstable(stdout);
    let engines = each.len();
    assert_eq!(names.len(), engines, "{stdout}");
    for r in 1..=engines {
        let mut games = 0.0;
        for c in 1..=engines {
            if let Some(&(p, g)) = cells.get(&(r, c)) {
                let (q, h) = cells[&(c, r)];
                assert!((g - h).abs() < 1e-9, "{stdout}");
                assert!((p + q - g).abs() < 1e-9, "{stdout}");
                games += g;
            }
        }
        let wanted = each.iter().find(|(n, _)| *n == names[r - 1]).unwrap().1;
        assert!((games - wanted).abs() < 1e-9, "{r}: {stdout}");
    }
}

#[test]
fn a_round_robin_plays_every_pair_with_both_colours_from_the_same_openings() {
    let records = temp("round-robin.txt");
    let engines = [
        fake_spec("a", "--seed 1"),
        fake_spec("b", "--seed 2 --greedy"),
        format!("name=c cmd={} option.Level=1", moulin().display()),
    ];
    let stdout = tournament(
        "round-robin",
        &engines,
        4,
        &["--concurrency", "2", "--records", records.to_str().unwrap()],
    );
    assert!(
        stdout.starts_with("round-robin of 3 engines: 12 games"),
        "{stdout}"
    );
    check_schedule(&records, &[("a", "b"), ("a", "c"), ("b", "c")], 4);
    check_crosstable(&stdout, &[("a", 8.0), ("b", 8.0), ("c", 8.0)]);
    for pairing in ["a vs b: ", "a vs c: ", "b vs c: "] {
        assert!(stdout.contains(pairing), "{stdout}");
    }
    assert!(stdout.contains("Forfeits: a 0, b 0, c 0"), "{stdout}");
    // Ratings are numbers or n/a, never infinite.
    let ratings = &stdout[..stdout.find("Crosstable").unwrap()];
    assert!(
        !ratings.contains("inf") && !ratings.contains("NaN"),
        "{stdout}"
    );
    // The replay of the records prints the same results.
    let replayed = run_ok(&["replay", records.to_str().unwrap()]);
    assert!(replayed.contains("12 consistent, 0 failed"), "{replayed}");
    assert_eq!(results_part(&replayed), results_part(&stdout));
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_anchored_where_asked() {
    let records = temp("gauntlet.txt");
    let engines = [
        fake_spec("hero", "--seed 3 --greedy"),
        fake_spec("x", "--seed 4"),
        fake_spec("y", "--seed 5"),
        fake_spec("z", "--seed 6"),
    ];
    let stdout = tournament(
        "gauntlet",
        &engines,
        3,
        &[
            "--records",
            records.to_str().unwrap(),
            "--anchor",
            "x",
            "--anchor-elo",
            "1500",
        ],
    );
    // Three games a pairing: the third pair of each has its first game only.
    check_schedule(&records, &[("hero", "x"), ("hero", "y"), ("hero", "z")], 3);
    let numbers: Vec<usize> = games_of(&records).iter().map(|g| g.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 9, 11]);
    check_crosstable(
        &stdout,
        &[("hero", 9.0), ("x", 3.0), ("y", 3.0), ("z", 3.0)],
    );
    let anchor_line = stdout
        .lines()
        .find(|l| l.contains(" x ") && l.contains("anchor"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(anchor_line.contains("1500.0"), "{anchor_line}");
    let replayed = run_ok(&["replay", records.to_str().unwrap()]);
    assert_eq!(results_part(&replayed), results_part(&stdout));
}
