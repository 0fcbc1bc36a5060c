//! Engine-versus-engine matches (in the manner of cutechess or fastchess, for the mill game),
//! with the tools around them: balanced opening books made through any engine's protocol, and
//! the replay of a match's results. The commands (`moulin match`, `openings`, `replay`) are in
//! `commands/matches/`. The map of the files is docs/layout.md.
//!
//! - `engines`: an engine as a match knows it: its spec, its time control, the process that
//!   runs it and the protocol it speaks (the GBGP dialect's words among them).
//! - `games`: one game under a real clock, every move checked by the rules, its adjudication,
//!   and the balanced openings games start from.
//! - `numbers`: Elo, its interval, the SPRT, and a tournament's ratings.
//! - `run`: a match or a tournament played: who plays which game, the records of the games,
//!   what they add up to, their replay and the summary.
//! - `quoting`: the shell-like quoting that specs and records share.

pub mod engines;
pub mod games;
pub mod numbers;
pub mod quoting;
pub mod run;

/// The most games a match may ask for (games are produced one by one, so this is about time:
/// a billion games is years of play).
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most games played at once.
pub const MAX_CONCURRENCY: usize = 256;
/// The longest random openings, in turns.
pub const MAX_RANDOM_PLIES: usize = 100;
