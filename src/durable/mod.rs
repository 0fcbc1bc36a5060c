//! Files that a kill or a full disk cannot leave half-written, and that a command never writes
//! by mistake: every output file of the tools (`book build`, `openings`, the tables...) and the
//! journals of their long jobs go through this module.
//!
//! - `write_atomic` writes a whole file to a temporary file in the same directory, flushes it to
//!   disk (fsync), renames it over the target and flushes the directory, so that the target holds
//!   either its old content or the complete new one, even across a power cut. The temporary file
//!   is created exclusively (`create_new`, which never opens a file or a link already there)
//!   under a name nobody can guess (`.<name>.<pid>.<random>.tmp`), so that a link planted next
//!   to the target cannot send the write elsewhere. It goes only over a regular file (or a link
//!   to one): a named pipe, a device or a folder at the target is refused, as the rename would
//!   replace it (`/dev/null` itself, as root).
//! - `check_files` is what every command with several files runs before it makes any: no output
//!   is one of its inputs or another output (the same file however the paths are spelt: `./x`,
//!   a link, a hard link), an output that must be new is not there, an output that replaces only
//!   its own kind of file (`Role::ReplacesOwn`: a network, an opening's solution) finds one of
//!   that kind there (its magic bytes) or nothing, and each output's folder takes a new file; an
//!   output that is there is a regular file.
//! - `Journal` is the log of a long job's finished work: a header line naming the job and its
//!   settings (written whole or not at all, like any file above), then one line per finished
//!   item, written at once (a kill loses nothing: the system keeps what a process wrote) and
//!   flushed to disk at least every second (a power cut loses at most the last second; a flush
//!   per line, about 4 ms on the development machine, would add some 4 minutes to the shipped
//!   book's 6.5-minute build). A line cut short is dropped when the journal is opened again; a
//!   failed write is an error at once. A journal is held by one process at a time through its
//!   `Lock`.
//! - `Lock` is a lock file `<journal>.lock` created with `create_new`, holding the process id
//!   and an advisory lock (`flock`) that the system releases when the process dies: a lock left
//!   by a killed run is recognised as such and taken over; a lock of a running one is an error.
//!   Neither a lock nor a journal is opened through a symbolic link.
//! - `open_regular` opens a file a command reads without waiting (`O_NONBLOCK`), and refuses
//!   anything but a regular file (`not_regular` names it): a named pipe would make the reader
//!   wait for a writer forever, a device such as `/dev/zero` would never end.

use crate::input_file::{self, not_regular, regular, NotRegular, MAX_LINE};
use crate::rng::Rng;
use crate::text::quoted;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// `path` with `suffix` added to its file name (`book/nine.book`, `.partial`:
/// `book/nine.book.partial`).
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Checks that what is at `path` may be replaced by a rename: a regular file, a link to one, or
/// nothing (a link to nothing is replaced by the new file, as it always was). A named pipe, a
/// device or a folder would be replaced itself: refused.
fn replaceable(path: &Path) -> io::Result<()> {
    match not_replaceable(path) {
        Some(kind) => Err(NotRegular::error(kind)),
        None => Ok(()),
    }
}

/// What is at `path`, in words, when a rename must not go over it: what is not a regular file
/// (`not_regular`), and a name in the system's folders or a link into them (`/dev/stdout`, a
/// link to `/proc/self/fd/1`), which resolve to a regular file (the one a shell sent the
/// output to) but whose replacement would replace the link itself.
fn not_replaceable(path: &Path) -> Option<&'static str> {
    const SYSTEM: [&str; 3] = ["/dev", "/proc", "/sys"];
    let in_system = |p: &Path| SYSTEM.iter().any(|s| p.starts_with(s));
    if let Some(kind) = fs::metadata(path).ok().as_ref().and_then(not_regular) {
        return Some(kind);
    }
    let folder = fs::canonicalize(folder_of(path)).unwrap_or_default();
    if in_system(&folder) {
        return Some("a name in a system folder (/dev, /proc, /sys)");
    }
    match fs::read_link(path) {
        Ok(target) if in_system(&target) => Some("a link into a system folder (/dev, /proc, /sys)"),
        _ => None,
    }
}

