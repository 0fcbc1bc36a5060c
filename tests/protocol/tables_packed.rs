//! A packed set through the binary: `moulin tables pack`, `verify` and `install`, and
//! `TablesPath` on the set, which answers as the tables it was made from; a damaged or foreign
//! set is refused with one line naming the file, and an install leaves a set in place alone
//! until the new one is sound.

use super::harness::{scratch, shared, Engine};
use super::tables::{moulin, three_a_side};
use std::path::Path;

fn text(o: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `moulin tables verify --dir <dir>` with `extra` flags.
fn verify(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["tables", "verify", "--dir", dir.to_str().unwrap()];
    args.extend(extra);
    moulin(&args)
}

/// `moulin tables install <from> --to <to>`.
fn install(from: &Path, to: &Path) -> std::process::Output {
    moulin(&[
        "tables",
        "install",
        from.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
    ])
}

/// The set of the 3-a-side tables, packed once into `name`.
pub(crate) fn packed(name: &str) -> std::path::PathBuf {
    let out = scratch(name);
    let _ = std::fs::remove_dir_all(&out);
    let o = super::tables_install::pack(&out, &[]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stdout.contains("1 tables packed, 0 kept") && stdout.contains("bytes of values in"),
        "{stdout}"
    );
    out
}

/// What the engine answers in `fen` with `TablesPath` set to `dir`: its `info string tables`
/// line and its move.
fn answer(dir: &Path, fen: &str) -> (Vec<String>, String) {
    let mut e = Engine::start();
    let set = e.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    e.ask(&format!("position fen {fen}"));
    let lines = e.go("go depth 20");
    e.quit();
    let mut said: Vec<String> = set.into_iter().filter(|l| l.contains("error")).collect();
    said.extend(
        lines
            .iter()
            .filter(|l| l.starts_with("info string tables"))
            .cloned(),
    );
    (said, lines.last().unwrap().clone())
}

#[test]
fn a_packed_set_is_verified_installed_and_answers_as_its_tables() {
    let _gate = shared();
    let set = packed("packed-set");
    let o = verify(&set, &["--sample", "500"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stdout.contains("every checksum right") && stdout.contains("the set is sound"),
        "{stdout}"
    );
    let to = scratch("packed-installed");
    let _ = std::fs::remove_dir_all(&to);
    let o = install(&set, &to);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stdout.contains(&format!("installed in {}", to.display())),
        "{stdout}"
    );
    for fen in [
        "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20",
        "O*O*O***/@*@*@***/******** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20",
    ] {
        let unpacked = answer(three_a_side(), fen);
        assert!(!unpacked.0.is_empty(), "{unpacked:?}");
        assert_eq!(answer(&to, fen), unpacked, "{fen}");
    }
}

#[test]
fn a_damaged_or_foreign_set_is_refused_naming_the_file_and_an_install_keeps_the_old_one() {
    let _gate = shared();
    let set = packed("packed-damaged");
    let to = scratch("packed-kept");
    let _ = std::fs::remove_dir_all(&to);
    let o = install(&set, &to);
    assert!(o.status.success(), "{}", text(&o).1);
    // Altered: one byte of the table's last frame.
    let table = set.join("moving/3-3.pk");
    let mut bytes = std::fs::read(&table).unwrap();
    let at = bytes.len() - 5;
    bytes[at] ^= 0x40;
    std::fs::write(&table, &bytes).unwrap();
    let o = verify(&set, &[]);
    let (_, stderr) = text(&o);
    assert!(!o.status.success());
    assert!(
        stderr.contains("3-3.pk") && stderr.contains("altered"),
        "{stderr}"
    );
    let o = install(&set, &to);
    let (_, stderr) = text(&o);
    assert!(!o.status.success() && stderr.contains("3-3.pk"), "{stderr}");
    // The set installed before is still there, whole.
    let o = verify(&to, &[]);
    assert!(o.status.success(), "{}", text(&o).1);
    // Foreign: the set serves nine's rules, not twelve's; the engine says so in one line and
    // plays on without it.
    let o = verify(&to, &["--variant", "twelve"]);
    let (_, stderr) = text(&o);
    assert!(
        !o.status.success() && stderr.contains("made for other rules"),
        "{stderr}"
    );
    let mut e = Engine::start();
    e.ask(&format!("setoption name TablesPath value {}", to.display()));
    let lines = e.ask("setoption name Variant value twelve");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].contains("manifest.txt") && errors[0].contains("other rules"),
        "{lines:?}"
    );
    e.ask("position startpos");
    let lines = e.go("go depth 3");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    e.quit();
    // A folder of other things is never replaced.
    let other = scratch("packed-other-things");
    let _ = std::fs::remove_dir_all(&other);
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let o = install(&to, &other);
    let (_, stderr) = text(&o);
    assert!(
        !o.status.success() && stderr.contains("notes.txt, which is not a packed set's"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(other.join("notes.txt")).unwrap(),
        "mine"
    );
    // A set packed into the tables' own folder is refused.
    let d = three_a_side().to_str().unwrap();
    let o = moulin(&["tables", "pack", "--dir", d, "--out", d]);
    let (_, stderr) = text(&o);
    assert!(
        !o.status.success() && stderr.contains("folder of its own"),
        "{stderr}"
    );
    // Not a set at all.
    let o = install(three_a_side(), &to);
    let (_, stderr) = text(&o);
    assert!(
        !o.status.success() && stderr.contains("not a packed set"),
        "{stderr}"
    );
}

