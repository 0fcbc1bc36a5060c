//! The symmetry key of a position (`fold`), which the book, the openings enumerator, the
//! training tools and the match runner share, built on the board's 16 symmetries
//! (`board_symmetry`, whose maps of points and sets and canonical form of a board are
//! re-exported here, where the callers have always found them).

use crate::rules::board::Color;
pub use crate::rules::board_symmetry::{
    canonical, inverse, transform, transform_fast, transform_point, SYMMETRIES,
};
use crate::rules::position::Position;
use crate::rules::{PlacingMoves, Reform};

/// A position folded to its canonical form: the packed key and the symmetry that folds it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Folded {
    /// Bits 0..24 Black's canonical points, 24..48 White's, 48..52 White's hand, 52..56
    /// Black's hand, 56 the side to move (1: Black), 57..59 the pending removals.
    pub key: u64,
    /// The symmetry that maps the position to its canonical form.
    pub symmetry: usize,
}

/// Folds a position to its canonical form (the one canonicalisation the book and the openings
/// enumerator share, built on `symmetry::canonical`).
#[inline]
pub fn fold(pos: &Position) -> Folded {
    let (w, b, symmetry) = canonical(pos.pieces(Color::White), pos.pieces(Color::Black));
    let key = u64::from(b.0)
        | u64::from(w.0) << 24
        | u64::from(pos.in_hand(Color::White)) << 48
        | u64::from(pos.in_hand(Color::Black)) << 52
        | u64::from(pos.side_to_move() == Color::Black) << 56
        | u64::from(pos.pending_removals()) << 57;
    Folded { key, symmetry }
}

/// Whether the key describes the position exactly: the key leaves out the spent-mill records
/// of the re-forming rules, which follow from the board while no piece has moved.
pub fn keyable(pos: &Position) -> bool {
    let rules = pos.rules();
    rules.reform == Reform::Allowed
        || (pos.is_placing() && rules.placing_moves == PlacingMoves::PlaceOnly)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::{Bitboard, BoardKind, Point};

    fn bb(names: &[&str]) -> Bitboard {
        names
            .iter()
            .fold(Bitboard::EMPTY, |b, n| b.with(Point::parse(n).unwrap()))
    }

    #[test]
    fn symmetries_preserve_lines_and_edges() {
        for kind in [BoardKind::Standard, BoardKind::Diagonal] {
            let t = kind.topology();
            for s in 0..SYMMETRIES {
                for line in &t.lines[..t.line_count] {
                    assert!(t.lines.contains(&transform(s, *line)), "symmetry {s}");
                }
                for a in Point::all() {
                    for b in t.adjacent[a.index()] {
                        let (ta, tb) = (transform_point(s, a), transform_point(s, b));
                        assert!(t.adjacent[ta.index()].has(tb));
                    }
                }
            }
        }
        let images: std::collections::HashSet<_> = (0..SYMMETRIES)
            .map(|s| {
                Point::all()
                    .map(|p| transform_point(s, p).index())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(images.len(), SYMMETRIES);
    }

    #[test]
    fn fast_transform_inverse_and_canonical_agree_with_the_table() {
        let sets = [
            bb(&["a7"]),
            bb(&["d6", "f4", "c3", "g1", "e5"]),
            Bitboard::ALL,
            bb(&["b6", "d5", "d1", "a4"]),
        ];
        for s in 0..SYMMETRIES {
            for &set in &sets {
                assert_eq!(transform_fast(s, set), transform(s, set), "symmetry {s}");
                assert_eq!(transform(inverse(s), transform(s, set)), set);
            }
        }
        let (w, b) = (sets[1], sets[3]);
        let (cw, cb, s) = canonical(w, b);
        assert_eq!((transform(s, w), transform(s, b)), (cw, cb));
        let least = (0..SYMMETRIES)
            .map(|s| (transform(s, w).0, transform(s, b).0))
            .min()
            .unwrap();
        assert_eq!((cw.0, cb.0), least);
        for t in 0..SYMMETRIES {
            let (tw, tb, _) = canonical(transform(t, w), transform(t, b));
            assert_eq!((tw, tb), (cw, cb));
        }
    }
}
