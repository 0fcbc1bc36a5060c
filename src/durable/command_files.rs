//! A command's files checked before it makes any (`check_files`): no output one of its inputs
//! or another output, an output that must be new not there, one that replaces only its own kind
//! finding that kind or nothing, each output's folder taking a new file.

use super::atomic::{create_temp, folder_of, not_replaceable, temp_rng};
use super::durable_error::DurableError;
use crate::input_file::{self};
use std::fs::{self};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

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
