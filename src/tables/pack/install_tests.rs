//! A set's folder held by its writers: one pack or install at a time, nothing but a set's own
//! files replaced, a re-pack never leaves the old manifest over new files, and the leftovers of
//! a killed pack or install removed by the next run; an install puts the new set in place in
//! one step and refuses a place that cannot take it before the long work.

use super::super::folder::{self, prepare_pack, SetError, MANIFEST};
use super::super::tests::{built, game, pack_into};
use super::{Install, Leftover, Placed};
use crate::job_progress::{Progress, Silent};
use crate::tables::pack;
use crate::tables::packed_table::Cut;
use crate::tables::Tables;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The names in the folder `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

/// A process id that runs no process (the largest the system gives, plus one).
fn dead_pid() -> u32 {
    std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok())
        .unwrap_or(4_194_304)
        + 1
}

/// A pack's progress that checks, at each table written, that no manifest lists the set's
/// files, and counts the tables.
struct Watch<'a>(&'a Path, AtomicUsize);

impl Progress for Watch<'_> {
    fn stage(&self, _: u64, _: u64, _: &str, _: &str) {}
    fn advance(&self, _: u64) {
        assert!(
            !self.0.join(MANIFEST).exists(),
            "the old manifest over new files"
        );
        self.1.fetch_add(1, Ordering::Relaxed);
    }
    fn message(&self, _: &str) {}
    fn finish(&self) {}
    fn note(&self, _: &str) {}
}

#[test]
fn a_pack_refuses_a_folder_of_other_things_unless_forced_and_keeps_them() {
    let rules = game(3);
    let dir = built("pack-foreign", &rules);
    let tables = Tables::open(&dir.0, &rules).unwrap();
    // A user's own manifest.txt: refused, named, untouched.
    let out = dir.0.join("mine");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(MANIFEST), "my shopping list\n").unwrap();
    let e = prepare_pack(&out, false).unwrap_err();
    assert!(matches!(e, SetError::Foreign { .. }), "{e:?}");
    let e = e.to_string();
    assert!(e.contains(MANIFEST) && e.contains("--force"), "{e}");
    assert_eq!(
        std::fs::read_to_string(out.join(MANIFEST)).unwrap(),
        "my shopping list\n"
    );
    // Other files beside: refused; with --force the set is packed and they are kept.
    std::fs::remove_file(out.join(MANIFEST)).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let e = prepare_pack(&out, false).unwrap_err().to_string();
    assert!(e.contains("notes.txt"), "{e}");
    let held = prepare_pack(&out, true).unwrap();
    pack::pack(&tables, &rules, &held, false, Cut::DEFAULT, &Silent).unwrap();
    drop(held);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    pack::verify(&out, &rules, &Silent).unwrap();
    // A file where the folder should be.
    let file = dir.0.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let e = prepare_pack(&file, true).unwrap_err();
    assert!(matches!(e, SetError::NotAFolder { .. }), "{e:?}");
    // A set, or a set's folder without its manifest (a pack stopped early), is the pack's own.
    let set_dir = dir.0.join("set");
    pack_into(&tables, &rules, &set_dir);
    pack_into(&tables, &rules, &set_dir);
    std::fs::remove_file(set_dir.join(MANIFEST)).unwrap();
    pack_into(&tables, &rules, &set_dir);
}

#[test]
fn two_packs_of_one_folder_the_second_is_refused_naming_the_first() {
    let rules = game(3);
    let dir = built("pack-locked", &rules);
    let out = dir.0.join("packed");
    let first = prepare_pack(&out, false).unwrap();
    let e = prepare_pack(&out, false).unwrap_err();
    assert!(matches!(e, SetError::Locked { .. }), "{e:?}");
    let e = e.to_string();
    assert!(
        e.contains(&format!("locked by process {}", std::process::id())),
        "{e}"
    );
    // An install into it as well.
    let tables = Tables::open(&dir.0, &rules).unwrap();
    let other = dir.0.join("other");
    pack_into(&tables, &rules, &other);
    let e = Install::prepare(&other, &out).unwrap_err().to_string();
    assert!(e.contains("locked by process"), "{e}");
    drop(first);
    // The lock goes with its run: nothing is left beside the folder.
    pack_into(&tables, &rules, &out);
    assert_eq!(
        names(&dir.0).iter().filter(|n| n.starts_with('.')).count(),
        0
    );
}

#[test]
fn a_repack_drops_the_old_manifest_first_and_removes_a_killed_packs_temporary_file() {
    let rules = game(3);
    let dir = built("pack-again", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    pack_into(&tables, &rules, &out);
    // What a pack killed while writing a table leaves: the table's temporary file.
    let temp = out.join(format!(
        "moving/.3-3.pk.{}.0123456789abcdef.tmp",
        dead_pid()
    ));
    std::fs::write(&temp, vec![7u8; 100_000]).unwrap();
    // And a lock file of the killed run (its lock went with its process).
    std::fs::write(folder::beside(&out, "lock"), format!("{}\n", dead_pid())).unwrap();
    let held = prepare_pack(&out, false).unwrap();
    assert!(
        !temp.exists(),
        "the temporary file of a killed pack is removed"
    );
    // While the tables are written again, no manifest lists them: a pack stopped partway
    // leaves a folder that nothing takes for a set.
    let watch = Watch(&out, AtomicUsize::new(0));
    pack::pack(&tables, &rules, &held, false, Cut::DEFAULT, &watch).unwrap();
    assert!(watch.1.load(Ordering::Relaxed) > 0);
    drop(held);
    pack::verify(&out, &rules, &Silent).unwrap();
    assert_eq!(names(&out.join("moving")), ["3-3.pk"]);
    assert!(!names(&dir.0).iter().any(|n| n.starts_with(".packed")));
}

/// The set of `game(3)` packed into `name` beside the build in `dir`.
fn a_set(dir: &Path, name: &str) -> PathBuf {
    let rules = game(3);
    let tables = Tables::open(dir, &rules).unwrap();
    let out = dir.join(name);
    pack_into(&tables, &rules, &out);
    out
}

#[test]
fn an_install_swaps_the_set_in_one_step_and_a_killed_ones_leftovers_go() {
    let rules = game(3);
    let dir = built("install-swap", &rules);
    let from = a_set(&dir.0, "from");
    let place = dir.0.join("place");
    std::fs::create_dir_all(&place).unwrap();
    let to = place.join("packed");
    let (install, found) = Install::prepare(&from, &to).unwrap();
    assert!(found.is_empty());
    assert_eq!(install.put(&rules, &Silent).unwrap(), Placed::New);
    assert_eq!(names(&place), ["packed"]);
    let (install, _) = Install::prepare(&from, &to).unwrap();
    let placed = install.put(&rules, &Silent).unwrap();
    assert!(
        matches!(placed, Placed::Swapped | Placed::Renamed),
        "{placed:?}"
    );
    assert_eq!(names(&place), ["packed"], "nothing left beside the set");
    pack::verify(&to, &rules, &Silent).unwrap();

    // What killed installs leave: a copy cut short, a set moved aside, their lock.
    let dead = dead_pid();
    let copy = place.join(format!(".packed.installing-{dead}"));
    std::fs::create_dir_all(copy.join("moving")).unwrap();
    std::fs::write(copy.join("moving/3-3.pk"), vec![0u8; 50_000]).unwrap();
    let aside = place.join(format!(".packed.replaced-{}", dead - 1));
    copy_set(&to, &aside);
    std::fs::write(place.join(".packed.lock"), format!("{dead}\n")).unwrap();
    let (install, found) = Install::prepare(&from, &to).unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|l| matches!(l, Leftover::Removed(..))));
    install.put(&rules, &Silent).unwrap();
    assert_eq!(names(&place), ["packed"]);

    // Killed between moving the set aside and renaming the copy in (where no swap is
    // possible): no set at its name; the next run puts it back before anything else.
    std::fs::rename(&to, &aside).unwrap();
    let (install, found) = Install::prepare(&from, &to).unwrap();
    assert_eq!(found, vec![Leftover::PutBack(aside.clone())]);
    pack::verify(&to, &rules, &Silent).unwrap();
    drop(install);
    assert_eq!(
        names(&place),
        ["packed"],
        "a refused or dropped install leaves nothing"
    );
}

/// A copy of the set `from` at `to`.
fn copy_set(from: &Path, to: &Path) {
    for sub in ["", "moving", "placing"] {
        std::fs::create_dir_all(to.join(sub)).unwrap();
        for e in std::fs::read_dir(from.join(sub)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), to.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
}

#[test]
fn an_install_refuses_a_place_that_cannot_take_it_or_holds_other_things_at_once() {
    let rules = game(3);
    let dir = built("install-refused", &rules);
    let from = a_set(&dir.0, "from");
    // A place where no file can be made (a read-only file system: root can write anywhere
    // else).
    let e = Install::prepare(&from, Path::new("/proc/self/moulin-packed")).unwrap_err();
    assert!(matches!(e, SetError::Unwritable { .. }), "{e:?}");
    // A folder of other things: refused, kept.
    let other = dir.0.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let e = Install::prepare(&from, &other).unwrap_err().to_string();
    assert!(
        e.contains("notes.txt") && e.contains("not a packed set's"),
        "{e}"
    );
    assert_eq!(names(&other), ["notes.txt"]);
    // A set with a file of the user's inside: not replaced (it would be removed).
    let to = a_set(&dir.0, "to");
    std::fs::write(to.join("moving/notes.txt"), "mine").unwrap();
    let e = Install::prepare(&from, &to).unwrap_err().to_string();
    assert!(e.contains("notes.txt"), "{e}");
    // Not a set.
    let e = Install::prepare(&dir.0, &other).unwrap_err();
    assert!(matches!(e, SetError::NotASet { .. }), "{e:?}");
    assert!(!names(&dir.0).iter().any(|n| n.starts_with('.')));
}

#[test]
fn an_install_to_a_link_replaces_the_link_and_leaves_what_it_pointed_to() {
    let rules = game(3);
    let dir = built("install-link", &rules);
    let from = a_set(&dir.0, "from");
    let elsewhere = dir.0.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let real = elsewhere.join("real");
    std::fs::rename(a_set(&dir.0, "real"), &real).unwrap();
    let place = dir.0.join("place");
    std::fs::create_dir_all(&place).unwrap();
    let to = place.join("packed");
    std::os::unix::fs::symlink(&real, &to).unwrap();
    let (install, _) = Install::prepare(&from, &to).unwrap();
    install.put(&rules, &Silent).unwrap();
    assert!(!std::fs::symlink_metadata(&to).unwrap().is_symlink());
    pack::verify(&to, &rules, &Silent).unwrap();
    pack::verify(&real, &rules, &Silent).unwrap();
    assert_eq!(names(&place), ["packed"]);
    assert_eq!(names(&elsewhere), ["real"]);
}
