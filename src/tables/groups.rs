//! The groups of the placing solution: the placing positions with `left` placements still to
//! come (both sides), `mover` pieces on the board for the side to move and `other` for the other
//! side. Every turn of the placing places a piece, so a group's moves all lead to groups with one
//! placement fewer (or, after the last, to the moving tables): the groups are solved from the
//! last placement back to the first.

use crate::rules::board::{Bitboard, ByColor, Color};
use crate::rules::position::Position;
use crate::rules::Rules;
use std::fmt;

/// One group of placing positions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Group {
    /// Placements left, both sides together (1 to twice the pieces a side).
    pub left: u8,
    /// Pieces on the board of the side to move.
    pub mover: u8,
    /// Pieces on the board of the other side.
    pub other: u8,
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.left, self.mover, self.other)
    }
}

/// The pieces in hand of the side to move and of the other side when `left` placements are left
/// in a game where the sides place in turn: the side to move places the next one, so it holds the
/// larger half.
pub fn hands(left: u8) -> (u8, u8) {
    (left.div_ceil(2), left / 2)
}

impl Group {
    /// Reads `left-mover-other` (as `Display` writes it).
    pub fn parse(text: &str) -> Option<Group> {
        let mut parts = text.split('-').map(|p| p.parse::<u8>().ok());
        let group = Group {
            left: parts.next()??,
            mover: parts.next()??,
            other: parts.next()??,
        };
        parts.next().is_none().then_some(group)
    }

    /// The pieces in hand of the side to move and of the other side.
    pub fn hands(self) -> (u8, u8) {
        hands(self.left)
    }

    /// The group of the position after a placement that removes `removed` of the other side's
    /// pieces (the other side is then to move; `left` is 0 when the placing is over).
    pub fn after(self, removed: u8) -> Group {
        Group {
            left: self.left - 1,
            mover: self.other - removed,
            other: self.mover + 1,
        }
    }
}

/// Every group a game of `rules` can reach from its start while it goes on, from the last
/// placement back to the first (the order they are solved in): the side to move has placed
/// `pieces - ceil(left / 2)` pieces and the other side `pieces - floor(left / 2)`; a side has
/// lost at most what the other's placements could remove (none before its third placement, then
/// at most `Rules::most_removals` a placement); and both sides still hold three pieces or more, on the
/// board and in hand together (a side with fewer has lost, and the game is over).
pub fn all(rules: &Rules) -> Vec<Group> {
    let n = rules.pieces;
    let most = rules.most_removals();
    let mut out = Vec::new();
    for left in 1..=2 * n {
        let (mover_hand, other_hand) = hands(left);
        let (mover_placed, other_placed) = (n - mover_hand, n - other_hand);
        let mover_lost_at_most = most * other_placed.saturating_sub(2);
        let other_lost_at_most = most * mover_placed.saturating_sub(2);
        for mover in mover_placed.saturating_sub(mover_lost_at_most)..=mover_placed {
            for other in other_placed.saturating_sub(other_lost_at_most)..=other_placed {
                if mover + mover_hand >= 3 && other + other_hand >= 3 && mover + other <= 24 {
                    out.push(Group { left, mover, other });
                }
            }
        }
    }
    out
}

/// The groups a placement of `group` leads to while the game goes on, by the pieces it removes
/// (0, then 1, up to `Rules::most_removals`): a group with `left` 0 names the moving table
/// `(mover, other)` after the last placement. A removal needs a mill, so three pieces of the
/// side to move once it has placed; a side left with fewer than three, board and hand, has lost.
pub fn successors(rules: &Rules, group: Group) -> Vec<Group> {
    let next_hand = hands(group.left - 1).0;
    (0..=rules.most_removals().min(group.other))
        .filter(|&k| k == 0 || group.mover + 1 >= 3)
        .map(|k| group.after(k))
        .filter(|next| next.mover + next_hand >= 3)
        .collect()
}

/// The placing position of `group` where the side to move (as White) holds `ours` and the other
/// side `theirs`.
pub fn position(rules: &Rules, group: Group, ours: u32, theirs: u32) -> Position {
    let (mover_hand, other_hand) = hands(group.left);
    Position::from_parts(
        *rules,
        ByColor::new(Bitboard(ours), Bitboard(theirs)),
        ByColor::new(mover_hand, other_hand),
        Color::White,
        0,
        0,
        1,
        ByColor::new(0, 0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_of_morabaraba_can_remove_three_pieces() {
        // One piece closing three mills on the board with diagonals earns three removals: the
        // groups list what three removals a placement reach and lead to them.
        let rules = Rules::preset("morabaraba").unwrap();
        let g = Group {
            left: 11,
            mover: 6,
            other: 7,
        };
        assert!(all(&rules).contains(&g));
        let after: Vec<u8> = successors(&rules, g).iter().map(|s| s.mover).collect();
        assert_eq!(after, [7, 6, 5, 4]);
        // Black, to move after its third placement from that group, may have lost three pieces.
        assert!(all(&rules).contains(&g.after(3)));
    }

    #[test]
    fn the_groups_of_the_standard_game() {
        let groups = all(&Rules::nine());
        // The start: 18 placements left, nothing on the board.
        assert!(groups.contains(&Group {
            left: 18,
            mover: 0,
            other: 0
        }));
        // Before the sixth placement nobody can have removed anything.
        assert!(groups
            .iter()
            .filter(|g| g.left >= 14)
            .all(|g| g.mover + g.other == 18 - g.left));
        // The last placement: Black to place its ninth piece, White holds 9 at most.
        let last: Vec<Group> = groups.iter().copied().filter(|g| g.left == 1).collect();
        assert!(last
            .iter()
            .all(|g| g.mover <= 8 && g.other <= 9 && g.mover >= 2));
        assert_eq!(hands(1), (1, 0));
        assert_eq!(hands(18), (9, 9));
        let g = Group {
            left: 5,
            mover: 6,
            other: 5,
        };
        assert_eq!(g.to_string(), "5-6-5");
        assert_eq!(Group::parse("5-6-5"), Some(g));
        for bad in ["5-6", "5-6-5-1", "5-6-x", "", "5--6", "-5-6-5", "300-1-1"] {
            assert_eq!(Group::parse(bad), None, "{bad}");
        }
        assert_eq!(
            g.after(1),
            Group {
                left: 4,
                mover: 4,
                other: 7
            }
        );
        // Solved last placement first.
        assert!(groups.windows(2).all(|w| w[0].left <= w[1].left));
    }
}
