//! The subcommands' standard output when it fails, through the binary: a pipe whose reader is
//! gone ends a command quietly, killed by SIGPIPE as `seq` or `cat` are (status 141 in a shell),
//! and a full device (`/dev/full`) is one error line on stderr and status 1; never a panic.
//! Every subcommand that prints is run both ways, with real pipes, real files and real engines.
//! A usage error of any command exits with status 2, as clap's own do; a failure at work, 1.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use std::fs::File;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

const MOULIN: &str = env!("CARGO_BIN_EXE_moulin");

/// A scratch path for this run, under Cargo's temporary folder for tests.
fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-output-{}-{name}", std::process::id()))
}

/// Runs `moulin args` with `input` on stdin and stdout on `stdout`; stderr is kept.
fn run_to(args: &[&str], stdout: Stdio, input: &str) -> Output {
    let mut child = crate::shared::moulin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("moulin starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written on a thread: a command that ends first closes its end, which is no error here.
    let writer = thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("moulin ends");
    writer.join().unwrap();
    out
}

/// A pipe whose reader is closed before the command starts: its first write fails.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Stdio::from(writer)
}

fn dev_full() -> Stdio {
    Stdio::from(
        File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

/// Checks both failures of stdout for `moulin args`.
fn check(args: &[&str], input: &str) {
    let what = args.join(" ");
    let closed = run_to(args, closed_pipe(), input);
    let stderr = String::from_utf8_lossy(&closed.stderr);
    assert_eq!(
        closed.status.signal(),
        Some(libc::SIGPIPE),
        "{what}, closed pipe: {:?}\n{stderr}",
        closed.status
    );
    for noise in ["panicked", "Broken pipe", "moulin:"] {
        assert!(!stderr.contains(noise), "{what}, closed pipe: {stderr}");
    }
    let full = run_to(args, dev_full(), input);
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{what}, /dev/full: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}, /dev/full: {stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("moulin:"))
        .collect();
    assert_eq!(
        errors,
        ["moulin: cannot write to standard output: No space left on device (os error 28)"],
        "{what}, /dev/full: {stderr}"
    );
}

/// Tables up to 3 a side for `nine`, built once by the binary for every test here.
fn tables() -> &'static str {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("tables");
        let _ = std::fs::remove_dir_all(&dir);
        let built = crate::shared::moulin()
            .args(["tables", "build", "--files", "--pieces", "3", "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(built.status.success(), "{built:?}");
        dir
    })
    .to_str()
    .unwrap()
}

