//! moulin: an engine for the mill game (Nine Men's Morris, Mühle).
//!
//! The layers, each importing only the layers below it, and each library layer returning an error
//! type of its own (text only at the command line's edge):
//!
//! ```text
//!   main.rs            enters cli: the protocol with no arguments, else a subcommand
//!   cli/               the command line: the clap definitions (mod.rs) and one thin handler a
//!      |               command (`<command>_cmd.rs`, `<command>_<subcommand>.rs`)
//!   protocol/  train/  the UCI-style protocol and its GBGP dialect (session, commands, replies,
//!      |         |     options, search jobs); learning the placing phase (labels, fit,
//!      |         |     critical suite)
//!   book/  analyse/  matches/
//!      |      |         |    the opening book (format, lookup, deep search, two-tree build,
//!      |      |         |    expansion, checks, exact check and cover); grading a game and its
//!      |      |         |    HTML board; engine matches (engines, referee, runner, results
//!      |      |         |    file, replay, statistics, balanced openings)
//!      +------+---------+
//!      |
//!   search/            the searcher: driver, limits and the move's time budget, threads,
//!      |               iterative deepening, negamax, quiescence, ordering, the shared table,
//!      |               evaluation and learned weights, scores, bench; exact/: the exact solver
//!      |               of the placing (solver, memory, root proof, check of the search's choice)
//!   tables/  record/   endgame tables (index up to symmetry, retrograde analysis, schedule of a
//!      |        |      build, files, probing, perfect play, tally, consistency, sampling); game
//!      |        |      records in a PGN shape and openings files
//!   rules/             the game: board, symmetries and symmetry keys, rules and their options,
//!      |               moves, position, move generation, notation, diagram, position strings
//!      |               (ours and GBGP's), zobrist keys, games, perft
//!   durable.rs, input_file.rs, rng.rs, date.rs, progress.rs, parallel.rs, text.rs
//!                      files written so that a kill or a full disk loses nothing (temp file,
//!                      fsync, rename; journals; locks); input files read with a bound on
//!                      memory (a line at a time, or whole up to a cap); the one small random
//!                      generator; today's
//!                      date; the one progress bar of long commands; jobs run on several
//!                      threads; outside text as an error shows it (quoted, escaped, cut)
//! ```
//!
//! The rules know nothing of search; the search knows nothing of protocols and never prints (it
//! reports through a callback); only `protocol` and `cli` write to stdout. Logs go to stderr.

pub mod analyse;
pub mod book;
pub mod cli;
pub mod date;
pub mod durable;
pub mod input_file;
pub mod matches;
pub mod parallel;
pub mod progress;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tables;
pub mod text;
pub mod train;

pub use rules::board::{Bitboard, BoardKind, ByColor, Color, Point};
pub use rules::game::Game;
pub use rules::moves::Move;
pub use rules::notation::Convention;
pub use rules::position::{Outcome, Position};
pub use rules::Rules;
