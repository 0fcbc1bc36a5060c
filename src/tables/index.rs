//! Where a position lives in its pair's table, up to the board's 16 symmetries.
//!
//! A pair `(a, b)` holds the moving-phase positions with `a` pieces for the side to move (the
//! mover) and `b` for the other side. The mover's set is brought to the least of its 16 images
//! (its class representative); the other side's set, moved by the same symmetry, is then one of
//! the `C(24 - a, b)` subsets of the free points, ranked in the combinatorial number system. So a
//! slot is `class * C(24 - a, b) + rank` (the scheme of Gévay and Danner's Malom: the white set's
//! rank among its symmetry classes times the combination of the black set among the free
//! points). When the representative is fixed by some symmetries, the other set is brought to the
//! least of its images under those too; the other slots of such a class are never used.

use crate::rules::board::Bitboard;
use crate::rules::symmetry::{transform_fast, SYMMETRIES};
use std::ops::Range;
use std::sync::LazyLock;

/// The number of points.
const POINTS: usize = 24;

/// `BINOMIAL[n][k]` = C(n, k) for n, k <= 24.
static BINOMIAL: [[u64; POINTS + 1]; POINTS + 1] = binomials();

const fn binomials() -> [[u64; POINTS + 1]; POINTS + 1] {
    let mut c = [[0u64; POINTS + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

/// C(n, k).
pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n][k]
    }
}

/// The classes of point sets under the symmetries, for every size the tables use: their least
/// images, in increasing order, with the symmetries that fix each.
#[derive(Clone)]
pub struct Classes {
    /// Per size: the representatives, sorted.
    reps: Vec<Vec<u32>>,
    /// Per size and representative: a bit per symmetry that maps it to itself (bit 0, the
    /// identity, always).
    fixed_by: Vec<Vec<u16>>,
    /// Per size, by the rank of a set among the sets of its size (`rank`): its class number and
    /// the symmetry that maps it to the representative (`class << 4 | symmetry`). Small enough
    /// to stay in cache (1.4 MB for sets of 7).
    lookup: Vec<Vec<u32>>,
}

impl Classes {
    /// The classes of the sets of 0 to `largest` points.
    pub fn new(largest: usize) -> Classes {
        let mut lookup = Vec::new();
        let mut reps = Vec::new();
        let mut fixed_by = Vec::new();
        for size in 0..=largest {
            let mut r = Vec::new();
            let mut f = Vec::new();
            for set in sets_of(size) {
                if least_image(set).0 == set {
                    let fixed = (0..SYMMETRIES)
                        .filter(|&s| transform_fast(s, Bitboard(set)).0 == set)
                        .fold(0u16, |acc, s| acc | 1 << s);
                    r.push(set);
                    f.push(fixed);
                }
            }
            // Sets come in increasing order, so `r` is sorted; colex order is increasing order,
            // so the i-th set has rank i.
            let by_rank: Vec<u32> = sets_of(size)
                .map(|set| {
                    let (least, s) = least_image(set);
                    let class = r.binary_search(&least).expect("the least image is a class");
                    (class as u32) << 4 | s as u32
                })
                .collect();
            lookup.push(by_rank);
            reps.push(r);
            fixed_by.push(f);
        }
        Classes {
            reps,
            fixed_by,
            lookup,
        }
    }

    /// The number of classes of sets of `size` points.
    pub fn count(&self, size: usize) -> usize {
        self.reps[size].len()
    }

    /// The largest set size covered.
    pub fn largest(&self) -> usize {
        self.reps.len() - 1
    }
}

/// The number of slots of pair `(mover, other)`, without building its index.
pub fn pair_len(mover: usize, other: usize) -> u64 {
    let classes = sets_of(mover).filter(|&s| least_image(s).0 == s).count() as u64;
    classes * binomial(POINTS - mover, other)
}

/// Every set of `size` of the 24 points, in increasing order.
fn sets_of(size: usize) -> impl Iterator<Item = u32> {
    subsets(POINTS, size)
}