/// Flushes the directory holding `path` to disk, so that a rename or a removal in it survives a
/// power cut.
fn sync_dir(path: &Path) -> io::Result<()> {
    File::open(folder_of(path))?.sync_all()
}

/// What went wrong with a file written to survive a kill: each names the file and, where the
/// system gave one, its error.
#[derive(Debug, thiserror::Error)]
pub enum DurableError {
    /// A file could not be written (the disk is full, the folder is missing or read-only...).
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A lock file could not be made or locked.
    #[error("cannot take the lock {}: {source}", path.display())]
    Lock {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Another running process holds the lock (its process id, as written in the file).
    #[error(
        "{} is held by process {holder}: another run is using the same files; wait for it to \
         end or stop it, then run again",
        path.display()
    )]
    Held {
        /// The lock file.
        path: PathBuf,
        /// The process id written in it.
        holder: String,
    },
    /// A journal could not be read.
    #[error("cannot read the journal {}: {source}", path.display())]
    JournalRead {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A journal could not be written or flushed.
    #[error("cannot write the journal {}: {source}", path.display())]
    JournalWrite {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A finished job's journal could not be removed.
    #[error("cannot remove the journal {}: {source}", path.display())]
    JournalRemove {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The journal was made by a run with other settings.
    #[error(
        "{} was made with other settings ({theirs}; this run: {ours}): run again with its \
         settings to resume it, or delete it to start anew",
        path.display()
    )]
    OtherSettings {
        /// The journal.
        path: PathBuf,
        /// The settings in its header.
        theirs: String,
        /// This run's settings.
        ours: String,
    },
    /// An output of a command is one of its inputs, or another of its outputs.
    #[error(
        "{what} {} is the same file as {other} {}: a command never writes over one of its \
         own inputs or outputs; name another file",
        shown(path),
        shown(other_path)
    )]
    SameFile {
        /// The output, as the command line names it (`--html`).
        what: String,
        /// Its path.
        path: PathBuf,
        /// The input or output it is (`the record file`, `--openings`).
        other: String,
        /// That one's path, as given.
        other_path: PathBuf,
    },
    /// An output that must be new is there already.
    #[error("{what} {} already exists: {how}", shown(path))]
    Exists {
        /// The output, as the command line names it.
        what: String,
        /// Its path.
        path: PathBuf,
        /// How to replace it (`give --force to replace it`).
        how: String,
    },
    /// An output is there and is not a file of the kind the command writes.
    #[error(
        "{what} {} is there and is not {own} (only a file of that kind is replaced): name \
         another file, or give --force to replace it",
        shown(path)
    )]
    NotOwn {
        /// The output, as the command line names it.
        what: String,
        /// Its path.
        path: PathBuf,
        /// The kind of file the command writes, in words.
        own: &'static str,
    },
    /// An output names a folder, a named pipe, a device...: only a regular file is written over.
    #[error("{what} {} is {kind}, not a regular file: name a file", shown(path))]
    NotAFile {
        /// The output, as the command line names it.
        what: String,
        /// Its path.
        path: PathBuf,
        /// What is there, in words (`not_regular`).
        kind: &'static str,
    },
    /// The folder of an output takes no new file (missing, read-only, full...).
    #[error(
        "{what} {}: cannot make a file in the folder {}: {source}",
        shown(path),
        shown(folder)
    )]
    Unwritable {
        /// The output, as the command line names it.
        what: String,
        /// Its path.
        path: PathBuf,
        /// Its folder.
        folder: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The journal's first line is not the header of a journal of this kind of job.
    #[error(
        "{}: the journal's header is unreadable (cut short, or not a moulin {kind} journal), so \
         none of its entries can be trusted: delete it and run again",
        path.display()
    )]
    Unreadable {
        /// The journal.
        path: PathBuf,
        /// The kind of job this run is.
        kind: String,
    },
}

/// `path` as an error shows it: quoted, control characters escaped, cut if long.
fn shown(path: &Path) -> String {
    quoted(&path.to_string_lossy())
}

/// Writes `bytes` as the whole content of `path`: the file holds either its old content or all
/// of `bytes`, whatever happens (a kill, a full disk, a power cut). The temporary file is made
/// by `create_temp` and removed when the write fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DurableError> {
    write_atomic_parts(path, &[bytes])
}

