//! What a tournament script relies on: the exit status, a line per finished game on stderr
//! whatever stderr is, engines that cannot start stopping the run at once, and a summary that
//! does not overstate what a few games say.

use super::harness::*;
use super::hostile::against_fake;
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The exit status of `moulin` after `args`, with its stdout and stderr.
pub(crate) fn status_of(args: &[&str]) -> (Option<i32>, String, String) {
    let out = run(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_at_once() {
    let f = fake().display().to_string();
    let good = format!("name=good cmd={f}");
    // A path with a typo, a command that ends at once, one that never says `uciok`, one too
    // slow to, a working folder that is not there or is a file: each named, with its cause.
    let missing = temp("no-such-dir");
    let file = temp("a-file-not-a-dir");
    std::fs::write(&file, "").unwrap();
    let (missing, file) = (missing.display(), file.display());
    for (spec, cause) in [
        ("/nonexistent/eng".to_string(), "No such file".to_string()),
        (
            format!("name=lost cmd={f} dir={missing}"),
            format!("could not start: its working folder dir='{missing}' does not exist"),
        ),
        (
            format!("name=filed cmd={f} dir={file}"),
            format!("could not start: its working folder dir='{file}' is not a folder"),
        ),
        (
            "name=quits cmd=true".to_string(),
            "exited early".to_string(),
        ),
        (
            format!("name=mute cmd=\"{f} --no-uciok\""),
            "no uciok within 300 ms".to_string(),
        ),
        (
            format!("name=slow cmd=\"{f} --slow-start 3000\""),
            "within 300 ms".to_string(),
        ),
    ] {
        let name = spec
            .split_once("name=")
            .map_or("eng", |(_, n)| n.split_whitespace().next().unwrap());
        let records = temp(&format!("nostart-{name}.txt"));
        // First or second, it stops the run.
        for pair in [[&good, &spec], [&spec, &good]] {
            let _ = std::fs::remove_file(&records);
            let started = Instant::now();
            let (code, stdout, stderr) = status_of(&[
                "match",
                "--engine",
                pair[0],
                "--engine",
                pair[1],
                "--games",
                "10",
                "--movetime",
                "5",
                "--ready-timeout",
                "300",
                "--records",
                records.to_str().unwrap(),
            ]);
            assert_eq!(code, Some(1), "{spec}: {stdout}{stderr}");
            assert!(
                stdout.is_empty(),
                "{spec}: nothing played, no summary: {stdout}"
            );
            let error = stderr
                .lines()
                .find(|l| l.starts_with("moulin: "))
                .unwrap_or("");
            assert!(
                error.contains(&format!("'{name}'")) && error.contains(&cause),
                "{spec}: {stderr}"
            );
            assert!(!stderr.contains("Finished game"), "{spec}: {stderr}");
            // No records file is left to refuse the corrected command.
            assert!(!records.exists(), "{spec}");
            assert!(started.elapsed() < Duration::from_secs(5), "{spec}");
        }
    }
}

#[test]
fn exit_statuses_are_documented_and_kept() {
    let help = run_ok(&["match", "--help"]);
    let listed = help.split_once("Exit status:").map_or("", |(_, list)| list);
    for status in ["\n  0  ", "\n  1  ", "\n  2  ", "\n  SIGINT, SIGTERM"] {
        assert!(listed.contains(status), "{status}: {help}");
    }
    let f = fake().display().to_string();
    let good = format!("name=good cmd={f}");
    let base = [
        "match",
        "--engine",
        &good,
        "--engine",
        &good,
        "--movetime",
        "5",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend(extra);
        status_of(&args).0
    };
    // Finished.
    assert_eq!(with(&["--games", "2"]), Some(0));
    // Usage: an unknown flag, a bad value, one engine only: nothing played.
    assert_eq!(with(&["--games", "2", "--no-such-flag"]), Some(2));
    assert_eq!(with(&["--games", "0"]), Some(2));
    assert_eq!(with(&["--games", "2", "--tc", "x+1"]), Some(2));
    assert_eq!(
        with(&["--games", "2", "--sprt", "elo0=5", "elo1=0"]),
        Some(2)
    );
    assert_eq!(
        status_of(&["match", "--engine", &good, "--games", "2"]).0,
        Some(2)
    );
    // Error: an engine that cannot start (above), a records file that is there.
    let records = temp("exit-exists.txt");
    std::fs::write(&records, "# a match\n").unwrap();
    assert_eq!(
        with(&["--games", "2", "--records", records.to_str().unwrap()]),
        Some(1)
    );
}

/// Starts a match with stderr on a pipe (not a terminal), reads its stderr until the first
/// `Finished game` line, then sends `signal`: the runner ends by that signal.
///
/// The runner keeps a signal ignored when it starts with it ignored (as under `nohup`), and a
/// shell starts a background job with SIGINT ignored: the signal's default action is restored
/// for the runner, so that the test means the same however the suite was started.
fn interrupted_by(signal: &str, number: i32) {
    use std::os::unix::process::CommandExt;
    let f = fake().display().to_string();
    let good = format!("name=good cmd={f}");
    let mut command = command();
    command
        .args(["match", "--engine", &good, "--engine", &good])
        .args(["--games", "200", "--movetime", "5"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: between fork and exec the child only calls `signal`, which is async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            libc::signal(number, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut runner = command.spawn().unwrap();
    let stderr = runner.stderr.take().unwrap();
    let mut seen = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        let first = line.starts_with("Finished game 1 (good vs good-2): ");
        seen.push(line);
        if first {
            let _ = Command::new("kill")
                .args([&format!("-{signal}"), &runner.id().to_string()])
                .status();
            break;
        }
    }
    let status = runner.wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(number),
        "{signal}: {status:?}, {seen:#?}"
    );
}

#[test]
fn an_interrupted_match_ends_by_the_signal() {
    interrupted_by("INT", libc::SIGINT);
    interrupted_by("TERM", libc::SIGTERM);
}

#[test]
fn a_line_per_finished_game_on_a_stderr_that_is_not_a_terminal() {
    let records = temp("finished-lines.txt");
    let out = against_fake(
        "--illegal-at 3",
        6,
        &["--records", records.to_str().unwrap()],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(lines.len(), 6, "{stderr}");
    // Each says what its record says: the players, the result, moulin's reason.
    let text = std::fs::read_to_string(&records).unwrap();
    for record in text.lines().filter(|l| l.starts_with("game=")) {
        let words = moulin::matches::quoting::split(record).unwrap();
        let field = |key: &str| {
            words
                .iter()
                .find_map(|w| w.strip_prefix(&format!("{key}=")))
                .unwrap()
                .to_string()
        };
        let wanted = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            field("game"),
            field("white"),
            field("black"),
            field("result"),
            field("reason")
        );
        assert!(lines.contains(&wanted.as_str()), "{wanted}\n{stderr}");
    }
}

/// Records of four games between `a` and `b`, `a` winning one (a time forfeit), losing one
/// and drawing two (adjudicated): W1 D2 L1, both pairs worth 1 point to `a`.
fn records_w1_d2_l1() -> std::path::PathBuf {
    records_of("w1-d2-l1.txt", ["1-0", "1-0", "1/2-1/2", "1/2-1/2"])
}

/// Records of four games between `a` and `b` (`a` White in games 1 and 3) named `name`, their
/// `results`: a win of White's a time forfeit, one of Black's a resignation, a draw adjudicated.
fn records_of(name: &str, results: [&str; 4]) -> std::path::PathBuf {
    let path = temp(name);
    let game = |n: u32, white: &str, black: &str, result: &str, end: &str| {
        format!(
            "game={n} white={white} black={black} variant=nine start=startpos opening=\"d7\" \
             moves=\"\" result={result} {end}\n"
        )
    };
    let time = "end=time loser=black reason=\"no bestmove within 5 ms\"";
    let draw = "end=movelimit reason=\"draw: adjudicated after 0 plies\"";
    // A time forfeit is Black's, the side to move after the opening; a loss of White's is a
    // resignation.
    let resigned = "end=resign reason=\"white resigns\"";
    let text: String = results
        .iter()
        .enumerate()
        .map(|(i, &result)| {
            let (white, black) = if i % 2 == 0 { ("a", "b") } else { ("b", "a") };
            let end = match result {
                "1-0" => time,
                "0-1" => resigned,
                _ => draw,
            };
            game(i as u32 + 1, white, black, result, end)
        })
        .collect();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn few_games_get_no_false_precision() {
    let stdout = run_ok(&["replay", records_w1_d2_l1().to_str().unwrap()]);
    assert_eq!(wdl(&stdout), (1, 2, 1), "{stdout}");
    // Two pairs alike say nothing of the spread: no zero-width interval, no signed zero.
    assert!(
        !stdout.contains("-0.0") && !stdout.contains("+0.0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Elo difference: 0.0  95% interval n/a"),
        "{stdout}"
    );
    assert!(stdout.contains("LOS: n/a"), "{stdout}");
    assert!(stdout.contains("Draw ratio: 50.0%"), "{stdout}");
}

/// Every game won: no infinite Elo and no interval of infinities, but the bound the games give;
/// two pairs of 1.5 and 2 points: no interval (too few games), and a LOS by Student's t, not the
/// normal distribution's 99.9%.
#[test]
fn a_full_score_and_few_games_say_what_they_know() {
    let won = records_of("won-4.txt", ["1-0", "0-1", "1-0", "0-1"]);
    let stdout = run_ok(&["replay", won.to_str().unwrap()]);
    assert_eq!(wdl(&stdout), (4, 0, 0), "{stdout}");
    assert!(
        stdout.contains("Elo difference: > -290.5  95% interval [-290.5, +inf]"),
        "{stdout}"
    );
    assert!(stdout.contains("LOS: n/a"), "{stdout}");
    let few = records_of("few.txt", ["1-0", "1/2-1/2", "1-0", "0-1"]);
    let stdout = run_ok(&["replay", few.to_str().unwrap()]);
    assert!(
        stdout.contains("Elo difference: +338.0  95% interval n/a (too few games)")
            && stdout.contains("LOS: 89.8%")
            && !stdout.contains("-inf"),
        "{stdout}"
    );
}

#[test]
fn the_summary_gives_los_and_draw_ratio() {
    let out = against_fake("", 6, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (_, d, _) = wdl(&stdout);
    let los = stdout
        .lines()
        .find_map(|l| l.strip_prefix("LOS: "))
        .unwrap_or_else(|| panic!("no LOS line: {stdout}"));
    assert!(los == "n/a" || los.ends_with('%'), "{stdout}");
    let ratio = format!("Draw ratio: {:.1}%", 100.0 * f64::from(d) / 6.0);
    assert!(stdout.contains(&ratio), "{ratio}: {stdout}");
}

#[test]
fn an_sprt_cut_short_by_the_games_says_so() {
    let out = against_fake("", 2, &["--sprt", "elo0=-100", "elo1=100"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout.lines().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(line.contains(": no decision after 2 games"), "{stdout}");
    assert!(!line.contains("continue"), "{stdout}");
}

/// The runner's own time between answers is measured and printed: one gap between each two
/// answers of a game (the first answer of a game follows the engines' new-game handshake, which
/// is no move's).
#[test]
fn the_runners_overhead_per_move_is_printed() {
    let f = fake().display().to_string();
    let records = temp("overhead.records");
    let r = records.to_str().unwrap();
    let (code, stdout, _) = status_of(&[
        "match",
        "--engine",
        &f,
        "--engine",
        &f,
        "--games",
        "6",
        "--movetime",
        "10",
        "--records",
        r,
    ]);
    assert_eq!(code, Some(0));
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Runner overhead: "))
        .unwrap_or_else(|| panic!("no overhead line in:\n{stdout}"));
    assert!(
        stdout.ends_with(" ms\n"),
        "the summary ends with a whole line:\n{stdout}"
    );
    let words: Vec<&str> = line.split_whitespace().collect();
    let mean: f64 = words[2].parse().unwrap();
    let gaps: usize = words[8].trim_end_matches("),").parse().unwrap();
    assert!(mean.is_finite() && mean >= 0.0, "{line}");
    let text = std::fs::read_to_string(&records).unwrap();
    let answers: usize = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let r = moulin::matches::run::game_line::Record::parse(l).unwrap();
            r.moves.len().saturating_sub(1)
        })
        .sum();
    assert_eq!(gaps, answers, "{line}");
}
