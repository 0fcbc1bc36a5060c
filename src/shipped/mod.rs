//! Shipped data's room, on the ground floor below the book, the search, the tables and the
//! trainer: the data that ships with the engine (a book, the opening's solution, a network),
//! built into the binary (`built_in`), and what a setting naming such data means (`chosen`:
//! empty for the built-in data, `none` for none, else a file: a `Source`); here. The one header of the binary formats (`header`), the one
//! little-endian reader and writer they share (`le_bytes`), and what a loaded file is, said in
//! one line (`loaded`).

pub mod built_in;
pub mod header;
pub mod le_bytes;
pub mod loaded;

pub use built_in::{built_in, BuiltIn};
pub use header::{Header, HeaderError, Layout};
pub use loaded::{Loaded, Origin};

use std::ffi::OsStr;
use std::path::PathBuf;

/// What a setting names to read: data built into the binary, or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Built into the binary.
    BuiltIn(&'static BuiltIn),
    /// A file.
    File(PathBuf),
}

impl Source {
    /// Where what it gives comes from.
    pub fn origin(&self) -> Origin {
        match self {
            Source::BuiltIn(b) => Origin::BuiltIn(b.name),
            Source::File(path) => Origin::File(path.clone()),
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.origin().fmt(f)
    }
}

/// The word of a setting naming shipped data for the data built in for the variant in force:
/// the setting's default, as `uci` shows it (an empty value means the same).
pub const BUILT_IN: &str = "built-in";

/// Whether `setting` asks for the default: empty, or `built-in` (any case).
pub fn is_default(setting: &OsStr) -> bool {
    setting.is_empty() || setting.eq_ignore_ascii_case(BUILT_IN)
}

/// Whether `setting` asks for none: `none` (any case).
pub fn is_none(setting: &OsStr) -> bool {
    setting.eq_ignore_ascii_case("none")
}

/// Whether `setting` names a file: neither the default (`is_default`) nor `none`.
pub fn names_a_file(setting: &OsStr) -> bool {
    !is_default(setting) && !is_none(setting)
}

/// What a setting naming shipped data means (an option such as `EvalFile`, or a flag such as
/// `--eval-file`): `none` (any case) for none; empty or `built-in` for the data built in under
/// the file name `default` (none without a default, or where nothing is built in under it);
/// else the file it names.
pub fn chosen(setting: &OsStr, default: Option<&str>) -> Option<Source> {
    if is_default(setting) {
        built_in(default?).map(Source::BuiltIn)
    } else if is_none(setting) {
        None
    } else {
        Some(Source::File(setting.into()))
    }
}
