//! The opening book as the engine plays it: loaded on a thread of its own, chosen from by
//! weight, and a book turn answered in parts when the notation or a double removal asks for it.

use super::inventory::{Absent, BookKnown};
use super::options::Settings;
use super::report::{BookAnswer, Done, Listener, LoadError, Note, Part};
use crate::book::{self, Book, Variety};
use crate::rng::Rng;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::exact::Wdl;
use crate::search::tt::Bound;
use crate::search::{Score, SearchResult, TABLE_BOUND};
use crate::shipped::Source;
use std::sync::Arc;
use std::thread;

/// The book in force.
enum BookSlot {
    /// None, and why.
    Absent(Absent),
    /// Being read on a thread of its own, which reports `Done::BookLoaded` when done.
    Loading(Source),
    Ready(Source, Arc<Book>),
}

/// The book the settings name: `BookFile` (`none` for none), or the default book of the
/// variant in force, built in (`None` when `OwnBook` is off, and for the variants and custom
/// rules that have none).
fn book_source(settings: &Settings) -> Option<Source> {
    if !settings.own_book {
        return None;
    }
    let variant = settings.rules.preset_name();
    crate::shipped::chosen(
        settings.book_file.as_ref(),
        variant.map(book::file_name).as_deref(),
    )
}

/// Reads a book (a file at most `book::MAX_FILE_BYTES` long). A missing file is an error like a
/// damaged one: the GUI is told (a `BookFile` mistyped), not only the log.
fn read_book(source: &Source) -> Result<Book, LoadError> {
    if let Source::File(path) = source {
        if !path.exists() {
            return Err(LoadError::NotThere(path.clone()));
        }
    }
    let book = Book::load_source(source).map_err(|e| LoadError::Failed(e.into()))?;
    log::info!("opening book {source}: {} positions", book.len());
    Ok(book)
}

/// The engine's books: the one in force, every one loaded so far, and a book turn answered in
/// part.
pub(super) struct Books {
    /// The book in force.
    slot: BookSlot,
    /// Every book loaded so far, by source: switching variants back and forth reads one once.
    loaded: Vec<(Source, Arc<Book>)>,
    /// A book turn answered in part (its step alone under `MoveNotation action`, or the first of
    /// two removals): the position it leaves and the whole turn, so that the next `go` in that
    /// position answers the rest of the turn.
    pending: Option<(Position, book::BookMove)>,
    /// For the weighted choice of book moves.
    random: Rng,
}

impl Books {
    /// No book yet.
    pub(super) fn new() -> Books {
        Books {
            slot: BookSlot::Absent(Absent::Reading),
            loaded: Vec::new(),
            pending: None,
            random: Rng::from_time(),
        }
    }

    /// Whether a book turn is answered in part (its rest comes from the book next).
    pub(super) fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Forgets a book turn answered in part (a new game).
    pub(super) fn forget_pending(&mut self) {
        self.pending = None;
    }

    /// Puts the book the settings name in force: at once when it is loaded already (switching
    /// variants back and forth reads a file once), otherwise it is read on a thread of its own
    /// that reports with `Done::BookLoaded`; commands go on being answered meanwhile.
    pub(super) fn request(&mut self, settings: &Settings, listener: &Arc<dyn Listener>) {
        self.pending = None;
        let Some(wanted) = book_source(settings) else {
            self.slot = BookSlot::Absent(if !settings.own_book {
                Absent::NoOwnBook
            } else if crate::shipped::is_none(settings.book_file.as_ref()) {
                Absent::TurnedOff
            } else {
                Absent::NoneForTheseRules
            });
            return;
        };
        if let Some((_, b)) = self.loaded.iter().find(|(p, _)| *p == wanted) {
            self.slot = BookSlot::Ready(wanted, Arc::clone(b));
            return;
        }
        if matches!(&self.slot, BookSlot::Loading(p) if *p == wanted) {
            return;
        }
        let source = wanted.clone();
        let listener = Arc::clone(listener);
        let spawned = thread::Builder::new()
            .name("moulin-book".into())
            .spawn(move || {
                let read = read_book(&source).map(Box::new);
                listener.done(Done::BookLoaded(source, read));
            });
        self.slot = match spawned {
            Ok(_) => BookSlot::Loading(wanted),
            Err(e) => {
                log::warn!("cannot start the book loader: {e}; playing without a book");
                BookSlot::Absent(Absent::Unusable)
            }
        };
    }

