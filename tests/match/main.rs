//! `moulin match`, `moulin openings` and `moulin replay` end to end, with the stand-in engine
//! `examples/fake_engine.rs` (built by `cargo test`) and, once the protocol is there, moulin
//! itself. A plain `cargo test` builds the example; with `--test match` alone, run
//! `cargo build --examples` first so that it is not stale.
//!
//! `harness` runs the programs; `adjudicate`, `games`, `openings`, `hostile`, `records`, `script`
//! (what a tournament script relies on) and `tournament` (more than two engines) are the
//! concerns.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod adjudicate;
mod games;
mod harness;
mod hostile;
mod openings;
mod records;
mod script;
mod tournament;
