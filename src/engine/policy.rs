//! Where the engine's move comes from, decided once for every front end (the protocol, the
//! terminal game): the game's end, the opening book, the placing solution, the endgame tables
//! or the search. The book plays only at full strength (a limited level searches every move);
//! where the placing solution values every move it decides (a book move, even one proven to keep
//! a draw, may miss a win); with endgame tables a placing book move is played once the exact
//! solver has not found it giving value away, unless it was proven offline (`book cover`).

use super::books::Books;
use super::options::Settings;
use super::report::BookAnswer;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::{Outcome, Position};
use crate::search::exact::solved;
use crate::search::{SolvedChoice, Strength};
use crate::tables::Tables;

/// Where the move comes from.
#[derive(Debug)]
pub enum Source {
    /// Nowhere: the game is over.
    Over(Outcome),
    /// The book, played at once.
    Book(BookAnswer),
    /// The book, played once the exact solver (on the search's thread) has not found it giving
    /// value away; otherwise the search.
    CheckedBook(BookAnswer),
    /// The search (which plays from the placing solution and the tables where they decide).
    Search,
}

/// Whether the book may answer a `go` in `game`: the game goes on, no `searchmoves`, full
/// strength. The front end then waits for a book being read.
pub fn consults_book(game: &Game, searchmoves: &[Move], strength: Option<Strength>) -> bool {
    game.outcome().is_none() && searchmoves.is_empty() && strength.is_none()
}

/// Whether the placing solution decides the move in `root`: it covers the position and every
/// move's result (an opening's solution covers the moves of its plies but its last), and the
/// search follows it (`SolvedPlacing` not `off`): its move, or with `MultiPV` above 1 or `go
/// infinite` every move's exact value (`search::exact_lines`).
pub fn solution_decides(settings: &Settings, tables: Option<&Tables>, root: &Position) -> bool {
    settings.solved_placing != SolvedChoice::Off
        && tables.is_some_and(|t| {
            let moves = movegen::legal_moves(root, Convention::Turn);
            t.serves(root.rules()) && solved::move_values(t, root, &moves).is_some()
        })
}

/// Where the move in `game` comes from, the book consulted when `consults_book` (its choice by
/// `settings`' variety and notation; a book turn answered in part is finished from the book).
pub(super) fn choose(
    game: &Game,
    consults_book: bool,
    settings: &Settings,
    tables: Option<&Tables>,
    books: &mut Books,
) -> Source {
    if let Some(outcome) = game.outcome() {
        return Source::Over(outcome);
    }
    if !consults_book {
        return Source::Search;
    }
    let root = game.position();
    if !books.has_pending() && solution_decides(settings, tables, root) {
        return Source::Search;
    }
    let Some(answer) = books.answer(settings.book_variety, settings.notation, root) else {
        return Source::Search;
    };
    let checked = root.is_placing()
        && tables.is_some_and(Tables::has_moving)
        && !books.has_pending()
        && answer.proven.is_none();
    if checked {
        Source::CheckedBook(answer)
    } else {
        Source::Book(answer)
    }
}