fn write(name: &str, text: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

// `play` is left out: it needs a terminal on stdin and stdout, and refuses to start without
// one, before it writes anything.
#[test]
fn perft_and_bench() {
    check(&["perft", "3", "--divide"], "");
    check(&["perft", "3"], "");
    check(&["bench", "--depth", "1"], "");
}

#[test]
fn analyse_and_replay() {
    let pgn = write("game.pgn", "[Event \"x\"]\n\n1. d6 f4 2. d2 b4 *\n");
    check(
        &[
            "analyse",
            "--moves",
            "d6",
            "f4",
            "--position",
            "--depth",
            "1",
        ],
        "",
    );
    check(&["analyse", &pgn, "--depth", "1"], "");
    check(&["analyse", &pgn, "--depth", "1", "--json"], "");
    check(&["replay", &pgn], "");
}

#[test]
fn tables_commands() {
    let dir = tables();
    check(&["tables", "stats", "--dir", dir], "");
    check(&["tables", "verify", "--dir", dir, "--sample", "100"], "");
    check(&["tables", "sample", "--dir", dir, "--per-pair", "2"], "");
    check(
        &["tables", "plan", "--slurm", "--pieces", "3", "--dir", dir],
        "",
    );
    let sampled = crate::shared::moulin()
        .args(["tables", "sample", "--dir", dir, "--per-pair", "2"])
        .output()
        .unwrap();
    let positions = write("positions.txt", &String::from_utf8_lossy(&sampled.stdout));
    check(
        &[
            "tables",
            "keep",
            "--dir",
            dir,
            "--positions",
            &positions,
            "--movetime",
            "5",
        ],
        "",
    );
}

#[test]
fn book_commands() {
    check(&["book", "check", "book/nine.book"], "");
    check(&["book", "bench"], "");
}

#[test]
fn commands_that_drive_engines() {
    let engine = format!("cmd={MOULIN}");
    check(
        &[
            "match",
            "--engine",
            &format!("name=a {engine}"),
            "--engine",
            &format!("name=b {engine}"),
            "--games",
            "2",
            "--movetime",
            "10",
        ],
        "",
    );
    check(
        &[
            "openings", "--engine", &engine, "--plies", "1", "--depth", "1", "--first", "2",
        ],
        "",
    );
    let whole = std::fs::read_to_string("tests/data/critical-nine.txt").unwrap();
    let suite: Vec<&str> = whole.lines().take(6).collect();
    let suite = suite.join("\n") + "\n";
    let suite = write("suite.txt", &suite);
    check(
        &[
            "train",
            "suite",
            "--engine",
            &engine,
            "--suite",
            &suite,
            "--movetime",
            "10",
        ],
        "",
    );
}

#[test]
fn train_fit_prints_its_weights() {
    let labels = scratch("labels.txt");
    let _ = std::fs::remove_file(&labels);
    let labelled = crate::shared::moulin()
        .args([
            "train",
            "label",
            "--positions",
            "200",
            "--depth",
            "1",
            "--no-tables",
        ])
        .args(["--threads", "1", "--out"])
        .arg(&labels)
        .output()
        .unwrap();
    assert!(labelled.status.success(), "{labelled:?}");
    check(
        &[
            "train",
            "fit",
            "--labels",
            labels.to_str().unwrap(),
            "--steps",
            "10",
        ],
        "",
    );
}

#[test]
fn help_and_version() {
    check(&["--help"], "");
    check(&["--version"], "");
}

/// `moulin perft 7 --divide | head -1`: the reader takes one line and leaves; the count ends at
/// the next line instead of going on to the end.
#[test]
fn a_reader_that_leaves_after_one_line_ends_perft() {
    let mut child: Child = crate::shared::moulin()
        .args(["perft", "7", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    drop(stdout);
    let closed = Instant::now();
    assert!(
        String::from_utf8_lossy(&line).starts_with("d5 "),
        "{line:?}"
    );
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            closed.elapsed() < Duration::from_secs(2),
            "perft went on counting"
        );
        thread::sleep(Duration::from_millis(5));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    println!(
        "perft 7 --divide ended {:?} after its reader left",
        closed.elapsed()
    );
    assert_eq!(status.signal(), Some(libc::SIGPIPE), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `moulin perft` names what its stderr line times; stdout keeps the one `nodes` line.
#[test]
fn perft_says_what_it_timed() {
    let out = crate::shared::moulin()
        .args(["perft", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "nodes 552\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("perft 2: 552 leaves in "), "{stderr}");
}

/// `--help` as cargo and ripgrep write it: one line a command, and every line within the
/// terminal's width (`COLUMNS`), broken between words, for each command and family.
#[test]
fn help_is_one_line_a_command_and_fits_the_terminal() {
    let help = |args: &[&str]| {
        let out = std::process::Command::new(MOULIN)
            .args(args)
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for family in [
        &["--help"][..],
        &["tables", "--help"],
        &["book", "--help"],
        &["train", "--help"],
    ] {
        let text = help(family);
        let commands: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(commands.len() > 4, "{family:?}: {text}");
        assert!(
            commands
                .iter()
                .all(|l| l.len() <= 80 && l.starts_with("  ") && !l.starts_with("   ")),
            "{family:?}: one line a command:\n{text}"
        );
    }
    for args in [
        &["--help"][..],
        &["analyse", "--help"],
        &["play", "--help"],
        &["match", "--help"],
        &["tables", "build", "--help"],
    ] {
        let text = help(args);
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{args:?}: {line}");
        }
    }
}

/// Every usage error exits with status 2, as clap's own do (a bad flag value, a missing
/// argument, options that conflict, a malformed pair or move), whichever command and whichever
/// check finds it; a failure at work (a file that is not there) exits with 1.
#[test]
fn usage_errors_exit_2_and_failures_1() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(MOULIN)
            .args(args)
            .env("XDG_CACHE_HOME", scratch("exit-status-cache"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for (args, needle) in [
        (
            &["perft", "3", "--variant", "foo"][..],
            "unknown variant 'foo'",
        ),
        (&["perft", "3", "--convention", "x"], "unknown convention"),
        (&["perft", "2", "--moves", "zz9"], "'zz9' is not a point"),
        (&["tables", "build"], "give --pieces N, or --pair W-B"),
        (&["tables", "build", "--pair", "2-x"], "--pair '2-x'"),
        (&["tables", "opening"], "--plies"),
        (&["solve", "--variant", "foo"], "unknown variant"),
        (&["play", "--color", "green"], "--color green"),
        (&["play", "--clock", "abc"], "--clock"),
        (&["analyse", "--moves", "zz"], "zz"),
        (&["analyse"], "nothing to analyse"),
        (&["match", "--engine", "a"], "two --engine specs"),
        (&["openings", "--exact"], "a value is required"),
        (&["--option", "foo"], "expected NAME=VALUE"),
        (&["--option", "Nope=1"], "unknown option 'Nope'"),
        (&["bench", "--option", "Hash=1"], "--option"),
        (&["bench", "--depth", "0"], "--depth"),
    ] {
        let (code, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    let missing = scratch("no-such-records.txt");
    let (code, stderr) = run(&["replay", missing.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("cannot read records"), "{stderr}");
}
