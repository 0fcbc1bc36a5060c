//! The board: points, bitboards, colours and the topology tables (adjacency, mill lines, the
//! lines through each point), built at compile time for the standard
//! board and the diagonal board.
//!
//! Points are numbered as in the position string (docs/rules.md, "Points"): three rings of eight,
//! inner ring first, each ring clockwise from its top-middle point. Point `8 * ring + k` has `k`
//! even on the middle of a side and `k` odd on a corner, which makes every table a few lines of
//! arithmetic.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Number of points on the board.
pub const POINTS: usize = 24;

/// A point of the board, `0..24`, numbered as in the position string.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Point(pub(crate) u8);

/// The names of the points, in point order (docs/rules.md, "Points").
const NAMES: [&str; POINTS] = [
    "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5", // inner ring
    "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6", // middle ring
    "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7", // outer ring
];

impl Point {
    /// The point with this index; `None` outside `0..24`.
    pub const fn new(index: usize) -> Option<Point> {
        if index < POINTS {
            Some(Point(index as u8))
        } else {
            None
        }
    }

    /// The point with this index, which the caller guarantees is below 24.
    pub(crate) const fn from_index(index: usize) -> Point {
        debug_assert!(index < POINTS);
        Point(index as u8)
    }

    /// The point's number, 0 to 23 (its bit in a `Bitboard`).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Ring 0 (inner), 1 (middle) or 2 (outer).
    pub const fn ring(self) -> usize {
        self.0 as usize / 8
    }

    /// Place on the ring, clockwise from the top middle: even on a side's middle, odd on a corner.
    pub const fn slot(self) -> usize {
        self.0 as usize % 8
    }

    /// The set holding only this point.
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The point's name, such as `d6`.
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// The point named `name` (`a1` .. `g7`, lower or upper case).
    pub fn parse(name: &str) -> Option<Point> {
        let lower = name.to_ascii_lowercase();
        NAMES
            .iter()
            .position(|&n| n == lower)
            .map(Point::from_index)
    }

    /// All 24 points in order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS).map(Point::from_index)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of points, one bit per point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No point.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every point of the board.
    pub const ALL: Bitboard = Bitboard((1 << POINTS) - 1);

    /// The number of points in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no point.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds `p`.
    pub const fn has(self, p: Point) -> bool {
        self.0 & (1 << p.0) != 0
    }

    /// The set with `p` added.
    pub const fn with(self, p: Point) -> Bitboard {
        Bitboard(self.0 | 1 << p.0)
    }

    /// The set with `p` taken out.
    pub const fn without(self, p: Point) -> Bitboard {
        Bitboard(self.0 & !(1 << p.0))
    }

    /// Whether every point of `self` is in `other`.
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest point of the set, if any.
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point(self.0.trailing_zeros() as u8))
        }
    }

    /// The points of the set, from the lowest number.
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

macro_rules! bit_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// Iterates over the points of a bitboard, lowest first.
pub struct BitIter(u32);

impl Iterator for BitIter {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Point(p))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

/// A side: White (`O` in position strings) or Black (`@`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// White, who starts in the standard game.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the colour's place in a `ByColor`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Its pieces' symbol on the drawn board and in the position string: `O` white, `@` black.
    pub const fn symbol(self) -> char {
        match self {
            Color::White => 'O',
            Color::Black => '@',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opponent()
    }
}

/// A pair of values, one per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// The pair of White's value and Black's.
    pub const fn new(white: T, black: T) -> ByColor<T> {
        ByColor { white, black }
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

/// The shape of the board. The diagonal board (twelve men's morris, morabaraba) adds the four
/// corner lines a7-b6-c5, g7-f6-e5, g1-f2-e3, a1-b2-c3 as edges and as mills.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoardKind {
    /// The standard board: three squares joined at the middles of their sides.
    Standard,
    /// The standard board with diagonals joining the squares' corners (twelve men's morris).
    Diagonal,
}

/// Index of the padding line: its bitboard holds a bit no point has, so it never forms a mill.
const NO_LINE: u8 = 20;

/// The fixed tables of one board shape.
pub struct Topology {
    /// Neighbours of each point.
    pub adjacent: [Bitboard; POINTS],
    /// The mill lines; entries from `line_count` on hold `NEVER_LINE`.
    pub lines: [Bitboard; 21],
    /// The number of mill lines (16 on the standard board, 20 with diagonals).
    pub line_count: usize,
    /// The (up to three) lines through each point, padded with `NO_LINE`.
    pub lines_at: [[u8; 3]; POINTS],
    /// For each point and each of its lines, the line's other two points.
    pub partners: [[Bitboard; 3]; POINTS],
}

/// A "line" that no set of points can fill: used for padding.
const NEVER_LINE: Bitboard = Bitboard(1 << 31);

const fn p(ring: usize, slot: usize) -> usize {
    ring * 8 + slot % 8
}

