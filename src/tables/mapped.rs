//! A table file mapped into memory, read-only. The pages are the operating system's file cache,
//! so every process that probes the same tables (the engines of a match, a build and the engine
//! it feeds) shares one copy, and pages not used lately can be dropped and read again instead
//! of each process holding the whole set: the tables up to 9 pieces a side are 11.9 GB.
//!
//! The file may change under the mapping: cut short, written over in place, replaced. `Stamp`
//! is what the file was when it was mapped (its identity, size and times), so the owner can
//! notice a change before it reads (`Mapping::change`); a page cut away while it is read reads
//! as zeros and marks the mapping instead of ending the process (`faults`, once the process
//! asked for it with `faults::catch_faults`).

use super::faults::{self, Guard};
use super::tables_error::TablesError;
use crate::input_file::{self, NotRegular};
use std::fmt;
use std::fs::{File, Metadata};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{compiler_fence, AtomicBool, Ordering};

/// What a file was at one moment: its identity (device and inode), its size, and the times of
/// its last write and last change of status (a write that puts the modification time back
/// still moves the latter).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Stamp {
    /// The stamp of a file's metadata.
    pub fn of(m: &Metadata) -> Stamp {
        Stamp {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            modified: (m.mtime(), m.mtime_nsec()),
            changed: (m.ctime(), m.ctime_nsec()),
        }
    }

    /// How `now` differs from this stamp, if it does.
    pub fn change_to(&self, now: &Stamp) -> Option<Change> {
        if (now.dev, now.ino) != (self.dev, self.ino) {
            Some(Change::Replaced)
        } else if now.len != self.len {
            Some(Change::Resized {
                from: self.len,
                to: now.len,
            })
        } else if (now.modified, now.changed) != (self.modified, self.changed) {
            Some(Change::Written)
        } else {
            None
        }
    }
}

/// How a mapped file changed since it was mapped.
#[derive(Clone, Debug)]
pub enum Change {
    /// It cannot be looked at any more (removed, or its folder unreadable): the system's error,
    /// shared by whoever is told.
    Gone(std::sync::Arc<std::io::Error>),
    /// Another file has its name now (renamed over it, or removed and made again).
    Replaced,
    /// Its size is another.
    Resized {
        /// The size when mapped, in bytes.
        from: u64,
        /// The size now.
        to: u64,
    },
    /// It was written to, or its status changed, in place.
    Written,
    /// A page of it was cut away while it was read (`faults`).
    Faulted,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Gone(e) => write!(f, "it cannot be looked at any more ({e})"),
            Change::Replaced => f.write_str("another file has its name now"),
            Change::Resized { from, to } => write!(f, "its size went from {from} to {to} bytes"),
            Change::Written => f.write_str("it was written to in place (its times moved)"),
            Change::Faulted => f.write_str("part of it was cut away while it was read"),
        }
    }
}

/// Opens `path` for reading without waiting, refusing anything but a regular file
/// (`input_file::open_regular`): a named pipe among the tables would make `isready` wait forever.
pub fn open_regular(path: &Path) -> Result<File, TablesError> {
    input_file::open_regular(path).map_err(|source| match NotRegular::kind_in(&source) {
        Some(kind) => TablesError::NotAFile {
            path: path.to_path_buf(),
            kind,
        },
        None => TablesError::Open {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// The bytes of a file from `start` to its end, mapped read-only.
pub struct Mapping {
    base: *const u8,
    /// The whole mapping's length (the file's).
    len: usize,
    start: usize,
    /// The file, and what it was when mapped.
    path: PathBuf,
    stamp: Stamp,
    /// Its place among the mappings a SIGBUS is caught in (`faults`).
    guard: Option<Guard>,
    /// Its owner found the file changed: its bytes are not to be trusted (`withdraw`).
    withdrawn: AtomicBool,
}

// SAFETY: the mapping is read-only and private to this value; shared references only read it.
unsafe impl Send for Mapping {}
// SAFETY: as above; no interior mutability.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Maps the open `file` (of `path`, opened by `open_regular`) from byte `start` on; the
    /// error names the file and the cause.
    pub fn of_file(file: &File, path: &Path, start: usize) -> Result<Mapping, TablesError> {
        let meta = file.metadata().map_err(|source| TablesError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        let len = meta.len() as usize;
        if len <= start {
            return Err(TablesError::NoValues {
                path: path.to_path_buf(),
                len,
                start,
            });
        }
        // SAFETY: a fresh read-only shared mapping of an open file, of the file's length; the
        // result is checked before use. The tables are replaced by renaming a new file over the
        // old one (`durable::write_atomic`), which leaves a mapping of the old file intact; a
        // file changed in place is noticed by its stamp (`change`) before it is read, and a
        // page cut away while it is read reads as zeros and marks the mapping (`faults`).
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(TablesError::Map {
                path: path.to_path_buf(),
                source: std::io::Error::last_os_error(),
            });
        }
        // SAFETY: advice on the mapping just made; probes land anywhere, so reading ahead
        // would only fill the cache with values nobody asked for. A failure is harmless.
        unsafe { libc::madvise(base, len, libc::MADV_RANDOM) };
        Ok(Mapping {
            base: base as *const u8,
            len,
            start,
            path: path.to_path_buf(),
            stamp: Stamp::of(&meta),
            guard: faults::register(base as usize, len),
            withdrawn: AtomicBool::new(false),
        })
    }

    /// The file mapped.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How the file changed since it was mapped, if it did: a page cut away while read, or its
    /// stamp now another (one `stat` of its path).
    pub fn change(&self) -> Option<Change> {
        if self.faulted() {
            return Some(Change::Faulted);
        }
        match std::fs::metadata(&self.path) {
            Ok(now) => self.stamp.change_to(&Stamp::of(&now)),
            Err(e) => Some(Change::Gone(std::sync::Arc::new(e))),
        }
    }

    /// Whether a page was cut away while read (it reads as zeros since).
    pub fn faulted(&self) -> bool {
        self.guard.as_ref().is_some_and(Guard::faulted)
    }

    /// Marks the bytes as not to be trusted: the file changed. Every holder of the mapping (a
    /// search running) sees it at its next read (`trusted`).
    pub fn withdraw(&self) {
        self.withdrawn.store(true, Ordering::Release);
    }

    /// Whether the bytes read before this call are the file's as it was checked: no page was
    /// cut away while read, and the mapping was not withdrawn.
    #[inline]
    pub fn trusted(&self) -> bool {
        // The reads before this call are done before the marks are read: a fault during one of
        // them has run its handler (on this thread) by then.
        compiler_fence(Ordering::SeqCst);
        !self.withdrawn.load(Ordering::Acquire) && !self.faulted()
    }

    /// The mapped bytes after `start`.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `base` maps `len` readable bytes for as long as `self` lives, and
        // `start < len` (checked in `open`).
        unsafe { std::slice::from_raw_parts(self.base.add(self.start), self.len - self.start) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // Out of the registry first: the addresses may be mapped again once unmapped.
        drop(self.guard.take());
        // SAFETY: unmaps exactly the mapping `of_file` made, once; no slice of it outlives `self`.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len) };
    }
}

impl fmt::Debug for Mapping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Mapping({} bytes)", self.len - self.start)
    }
}

impl PartialEq for Mapping {
    fn eq(&self, other: &Mapping) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for Mapping {}
