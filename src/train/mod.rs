//! Learning the placing phase: `moulin train label` makes the truth (placing-phase positions,
//! each with the score of a search much deeper than match play affords, probing the endgame
//! tables at its leaves); `moulin train fit` learns the evaluation's placing weights from it;
//! `moulin train critical` finds the positions where one move keeps the value and most others
//! lose it. Labelled data live under the cache directory (`cache_dir`), never in the repository;
//! only the fitted weights (in `src/search/eval/linear_weights.rs`) and the critical suite
//! (`tests/data/critical-<variant>.txt`) are committed, each with the command that made it.
//!
//! The files: `label` draws and labels positions and reads label journals back; `fit` fits the
//! weights to the labels (and writes them as Rust source); `critical` finds critical positions
//! and measures an engine on a suite of them (`moulin train suite`). This module holds the
//! layer's error (`TrainError`, with what is wrong with a line, `LineFlaw`) and the cache
//! directory.

pub mod critical;
pub mod fit;
pub mod label;
pub mod net;
pub mod net_check;
pub mod net_data;
pub mod net_floats;
pub mod net_run;

use crate::durable::DurableError;
use crate::matches::run::replay::ReplayError;
use crate::rules::fen::FenError;
use crate::rules::notation::MoveError;
use crate::shipped::HeaderError;
use crate::tables::TablesError;
use std::path::PathBuf;

/// What is wrong with a line of a label journal or a suite.
#[derive(Debug, thiserror::Error)]
pub enum LineFlaw {
    /// The line has not the form it must have (which this says).
    #[error("expected {0}")]
    Form(&'static str),
    /// A field does not read (which this says).
    #[error("{0}")]
    Field(&'static str),
    /// A field does not read: which, and its text.
    #[error("{what} '{text}'")]
    FieldText {
        /// Which field: "bad value", "bad score".
        what: &'static str,
        /// Its text.
        text: String,
    },
    /// The position string does not read.
    #[error(transparent)]
    Position(#[from] FenError),
    /// A kept move does not read or is not legal.
    #[error("kept move '{token}': {source}")]
    KeptMove {
        /// The move as written.
        token: String,
        /// What is wrong with it.
        source: MoveError,
    },
}

impl LineFlaw {
    /// The field `what` ("bad value") does not read, its text `text`.
    pub fn field(what: &'static str, text: &str) -> LineFlaw {
        LineFlaw::FieldText {
            what,
            text: text.to_string(),
        }
    }
}

/// What went wrong in the training tools: a file that cannot be read or made, a bad line of a
/// journal or a suite, a game that does not replay, too little data, an engine that fails.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A journal or an output file could not be read, written or locked.
    #[error(transparent)]
    Journal(#[from] DurableError),
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A folder could not be made.
    #[error("cannot create {}: {source}", dir.display())]
    CreateDir {
        /// The folder.
        dir: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The cache directory of the labels could not be read.
    #[error("cannot read {}: {source} (run moulin train label)", dir.display())]
    NoLabelDir {
        /// The folder.
        dir: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// No label journal was named or found.
    #[error("no label files (run moulin train label)")]
    NoLabelFiles,
    /// A line of a label journal does not read.
    #[error("{}:{line}: {what}: {text}", path.display())]
    LabelLine {
        /// The journal.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        #[source]
        what: Box<LineFlaw>,
        /// The line's text.
        text: String,
    },
    /// A line of a suite does not read.
    #[error("{}:{line}: {what}", path.display())]
    SuiteLine {
        /// The suite.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        #[source]
        what: Box<LineFlaw>,
    },
    /// The endgame tables could not be opened.
    #[error(transparent)]
    Tables(TablesError),
    /// A network data file is not one these rules can use.
    #[error("{}: {flaw}", path.display())]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        flaw: DataFlaw,
    },
    /// Games could not be read from their files.
    #[error(transparent)]
    Games(ReplayError),
    /// A game read is under other rules than the variant's.
    #[error("game {game}: its rules are not the variant's")]
    GameRules {
        /// The game (from 1).
        game: usize,
    },
    /// A move of a game read is not legal.
    #[error("game {game}, turn {turn}: {source}")]
    GameMove {
        /// The game (from 1).
        game: usize,
        /// The turn (from 1).
        turn: usize,
        /// What is wrong with the move.
        source: MoveError,
    },
    /// The games of `--games` hold no position of the phase asked for.
    #[error("no {phase} position in the {games} games of --games")]
    NoPositions {
        /// `placing` or `moving`.
        phase: &'static str,
        /// The games read.
        games: usize,
    },
    /// An exact labelling run needs endgame tables for every moving position.
    #[error(
        "--exact needs endgame tables for every moving position ({pieces} a side): {}",
        if *largest == 0 {
            "none found (--tables, or moulin tables build)".to_string()
        } else {
            format!("those found go up to {largest} a side")
        }
    )]
    ExactTables {
        /// The pieces a side of the variant.
        pieces: u8,
        /// The most pieces a side of the tables found (0: none).
        largest: usize,
    },
    /// Too few labelled moving positions to fit the moving correction.
    #[error(
        "only {found} moving positions (neither side flying) in the labels: too few to fit the \
         moving correction"
    )]
    TooFewMoving {
        /// The moving positions found.
        found: usize,
    },
    /// Too few labelled placing positions to fit.
    #[error("only {found} placing positions in the labels (of {read} read): too few to fit")]
    TooFewPlacing {
        /// The placing positions found.
        found: usize,
        /// The labelled positions read.
        read: usize,
    },
    /// Too few critical positions among the candidates.
    #[error(
        "only {found} critical positions among the {candidates} candidates (journal {}): label \
         or draw more positions and run again",
        journal.display()
    )]
    TooFewCritical {
        /// The critical positions found.
        found: usize,
        /// The candidates searched.
        candidates: usize,
        /// The run's journal.
        journal: PathBuf,
    },
    /// The engine measured on a suite failed.
    #[error("{0}")]
    Engine(crate::matches::engines::engine_process::EngineFault),
    /// The endgame tables do not cover the end of a suite position.
    #[error("the tables {tables} do not cover the end of {position}")]
    Uncovered {
        /// The tables' folder.
        tables: String,
        /// The position string.
        position: String,
    },
}

