//! The tools' files under a kill and a full disk (`src/durable/`): a `book build` or an
//! `openings` run killed with SIGKILL resumes from its journal to the file an uninterrupted run
//! writes; a second run on the same journal is refused while the first runs; a full filesystem
//! (a small tmpfs mounted in a private mount namespace, `unshare -m`, which needs root: CI runs
//! as root) stops a build with a clear error, leaves every earlier file whole, and the build
//! resumes once there is room.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::book::format;
use moulin::Rules;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn moulin() -> &'static str {
    env!("CARGO_BIN_EXE_moulin")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    crate::shared::moulin().args(args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn run_ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stderr(&out)
}

fn spawn(args: &[&str]) -> Child {
    crate::shared::moulin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The lines of a journal after its header (none when there is no journal yet).
fn journal_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .skip(1)
        .map(String::from)
        .collect()
}

/// Waits until the journal holds `n` lines, then kills the run with SIGKILL; the run must still
/// be running then (else the test proves nothing).
fn kill_after(child: &mut Child, journal: &Path, n: usize) {
    let started = Instant::now();
    while journal_lines(journal).len() < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its journal held {n} lines"
        );
        assert!(started.elapsed() < Duration::from_mins(1), "no journal");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}

/// A book's position lines: what two builds with the same settings agree on.
fn entries(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| l.contains(" | "))
        .map(String::from)
        .collect()
}

