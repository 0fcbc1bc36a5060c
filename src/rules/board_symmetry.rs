//! The board's 16 symmetries (4 rotations, times a reflection, times swapping the inner and
//! outer rings) as maps of points: the image of a point or a set, and the canonical form of a
//! board. Positions and moves take their images from here; `symmetry` builds the symmetry key of
//! a position on it.

use crate::rules::board::{Bitboard, Point, POINTS};

/// The 16 symmetries of the board: 4 rotations, times a reflection, times swapping the inner and
/// outer rings. They map lines to lines on both board shapes.
pub const SYMMETRIES: usize = 16;

const fn build_symmetries() -> [[u8; POINTS]; SYMMETRIES] {
    let mut out = [[0u8; POINTS]; SYMMETRIES];
    let mut s = 0;
    while s < SYMMETRIES {
        let rotation = s % 4;
        let reflect = (s / 4) % 2 == 1;
        let swap = s / 8 == 1;
        let mut pt = 0;
        while pt < POINTS {
            let ring = pt / 8;
            let mut slot = pt % 8;
            if reflect {
                slot = (8 - slot) % 8;
            }
            slot = (slot + 2 * rotation) % 8;
            let ring = if swap { 2 - ring } else { ring };
            out[s][pt] = (ring * 8 + slot) as u8;
            pt += 1;
        }
        s += 1;
    }
    out
}

static SYMMETRY_TABLE: [[u8; POINTS]; SYMMETRIES] = build_symmetries();

/// The image of point `pt` under symmetry `s` (`0..16`, 0 being the identity).
#[inline]
pub fn transform_point(s: usize, pt: Point) -> Point {
    Point(SYMMETRY_TABLE[s][pt.index()])
}

/// The image of a set of points under symmetry `s`.
pub fn transform(s: usize, set: Bitboard) -> Bitboard {
    let mut out = 0;
    for pt in set {
        out |= 1 << SYMMETRY_TABLE[s][pt.index()];
    }
    Bitboard(out)
}

/// The symmetry that undoes symmetry `s`.
pub fn inverse(s: usize) -> usize {
    INVERSE[s]
}

static INVERSE: [usize; SYMMETRIES] = build_inverse();

const fn build_inverse() -> [usize; SYMMETRIES] {
    let table = build_symmetries();
    let mut out = [0; SYMMETRIES];
    let mut s = 0;
    while s < SYMMETRIES {
        let mut t = 0;
        while t < SYMMETRIES {
            let mut pt = 0;
            while pt < POINTS && table[t][table[s][pt] as usize] as usize == pt {
                pt += 1;
            }
            if pt == POINTS {
                out[s] = t;
            }
            t += 1;
        }
        s += 1;
    }
    out
}

/// Each symmetry acts on every ring alike (a rotation by whole sides, perhaps a reflection) and
/// perhaps swaps the inner and outer rings, so a set is mapped one ring byte at a time:
/// `RING_MAP[s % 8][byte]` is the image of one ring's eight points.
static RING_MAP: [[u8; 256]; 8] = build_ring_map();

const fn build_ring_map() -> [[u8; 256]; 8] {
    let table = build_symmetries();
    let mut out = [[0u8; 256]; 8];
    let mut s = 0;
    while s < 8 {
        let mut byte = 0;
        while byte < 256 {
            let mut image = 0u8;
            let mut slot = 0;
            while slot < 8 {
                if byte & 1 << slot != 0 {
                    // Symmetries below 8 keep every point on its ring.
                    image |= 1 << (table[s][slot] as usize % 8);
                }
                slot += 1;
            }
            out[s][byte] = image;
            byte += 1;
        }
        s += 1;
    }
    out
}

/// `transform` by table, a few operations per set: the one the book's lookups use.
#[inline]
pub fn transform_fast(s: usize, set: Bitboard) -> Bitboard {
    let map = &RING_MAP[s % 8];
    let v = set.0;
    let (inner, middle, outer) = (
        u32::from(map[(v & 0xff) as usize]),
        u32::from(map[(v >> 8 & 0xff) as usize]),
        u32::from(map[(v >> 16 & 0xff) as usize]),
    );
    Bitboard(if s < 8 {
        inner | middle << 8 | outer << 16
    } else {
        outer | middle << 8 | inner << 16
    })
}

/// The canonical form of a board (the two colours' point sets) under the 16 symmetries: the
/// least image, comparing White's set first and Black's on a tie, with a symmetry that maps the
/// board to it. Boards equal under some symmetry have the same canonical form; this is the one
/// definition that opening enumeration and the opening book share.
#[inline]
pub fn canonical(white: Bitboard, black: Bitboard) -> (Bitboard, Bitboard, usize) {
    let mut best = u64::MAX;
    let mut best_s = 0;
    for s in 0..SYMMETRIES {
        let packed =
            u64::from(transform_fast(s, white).0) << 32 | u64::from(transform_fast(s, black).0);
        if packed < best {
            best = packed;
            best_s = s;
        }
    }
    (Bitboard((best >> 32) as u32), Bitboard(best as u32), best_s)
}
