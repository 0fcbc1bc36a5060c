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
//!
//! The files: `atomic` (the writes whole or not at all), `command_files` (`check_files`),
//! `journal` (`Journal` and its `Lock`), below them all `durable_error` (`DurableError`).

mod atomic;
mod command_files;
mod durable_error;
mod free_space;
mod journal;

pub use atomic::{sync_folder, temp_maker, with_suffix, write_atomic, write_atomic_parts};
pub use command_files::{check_files, same_file, CommandFile, Own, Role};
pub use durable_error::DurableError;
pub use free_space::free_bytes;
pub use journal::{Journal, Lock};

#[cfg(test)]
mod durable_tests;
