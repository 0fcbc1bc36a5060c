//! What the engine loop waits for: a line of input, or the engine's report that one of its
//! threads ended.

use crate::engine::Done;

/// What the engine loop waits for.
pub(super) enum Event {
    /// One line of input.
    Line(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped whole.
    TooLong(usize),
    /// The end of input.
    Eof,
    /// One of the engine's threads ended (a search, perft, the bench, a book or tables read):
    /// handed back to `Engine::done`.
    Engine(Box<Done>),
    /// Stdout is gone (its reader left, or a write failed): nobody hears the engine any more.
    OutputGone,
}
