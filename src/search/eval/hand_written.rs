//! The hand-written evaluation, from the side to move's point of view, in centi-pieces (100 =
//! one piece): each term has a named weight (`Weights::DEFAULT`), tuned by matches; `terms`
//! lists the terms for the protocol's `eval` command.

use super::linear::LinearTerms;
use super::linear_weights::INPUTS;
use super::material::{material, PIECE};
use crate::rules::board::Bitboard;
use crate::rules::board::Color;
use crate::rules::position::Position;
use crate::rules::Rules;

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
    /// The linear terms, tapered in (`eval::evaluate`) when the rules are those they were
    /// fitted for (filled in by `for_rules`).
    pub linear: Option<LinearTerms>,
}

impl Weights {
    /// These weights with the linear terms of `rules`, if there are some.
    pub fn for_rules(self, rules: &Rules) -> Weights {
        Weights {
            linear: LinearTerms::for_rules(rules),
            ..self
        }
    }

    /// The weights the engine plays with, tuned by matches.
    pub const DEFAULT: Weights = Weights {
        mobility: 12,
        blocked_piece: -25,
        open_mill: 0,
        double_threat: 0,
        running_mill: 0,
        in_mill: 0,
        flying: 0,
        tempo: 10,
        linear: None,
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
    /// The pieces on the board and in hand (`PIECE` each).
    pub material: i32,
    /// The empty points next to the side's pieces (`Weights::mobility`).
    pub mobility: i32,
    /// The pieces that cannot move (`Weights::blocked_piece`).
    pub blocked: i32,
    /// The lines of two pieces and an empty point (`Weights::open_mill`).
    pub open_mills: i32,
    /// The points that would close two mills at once (`Weights::double_threat`).
    pub double_threats: i32,
    /// The running mills (`Weights::running_mill`).
    pub running_mills: i32,
    /// The pieces in standing mills (`Weights::in_mill`).
    pub in_mills: i32,
    /// Flying while the other side does not (`Weights::flying`).
    pub flying: i32,
}

impl Terms {
    /// The side's evaluation: the sum of its terms.
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
        material: PIECE * (ours.count() as i32 + i32::from(pos.in_hand(c))),
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

/// The hand-written evaluation, from the inputs of the side to move and of the other side when
/// it is made of the material, the mobility and the blocked pieces only (the other terms'
/// weights zero, neither side flying), as it is by default: the inputs hold those counts.
pub(super) fn written_from(
    pos: &Position,
    w: &Weights,
    x: &[[i32; INPUTS]; 2],
    flies: bool,
) -> i32 {
    let others = w.open_mill != 0 || w.double_threat != 0 || w.running_mill != 0 || w.in_mill != 0;
    if flies || others {
        return hand_written(pos, w);
    }
    material(pos)
        + w.mobility * (x[0][4] - x[1][4])
        + w.blocked_piece * (x[0][5] - x[1][5])
        + w.tempo
}

/// The hand-written evaluation for the side to move.
pub fn hand_written(pos: &Position, w: &Weights) -> i32 {
    let us = pos.side_to_move();
    terms(pos, us, w).total() - terms(pos, !us, w).total() + w.tempo
}