/// `write_atomic` of the concatenation of `parts`, without making it in memory (a table's
/// header and its values of several gigabytes).
pub fn write_atomic_parts(path: &Path, parts: &[&[u8]]) -> Result<(), DurableError> {
    write_atomic_with(path, parts, &mut temp_rng())
}

/// `write_atomic_parts`, the temporary file's name drawn from `rng`. What is at `path` is
/// checked before anything is written and again just before the rename (`replaceable`).
fn write_atomic_with(path: &Path, parts: &[&[u8]], rng: &mut Rng) -> Result<(), DurableError> {
    let fail = |e| DurableError::Write {
        path: path.to_path_buf(),
        source: e,
    };
    replaceable(path).map_err(fail)?;
    let (mut f, tmp) = create_temp(path, rng).map_err(fail)?;
    let written = (|| {
        for part in parts {
            f.write_all(part)?;
        }
        f.sync_all()?;
        replaceable(path)?;
        fs::rename(&tmp, path)?;
        sync_dir(path)
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        fail(e)
    })
}

/// A stream for temporary names that no one can guess: seeded from the clock, the process id
/// and a count of the streams made, so that two threads never draw the same names.
fn temp_rng() -> Rng {
    static STREAMS: AtomicU64 = AtomicU64::new(0);
    let count = STREAMS.fetch_add(1, Ordering::Relaxed);
    let clock = Rng::from_time().next_u64();
    Rng::new(clock ^ u64::from(std::process::id()).rotate_left(32) ^ crate::rng::mix(count))
}

/// A new file in the folder of `path`, `.<name>.<pid>.<random>.tmp`, created exclusively: a file
/// or a symbolic link already at that name is never opened (another name is drawn), so the
/// file is one this process made.
fn create_temp(path: &Path, rng: &mut Rng) -> io::Result<(File, PathBuf)> {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    // A long name is cut, so that the temporary name stays within the system's limit.
    let stem = &name.as_bytes()[..name.len().min(200)];
    for _ in 0..100 {
        let mut tmp = OsString::from(".");
        tmp.push(std::ffi::OsStr::from_bytes(stem));
        tmp.push(format!(
            ".{}.{:016x}.tmp",
            std::process::id(),
            rng.next_u64()
        ));
        let tmp = dir.join(tmp);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((f, tmp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "100 temporary names drawn, all taken",
    ))
}

/// The process that made the temporary file named `name` (`create_temp`'s
/// `.<name>.<pid>.<random>.tmp`), or `None` when `name` is not such a name: how a run that holds
/// a folder's lock finds the temporary files a killed run left there.
pub fn temp_maker(name: &std::ffi::OsStr) -> Option<u32> {
    let name = name.to_str()?;
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, random) = rest.rsplit_once('.')?;
    let (_, pid) = rest.rsplit_once('.')?;
    let hex = random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit());
    let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    if hex && digits {
        pid.parse().ok()
    } else {
        None
    }
}

/// Flushes the folder `dir` itself to disk: the names made, renamed or removed in it survive a
/// power cut.
pub fn sync_folder(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// What a command does with one of its files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Reads it (a file or a folder).
    Reads,
    /// Writes it, replacing or extending a file there.
    Writes,
    /// Writes it; a file there is refused with this advice (`give --force to replace it`).
    Creates(&'static str),
    /// Writes it, replacing a file there only when that file is an output of the same kind (it
    /// begins with the format's own bytes); anything else is refused with `--force`'s advice.
    ReplacesOwn(Own),
}

/// A format a command writes, as `Role::ReplacesOwn` recognises a file of it: the bytes every
/// file of it begins with, and its name in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Own {
    /// The bytes a file of the format begins with (its magic).
    pub magic: &'static [u8],
    /// What a file of it is, in words (`a moulin network`).
    pub name: &'static str,
}

impl Own {
    /// Whether the file at `path` begins with the format's bytes (read without waiting, and only
    /// from a regular file).
    pub fn recognises(&self, path: &Path) -> bool {
        let Ok(file) = input_file::open_regular(path) else {
            return false;
        };
        let mut head = Vec::with_capacity(self.magic.len());
        file.take(self.magic.len() as u64)
            .read_to_end(&mut head)
            .is_ok()
            && head == self.magic
    }
}

