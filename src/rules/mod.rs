//! The rules layer: everything about the game and nothing about playing it well. It imports
//! nothing above it.
//!
//! - `board`: points, bitboards, colours and the board topologies (adjacency, mill lines) as
//!   compile-time tables; `board_symmetry`: the board's 16 symmetries as maps of points and
//!   sets, and the canonical form of a board; `symmetry`: the symmetry key of a position
//!   (`fold`), with the maps of `board_symmetry` re-exported;
//! - `variant`: the `Rules` value (every rule option of docs/rules.md, "Variants") and its
//!   named presets;
//!   `rule_options`: the one table of rule options by name (values, parser, writer) that the
//!   protocol, the match runner and the book read;
//! - `moves`: the compact `Move`; `position`: a position and how a move changes it;
//! - `movegen`: legal moves in both conventions; `notation`: reading and writing moves;
//!   `diagram`: the board drawn as text;
//! - `setup` and `fen`: the position string, parsed into a raw setup and then checked once into
//!   a `Position`;
//! - `gbgp_position`: the position string of the GBGP dialect (pieces in hand from the move number);
//!   `gbgp_dialect`: the dialect's words that the engine and the match runner share;
//! - `zobrist`: position keys; `game`: a game with its history and draw rules; `perft`.

pub mod board;
pub mod board_symmetry;
pub mod diagram;
pub mod fen;
pub mod game;
pub mod gbgp_dialect;
pub mod gbgp_position;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rule_options;
pub mod setup;
pub mod symmetry;
mod variant;
mod zobrist;

pub use variant::{
    Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform, Repetition, RuleError,
    Rules, PRESETS,
};
