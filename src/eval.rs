//! Static evaluation, from the side to move's point of view, in centi-pieces (100 = one piece).
//! Each term is a named weight so that matches can tune them; `terms` lists them for the
//! protocol's `eval` command.

use crate::board::{Bitboard, Color};
use crate::position::Position;

/// One piece, on the board or in hand.
pub const PIECE: i32 = 100;
/// Each legal destination of a piece in the moving phase.
pub const MOBILITY: i32 = 6;
/// A piece that cannot move at all in the moving phase.
pub const BLOCKED_PIECE: i32 = -12;
/// Two of our pieces on a line whose third point is empty.
pub const OPEN_MILL: i32 = 14;
/// A point where one of our arrivals would close two mills at once.
pub const DOUBLE_THREAT: i32 = 30;
/// A piece standing in a mill that can step out to a point from which it closes another mill
/// (a "running mill": it closes a mill every other turn).
pub const RUNNING_MILL: i32 = 45;
/// A piece in a standing mill.
pub const IN_MILL: i32 = 8;
/// Bonus for the side that flies while the other does not (flying is strong with few pieces).
pub const FLYING: i32 = 40;
/// Bonus for having the move.
pub const TEMPO: i32 = 10;

/// The evaluation terms of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    pub material: i32,
    pub mobility: i32,
    pub blocked: i32,
    pub open_mills: i32,
    pub double_threats: i32,
    pub running_mills: i32,
    pub in_mills: i32,
    pub flying: i32,
}

impl Terms {
    pub fn total(&self) -> i32 {
        self.material
            + self.mobility
            + self.blocked
            + self.open_mills
            + self.double_threats
            + self.running_mills
            + self.in_mills
            + self.flying
    }

    /// The terms with their names, for display.
    pub fn named(&self) -> [(&'static str, i32); 8] {
        [
            ("material", self.material),
            ("mobility", self.mobility),
            ("blocked", self.blocked),
            ("open mills", self.open_mills),
            ("double threats", self.double_threats),
            ("running mills", self.running_mills),
            ("in mills", self.in_mills),
            ("flying", self.flying),
        ]
    }
}

/// The terms of colour `c`.
pub fn terms(pos: &Position, c: Color) -> Terms {
    let t = pos.rules().topology();
    let ours = pos.pieces(c);
    let theirs = pos.pieces(!c);
    let empty = pos.empty();
    let mut out = Terms {
        material: PIECE * (ours.count() as i32 + pos.in_hand(c) as i32),
        ..Terms::default()
    };
    let moving = pos.in_hand(c) == 0;
    let flies = pos.can_fly(c);
    if moving && !flies {
        for from in ours {
            let n = (t.adjacent[from.index()] & empty).count() as i32;
            out.mobility += MOBILITY * n;
            if n == 0 {
                out.blocked += BLOCKED_PIECE;
            }
        }
    }
    if flies && !pos.can_fly(!c) {
        out.flying = FLYING;
    }
    // Lines with two of ours and an empty third point; points that close two at once.
    let mut closers = Bitboard::EMPTY;
    let mut doubles = Bitboard::EMPTY;
    for line in &t.lines[..t.line_count] {
        let mine = *line & ours;
        if mine.count() == 2 && (*line & theirs).is_empty() {
            out.open_mills += OPEN_MILL;
            let third = *line & empty;
            doubles |= closers & third;
            closers |= third;
        }
    }
    out.double_threats = DOUBLE_THREAT * doubles.count() as i32;
    // Running mills: a piece in one of our mills next to an empty point that closes another mill
    // of ours when it steps there.
    let in_mills = t.in_mills(ours);
    out.in_mills = IN_MILL * in_mills.count() as i32;
    if moving && !flies {
        for from in in_mills {
            let rest = ours.without(from);
            for to in t.adjacent[from.index()] & empty {
                if t.partners[to.index()].iter().any(|p| p.is_subset(rest)) {
                    out.running_mills += RUNNING_MILL;
                    break;
                }
            }
        }
    }
    out
}

/// The static evaluation for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    terms(pos, us).total() - terms(pos, !us).total() + TEMPO
}

/// Material only: the evaluation of the plain baseline searcher.
pub fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let count = |c: Color| pos.on_board(c) as i32 + pos.in_hand(c) as i32;
    PIECE * (count(us) - count(!us))
}
