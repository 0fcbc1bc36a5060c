//! The book's settings and their bounds, checked on the flags of the book commands and on every
//! header read; the text format's version; and a variant's default book (built in).

use super::book_error::BookError;
use crate::shipped::{built_in, Source};
use std::path::Path;

/// The version of the text format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The bounds of a book's settings, checked on the flags of `book build` and on every header
/// read (`check_setting`), so that neither a flag nor a file can ask for a table that cannot be
/// allocated or a search that does not end: plies of the book tree (each ply multiplies the
/// positions; 8 hold about 62,000), ...
pub const MAX_PLIES: u32 = 16;
/// ... the deepest ply of an expanded book (`book expand`), ...
pub const MAX_EXPANDED: u32 = 41;
/// ... search depth in turns (one search at depth 12 already takes seconds), ...
pub const MAX_DEPTH: u32 = 20;
/// ... margin in centi-pieces (ten pieces), ...
pub const MAX_MARGIN: i32 = 1000;
/// ... and hash table of each search in MB (one per worker thread), ...
pub const MAX_HASH_MB: u32 = 1024;
/// ... and worker threads of a build.
pub const MAX_THREADS: usize = 256;

/// The worker threads of a book command given none: every core, at most `MAX_THREADS`.
pub fn default_threads(given: Option<usize>) -> usize {
    given.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
    })
}
/// The largest book file the engine reads (the shipped books are a few MB), so that a wrong
/// `BookFile` cannot hold the engine up or fill its memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Checks a book setting against its bounds; the error names the setting and its bounds.
pub fn check_setting(name: &str, value: i64, min: i64, max: i64) -> Result<(), BookError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(BookError::OutOfBounds {
            name: name.to_string(),
            value,
            min,
            max,
        })
    }
}

/// Reads the text of a book file, at most [`MAX_FILE_BYTES`] of it (more is an error stating
/// the cap); a named pipe or a device is refused without waiting.
pub fn read_text(path: &Path) -> Result<String, BookError> {
    read_with(path, crate::input_file::read_to_string)
}

/// Reads the text of the engine's book file as `read_text` does, but a named pipe is read to
/// its end: the engine reads its book on a thread of its own, `isready` waiting for it.
pub fn read_text_waiting(path: &Path) -> Result<String, BookError> {
    read_with(path, crate::input_file::read_stream_to_string)
}

/// Reads a book file's text with `read`, at most [`MAX_FILE_BYTES`] of it.
fn read_with(
    path: &Path,
    read: fn(&Path, u64) -> std::io::Result<String>,
) -> Result<String, BookError> {
    read(path, MAX_FILE_BYTES).map_err(|source| BookError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The file name of a variant's book: `<variant>.book`.
pub fn file_name(variant: &str) -> String {
    format!("{variant}.book")
}

/// The default book of a preset variant: the one built in for it (`book/<variant>.book` when
/// the binary was compiled), if one is.
pub fn default_book(variant: &str) -> Option<Source> {
    built_in(&file_name(variant)).map(Source::BuiltIn)
}
