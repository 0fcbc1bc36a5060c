//! Tests of `src/durable/`: atomic writes, the checks of a command's files, journals and
//! their locks.

use super::atomic::{create_temp, write_atomic_with};
use super::*;
use crate::input_file::{not_regular, NotRegular};
use crate::rng::Rng;
use std::fs;
use std::io::Write;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("moulin-durable-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn atomic_write_replaces_whole_and_leaves_no_temporary() {
    let d = dir("atomic");
    let p = d.join("out.txt");
    write_atomic(&p, b"old\n").unwrap();
    write_atomic(&p, b"new\n").unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"new\n");
    assert_eq!(names(&d), ["out.txt"]);
    let e = write_atomic(&d.join("missing/out.txt"), b"x").unwrap_err();
    assert!(e.to_string().contains("cannot write"), "{e}");
    let _ = fs::remove_dir_all(&d);
}

/// The names in `d`, sorted.
fn names(d: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_link_at_the_temporary_name_is_passed_over() {
    let d = dir("planted");
    let victim = d.join("victim");
    fs::write(&victim, b"mine").unwrap();
    let p = d.join("out.txt");
    // The first name this stream draws is taken by a link to the victim: as if guessed.
    let (f, first) = create_temp(&p, &mut Rng::new(42)).unwrap();
    drop(f);
    fs::remove_file(&first).unwrap();
    std::os::unix::fs::symlink(&victim, &first).unwrap();
    write_atomic_with(&p, &[b"new"], &mut Rng::new(42)).unwrap();
    assert_eq!(fs::read(&victim).unwrap(), b"mine");
    assert_eq!(fs::read(&p).unwrap(), b"new");
    assert!(fs::symlink_metadata(&first).unwrap().is_symlink());
    assert_eq!(names(&d).len(), 3, "{:?}", names(&d));
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn an_output_is_never_an_input_nor_another_output() {
    let d = dir("check");
    let input = d.join("in.txt");
    fs::write(&input, "in").unwrap();
    std::os::unix::fs::symlink(&input, d.join("link")).unwrap();
    fs::hard_link(&input, d.join("hard")).unwrap();
    let spelt = d.join("sub/../in.txt");
    fs::create_dir(d.join("sub")).unwrap();
    for same in [
        input.clone(),
        d.join("link"),
        d.join("hard"),
        d.join("./in.txt"),
    ] {
        let e = check_files(&[
            CommandFile::reads("--from", &input),
            CommandFile::writes("--out", &same),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("--out ") && e.contains("same file as --from"),
            "{e}"
        );
    }
    assert!(check_files(&[
        CommandFile::reads("--from", &input),
        CommandFile::writes("--out", &spelt),
    ])
    .is_err());
    // Two outputs not there yet, spelt two ways; two inputs may be one file.
    let (a, b) = (d.join("new.txt"), d.join("sub/../new.txt"));
    let e = check_files(&[
        CommandFile::writes("--a", &a),
        CommandFile::writes("--b", &b),
    ]);
    assert!(e.unwrap_err().to_string().contains("--b"));
    check_files(&[
        CommandFile::reads("--x", &input),
        CommandFile::reads("--y", &spelt),
        CommandFile::writes("--out", &a),
    ])
    .unwrap();
    // A file that must be new, a folder, a folder that is not there.
    let e = check_files(&[CommandFile {
        what: "--html",
        path: &input,
        role: Role::Creates("give --force to replace it"),
    }])
    .unwrap_err()
    .to_string();
    assert!(e.contains("already exists: give --force"), "{e}");
    let e = check_files(&[CommandFile::writes("--out", &d.join("sub"))]).unwrap_err();
    assert!(e.to_string().contains("is a folder"), "{e}");
    let e = check_files(&[CommandFile::writes("--out", &d.join("none/x"))]).unwrap_err();
    assert!(
        e.to_string().contains("cannot make a file in the folder '"),
        "{e}"
    );
    // Nothing is left by the checks.
    assert_eq!(names(&d), ["hard", "in.txt", "link", "sub"]);
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn an_output_of_its_own_kind_is_replaced_and_another_file_only_with_force() {
    const OWN: Own = Own {
        magic: b"MAGIC",
        name: "a test file",
    };
    let d = dir("own");
    let (ours, theirs, none) = (d.join("ours"), d.join("theirs"), d.join("none"));
    fs::write(&ours, b"MAGIC and more").unwrap();
    fs::write(&theirs, b"MAGI").unwrap();
    for (path, force, refused) in [
        (&none, false, false),
        (&ours, false, false),
        (&theirs, false, true),
        (&theirs, true, false),
    ] {
        let r = check_files(&[CommandFile::replaces_own("--out", path, OWN, force)]);
        assert_eq!(r.is_err(), refused, "{path:?} {force}: {r:?}");
        if let Err(e) = r {
            let e = e.to_string();
            assert!(
                e.contains("is not a test file") && e.contains("--force"),
                "{e}"
            );
        }
    }
    assert_eq!(names(&d), ["ours", "theirs"]);
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn a_temporary_file_names_its_maker_and_no_other_name_does() {
    let d = dir("temp-maker");
    let (_f, tmp) = create_temp(&d.join("t.pk"), &mut Rng::new(7)).unwrap();
    let name = tmp.file_name().unwrap();
    assert_eq!(temp_maker(name), Some(std::process::id()));
    for other in [
        "t.pk",
        ".t.pk.tmp",
        ".t.pk.12.0123.tmp",
        ".t.pk.x1.0123456789abcdef.tmp",
        "t.pk.12.0123456789abcdef.tmp",
    ] {
        assert_eq!(temp_maker(std::ffi::OsStr::new(other)), None, "{other}");
    }
    let _ = fs::remove_dir_all(&d);
}

/// A named pipe at `path`.
fn fifo(path: &Path) -> PathBuf {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
    path.to_path_buf()
}

#[test]
fn what_is_not_a_regular_file_is_named() {
    let d = dir("kinds");
    let file = d.join("file");
    fs::write(&file, "x").unwrap();
    let pipe = fifo(&d.join("pipe"));
    let kind = |p: &Path| not_regular(&fs::metadata(p).unwrap());
    assert_eq!(kind(&file), None);
    assert_eq!(kind(&pipe), Some("a named pipe"));
    assert_eq!(kind(&d), Some("a folder"));
    assert_eq!(kind(Path::new("/dev/null")), Some("a character device"));
    let link = d.join("link");
    std::os::unix::fs::symlink(&pipe, &link).unwrap();
    assert_eq!(
        not_regular(&fs::symlink_metadata(&link).unwrap()),
        Some("a symbolic link")
    );
    // Read: opened at once (a named pipe without a writer), then refused by name.
    let read_to_string = |p: &Path| crate::input_file::read_to_string(p, 1 << 20);
    assert_eq!(read_to_string(&file).unwrap(), "x");
    for (p, what) in [
        (&pipe, "a named pipe"),
        (&link, "a named pipe"),
        (&d, "a folder"),
        (&PathBuf::from("/dev/zero"), "a character device"),
    ] {
        let e = read_to_string(p).unwrap_err();
        assert_eq!(NotRegular::kind_in(&e), Some(what), "{e}");
        assert_eq!(e.to_string(), format!("it is {what}, not a regular file"));
    }
    assert_eq!(
        NotRegular::kind_in(&read_to_string(&d.join("none")).unwrap_err()),
        None
    );
    let _ = fs::remove_dir_all(&d);
}

/// An output goes only over a regular file: a rename over a named pipe replaced it (and would
/// have replaced `/dev/null` as root). Devices are checked by `check_files` only, which
/// refuses them before it makes anything; `write_atomic` is tried on named pipes, a link to
/// one and a folder, never on a real device.
#[test]
fn an_output_goes_only_over_a_regular_file() {
    let d = dir("special");
    let pipe = fifo(&d.join("pipe"));
    let link = d.join("link");
    std::os::unix::fs::symlink(&pipe, &link).unwrap();
    fs::create_dir(d.join("sub")).unwrap();
    for (p, what) in [
        (&pipe, "a named pipe"),
        (&link, "a named pipe"),
        (&d.join("sub"), "a folder"),
    ] {
        let e = write_atomic(p, b"new").unwrap_err().to_string();
        assert!(
            e.contains(&format!("it is {what}, not a regular file")),
            "{e}"
        );
        let e = check_files(&[CommandFile::writes("--out", p)])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--out '") && e.contains(&format!("is {what},")),
            "{e}"
        );
    }
    assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    let e = check_files(&[CommandFile::writes("--html", Path::new("/dev/null"))]);
    let e = e.unwrap_err().to_string();
    assert!(e.contains("'/dev/null' is a character device"), "{e}");
    // A link to a regular file is replaced by the new file, as before; the file it named is
    // kept.
    let kept = d.join("kept");
    fs::write(&kept, "mine").unwrap();
    let to_kept = d.join("to-kept");
    std::os::unix::fs::symlink(&kept, &to_kept).unwrap();
    write_atomic(&to_kept, b"new").unwrap();
    assert_eq!(fs::read(&kept).unwrap(), b"mine");
    assert_eq!(fs::read(&to_kept).unwrap(), b"new");
    assert_eq!(names(&d), ["kept", "link", "pipe", "sub", "to-kept"]);
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn a_named_pipe_as_a_journal_or_a_lock_is_refused_at_once() {
    let d = dir("journal-pipe");
    let p = d.join("job.partial");
    fifo(&p);
    let e = Journal::open(&p, "test", "a 1").unwrap_err().to_string();
    assert!(e.contains("a named pipe, not a regular file"), "{e}");
    fs::remove_file(&p).unwrap();
    fifo(&with_suffix(&p, ".lock"));
    let e = Journal::open(&p, "test", "a 1").unwrap_err().to_string();
    assert!(
        e.contains("cannot take the lock") && e.contains("a named pipe"),
        "{e}"
    );
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn a_link_at_a_lock_is_refused_not_written_through() {
    let d = dir("lock-link");
    let victim = d.join("victim");
    fs::write(&victim, "mine").unwrap();
    let lock = d.join("job.partial.lock");
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let e = Journal::open(&d.join("job.partial"), "test", "a 1").unwrap_err();
    assert!(e.to_string().contains("cannot take the lock"), "{e}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "mine");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn journal_resumes_repairs_and_refuses() {
    let d = dir("journal");
    let p = d.join("job.partial");
    let (mut j, lines) = Journal::open(&p, "test", "a 1").unwrap();
    assert!(lines.is_empty());
    // Held: a second opener is refused while the first runs.
    let e = Journal::open(&p, "test", "a 1").unwrap_err();
    assert!(e.to_string().contains("held by process"), "{e}");
    j.append("one").unwrap();
    j.append("two").unwrap();
    drop(j);
    assert!(!with_suffix(&p, ".lock").exists());
    // A cut line is dropped and cut off, so the next entry starts on a line of its own.
    fs::OpenOptions::new()
        .append(true)
        .open(&p)
        .unwrap()
        .write_all(b"thr")
        .unwrap();
    let (mut j, lines) = Journal::open(&p, "test", "a 1").unwrap();
    assert_eq!(lines, ["one", "two"]);
    j.append("three").unwrap();
    drop(j);
    let (j, lines) = Journal::open(&p, "test", "a 1").unwrap();
    assert_eq!(lines, ["one", "two", "three"]);
    drop(j);
    let e = Journal::open(&p, "test", "a 2").unwrap_err();
    assert!(
        e.to_string()
            .contains("other settings (a 1; this run: a 2)"),
        "{e}"
    );
    // A header cut short is reported as unreadable, not as other settings.
    fs::write(&p, "# moulin test jou").unwrap();
    let e = Journal::open(&p, "test", "a 1").unwrap_err().to_string();
    assert!(
        e.contains("header is unreadable") && e.contains("delete it"),
        "{e}"
    );
    fs::write(&p, "").unwrap();
    let e = Journal::open(&p, "test", "a 1").unwrap_err();
    assert!(e.to_string().contains("header is unreadable"), "{e}");
    // Finished: the journal and its lock are gone.
    fs::remove_file(&p).unwrap();
    let (j, _) = Journal::open(&p, "test", "a 1").unwrap();
    j.finish().unwrap();
    assert!(!p.exists() && !with_suffix(&p, ".lock").exists());
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn a_lock_left_by_a_dead_process_is_taken_over() {
    let d = dir("lock");
    let p = d.join("job.lock");
    // A lock file nobody holds: what a killed run leaves.
    fs::write(&p, "999999999\n").unwrap();
    let lock = Lock::take(&p).unwrap();
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        format!("{}\n", std::process::id())
    );
    drop(lock);
    assert!(!p.exists());
    let _ = fs::remove_dir_all(&d);
}
