//! Tournaments of more than two engines: the schedule (every pairing, both colours, the same
//! openings), the ratings, crosstable and pairings, their replay, their resume, and the usage
//! errors.

use super::harness::*;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Stdio;

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

/// Checks that the `games` records replay, and that their replay prints the results `stdout`
/// (a tournament's) printed.
fn replays_the_same(records: &Path, stdout: &str, games: usize) {
    let replayed = run_ok(&["replay", records.to_str().unwrap()]);
    assert!(
        replayed.contains(&format!("{games} consistent, 0 failed")),
        "{replayed}"
    );
    assert_eq!(results_part(&replayed), results_part(stdout));
}

/// The numbers of the games of the `Finished game` lines of `stderr`, in order.
fn finished_numbers(stderr: &str) -> Vec<usize> {
    let mut played: Vec<usize> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    played.sort_unstable();
    played
}

/// The fake engines named and given flags by `engines`.
fn fakes(engines: &[(&str, &str)]) -> Vec<String> {
    engines.iter().map(|(n, f)| fake_spec(n, f)).collect()
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

/// The arguments of a tournament of `kind` between `engines`, `games` a pairing, 5 ms a move.
fn tournament_args(kind: &str, engines: &[String], games: u32, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["match".to_string(), "--tournament".into(), kind.into()];
    for e in engines {
        args.extend(["--engine".to_string(), e.clone()]);
    }
    let games = games.to_string();
    let rest = [
        "--games",
        &games,
        "--movetime",
        "5",
        "--grace",
        "2000",
        "--seed",
        "11",
    ];
    args.extend(rest.iter().chain(extra).map(|a| (*a).to_string()));
    args
}

/// Runs a tournament (`tournament_args`) and returns its standard output (checked to succeed).
fn tournament(kind: &str, engines: &[String], games: u32, extra: &[&str]) -> String {
    let args = tournament_args(kind, engines, games, extra);
    run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
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
    let pgn = temp("round-robin.pgn");
    let engines = [
        fake_spec("a", "--seed 1"),
        fake_spec("b", "--seed 2 --greedy"),
        format!("name=c cmd={} option.Level=1", moulin().display()),
    ];
    let stdout = tournament(
        "round-robin",
        &engines,
        4,
        &[
            "--concurrency",
            "2",
            "--records",
            records.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
            "--force",
        ],
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
    replays_the_same(&records, &stdout, 12);
    // The PGN names the tournament in every game's Event, and replays.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Event \"moulin round-robin: a, b, c\"]")
            .count(),
        12
    );
    let replayed = run_ok(&["replay", pgn.to_str().unwrap()]);
    assert!(replayed.contains("12 consistent, 0 failed"), "{replayed}");
    // Its results as the tournament printed them (anchored on the first engine named).
    assert!(replayed.contains("3 engines: 12 games"), "{replayed}");
    assert_eq!(results_part(&replayed), results_part(&stdout));
    // In any order of the file: the games' numbers give the order.
    let mut games: Vec<&str> = text.split("\n\n[Event").collect();
    games.reverse();
    let reversed = temp("round-robin-reversed.pgn");
    let body = games
        .iter()
        .map(|g| format!("[Event{}", g.trim_start_matches("[Event").trim_end()))
        .collect::<Vec<_>>()
        .join("\n\n");
    std::fs::write(&reversed, body + "\n").unwrap();
    let again = run_ok(&["replay", reversed.to_str().unwrap()]);
    assert_eq!(results_part(&again), results_part(&stdout));
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_anchored_where_asked() {
    let records = temp("gauntlet.txt");
    let engines = fakes(&[
        ("hero", "--seed 3 --greedy"),
        ("x", "--seed 4"),
        ("y", "--seed 5"),
        ("z", "--seed 6"),
    ]);
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
    replays_the_same(&records, &stdout, 9);
}

#[test]
fn a_cut_tournament_resumes_with_only_its_missing_games() {
    let records = temp("resume-tournament.txt");
    let engines = fakes(&[
        ("p", "--seed 21"),
        ("q", "--seed 22 --greedy"),
        ("r", "--seed 23"),
    ]);
    let rec = records.to_str().unwrap();
    tournament("round-robin", &engines, 4, &["--records", rec]);
    // Cut as a kill would: five records, then half of the sixth.
    let text = std::fs::read_to_string(&records).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(
        &records,
        format!("{}\n{}", lines[..7].join("\n"), &lines[7][..20]),
    )
    .unwrap();
    let kept: Vec<usize> = lines[2..7]
        .iter()
        .map(|l| field(l, "game").parse().unwrap())
        .collect();
    // Resumed with more games a pairing: only the games the records lack are played.
    let mut args = tournament_args("round-robin", &engines, 6, &["--records", rec, "--resume"]);
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    let played = finished_numbers(&String::from_utf8_lossy(&out.stderr));
    let missing: Vec<usize> = (1..=18).filter(|g| !kept.contains(g)).collect();
    assert_eq!(played, missing);
    check_schedule(&records, &[("p", "q"), ("p", "r"), ("q", "r")], 6);
    assert!(
        stdout.starts_with("round-robin of 3 engines: 18 games"),
        "{stdout}"
    );
    check_crosstable(&stdout, &[("p", 12.0), ("q", 12.0), ("r", 12.0)]);
    replays_the_same(&records, &stdout, 18);
    // Another anchor is another tournament's settings: refused, the file left as it was.
    let text = std::fs::read_to_string(&records).unwrap();
    args.extend(["--anchor".to_string(), "q".to_string()]);
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("anchor is 'q'"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&records).unwrap(), text);
}

#[test]
fn tournament_usage_errors_and_an_engine_that_cannot_start() {
    let [a, b, c]: [String; 3] = fakes(&[("a", ""), ("b", ""), ("c", "")])
        .try_into()
        .unwrap();
    let three = ["--engine", &a, "--engine", &b, "--engine", &c];
    for (extra, needle) in [
        (
            vec!["--sprt", "elo0=0", "elo1=5"],
            "--sprt tests two engines: it cannot be given with 3 engines",
        ),
        (
            vec!["--tournament", "gauntlet", "--sprt", "elo0=0", "elo1=5"],
            "--sprt",
        ),
        (
            vec!["--tournament", "round-robin", "--anchor", "nobody"],
            "--anchor 'nobody' names no engine",
        ),
        (vec!["--tournament", "swiss"], "swiss"),
        // Accepted before: the ratings were printed with 309 digits, every engine at the
        // anchor's rating.
        (
            vec!["--tournament", "gauntlet", "--anchor-elo", "1e308"],
            "--anchor-elo 1e308 is out of range (-10000 to 10000)",
        ),
        (
            vec!["--tournament", "gauntlet", "--anchor-elo", "-10000.5"],
            "--anchor-elo -10000.5 is out of range (-10000 to 10000)",
        ),
    ] {
        let mut args = vec!["match", "--games", "2", "--movetime", "5"];
        args.extend(three);
        args.extend(&extra);
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
    // --anchor is for tournaments only.
    let out = run(&[
        "match", "--engine", &a, "--engine", &b, "--anchor", "a", "--games", "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // Any engine that cannot start stops the tournament before its first game.
    let records = temp("tournament-nostart.txt");
    let out = run(&[
        "match",
        "--tournament",
        "round-robin",
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        "name=typo cmd=/nonexistent/eng",
        "--games",
        "2",
        "--movetime",
        "5",
        "--records",
        records.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("engine 'typo' failed before its first game"),
        "{stderr}"
    );
    assert!(!stderr.contains("Finished game"), "{stderr}");
    assert!(!records.exists());
}

#[test]
fn a_killed_tournament_resumes_with_only_its_missing_games() {
    let records = temp("killed-tournament.txt");
    let rec = records.to_str().unwrap();
    let engines = fakes(&[("k", "--seed 31"), ("l", "--seed 32"), ("m", "--seed 33")]);
    let args = tournament_args(
        "round-robin",
        &engines,
        40,
        &["--records", rec, "--concurrency", "2"],
    );
    let mut runner = command()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Killed (SIGTERM) after its fifth game, while other games are being played.
    let stderr = runner.stderr.take().unwrap();
    let mut seen = 0;
    for line in BufReader::new(stderr).lines() {
        seen += usize::from(line.unwrap().starts_with("Finished game "));
        if seen == 5 {
            let pid = libc::pid_t::try_from(runner.id()).unwrap();
            // SAFETY: kill has no memory effects; the pid is that of our child.
            assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
            break;
        }
    }
    let status = runner.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    let kept: Vec<usize> = games_of(&records).iter().map(|g| g.number).collect();
    assert!(kept.len() >= 5 && kept.len() < 120, "{kept:?}");
    // Resumed with fewer games a pairing: the games the records lack, no more.
    let mut args = tournament_args("round-robin", &engines, 4, &["--records", rec, "--resume"]);
    args.extend(["--concurrency".to_string(), "2".to_string()]);
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    let played = finished_numbers(&String::from_utf8_lossy(&out.stderr));
    let missing: Vec<usize> = (1..=12).filter(|g| !kept.contains(g)).collect();
    assert_eq!(played, missing);
    // Every game of the first four of each pairing is there once, whatever else was played.
    let games = games_of(&records);
    for g in 1..=12 {
        assert_eq!(games.iter().filter(|x| x.number == g).count(), 1, "{g}");
    }
}

/// Engines that get their command from `--each` (`name=a`, and `--each cmd=...`): the replay of
/// the records reads the specs as the tournament did, and ranks the same.
#[test]
fn a_tournament_whose_engines_come_from_each_replays_the_same() {
    let records = temp("each-round-robin.txt");
    let engines = ["name=a".to_string(), "name=b".into(), "name=c".into()];
    let each = format!("cmd={} st=0.01", fake().display());
    let stdout = tournament(
        "round-robin",
        &engines,
        2,
        &["--each", &each, "--records", records.to_str().unwrap()],
    );
    assert!(
        stdout.starts_with("round-robin of 3 engines: 6 games"),
        "{stdout}"
    );
    replays_the_same(&records, &stdout, 6);
}
