//! What can go wrong in an analysis.

use crate::box_error::BoxError;
use crate::record::RecordError;
use crate::rules::notation::MoveError;
use std::path::PathBuf;

/// Why a game or a position could not be analysed; each message says what to give instead.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    /// A record file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A record file holds something that is not a game record.
    #[error("{}: {source}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// Where and what.
        source: RecordError,
    },
    /// A record file has fewer games than the one asked for.
    #[error("{}: no game {game} (the file holds {count})", path.display())]
    NoGame {
        /// The file.
        path: PathBuf,
        /// The game asked for, from 1.
        game: usize,
        /// The games the file holds.
        count: usize,
    },
    /// A record's start position could not be set up.
    #[error("{source}")]
    Start {
        /// Why.
        source: BoxError,
    },
    /// A move of the game is not legal (or not readable) where it is played.
    #[error("move {number} {}: {source}", crate::text::quoted(token))]
    Move {
        /// The move's number in the game, from 1.
        number: usize,
        /// The move as given.
        token: String,
        /// Why it cannot be played.
        source: MoveError,
    },
    /// A move closes a mill but does not say which piece it removes.
    #[error(
        "move {number} {} closes a mill: give its removal ('{token}x..')",
        crate::text::quoted(token)
    )]
    MissingRemoval {
        /// The move's number in the game, from 1.
        number: usize,
        /// The move as given.
        token: String,
    },
    /// The position to list the moves of is one where the game is over.
    #[error("the game is over: {score} {why}")]
    GameOver {
        /// The result, as `1-0`, `0-1` or `1/2-1/2`.
        score: &'static str,
        /// Why the game ended.
        why: String,
    },
    /// `--exact` was asked for a position of the moving phase.
    #[error("--exact values placing positions: this one is in the moving phase")]
    NotPlacing,
    /// `--exact` was asked without endgame tables.
    #[error("--exact needs --tables")]
    NoTables,
    /// The exact solver reached a position the tables do not cover.
    #[error(
        "a position on the way is not covered by the tables: give tables for every piece count"
    )]
    NotCovered,
}
