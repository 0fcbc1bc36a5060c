//! The game-record (PGN) reader through the real binary: hostile files (deep, long, huge, with
//! control bytes, starting with what a records file never does) given to `moulin replay`,
//! `moulin analyse` and the protocol, and a fuzz of random and mutated records.
//!
//! `harness` runs moulin and measures it; `hostile` and `fuzz` are the two concerns.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod fuzz;
pub(crate) mod harness;
mod hostile;