/// Every set of `k` of the points `0..n` (as bits), in increasing order.
pub fn subsets(n: usize, k: usize) -> impl Iterator<Item = u32> {
    let first: u32 = (1u32 << k) - 1;
    std::iter::successors(Some(first), move |&x| {
        if k == 0 {
            None
        } else {
            Some(next_combination(x))
        }
    })
    .take_while(move |&x| u64::from(x) < 1u64 << n)
}

/// The least image of a set under the 16 symmetries, with a symmetry that makes it.
fn least_image(set: u32) -> (u32, usize) {
    let mut best = set;
    let mut best_s = 0;
    for s in 1..SYMMETRIES {
        let image = transform_fast(s, Bitboard(set)).0;
        if image < best {
            best = image;
            best_s = s;
        }
    }
    (best, best_s)
}

/// The next larger number with as many set bits (Gosper's hack).
fn next_combination(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// The low bits of `packed` spread onto the set bits of `mask` (of the 24 points; a `pdep`, a
/// byte of `mask` at a time).
#[inline]
pub fn expand(packed: u32, mask: u32) -> u32 {
    let t = &*BYTES;
    let (m0, m1, m2) = (mask & 0xff, mask >> 8 & 0xff, mask >> 16 & 0xff);
    let n0 = m0.count_ones();
    let n1 = n0 + m1.count_ones();
    u32::from(t.spread[m0 as usize][(packed & 0xff) as usize])
        | u32::from(t.spread[m1 as usize][(packed >> n0 & 0xff) as usize]) << 8
        | u32::from(t.spread[m2 as usize][(packed >> n1 & 0xff) as usize]) << 16
}

/// What one byte of a set adds to its rank, and one byte's squeeze, by table: ranking a set
/// (the work of every probe and of every successor a build counts) costs six lookups instead of
/// a loop over its points.
struct ByteTables {
    /// `squeeze[free][set]`: the points of `set` among those of `free`, packed low (one byte's
    /// `pext`).
    squeeze: Box<[[u8; 256]]>,
    /// `spread[mask][packed]`: the low bits of `packed` onto the points of `mask` (one byte's
    /// `pdep`, the inverse of `squeeze`).
    spread: Box<[[u8; 256]]>,
    /// `share[ROW[j] + below][byte]`: what byte `j` (points `8j..8j + 8`) of a set adds to the
    /// set's rank when `below` of its points lie below the byte: the sum of `C(8j + b, below +
    /// t)` over the byte's `t`-th point `b`.
    share: Box<[[u32; 256]]>,
}

/// The first row of `ByteTables::share` for each byte: byte 0 has nothing below it, byte 1 up
/// to 8 points, byte 2 up to 16.
const ROW: [usize; 3] = [0, 1, 10];

impl ByteTables {
    fn new() -> ByteTables {
        let mut squeeze = vec![[0u8; 256]; 256].into_boxed_slice();
        for (free, row) in squeeze.iter_mut().enumerate() {
            for (set, out) in row.iter_mut().enumerate() {
                *out = squeeze_byte(set as u32, free as u32) as u8;
            }
        }
        let mut spread = vec![[0u8; 256]; 256].into_boxed_slice();
        for (mask, row) in spread.iter_mut().enumerate() {
            for (packed, out) in row.iter_mut().enumerate() {
                *out = spread_byte(packed as u32, mask as u32) as u8;
            }
        }
        let mut share = vec![[0u32; 256]; 27].into_boxed_slice();
        for (j, &first) in ROW.iter().enumerate() {
            for below in 0..=8 * j {
                for (byte, out) in share[first + below].iter_mut().enumerate() {
                    let mut sum = 0;
                    for (t, b) in (0..8).filter(|b| byte & 1 << b != 0).enumerate() {
                        sum += binomial(8 * j + b, below + t + 1);
                    }
                    *out = sum as u32;
                }
            }
        }
        ByteTables {
            squeeze,
            spread,
            share,
        }
    }
}

/// The points of `set` among those of `free`, packed low, one point at a time (what
/// `ByteTables::squeeze` holds, for a byte).
fn squeeze_byte(set: u32, free: u32) -> u32 {
    let mut out = 0;
    for (i, p) in (0..8).filter(|p| free & 1 << p != 0).enumerate() {
        if set & 1 << p != 0 {
            out |= 1 << i;
        }
    }
    out
}

/// The low bits of `packed` onto the points of the byte `mask`, one point at a time (what
/// `ByteTables::spread` holds).
fn spread_byte(packed: u32, mask: u32) -> u32 {
    let mut out = 0;
    for (i, p) in (0..8).filter(|p| mask & 1 << p != 0).enumerate() {
        if packed & 1 << i != 0 {
            out |= 1 << p;
        }
    }
    out
}

static BYTES: LazyLock<ByteTables> = LazyLock::new(ByteTables::new);

/// The rank of a set among the sets of its size (combinatorial number system, colex order).
#[inline]
fn rank(set: u32) -> u64 {
    let t = &*BYTES;
    let (b0, b1, b2) = (set & 0xff, set >> 8 & 0xff, set >> 16 & 0xff);
    let c1 = b0.count_ones() as usize;
    let c2 = c1 + b1.count_ones() as usize;
    u64::from(
        t.share[ROW[0]][b0 as usize]
            + t.share[ROW[1] + c1][b1 as usize]
            + t.share[ROW[2] + c2][b2 as usize],
    )
}

/// The rank of `set` among the sets of its size of the points not in `taken` (`rank` of `set`
/// with the points of `taken` squeezed out).
#[inline]
fn rank_among_free(set: u32, taken: u32) -> u64 {
    let t = &*BYTES;
    let free = !taken;
    let (f0, f1, f2) = (free & 0xff, free >> 8 & 0xff, free >> 16 & 0xff);
    let n0 = f0.count_ones();
    let n1 = n0 + f1.count_ones();
    let squeezed = u32::from(t.squeeze[f0 as usize][(set & 0xff) as usize])
        | u32::from(t.squeeze[f1 as usize][(set >> 8 & 0xff) as usize]) << n0
        | u32::from(t.squeeze[f2 as usize][(set >> 16 & 0xff) as usize]) << n1;
    rank(squeezed)
}

/// The set of `k` points of rank `r` (the inverse of `rank`).
fn unrank(mut r: u64, k: usize) -> u32 {
    let mut out = 0;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while binomial(p + 1, i) <= r {
            p += 1;
        }
        r -= binomial(p, i);
        out |= 1 << p;
    }
    out
}

