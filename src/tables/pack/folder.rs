//! A set's folder as the commands that write one hold it (`pack` and `install`):
//!
//! - one run at a time: a lock beside the folder, `.<name>.lock` (`durable::Lock`: the process
//!   id, and a lock the system drops when the process ends however it ends), taken before
//!   anything is read or written, so that two packs, two installs, or a pack and an install of
//!   one folder never mix their files; the second is refused, naming the first's process;
//! - only its own output replaced: a folder is written into or replaced only when it is missing,
//!   empty, or holds nothing but a set's files (`moving/*.pk`, `placing/*.pk`, a manifest whose
//!   first line is a set's, the set before's manifest a stopped pack kept); anything else is
//!   refused, naming what is there;
//! - the leftovers of a killed run found by the next one, which holds the lock (so no other run
//!   is making them): a table's or a manifest's temporary file (`durable`'s
//!   `.<name>.<pid>.<random>.tmp`), a copy being installed (`.<name>.installing-<pid>`), a set
//!   moved aside (`.<name>.replaced-<pid>`).
//!
//! Below `packing` (which packs into a folder held here) and `install` (which puts a set in one).

use crate::durable::{self, DurableError};
use crate::tables::tables_error::TablesError;
use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io::{self, BufRead, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The first line of a set's manifest: what makes a `manifest.txt` a set's own.
pub const TITLE: &str = "moulin packed solution";
/// The manifest's file name in a set.
pub const MANIFEST: &str = "manifest.txt";
/// The manifest of the set a pack replaces, kept under this name from the pack's start to its
/// end (`begin_pack`, `end_pack`): a pack stopped partway leaves it, so the next one still knows
/// which tables the set before stored and removes those the new set does not.
pub const MANIFEST_BEFORE: &str = "manifest.before.txt";
/// The folders of a set's tables.
pub const SUBFOLDERS: [&str; 2] = ["moving", "placing"];

/// What to do about a folder that holds other things than a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// The command takes `--force` to write into it all the same (`tables pack`).
    Force,
    /// The command never replaces it (`tables install`, which would remove it).
    NewFolder,
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Advice::Force => {
                "name a new folder, an empty one or a set, or give --force to write into it all \
                 the same (the set's own files are replaced, the rest kept)"
            }
            Advice::NewFolder => "name a new folder, an empty one, or the set to replace",
        })
    }
}

