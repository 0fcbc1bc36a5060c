//! A packed set put in its folder (`moulin tables install`), so that a kill, a full disk or a
//! power cut at any moment leaves either the set that was there or the new one, whole, and
//! never a folder without a set:
//!
//! 1. `Install::prepare`, before the long work: the folder's lock (`folder::SetLock`), the
//!    leftovers of a killed install removed (a set it had moved aside put back first, if the
//!    folder is missing), the source a set, the destination missing, empty or a set (anything
//!    else is refused: it would be removed), and a folder made beside it that the copy goes into
//!    (`.<name>.installing-<pid>`), on a file system with room for the whole set;
//! 2. the caller checks the source whole (`pack::verify` and its sample), which takes minutes on
//!    the whole game's set;
//! 3. `Install::put`: every file copied and flushed to disk, the copy's folders flushed, the copy
//!    checked against its manifest (`pack::verify`), then put in place in one step: on Linux,
//!    `renameat2(RENAME_EXCHANGE)` swaps the copy and the set before it (both names always hold
//!    a whole set); the folder they are in is flushed, and only then is the set before (now at
//!    the copy's name) removed. Where the system cannot swap two folders (not Linux, a file
//!    system without it), the set before is renamed aside (`.<name>.replaced-<pid>`) and the
//!    copy renamed in: a kill between the two leaves no set at that name, which the next run
//!    puts back (step 1).
//!
//! The engine that has the set before open keeps reading it: a file removed while mapped stays
//! readable until unmapped.

use super::folder::{self, Advice, SetError, SetLock, MANIFEST};
use super::manifest::{self, Manifest};
use super::verify::verify;
use crate::durable;
use crate::job_progress::{Progress, Silent};
use crate::rules::Rules;
use std::ffi::CString;
use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The staging folder's kind, in `.<name>.<kind>-<pid>`.
const INSTALLING: &str = "installing";
/// The kind of a set moved aside while the copy goes in (where no swap is possible).
const REPLACED: &str = "replaced";

/// An install prepared: the destination held and checked, the copy's folder made.
#[derive(Debug)]
pub struct Install {
    from: PathBuf,
    to: PathBuf,
    staging: PathBuf,
    manifest: Manifest,
    _lock: SetLock,
}

/// How the new set was put in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    /// Nothing was there: the copy renamed in.
    New,
    /// Swapped with the set before in one step (`renameat2(RENAME_EXCHANGE)`).
    Swapped,
    /// The set before renamed aside, then the copy renamed in (no swap on this system).
    Renamed,
}

/// A leftover of a killed install found by `Install::prepare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// A set moved aside, put back where it was (nothing was there).
    PutBack(PathBuf),
    /// A copy or a set moved aside, removed (its bytes).
    Removed(PathBuf, u64),
}

impl Drop for Install {
    /// The copy's folder goes (after `put`, nothing is left at its name, or the set before,
    /// swapped out): an install refused or failed leaves nothing beside the set.
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.staging);
    }
}

/// The bytes of the files under `path` (a folder or a file), not following links.
fn bytes_under(path: &Path) -> u64 {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    fs::read_dir(path).map_or(0, |entries| {
        entries.flatten().map(|e| bytes_under(&e.path())).sum()
    })
}

/// The leftovers of killed installs beside the set folder `to` (held by its lock, so no running
/// install made them): a set moved aside is put back when `to` is missing, then every copy and
/// every set moved aside is removed.
fn tidy(to: &Path) -> Result<Vec<Leftover>, SetError> {
    let (parent, name) = folder::parent_and_name(to);
    let mut prefixes = Vec::new();
    for kind in [INSTALLING, REPLACED] {
        let mut p = b".".to_vec();
        p.extend_from_slice(name.as_bytes());
        p.extend_from_slice(format!(".{kind}-").as_bytes());
        prefixes.push(p);
    }
    let Ok(entries) = fs::read_dir(&parent) else {
        return Ok(Vec::new());
    };
    let mut found: Vec<(PathBuf, bool)> = entries
        .flatten()
        .filter_map(|e| {
            let n = e.file_name();
            let kind = prefixes.iter().position(|p| n.as_bytes().starts_with(p))?;
            Some((e.path(), kind == 1))
        })
        .collect();
    found.sort();
    let mut done = Vec::new();
    let tidy_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SetError::Tidy { path, source }
    };
    if fs::symlink_metadata(to).is_err() {
        let aside = found
            .iter()
            .position(|(p, replaced)| *replaced && manifest::is_set(p));
        if let Some(i) = aside {
            let (path, _) = found.remove(i);
            fs::rename(&path, to).map_err(tidy_error(&path))?;
            durable::sync_folder(&parent).map_err(tidy_error(&parent))?;
            log::warn!(
                "{}: the set an install had moved aside when it was stopped: put back in {}",
                path.display(),
                to.display()
            );
            done.push(Leftover::PutBack(path));
        }
    }
    for (path, _) in found {
        let bytes = bytes_under(&path);
        let removed = if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        };
        removed.map_err(tidy_error(&path))?;
        log::warn!(
            "{}: left by an install that was stopped ({bytes} bytes): removed",
            path.display()
        );
        done.push(Leftover::Removed(path, bytes));
    }
    Ok(done)
}

