//! moulin: an engine for the mill game (Nine Men's Morris, Mühle).
//!
//! The layers, each a folder, each importing only the layers below it:
//!
//! ```text
//!   cli.rs             the command line: clap subcommands, dispatched by main.rs
//!      |
//!   protocol/  book/  matches/  train/   what speaks for the engine and drives it:
//!      |         |       |        |      the UCI-style protocol (a GBGP dialect goes beside
//!      |         |       |        |      it in protocol/), the opening book, engine matches,
//!      |         |       |        |      learning the placing phase (labels, fit, critical suite)
//!      +---------+-------+--------+
//!      |
//!   search/            the searcher: driver, limits, threads, iterative deepening, negamax,
//!      |               quiescence, ordering, the shared table, evaluation, scores, bench
//!   tables/            endgame tables: symmetry-folded index, retrograde solver, files,
//!      |               the commands that build them, probing and play (the search probes them)
//!   rules/             the game: board, rules and their options, moves, move generation,
//!      |               notation, position strings, zobrist keys, games, perft
//!   rng.rs, durable.rs the one small random generator; files written so that a kill or a
//!                      full disk loses nothing (temp file, fsync, rename; journals; locks)
//! ```
//!
//! The rules know nothing of search; the search knows nothing of protocols and never prints (it
//! reports through a callback); only `protocol` and `cli` write to stdout. Logs go to stderr.

pub mod analyse;
pub mod book;
pub mod cli;
pub mod date;
pub mod durable;

pub mod matches;

pub mod progress;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tables;
pub mod train;

pub use rules::board::{Bitboard, BoardKind, ByColor, Color, Point};
pub use rules::game::Game;
pub use rules::moves::Move;
pub use rules::notation::Convention;
pub use rules::position::{Outcome, Position};
pub use rules::Rules;
