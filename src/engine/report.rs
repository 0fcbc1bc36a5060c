//! What the engine tells its front end, and how: the `Listener` a front end gives it (as
//! Stockfish's engine takes `set_on_update_full` and `set_on_bestmove`), the `Note`s it says of
//! itself (what it loaded, what it could not use, what it cut), a search's progress, and the
//! `Done` reports of its threads, which the front end hands back to the engine on the thread that
//! owns it (`Engine::done`). The engine words nothing: each front end words a `Note` in its own
//! dialect (the protocol's reply layer, the terminal game, the analysis).

use super::inventory::{Absent, OpeningKnown};
use crate::book::Book;
use crate::box_error::BoxError;
use crate::rules::moves::Move;
use crate::rules::notation::{Convention, MoveError};
use crate::rules::position::Position;
use crate::search::bench::{BenchLine, BenchTotal};
use crate::search::exact::Wdl;
use crate::search::tt::Bound;
use crate::search::{Info, SearchResult, Searcher};
use crate::shipped::Source;
use crate::tables::placing::opening::Opening;
use crate::tables::{TableChange, Tables, Values};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The front end's ears: called from the engine's threads (a search's, a loader's) as well as
/// from the one that owns the engine, so it only words, sends or queues; it never calls the
/// engine back.
pub trait Listener: Send + Sync {
    /// A search's progress in `root`: a depth done, a better line, or the last line. A front
    /// end that shows no progress leaves it out.
    fn info(&self, root: &Position, notation: Convention, info: &Info) {
        let _ = (root, notation, info);
    }
    /// Something the engine says of itself.
    fn note(&self, note: Note);
    /// A job or a reading thread ended: the front end hands `done` to `Engine::done` on the
    /// thread that owns the engine.
    fn done(&self, done: Done);
}

/// Which of the engine's files a note is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The endgame tables (`TablesPath`).
    Tables,
    /// The opening's solution (`OpeningSolution`).
    OpeningSolution,
    /// The network evaluation (`EvalFile`).
    Network,
    /// The opening book (`BookFile`).
    Book,
}

impl Part {
    /// Its name in a sentence: "endgame tables", "opening solution", ...
    pub fn name(self) -> &'static str {
        match self {
            Part::Tables => "endgame tables",
            Part::OpeningSolution => "opening solution",
            Part::Network => "network",
            Part::Book => "opening book",
        }
    }

    /// The pronoun the engine plays on without: "them" for the tables, else "it".
    pub fn pronoun(self) -> &'static str {
        match self {
            Part::Tables => "them",
            _ => "it",
        }
    }
}

/// What the engine says of itself, for the front end to word (or only log).
#[derive(Debug)]
pub enum Note {
    /// A file a setting names is not there: the engine plays without it.
    Missing {
        /// Which file.
        part: Part,
        /// Its path.
        path: PathBuf,
    },
    /// A file could not be used (read, checked, or its thread panicked): the engine plays
    /// without it.
    Unusable {
        /// Which file.
        part: Part,
        /// Why.
        error: LoadError,
    },
    /// A thread that reads files could not be started.
    NoLoader {
        /// Which files it was to read.
        part: Part,
        /// The system's error.
        error: std::io::Error,
    },
    /// A table file changed since it was read: dropped, and read again.
    TableChanged {
        /// The file.
        path: PathBuf,
        /// How it changed.
        change: crate::tables::mapped::Change,
    },
    /// A changed table file read again and checked: in force again.
    TableBack {
        /// The file.
        path: PathBuf,
    },
    /// A changed table file that cannot be used any more: the engine plays without it.
    TableLost {
        /// The mover's and the other side's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
        /// Why.
        error: LoadError,
    },
    /// `Hash` does not fit in the memory the process may use: the table's size kept.
    HashCut {
        /// MB asked.
        asked: usize,
        /// MB kept.
        kept: usize,
    },
    /// `TablesCache` does not fit in the memory the process may use: the cache's size kept.
    TablesCacheCut {
        /// MB asked.
        asked: usize,
        /// MB kept.
        kept: usize,
    },
    /// The GUI's charge per move beyond the engine's own time, as learned anew.
    Overhead {
        /// The estimate in milliseconds.
        ms: u64,
    },
    /// The book answers in `root` (before the answer itself).
    BookMove {
        /// The position it answers in.
        root: Position,
        /// The notation in force.
        notation: Convention,
        /// The book's answer.
        answer: Box<BookAnswer>,
    },
    /// The exact solver found the book's move giving value away: the engine searches instead.
    BookRefused {
        /// The book's move.
        mv: Move,
    },
    /// One root move of perft and the leaves under it.
    PerftMove {
        /// The move as the notation in force writes it.
        mv: String,
        /// The leaves under it.
        leaves: u64,
    },
    /// Perft counted `leaves` at `depth` in `time`.
    PerftDone {
        /// The depth counted.
        depth: u32,
        /// The leaves in all.
        leaves: u64,
        /// The time it took.
        time: Duration,
    },
    /// Perft was stopped.
    PerftStopped,
    /// One position of the bench searched.
    BenchLine(BenchLine),
    /// The bench's total.
    BenchDone(BenchTotal),
    /// The bench was stopped.
    BenchStopped,
}

