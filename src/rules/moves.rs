//! The move: one compact value for a whole turn (a placement or a step, with its removals), or
//! for a lone removal when a removal is pending (the two-token form of docs/rules.md,
//! "Notation").

use crate::rules::board::Point;
use crate::rules::board_symmetry::transform_point;

/// A move, packed in 32 bits:
///
/// ```text
///  bits  0..5   destination point (31: none, the move is a lone removal)
///  bits  5..10  origin point (31: none, the move places a piece from the hand)
///  bits 10..15  first removal (31: none)
///  bits 15..20  second removal (31: none; only under one removal per mill closed)
///  bits 20..25  third removal (31: none; a piece closing three mills on the diagonal board)
/// ```
///
/// Removals are kept in increasing point order: turns that differ only in the order of their
/// removals are the same move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

const NONE: u32 = 31;
const MASK: u32 = 31;
/// The three removal fields, all empty.
const NO_REMOVALS: u32 = NONE << 10 | NONE << 15 | NONE << 20;

impl Move {
    /// No move (all fields empty); never legal.
    pub const NULL: Move = Move(NONE | NONE << 5 | NO_REMOVALS);

    const fn pack(from: u32, to: u32, r1: u32) -> Move {
        Move(to | from << 5 | r1 << 10 | NONE << 15 | NONE << 20)
    }

    /// Place a piece on `to`.
    pub const fn place(to: Point) -> Move {
        Move::pack(NONE, to.index() as u32, NONE)
    }

    /// Move (or fly) a piece from `from` to `to`.
    pub const fn step(from: Point, to: Point) -> Move {
        Move::pack(from.index() as u32, to.index() as u32, NONE)
    }

    /// A lone removal, played when a removal is pending.
    pub const fn removal(at: Point) -> Move {
        Move::pack(NONE, NONE, at.index() as u32)
    }

    /// This move with one more removal (at most three); removals are kept in point order.
    pub const fn with_removal(self, at: Point) -> Move {
        // Insert into the sorted fields: NONE (31) sorts after every point.
        let mut r = [
            self.0 >> 10 & MASK,
            self.0 >> 15 & MASK,
            self.0 >> 20 & MASK,
        ];
        let mut x = at.index() as u32;
        let mut i = 0;
        while i < 3 {
            if x < r[i] {
                let t = r[i];
                r[i] = x;
                x = t;
            }
            i += 1;
        }
        Move(self.0 & 0x3ff | r[0] << 10 | r[1] << 15 | r[2] << 20)
    }

    /// The move without its removals.
    pub const fn without_removals(self) -> Move {
        Move(self.0 & 0x3ff | NO_REMOVALS)
    }

    const fn field(self, shift: u32) -> Option<Point> {
        let v = self.0 >> shift & MASK;
        if v == NONE {
            None
        } else {
            Point::new(v as usize)
        }
    }

    /// The point a piece is placed or stepped on; `None` for a lone removal.
    pub const fn to(self) -> Option<Point> {
        self.field(0)
    }

    /// The point a stepping piece leaves; `None` for a placement or a lone removal.
    pub const fn from(self) -> Option<Point> {
        self.field(5)
    }

    /// The removals this move carries, lowest point first.
    pub fn removals(self) -> impl Iterator<Item = Point> {
        [self.field(10), self.field(15), self.field(20)]
            .into_iter()
            .flatten()
    }

    /// The number of pieces the move removes.
    pub const fn removal_count(self) -> usize {
        (self.0 >> 10 & MASK != NONE) as usize
            + (self.0 >> 15 & MASK != NONE) as usize
            + (self.0 >> 20 & MASK != NONE) as usize
    }

    /// Whether the move is a lone removal (a removal pending in the action convention).
    pub const fn is_removal_only(self) -> bool {
        self.0 & MASK == NONE && self.0 >> 10 & MASK != NONE
    }

    /// Whether the move places a piece from the hand.
    pub const fn is_placement(self) -> bool {
        self.0 & MASK != NONE && self.0 >> 5 & MASK == NONE
    }

    /// Whether this is the null move (no move at all).
    pub const fn is_null(self) -> bool {
        self.0 == Move::NULL.0
    }

    /// The image of this move under symmetry `s` of the board (`board_symmetry::transform_point`).
    pub fn transformed(self, s: usize) -> Move {
        let map = |shift: u32| match self.field(shift) {
            Some(p) => transform_point(s, p).index() as u32,
            None => NONE,
        };
        let moved = Move::pack(map(5), map(0), NONE);
        self.removals()
            .fold(moved, |m, r| m.with_removal(transform_point(s, r)))
    }

    /// The raw 32-bit value (for hash tables and books).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The move with these raw bits, if they describe one (see the layout above).
    pub fn from_bits(bits: u32) -> Option<Move> {
        if bits >> 25 != 0 {
            return None;
        }
        let fields = [
            bits & MASK,
            bits >> 5 & MASK,
            bits >> 10 & MASK,
            bits >> 15 & MASK,
            bits >> 20 & MASK,
        ];
        if fields.iter().any(|&f| f != NONE && f >= 24) {
            return None;
        }
        Some(Move(bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(n: &str) -> Point {
        Point::parse(n).unwrap()
    }

    #[test]
    fn fields_round_trip() {
        let m = Move::step(pt("d6"), pt("d5"))
            .with_removal(pt("f2"))
            .with_removal(pt("b4"));
        assert_eq!(m.from(), Some(pt("d6")));
        assert_eq!(m.to(), Some(pt("d5")));
        assert_eq!(m.removals().collect::<Vec<_>>(), vec![pt("f2"), pt("b4")]);
        assert_eq!(m.turn_notation(), "d6-d5xf2xb4");
        assert_eq!(m.action_tokens(), vec!["d6-d5", "xf2", "xb4"]);
        assert_eq!(m.removal_count(), 2);
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        let other_order = Move::step(pt("d6"), pt("d5"))
            .with_removal(pt("b4"))
            .with_removal(pt("f2"));
        assert_eq!(m, other_order);
        let r = Move::removal(pt("b4"));
        assert!(r.is_removal_only() && !r.is_placement());
        assert_eq!(r.to_string(), "xb4");
        assert!(Move::place(pt("a1")).is_placement());
        assert_eq!(Move::NULL.to_string(), "none");
        assert_eq!(Move::from_bits(1 << 25), None);
        let three = Move::place(pt("b6"))
            .with_removal(pt("g1"))
            .with_removal(pt("a1"))
            .with_removal(pt("d5"));
        assert_eq!(three.removal_count(), 3);
        assert_eq!(three.turn_notation(), "b6xd5xg1xa1");
        assert_eq!(Move::from_bits(three.bits()), Some(three));
        assert_eq!(three.without_removals(), Move::place(pt("b6")));
    }
}