const fn build(kind: BoardKind) -> Topology {
    let diagonal = matches!(kind, BoardKind::Diagonal);
    let mut adjacent = [Bitboard(0); POINTS];
    let mut lines = [NEVER_LINE; 21];
    let mut n = 0;
    let mut ring = 0;
    while ring < 3 {
        let mut k = 0;
        while k < 8 {
            // Along the ring.
            let a = p(ring, k);
            let b = p(ring, k + 1);
            adjacent[a].0 |= 1 << b;
            adjacent[b].0 |= 1 << a;
            // Across the rings: spokes at side middles, diagonals at corners.
            if ring < 2 && (k % 2 == 0 || diagonal) {
                let c = p(ring + 1, k);
                adjacent[a].0 |= 1 << c;
                adjacent[c].0 |= 1 << a;
            }
            // The side of the ring centred on this middle point.
            if k % 2 == 0 {
                lines[n] = Bitboard(1 << p(ring, k + 7) | 1 << a | 1 << p(ring, k + 1));
                n += 1;
            }
            k += 1;
        }
        ring += 1;
    }
    let mut k = 0;
    while k < 8 {
        if k % 2 == 0 || diagonal {
            lines[n] = Bitboard(1 << p(0, k) | 1 << p(1, k) | 1 << p(2, k));
            n += 1;
        }
        k += 1;
    }
    let mut lines_at = [[NO_LINE; 3]; POINTS];
    let mut partners = [[NEVER_LINE; 3]; POINTS];
    let mut pt = 0;
    while pt < POINTS {
        let mut m = 0;
        let mut j = 0;
        while j < n {
            if lines[j].0 & 1 << pt != 0 {
                lines_at[pt][m] = j as u8;
                partners[pt][m] = Bitboard(lines[j].0 & !(1 << pt));
                m += 1;
            }
            j += 1;
        }
        pt += 1;
    }
    Topology {
        adjacent,
        lines,
        line_count: n,
        lines_at,
        partners,
    }
}

static STANDARD: Topology = build(BoardKind::Standard);
static DIAGONAL: Topology = build(BoardKind::Diagonal);

impl BoardKind {
    /// The tables of this board shape.
    #[inline]
    pub fn topology(self) -> &'static Topology {
        match self {
            BoardKind::Standard => &STANDARD,
            BoardKind::Diagonal => &DIAGONAL,
        }
    }
}

impl Topology {
    /// The points of `set` that stand in a full line of `set`.
    #[inline]
    pub fn in_mills(&self, set: Bitboard) -> Bitboard {
        let mut out = 0;
        for line in &self.lines[..self.line_count] {
            if line.0 & set.0 == line.0 {
                out |= line.0;
            }
        }
        Bitboard(out)
    }

    /// The most mill lines through one point (two on the standard board, three on the board with
    /// diagonals).
    pub fn most_lines_at_a_point(&self) -> u8 {
        self.lines_at
            .iter()
            .map(|at| at.iter().filter(|&&l| l != NO_LINE).count() as u8)
            .max()
            .unwrap_or(0)
    }

    /// The empty points where a piece of `set` arriving from outside would complete a line.
    #[inline]
    pub fn completing_points(&self, set: Bitboard, empty: Bitboard) -> Bitboard {
        let mut out = 0;
        for line in &self.lines[..self.line_count] {
            let missing = line.0 & !set.0;
            if missing.is_power_of_two() {
                out |= missing;
            }
        }
        Bitboard(out & empty.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(names: &[&str]) -> Bitboard {
        names
            .iter()
            .fold(Bitboard::EMPTY, |b, n| b.with(Point::parse(n).unwrap()))
    }

    #[test]
    fn standard_board_has_32_edges_and_16_mills() {
        let t = BoardKind::Standard.topology();
        let edges: u32 = t.adjacent.iter().map(|a| a.count()).sum();
        assert_eq!(edges, 64);
        assert_eq!(t.line_count, 16);
        assert!(t.lines.contains(&bb(&["a7", "d7", "g7"])));
        assert!(t.lines.contains(&bb(&["g7", "g4", "g1"])));
        assert!(t.lines.contains(&bb(&["d7", "d6", "d5"])));
        assert!(t.lines.contains(&bb(&["a4", "b4", "c4"])));
        assert!(!t.lines.contains(&bb(&["a7", "b6", "c5"])));
        for pt in Point::all() {
            let through = t.lines[..16].iter().filter(|l| l.has(pt)).count();
            assert_eq!(through, 2, "{pt}");
        }
        assert_eq!(
            t.adjacent[Point::parse("d6").unwrap().index()],
            bb(&["b6", "f6", "d7", "d5"])
        );
        assert_eq!(
            t.adjacent[Point::parse("a7").unwrap().index()],
            bb(&["d7", "a4"])
        );
    }

    #[test]
    fn diagonal_board_adds_corner_lines() {
        let t = BoardKind::Diagonal.topology();
        let edges: u32 = t.adjacent.iter().map(|a| a.count()).sum();
        assert_eq!(edges, 2 * 40);
        assert_eq!(t.line_count, 20);
        for corner in [
            ["a7", "b6", "c5"],
            ["g7", "f6", "e5"],
            ["g1", "f2", "e3"],
            ["a1", "b2", "c3"],
        ] {
            assert!(t.lines.contains(&bb(&corner)));
        }
        assert_eq!(
            t.adjacent[Point::parse("b6").unwrap().index()],
            bb(&["a7", "c5", "d6", "b4"])
        );
    }

    #[test]
    fn names_round_trip() {
        for pt in Point::all() {
            assert_eq!(Point::parse(pt.name()), Some(pt));
        }
        assert_eq!(Point::parse("D6"), Some(Point::parse("d6").unwrap()));
        assert_eq!(Point::parse("d4"), None);
    }
}