impl Note {
    /// Whether it says that something the engine was to use cannot be used.
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Note::Missing { .. }
                | Note::Unusable { .. }
                | Note::NoLoader { .. }
                | Note::TableLost { .. }
        )
    }
}

/// A note in a sentence, for a front end that says it as it is (the terminal's, and the
/// protocol's `info string`): not the lines of perft, the bench and a book move, which each
/// front end writes in its own form.
impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Missing { part, path } => write!(
                f,
                "{}: {}: no such file or folder; playing without {}",
                part.name(),
                path.display(),
                part.pronoun()
            ),
            Note::Unusable {
                part: Part::Book,
                error,
            } => write!(f, "opening book {error}; playing without a book"),
            Note::Unusable {
                part: Part::Network,
                error,
            } => write!(f, "{error}; evaluating without it"),
            Note::Unusable { part, error } => {
                write!(
                    f,
                    "{}: {error}; playing without {}",
                    part.name(),
                    part.pronoun()
                )
            }
            Note::NoLoader { part, error } => {
                let what = match part {
                    Part::Tables => "tables",
                    _ => part.name(),
                };
                write!(f, "cannot start the {what} loader: {error}")
            }
            Note::TableChanged { path, change } => write!(
                f,
                "endgame table {} changed: {change}; dropped, reading it again",
                path.display()
            ),
            Note::TableBack { path } => write!(
                f,
                "endgame table {} read again and checked: in force again",
                path.display()
            ),
            Note::TableLost {
                mover,
                other,
                error,
            } => write!(
                f,
                "endgame tables: {error}; playing without {mover}-{other}"
            ),
            Note::HashCut { asked, kept } => write!(
                f,
                "Hash: {asked} MB do not fit in the memory this process may use (its \
                 address-space limit, its memory): the table has {kept} MB"
            ),
            Note::TablesCacheCut { asked, kept } => write!(
                f,
                "TablesCache: {asked} MB do not fit in the memory this process may use (its \
                 address-space limit, its memory): the cache keeps at most {kept} MB"
            ),
            Note::Overhead { ms } => write!(
                f,
                "overhead: the GUI charges about {ms} ms a move beyond the engine's own time; \
                 kept in reserve besides MoveOverhead"
            ),
            Note::BookMove { answer, .. } => answer.fmt(f),
            Note::BookRefused { mv } => write!(
                f,
                "book {} gives value away (exact): searching",
                mv.turn_notation()
            ),
            Note::PerftMove { mv, leaves } => write!(f, "{mv} {leaves}"),
            Note::PerftDone {
                depth,
                leaves,
                time,
            } => {
                let secs = time.as_secs_f64();
                write!(
                    f,
                    "perft {depth}: {leaves} leaves in {secs:.3} s ({:.0} leaves/s)",
                    *leaves as f64 / secs.max(1e-9)
                )
            }
            Note::PerftStopped => f.write_str("perft stopped"),
            Note::BenchLine(line) => line.fmt(f),
            Note::BenchDone(total) => total.fmt(f),
            Note::BenchStopped => f.write_str("bench stopped"),
        }
    }
}

