//! Static evaluation, from the side to move's point of view, in centi-pieces (100 = one piece).
//! Each term has a named weight (`Weights::DEFAULT`), tuned by matches; `terms` lists the terms
//! for the protocol's `eval` command.

use crate::rules::board::{Bitboard, Color};
use crate::rules::position::Position;

/// One piece, on the board or in hand.
pub const PIECE: i32 = 100;

/// The weights of the evaluation terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each empty point next to one of our pieces (while the side does not fly): the room to
    /// move, in the placing phase too, where it decides who will be blocked.
    pub mobility: i32,
    /// A piece that cannot move at all (while the side does not fly).
    pub blocked_piece: i32,
    /// Two of our pieces on a line whose third point is empty.
    pub open_mill: i32,
    /// A point where one of our arrivals would close two mills at once.
    pub double_threat: i32,
    /// A piece of a standing mill that can step out to a point where it closes another mill
    /// (a "running mill": a removal every other turn).
    pub running_mill: i32,
    /// A piece in a standing mill.
    pub in_mill: i32,
    /// The side flies while the other does not.
    pub flying: i32,
    /// Having the move.
    pub tempo: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        mobility: 12,
        blocked_piece: -25,
        open_mill: 0,
        double_threat: 0,
        running_mill: 0,
        in_mill: 0,
        flying: 0,
        tempo: 10,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The evaluation terms of one side, already weighted.
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
        self.named().iter().map(|(_, v)| v).sum()
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

/// The weighted terms of colour `c`.
pub fn terms(pos: &Position, c: Color, w: &Weights) -> Terms {
    let t = pos.rules().topology();
    let ours = pos.pieces(c);
    let theirs = pos.pieces(!c);
    let empty = pos.empty();
    let mut out = Terms {
        material: PIECE * (ours.count() as i32 + pos.in_hand(c) as i32),
        ..Terms::default()
    };
    let flies = pos.can_fly(c);
    if !flies {
        for from in ours {
            let n = (t.adjacent[from.index()] & empty).count() as i32;
            out.mobility += w.mobility * n;
            if n == 0 {
                out.blocked += w.blocked_piece;
            }
        }
    } else if !pos.can_fly(!c) {
        out.flying = w.flying;
    }
    if w.open_mill == 0 && w.double_threat == 0 && w.running_mill == 0 && w.in_mill == 0 {
        return out;
    }
    // Lines with two of ours and an empty third point; points that close two at once.
    let mut closers = Bitboard::EMPTY;
    let mut doubles = Bitboard::EMPTY;
    for line in &t.lines[..t.line_count] {
        if (*line & ours).count() == 2 && (*line & theirs).is_empty() {
            out.open_mills += w.open_mill;
            let third = *line & empty;
            doubles |= closers & third;
            closers |= third;
        }
    }
    out.double_threats = w.double_threat * doubles.count() as i32;
    let in_mills = t.in_mills(ours);
    out.in_mills = w.in_mill * in_mills.count() as i32;
    if pos.in_hand(c) == 0 && !flies {
        for from in in_mills {
            let rest = ours.without(from);
            let runs = (t.adjacent[from.index()] & empty)
                .into_iter()
                .any(|to| t.partners[to.index()].iter().any(|p| p.is_subset(rest)));
            if runs {
                out.running_mills += w.running_mill;
            }
        }
    }
    out
}

/// The static evaluation for the side to move.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let us = pos.side_to_move();
    terms(pos, us, w).total() - terms(pos, !us, w).total() + w.tempo
}

/// Material only: the evaluation of the plain baseline searcher.
pub fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let count = |c: Color| pos.on_board(c) as i32 + pos.in_hand(c) as i32;
    PIECE * (count(us) - count(!us))
}