#[test]
fn a_killed_book_build_resumes_to_the_same_book() {
    let dir = temp_dir("book-kill");
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let args = |book: &str| {
        let mut a = vec![
            "book", "build", "--plies", "4", "--depth", "5", "--hash", "1",
        ];
        a.extend(["--threads", "1", "--out"]);
        a.push(book);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let whole = out("whole.book");
    let killed = out("killed.book");
    let journal = dir.join("killed.book.partial");
    let lock = dir.join("killed.book.partial.lock");
    let killed_args = args(&killed);
    let killed_args: Vec<&str> = killed_args.iter().map(String::as_str).collect();

    let mut child = spawn(&killed_args);
    kill_after(&mut child, &journal, 30);
    // Two builds never share a journal: the lock of a running build refuses a second one.
    let mut first = spawn(&killed_args);
    let holder = format!("{}\n", first.id());
    // The lock names the resumed build once it has taken it over from the killed one.
    while std::fs::read_to_string(&lock).unwrap_or_default() != holder {
        assert!(
            first.try_wait().unwrap().is_none(),
            "the resumed build ended without taking the lock"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let second = run(&killed_args);
    let e = stderr(&second);
    assert!(
        !second.status.success() && e.contains("is held by process"),
        "{e}"
    );
    assert!(e.contains(&first.id().to_string()), "{e}");
    // Killed again, after a line cut short (as a kill in the middle of a write leaves it).
    kill_after(&mut first, &journal, journal_lines(&journal).len() + 10);
    assert!(
        !Path::new(&killed).exists(),
        "no book before the build ends"
    );
    assert!(lock.exists(), "a killed build leaves its lock");
    let cut = "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1";
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str(cut);
    std::fs::write(&journal, &text).unwrap();
    let mut again = spawn(&killed_args);
    kill_after(&mut again, &journal, journal_lines(&journal).len() + 5);
    // The cut line was cut off: every line of the journal is a whole entry.
    for line in journal_lines(&journal) {
        format::parse_line(&line, &Rules::nine()).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    // The last resume takes the dead build's lock over and finishes the book.
    let log = run_ok(&killed_args);
    assert!(
        log.contains("taken over") && log.contains("entries resumed"),
        "{log}"
    );
    assert!(
        !journal.exists() && !lock.exists(),
        "journal and lock removed"
    );
    let whole_args = args(&whole);
    run_ok(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(entries(Path::new(&killed)), entries(Path::new(&whole)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A book of openings as an earlier run of `openings --out` left it.
const OLD_OPENINGS: &str = "# moulin opening book, an earlier run\nd6\n";

#[test]
fn a_killed_openings_run_resumes_to_the_same_file() {
    let dir = temp_dir("openings-kill");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (whole, killed) = (path("whole.txt"), path("killed.txt"));
    let args = |out: &str| -> Vec<String> {
        let mut a = vec![
            "openings",
            "--engine",
            moulin(),
            "--plies",
            "2",
            "--depth",
            "7",
        ];
        a.extend(["--out", out]);
        a.into_iter().map(String::from).collect()
    };
    let killed_args = args(&killed);
    let killed_args: Vec<&str> = killed_args.iter().map(String::as_str).collect();
    // An old file at --out (of an earlier run: `openings` replaces no other kind of file) stays
    // whole until the new one replaces it.
    std::fs::write(&killed, OLD_OPENINGS).unwrap();
    let journal = dir.join("killed.txt.partial");
    let mut child = spawn(&killed_args);
    kill_after(&mut child, &journal, 10);
    assert_eq!(std::fs::read_to_string(&killed).unwrap(), OLD_OPENINGS);
    let done = journal_lines(&journal).len();
    let log = run_ok(&killed_args);
    assert!(log.contains(&format!("{done} searches resumed")), "{log}");
    assert!(!journal.exists());
    let whole_args = args(&whole);
    run_ok(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        std::fs::read_to_string(&killed).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    // Numbers at the edge are refused with their bounds, before anything is started.
    for (flag, value, bounds) in [
        ("--plies", "100", "1..=6"),
        ("--depth", "100000", "1..=64"),
        ("--search-timeout", "18446744073709551615", "1..=86400000"),
    ] {
        let out = run(&["openings", "--engine", moulin(), flag, value]);
        let e = stderr(&out);
        assert!(
            out.status.code() == Some(2) && e.contains(bounds),
            "{flag}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the full-disk script does, in a private mount namespace, on a 64 KB tmpfs at `$1`
/// (`$2` the binary, `$3` where results are copied out): each step's stderr and exit code, and
/// a listing of the filesystem after it, land in `$3/<step>.err`, `.rc`, `.ls`.
const FULL_DISK: &str = r#"
set -u
mnt=$1; bin=$2; res=$3
mount -t tmpfs -o size=64k tmpfs "$mnt" || exit 90
book() { "$bin" book build --plies 4 --depth 3 --hash 1 --threads 1 --out "$mnt/b.book" "$@"; }
step() {
  name=$1; shift
  "$@" 2>"$res/$name.err"; echo $? >"$res/$name.rc"; ls -a "$mnt" >"$res/$name.ls"
}
# Fills the disk, then frees $1 bytes.
fill() {
  rm -f "$mnt/fill"; dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
  truncate -s "-$1" "$mnt/fill"
}
fill 0;  step nothing-free book
fill 4K; step one-page-free book
fill 8K; step mid-build book
cp "$mnt/b.book.partial" "$res/mid-build.partial"
rm "$mnt/fill"; step resumed book
cp "$mnt/b.book" "$res/resumed.book"
printf '# moulin opening book, an earlier run\nd6\n' >"$mnt/o.txt"
fill 0; step openings "$bin" openings --engine "$bin" --plies 3 --depth 1 --out "$mnt/o.txt"
cp "$mnt/o.txt" "$res/openings.txt"
"#;

#[test]
fn a_full_disk_stops_the_build_loses_nothing_and_the_build_resumes() {
    let dir = temp_dir("full-disk");
    let (mnt, res) = (dir.join("mnt"), dir.join("res"));
    std::fs::create_dir_all(&mnt).unwrap();
    std::fs::create_dir_all(&res).unwrap();
    let status = Command::new("unshare")
        .args(["-m", "sh", "-c", FULL_DISK, "sh"])
        .args([&mnt, Path::new(moulin()), &res])
        .status()
        .expect("this test needs unshare (util-linux) to mount a small tmpfs");
    assert!(
        status.success(),
        "the full-disk script failed ({status}): it needs root to mount a tmpfs in a private \
         mount namespace (unshare -m), as CI has"
    );
    let step = |name: &str| {
        let read = |ext: &str| std::fs::read_to_string(res.join(format!("{name}.{ext}"))).unwrap();
        (read("rc").trim().to_string(), read("err"), read("ls"))
    };
    // No room at all, then room for the lock only: a clear error, and nothing left behind
    // that would block the next run (no journal, no lock, no temporary file).
    for name in ["nothing-free", "one-page-free"] {
        let (rc, err, ls) = step(name);
        assert!(
            rc == "1" && err.contains("No space left on device"),
            "{name}: {err}"
        );
        assert!(!ls.contains("b.book"), "{name}: {ls}");
    }
    // Room for a few journal lines: the build stops at the first failed write, naming the
    // journal; the journal holds whole entries only (the cut line is dropped on resume).
    let (rc, err, ls) = step("mid-build");
    assert!(
        rc == "1" && err.contains("cannot write the journal"),
        "{err}"
    );
    assert!(err.contains("No space left on device"), "{err}");
    assert!(
        ls.contains("b.book.partial") && !ls.contains("b.book\n"),
        "{ls}"
    );
    let partial = std::fs::read_to_string(res.join("mid-build.partial")).unwrap();
    assert!(partial.lines().count() > 10, "{partial}");
    // With room again the build resumes, to the book an uninterrupted build writes.
    let (rc, err, ls) = step("resumed");
    assert!(rc == "0" && err.contains("entries resumed"), "{err}");
    assert!(!ls.contains("partial") && !ls.contains(".lock"), "{ls}");
    let whole = dir.join("whole.book");
    let whole_text = whole.to_str().unwrap();
    run_ok(&[
        "book", "build", "--plies", "4", "--depth", "3", "--hash", "1", "--out", whole_text,
    ]);
    assert_eq!(entries(&res.join("resumed.book")), entries(&whole));
    // `openings --out` on a full disk: an error, and the old file as it was (the old code cut
    // it to the 4 KB that fitted).
    let (rc, err, _) = step("openings");
    assert!(
        rc == "1" && err.contains("No space left on device"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(res.join("openings.txt")).unwrap(),
        OLD_OPENINGS
    );
    let _ = std::fs::remove_dir_all(&dir);
}