/// Swaps the folders `a` and `b` in one step (`renameat2(RENAME_EXCHANGE)`); an error of kind
/// `Unsupported` where the system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both paths are NUL-terminated strings that outlive the call; AT_FDCWD resolves
    // relative ones from the working directory, as std's rename does.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        return Ok(());
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP) => {
            Err(io::Error::new(io::ErrorKind::Unsupported, e))
        }
        _ => Err(e),
    }
}

/// No swap of two folders in one step off Linux.
#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

impl Install {
    /// Prepares the install of the set `from` (its folder) in the folder `to`, before any long
    /// work: `to`'s lock, the leftovers of killed installs (`tidy`, whose findings are
    /// returned), `from` a set, `to` nothing, an empty folder or a set, and a folder beside `to`
    /// that the copy goes into, on a file system with room for the whole set.
    pub fn prepare(from: &Path, to: &Path) -> Result<(Install, Vec<Leftover>), SetError> {
        if !manifest::is_set(from) {
            return Err(SetError::NotASet {
                dir: from.to_path_buf(),
            });
        }
        let lock = SetLock::take(to)?;
        let leftovers = tidy(to)?;
        folder::holds(to, Advice::NewFolder)?;
        let manifest = Manifest::read(from)?;
        let staging = folder::beside(to, &format!("{INSTALLING}-{}", std::process::id()));
        let (parent, _) = folder::parent_and_name(to);
        fs::create_dir(&staging).map_err(|source| SetError::Unwritable {
            dir: parent.clone(),
            source,
        })?;
        let install = Install {
            from: from.to_path_buf(),
            to: to.to_path_buf(),
            staging,
            manifest,
            _lock: lock,
        };
        let need = install.bytes();
        let free = crate::durable::free_bytes(&parent).map_err(|source| SetError::Unwritable {
            dir: parent.clone(),
            source,
        })?;
        if free < need {
            return Err(SetError::NoSpace {
                dir: parent,
                need,
                free,
            });
        }
        Ok((install, leftovers))
    }

    /// The set's manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The bytes of the set's files.
    pub fn bytes(&self) -> u64 {
        self.manifest.files.iter().map(|f| f.size).sum()
    }

    /// Copies the set, checks the copy and puts it in place (the module's step 3); `progress`
    /// counts the bytes copied. On an error, the copy is removed and what was in place stays.
    pub fn put(self, rules: &Rules, progress: &dyn Progress) -> Result<Placed, SetError> {
        progress.stage(self.bytes(), 0, "copying ", "bytes");
        let copied = self.copy(rules, progress);
        progress.finish();
        copied.and_then(|()| self.swap())
    }

    /// Every file of the set copied into the staging folder and flushed to disk, the folders
    /// flushed, the copy checked.
    fn copy(&self, rules: &Rules, progress: &dyn Progress) -> Result<(), SetError> {
        let names = self
            .manifest
            .files
            .iter()
            .map(|f| f.key.file_name())
            .chain([MANIFEST.to_string()]);
        for name in names {
            let (src, dst) = (self.from.join(&name), self.staging.join(&name));
            let fail = |source| SetError::Copy {
                from: src.clone(),
                to: dst.clone(),
                source,
            };
            if let Some(p) = dst.parent() {
                fs::create_dir_all(p).map_err(fail)?;
            }
            let mut input = crate::input_file::open_regular(&src).map_err(fail)?;
            let mut output = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&dst)
                .map_err(fail)?;
            let n = io::copy(&mut input, &mut output).map_err(fail)?;
            output.sync_all().map_err(fail)?;
            progress.advance(n);
        }
        for dir in folder::SUBFOLDERS
            .iter()
            .map(|s| self.staging.join(s))
            .chain([self.staging.clone()])
        {
            if dir.exists() {
                durable::sync_folder(&dir)
                    .map_err(|source| SetError::Tidy { path: dir, source })?;
            }
        }
        verify(&self.staging, rules, &Silent)?;
        Ok(())
    }

    /// The checked copy put in place, the folder flushed, then the set before removed.
    fn swap(&self) -> Result<Placed, SetError> {
        let (parent, _) = folder::parent_and_name(&self.to);
        let fail = |source| SetError::Swap {
            dir: self.to.clone(),
            source,
        };
        let sync = || {
            durable::sync_folder(&parent).map_err(|source| SetError::Tidy {
                path: parent.clone(),
                source,
            })
        };
        if fs::symlink_metadata(&self.to).is_err() {
            fs::rename(&self.staging, &self.to).map_err(fail)?;
            sync()?;
            return Ok(Placed::New);
        }
        let (placed, old) = match exchange(&self.staging, &self.to) {
            Ok(()) => (Placed::Swapped, self.staging.clone()),
            Err(e) if e.kind() == io::ErrorKind::Unsupported => {
                let aside = folder::beside(&self.to, &format!("{REPLACED}-{}", std::process::id()));
                fs::rename(&self.to, &aside).map_err(fail)?;
                if let Err(e) = fs::rename(&self.staging, &self.to) {
                    // The set before goes back where it was.
                    let _ = fs::rename(&aside, &self.to);
                    return Err(fail(e));
                }
                (Placed::Renamed, aside)
            }
            Err(e) => return Err(fail(e)),
        };
        // The new set's name on disk before the old one's files go.
        sync()?;
        fs::remove_dir_all(&old).map_err(|source| SetError::Tidy {
            path: old.clone(),
            source,
        })?;
        sync()?;
        Ok(placed)
    }
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