/// A mover's set as the index sees it: its class and the symmetry that brings it to the class's
/// representative. The successors of a position that remove nothing all share the mover's set
/// (the side that did not move), so a build finds it once for them all.
pub struct MoverSet {
    class: usize,
    symmetry: usize,
    rep: u32,
    fixed: u16,
}

impl MoverSet {
    /// Whether no symmetry but the identity fixes the set: then two different positions with
    /// this mover's set are never one position up to symmetry.
    pub fn is_asymmetric(&self) -> bool {
        self.fixed == 1
    }
}

/// The slots of one pair.
pub struct PairIndex<'c> {
    /// The pieces of the side to move.
    pub mover: usize,
    /// The pieces of the other side.
    pub other: usize,
    classes: &'c Classes,
    /// Slots per class: C(24 - mover, other).
    per_class: u64,
}

impl<'c> PairIndex<'c> {
    /// The index of pair `(mover, other)`; `classes` must cover sets of `mover` points.
    pub fn new(mover: usize, other: usize, classes: &'c Classes) -> PairIndex<'c> {
        assert!(mover <= classes.largest(), "classes of {mover} points");
        PairIndex {
            mover,
            other,
            classes,
            per_class: binomial(POINTS - mover, other),
        }
    }

    /// The number of slots.
    pub fn len(&self) -> u64 {
        self.classes.count(self.mover) as u64 * self.per_class
    }

    /// Whether the pair has no slot.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slot of the position where the mover holds `mover` and the other side `other`.
    #[inline]
    pub fn slot(&self, mover: u32, other: u32) -> u64 {
        self.slot_with(&self.mover_set(mover), other)
    }

    /// The mover's set `mover` placed in the index, for the slots of the positions that share
    /// it (`slot_with`).
    #[inline]
    pub fn mover_set(&self, mover: u32) -> MoverSet {
        let entry = self.classes.lookup[self.mover][rank(mover) as usize];
        let class = (entry >> 4) as usize;
        MoverSet {
            class,
            symmetry: (entry & 15) as usize,
            rep: self.classes.reps[self.mover][class],
            fixed: self.classes.fixed_by[self.mover][class],
        }
    }

    /// The slot of the position where the mover holds `mover`'s set and the other side `other`.
    #[inline]
    pub fn slot_with(&self, mover: &MoverSet, other: u32) -> u64 {
        let moved = transform_fast(mover.symmetry, Bitboard(other)).0;
        self.slot_in_class(mover.class, mover.rep, mover.fixed, moved)
    }

    /// The slots of each class: `C(24 - mover, other)`.
    pub fn per_class(&self) -> u64 {
        self.per_class
    }

    /// The representative of class `class` of the mover's sets, and the symmetries that fix it
    /// (a bit each, the identity's always set).
    pub fn class(&self, class: usize) -> (u32, u16) {
        (
            self.classes.reps[self.mover][class],
            self.classes.fixed_by[self.mover][class],
        )
    }

    /// The slot of the position where the mover holds class `class`'s representative `rep`
    /// exactly and the other side `other` (`slot` without finding the class: for a loop over
    /// the classes). `fixed` is the class's symmetries (`class`).
    #[inline]
    pub fn slot_in_class(&self, class: usize, rep: u32, fixed: u16, other: u32) -> u64 {
        let mut o = other;
        let mut fixing = fixed & !1;
        while fixing != 0 {
            let t = fixing.trailing_zeros() as usize;
            o = o.min(transform_fast(t, Bitboard(other)).0);
            fixing &= fixing - 1;
        }
        class as u64 * self.per_class + rank_among_free(o, rep)
    }

    /// The position of a slot: (mover's set, other side's set).
    pub fn position(&self, slot: u64) -> (u32, u32) {
        let class = (slot / self.per_class) as usize;
        let r = slot % self.per_class;
        let rep = self.classes.reps[self.mover][class];
        let free = !rep & ((1 << POINTS) - 1);
        (rep, expand(unrank(r, self.other), free))
    }

    /// The positions of the slots of `range`, in order: `(slot, mover's set, other side's
    /// set)`, each found from the one before (the next set of the other side's, spread onto
    /// the free points) instead of from its slot as `position` does.
    pub fn positions(&self, range: Range<u64>) -> impl Iterator<Item = (u64, u32, u32)> + '_ {
        let mut slot = range.start;
        // The class, its representative and free points, and the other side's set squeezed.
        let mut at: Option<(usize, u32, u32, u32)> = None;
        std::iter::from_fn(move || {
            if slot >= range.end {
                return None;
            }
            let (class, rep, free, squeezed) = match at {
                Some((class, rep, free, squeezed)) if !slot.is_multiple_of(self.per_class) => {
                    (class, rep, free, next_combination(squeezed))
                }
                _ => {
                    let class = (slot / self.per_class) as usize;
                    let rep = self.classes.reps[self.mover][class];
                    let free = !rep & ((1 << POINTS) - 1);
                    (class, rep, free, unrank(slot % self.per_class, self.other))
                }
            };
            at = Some((class, rep, free, squeezed));
            slot += 1;
            Some((slot - 1, rep, expand(squeezed, free)))
        })
    }

