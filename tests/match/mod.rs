//! `moulin match`, `moulin openings` and `moulin replay` end to end, with the stand-in engine
//! `examples/fake_engine.rs` (built by `cargo test`) and, once the protocol is there, moulin
//! itself. A plain `cargo test` builds the example; with `--test suite` alone (`cargo test --test
//! suite matches::`), run `cargo build --examples` first so that it is not stale.
//!
//! `harness` runs the programs; `adjudicate`, `controls` (each engine's time control, and the
//! PGN's notes of it), `cutechess` (a cutechess-cli user's command lines, Ctrl-C), `games`,
//! `gbgp` (engines of the Nine Morris 3D GUI's dialect), `hostile`, `openings`, `options` (an
//! engine's refusal of an `option.` key), `records`, `script` (what a tournament script relies
//! on) and `tournament` (more than two engines) are the concerns.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod adjudicate;
mod controls;
mod cutechess;
mod games;
mod gbgp;
mod harness;
mod hostile;
mod openings;
mod options;
mod records;
mod script;
mod tournament;
