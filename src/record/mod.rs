//! Game records in a PGN-shaped text format (docs/matches.md, "Game records (PGN)"): tag pairs, then the moves
//! in the turn notation of docs/rules.md, "Notation" numbered by full moves, with `{comments}`,
//! `(variations)`, annotation glyphs (`$n`, `!`, `?`, `!!`, `??`, `!?`, `?!`) and the result;
//! and (`openings`) the openings files that say where the games of a match or a book cover start.
//!
//! ```text
//! [Event "moulin match"]
//! [Site "?"]
//! [Date "2026.11.23"]
//! [Round "3"]
//! [White "new"]
//! [Black "old"]
//! [Result "1-0"]
//! [Variant "nine"]
//!
//! 1. d6 f4 2. d2 b4 {the book ends here} 3. f6 (3. b6 d7) 3... d7 ... 1-0
//! ```
//!
//! `games` reads a file of any number of games (CRLF or LF line ends, a UTF-8 byte order mark
//! skipped) one game at a time, and checks every move, variations included, against the rules
//! the `Variant` tag names from the start the `FEN` tag gives; the first problem is an error
//! with its line and column. A game may be at most [`MAX_GAME_BYTES`] and its variations may
//! nest at most [`MAX_DEPTH`] deep, so that reading takes time in proportion to the file and
//! memory in proportion to one game, whatever the file. `write` makes the text that `read`
//! reads back to the same game.

pub mod game_record;
pub mod openings;
mod read;
pub mod record_error;
mod tokens;
mod write;

pub use game_record::{Ply, Record, MAX_DEPTH, MAX_GAME_BYTES, RESULTS, ROSTER};
pub use read::{games, read, Games};
pub use record_error::{RecordError, Why};
pub use write::write;