    /// `is_canonical` of a position `positions` gave: the slot's own.
    #[inline]
    pub fn is_canonical_position(&self, slot: u64, mover: u32, other: u32) -> bool {
        let class = (slot / self.per_class) as usize;
        self.classes.fixed_by[self.mover][class] == 1 || self.slot(mover, other) == slot
    }

    /// Whether the slot is the one its class of positions is stored in (false for the spare
    /// slots of classes whose mover set some symmetries fix).
    pub fn is_canonical(&self, slot: u64) -> bool {
        let class = (slot / self.per_class) as usize;
        if self.classes.fixed_by[self.mover][class] == 1 {
            return true;
        }
        let (m, o) = self.position(slot);
        self.slot(m, o) == slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank of `set` among the sets of its size of the points not in `taken`, a point at a
    /// time (what the byte tables give).
    fn rank_among_free_naive(set: u32, taken: u32) -> u64 {
        let mut r = 0;
        for (i, p) in (1..).zip((0..24).filter(|p| set & 1 << p != 0)) {
            let below = (taken & ((1u32 << p) - 1)).count_ones();
            r += binomial((p - below) as usize, i);
        }
        r
    }

    #[test]
    fn ranks_by_byte_equal_ranks_by_point() {
        // Sets of every size, some points taken, spread over the 24 points.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let taken = (x as u32) & (x >> 32) as u32 & 0xff_ffff;
            let set = (x >> 24) as u32 & !taken & 0xff_ffff;
            assert_eq!(
                rank_among_free(set, taken),
                rank_among_free_naive(set, taken)
            );
            assert_eq!(rank(set), rank_among_free_naive(set, 0));
        }
        for k in [0, 1, 9, 12, 24] {
            let last = ((1u64 << 24) - (1u64 << (24 - k))) as u32;
            assert_eq!(rank(last), binomial(24, k) - 1, "the last set of {k}");
        }
    }

