//! Material: one piece (`PIECE`) and the balance of pieces on the board and in hand, the base
//! of every evaluation and the whole of the plain baseline's.

use crate::rules::board::Color;
use crate::rules::position::Position;

/// One piece, on the board or in hand.
pub const PIECE: i32 = 100;

/// Material only: the evaluation of the plain baseline searcher.
pub fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let count = |c: Color| pos.on_board(c) as i32 + i32::from(pos.in_hand(c));
    PIECE * (count(us) - count(!us))
}
