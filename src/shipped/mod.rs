//! Shipped data's room, on the ground floor below the book, the search, the tables and the
//! trainer: where a file that ships with the engine (a book, the opening's solution, a network)
//! is found (beside the executable, in a `book/` folder beside it, or in the checkout's
//! `book/`), and what a setting naming such a file means (`chosen`: empty for the shipped one,
//! `none` for none); here. The one header of the binary formats (`header`), the one
//! little-endian reader and writer they share (`le_bytes`), and what a loaded file is, said in
//! one line (`loaded`).

pub mod header;
pub mod le_bytes;
pub mod loaded;

pub use header::{Header, HeaderError, Layout};
pub use loaded::{Loaded, Origin};

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Where a file that ships with the engine named `name` (a book, the opening's solution) is
/// looked for, in order: next to the executable, in a `book/` folder next to it, and in the
/// repository's `book/` folder.
pub fn shipped_locations(name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        out.push(dir.join(name));
        out.push(dir.join("book").join(name));
    }
    out.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("book")
            .join(name),
    );
    out
}

/// The first existing file of `shipped_locations(name)`.
pub fn find_shipped(name: &str) -> Option<PathBuf> {
    shipped_locations(name).into_iter().find(|p| p.is_file())
}

/// The file a setting names (an option such as `EvalFile`, or a flag such as `--eval-file`):
/// `none` (any case) for none; empty for the shipped file named `default`, where it is found
/// (`find_shipped`; none without a default); else the path it gives.
pub fn chosen(setting: &OsStr, default: Option<&str>) -> Option<PathBuf> {
    if setting.is_empty() {
        find_shipped(default?)
    } else if setting.eq_ignore_ascii_case("none") {
        None
    } else {
        Some(setting.into())
    }
}
