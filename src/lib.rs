//! moulin: an engine for the mill game (Nine Men's Morris, Mühle).
//!
//! The map of the source, its rooms on their floors (each importing only the rooms below it,
//! the rules at the bottom) and one line for each file, is `docs/layout.md` in the repository:
//! one map, kept whole by `tests/docs.rs`. This file declares the rooms and re-exports the
//! rules' everyday types.

pub mod analyse;
pub mod book;
pub mod box_error;
pub mod date;
pub mod durable;
pub mod engine;
pub mod input_file;
pub mod job_progress;
pub mod matches;
pub mod memory;
pub mod parallel;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod rules;
pub mod search;
pub mod shipped;
pub mod tables;
pub mod text;
pub mod train;

pub use rules::board::{Bitboard, BoardKind, ByColor, Color, Point};
pub use rules::game::Game;
pub use rules::moves::Move;
pub use rules::notation::Convention;
pub use rules::position::{Outcome, Position};
pub use rules::Rules;
