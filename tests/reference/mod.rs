//! An independent check of the move generator: a naive reference implementation of every rule
//! of docs/rules.md (written from the rule text, with plain arrays, its own point order and its own
//! hand-written neighbour and mill lists), played in parallel with the crate over seeded random
//! games: 200 per rule set in a plain `cargo test`, 2,000 in the ignored sweep (`cargo test
//! --release --test suite every_rule_set -- --ignored`). At every position the two must agree on
//! the legal moves in both conventions, the move counts, the outcome (position and game), and
//! the crate's Zobrist key and position string must be self-consistent.
//!
//! The only things taken from the crate are `Rules` (mapped field by field to the naive rules),
//! the position/game to drive, and the results compared. The naive model tracks piece identities
//! itself, so the re-forming rules are modelled independently too.
//!
//! `board` and `naive` are the reference generator, `naive_play` plays it; `games` compares it
//! with the crate over random games, `perft` over the perft figures.

#![allow(clippy::unwrap_used)]
// a test may unwrap: a failure is its report
// The reference is written plainly on purpose (methods that need no state, flags as bools).
#![allow(clippy::unused_self, clippy::struct_excessive_bools)]

mod board;
mod games;
mod naive;
mod naive_play;
mod perft;
