//! The packed solution: the moving tables and the placing solution, every value as it is built,
//! in zstd blocks that are probed where they lie (no unpacking to disk; the block format,
//! `tables::packed_table`, stands below the values), with a manifest that names the rules, the
//! format, what the set covers and each file's size and checksum, so that a set can be copied,
//! checked and installed (`moulin tables pack`, `install`, `verify`). Above the loaded tables
//! (`tables::table_set`) that a set opens into.
//!
//! - `folder`: a set's folder held by the command writing it: its lock, what it holds, the
//!   leftovers of a killed run;
//! - `manifest`: what a set is, as its manifest says it;
//! - `storage`: which tables a set stores and which it derives from their successors;
//! - `verify`: a set checked whole: every file, every block, every table's values;
//! - `packing`: a built solution packed into a set;
//! - `open`: a set opened for probing;
//! - `install`: a set copied, checked and put in place in one step;
//! - `sample_check`: positions of each table of a set checked against their successors;
//! - `compare`: two loaded solutions held against each other (a set and its build).

pub mod compare;
pub mod folder;
pub mod install;
pub mod manifest;
pub mod open;
pub mod packing;
pub mod sample_check;
pub mod storage;
pub mod verify;

pub use manifest::{
    default_dir, default_dir_in, is_installed_word, is_set, Manifest, INSTALLED, MANIFEST,
};
pub use open::open;
pub use packing::{pack, Packed};
pub use verify::{verify, Verified};

#[cfg(test)]
mod tests;