/// `moulin tables install` without `--to` puts the set where the engine looks when `TablesPath`
/// is empty: the engine started afterwards answers from it; `TablesPath none` goes without.
#[test]
fn an_installed_set_is_the_engines_tables_by_default() {
    let _gate = shared();
    let set = packed("packed-default");
    let cache = scratch("packed-default-cache");
    let _ = std::fs::remove_dir_all(&cache);
    let o = crate::shared::moulin()
        .args(["tables", "install", set.to_str().unwrap()])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    let installed = cache.join("moulin/tables/nine/packed");
    assert!(
        stdout.contains(&format!("installed in {}", installed.display())),
        "{stdout}"
    );
    let win = "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";
    let go = |args: &[&str]| {
        let mut e = Engine::start_with_cache(args, &cache);
        e.ask(&format!("position fen {win}"));
        let lines = e.go("go depth 6");
        e.quit();
        lines
    };
    let lines = go(&[]);
    assert!(
        lines.contains(&"info string tables win dtc 1".to_string()),
        "{lines:?}"
    );
    // Other draw rules, or Lasker's game (the same moving phase): the same set serves.
    for rule in ["NoCapture=40", "Variant=lasker"] {
        let lines = go(&["--option", rule]);
        assert!(
            lines.contains(&"info string tables win dtc 1".to_string()),
            "{rule}: {lines:?}"
        );
    }
    // A cache of 1 MB: the same answer, its blocks unpacked again more often.
    let lines = go(&["--option", "TablesCache=1"]);
    assert!(
        lines.contains(&"info string tables win dtc 1".to_string()),
        "{lines:?}"
    );
    let lines = go(&["--option", "TablesPath=none"]);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string tables")),
        "{lines:?}"
    );
}

/// The built solution of the standard game: `$MOULIN_TABLES`, by default
/// `~/.cache/moulin/tables/nine`.
fn whole_solution() -> std::path::PathBuf {
    std::env::var_os("MOULIN_TABLES").map_or_else(
        || {
            let home = std::env::var_os("HOME").unwrap_or_default();
            Path::new(&home).join(".cache/moulin/tables/nine")
        },
        std::path::PathBuf::from,
    )
}

/// What `moulin args` prints, the command having succeeded.
fn printed(args: &[&str]) -> String {
    let o = moulin(args);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{args:?}: {stderr}");
    stdout
}

