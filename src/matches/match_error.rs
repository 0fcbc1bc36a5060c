//! What can go wrong in a match and around it: a results line that cannot be read or does not
//! replay (`LineError`), a records file of another match (`SettingsMismatch`), and everything
//! else (`MatchError`), each with a message that names the file, the line or the engine.

use super::engine::EngineFault;
use super::spec::SpecError;
use super::words::QuoteError;
use crate::durable::DurableError;
use crate::record::RecordError;
use crate::rules::fen::FenError;
use crate::rules::notation::MoveError;
use crate::rules::RuleError;
use crate::text::escaped;
use std::io;

/// An error of a lower layer, kept as its source (its message is shown as it is).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

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

/// How a records file's settings differ from those of the match that would resume it.
#[derive(Debug, thiserror::Error)]
pub enum SettingsMismatch {
    /// A quote in the settings is not closed.
    #[error(transparent)]
    Quote(#[from] QuoteError),
    /// Settings with other values, or missing (one description each).
    #[error("{}", .0.join("; "))]
    Differ(Vec<String>),
}

/// What stops a match, a replay, or the making of an opening book.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine spec cannot be read.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A time control cannot be read.
    #[error("time control '{text}': '{part}' is not a number of seconds")]
    TcNotSeconds {
        /// The time control, as given.
        text: String,
        /// The part that is not a number.
        part: String,
    },
    /// A time control's number is out of range.
    #[error("time control '{text}': '{part}' is out of range")]
    TcRange {
        /// The time control, as given.
        text: String,
        /// The part out of range.
        part: String,
    },
    /// A time control's number of moves per period is not a whole number above zero.
    #[error("time control {}: {} is not a number of moves (at least 1)", crate::text::quoted(.text), crate::text::quoted(.part))]
    TcMoves {
        /// The time control, as given.
        text: String,
        /// The part that is not a number of moves.
        part: String,
    },
    /// A time control gives no time.
    #[error("time control '{text}' gives no time at all")]
    TcNoTime {
        /// The time control, as given.
        text: String,
    },
    /// An SPRT word is not `key=value`.
    #[error("sprt: '{word}' is not key=value")]
    SprtNotKeyValue {
        /// The word.
        word: String,
    },
    /// An SPRT value is not a number.
    #[error("sprt: '{value}' in '{word}' is not a number")]
    SprtNotNumber {
        /// The value.
        value: String,
        /// The word it is in.
        word: String,
    },
    /// An SPRT key is not one of `elo0`, `elo1`, `alpha`, `beta`.
    #[error("sprt: unknown key '{key}' (elo0, elo1, alpha, beta)")]
    SprtKey {
        /// The key.
        key: String,
    },
    /// The SPRT lacks `elo0` or `elo1`.
    #[error("sprt: give elo0=<a> elo1=<b>")]
    SprtBounds,
    /// An SPRT hypothesis is beyond `MAX_SPRT_ELO` either way.
    #[error("sprt: {name}={elo} is out of range (-{max} to {max} Elo)")]
    SprtElo {
        /// `elo0` or `elo1`.
        name: &'static str,
        /// The value given (`stats::show_parameter`).
        elo: String,
        /// The bound.
        max: f64,
    },
    /// The SPRT's `elo0` is not below its `elo1`.
    #[error("sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    SprtOrder {
        /// The hypothesis H0 (`stats::show_parameter`).
        elo0: String,
        /// The hypothesis H1.
        elo1: String,
    },
    /// An SPRT error probability is not between 0 and 0.5.
    #[error("sprt: {name}={p} must be above 0 and below 0.5")]
    SprtProbability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given (`stats::show_parameter`).
        p: String,
    },
    /// A results line of a file cannot be read, or does not replay.
    #[error("{source_name}:{line}: {}", escaped(&source.to_string()))]
    Line {
        /// The file, as shown.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        source: LineError,
    },
    /// A results line read by `replay --drawn` cannot be read.
    #[error(
        "{source_name}:{line}: {} (--drawn reads match records, not PGN)",
        escaped(&source.to_string())
    )]
    DrawnLine {
        /// The file, as shown.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        source: LineError,
    },
    /// A file of games cannot be read.
    #[error("cannot read {source_name}: {source}")]
    Read {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A records file cannot be read.
    #[error("cannot read records {source_name}: {source}")]
    ReadRecords {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A records file cannot be written.
    #[error("cannot write records {source_name}: {source}")]
    WriteRecords {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A file of PGN-shaped records cannot be read.
    #[error("{source_name}: {source}")]
    Pgn {
        /// The file, as shown.
        source_name: String,
        /// Where and what.
        source: RecordError,
    },
    /// A game of a file of PGN-shaped records cannot be set up.
    #[error("{source_name}, game {game}: {source}")]
    PgnGame {
        /// The file, as shown.
        source_name: String,
        /// The game's number in the file, from 1.
        game: usize,
        /// Why.
        source: BoxError,
    },
    /// A PGN-shaped record whose moves cannot be played.
    #[error("{source}")]
    PgnMoves {
        /// Why.
        source: BoxError,
    },
    /// Some records do not replay.
    #[error("{failed} of {games} records failed")]
    RecordsFailed {
        /// The records that failed.
        failed: usize,
        /// The records read.
        games: usize,
    },
    /// Some PGN-shaped games do not replay.
    #[error("{failed} of {games} games failed")]
    GamesFailed {
        /// The games that failed.
        failed: usize,
        /// The games read.
        games: usize,
    },
    /// A new records file would replace one.
    #[error(
        "records {source_name} already exist: give --resume to continue that match, or --force \
         to replace them"
    )]
    RecordsExist {
        /// The file, as shown.
        source_name: String,
    },
    /// The records to resume are those of another match.
    #[error("records {source_name} are of another match, so cannot be resumed: {source}")]
    OtherMatch {
        /// The file, as shown.
        source_name: String,
        /// How the settings differ.
        source: SettingsMismatch,
    },
    /// A line of the records to resume cannot be read.
    #[error("records {source_name}, line {line}: {}", escaped(&source.to_string()))]
    ResumeLine {
        /// The file, as shown.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        source: LineError,
    },
    /// Another running match holds the records file.
    #[error(
        "records {source_name} are in use by another running match: wait for it to end or stop \
         it, then run again"
    )]
    RecordsInUse {
        /// The file, as shown.
        source_name: String,
    },
    /// A file to resume is not a regular file.
    #[error("records {source_name} is {kind}, not a file of records")]
    RecordsNotAFile {
        /// The file, as shown.
        source_name: String,
        /// What it is (`a named pipe`, `a folder`...).
        kind: &'static str,
    },
    /// The records to resume have no settings line.
    #[error(
        "{source_name} is not the records of a moulin match: no '# settings:' line heads it (its \
         first line: {first}); left as it is: name another file, or remove it (or use --force) \
         to start anew"
    )]
    NoSettings {
        /// The file, as shown.
        source_name: String,
        /// Its first line, quoted.
        first: String,
    },
    /// A new file of games (`--pgn`) would replace one.
    #[error("{source_name} already exists: give --resume to add to it, or --force to replace it")]
    FileExists {
        /// The file, as shown.
        source_name: String,
    },
    /// A file of games cannot be written.
    #[error("cannot write {source_name}: {source}")]
    Write {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A word of `--resign` or `--draw` that cannot be read.
    #[error("{flag}: {word_shown}{why}", word_shown = if word.is_empty() { String::new() } else { format!("{}: ", crate::text::quoted(word)) })]
    BadAdjudication {
        /// The flag.
        flag: &'static str,
        /// The word (empty when a key is missing).
        word: String,
        /// What is wrong with it.
        why: String,
    },
    /// No game thread could be started.
    #[error("could not start a game thread: {source}")]
    GameThread {
        /// The system's error.
        source: io::Error,
    },
    /// A game could not be written to the records: the match stops.
    #[error(
        "{source}: the match is stopped; game {game} is not recorded, the games before it are"
    )]
    NotRecorded {
        /// The game's number.
        game: usize,
        /// Why.
        source: Box<MatchError>,
    },
    /// A game could not be written to the `--pgn` file: the match stops.
    #[error("{source}: the match is stopped; game {game} is not in the PGN file")]
    NotInPgn {
        /// The game's number.
        game: usize,
        /// Why.
        source: Box<MatchError>,
    },
    /// An engine could not start (or finish its handshake) before the first game: nothing is
    /// played.
    #[error(
        "engine {} failed before its first game: {fault}",
        crate::text::quoted(name)
    )]
    NotStarted {
        /// The engine's name.
        name: String,
        /// What went wrong.
        fault: EngineFault,
    },
    /// An engine failed to start too many times in a row: the match stops.
    #[error("{name} failed to start {times} times in a row (last: {last}): the match is stopped")]
    StartFailures {
        /// The engine's name.
        name: String,
        /// How many times.
        times: u32,
        /// Why it failed the last time.
        last: String,
    },
    /// An openings file cannot be read, or one of its openings played.
    #[error("{source}")]
    Openings {
        /// Why (naming the file and the line).
        source: BoxError,
    },
    /// The endgame tables cannot be opened.
    #[error("endgame tables {}: {source}", dir.display())]
    Tables {
        /// The tables' folder.
        dir: std::path::PathBuf,
        /// Why.
        source: BoxError,
    },
    /// The journal of a book being made cannot be used.
    #[error(transparent)]
    Durable(#[from] DurableError),
    /// The engine scoring the openings cannot be started.
    #[error("{name}: {source}")]
    EngineStart {
        /// The engine's name.
        name: String,
        /// Why.
        source: EngineFault,
    },
    /// The engine scoring the openings gave no score.
    #[error("{name} reported no score for '{opening}' (expected 'info ... score cp X')")]
    NoScore {
        /// The engine's name.
        name: String,
        /// The opening.
        opening: String,
    },
    /// The engine scoring the openings failed twice on one.
    #[error("{name} failed twice on '{opening}'")]
    FailedTwice {
        /// The engine's name.
        name: String,
        /// The opening.
        opening: String,
    },
    /// The exact solver left the tables.
    #[error("'{opening}': a position on the way is not in the tables")]
    NotInTables {
        /// The opening.
        opening: String,
    },
    /// Some openings got no value (a solver thread failed).
    #[error("{missing} openings were not scored (a solver thread failed)")]
    Unscored {
        /// How many.
        missing: usize,
    },
    /// An engine speaks GBGP, which cannot state the match's variant.
    #[error(
        "engine {} speaks GBGP (proto=gbgp), which knows nine and twelve men's morris only: \
         variant {} cannot be played with it",
        crate::text::quoted(name),
        crate::text::quoted(variant)
    )]
    GbgpVariant {
        /// The engine's name.
        name: String,
        /// The variant, as given.
        variant: String,
    },
    /// A GBGP engine given a bound the dialect has no word for.
    #[error(
        "engine {} speaks GBGP (proto=gbgp), which bounds a search by clocks or a move time \
         only (the Nine Morris 3D GUI sends no {key}): leave out {key}=",
        crate::text::quoted(name)
    )]
    GbgpBound {
        /// The engine's name.
        name: String,
        /// The spec key: `nodes`, `depth` or `tc` (for `tc=inf`).
        key: &'static str,
    },
    /// An opening starts from a position the GBGP position string cannot state.
    #[error(
        "engine {} speaks GBGP (proto=gbgp), whose position string cannot state the start of \
         opening {number} ({}): {why}",
        crate::text::quoted(name),
        crate::text::quoted(opening)
    )]
    GbgpStart {
        /// The engine's name.
        name: String,
        /// The opening's number in the book, from 1.
        number: usize,
        /// The opening, as a book line.
        opening: String,
        /// Why the string cannot state its start.
        why: String,
    },
}
