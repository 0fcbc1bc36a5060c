//! A solved value, for the side to move: a win, a draw or a loss (`Wdl`, the tables' own:
//! `tables::Wdl`), how it is written (`name`, `from_name`), and where it comes from without a
//! search (a game over, a table value).

use crate::rules::position::Position;
use crate::tables::Value;

pub use crate::tables::Wdl;

/// How a value is written: `loss`, `draw`, `win`.
pub fn name(v: Wdl) -> &'static str {
    ["loss", "draw", "win"][(v.clamp(-1, 1) + 1) as usize]
}

/// The value `name` writes.
pub fn from_name(text: &str) -> Option<Wdl> {
    ["loss", "draw", "win"]
        .iter()
        .position(|n| *n == text)
        .map(|i| i as Wdl - 1)
}

/// The value of a game that is over, for the side to move (`None` while it goes on).
pub fn outcome(pos: &Position) -> Option<Wdl> {
    pos.quick_outcome().map(|o| o.value_for(pos.side_to_move()))
}

/// The win/draw/loss class of a table value.
pub fn wdl(v: Value) -> Wdl {
    v.wdl()
}
