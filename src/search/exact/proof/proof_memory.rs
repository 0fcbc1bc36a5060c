//! What the proof has established of each position (`Bounds`), in a table that its threads
//! share (`ProofMemory`). A position is kept in its canonical form under the board's 16
//! symmetries (`board_symmetry::canonical`, as the tables fold theirs), so that a position
//! and its images share one entry; and an entry is one word, the canonical position with what
//! is known of it, so that the threads read and write it without locks: a word is whole or not
//! there, and two threads that store at once lose one fact, never mix two.

use super::node::Node;
use crate::rules::board::Bitboard;
use crate::rules::board_symmetry::{canonical, inverse, transform_point};
use crate::search::exact::Wdl;
use std::sync::atomic::{AtomicU64, Ordering};

/// A position folded to its canonical form: the key of its entry and the symmetry that maps
/// the position to it.
#[derive(Clone, Copy)]
pub(super) struct Folded {
    /// The canonical sets (the side to move's in bits 0..24, the other's in 24..48) and the
    /// placements left (48..53).
    key: u64,
    symmetry: usize,
}

impl Folded {
    /// The canonical form of `node`.
    #[inline]
    pub(super) fn of(node: Node) -> Folded {
        let (ours, theirs, symmetry) = canonical(Bitboard(node.ours), Bitboard(node.theirs));
        Folded {
            key: u64::from(ours.0) | u64::from(theirs.0) << 24 | u64::from(node.left) << 48,
            symmetry,
        }
    }

    /// A hash of the canonical form.
    #[inline]
    pub(super) fn hash(self) -> u64 {
        crate::rng::mix(self.key)
    }

    /// The point of the canonical form that `point` maps to.
    #[inline]
    fn into_canonical(self, point: u8) -> u8 {
        transform_point(
            self.symmetry,
            crate::rules::board::Point::from_index(point.into()),
        )
        .0
    }

    /// The point of the position that the canonical form's `point` comes from.
    #[inline]
    fn out_of_canonical(self, point: u8) -> u8 {
        transform_point(
            inverse(self.symmetry),
            crate::rules::board::Point::from_index(point.into()),
        )
        .0
    }
}

/// What is known of a position's value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Bounds {
    /// The value is at least this.
    pub(super) lower: Wdl,
    /// The value is at most this.
    pub(super) upper: Wdl,
    /// The point of the turn that proved `lower` (in the position's own frame), if one did.
    pub(super) best: Option<u8>,
}

/// The bits of the key in a word; the bounds and the point above them.
const KEY_BITS: u32 = 53;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Where the placements left sit in the key.
const LEFT_SHIFT: u32 = 48;
/// Entries a bucket holds: four words, half a cache line.
const BUCKET: usize = 4;

/// An entry: the key, the lower and the upper bound plus one (2 bits each), the best point plus
/// one (5 bits, 0 for none). Never 0, so that 0 marks an empty entry.
fn pack(key: u64, bounds: Bounds, best: u8) -> u64 {
    key | ((bounds.lower + 1) as u64) << KEY_BITS
        | ((bounds.upper + 1) as u64) << (KEY_BITS + 2)
        | u64::from(best) << (KEY_BITS + 4)
}

/// The shared memory of a proof: a table of a fixed size, a word an entry, four to a bucket. A
/// full bucket gives up its entry of fewest placements left (the smallest subtree to prove
/// again).
pub struct ProofMemory {
    words: Vec<AtomicU64>,
    /// Buckets less one (their number is a power of two).
    mask: usize,
}

impl ProofMemory {
    /// A memory of about `bytes` (8 bytes an entry; at least one bucket).
    pub fn new(bytes: usize) -> ProofMemory {
        let buckets = (bytes / 8 / BUCKET).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        ProofMemory {
            words: (0..buckets * BUCKET).map(|_| AtomicU64::new(0)).collect(),
            mask: buckets - 1,
        }
    }

    /// Forgets everything: the next proof starts afresh.
    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// The entries a memory holds.
    pub fn capacity(&self) -> usize {
        self.words.len()
    }

    /// The entries in use.
    pub fn used(&self) -> usize {
        self.words
            .iter()
            .filter(|w| w.load(Ordering::Relaxed) != 0)
            .count()
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let b = (crate::rng::mix(key) as usize & self.mask) * BUCKET;
        &self.words[b..b + BUCKET]
    }