    /// A book read on its thread: kept, and in force if it is the one the settings still name.
    /// A book that could not be read (missing, damaged, too large) is reported as one error
    /// note (`Note::Unusable`), for the GUI, and in the log; the engine then plays without a book.
    pub(super) fn loaded(
        &mut self,
        source: Source,
        read: Result<Box<Book>, LoadError>,
        listener: &dyn Listener,
    ) {
        let wanted = matches!(&self.slot, BookSlot::Loading(s) if *s == source);
        match read {
            Ok(book) => {
                let book: Arc<Book> = Arc::from(book);
                self.loaded.push((source.clone(), Arc::clone(&book)));
                if wanted {
                    self.slot = BookSlot::Ready(source, book);
                }
            }
            Err(e) => {
                if wanted {
                    self.slot = BookSlot::Absent(Absent::Unusable);
                    log::warn!("opening book {e}; playing without a book");
                    listener.note(Note::Unusable {
                        part: Part::Book,
                        error: e,
                    });
                }
            }
        }
    }

    /// Plays without the book being read (it took too long).
    pub(super) fn give_up(&mut self) {
        if self.is_loading() {
            self.slot = BookSlot::Absent(Absent::Reading);
        }
    }

    /// What the book in force is, or why there is none.
    pub(super) fn known(&self) -> BookKnown {
        match &self.slot {
            BookSlot::Absent(why) => BookKnown::Absent(*why),
            BookSlot::Loading(_) => BookKnown::Absent(Absent::Reading),
            BookSlot::Ready(source, book) => BookKnown::Ready {
                origin: source.origin(),
                positions: book.len(),
            },
        }
    }

    /// Whether the book in force is still being read.
    pub(super) fn is_loading(&self) -> bool {
        matches!(self.slot, BookSlot::Loading(_))
    }

    /// The book's answer in `pos`, if it has one: chosen by `variety`; a turn answered in parts
    /// when `notation` shows a step alone, or of two removals.
    pub(super) fn answer(
        &mut self,
        variety: Variety,
        notation: Convention,
        pos: &Position,
    ) -> Option<BookAnswer> {
        let BookSlot::Ready(_, book) = &self.slot else {
            return None;
        };
        let book = Arc::clone(book);
        let pos = *pos;
        let legal = movegen::legal_moves(&pos, Convention::Turn);
        let (bm, chosen) = match self.pending.take() {
            // The removal of a book turn whose step was answered alone.
            Some((after_step, bm)) if after_step == pos => {
                let removal = legal.iter().copied().find(|m| {
                    m.is_removal_only() && m.removals().all(|r| bm.mv.removals().any(|t| t == r))
                })?;
                (bm, removal)
            }
            _ => {
                let bm = book.choose(&pos, variety, self.random.unit())?;
                if !legal.contains(&bm.mv) {
                    return None;
                }
                (bm, bm.mv)
            }
        };
        let mut after = pos;
        after.play(chosen);
        if after.pending_removals() > 0 {
            // One of two removals: the next `go` answers the other.
            self.pending = Some((after, bm));
        } else if notation == Convention::Action
            && chosen.to().is_some()
            && chosen.removal_count() > 0
        {
            // `bestmove` shows the step alone: the next `go` answers the removal.
            let mut after_step = pos;
            after_step.play(chosen.without_removals());
            self.pending = Some((after_step, bm));
        }
        let ponder = book
            .probe(&after)
            .and_then(|moves| moves.first().map(|m| m.mv));
        let (score, bound) = match bm.exact {
            Some(v) => proven_score(v),
            None => (bm.score, None),
        };
        Some(BookAnswer {
            result: SearchResult {
                best: Some(chosen),
                ponder,
                score,
                depth: 0,
                nodes: 0,
                outcome: None,
                table: None,
                solved: None,
            },
            bound,
            turn: bm.mv,
            weight: bm.weight,
            proven: bm.exact,
        })
    }
}

/// The score of a book move the exact solver proved to keep at least `proven` (`>=draw` or
/// `>=win`, the only marks the book format takes), as the placing solution states its values
/// (§6): a win is the least win the tables prove, `cp 28000` (no distance is known); a draw at
/// least is `cp 0` and a lower bound (the position may be won: the proof says only that it is
/// not lost).
fn proven_score(proven: Wdl) -> (Score, Option<Bound>) {
    if proven >= 1 {
        (Score::Cp(TABLE_BOUND), None)
    } else {
        (Score::Cp(0), Some(Bound::Lower))
    }
}