/// What goes wrong when a set is packed into or installed in a folder: each names the folder or
/// file and the cause.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    /// Another run holds the folder's lock.
    #[error(
        "{} is locked by process {holder} (another pack or install of this set): wait for it to \
         end or stop it, then run again",
        dir.display()
    )]
    Locked {
        /// The set's folder.
        dir: PathBuf,
        /// The process id the lock file names.
        holder: String,
    },
    /// The folder holds something that is not a set's.
    #[error("{}: holds {}, which is not a packed set's: {advice}", dir.display(), entry.display())]
    Foreign {
        /// The folder.
        dir: PathBuf,
        /// The first thing found there that is not a set's (its path inside the folder).
        entry: PathBuf,
        /// What to do.
        advice: Advice,
    },
    /// What is named is not a folder (a file, a named pipe...).
    #[error("{}: not a folder: a set is a folder; name a new one", dir.display())]
    NotAFolder {
        /// The path.
        dir: PathBuf,
    },
    /// What is named as the set to install holds no manifest.
    #[error("{}: no {MANIFEST}: not a packed set", dir.display())]
    NotASet {
        /// The folder.
        dir: PathBuf,
    },
    /// The folder, or the one it is in, takes no new file (missing and not made, read-only...).
    #[error("cannot write in {}: {source}", dir.display())]
    Unwritable {
        /// The folder.
        dir: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Too little free space where the set goes.
    #[error(
        "{}: {free} bytes free, the set needs {need}: make room or name another place",
        dir.display()
    )]
    NoSpace {
        /// The folder the set is copied into.
        dir: PathBuf,
        /// The set's bytes.
        need: u64,
        /// The bytes free there.
        free: u64,
    },
    /// A file of the set cannot be copied.
    #[error("cannot copy {} to {}: {source}", from.display(), to.display())]
    Copy {
        /// The file copied.
        from: PathBuf,
        /// The copy.
        to: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The new set cannot be put in the old one's place.
    #[error("cannot put the set in {}: {source}", dir.display())]
    Swap {
        /// The set's folder.
        dir: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A leftover or an old set cannot be removed, or a folder flushed to disk.
    #[error("{}: {source}", path.display())]
    Tidy {
        /// What was removed or flushed.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A table or the manifest is unsound, or cannot be read or written.
    #[error(transparent)]
    Tables(#[from] TablesError),
    /// A file cannot be written whole.
    #[error(transparent)]
    Durable(DurableError),
}

impl From<DurableError> for SetError {
    fn from(e: DurableError) -> SetError {
        SetError::Durable(e)
    }
}

/// `dir` spelt whole (`.` or `a/..` have no name of their own): the canonical path of the folder
/// it is in, joined with its name (a link at that name stays the link: a set installed there
/// replaces the link, never what it points to), or its own canonical path when it has no name.
fn whole(dir: &Path) -> PathBuf {
    let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => fs::canonicalize(parent)
            .unwrap_or_else(|_| parent.to_path_buf())
            .join(name),
        _ => fs::canonicalize(&abs).unwrap_or(abs),
    }
}

/// The folder a set's folder is in, and its name.
pub fn parent_and_name(dir: &Path) -> (PathBuf, std::ffi::OsString) {
    let dir = whole(dir);
    let parent = dir
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    let name = dir
        .file_name()
        .map_or_else(|| "set".into(), OsStr::to_os_string);
    (parent, name)
}

/// A name beside the set's folder: `.<name>.<what>` in the folder it is in.
pub fn beside(dir: &Path, what: &str) -> PathBuf {
    let (parent, name) = parent_and_name(dir);
    let mut hidden = std::ffi::OsString::from(".");
    hidden.push(&name);
    hidden.push(".");
    hidden.push(what);
    parent.join(hidden)
}

/// The lock of a set's folder, held while a run packs into it or installs in it; dropped (the
/// lock file removed) when the run ends.
#[derive(Debug)]
pub struct SetLock {
    dir: PathBuf,
    _lock: durable::Lock,
}

impl SetLock {
    /// Takes the lock of the set folder `dir` (`.<name>.lock` beside it; the folder it is in is
    /// made if missing). A lock held by a running process is `SetError::Locked`; one left by a
    /// killed run is taken over.
    pub fn take(dir: &Path) -> Result<SetLock, SetError> {
        let (parent, _) = parent_and_name(dir);
        fs::create_dir_all(&parent).map_err(|source| SetError::Unwritable {
            dir: parent.clone(),
            source,
        })?;
        let lock = durable::Lock::take(&beside(dir, "lock")).map_err(|e| match e {
            DurableError::Held { holder, .. } => SetError::Locked {
                dir: dir.to_path_buf(),
                holder,
            },
            DurableError::Lock { source, .. } => SetError::Unwritable {
                dir: parent.clone(),
                source,
            },
            other => SetError::Durable(other),
        })?;
        Ok(SetLock {
            dir: dir.to_path_buf(),
            _lock: lock,
        })
    }

    /// The folder it locks.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// What a folder a set goes to holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Nothing is there.
    Nothing,
    /// A folder with nothing but a set's files (none at all, or a set without its manifest: a
    /// pack stopped before its end).
    Ours,
    /// A set: a set's files and its manifest.
    Set,
}

/// Whether the first line of the file `path` is a set manifest's.
fn is_manifest(path: &Path) -> bool {
    let Ok(file) = crate::input_file::open_regular(path) else {
        return false;
    };
    let mut first = Vec::new();
    let read = io::BufReader::new(file)
        .take(TITLE.len() as u64 + 2)
        .read_until(b'\n', &mut first);
    read.is_ok() && first.strip_suffix(b"\n") == Some(TITLE.as_bytes())
}

/// Whether `name`, in a set's folder or one of its subfolders, is a temporary file of a write.
fn is_temp(name: &OsStr) -> bool {
    durable::temp_maker(name).is_some()
}

/// What the folder `dir` holds, for a command about to write a set there: `SetError::Foreign`
/// (with `advice`) naming the first thing that is not a set's, `SetError::NotAFolder` when it
/// is not a folder.
pub fn holds(dir: &Path, advice: Advice) -> Result<Held, SetError> {
    let foreign = |entry: PathBuf| SetError::Foreign {
        dir: dir.to_path_buf(),
        entry: entry
            .strip_prefix(dir)
            .map_or_else(|_| entry.clone(), Path::to_path_buf),
        advice,
    };
    let unreadable = |source| SetError::Unwritable {
        dir: dir.to_path_buf(),
        source,
    };
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Held::Nothing),
        Err(e) => return Err(unreadable(e)),
        Ok(m) if !m.is_dir() => {
            return Err(SetError::NotAFolder {
                dir: dir.to_path_buf(),
            })
        }
        Ok(_) => {}
    }
    let mut held = Held::Ours;
    for entry in fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let (name, path) = (entry.file_name(), entry.path());
        let kind = entry.file_type().map_err(unreadable)?;
        if name == MANIFEST && kind.is_file() && is_manifest(&path) {
            held = Held::Set;
        } else if name == MANIFEST_BEFORE && kind.is_file() && is_manifest(&path) {
            // A stopped pack's record of the set before: ours, not a set.
        } else if SUBFOLDERS.iter().any(|s| name == *s) && kind.is_dir() {
            for inner in fs::read_dir(&path).map_err(unreadable)? {
                let inner = inner.map_err(unreadable)?;
                let is_file = inner.file_type().is_ok_and(|t| t.is_file());
                let inner_name = inner.file_name();
                let table = inner_name.as_bytes().ends_with(b".pk") && !is_temp(&inner_name);
                if !is_file || !(table || is_temp(&inner_name)) {
                    return Err(foreign(inner.path()));
                }
            }
        } else if !(kind.is_file() && is_temp(&name)) {
            return Err(foreign(path));
        }
    }
    Ok(held)
}

