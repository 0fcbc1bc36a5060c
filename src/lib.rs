//! moulin: an engine for the mill game (Nine Men's Morris, Mühle).
//!
//! The rules layer (`board`, `rules`, `moves`, `position`, `movegen`, `notation`, `fen`, `game`,
//! `perft`) depends on nothing above it; `eval`, `tt` and `search` stand on it; `protocol` speaks
//! for all of them on stdin/stdout. `matches` (engine matches, openings, records) drives engines
//! through their protocol and checks them with the rules layer. `durable` writes the tools'
//! files whole or not at all, and journals their long jobs.

pub mod bench;
pub mod board;
pub mod book;
pub mod durable;
pub mod eval;
pub mod fen;
pub mod game;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tt;
mod zobrist;

pub use board::{Bitboard, BoardKind, ByColor, Color, Point};
pub use game::Game;
pub use movegen::Convention;
pub use moves::Move;
pub use position::{Outcome, Position};
pub use rules::Rules;
