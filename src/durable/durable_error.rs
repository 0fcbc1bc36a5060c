//! What goes wrong with a file written to survive a kill, a command's files or a journal
//! (`DurableError`), each naming the file as an error shows it (`shown`).

use crate::text::quoted;
use std::io;
use std::path::{Path, PathBuf};

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
pub(super) fn shown(path: &Path) -> String {
    quoted(&path.to_string_lossy())
}
