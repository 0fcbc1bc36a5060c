//! What the network sees of a position (`Seen`) and its features: each side's view is
//! [`INPUTS`] sparse features, one for each point its own pieces hold, one for each point the
//! other side's pieces hold, one for its own hand's count and one for the other hand's, and one
//! for each mill line that is a threat: two of one side's pieces and its third point empty (two
//! of a mill, or two to block), or a closed mill: eight a line (`THREAT`, `line_feature`); any
//! other filling of a line is no feature, so most steps change no line's row. The lines are the
//! standard board's 16, whatever the rules' board (a network for a board with diagonals would
//! not see its diagonal mills; only the standard game ships one). Both views are made of the
//! same weights (the side is what differs), so one position has two views, White's and Black's,
//! of about twenty features each. Also here: the features that differ between two positions (an
//! accumulator's update), and the phase's output layer (`bucket`).

use crate::rules::board::{Color, POINTS};
use crate::rules::position::Position;

/// The counts a hand may hold: 0 to 12.
pub const HANDS: usize = 13;
/// The mill lines of the standard board, whose threats are features (`THREAT`).
pub const LINES: usize = 16;
/// The features of a line: the view's side's two pieces and the third point empty (one for
/// each point that may be the empty one), the same of the other side, and a closed mill of each.
pub(super) const THREATS: usize = 8;
/// The first line feature.
pub(super) const LINE_BASE: usize = 2 * POINTS + 2 * HANDS;
/// The features of one view: own pieces, the other's pieces, own hand, the other's hand, and
/// each mill line's threat.
pub const INPUTS: usize = LINE_BASE + LINES * THREATS;
/// The features on in one view at most: every point, two hands and every line.
pub const MAX_ACTIVE: usize = POINTS + 2 + LINES;

/// The feature of `perspective`'s view that a piece of `owner` on point `point` sets.
#[inline]
pub fn piece_feature(perspective: Color, owner: Color, point: usize) -> usize {
    if owner == perspective {
        point
    } else {
        POINTS + point
    }
}

/// The feature of `perspective`'s view that `owner`'s hand of `count` pieces sets.
#[inline]
pub fn hand_feature(perspective: Color, owner: Color, count: u8) -> usize {
    let count = usize::from(count).min(HANDS - 1);
    if owner == perspective {
        2 * POINTS + count
    } else {
        2 * POINTS + HANDS + count
    }
}

/// The points of each mill line of the standard board, lowest first, and the lines through
/// each point (a bit a line).
pub(super) struct Lines {
    pub(super) points: [[u8; 3]; LINES],
    through: [u16; POINTS],
}

impl Lines {
    /// The lines through any point of `points` (a bit a line).
    #[inline]
    fn through_any(&self, points: u32) -> u16 {
        let mut points = points & ((1 << POINTS) - 1);
        let mut out = 0;
        while points != 0 {
            out |= self.through[points.trailing_zeros() as usize];
            points &= points - 1;
        }
        out
    }

    /// The points of `set` on line `l`, as three bits (a bit for each of its points, lowest
    /// point first).
    #[inline]
    fn on(&self, l: usize, set: u32) -> usize {
        let [a, b, c] = self.points[l];
        ((set >> a) & 1 | ((set >> b) & 1) << 1 | ((set >> c) & 1) << 2) as usize
    }

    /// The threat features of line `l` in White's view and in Black's (`NO_THREAT` for none)
    /// where White holds `white` and Black `black`.
    #[inline]
    fn threats(&self, l: usize, white: u32, black: u32) -> [u8; 2] {
        let (w, b) = (self.on(l, white), self.on(l, black));
        [THREAT[w | b << 3], THREAT[b | w << 3]]
    }
}

pub(super) fn lines() -> &'static Lines {
    static LINES_OF: std::sync::OnceLock<Lines> = std::sync::OnceLock::new();
    LINES_OF.get_or_init(|| {
        let topology = crate::rules::board::BoardKind::Standard.topology();
        debug_assert_eq!(topology.line_count, LINES);
        let mut out = Lines {
            points: [[0; 3]; LINES],
            through: [0; POINTS],
        };
        for (l, line) in topology.lines[..LINES].iter().enumerate() {
            let mut bits = line.0;
            for k in 0..3 {
                let p = bits.trailing_zeros() as u8;
                out.points[l][k] = p;
                out.through[p as usize] |= 1 << l;
                bits &= bits - 1;
            }
        }
        out
    })
}

/// No threat on a line (`THREAT`).
pub(super) const NO_THREAT: u8 = u8::MAX;

/// A line's threat feature (`0..THREATS`) by its filling, `own | theirs << 3` (the view's
/// side's points of the line and the other's, three bits each): 0 to 2 for two of the view's
/// side's pieces with that point of the line empty, 3 to 5 for two of the other's, 6 and 7 for
/// a closed mill of either; `NO_THREAT` for any other filling (most steps change no line's
/// feature).
pub(super) const THREAT: [u8; 64] = {
    let mut out = [NO_THREAT; 64];
    let mut empty = 0;
    while empty < 3 {
        let two = 7 & !(1 << empty);
        out[two] = empty as u8;
        out[two << 3] = 3 + empty as u8;
        empty += 1;
    }
    out[7] = 6;
    out[7 << 3] = 7;
    out
};

/// The feature of line `l`'s threat `t` (`THREAT`).
#[inline]
pub(super) fn line_feature(l: usize, t: u8) -> usize {
    LINE_BASE + l * THREATS + usize::from(t)
}

