//! Running moulin and the stand-in engine, and reading what a match printed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn moulin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_moulin"))
}

pub(crate) fn fake() -> PathBuf {
    let p = moulin()
        .parent()
        .expect("binary directory")
        .join("examples/fake_engine");
    assert!(
        p.exists(),
        "{} is missing: cargo test builds it",
        p.display()
    );
    p
}

/// A path in this run's temporary folder. The folder is emptied once per run: its name holds
/// the process id, which an earlier run may have had, and a records file left by that run would
/// be refused (the runner never overwrites records).
pub(crate) fn temp(name: &str) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("moulin-match-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    });
    dir.join(name)
}

/// The moulin binary as a command, its cache folder one where nothing is installed
/// (`crate::shared::moulin`): a match adjudicates by the installed tables by default, and the
/// tests' games must not depend on the machine's.
pub(crate) fn command() -> Command {
    crate::shared::moulin()
}

pub(crate) fn run(args: &[&str]) -> Output {
    let out = command().args(args).output().unwrap();
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Runs `moulin` with `args`, checks that it succeeded and returns its standard output.
pub(crate) fn run_ok(args: &[&str]) -> String {
    let out = run(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    stdout
}

/// Checks a match summary: all `games` played, and neither engine forfeited.
pub(crate) fn played_all_without_forfeits(stdout: &str, games: u32) {
    let (w, d, l) = wdl(stdout);
    assert_eq!(w + d + l, games, "{stdout}");
    assert!(stdout.contains("Forfeits: turn 0, action 0"), "{stdout}");
}

/// The standard output of a match (against an engine given `flags`) that succeeded with these
/// `forfeits` (`good 0, bad 4`).
pub(crate) fn succeeded_with_forfeits(out: &Output, flags: &str, forfeits: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{flags}: {stdout}");
    assert!(
        stdout.contains(&format!("Forfeits: {forfeits}")),
        "{flags}: {stdout}"
    );
    stdout
}

/// The numbers of the summary line `W x  D y  L z`.
pub(crate) fn wdl(stdout: &str) -> (u32, u32, u32) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("W "))
        .unwrap_or_else(|| panic!("no W/D/L line in:\n{stdout}"));
    let n: Vec<u32> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

/// The results lines of a summary (a match's or a replay's), from the W/D/L line to the pairs.
pub(crate) fn results_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("W "))
        .take_while(|l| !l.starts_with("Ends: "))
        .map(str::to_string)
        .collect()
}

pub(crate) fn replay_ok(records: &Path, games: usize) {
    let text = std::fs::read_to_string(records).unwrap();
    let text = text.trim_start_matches('\u{feff}');
    let lines = text.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(lines, games, "{text}");
    let stdout = run_ok(&["replay", records.to_str().unwrap()]);
    assert!(
        stdout.contains(&format!("{games} consistent, 0 failed")),
        "{stdout}"
    );
    // Replay adds the results up as the match did.
    let (w, d, l) = wdl(&stdout);
    assert_eq!((w + d + l) as usize, games, "{stdout}");
    assert!(
        stdout.contains("Score: ") && stdout.contains("Elo difference"),
        "{stdout}"
    );
}

/// A match of `games` in `variant` between the fake engine given `turn_flags` in the turn
/// notation (`turn`) and the one given `action_flags` in the action notation (`action`), 5 ms a
/// move, with `extra` flags and its records in `records`. Checks that every game was played,
/// that neither engine forfeited and that the records replay; returns the standard output.
pub(crate) fn turn_against_action(
    turn_flags: &str,
    action_flags: &str,
    variant: &str,
    games: u32,
    extra: &[&str],
    records: &Path,
) -> String {
    let f = fake();
    let a = format!("name=turn cmd=\"{} {turn_flags}\"", f.display());
    let b = format!(
        "name=action cmd=\"{} {action_flags}\" notation=action",
        f.display()
    );
    let games_text = games.to_string();
    let mut args = vec![
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--variant",
        variant,
        "--games",
        &games_text,
        "--movetime",
        "5",
        // Generous: these tests are about consistency, and CI shares two cores.
        "--grace",
        "2000",
        "--records",
        records.to_str().unwrap(),
    ];
    args.extend(extra);
    let stdout = run_ok(&args);
    played_all_without_forfeits(&stdout, games);
    replay_ok(records, games as usize);
    stdout
}
