//! Analysis of games, for a person studying a game (docs/play-and-analyse.md, "Analysis"): grading every move of a
//! game, or valuing every legal move of one position (`moulin analyse`, in `commands/analyse_cmd.rs`).
//!
//! A game is analysed position by position: each position before a move is searched once, and a
//! move is graded by the winning chance it gave away (`chance`): the value before it against
//! the value after it, the next position's search negated (the same depth and evaluation), or
//! both exact where the opening's solution, the endgame tables or the game's end know them
//! (`grade`). Exact values and the search's stand on one scale; where exact knowledge ends, the
//! text and the page say so, and a result it proved is held while the search does not see it
//! undone (`exact_edge`). Book moves are shown as such and not graded.
//!
//! - `chance`: winning chances, the labels' thresholds, accuracy.
//! - `grade`: what is known of each position, the labels, the grading of a game's moves.
//! - `exact_edge`: where exact knowledge ends, and the result held past it.
//! - `analyst`: the searcher that reads, grades and values; `analyse_error`: what can go wrong.
//! - `analyse_report`: the reports as text or JSON; `html`: the report as one HTML page.

mod analyse_error;
pub mod analyse_report;
pub mod analyst;
pub mod chance;
pub mod exact_edge;
pub mod grade;
pub mod html;

pub use analyse_error::AnalyseError;
pub use analyst::{Analyst, Setup};
pub use chance::{BLUNDER, INACCURACY, MISTAKE};
pub use grade::{label, shown, Graded, Label};