    #[test]
    fn positions_in_order_equal_positions_by_slot() {
        let classes = Classes::new(4);
        for (m, o) in [(3, 0), (3, 3), (4, 2), (2, 4)] {
            let index = PairIndex::new(m, o, &classes);
            let n = index.len();
            let mut count = 0;
            for (slot, mover, other) in index.positions(0..n) {
                assert_eq!((mover, other), index.position(slot), "{m}-{o} slot {slot}");
                assert_eq!(
                    index.is_canonical_position(slot, mover, other),
                    index.is_canonical(slot)
                );
                count += 1;
            }
            assert_eq!(count, n);
            let mid = n / 3..n / 3 + 77;
            assert!(index.positions(mid.clone()).map(|p| p.0).eq(mid));
        }
        for packed in 0..1 << 9 {
            let mask = 0b1010_0110_0000_1111_0101_0001;
            let naive = (0..24)
                .filter(|p| mask & 1 << p != 0)
                .enumerate()
                .filter(|(i, _)| packed & 1 << i != 0)
                .fold(0, |acc, (_, p)| acc | 1 << p);
            assert_eq!(expand(packed, mask), naive);
        }
    }

    #[test]
    fn ranks_round_trip() {
        for k in 0..5 {
            let mut set: u32 = (1 << k) - 1;
            let mut expected = 0;
            while set < 1 << 10 {
                assert_eq!(rank(set), expected);
                assert_eq!(unrank(expected, k), set);
                expected += 1;
                if k == 0 {
                    break;
                }
                set = next_combination(set);
            }
            assert_eq!(expected, binomial(10, k).max(1));
        }
        let free = 0b1011_0110;
        let taken = !free & 0xff;
        for packed in 0..16u32 {
            let set = expand(packed, free);
            assert_eq!(rank_among_free(set, taken), rank(packed));
        }
    }

    #[test]
    fn every_position_has_one_canonical_slot() {
        let classes = Classes::new(3);
        assert_eq!(classes.count(1), 4);
        let index = PairIndex::new(3, 2, &classes);
        // Every image of a position reaches the same slot, and that slot decodes to an image.
        let (m, o) = (0b111, 0b1_0000_0000_0001_0000);
        let slot = index.slot(m, o);
        for s in 0..SYMMETRIES {
            let (tm, to) = (
                transform_fast(s, Bitboard(m)).0,
                transform_fast(s, Bitboard(o)).0,
            );
            assert_eq!(index.slot(tm, to), slot);
        }
        assert!(index.is_canonical(slot));
        assert_eq!(pair_len(3, 2), index.len());
        let (dm, dom) = index.position(slot);
        assert_eq!(index.slot(dm, dom), slot);
        // The canonical slots count the classes of positions.
        let canonical = (0..index.len()).filter(|&s| index.is_canonical(s)).count();
        let mut seen = std::collections::HashSet::new();
        for mover in 0u32..1 << 24 {
            if mover.count_ones() != 3 {
                continue;
            }
            for k in 0..binomial(21, 2) {
                let other = expand(unrank(k, 2), !mover & 0xff_ffff);
                seen.insert(index.slot(mover, other));
            }
        }
        assert_eq!(seen.len(), canonical);
    }
}
