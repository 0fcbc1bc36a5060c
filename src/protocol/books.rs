//! The opening book as a session plays it: loaded on a thread of its own, chosen from by weight,
//! and a book turn answered in parts when the notation or a double removal asks for it.

use super::options::Settings;
use super::reply::{one_line, Out};
use crate::book::{self, Book};
use crate::rng::Rng;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::SearchResult;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

/// The opening book, loaded at start on a thread of its own and waited for at the first `go`.
pub(super) enum BookSlot {
    None,
    Loading(thread::JoinHandle<Option<(PathBuf, Book)>>),
    Ready(Arc<Book>),
}

/// The book file the settings name: `BookFile`, or the default book of the variant in force
/// (`None` for custom rules, which have none).
pub(super) fn book_path(settings: &Settings) -> Option<PathBuf> {
    if !settings.book_file.is_empty() {
        return Some(PathBuf::from(&settings.book_file));
    }
    let variant = settings.rules.preset_name()?;
    book::find_default(variant).or_else(|| {
        log::warn!(
            "no opening book for variant {variant} ({} not found next to the executable nor in the \
             repository's book/): playing without one",
            book::file_name(variant)
        );
        None
    })
}

/// Loads a book: a missing file is a warning on stderr, a corrupt one an `info string error`
/// naming the line; either way the engine plays without a book.
pub(super) fn load_book(path: PathBuf, out: Out) -> Option<(PathBuf, Book)> {
    if !path.is_file() {
        log::warn!(
            "opening book {} not found: playing without one",
            path.display()
        );
        return None;
    }
    match Book::load(&path) {
        Ok(b) => {
            log::info!("opening book {}: {} positions", path.display(), b.len());
            Some((path, b))
        }
        Err(e) => {
            out.line(&format!(
                "info string error: opening book {}; playing without a book",
                one_line(&e.to_string())
            ));
            None
        }
    }
}

/// The session's books: the one in force, every one loaded so far, and a book turn answered in
/// part.
pub(super) struct Books {
    /// The book in force.
    slot: BookSlot,
    /// Every book loaded so far, by path: switching variants back and forth reads a file once.
    loaded: Vec<(PathBuf, Arc<Book>)>,
    /// A book turn answered in part (its step alone under `MoveNotation action`, or the first of
    /// two removals): the position it leaves and the whole turn, so that the next `go` in that
    /// position answers the rest of the turn.
    pending: Option<(Position, book::BookMove)>,
    /// For the weighted choice of book moves.
    random: Rng,
}

impl Books {
    pub(super) fn new() -> Books {
        Books {
            slot: BookSlot::None,
            loaded: Vec::new(),
            pending: None,
            random: Rng::from_time(),
        }
    }

    /// Forgets a book turn answered in part (a new game).
    pub(super) fn forget_pending(&mut self) {
        self.pending = None;
    }

    /// Starts loading the book of the settings on a thread of its own.
    pub(super) fn load_in_background(&mut self, settings: &Settings, out: Out) {
        if !settings.own_book {
            return;
        }
        let Some(path) = book_path(settings) else {
            return;
        };
        self.slot = match thread::Builder::new()
            .name("moulin-book".into())
            .spawn(move || load_book(path, out))
        {
            Ok(handle) => BookSlot::Loading(handle),
            Err(e) => {
                log::warn!("cannot start the book loader: {e}; playing without a book");
                BookSlot::None
            }
        };
    }

    /// Loads the book the settings name now (after `setoption`), unless it is already loaded.
    pub(super) fn reload(&mut self, settings: &Settings, out: Out) {
        self.pending = None;
        let wanted = if settings.own_book {
            book_path(settings)
        } else {
            None
        };
        self.wait();
        let Some(wanted) = wanted else {
            self.slot = BookSlot::None;
            return;
        };
        if let Some((_, b)) = self.loaded.iter().find(|(p, _)| *p == wanted) {
            self.slot = BookSlot::Ready(Arc::clone(b));
            return;
        }
        self.slot = match load_book(wanted, out) {
            Some((p, b)) => {
                let b = Arc::new(b);
                self.loaded.push((p, Arc::clone(&b)));
                BookSlot::Ready(b)
            }
            None => BookSlot::None,
        };
    }

    /// Waits for a book being loaded.
    fn wait(&mut self) {
        if let BookSlot::Loading(_) = self.slot {
            let BookSlot::Loading(handle) = std::mem::replace(&mut self.slot, BookSlot::None)
            else {
                unreachable!("matched above")
            };
            if let Ok(Some((p, b))) = handle.join() {
                let b = Arc::new(b);
                self.loaded.push((p, Arc::clone(&b)));
                self.slot = BookSlot::Ready(b);
            }
        }
    }

    /// The book's answer in the current position, if it has one: the `info string book` line
    /// and the result to give as `bestmove`.
    pub(super) fn answer(
        &mut self,
        settings: &Settings,
        pos: &Position,
    ) -> Option<(String, SearchResult)> {
        if !settings.own_book {
            return None;
        }
        self.wait();
        let BookSlot::Ready(book) = &self.slot else {
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
                let bm = book.choose(&pos, settings.book_variety, self.random.unit())?;
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
        } else if settings.notation == Convention::Action
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
        let score = bm.score.to_string();
        let info = format!(
            "info string book {} score {score} weight {}",
            bm.mv.turn_notation(),
            bm.weight
        );
        Some((
            info,
            SearchResult {
                best: Some(chosen),
                ponder,
                score: bm.score,
                depth: 0,
                nodes: 0,
                outcome: None,
            },
        ))
    }
}