/// What is wrong with a network data file (`net_data`).
#[derive(Debug, thiserror::Error)]
pub enum DataFlaw {
    /// Its header is not a data file's of this version for these rules (`shipped::header`).
    #[error("{0}")]
    Header(#[from] HeaderError),
    /// Blocks of another size.
    #[error("blocks of {found}, not {reads}")]
    Block {
        /// The file's block size.
        found: u32,
        /// The block size this code reads and writes (`net_data::BLOCK`).
        reads: usize,
    },
    /// Made with another seed than the run's.
    #[error("made with seed {theirs}, not {ours}")]
    Seed {
        /// The file's seed.
        theirs: u64,
        /// The run's.
        ours: u64,
    },
    /// Bytes after the last whole record.
    #[error("cut: {0} bytes after its last whole record")]
    Cut(usize),
    /// A record that is no position of the rules.
    #[error("record {0} is not a position of these rules")]
    Record(usize),
}

/// The directory of the training data of a variant: `$XDG_CACHE_HOME/moulin/train/<variant>`,
/// or `~/.cache/moulin/train/<variant>`.
pub fn cache_dir(variant: &str) -> PathBuf {
    crate::tables::cache_root().join("train").join(variant)
}

/// The lines of the file at `path` (numbered from 1), read one at a time, each at most
/// `input_file::MAX_LINE` bytes: a longer line, like a file that cannot be read, is an error
/// naming the file (and the line).
fn lines_of(
    path: &std::path::Path,
) -> Result<impl Iterator<Item = Result<(usize, String), TrainError>> + '_, TrainError> {
    let cannot = move |source| TrainError::Read {
        path: path.to_path_buf(),
        source,
    };
    let lines = crate::input_file::open_lines(path).map_err(cannot)?;
    Ok(lines.map(move |l| l.map_err(cannot)))
}