    /// What is known of the position folded to `folded`.
    #[inline]
    pub(super) fn get(&self, folded: Folded) -> Option<Bounds> {
        self.bucket(folded.key).iter().find_map(|w| {
            let word = w.load(Ordering::Relaxed);
            (word != 0 && word & KEY_MASK == folded.key).then(|| {
                let best = (word >> (KEY_BITS + 4) & 31) as u8;
                Bounds {
                    lower: (word >> KEY_BITS & 3) as Wdl - 1,
                    upper: (word >> (KEY_BITS + 2) & 3) as Wdl - 1,
                    best: best.checked_sub(1).map(|p| folded.out_of_canonical(p)),
                }
            })
        })
    }

    /// Adds a proven bound: the value is at least `lower` (proved by the turn onto `best`), or
    /// at most `upper`.
    #[inline]
    pub(super) fn store(&self, folded: Folded, lower: Wdl, upper: Wdl, best: Option<u8>) {
        let bucket = self.bucket(folded.key);
        let mut victim = 0;
        let mut victim_left = u64::MAX;
        for (i, w) in bucket.iter().enumerate() {
            let word = w.load(Ordering::Relaxed);
            if word == 0 {
                if victim_left > 0 {
                    (victim, victim_left) = (i, 0);
                }
                continue;
            }
            if word & KEY_MASK == folded.key {
                let (old_lower, old_upper) = (
                    (word >> KEY_BITS & 3) as Wdl - 1,
                    (word >> (KEY_BITS + 2) & 3) as Wdl - 1,
                );
                let old_best = (word >> (KEY_BITS + 4) & 31) as u8;
                let (lower, best) = if lower > old_lower {
                    (lower, best.map_or(0, |p| folded.into_canonical(p) + 1))
                } else {
                    (old_lower, old_best)
                };
                let bounds = Bounds {
                    lower,
                    upper: upper.min(old_upper),
                    best: None,
                };
                w.store(pack(folded.key, bounds, best), Ordering::Relaxed);
                return;
            }
            let left = (word & KEY_MASK) >> LEFT_SHIFT;
            if left + 1 < victim_left {
                (victim, victim_left) = (i, left + 1);
            }
        }
        let bounds = Bounds {
            lower,
            upper,
            best: None,
        };
        let best = best.map_or(0, |p| folded.into_canonical(p) + 1);
        bucket[victim].store(pack(folded.key, bounds, best), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Point;
    use crate::rules::board_symmetry::{transform, SYMMETRIES};

    fn set(names: &[&str]) -> u32 {
        names.iter().map(|n| Point::parse(n).unwrap().bb().0).sum()
    }

    #[test]
    fn a_position_and_its_images_share_what_is_known() {
        let node = Node {
            ours: set(&["d6", "a1", "f4"]),
            theirs: set(&["d2", "g7"]),
            left: 13,
        };
        let best = Point::parse("b4").unwrap();
        for s in 0..SYMMETRIES {
            let memory = ProofMemory::new(1 << 12);
            let image = |n: Node| Node {
                ours: transform(s, Bitboard(n.ours)).0,
                theirs: transform(s, Bitboard(n.theirs)).0,
                left: n.left,
            };
            memory.store(Folded::of(node), 0, 1, Some(best.0));
            let known = memory.get(Folded::of(image(node))).unwrap();
            // The best point, in the image's frame.
            assert_eq!(
                (known.lower, known.upper, known.best),
                (0, 1, Some(transform_point(s, best).0)),
                "symmetry {s}"
            );
            // Bounds add up; a lower bound without a move keeps the move of the one before.
            memory.store(Folded::of(image(node)), -1, 0, None);
            let known = memory.get(Folded::of(node)).unwrap();
            assert_eq!((known.lower, known.upper, known.best), (0, 0, Some(best.0)));
            // Another count of placements left is another position.
            assert!(memory.get(Folded::of(Node { left: 12, ..node })).is_none());
        }
    }

    #[test]
    fn a_full_bucket_gives_up_its_smallest_subtree() {
        let memory = ProofMemory::new(32);
        let node = |left: u8| Node {
            ours: set(&["d6"]),
            theirs: set(&["d2"]),
            left,
        };
        for left in [9, 3, 7, 5] {
            memory.store(Folded::of(node(left)), 0, 1, None);
        }
        assert_eq!(memory.used(), 4);
        memory.store(Folded::of(node(11)), -1, 0, None);
        assert!(memory.get(Folded::of(node(3))).is_none());
        for left in [9, 7, 5, 11] {
            assert!(memory.get(Folded::of(node(left))).is_some(), "{left}");
        }
    }
}
