//! Files that are not the user's to lose, through the binary: an output is never one of the
//! command's inputs nor another output, however the two paths are spelt (`./x`, a symbolic
//! link); `analyse --html` never replaces a file unasked and checks its path before the
//! analysis; nothing is left behind by a refused command; and a link planted where a
//! temporary file or a lock is made (`<out>.tmp`, `<out>.partial.lock`) never sends a write
//! to the file it points to (`src/durable/`); an output goes only over a regular file (a named
//! pipe or a folder there is refused by name). The match's files are in
//! `tests/match/records.rs`.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use crate::shared::listing;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn moulin() -> &'static str {
    env!("CARGO_BIN_EXE_moulin")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs moulin in `dir` (so that relative paths are spelt as a user types them) with the words
/// of `line`, then `extra` (paths that may hold spaces).
fn run_in(dir: &Path, line: &str, extra: &[&str]) -> Output {
    Command::new(moulin())
        .current_dir(dir)
        .args(line.split_whitespace())
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Checks that the command was refused with a message holding every one of `words`.
fn refused(out: &Output, words: &[&str]) {
    let e = stderr(out);
    assert!(!out.status.success(), "not refused: {e}");
    for w in words {
        assert!(e.contains(w), "'{w}' not in: {e}");
    }
}

const GAME: &str = "[Event \"a game\"]\n\n1. d6 f4 2. d2 b4 *\n";

#[test]
fn analyse_html_is_never_the_record_nor_a_file_unasked() {
    let dir = temp_dir("html");
    std::fs::write(dir.join("g.pgn"), GAME).unwrap();
    symlink("g.pgn", dir.join("link.html")).unwrap();
    let analyse = |flags: &str| run_in(&dir, &format!("analyse g.pgn --depth 1 {flags}"), &[]);
    // The record itself, however named, even with --force.
    let up = format!("../{}/g.pgn", dir.file_name().unwrap().to_string_lossy());
    for html in ["g.pgn", "./g.pgn", "link.html", &up] {
        for force in ["", "--force"] {
            let out = analyse(&format!("--html {html} {force}"));
            refused(&out, &["--html", "same file", "record"]);
            assert_eq!(std::fs::read_to_string(dir.join("g.pgn")).unwrap(), GAME);
        }
    }
    // An existing page is kept unless --force.
    std::fs::write(dir.join("page.html"), "mine\n").unwrap();
    let out = analyse("--html page.html");
    refused(&out, &["page.html", "exists", "--force"]);
    let page = || std::fs::read_to_string(dir.join("page.html")).unwrap();
    assert_eq!(page(), "mine\n");
    let out = analyse("--html page.html --force");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(page().starts_with("<!DOCTYPE html>"), "{}", page());
    // A path that cannot be written is said before the analysis: a search of 60 s a position
    // would take minutes.
    let started = Instant::now();
    let out = analyse("--movetime 60000 --html no-such-folder/page.html");
    refused(&out, &["no-such-folder/page.html"]);
    assert!(started.elapsed() < Duration::from_secs(20));
    // --position has no game to draw: refused, nothing written.
    let position = "analyse --position --depth 1 --moves d6";
    let out = run_in(&dir, position, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_in(&dir, position, &["--html", "position.html"]);
    refused(&out, &["--html", "--position"]);
    // Refused runs leave nothing behind (no page, no temporary file).
    std::fs::write(dir.join("bad.pgn"), "1. d6 d6 *\n").unwrap();
    let out = run_in(&dir, "analyse bad.pgn --html bad.html", &[]);
    assert!(!out.status.success());
    let left = listing(&dir);
    assert_eq!(left, ["bad.pgn", "g.pgn", "link.html", "page.html"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_output_is_an_input_of_the_same_command() {
    let dir = temp_dir("inputs");
    std::fs::write(dir.join("g.pgn"), GAME).unwrap();
    std::fs::write(dir.join("from.txt"), "d6\nd7\n").unwrap();
    // train fit --out over its labels (enough of them to fit).
    let label = "train label --positions 300 --depth 1 --no-tables --threads 1";
    let out = run_in(&dir, &format!("{label} --out labels.txt"), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let labels = std::fs::read_to_string(dir.join("labels.txt")).unwrap();
    let out = run_in(
        &dir,
        "train fit --labels labels.txt --out ./labels.txt",
        &[],
    );
    refused(&out, &["--out", "same file", "--labels"]);
    let now = std::fs::read_to_string(dir.join("labels.txt")).unwrap();
    assert_eq!(now, labels);
    // train label --out over one of its games.
    let out = run_in(&dir, &format!("{label} --games g.pgn --out g.pgn"), &[]);
    refused(&out, &["--out", "same file", "--games"]);
    assert_eq!(std::fs::read_to_string(dir.join("g.pgn")).unwrap(), GAME);
    // openings --out over its --from file, through a link.
    symlink("from.txt", dir.join("book.txt")).unwrap();
    let openings = "openings --from from.txt --depth 1 --out book.txt --engine";
    let out = run_in(&dir, openings, &[moulin()]);
    refused(&out, &["--out", "same file", "--from"]);
    let from = std::fs::read_to_string(dir.join("from.txt")).unwrap();
    assert_eq!(from, "d6\nd7\n");
    let left = listing(&dir);
    assert_eq!(left, ["book.txt", "from.txt", "g.pgn", "labels.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plants links to `victim` at every name a writer of `out` used or might be guessed to use.
fn plant(out: &Path, victim: &Path) {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let dir = out.parent().unwrap();
    for planted in [
        format!("{name}.tmp"),
        format!(".{name}.tmp"),
        format!("{name}.partial.tmp"),
    ] {
        symlink(victim, dir.join(planted)).unwrap();
    }
}

const VICTIM: &str = "the user's own file\n";

/// Checks that the victim is untouched and that `out` is a file of its own.
fn untouched(victim: &Path, out: &Path) {
    assert_eq!(std::fs::read_to_string(victim).unwrap(), VICTIM);
    let meta = std::fs::symlink_metadata(out).unwrap();
    assert!(
        meta.file_type().is_file(),
        "{} is not a file",
        out.display()
    );
}

#[test]
fn planted_links_never_redirect_a_write() {
    let dir = temp_dir("links");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, VICTIM).unwrap();
    // openings --out.
    let openings = dir.join("o.txt");
    plant(&openings, &victim);
    let line = "openings --plies 1 --depth 1 --out o.txt --engine";
    let out = run_in(&dir, line, &[moulin()]);
    assert!(out.status.success(), "{}", stderr(&out));
    untouched(&victim, &openings);
    // book build.
    let book = dir.join("b.book");
    plant(&book, &victim);
    let build = "book build --plies 1 --depth 1 --hash 1 --threads 1 --out";
    let out = run_in(&dir, build, &["b.book"]);
    assert!(out.status.success(), "{}", stderr(&out));
    untouched(&victim, &book);
    // The tables' writer, and its log of costs.
    let tables = dir.join("tables");
    std::fs::create_dir(&tables).unwrap();
    plant(&tables.join("3-3.tbl"), &victim);
    symlink(&victim, tables.join("costs.txt")).unwrap();
    let line = "tables build --files --pieces 3 --threads 1 --dir tables";
    let out = run_in(&dir, line, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    untouched(&victim, &tables.join("3-3.tbl"));
    // The same, where a build keeps its tables packed.
    let packed = dir.join("packed/compact/moving");
    std::fs::create_dir_all(&packed).unwrap();
    plant(&packed.join("3-3.pk"), &victim);
    let line = "tables build --pieces 3 --threads 1 --dir packed";
    let out = run_in(&dir, line, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    untouched(&victim, &packed.join("3-3.pk"));
    // A link planted as a journal's lock is refused, not cut and written through.
    symlink(&victim, dir.join("l.book.partial.lock")).unwrap();
    let out = run_in(&dir, build, &["l.book"]);
    refused(&out, &["l.book.partial.lock"]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), VICTIM);
    assert!(!dir.join("l.book").exists());
    // No temporary file is left (the planted links are links, not files).
    let left: Vec<String> = listing(&dir)
        .into_iter()
        .filter(|n| Path::new(n).extension().is_some_and(|e| e == "tmp"))
        .filter(|n| std::fs::symlink_metadata(dir.join(n)).is_ok_and(|m| m.is_file()))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Makes a named pipe at `path`.
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Whether `path` is still a named pipe.
fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// An output goes only over a regular file: a named pipe (or a link to one) or a folder there is
/// refused by name before any work, even with `--force`, and left as it was. The rename went
/// over a named pipe before, and would have gone over a device such as `/dev/null` (the check is
/// the same; `src/durable/` tests that a device is named as such).
#[test]
fn an_output_goes_only_over_a_regular_file() {
    let dir = temp_dir("special");
    std::fs::write(dir.join("g.pgn"), GAME).unwrap();
    mkfifo(&dir.join("pipe.html"));
    symlink("pipe.html", dir.join("link.html")).unwrap();
    std::fs::create_dir(dir.join("folder.html")).unwrap();
    for (html, kind) in [
        ("pipe.html", "is a named pipe"),
        ("link.html", "is a named pipe"),
        ("folder.html", "is a folder"),
    ] {
        let out = run_in(
            &dir,
            &format!("analyse g.pgn --depth 1 --force --html {html}"),
            &[],
        );
        refused(&out, &["--html", html, kind]);
    }
    assert!(is_fifo(&dir.join("pipe.html")));
    assert!(std::fs::symlink_metadata(dir.join("link.html"))
        .unwrap()
        .is_symlink());
    // openings --out: the same check.
    mkfifo(&dir.join("o.txt"));
    let line = "openings --plies 1 --depth 1 --out o.txt --engine";
    let out = run_in(&dir, line, &[moulin()]);
    refused(&out, &["--out", "o.txt", "is a named pipe"]);
    assert!(is_fifo(&dir.join("o.txt")));
    let left = listing(&dir);
    assert_eq!(
        left,
        ["folder.html", "g.pgn", "link.html", "o.txt", "pipe.html"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tables opening --out` and `train net --out` replace a file only of their own kind (an
/// opening's solution, a network: their first bytes) unless `--force`, and say so before any
/// work: a user's document there is kept.
#[test]
fn a_writer_replaces_only_its_own_kind_of_file_unless_forced() {
    let dir = temp_dir("own-kind");
    std::fs::create_dir_all(dir.join("no-tables")).unwrap();
    let letter = "Dear reader,\n";
    for (line, own) in [
        (
            "tables opening --plies 2 --dir no-tables --out",
            &b"MOULOPN1 and the rest"[..],
        ),
        (
            "train net --tables no-tables --out",
            &b"MOULNNUE and the rest"[..],
        ),
    ] {
        std::fs::write(dir.join("letter.txt"), letter).unwrap();
        let out = run_in(&dir, line, &["letter.txt"]);
        refused(&out, &["--out", "letter.txt", "is not", "--force"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("letter.txt")).unwrap(),
            letter
        );
        // A file of its own kind, or --force: the check passes, and the command goes on to
        // find no solution in the empty folder.
        std::fs::write(dir.join("own.bin"), own).unwrap();
        for extra in [&["own.bin"][..], &["letter.txt", "--force"][..]] {
            let out = run_in(&dir, line, extra);
            refused(&out, &["no placing solution"]);
        }
        assert_eq!(listing(&dir), ["letter.txt", "no-tables", "own.bin"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every other writer of a file the user names (`openings --out`, `book cover --out`, `book
/// exact --prune`, `train critical --out`, `train fit --out`) refuses a file that is not of its
/// own kind unless `--force`, before any work, and leaves it as it was.
#[test]
fn every_writer_refuses_a_file_not_of_its_kind_before_any_work() {
    let dir = temp_dir("not-own");
    let letter = "Dear reader,\n";
    std::fs::write(dir.join("letter.txt"), letter).unwrap();
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/book/nine.book");
    std::fs::write(
        dir.join("labels.txt"),
        "# moulin label journal: variant nine depth 13 seed 1\n",
    )
    .unwrap();
    for (line, extra) in [
        (
            "openings --plies 1 --depth 1 --out letter.txt --engine",
            moulin(),
        ),
        (
            "book cover --tables t --openings o.txt --out letter.txt",
            book,
        ),
        ("book exact --tables t --prune letter.txt", book),
        ("train critical --draw 10 --out letter.txt", ""),
        ("train fit --labels labels.txt --out letter.txt", ""),
    ] {
        let extra: Vec<&str> = [extra].into_iter().filter(|e| !e.is_empty()).collect();
        let started = Instant::now();
        let out = run_in(&dir, line, &extra);
        refused(&out, &["letter.txt", "is not", "--force"]);
        assert!(started.elapsed() < Duration::from_secs(10), "{line}");
        assert_eq!(
            std::fs::read_to_string(dir.join("letter.txt")).unwrap(),
            letter,
            "{line}"
        );
    }
    assert_eq!(listing(&dir), ["labels.txt", "letter.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}
