//! Records that are never lost: no overwriting by mistake, resuming, a full disk, absurd numbers.

use super::harness::*;
use super::hostile::*;
use std::os::unix::fs::FileTypeExt;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn records_are_never_overwritten_by_mistake() {
    let records = temp("keep.txt");
    std::fs::write(&records, "precious\n").unwrap();
    let rec = records.to_str().unwrap();
    let out = against_fake("", 2, &["--records", rec]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("already exist")
            && stderr.contains("--resume")
            && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&records).unwrap(), "precious\n");
    // The openings file is never the records file, even with --force.
    let book = temp("keep-book.txt");
    std::fs::write(&book, "d6 f4\n").unwrap();
    let b = book.to_str().unwrap();
    let out = against_fake("", 2, &["--openings", b, "--records", b, "--force"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("same file as --openings"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&book).unwrap(), "d6 f4\n");
    // --force replaces.
    let out = against_fake("", 2, &["--records", rec, "--force"]);
    assert!(out.status.success());
    replay_ok(&records, 2);
    // An editor's byte order mark at the start leaves them match records, read as before.
    let marked = temp("keep-bom.txt");
    let text = std::fs::read_to_string(&records).unwrap();
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    replay_ok(&marked, 2);
}

#[test]
fn resume_plays_the_games_the_records_lack() {
    let records = temp("resume.txt");
    let _ = std::fs::remove_file(&records);
    let rec = records.to_str().unwrap();
    assert!(against_fake("", 6, &["--records", rec]).status.success());
    replay_ok(&records, 6);
    // Cut as a kill would: three records, then half of the fourth.
    let text = std::fs::read_to_string(&records).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# ") && lines[1].starts_with("# settings: "));
    std::fs::write(
        &records,
        format!("{}\n{}", lines[..5].join("\n"), &lines[5][..20]),
    )
    .unwrap();
    // Resumed with more games: games 4 to 8 are played.
    let out = against_fake("", 8, &["--records", rec, "--resume"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let (w, d, l) = wdl(&stdout);
    assert_eq!(w + d + l, 8, "{stdout}");
    // The pace is of the five games this run played, not of the eight.
    assert!(stdout.contains(" for the 5 games played now, "), "{stdout}");
    replay_ok(&records, 8);
    let text = std::fs::read_to_string(&records).unwrap();
    for g in 1..=8 {
        assert_eq!(
            text.matches(&format!("game={g} ")).count(),
            1,
            "{g}: {text}"
        );
    }
    // Other settings: refused, and the file is left as it was.
    let out = against_fake("", 8, &["--records", rec, "--resume", "--max-plies", "50"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("max-plies is '50'"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&records).unwrap(), text);
    // An empty file (cut back at its header) starts the match.
    std::fs::write(&records, "").unwrap();
    assert!(against_fake("", 2, &["--records", rec, "--resume"])
        .status
        .success());
    replay_ok(&records, 2);
}

#[test]
fn a_full_disk_stops_the_match_and_keeps_the_games_written() {
    // /dev/full: a device, refused as every output that is not a regular file is (issue 51),
    // before any game is played.
    let started = Instant::now();
    let out = against_fake("", 100, &["--records", "/dev/full", "--force"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("'/dev/full' is a character device, not a regular file"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("W "));
    assert!(started.elapsed() < Duration::from_secs(5));
    // A real filesystem that fills up: a 16 KiB tmpfs in a private mount namespace (as root,
    // or through a user namespace). The records are copied out before the namespace ends.
    let dir = temp("small-fs");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = temp("small-fs-records.txt");
    let _ = std::fs::remove_file(&copy);
    let f = fake().display().to_string();
    let inner = dir.join("records.txt");
    let script = r#"dir=$1; copy=$2; shift 2
mount -t tmpfs -o size=16k none "$dir" || exit 90
"$@"; status=$?
cp "$dir/records.txt" "$copy"
exit $status"#;
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-c", script, "sh"])
        .arg(&dir)
        .arg(&copy)
        .arg(moulin())
        .args(["match", "--engine"])
        .arg(format!("name=good cmd={f}"))
        .arg("--engine")
        .arg(format!("name=other cmd={f}"))
        .args([
            "--games",
            "400",
            "--movetime",
            "5",
            "--seed",
            "7",
            "--records",
        ])
        .arg(&inner)
        .output()
        .expect("unshare runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        copy.exists() && out.status.code() != Some(90),
        "no small filesystem could be made for this test (unshare -rm, mount -t tmpfs): {stderr}"
    );
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stderr.contains("No space left on device") && stderr.contains("the match is stopped"),
        "{stderr}"
    );
    let (w, d, l) = wdl(&stdout);
    let played = (w + d + l) as usize;
    assert!(played > 0 && played < 400, "{stdout}");
    replay_ok(&copy, played);
}

#[test]
fn absurd_numbers_are_refused_or_streamed() {
    let good = format!("cmd={}", fake().display());
    for (flag, value, needle) in [
        ("--games", "18446744073709551615", "limit of 1000000000"),
        ("--concurrency", "100000", "between 1 and 256"),
        ("--random-plies", "18446744073709551615", "limit of 100"),
        // Accepted before, and printed with 309 digits.
        (
            "--sprt",
            "elo0=-1e308 elo1=1e308",
            "elo0=-1e308 is out of range (-1000 to 1000 Elo)",
        ),
        (
            "--sprt",
            "elo0=0 elo1=5 alpha=1e300",
            "alpha=1e300 must be above 0 and below 0.5",
        ),
    ] {
        let out = run(&["match", "--engine", &good, "--engine", &good, flag, value]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // A usage error (docs/matches.md, "Exit status").
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(needle), "{flag}: {stderr}");
    }
    // Times that do not fit a clock.
    let max = u64::MAX.to_string();
    let mut args = vec![
        "match", "--engine", &good, "--engine", &good, "--games", "2",
    ];
    args.extend(["--movetime", &max, "--grace", &max, "--ready-timeout", &max]);
    let stdout = run_ok(&args);
    let (w, d, l) = wdl(&stdout);
    assert_eq!(w + d + l, 2, "{stdout}");
    // A huge count with a book: the games are made as they are played (the SPRT ends it).
    let book = temp("huge-book.txt");
    std::fs::write(&book, "d6 f4\nd2 b4\na7 g7\n").unwrap();
    let started = Instant::now();
    let strong = format!("name=greedy cmd={} arg=--greedy", fake().display());
    let stdout = run_ok(&[
        "match",
        "--engine",
        &strong,
        "--engine",
        &good,
        "--games",
        "999999999",
        "--openings",
        book.to_str().unwrap(),
        "--movetime",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(started.elapsed() < Duration::from_mins(1));
}

#[test]
fn pgn_records_are_written_read_back_and_checked() {
    let pgn = temp("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let p = pgn.to_str().unwrap();
    // Forfeits too: the fake engine that answers an illegal move now and then.
    let out = against_fake("--illegal-at 9", 6, &["--pgn", p]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = moulin::record::read(&text).unwrap();
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Round"), Some((i + 1).to_string().as_str()));
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
            "{g:?}"
        );
        assert_eq!(g.tag("Result"), Some(g.result.as_str()));
        assert!(g.tag("Termination").is_some() && g.tag("TimeControl").is_some());
        // The host, as cutechess writes it.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        assert_eq!(g.tag("Site"), Some(host.trim()), "{g:?}");
        assert_eq!(
            moulin::record::read(&moulin::record::write(g)).unwrap()[0],
            *g
        );
    }
    assert!(
        games
            .iter()
            .any(|g| g.tag("Termination") == Some("rules infraction")),
        "{text}"
    );
    let stdout = run_ok(&["replay", p]);
    assert!(
        stdout.contains("replayed 6 games") && stdout.contains("0 failed"),
        "{stdout}"
    );
    // Never overwritten by mistake: added to, as cutechess-cli adds to its -pgnout file.
    let out = against_fake("", 2, &["--pgn", p]);
    assert!(out.status.success());
    let added = std::fs::read_to_string(&pgn).unwrap();
    assert!(added.starts_with(&text), "{added}");
    assert_eq!(moulin::record::read(&added).unwrap().len(), 8);
    // A record with an illegal move, and one whose result the board contradicts.
    let bad = temp("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n\n1. d6 f4 2. d6 *\n").unwrap();
    let out = run(&["replay", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 3, column 13") && stderr.contains("'d6'"),
        "{stderr}"
    );
    let wrong = temp("wrong.pgn");
    std::fs::write(&wrong, "1. d6 f4 1-0\n").unwrap();
    let out = run(&["replay", wrong.to_str().unwrap()]);
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("the game goes on"), "{stdout}");
}

#[test]
fn replay_sums_pgn_records_as_it_sums_match_records() {
    let (records, pgn) = (temp("sums.txt"), temp("sums.pgn"));
    let (r, p) = (records.to_str().unwrap(), pgn.to_str().unwrap());
    // Forfeits too, which count as any other result.
    let out = against_fake("--illegal-at 9", 6, &["--records", r, "--pgn", p]);
    assert!(out.status.success(), "{out:?}");
    let from_records = run_ok(&["replay", r]);
    let from_pgn = run_ok(&["replay", p]);
    let lines = results_lines(&from_records);
    for word in [
        "W ",
        "Score: ",
        "Draw ratio: ",
        "Elo difference: ",
        "LOS: ",
        "Pairs ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(word)),
            "{word}: {lines:?}"
        );
    }
    assert_eq!(results_lines(&from_pgn), lines);
    // As the match printed them.
    assert_eq!(results_lines(&String::from_utf8_lossy(&out.stdout)), lines);
    // Games of a third engine: a tournament's results, not a match's that would count them as
    // draws.
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(
        &pgn,
        text.replacen("[White \"good\"]", "[White \"third\"]", 1),
    )
    .unwrap();
    let three = run_ok(&["replay", p]);
    assert!(three.contains("3 engines: "), "{three}");
    assert!(three.contains("Crosstable"), "{three}");
    assert!(results_lines(&three).is_empty(), "{three}");
}

#[test]
fn no_output_of_a_match_is_an_input_or_another_output() {
    let book = temp("paths-book.txt");
    std::fs::write(&book, "d6 f4\n").unwrap();
    let b = book.to_str().unwrap();
    // The same file through a link, or spelt with `./`.
    let link = temp("paths-link.pgn");
    std::os::unix::fs::symlink(&book, &link).unwrap();
    let dotted = book.parent().unwrap().join("./paths-book.txt");
    let (records, pgn) = (temp("paths-records.txt"), temp("paths-games.pgn"));
    let (r, p) = (records.to_str().unwrap(), pgn.to_str().unwrap());
    for extra in [
        vec!["--openings", b, "--pgn", link.to_str().unwrap(), "--force"],
        vec![
            "--openings",
            b,
            "--records",
            r,
            "--pgn",
            dotted.to_str().unwrap(),
        ],
    ] {
        let out = against_fake("", 2, &extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr.contains("same file"), "{extra:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&book).unwrap(), "d6 f4\n");
        assert!(!records.exists(), "{extra:?}: records left behind");
    }
    // Two outputs that are one file, neither there yet: neither is made.
    let same = records.parent().unwrap().join("./paths-records.txt");
    let out = against_fake("", 2, &["--records", r, "--pgn", same.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("same file"), "{stderr}");
    assert!(!records.exists());
    // A --pgn file that exists but holds no PGN is refused before the records are made (one
    // that holds PGN games is added to).
    std::fs::write(&pgn, "d6 f4\n").unwrap();
    let out = against_fake("", 2, &["--records", r, "--pgn", p]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no PGN games"), "{stderr}");
    assert!(!records.exists(), "records left behind");
}

#[test]
fn an_engine_name_holding_a_line_break_is_refused_before_the_match() {
    let f = fake();
    let records = temp("names.txt");
    let rec = records.to_str().unwrap();
    let odd = temp("fa\nke");
    std::os::unix::fs::symlink(&f, &odd).unwrap();
    for spec in [
        format!("name=\"two\nlines\" cmd={}", f.display()),
        // A bare spec, named by default after the program's file name.
        format!("'{}'", odd.display()),
    ] {
        let out = run(&[
            "match",
            "--engine",
            &spec,
            "--engine",
            &format!("name=good cmd={}", f.display()),
            "--games",
            "2",
            "--movetime",
            "5",
            "--records",
            rec,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{spec}");
        // The name is shown escaped, on one line.
        assert!(
            stderr.contains("name")
                && (stderr.contains("two\\nlines") || stderr.contains("fa\\nke")),
            "{stderr}"
        );
        assert!(!records.exists(), "{spec}: records made");
    }
}

/// The SPRT's verdict is where it first crossed a bound, in the order the games were recorded:
/// games that end after it (in flight when it stopped, or read again by `--resume`) count in the
/// figures but do not undo it, even when they take the LLR back inside the bounds.
#[test]
fn the_sprt_verdict_is_where_the_test_first_decided() {
    let book = temp("sprt-verdict-book.txt");
    std::fs::write(&book, "d6 f4\nd2 b4\na7 g7\n").unwrap();
    let records = temp("sprt-verdict.txt");
    let _ = std::fs::remove_file(&records);
    let greedy = format!("name=greedy cmd={} arg=--greedy", fake().display());
    let random = format!("name=random cmd={}", fake().display());
    let sprt_match = |games: &str, resume: bool| {
        let mut args = vec![
            "match", "--engine", &greedy, "--engine", &random, "--games", games,
        ];
        args.extend(["--openings", book.to_str().unwrap(), "--movetime", "2"]);
        args.extend(["--sprt", "elo0=0", "elo1=50", "--records"]);
        args.push(records.to_str().unwrap());
        if resume {
            args.push("--resume");
        }
        run_ok(&args)
    };
    let first = sprt_match("1000", false);
    assert!(first.contains("H1 accepted"), "{first}");
    // The same games again, each won by the other engine, recorded after them: over all the
    // games the two engines are even and the LLR is back inside the bounds.
    let text = std::fs::read_to_string(&records).unwrap();
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game=")).collect();
    let n = games.len();
    let mut more = String::new();
    for line in &games {
        let (number, rest) = line["game=".len()..].split_once(' ').unwrap();
        let number: usize = number.parse().unwrap();
        // The line goes where the schedule seats its engines the other way round: a number
        // of the other parity.
        let partner = if number % 2 == 1 {
            number + 1
        } else {
            number - 1
        };
        let number = if n % 2 == 1 { number } else { partner };
        let swapped = rest
            .replacen("white=greedy black=random", "white=@ black=greedy", 1)
            .replacen("white=random black=greedy", "white=greedy black=random", 1)
            .replacen("white=@", "white=random", 1);
        more.push_str(&format!("game={} {swapped}\n", number + n));
    }
    std::fs::write(&records, text + &more).unwrap();
    let total = (2 * n).to_string();
    let resumed = sprt_match(&total, true);
    let line = resumed.lines().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(
        line.contains(&format!("H1 accepted after {n} games (LLR ")),
        "{resumed}"
    );
    assert!(
        line.contains(&format!("{n} more ended after it")),
        "{resumed}"
    );
    let (w, d, l) = wdl(&resumed);
    assert_eq!(
        (w + d + l, w),
        (2 * u32::try_from(n).unwrap(), l),
        "{resumed}"
    );
}

/// Issue 51, defect 1: a file without a line break is not taken for records cut short.
#[test]
fn resume_never_replaces_a_file_that_is_not_records() {
    for (name, content) in [
        ("blob.json", &b"{\"key\": \"value\", \"n\": 1}"[..]),
        (
            "key.txt",
            b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG user@host\n",
        ),
        ("binary.bin", &[0u8, 159, 146, 150, 10, 1, 2, 3][..]),
        ("title.txt", b"# moulin match: good vs other\n"),
    ] {
        let path = temp(name);
        std::fs::write(&path, content).unwrap();
        let out = against_fake("", 2, &["--records", path.to_str().unwrap(), "--resume"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: {stderr}");
        assert!(
            stderr.contains("is not the records of a moulin match") && stderr.contains("left as"),
            "{name}: {stderr}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), content, "{name}");
    }
    // A huge file with no line break is refused after a bounded read, not read whole.
    let huge = temp("huge.bin");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let out = against_fake("", 2, &["--records", huge.to_str().unwrap(), "--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("line 1 is longer than the 1 MB"),
        "{stderr}"
    );
    assert_eq!(std::fs::metadata(&huge).unwrap().len(), 3 << 30);
    let _ = std::fs::remove_file(&huge);
}

/// Issue 51, defect 1: the last game whole but for its line break is kept, not played again.
#[test]
fn resume_keeps_a_last_game_that_only_lacks_its_line_break() {
    let records = temp("no-final-break.txt");
    let rec = records.to_str().unwrap();
    assert!(against_fake("", 4, &["--records", rec]).status.success());
    let text = std::fs::read_to_string(&records).unwrap();
    let stripped = text.trim_end_matches('\n');
    std::fs::write(&records, stripped).unwrap();
    let out = against_fake("", 4, &["--records", rec, "--resume"]);
    assert!(out.status.success());
    // Nothing to play: the file is the same, its line break written back.
    assert_eq!(std::fs::read_to_string(&records).unwrap(), text);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(" for the 0 games played now, "), "{stdout}");
    // Resumed with fewer games than recorded: the records' games are held to the count they
    // state (4), so the last one is kept whole, not cut off; the new count is written after it.
    std::fs::write(&records, stripped).unwrap();
    assert!(against_fake("", 3, &["--records", rec, "--resume"])
        .status
        .success());
    assert_eq!(
        std::fs::read_to_string(&records).unwrap(),
        format!("{text}# games: 3\n")
    );
    // A game past the count stated before it is refused, the file left as it was.
    let forged = format!(
        "{text}{}\n",
        game_line(&text, 3).replacen("game=3 ", "game=5 ", 1)
    );
    std::fs::write(&records, &forged).unwrap();
    let out = against_fake("", 6, &["--records", rec, "--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("line 7: game 5 is not a game of this match (games 1 to 4)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&records).unwrap(), forged);
    // An editor's byte order mark leaves them records that resume.
    std::fs::write(&records, format!("\u{feff}{text}")).unwrap();
    assert!(against_fake("", 4, &["--records", rec, "--resume"])
        .status
        .success());
}

/// The line of game `g` in records `text`.
fn game_line(text: &str, g: usize) -> String {
    text.lines()
        .find(|l| l.starts_with(&format!("game={g} ")))
        .unwrap()
        .to_string()
}

/// Issue 51, second pass: two matches never write one records file.
#[test]
fn a_second_match_on_the_same_records_is_refused_while_the_first_runs() {
    let records = temp("locked.txt");
    let rec = records.to_str().unwrap().to_string();
    let first = std::thread::spawn({
        let rec = rec.clone();
        move || against_fake("", 40, &["--records", &rec])
    });
    // Wait until the first match has written its header and holds the file.
    let started = Instant::now();
    while std::fs::read_to_string(&records).map_or(true, |t| !t.contains("# settings: ")) {
        assert!(started.elapsed() < Duration::from_mins(1));
        std::thread::sleep(Duration::from_millis(20));
    }
    for extra in [&["--resume"][..], &["--force"][..]] {
        let mut args = vec!["--records", rec.as_str()];
        args.extend(extra);
        let out = against_fake("", 40, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}: {stderr}");
        assert!(
            stderr.contains("in use by another running match"),
            "{extra:?}: {stderr}"
        );
    }
    assert!(first.join().unwrap().status.success());
    replay_ok(&records, 40);
}

/// Issue 51, defect 4: `--resume` and `replay` hold every kept line to the records' header.
#[test]
fn edited_records_are_named_not_counted() {
    let records = temp("edited.txt");
    let rec = records.to_str().unwrap();
    assert!(against_fake("", 4, &["--records", rec]).status.success());
    let text = std::fs::read_to_string(&records).unwrap();
    let (g1, g2) = (game_line(&text, 1), game_line(&text, 2));
    let result = g1
        .split_whitespace()
        .find(|w| w.starts_with("result="))
        .unwrap()
        .to_string();
    let edits: Vec<(String, &str)> = vec![
        (
            g1.replacen("game=1 ", "game=0 ", 1),
            "game 0 is not a game of this match",
        ),
        (
            g1.replacen("game=1 ", "game=999999999 ", 1),
            "game 999999999 is not a game of this match",
        ),
        (g1.replacen(&result, "result=2-0", 1), "result '2-0'"),
        (
            g1.replacen("white=good ", "white=stranger ", 1),
            "'stranger' is not an engine of this match",
        ),
        (
            g1.replacen("black=other ", "black=good ", 1),
            "'good' plays both White and Black",
        ),
        // Game 2's line under number 1: its seats are those of game 2.
        (
            g2.replacen("game=2 ", "game=1 ", 1),
            "game 1 is played by good (White) and other (Black)",
        ),
        // The same game twice.
        (
            format!("{g2}\n{g2}"),
            "game 2 is recorded twice (first on line 3)",
        ),
        // A name holding an escape sequence: named, never raw on the terminal.
        (
            g1.replacen("white=good ", "white=good\u{1b}[2J ", 1),
            "'good\\u{1b}[2J' is not an engine of this match",
        ),
    ];
    let header: Vec<&str> = text.lines().take(2).collect();
    for (edited, why) in edits {
        let body = format!("{}\n{edited}\n", header.join("\n"));
        std::fs::write(&records, &body).unwrap();
        let out = against_fake("", 4, &["--records", rec, "--resume"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{why}: {stderr}");
        assert!(
            stderr.contains(why) && stderr.contains(", line "),
            "{why}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(&records).unwrap(), body, "{why}");
        // replay names the same line and counts the game as failed, not in the results.
        let out = run(&["replay", rec]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "{why}: {stdout}");
        assert!(
            stdout.contains(why) && stdout.contains("line "),
            "{why}: {stdout}"
        );
        assert!(stdout.contains(" 1 failed"), "{why}: {stdout}");
        assert!(!stdout.contains('\u{1b}'), "{why}: {stdout}");
    }
    // A settings line that names no match leaves nothing to hold the records to: each fails.
    let headless = text.replacen("engine=", "engines=", 2);
    std::fs::write(&records, &headless).unwrap();
    let out = run(&["replay", rec]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("4 failed") && stdout.contains("names no match"),
        "{stdout}"
    );
    // Replay of the records left whole agrees with them.
    std::fs::write(&records, &text).unwrap();
    replay_ok(&records, 4);
}

/// Issue 51, second pass: an output named through a link into /proc (as `/dev/stdout` is) is
/// refused, never replaced by a regular file.
#[test]
fn an_output_linked_into_the_system_folders_is_refused() {
    // A link through /proc to a regular file (as `/proc/self/fd/1` is when the output goes to
    // a file): it resolves to a regular file, and a rename would replace the link.
    let target = temp("behind-proc.pgn");
    std::fs::write(&target, "").unwrap();
    let link = temp("stdout-link");
    let _ = std::fs::remove_file(&link);
    let through = format!("/proc/self/root{}", target.display());
    std::os::unix::fs::symlink(&through, &link).unwrap();
    let out = against_fake("", 2, &["--pgn", link.to_str().unwrap(), "--force"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("a link into a system folder"), "{stderr}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

/// Issue 51, defect 3: a named pipe or a device as the records to resume is refused at once.
#[test]
fn resume_refuses_a_pipe_or_a_device() {
    let fifo = temp("records.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only makes the node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for (path, kind) in [
        (fifo.to_str().unwrap(), "a named pipe"),
        ("/dev/zero", "a character device"),
    ] {
        let started = Instant::now();
        let out = against_fake("", 2, &["--records", path, "--resume"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(stderr.contains(kind), "{stderr}");
        assert!(started.elapsed() < Duration::from_mins(1), "{stderr}");
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}