/// Removes the temporary files that runs other than this one left in the set folder `dir` and
/// its subfolders (a table or a manifest being written when the run was killed), held by `lock`
/// (so no other run writes there); returns their count and bytes.
pub fn remove_temporaries(lock: &SetLock) -> Result<(usize, u64), SetError> {
    let own = std::process::id();
    let mut removed = (0, 0);
    let dir = lock.dir();
    for folder in std::iter::once(dir.to_path_buf()).chain(SUBFOLDERS.map(|s| dir.join(s))) {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let maker = durable::temp_maker(&entry.file_name());
            if maker.is_none_or(|pid| pid == own) || !entry.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let path = entry.path();
            let bytes = entry.metadata().map_or(0, |m| m.len());
            fs::remove_file(&path).map_err(|source| SetError::Tidy {
                path: path.clone(),
                source,
            })?;
            log::warn!(
                "{}: a temporary file of process {}, which no longer runs ({bytes} bytes): removed",
                path.display(),
                maker.unwrap_or_default()
            );
            removed.0 += 1;
            removed.1 += bytes;
        }
    }
    Ok(removed)
}

/// Removes the packed tables `gone` (paths of tables in the set folder `dir`'s subfolders) that
/// the set listed before this pack and no longer stores (the placing groups stored are chosen
/// by their bytes, so a pack over a set may store others); returns their count and bytes. Only
/// a regular file in a subfolder that is a folder of its own (not a link to one elsewhere) is
/// removed; one that cannot be is said, not an error: the set is whole without it.
pub fn remove_dropped(dir: &Path, gone: &[PathBuf]) -> (usize, u64) {
    let mut removed = (0, 0);
    let own_folder = |p: &Path| {
        SUBFOLDERS.iter().any(|s| p == dir.join(s))
            && fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
    };
    for path in gone {
        let Ok(meta) = fs::symlink_metadata(path) else {
            continue;
        };
        if !meta.is_file() || !path.parent().is_some_and(own_folder) {
            continue;
        }
        match fs::remove_file(path) {
            Ok(()) => {
                log::info!(
                    "{}: a table the set no longer stores ({} bytes): removed",
                    path.display(),
                    meta.len()
                );
                removed.0 += 1;
                removed.1 += meta.len();
            }
            Err(e) => log::warn!(
                "{}: a table the set no longer stores, left as it is: {e}",
                path.display()
            ),
        }
    }
    removed
}

/// Holds the folder `out` for a pack: its lock taken, what it holds checked (a folder of other
/// things is refused unless `force`), the folder made and a file made and removed in it (so a
/// folder that cannot be written is said before the long work), and the temporary files of a
/// killed run removed.
pub fn prepare_pack(out: &Path, force: bool) -> Result<SetLock, SetError> {
    let lock = SetLock::take(out)?;
    match holds(out, Advice::Force) {
        Err(SetError::Foreign { .. }) if force => {}
        other => {
            other?;
        }
    }
    fs::create_dir_all(out).map_err(|source| SetError::Unwritable {
        dir: out.to_path_buf(),
        source,
    })?;
    durable::check_files(&[durable::CommandFile::writes(
        "the manifest",
        &out.join(MANIFEST),
    )])?;
    remove_temporaries(&lock)?;
    Ok(lock)
}

/// Readies the set folder `dir` for a pack's tables: its manifest, if there is one, renamed
/// `MANIFEST_BEFORE` and the rename flushed to disk (so that a pack stopped partway never leaves
/// a set's manifest over new files, and the next pack still knows what the set before stored),
/// and its subfolders made.
pub fn begin_pack(dir: &Path) -> Result<(), SetError> {
    let manifest = dir.join(MANIFEST);
    match fs::rename(&manifest, dir.join(MANIFEST_BEFORE)) {
        Ok(()) => durable::sync_folder(dir).map_err(tidy(dir))?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(tidy(&manifest)(e)),
    }
    for sub in SUBFOLDERS {
        let d = dir.join(sub);
        fs::create_dir_all(&d).map_err(tidy(&d))?;
    }
    Ok(())
}

/// Ends a pack into `dir` once its manifest is written and the tables the set before stored
/// and the new one does not are removed: the set before's manifest (`begin_pack`) removed.
pub fn end_pack(dir: &Path) -> Result<(), SetError> {
    let before = dir.join(MANIFEST_BEFORE);
    match fs::remove_file(&before) {
        Ok(()) => durable::sync_folder(dir).map_err(tidy(dir)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(tidy(&before)(e)),
    }
}

/// The error of a set folder's file or folder `path` that could not be tidied.
fn tidy(path: &Path) -> impl Fn(io::Error) -> SetError {
    let path = path.to_path_buf();
    move |source| SetError::Tidy {
        path: path.clone(),
        source,
    }
}