/// The whole game's set against the build it comes from: packed (or the pack resumed) into
/// `packed` beside the build, then the same value and move on 1,000 positions of every table
/// and group, `tests/data/placing-values.txt` made again from the set byte for byte, and the
/// same grades of the sample game with the set as with the build.
#[test]
#[ignore = "needs the whole solution of nine (moulin tables build --pieces 9, then --placing); packs it first"]
fn the_whole_games_set_plays_and_grades_as_its_build() {
    let built = whole_solution();
    let set = built.join("packed");
    let (b, s) = (built.to_str().unwrap(), set.to_str().unwrap());
    println!("{}", printed(&["tables", "pack", "--dir", b, "--out", s]));
    let held = printed(&[
        "tables",
        "verify",
        "--dir",
        s,
        "--against",
        b,
        "--sample",
        "1000",
    ]);
    println!("{held}");
    assert!(
        held.contains("(0 differ in value or move)")
            && held.contains("(0 differ in value or a move's value)"),
        "{held}"
    );
    let values = printed(&["tables", "placing-values", "--dir", s, "--plies", "5"]);
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/placing-values.txt"
    ))
    .unwrap();
    assert!(
        values == committed,
        "placing-values from the set differ from the committed file"
    );
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analyse-sample.pgn");
    let graded = |tables: &str| printed(&["analyse", sample, "--depth", "6", "--tables", tables]);
    assert_eq!(graded(s), graded(b));
}

/// What a packed set cannot be is said as it is: a table that is a named pipe or a folder, a
/// command that reads built tables given a set, `--placing` on a set without a placing solution.
#[test]
fn a_set_is_named_as_what_it_is_by_every_command() {
    let _gate = shared();
    let set = packed("set-said");
    // `solve` reads a set's moving tables as the built ones: this one lacks 3-4, and that is
    // what it says (before: "no endgame tables in" the set).
    let solved = moulin(&["solve", "--tables", set.to_str().unwrap(), "--moves", "d6"]);
    let (_, stderr) = text(&solved);
    assert!(
        !stderr.contains("no endgame tables") && stderr.contains("no endgame table 3-4"),
        "{stderr}"
    );
    // `tables stats` reads built tables: a set is named as one.
    let stats = moulin(&["tables", "stats", "--dir", set.to_str().unwrap()]);
    let (_, stderr) = text(&stats);
    assert!(
        !stats.status.success() && stderr.contains("is a packed set"),
        "{stderr}"
    );
    // This set has no placing solution: `--placing` has nothing to check, and says so.
    let placing = verify(&set, &["--placing"]);
    let (stdout, stderr) = text(&placing);
    assert!(
        placing.status.code() == Some(2)
            && stderr.contains("holds no whole placing solution")
            && !stdout.contains("sound"),
        "{stdout}{stderr}"
    );
    // A table that is a named pipe or a folder is no table cut short.
    let table = set.join("moving").join("3-3.pk");
    for (kind, make) in [("a named pipe", "mkfifo"), ("a folder", "mkdir")] {
        std::fs::remove_file(&table)
            .or_else(|_| std::fs::remove_dir(&table))
            .unwrap();
        let made = std::process::Command::new(make)
            .arg(&table)
            .status()
            .unwrap();
        assert!(made.success());
        let mut e = Engine::start();
        let said = e.ask(&format!(
            "setoption name TablesPath value {}",
            set.display()
        ));
        let said = [said, e.ask("isready")].concat();
        e.quit();
        assert!(
            said.iter()
                .any(|l| l.contains(&format!("{kind}, not a regular file"))),
            "{kind}: {said:?}"
        );
        let checked = verify(&set, &[]);
        let (_, stderr) = text(&checked);
        assert!(
            stderr.contains(&format!("{kind}, not a regular file")),
            "{stderr}"
        );
    }
}
