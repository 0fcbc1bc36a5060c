//! The journal of a long job's finished work (`Journal`: a header line, then a line an item,
//! a line cut short dropped when it is opened again) and the lock that keeps it to one process
//! (`Lock`, taken over from a killed run).

use super::atomic::{sync_dir, with_suffix, write_atomic};
use super::durable_error::DurableError;
use crate::input_file::{self, regular, MAX_LINE};
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
