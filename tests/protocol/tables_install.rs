//! Packing and installing a set through the binary when things go wrong: a pack into a folder
//! that another run holds is refused naming that run's process, one into a folder of the user's
//! is refused unless `--force`, an install killed at any moment leaves a whole set in place and
//! the next run removes what it left, and a place that cannot take the set is refused before the
//! set is checked.

use super::harness::{scratch, shared};
use super::tables::{moulin, three_a_side};
use crate::shared::listing as names;
use ::moulin::job_progress::Silent;
use ::moulin::tables::pack::{self, folder::SetLock};
use ::moulin::Rules;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `moulin tables pack` of the 3-a-side tables into `out`, with `extra` flags.
pub(super) fn pack(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "tables",
        "pack",
        "--dir",
        three_a_side().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    moulin(&args)
}

/// A fresh folder `name` for a test.
fn fresh(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_pack_into_a_folder_another_run_holds_is_refused_naming_its_process() {
    let _gate = shared();
    let place = fresh("pack-held");
    let out = place.join("packed");
    let held = SetLock::take(&out).unwrap();
    let o = pack(&out, &[]);
    let e = stderr(&o);
    assert!(!o.status.success(), "both packed: {e}");
    assert!(
        e.contains(&format!("locked by process {}", std::process::id())),
        "{e}"
    );
    drop(held);
    let o = pack(&out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&place), ["packed"]);
}

#[test]
fn a_pack_into_a_folder_of_the_users_is_refused_unless_forced() {
    let _gate = shared();
    let out = fresh("pack-users");
    std::fs::write(out.join("manifest.txt"), "my own list\n").unwrap();
    let o = pack(&out, &[]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("manifest.txt") && e.contains("--force"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("manifest.txt")).unwrap(),
        "my own list\n"
    );
    assert_eq!(names(&out), ["manifest.txt"], "nothing written");
    std::fs::rename(out.join("manifest.txt"), out.join("list.txt")).unwrap();
    let o = pack(&out, &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("list.txt")).unwrap(),
        "my own list\n"
    );
    pack::verify(&out, &Rules::nine(), &Silent).unwrap();
}

/// `moulin tables install <from> --to <to>`, started.
fn start_install(from: &Path, to: &Path) -> std::process::Child {
    crate::shared::moulin()
        .args(["tables", "install", from.to_str().unwrap(), "--to"])
        .arg(to)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// An install killed (SIGKILL) at moments spread over its run, again and again: after each
/// kill the folder holds a whole set (the one before or the new one), and the next run that
/// completes leaves nothing else beside it.
#[test]
fn a_killed_install_leaves_a_whole_set_and_the_next_run_removes_its_leftovers() {
    let _gate = shared();
    let place = fresh("install-killed");
    let from = place.join("from");
    let o = pack(&from, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let to = place.join("packed");
    let rules = Rules::nine();
    // One whole run, timed: the kills land within its length.
    let start = Instant::now();
    let status = start_install(&from, &to).wait().unwrap();
    assert!(status.success());
    let whole_run = start.elapsed();
    let (mut killed, mut left) = (0, 0);
    for i in 0..24u32 {
        let mut child = start_install(&from, &to);
        std::thread::sleep(whole_run * i / 20);
        if child.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = child.kill();
        child.wait().unwrap();
        pack::verify(&to, &rules, &Silent)
            .unwrap_or_else(|e| panic!("killed after {:?}: {e}", whole_run * i / 20));
        left += names(&place)
            .iter()
            .filter(|n| n.starts_with(".packed.") && *n != ".packed.lock")
            .count();
    }
    assert!(killed >= 10, "only {killed} kills landed in a run");
    println!(
        "a run {whole_run:?}: {killed} kills landed in one, {left} times a copy or a set moved \
         aside was left beside the set"
    );
    let o = moulin(&[
        "tables",
        "install",
        from.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&place), ["from", "packed"], "leftovers stay");
    pack::verify(&to, &rules, &Silent).unwrap();
}

#[test]
fn an_install_where_nothing_can_be_written_is_refused_before_the_set_is_checked() {
    let _gate = shared();
    let place = fresh("install-nowhere");
    let from = place.join("from");
    assert!(pack(&from, &[]).status.success());
    let start = Instant::now();
    let o = moulin(&[
        "tables",
        "install",
        from.to_str().unwrap(),
        "--to",
        "/proc/self/moulin-packed",
    ]);
    let e = stderr(&o);
    assert!(!o.status.success() && e.contains("cannot write in"), "{e}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("checksum"), "checked first: {out}");
    assert!(start.elapsed() < Duration::from_secs(5));
}

/// A pack killed at moments spread over its run leaves, at worst, a folder without a manifest
/// and a table's temporary file; the next pack removes the temporary files (a planted one of a
/// process that no longer runs as well) and finishes the set.
#[test]
fn a_killed_packs_temporary_files_are_removed_by_the_next_pack() {
    let _gate = shared();
    let place = fresh("pack-killed");
    let out = place.join("packed");
    let start = Instant::now();
    assert!(pack(&out, &[]).status.success());
    let whole_run = start.elapsed();
    for i in 0..12u32 {
        let mut child = crate::shared::moulin()
            .args(["tables", "pack", "--dir"])
            .arg(three_a_side())
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(whole_run * i / 10);
        let _ = child.kill();
        child.wait().unwrap();
        if out.join("manifest.txt").exists() {
            pack::verify(&out, &Rules::nine(), &Silent).unwrap();
        }
    }
    let planted = out.join("moving/.3-3.pk.4194999.0123456789abcdef.tmp");
    std::fs::write(&planted, vec![1u8; 10_000]).unwrap();
    let o = pack(&out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        names(&out.join("moving")),
        ["3-3.pk"],
        "temporary files stay"
    );
    assert_eq!(names(&place), ["packed"]);
    pack::verify(&out, &Rules::nine(), &Silent).unwrap();
}
