//! What is wrong with one line of a match's records, or with the game it records
//! (`LineError`): a field that cannot be read, a move that cannot be played, a result the rules
//! do not give, a game the match does not play.

use crate::box_error::BoxError;
use crate::matches::quoting::QuoteError;
use crate::rules::fen::FenError;
use crate::rules::notation::MoveError;
use crate::rules::RuleError;

/// What is wrong with one line of a results file, or with the game it records.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// A quote is not closed.
    #[error(transparent)]
    Quote(#[from] QuoteError),
    /// A word is not `key=value`.
    #[error("'{word}' is not key=value")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A field every record has is missing.
    #[error("the field '{field}' is missing")]
    Missing {
        /// The field's key.
        field: String,
    },
    /// The game number is not a number.
    #[error("game number '{text}' is not a number")]
    GameNumber {
        /// The value found.
        text: String,
    },
    /// The loser is neither `white` nor `black`.
    #[error("loser '{text}': expected white or black")]
    Loser {
        /// The value found.
        text: String,
    },
    /// The variant is not a preset moulin knows.
    #[error("unknown variant '{variant}'")]
    UnknownVariant {
        /// The variant's name, as written.
        variant: String,
    },
    /// The variant is not one moulin knows (as `Rules::named` says it).
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// The start position cannot be read.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The opening cannot be played.
    #[error("{source}")]
    Opening {
        /// Why.
        source: BoxError,
    },
    /// The records hold games of more than one variant.
    #[error("variant {variant}: the records mix variants")]
    MixedVariants {
        /// The variant of this line.
        variant: String,
    },
    /// A move cannot be played where it is (counted over the opening and the moves).
    #[error("ply {ply}: {source}")]
    Ply {
        /// The move's number, from 1.
        ply: usize,
        /// Why it cannot be played.
        source: MoveError,
    },
    /// `end=rules`, but the rules have not ended the game.
    #[error("end=rules, but the game is not over after its moves")]
    NotOver,
    /// The result is not the one the rules give.
    #[error("result {result} but the rules say {rules} ({why})")]
    WrongResult {
        /// The recorded result.
        result: String,
        /// The rules' result.
        rules: &'static str,
        /// Why the rules ended the game.
        why: String,
    },
    /// An adjudicated game that the rules had ended.
    #[error("adjudicated, but the rules ended it: {why}")]
    AdjudicatedOver {
        /// Why the rules ended the game.
        why: String,
    },
    /// An adjudicated game with a result its kind cannot give (`movelimit` and `score-draw`
    /// only draw, `resign` never does).
    #[error("end={end} with result {result}: {}", if end == "resign" { "a resignation is not a draw" } else { "this adjudication only draws" })]
    AdjudicatedResult {
        /// The kind of adjudication.
        end: String,
        /// The recorded result.
        result: String,
    },
    /// A forfeit that does not say who lost.
    #[error("forfeit '{kind}' without loser")]
    NoLoser {
        /// The forfeit's kind.
        kind: String,
    },
    /// A forfeit in a game the rules had ended.
    #[error("forfeit '{kind}', but the rules had ended the game: {why}")]
    ForfeitOver {
        /// The forfeit's kind.
        kind: String,
        /// Why the rules ended the game.
        why: String,
    },
    /// A forfeit whose result is not a loss for the side that forfeits.
    #[error("{loser} forfeits but the result is {result}")]
    ForfeitResult {
        /// The side that forfeits.
        loser: &'static str,
        /// The recorded result.
        result: String,
    },
    /// A forfeit on a move by the side that was not to move.
    #[error("forfeit '{kind}' by {loser}, who was not to move")]
    NotToMove {
        /// The forfeit's kind.
        kind: String,
        /// The side that forfeits.
        loser: &'static str,
    },
    /// A forfeit for a bad answer that does not keep the answer.
    #[error("forfeit '{kind}' without the answer")]
    NoAnswer {
        /// The forfeit's kind.
        kind: String,
    },
    /// A forfeit for an answer that is legal.
    #[error("forfeit for the answer '{answer}', which is legal here")]
    LegalAnswer {
        /// The engine's answer.
        answer: String,
    },
    /// The result is none of `1-0`, `0-1`, `1/2-1/2`.
    #[error("result '{text}': expected 1-0, 0-1 or 1/2-1/2")]
    Result {
        /// The value found.
        text: String,
    },
    /// The game number is not one the match plays.
    #[error("game {game} is not a game of this match{}", match games {
        Some((n, last)) if n == last => format!(" (games 1 to {n})"),
        Some((n, last)) => format!(" ({n} games, numbered from 1 to {last} by pairs of each pairing)"),
        None => " (games are numbered from 1)".to_string(),
    })]
    NoSuchGame {
        /// The number found.
        game: usize,
        /// The games the match plays and the highest number among them, when known.
        games: Option<(usize, usize)>,
    },
    /// A player is not an engine of the match.
    #[error("'{name}' is not an engine of this match (the engines are {engines})")]
    NotAnEngine {
        /// The name found.
        name: String,
        /// The match's engines, joined.
        engines: String,
    },
    /// An engine plays both sides.
    #[error("'{name}' plays both White and Black")]
    PlaysItself {
        /// The engine's name.
        name: String,
    },
    /// The players are not those the schedule seats in this game.
    #[error("game {game} is played by {white} (White) and {black} (Black) in this match")]
    OtherSeats {
        /// The game's number.
        game: usize,
        /// The engine the schedule gives White.
        white: String,
        /// The engine the schedule gives Black.
        black: String,
    },
    /// The game is of another variant than the match.
    #[error("variant '{variant}', but the match plays {wanted}")]
    OtherVariant {
        /// The variant found.
        variant: String,
        /// The match's variant.
        wanted: String,
    },
    /// The records' settings line names no match to check the record against.
    #[error(
        "the records' settings line (or a '# games:' line) names no match: who played, and \
         which games, cannot be checked"
    )]
    NoMatch,
    /// The game's number was seen on an earlier line.
    #[error("game {game} is recorded twice (first on line {first})")]
    Twice {
        /// The game's number.
        game: usize,
        /// The line it was first on.
        first: usize,
    },
}