/// One file of a command, as its command line names it.
#[derive(Clone, Copy, Debug)]
pub struct CommandFile<'a> {
    /// How the command line names it: `--out`, `the record file`.
    pub what: &'a str,
    /// The path given.
    pub path: &'a Path,
    /// What the command does with it.
    pub role: Role,
}

impl<'a> CommandFile<'a> {
    /// A file `what` the command reads.
    pub fn reads(what: &'a str, path: &'a Path) -> CommandFile<'a> {
        CommandFile {
            what,
            path,
            role: Role::Reads,
        }
    }

    /// A file `what` the command writes, replacing one there.
    pub fn writes(what: &'a str, path: &'a Path) -> CommandFile<'a> {
        CommandFile {
            what,
            path,
            role: Role::Writes,
        }
    }

    /// A file `what` the command writes in the format `own`, replacing one there only if it is
    /// of that format, or whatever it is with `force`.
    pub fn replaces_own(what: &'a str, path: &'a Path, own: Own, force: bool) -> CommandFile<'a> {
        CommandFile {
            what,
            path,
            role: if force {
                Role::Writes
            } else {
                Role::ReplacesOwn(own)
            },
        }
    }
}

/// What makes two paths one file: the device and inode of a file that exists, else the place it
/// would be made at (its folder's canonical path and its name, a dangling link followed).
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    Inode(u64, u64),
    Place(PathBuf),
}

/// The identity of the file at `path`.
fn identity(path: &Path) -> Identity {
    if let Ok(m) = fs::metadata(path) {
        return Identity::Inode(m.dev(), m.ino());
    }
    // Not there, or a link to nothing: where writing through it would make the file.
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = fs::read_link(&path) else {
            break;
        };
        path = path
            .parent()
            .map_or_else(|| target.clone(), |d| d.join(&target));
    }
    match (fs::canonicalize(folder_of(&path)), path.file_name()) {
        (Ok(dir), Some(name)) => Identity::Place(dir.join(name)),
        _ => Identity::Place(std::path::absolute(&path).unwrap_or(path)),
    }
}

/// Whether two paths name the same file (the same inode, or the same place for a file not
/// there yet).
pub fn same_file(a: &Path, b: &Path) -> bool {
    identity(a) == identity(b)
}

/// Checks a command's files before it makes any: no output is an input or another output (by
/// identity, not by spelling); no output is anything but a regular file (a folder, a named pipe,
/// a device: a rename would replace it); no output that must be new is there; and
/// the folder of each output takes a new file (one is made and removed at once, so a path that
/// cannot be written is said before hours of work, and nothing is left).
pub fn check_files(files: &[CommandFile]) -> Result<(), DurableError> {
    let ids: Vec<Identity> = files.iter().map(|f| identity(f.path)).collect();
    for (j, b) in files.iter().enumerate() {
        for (i, a) in files[..j].iter().enumerate() {
            if (a.role != Role::Reads || b.role != Role::Reads) && ids[i] == ids[j] {
                let (out, other) = if b.role == Role::Reads {
                    (a, b)
                } else {
                    (b, a)
                };
                return Err(DurableError::SameFile {
                    what: out.what.to_string(),
                    path: out.path.to_path_buf(),
                    other: other.what.to_string(),
                    other_path: other.path.to_path_buf(),
                });
            }
        }
    }
    for f in files.iter().filter(|f| f.role != Role::Reads) {
        // What is there first: a named pipe is named as such, with or without --force.
        if let Some(kind) = not_replaceable(f.path) {
            return Err(DurableError::NotAFile {
                what: f.what.to_string(),
                path: f.path.to_path_buf(),
                kind,
            });
        }
        let there = fs::symlink_metadata(f.path).is_ok();
        if let (Role::Creates(how), true) = (f.role, there) {
            return Err(DurableError::Exists {
                what: f.what.to_string(),
                path: f.path.to_path_buf(),
                how: how.to_string(),
            });
        }
        if let (Role::ReplacesOwn(own), true) = (f.role, there) {
            if !own.recognises(f.path) {
                return Err(DurableError::NotOwn {
                    what: f.what.to_string(),
                    path: f.path.to_path_buf(),
                    own: own.name,
                });
            }
        }
        let (probe, tmp) =
            create_temp(f.path, &mut temp_rng()).map_err(|e| DurableError::Unwritable {
                what: f.what.to_string(),
                path: f.path.to_path_buf(),
                folder: folder_of(f.path).to_path_buf(),
                source: e,
            })?;
        drop(probe);
        let _ = fs::remove_file(tmp);
    }
    Ok(())
}

