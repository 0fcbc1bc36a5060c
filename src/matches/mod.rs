//! Engine-versus-engine matches (in the manner of cutechess or fastchess, for the mill game),
//! with the tools around them: balanced opening books made through any engine's protocol, and
//! the replay of a match's results. The commands (`moulin match`, `openings`, `replay`) are in
//! `commands/matches/`.
//!
//! - `spec`: how `--engine` names an engine; `words`: the quoting that specs and results share.
//! - `engine`: the process driver (spawn, timed reads, kill); `gbgp`: what it says to an engine
//!   of the GBGP dialect.
//! - `referee`: one game under a real clock, every move checked by the rules; `control`: the
//!   time controls, the clocks and the `go` line; `adjudicate`: ending a game early by the
//!   endgame tables or the engines' scores.
//! - `runner`: pairs of games over worker threads, the records written as games end;
//!   `standings`: what the games add up to, by pairing (one for a match, several for a
//!   tournament); `summary`: the results as the match prints them.
//! - `results_file`: one line per game, and the file that holds them; `lineup`: who plays which
//!   game, what every kept record is checked against; `replay`: their check.
//! - `balanced_openings`: making opening books of openings an engine finds balanced.
//! - `stats`: Elo, its interval, and the SPRT; `ratings`: a tournament's ratings by maximum
//!   likelihood.
//! - `match_error`: what can go wrong.

pub mod adjudicate;
pub mod balanced_openings;
pub mod control;
pub mod engine;
pub mod gbgp;
pub mod line_error;
pub mod lineup;
mod match_error;
pub mod ratings;
pub mod referee;
pub mod replay;
pub mod results_file;
pub mod runner;
pub mod spec;
mod spec_error;
pub mod standings;
pub mod stats;
pub mod summary;
pub mod words;

pub use match_error::MatchError;

/// The most games a match may ask for (games are produced one by one, so this is about time:
/// a billion games is years of play).
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most games played at once.
pub const MAX_CONCURRENCY: usize = 256;
/// The longest random openings, in turns.
pub const MAX_RANDOM_PLIES: usize = 100;
