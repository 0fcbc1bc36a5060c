//! A placing position as the proof searches it (`Node`): the two sides' sets and the placements
//! left, nothing else, so that a turn is a few bit operations; its turns (`Turn`), generated
//! and ordered for the proof (`Turns`).

use crate::rules::board::{Bitboard, Topology, POINTS};
use crate::rules::position::Position;
use crate::rules::Rules;

/// A placing position between turns, seen from the side to move. The sides place in turn, so
/// the side to move holds the larger half of the placements left (`ours_hand`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Node {
    /// The side to move's points.
    pub(super) ours: u32,
    /// The other side's points.
    pub(super) theirs: u32,
    /// Placements left, both sides together.
    pub(super) left: u8,
}

/// No removal (a turn that closes no mill, or finds nothing to remove).
pub(super) const NO_REMOVAL: u8 = POINTS as u8;

/// One turn of the placing: a placement, with the removal it earns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Turn {
    /// The point placed on.
    pub(super) to: u8,
    /// The point of the other side's piece removed (`NO_REMOVAL`: none).
    pub(super) removal: u8,
}

impl Node {
    /// The node of a placing position between turns whose hands are as the game deals them
    /// (the side to move holds as many pieces in hand as the other side, or one more);
    /// `None` for any other position.
    pub(super) fn of(pos: &Position) -> Option<Node> {
        let us = pos.side_to_move();
        let (ours_hand, theirs_hand) = (pos.in_hand(us), pos.in_hand(!us));
        let dealt = ours_hand == theirs_hand || ours_hand == theirs_hand + 1;
        (pos.is_placing() && pos.pending_removals() == 0 && dealt && ours_hand > 0).then_some(
            Node {
                ours: pos.pieces(us).0,
                theirs: pos.pieces(!us).0,
                left: ours_hand + theirs_hand,
            },
        )
    }

    /// The pieces the side to move holds in hand.
    #[inline]
    pub(super) fn ours_hand(self) -> u32 {
        u32::from(self.left).div_ceil(2)
    }

    /// Whether the side to move has lost: fewer than three pieces, on the board and in hand.
    #[inline]
    pub(super) fn lost(self) -> bool {
        self.ours.count_ones() + self.ours_hand() < 3
    }

    /// The position after `turn`, seen from the other side, now to move.
    #[inline]
    pub(super) fn after(self, turn: Turn) -> Node {
        let removed = if turn.removal == NO_REMOVAL {
            0
        } else {
            1 << turn.removal
        };
        Node {
            ours: self.theirs & !removed,
            theirs: self.ours | 1 << turn.to,
            left: self.left - 1,
        }
    }
}

/// The turns of a node, each with its rank in the order they are tried (highest first).
pub(super) struct Turns {
    items: [(i64, Turn); MAX_TURNS],
    len: usize,
}

/// The most turns a placing position has: with `t` pieces for the other side, each of the at
/// most `24 - t` empty points is one turn, or `t` when it closes a mill (mills closed at once
/// earn one removal in the rules served), and `(24 - t) * max(t, 1)` is at most 144.
pub(super) const MAX_TURNS: usize = 144;

/// What a turn's rank is made of, from the most weighty: the point the memory holds, a mill
/// closed (the removal of a piece that stands in an open two of the other side first, then of
/// one with more neighbours), an opponent's mill blocked, then the point's neighbours (more
/// first). Measured on the start's proof (docs/results.md, 2026-11-26): without the block, 3.2
/// times the positions; a bonus for each open two the turn makes, 2.3 to 5.6 times; a history
/// of the turns that proved a bar before, from 26 times up.
const RANK_BEST: i64 = 1 << 40;
const RANK_MILL: i64 = 1 << 30;
const RANK_BLOCK: i64 = 1 << 20;
const RANK_NEIGHBOUR: i64 = 1 << 4;

impl Turns {
    /// The turns of `node` under `rules`, ranked (`best`, a point, first).
    #[inline]
    pub(super) fn of(node: Node, rules: &Rules, best: Option<u8>) -> Turns {
        let topology = rules.topology();
        let mut turns = Turns {
            items: [(
                0,
                Turn {
                    to: 0,
                    removal: NO_REMOVAL,
                },
            ); MAX_TURNS],
            len: 0,
        };
        let (ours, theirs) = (node.ours, node.theirs);
        let empty = !(ours | theirs) & Bitboard::ALL.0;
        // The other side's pieces worth removing first: those two of a line with its third
        // point empty (a mill it closes next).
        let threatening = open_twos(topology, theirs, empty);
        for q in Bitboard(empty) {
            let i = q.index();
            let closes = topology.partners[i].iter().any(|p| p.0 & ours == p.0);
            let blocks = topology.partners[i].iter().any(|p| p.0 & theirs == p.0);
            let mut rank = i64::from(topology.adjacent[i].count()) * RANK_NEIGHBOUR;
            if best == Some(i as u8) {
                rank += RANK_BEST;
            }
            if blocks {
                rank += RANK_BLOCK;
            }
            let removable = if closes {
                Position::removable_under(rules, Bitboard(theirs)).0
            } else {
                0
            };
            if removable == 0 {
                turns.push(rank, i as u8, NO_REMOVAL);
                continue;
            }
            for r in Bitboard(removable) {
                let j = r.index();
                let mut order = rank + RANK_MILL + i64::from(topology.adjacent[j].count());
                if threatening & 1 << j != 0 {
                    order += RANK_NEIGHBOUR;
                }
                turns.push(order, i as u8, j as u8);
            }
        }
        turns
    }

    #[inline]
    fn push(&mut self, rank: i64, to: u8, removal: u8) {
        self.items[self.len] = (rank, Turn { to, removal });
        self.len += 1;
    }

    /// The number of turns.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Swaps the `j`-th and the `k`-th turns.
    pub(super) fn swap(&mut self, j: usize, k: usize) {
        self.items.swap(j, k);
    }

    /// The `k`-th turn as they stand.
    pub(super) fn get(&self, k: usize) -> Turn {
        self.items[k].1
    }

    /// The turn to try `k`-th (`k` from 0, each once in increasing order): the highest ranked
    /// of those left, brought forward.
    #[inline]
    pub(super) fn pick(&mut self, k: usize) -> Turn {
        let mut top = k;
        for j in k + 1..self.len {
            if self.items[j].0 > self.items[top].0 {
                top = j;
            }
        }
        self.items.swap(k, top);
        self.items[k].1
    }
}

/// The points of `set` that stand two on a line whose third point is empty.
#[inline]
fn open_twos(topology: &Topology, set: u32, empty: u32) -> u32 {
    let mut out = 0;
    for line in &topology.lines[..topology.line_count] {
        let l = line.0;
        if (l & set).count_ones() == 2 && l & empty != 0 {
            out |= l & set;
        }
    }
    out
}

/// Whether the proof serves `rules`: pieces are only placed in the placing, and a turn removes
/// one piece at most (the forms `Node` and `Turn` hold).
pub(super) fn serves(rules: &Rules) -> bool {
    rules.placing_moves == crate::rules::PlacingMoves::PlaceOnly
        && rules.multi_mill == crate::rules::MultiMill::OneRemoval
}