/// A move the book answers with.
#[derive(Debug)]
pub struct BookAnswer {
    /// The move to play (of a book turn answered in parts, the part), its score and the book's
    /// best reply.
    pub result: SearchResult,
    /// `Some(Lower)` when the score is a lower bound only: a move proven to keep at least a
    /// draw.
    pub bound: Option<Bound>,
    /// The book's whole turn.
    pub turn: Move,
    /// Its weight in the book.
    pub weight: u32,
    /// The value the exact solver proved it keeps at least (`book cover`: no need to check it
    /// again).
    pub proven: Option<Wdl>,
}

/// The book's move in a sentence: `book <turn> weight <w> [proven draw|proven win]`.
impl fmt::Display for BookAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book {} weight {}",
            self.turn.turn_notation(),
            self.weight
        )?;
        match self.proven {
            Some(v) => write!(f, " proven {}", crate::search::exact::name(v)),
            None => Ok(()),
        }
    }
}

/// Why a file read on a thread of its own could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The files could not be read (the lower layer's error, shown as it is).
    #[error("{0}")]
    Failed(BoxError),
    /// The file is not there.
    #[error("{}: no such file", .0.display())]
    NotThere(PathBuf),
    /// Reading them panicked (a bug); the panic's message.
    #[error("internal error: {0}")]
    Panicked(String),
}

/// What a tables thread read: the directory `TablesPath` names with its tables (`Err`: why it
/// names none), and the opening's solution with its source (`Err`: why none is read: none is
/// wanted, or the directory's placing solution is whole).
pub struct TablesRead {
    pub(super) tables: Result<(PathBuf, Result<Box<Tables>, LoadError>), Absent>,
    pub(super) opening: Result<(Source, Result<Opening, LoadError>), OpeningKnown>,
}

/// A thread of the engine's ended: handed back to `Engine::done`.
pub enum Done {
    /// The search thread is done and gives the searcher back.
    Search(Box<Searcher>, SearchResult),
    /// The search thread panicked (a bug): the searcher is lost; the panic's message.
    SearchPanicked(String),
    /// A book was read on its thread (`Err`: what was wrong with it, a missing file too).
    BookLoaded(Source, Result<Box<Book>, LoadError>),
    /// Endgame tables and the opening's solution were read on their thread for a request.
    TablesLoaded(u64, Box<TablesRead>),
    /// Table files that changed were read again for a request, each checked.
    TablesReread(u64, Vec<(TableChange, Result<Values, LoadError>)>),
    /// Perft finished (`Some(total, time)`) or was stopped (`None`).
    Perft(Option<(u64, Duration)>),
    /// The bench finished (`Some(total)`) or was stopped (`None`).
    Bench(Option<BenchTotal>),
}

impl Done {
    /// Whether it ends a job (a search, perft, the bench), not a read.
    pub fn ends_job(&self) -> bool {
        matches!(
            self,
            Done::Search(..) | Done::SearchPanicked(_) | Done::Perft(_) | Done::Bench(_)
        )
    }

    /// Whether it ends a read of the book or the tables.
    pub fn ends_read(&self) -> bool {
        !self.ends_job()
    }
}

/// Why the engine refused what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A `searchmoves` move that cannot be read.
    #[error("go searchmoves: {0}")]
    SearchMove(MoveError),
    /// A `searchmoves` move that is not legal here (as given).
    #[error("go searchmoves: '{}' is no legal move here", crate::text::printable(.0, 40))]
    NotInSearch(String),
    /// A job's thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
}

/// The message of a panic's payload.
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(std::string::ToString::to_string)
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}
