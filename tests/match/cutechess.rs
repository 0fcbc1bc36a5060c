//! What a cutechess-cli or fastchess user types: their spellings of the flags (single dash, a
//! spec in words, `format=`, `min:sec` clocks), three engines without `--tournament`, the running
//! `Score of` lines (a tournament's table) on a stderr that is not a terminal, the flags whose meaning differs pointed
//! to moulin's, Ctrl-C's standings and the command that resumes.

use super::harness::*;
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

/// The `Score of` lines of `stderr`.
fn score_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("Score of "))
        .collect()
}

#[test]
fn a_cutechess_command_line_plays_a_round_robin_of_three() {
    let f = fake().display().to_string();
    let records = temp("cutechess-rr.txt");
    let pgn = temp("cutechess-rr.pgn");
    // A shipped book's name where no such file is: the copy built into moulin.
    let book = temp("nowhere").join("openings-nine.txt");
    let openings = format!("file={}", book.display());
    let pgn_word = format!("file={}", pgn.display());
    let out = run(&[
        "match",
        "-engine",
        &format!("cmd={f}"),
        "name=a",
        "-engine",
        &format!("cmd={f}"),
        "name=b",
        "arg=--greedy",
        "-engine",
        &format!("cmd={f}"),
        "name=c",
        "-each",
        "tc=0:02+0.01",
        "-games",
        "2",
        "-concurrency",
        "2",
        "-openings",
        &openings,
        "format=lines",
        "order=random",
        "-pgnout",
        &pgn_word,
        "-repeat",
        "-recover",
        "-ratinginterval",
        "2",
        "-srand",
        "3",
        "--records",
        records.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("round-robin of 3 engines: 6 games, nine 2+0.01"),
        "{stdout}"
    );
    for note in ["note: -repeat", "note: -recover", "note: -ratinginterval"] {
        assert!(stderr.contains(note), "{note}: {stderr}");
    }
    // Every 2 games the whole table, every engine's rating, games and score, as cutechess's
    // table of a tournament (not the score of one pairing).
    assert!(score_lines(&stderr).is_empty(), "{stderr}");
    let tables: Vec<&str> = stderr
        .split("Ratings (maximum likelihood")
        .skip(1)
        .collect();
    assert_eq!(tables.len(), 3, "{stderr}");
    for (k, table) in tables.iter().enumerate() {
        let rows: Vec<&str> = table
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with("   "))
            .collect();
        assert_eq!(rows.len(), 3, "{table}");
        for name in ["a", "b", "c"] {
            assert!(
                rows.iter()
                    .any(|r| r.split_whitespace().nth(1) == Some(name)),
                "{name}: {table}"
            );
        }
        // Each engine plays 2 of every 3 games: after 2k + 2 games, the games sum to twice that.
        let games: usize = rows
            .iter()
            .filter_map(|r| r.split_whitespace().nth(4)?.parse::<usize>().ok())
            .sum();
        assert_eq!(games, 2 * (2 * k + 2), "{table}");
    }
    let replayed = run_ok(&["replay", records.to_str().unwrap()]);
    assert!(replayed.contains("replayed 6 games") && replayed.contains("6 consistent, 0 failed"));
    assert!(std::fs::read_to_string(&pgn).unwrap().contains("[Event"));
    // The settings line holds the time played (each engine's own), not --tc's default.
    let settings = std::fs::read_to_string(&records).unwrap();
    let settings = settings
        .lines()
        .find(|l| l.starts_with("# settings:"))
        .unwrap();
    assert!(settings.contains("each=tc=0:02+0.01"), "{settings}");
    assert!(!settings.contains(" tc="), "{settings}");
}

#[test]
fn flags_that_differ_point_to_moulins() {
    let f = fake().display().to_string();
    let spec = format!("cmd={f}");
    for (extra, needle) in [
        (vec!["-games", "2", "-rounds", "50"], "--games 100"),
        (
            vec!["--rounds", "50"],
            "--games is every game of each pairing",
        ),
        (vec!["-maxmoves", "100"], "--max-plies 200"),
        (
            vec!["-wait", "5"],
            "-wait is no flag of moulin match (nor --wait)",
        ),
        (vec!["-each", "timemargin=100"], "--grace"),
        (
            vec!["-openings", "file=a.epd", "format=epd"],
            "moulin reads no EPD",
        ),
        (vec!["-tc", "1:60"], "minutes:seconds"),
    ] {
        let mut args = vec!["match", "-engine", &spec, "-engine", &spec];
        args.extend(&extra);
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
    }
}