/// What the network sees of a position: each side's pieces and hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Seen {
    /// The pieces of White and Black.
    pub pieces: [u32; 2],
    /// The hands of White and Black.
    pub hands: [u8; 2],
}

impl Seen {
    /// What the network sees of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Seen {
        Seen {
            pieces: [pos.pieces(Color::White).0, pos.pieces(Color::Black).0],
            hands: [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
        }
    }

    /// The features of `perspective`'s view that are on, into `out`; their number.
    pub fn features(&self, perspective: Color, out: &mut [usize; MAX_ACTIVE]) -> usize {
        let mut n = 0;
        for owner in [Color::White, Color::Black] {
            let mut bits = self.pieces[owner as usize];
            while bits != 0 && n < POINTS {
                out[n] = piece_feature(perspective, owner, bits.trailing_zeros() as usize);
                bits &= bits - 1;
                n += 1;
            }
        }
        for owner in [Color::White, Color::Black] {
            out[n] = hand_feature(perspective, owner, self.hands[owner as usize]);
            n += 1;
        }
        let lines = lines();
        for l in 0..LINES {
            let t = lines.threats(l, self.pieces[0], self.pieces[1])[perspective as usize];
            if t != NO_THREAT {
                out[n] = line_feature(l, t);
                n += 1;
            }
        }
        n
    }

    /// The features that differ between `self` and `to` in each view (White's, then Black's):
    /// those to remove and those to add, into the arrays; their numbers. The features removed
    /// are some of those on in `self`, those added some of those on in `to`, and a view has at
    /// most `MAX_ACTIVE` on (every point, two hands, every line), so no list overflows; the
    /// bounds checked below only keep a `Seen` of no position from writing past them.
    pub(super) fn changes(
        &self,
        to: &Seen,
        removed: &mut Changes,
        added: &mut Changes,
    ) -> [(usize, usize); 2] {
        let mut n = [(0, 0); 2];
        for owner in [Color::White, Color::Black] {
            let (was, is) = (self.pieces[owner as usize], to.pieces[owner as usize]);
            for view in [Color::White, Color::Black] {
                let (v, (r, a)) = (view as usize, &mut n[view as usize]);
                push_points(&mut removed[v], r, was & !is, |p| {
                    piece_feature(view, owner, p)
                });
                push_points(&mut added[v], a, is & !was, |p| {
                    piece_feature(view, owner, p)
                });
            }
        }
        for owner in [Color::White, Color::Black] {
            let (was, is) = (self.hands[owner as usize], to.hands[owner as usize]);
            if was == is {
                continue;
            }
            for view in [Color::White, Color::Black] {
                let (r, a) = &mut n[view as usize];
                if *r < MAX_ACTIVE && *a < MAX_ACTIVE {
                    removed[view as usize][*r] = hand_feature(view, owner, was) as u16;
                    added[view as usize][*a] = hand_feature(view, owner, is) as u16;
                    *r += 1;
                    *a += 1;
                }
            }
        }
        let lines = lines();
        let moved = (self.pieces[0] ^ to.pieces[0]) | (self.pieces[1] ^ to.pieces[1]);
        let mut changed = lines.through_any(moved);
        while changed != 0 {
            let l = changed.trailing_zeros() as usize;
            let was = lines.threats(l, self.pieces[0], self.pieces[1]);
            let is = lines.threats(l, to.pieces[0], to.pieces[1]);
            for v in 0..2 {
                let (r, a) = &mut n[v];
                if was[v] != NO_THREAT && *r < MAX_ACTIVE {
                    removed[v][*r] = line_feature(l, was[v]) as u16;
                    *r += 1;
                }
                if is[v] != NO_THREAT && *a < MAX_ACTIVE {
                    added[v][*a] = line_feature(l, is[v]) as u16;
                    *a += 1;
                }
            }
            changed &= changed - 1;
        }
        n
    }

    /// About how many features differ between `self` and `to` (in either view: the same
    /// number): the points and hands exactly, and two more for each point that differs (the
    /// threats of the two lines through it may come, go or change; counting them would cost
    /// more than the choice this number makes, whether to update or to sum from nothing).
    #[inline]
    pub fn distance(&self, to: &Seen) -> u32 {
        let pieces = (self.pieces[0] ^ to.pieces[0]).count_ones()
            + (self.pieces[1] ^ to.pieces[1]).count_ones();
        let hands =
            2 * (u32::from(self.hands[0] != to.hands[0]) + u32::from(self.hands[1] != to.hands[1]));
        3 * pieces + hands
    }
}

/// The features of each view (White's, then Black's) to remove or to add in an update.
pub(super) type Changes = [[u16; MAX_ACTIVE]; 2];

/// The features `feature` gives the points of `points`, put into `list` after its `n`.
#[inline]
fn push_points(
    list: &mut [u16; MAX_ACTIVE],
    n: &mut usize,
    mut points: u32,
    feature: impl Fn(usize) -> usize,
) {
    while points != 0 && *n < MAX_ACTIVE {
        list[*n] = feature(points.trailing_zeros() as usize) as u16;
        *n += 1;
        points &= points - 1;
    }
}

/// The output layer of a position: 0 early in the placing (more than `pieces` placements
/// left), 1 late in the placing, 2 moving, 3 when a side flies.
#[inline]
pub fn bucket(pos: &Position) -> usize {
    if pos.is_placing() {
        usize::from(pos.placements_left() <= u32::from(pos.rules().pieces))
    } else if pos.can_fly(Color::White) || pos.can_fly(Color::Black) {
        3
    } else {
        2
    }
}
