//! moulin: an engine for the mill game (Nine Men's Morris, Mühle).
//!
//! The rules layer (`board`, `rules`, `moves`, `position`, `movegen`, `notation`, `fen`, `game`,
//! `perft`) depends on nothing above it; `eval`, `tt` and `search` stand on it; `protocol` speaks
//! for all of them on stdin/stdout. `matches` (engine matches, openings, records) drives engines
//! through their protocol and checks them with the rules layer.

pub mod book;
pub mod cli;

pub mod matches;

pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;

pub use rules::board::{Bitboard, BoardKind, ByColor, Color, Point};
pub use rules::game::Game;
pub use rules::moves::Move;
pub use rules::notation::Convention;
pub use rules::position::{Outcome, Position};
pub use rules::Rules;
