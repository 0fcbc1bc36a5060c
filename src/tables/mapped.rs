//! A table file mapped into memory, read-only. The pages are the operating system's file cache,
//! so every process that probes the same tables (the engines of a match, a build and the engine
//! it feeds) shares one copy, and pages not used lately can be dropped and read again instead
//! of each process holding the whole set: the tables up to 9 pieces a side are 11.9 GB.

use super::TablesError;
use std::fmt;
use std::fs::{File, Metadata};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// What a file that is not a regular file is, in words.
fn kind_of(m: &Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "a special file"
    }
}

/// Why `m` is not a regular file, if it is not (in words: "a named pipe", ...).
pub fn not_regular(m: &Metadata) -> Option<&'static str> {
    (!m.is_file()).then(|| kind_of(m))
}

/// Opens `path` for reading without waiting: a named pipe or a device opens at once (never
/// waiting for a writer), and anything but a regular file is then refused.
pub fn open_regular(path: &Path) -> Result<File, TablesError> {
    let opened = |source| TablesError::Open {
        path: path.to_path_buf(),
        source,
    };
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(opened)?;
    let meta = file.metadata().map_err(opened)?;
    if let Some(kind) = not_regular(&meta) {
        return Err(TablesError::NotAFile {
            path: path.to_path_buf(),
            kind,
        });
    }
    Ok(file)
}

/// The bytes of a file from `start` to its end, mapped read-only.
pub struct Mapping {
    base: *const u8,
    /// The whole mapping's length (the file's).
    len: usize,
    start: usize,
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
        // result is checked before use. The tables are only ever replaced by renaming a new
        // file over the old one (`durable::write_atomic`), which leaves a mapping of the old
        // file intact, so the bytes cannot change under it.
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
        })
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
        // SAFETY: unmaps exactly the mapping `open` made, once; no slice of it outlives `self`.
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