#[test]
fn one_game_is_one_game_and_st_alone_is_recorded() {
    let f = fake().display().to_string();
    let records = temp("one-game.txt");
    let a = format!("name=a cmd={f}");
    let b = format!("name=b cmd={f}");
    let stdout = run_ok(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--each",
        "st=0.005",
        "--games",
        "1",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(stdout.starts_with("a vs b: 1 game, "), "{stdout}");
    assert!(stdout.contains("1 sample)"), "{stdout}");
    let text = std::fs::read_to_string(&records).unwrap();
    let settings = text.lines().find(|l| l.starts_with("# settings:")).unwrap();
    assert!(!settings.contains(" tc="), "{settings}");
}

/// Runs `command` (a match of many games), sends it SIGINT once game 3 is finished, and returns
/// what it printed: its output, and the rest of its stderr from there.
fn interrupted_after_game_3(mut command: Command) -> (std::process::Output, String) {
    use std::os::unix::process::CommandExt;
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: between fork and exec the child only calls `signal`, which is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut runner = command.spawn().unwrap();
    let mut stderr = BufReader::new(runner.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        if line.starts_with("Finished game 3 ") {
            // SAFETY: a plain system call on the child's id.
            assert_eq!(unsafe { libc::kill(runner.id() as i32, libc::SIGINT) }, 0);
            break;
        }
        line.clear();
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let out = runner.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGINT), "{rest}");
    (out, rest)
}

/// Ctrl-C during a match: the standings so far on stdout, the command that resumes on stderr,
/// the records holding exactly the games counted; the command printed finishes the match.
#[test]
fn ctrl_c_prints_the_standings_and_the_command_that_resumes() {
    let f = fake().display().to_string();
    let records = temp("interrupted.txt");
    let (a, b) = (format!("name=a cmd={f}"), format!("name=b cmd={f}"));
    let mut command = command();
    command
        .args(["match", "--engine", &a, "--engine", &b, "--games", "400"])
        .args(["--movetime", "5", "--seed", "9", "--force", "--records"])
        .arg(&records);
    let (out, rest) = interrupted_after_game_3(command);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (w, d, l) = wdl(&stdout);
    let counted = (w + d + l) as usize;
    assert!((3..400).contains(&counted), "{stdout}");
    replay_ok(&records, counted);
    let (_, command) = rest
        .split_once("Resume it with:\n  ")
        .unwrap_or_else(|| panic!("no resume command in {rest}"));
    let resume = command.lines().next().unwrap().to_string();
    assert!(
        resume.ends_with("--resume") && !resume.contains("--force"),
        "{resume}"
    );
    // The command printed, with fewer games to keep the test short, ends the match.
    let resume = resume.replace("--games 400", "--games 8");
    // In the first run's empty cache: tables installed on this machine would be read for
    // adjudication, which the first run's records do not name.
    let done = Command::new("sh")
        .args(["-c", &resume])
        .env("XDG_CACHE_HOME", crate::shared::empty_cache())
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let stdout = String::from_utf8_lossy(&done.stdout);
    let (w, d, l) = wdl(&stdout);
    assert_eq!(w + d + l, 8.max(counted as u32), "{stdout}");
}

/// The games of a PGN file: its `Event` tags.
fn pgn_games(path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter(|l| l.starts_with("[Event ")).count()
}

/// Ctrl-C during a match with `-pgnout` and no records: the message says the finished games are
/// in that file (not that they are lost); the same command again adds a new match's games to
/// it, as cutechess-cli does, and `--force` empties it first.
#[test]
fn ctrl_c_with_pgnout_only_says_where_the_games_are_and_a_rerun_adds_to_them() {
    let f = fake().display().to_string();
    let pgn = temp("interrupted.pgn");
    let (a, b) = (format!("cmd={f} name=a"), format!("cmd={f} name=b"));
    let to = |pgn: &std::path::Path, games: &'static str| {
        let mut command = command();
        command
            .args(["match", "-engine", &a, "-engine", &b, "-games", games])
            .args(["-each", "st=0.005", "-srand", "9", "-pgnout"])
            .arg(pgn);
        command
    };
    let args = |games| to(&pgn, games);
    let (out, rest) = interrupted_after_game_3(args("400"));
    let (w, d, l) = wdl(&String::from_utf8_lossy(&out.stdout));
    let counted = (w + d + l) as usize;
    assert!(
        rest.contains(&format!(
            "every game finished before it is in the --pgn file '{}'",
            pgn.display()
        )) && rest.contains("the same command plays a new match and adds its games")
            && !rest.contains("not kept"),
        "{rest}"
    );
    assert_eq!(pgn_games(&pgn), counted);
    // The same command again: not refused, its games after the first match's.
    let again = args("4").output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(pgn_games(&pgn), counted + 4);
    let replayed = run_ok(&["replay", pgn.to_str().unwrap()]);
    assert!(replayed.contains("W "), "{replayed}");
    // --force empties it first.
    let forced = args("2").arg("--force").output().unwrap();
    assert!(forced.status.success());
    assert_eq!(pgn_games(&pgn), 2);
    // A file that holds no PGN (here, match records) is refused, and left as it was.
    let records = temp("not-a-pgn.txt");
    std::fs::write(&records, "# moulin match records\n").unwrap();
    let out = to(&records, "2").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("holds no PGN games"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&records).unwrap(),
        "# moulin match records\n"
    );
}
