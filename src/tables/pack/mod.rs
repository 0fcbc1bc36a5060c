//! The packed solution: the moving tables and the placing solution, every value as it is built,
//! in zstd blocks that are probed where they lie (no unpacking to disk), with a manifest that
//! names the rules, the format, what the set covers and each file's size and checksum, so that
//! a set can be copied, checked and installed (`moulin tables pack`, `install`, `verify`).
//!
//! - `frame`: one zstd frame written and read;
//! - `table`: one packed table (a moving table or a placing group) and its probes;
//! - `compare`: two loaded solutions held against each other (a set and its build);
//! - `cache`: the unpacked blocks kept for the next probes, shared by every table;
//! - `memo`: the values of positions not stored found already, for the next probes;
//! - `folder`: a set's folder held by the command writing it: its lock, what it holds, the
//!   leftovers of a killed run;
//! - `set`: a packed set: its manifest, made from a built solution, opened, verified;
//! - `install`: a set copied, checked and put in place in one step.

pub mod cache;
pub mod compare;
pub mod folder;
pub mod frame;
pub mod install;
pub mod memo;
pub mod set;
pub mod table;

#[cfg(test)]
mod tests;
