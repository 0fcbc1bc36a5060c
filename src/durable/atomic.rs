//! Files written whole or not at all: a temporary file in the same folder, flushed, renamed
//! over the target, the folder flushed (`write_atomic`); only over a regular file; the
//! temporary files' names, and whose they are (`temp_maker`).

use super::durable_error::DurableError;
use crate::input_file::{not_regular, NotRegular};
use crate::rng::Rng;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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
pub(super) fn not_replaceable(path: &Path) -> Option<&'static str> {
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
pub(super) fn sync_dir(path: &Path) -> io::Result<()> {
    File::open(folder_of(path))?.sync_all()
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
pub(super) fn write_atomic_with(
    path: &Path,
    parts: &[&[u8]],
    rng: &mut Rng,
) -> Result<(), DurableError> {
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
pub(super) fn temp_rng() -> Rng {
    static STREAMS: AtomicU64 = AtomicU64::new(0);
    let count = STREAMS.fetch_add(1, Ordering::Relaxed);
    let clock = Rng::from_time().next_u64();
    Rng::new(clock ^ u64::from(std::process::id()).rotate_left(32) ^ crate::rng::mix(count))
}

/// A new file in the folder of `path`, `.<name>.<pid>.<random>.tmp`, created exclusively: a file
/// or a symbolic link already at that name is never opened (another name is drawn), so the
/// file is one this process made.
pub(super) fn create_temp(path: &Path, rng: &mut Rng) -> io::Result<(File, PathBuf)> {
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
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}
