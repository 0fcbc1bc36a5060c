//! Analysis of games, for a person studying a game (docs/play-and-analyse.md, "Analysis"): grading every move of a
//! game, or valuing every legal move of one position (`moulin analyse`, in `commands/analyse_cmd.rs`).
//!
//! A game is analysed position by position: each position before a move is searched once, so
//! that the value before a move is that search's score, and the value after it is the next
//! search's score, negated (both from the mover's side). The loss of a move is what it gave away
//! against the best move of the same search from the same position (`grade::Compared`), never
//! the drop from one position's value to the next's, which swings with the depth's parity; its
//! label follows the thresholds in `grade`. Positions the endgame tables cover get their exact
//! value; book moves are shown as such and not graded.
//!
//! - `grade`: the labels, their thresholds, and the grading of a game's moves.
//! - `analyst`: the searcher that reads, grades and values; `analyse_error`: what can go wrong.
//! - `analyse_report`: the reports as text or JSON; `html`: the report as one HTML page.

mod analyse_error;
pub mod analyse_report;
pub mod analyst;
pub mod grade;
pub mod html;

pub use analyse_error::AnalyseError;
pub use analyst::{Analyst, Setup};
pub use grade::{label, shown, Graded, Label, BLUNDER, INACCURACY, MISTAKE};