/// What a lock file says of its holder (a process id), trimmed: its first 64 bytes at most, so
/// that whatever was put there is never read whole.
fn holder(file: &File) -> String {
    let mut bytes = Vec::new();
    let _ = file.take(64).read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).trim().to_string()
}

/// A lock file held by this process: created with `create_new`, holding the process id and an
/// advisory lock that the system drops when the process ends, however it ends. Removed when
/// dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    // Held open for its advisory lock, which goes with it.
    _file: File,
}

impl Lock {
    /// Takes the lock file `path`. A lock held by a running process is an error naming it; a
    /// lock left by a process that no longer runs (killed, crashed) is taken over.
    pub fn take(path: &Path) -> Result<Lock, DurableError> {
        let fail = |e: io::Error| DurableError::Lock {
            path: path.to_path_buf(),
            source: e,
        };
        // Another process may create or remove the file between two steps: try again then.
        loop {
            let (mut file, fresh) = match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(f) => (f, true),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    // Never through a link: a lock taken over is cut and written.
                    match open_own(OpenOptions::new().read(true).write(true), path) {
                        Ok(f) => (f, false),
                        Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                        Err(e) => return Err(fail(e)),
                    }
                }
                Err(e) => return Err(fail(e)),
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(DurableError::Held {
                        path: path.to_path_buf(),
                        holder: holder(&file),
                    });
                }
                Err(TryLockError::Error(e)) => return Err(fail(e)),
            }
            // The holder removes the file before it lets the lock go: a file no longer at
            // `path` was released by a run that ended normally.
            if !is_at(&file, path) {
                continue;
            }
            if !fresh {
                let holder = holder(&file);
                log::warn!(
                    "{}: left by process {}, which no longer runs; taken over",
                    path.display(),
                    Some(holder.as_str())
                        .filter(|h| !h.is_empty())
                        .unwrap_or("?")
                );
                file.set_len(0).map_err(fail)?;
            }
            let pid = format!("{}\n", std::process::id());
            (|| {
                use std::io::{Seek, SeekFrom};
                file.seek(SeekFrom::Start(0))?;
                file.write_all(pid.as_bytes())?;
                file.sync_all()
            })()
            .map_err(|e| {
                let _ = fs::remove_file(path);
                fail(e)
            })?;
            return Ok(Lock {
                path: path.to_path_buf(),
                _file: file,
            });
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still locked; the lock itself goes with the file handle just after.
        let _ = fs::remove_file(&self.path);
    }
}

/// Opens `path` with `options`, never through a symbolic link as the last part of the path
/// (`O_NOFOLLOW`: a lock or a journal is a file of its own, and a link planted at its name is an
/// error, not a way to cut or write another file) and never waiting (`O_NONBLOCK`); anything
/// but a regular file is refused (a named pipe would make the job wait for a writer forever).
fn open_own(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    regular(
        options
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)?,
    )
}

