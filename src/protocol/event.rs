//! What the engine loop waits for: a line of input, or a thread's report.

use crate::book::Book;
use crate::search::bench::BenchTotal;
use crate::search::{SearchResult, Searcher};
use crate::tables::placing::opening::Opening;
use crate::tables::{TableChange, Tables, Values};
use std::path::PathBuf;
use std::time::Duration;

/// Why a book or tables read on a thread of their own could not be used.
#[derive(Debug, thiserror::Error)]
pub(super) enum LoadError {
    /// The files could not be read (the lower layer's error, shown as it is).
    #[error("{0}")]
    Failed(Box<dyn std::error::Error + Send + Sync>),
    /// Reading them panicked (a bug); the panic's message.
    #[error("internal error: {0}")]
    Panicked(String),
}

/// What a tables thread read: the directory `TablesPath` names (`None`: it names none), and the
/// opening's solution with its path (`None`: none is wanted, or the directory's placing solution
/// is whole).
pub(super) struct TablesRead {
    pub(super) tables: Option<Result<Box<Tables>, LoadError>>,
    pub(super) opening: Option<(PathBuf, Result<Opening, LoadError>)>,
}

/// What the engine loop waits for.
pub(super) enum Event {
    /// One line of input.
    Line(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped whole.
    TooLong(usize),
    /// The end of input.
    Eof,
    /// The search thread is done and gives the searcher back.
    SearchDone(Box<Searcher>, SearchResult),
    /// The search thread panicked (a bug): the searcher is lost.
    SearchPanicked(String),
    /// A book was read on its thread (`Err`: what was wrong with it, a missing file too).
    BookLoaded(PathBuf, Result<Box<Book>, LoadError>),
    /// Endgame tables and the opening's solution were read on their thread for a request
    /// (each part's `Err`: what was wrong).
    TablesLoaded(u64, TablesRead),
    /// Table files that changed were read again for a request, each checked (`Err`: what is
    /// wrong with it now).
    TablesReread(u64, Vec<(TableChange, Result<Values, LoadError>)>),
    /// Perft finished (`Some(total, time)`) or was stopped (`None`).
    PerftDone(Option<(u64, Duration)>),
    /// The bench finished (`Some(total)`) or was stopped (`None`).
    BenchDone(Option<BenchTotal>),
    /// Stdout is gone (its reader left, or a write failed): nobody hears the engine any more.
    OutputGone,
}