/// Whether the open `file` is the file now at `path`.
fn is_at(file: &File, path: &Path) -> bool {
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The lines of the journal `input` (at `path`) after its header, read one at a time, each at
/// most `input_file::MAX_LINE` bytes and decoded lossily; the length of its whole lines, and
/// that of a last line cut short (no line break). The header must be that of a `kind` job with
/// these `settings`.
fn read_journal(
    mut input: impl io::BufRead,
    path: &Path,
    kind: &str,
    settings: &str,
) -> Result<(Vec<String>, u64, usize), DurableError> {
    let (mut lines, mut whole, mut bytes) = (Vec::new(), 0u64, Vec::new());
    for number in 1.. {
        bytes.clear();
        let n = input_file::read_line(&mut input, &mut bytes, MAX_LINE, number).map_err(|e| {
            DurableError::JournalRead {
                path: path.to_path_buf(),
                source: e,
            }
        })?;
        let Some(line) = bytes.strip_suffix(b"\n") else {
            if number == 1 {
                break; // No whole header: unreadable.
            }
            return Ok((lines, whole, n));
        };
        let line = String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line));
        whole += n as u64;
        if number > 1 {
            lines.push(line.into_owned());
            continue;
        }
        let prefix = format!("# moulin {kind} journal: ");
        let Some(theirs) = line.strip_prefix(&prefix) else {
            break;
        };
        if theirs != settings {
            return Err(DurableError::OtherSettings {
                path: path.to_path_buf(),
                theirs: theirs.to_string(),
                ours: settings.to_string(),
            });
        }
    }
    Err(DurableError::Unreadable {
        path: path.to_path_buf(),
        kind: kind.to_string(),
    })
}

/// The journal of a long job: a header line `# moulin <kind> journal: <settings>`, then one line
/// per finished item, each on disk before `append` returns.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
    /// When the file was last flushed to disk.
    synced: Instant,
    _lock: Lock,
}

impl Journal {
    /// Opens the journal at `path` for a `kind` job with these `settings` (one line of text),
    /// creating it if there is none, and returns it with the lines already in it (items finished
    /// by an earlier run). Takes the lock `<path>.lock` first. A journal whose header cannot be
    /// read, or which names other settings, is an error saying what to do; a last line cut short
    /// (by a kill or a full disk) is cut off the file.
    pub fn open(
        path: &Path,
        kind: &str,
        settings: &str,
    ) -> Result<(Journal, Vec<String>), DurableError> {
        let lock = Lock::take(&with_suffix(path, ".lock"))?;
        let header = format!("# moulin {kind} journal: {settings}\n");
        let cannot = |e: io::Error| DurableError::JournalWrite {
            path: path.to_path_buf(),
            source: e,
        };
        let mut lines = Vec::new();
        match open_own(OpenOptions::new().read(true), path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                write_atomic(path, header.as_bytes())?;
            }
            Err(e) => {
                return Err(DurableError::JournalRead {
                    path: path.to_path_buf(),
                    source: e,
                })
            }
            Ok(f) => {
                let (read, whole, cut) = read_journal(io::BufReader::new(f), path, kind, settings)?;
                lines = read;
                // A last line cut short: cut it off, or the next entry would be glued to it.
                if cut > 0 {
                    log::warn!(
                        "{}: the last line was cut short ({cut} bytes); dropped",
                        path.display(),
                    );
                    let f = open_own(OpenOptions::new().write(true), path).map_err(cannot)?;
                    f.set_len(whole)
                        .and_then(|()| f.sync_all())
                        .map_err(cannot)?;
                }
            }
        }
        let file = open_own(OpenOptions::new().append(true), path).map_err(cannot)?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
                synced: Instant::now(),
                _lock: lock,
            },
            lines,
        ))
    }

    /// Appends one line, and flushes the journal to disk if the last flush is a second old. An
    /// error (such as a full disk) must stop the job: the line may be cut short, which the next
    /// `open` repairs.
    pub fn append(&mut self, line: &str) -> Result<(), DurableError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.file
            .write_all(&bytes)
            .map_err(|e| DurableError::JournalWrite {
                path: self.path.clone(),
                source: e,
            })?;
        if self.synced.elapsed() >= Duration::from_secs(1) {
            self.sync()?;
        }
        Ok(())
    }

    /// Flushes the journal to disk.
    pub fn sync(&mut self) -> Result<(), DurableError> {
        self.synced = Instant::now();
        self.file
            .sync_data()
            .map_err(|e| DurableError::JournalWrite {
                path: self.path.clone(),
                source: e,
            })
    }

    /// Removes the journal (and then its lock): to be called once the job's output is written
    /// with `write_atomic`, and not before.
    pub fn finish(self) -> Result<(), DurableError> {
        fs::remove_file(&self.path)
            .and_then(|()| sync_dir(&self.path))
            .map_err(|e| DurableError::JournalRemove {
                path: self.path.clone(),
                source: e,
            })
    }
}

#[cfg(test)]
#[path = "durable_tests.rs"]
mod tests;
