//! A deliberately naive endgame solver, written to check the engine's retrograde tables from the
//! outside: it shares nothing with them but the rules layer (`Setup::position`,
//! `movegen::generate`, `Position::play`), and it favours being obviously right over being fast.
//!
//! # What it computes
//!
//! Moving-phase positions with no piece in hand and no removal pending, draw rules off, for
//! every pair (a, b) with 3 <= a, b <= max: the side to move ("mover", played as White) has a
//! pieces, the other side b. Every placement of two disjoint sets of a and b points is a
//! position: no reachability filter, no symmetry. The value is `Win(d)`, `Loss(d)` or `Draw` for
//! the mover, d being the distance in plies to the next capture or to the end of the game (DTC):
//!
//! - a move that leaves the opponent fewer than 3 pieces, or that captures into a position lost
//!   for the opponent, wins in 1; a capture into a position the opponent wins costs 1 ply for the
//!   loser; the distance inside the smaller pair is not carried over;
//! - a non-capture move into a position the opponent loses in d gives `Win(d + 1)`; into one the
//!   opponent wins in d, `d + 1` plies for the loser;
//! - no legal move: `Loss(0)`. The winner takes the least distance, the loser the greatest;
//!   positions neither side can force are draws.
//!
//! # How
//!
//! Each pair has a plain array of 16-bit values, indexed by a dense rank of (mover set, other
//! set): the colex rank of the mover's set among the C(24, a) sets, times C(24 - a, b), plus the
//! colex rank of the other set among the points the mover leaves free.
//!
//! Pairs are solved by increasing total number of pieces, so that every capture target is solved
//! first. A non-capture move from (a, b) leads to (b, a) seen from the new mover (the colours are
//! swapped by hand: the successor's Black becomes the mover), so (a, b) and (b, a) are solved
//! together as one group.
//!
//! 1. Expansion: for every position of the group, the rules layer generates the legal turns; each
//!    is played. A capture is looked up at once in the smaller, already solved pair (or wins when
//!    it leaves fewer than 3), and folded into a few flags; each non-capture successor is kept as
//!    an index into the partner pair's array. Positions with no move are `Loss(0)`; positions with
//!    a winning capture are `Win(1)`.
//! 2. Forward iteration, pass k = 1, 2, ...: every still unresolved position is recomputed from
//!    its successors' values as they stood before the pass (the new values of a pass are applied
//!    after it). Only successor values of distance below k count as known. Then a position is
//!    `Win(k)` when some move reaches a `Loss(k - 1)`, and `Loss(k)` when every move is known to
//!    lose (captures into a won position for the opponent cost 1, other moves d + 1) and the
//!    greatest cost is k. By induction, pass k resolves exactly the positions of distance k.
//! 3. The iteration stops after a pass k when no position of the group has distance k: nothing
//!    can then have distance k + 1 (a win in k + 1 needs a loss in k, a loss in k + 1 a win in
//!    k). Every position still unresolved is a draw.
//!
//! A position is treated as its two point sets only, so the rules must let mills be re-formed
//! freely (`Reform::Allowed`, as in `nine` and `twelve`); other rules are refused.

use moulin::rules::board::{Bitboard, ByColor, Color};
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::rules::setup::{Action, Phase, Setup};
use moulin::rules::symmetry::{transform, SYMMETRIES};
use moulin::rules::{Reform, Rules};
use moulin::Move;
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Instant;

/// The value of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    Win(u16),
    Loss(u16),
    Draw,
}

/// Stored values: 0 while unresolved, else a kind in the top two bits and the distance below.
const UNKNOWN: u16 = 0;
const WIN: u16 = 0x8000;
const LOSS: u16 = 0x4000;
const DRAW: u16 = 0xC000;
const KIND: u16 = 0xC000;
const DIST: u16 = 0x3FFF;

fn decode(code: u16) -> Option<Value> {
    match code & KIND {
        WIN => Some(Value::Win(code & DIST)),
        LOSS => Some(Value::Loss(code & DIST)),
        DRAW => Some(Value::Draw),
        _ => None,
    }
}

const POINTS: usize = 24;

/// Pascal's triangle up to 24: `BINOMIAL[n][k]` is C(n, k), 0 when k > n.
static BINOMIAL: [[usize; POINTS + 1]; POINTS + 1] = binomials();

const fn binomials() -> [[usize; POINTS + 1]; POINTS + 1] {
    let mut out = [[0; POINTS + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        out[n][0] = 1;
        let mut k = 1;
        while k <= n {
            out[n][k] = out[n - 1][k - 1] + out[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    out
}

/// C(n, k) for n <= 24.
fn choose(n: usize, k: usize) -> usize {
    BINOMIAL[n][k]
}

/// The colex rank of `set` among the sets of its size drawn from `within` (a superset): with
/// the points of `within` numbered 0, 1, ... in order, the sum of C(j, i + 1) over the numbers j
/// of the points of `set`, the i-th smallest first.
fn rank(set: u32, within: u32) -> usize {
    let mut out = 0;
    let mut rest = set;
    let mut i = 0;
    while rest != 0 {
        let p = rest.trailing_zeros();
        rest &= rest - 1;
        i += 1;
        let j = (within & ((1 << p) - 1)).count_ones() as usize;
        out += choose(j, i);
    }
    out
}

/// The set of `k` points with colex rank `r` (the inverse of `rank`).
fn unrank(k: usize, mut r: usize) -> u32 {
    let mut set = 0u32;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while choose(p + 1, i) <= r {
            p += 1;
        }
        r -= choose(p, i);
        set |= 1 << p;
    }
    set
}

/// The subset of `free` whose points are numbered by `compressed`: bit j of `compressed` stands
/// for the j-th point of `free`.
fn expand(compressed: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut j = 0;
    for p in 0..POINTS {
        if free & 1 << p != 0 {
            if compressed & 1 << j != 0 {
                out |= 1 << p;
            }
            j += 1;
        }
    }
    out
}

/// The next integer with as many bits set (Gosper's hack): the next set in colex order.
fn next_same_count(v: u32) -> u32 {
    let low = v & v.wrapping_neg();
    let ripple = v + low;
    ripple | (((v ^ ripple) >> 2) / low)
}

/// Positions of pair (a, b).
fn pair_size(a: u8, b: u8) -> usize {
    choose(POINTS, a as usize) * choose(POINTS - a as usize, b as usize)
}

/// Positions of pair (a, b) sharing one mover set (one "row" of the array).
fn row_size(a: u8, b: u8) -> usize {
    choose(POINTS - a as usize, b as usize)
}

/// The index of (mover, other) in its pair's array.
fn index_of(a: u8, b: u8, mover: u32, other: u32) -> usize {
    let all = (1 << POINTS) - 1;
    rank(mover, all) * row_size(a, b) + rank(other, all & !mover)
}

/// Calls `f(index, mover, other)` for every position of row `row` of pair (a, b), in index order.
fn for_each_in_row(a: u8, b: u8, row: usize, mut f: impl FnMut(usize, u32, u32)) {
    let mover = unrank(a as usize, row);
    let free = !mover & ((1 << POINTS) - 1);
    let n = row_size(a, b);
    let mut compressed = (1u32 << b) - 1;
    for k in 0..n {
        f(row * n + k, mover, expand(compressed, free));
        if k + 1 < n {
            compressed = next_same_count(compressed);
        }
    }
}

/// The solved values of every pair 3..=max a side.
pub struct Naive {
    pairs: HashMap<(u8, u8), Vec<u16>>,
}

/// What the expansion of one position found out about its captures.
const BLOCKED: u8 = 1;
/// Some capture wins (the opponent is left with fewer than 3, or lost).
const CAPTURE_WINS: u8 = 2;
/// Some capture leads to a draw: the position cannot be lost.
const CAPTURE_DRAWS: u8 = 4;
/// Some capture exists (the ones that do not win or draw lose in 1).
const CAPTURES: u8 = 8;

/// One row of a pair after expansion: per position its flags and the partner-pair indices of
/// its non-capture successors (`succ[offsets[i]..offsets[i + 1]]`).
struct Row {
    flags: Vec<u8>,
    offsets: Vec<u32>,
    succ: Vec<u32>,
}

impl Naive {
    /// The stored code of (mover, other) in pair (a, b), which must be solved.
    fn code(&self, a: u8, b: u8, mover: u32, other: u32) -> u16 {
        self.pairs[&(a, b)][index_of(a, b, mover, other)]
    }

    /// The value of the position with `mover` to move against `other`; `None` when the sets
    /// overlap, leave the board or do not form a solved pair.
    pub fn value(&self, mover: Bitboard, other: Bitboard) -> Option<Value> {
        let (m, o) = (mover.0, other.0);
        if m & o != 0 || (m | o) >> POINTS != 0 {
            return None;
        }
        let (a, b) = (m.count_ones() as u8, o.count_ones() as u8);
        let values = self.pairs.get(&(a, b))?;
        decode(values[index_of(a, b, m, o)])
    }

    /// Wins, losses and draws for the side to move in pair (a, b), counting each position once
    /// per class of the 16 symmetries: only when it is the least of its images, comparing the
    /// mover's set, then the other's.
    pub fn tally(&self, a: u8, b: u8) -> (u64, u64, u64) {
        self.count(a, b, true)
    }

    /// Wins, losses and draws for the side to move in pair (a, b), every position counted.
    pub fn tally_all(&self, a: u8, b: u8) -> (u64, u64, u64) {
        self.count(a, b, false)
    }

    fn count(&self, a: u8, b: u8, up_to_symmetry: bool) -> (u64, u64, u64) {
        let values = &self.pairs[&(a, b)];
        (0..choose(POINTS, a as usize))
            .into_par_iter()
            .map(|row| {
                let mut t = (0, 0, 0);
                for_each_in_row(a, b, row, |i, m, o| {
                    if up_to_symmetry && !least_image(m, o) {
                        return;
                    }
                    match decode(values[i]) {
                        Some(Value::Win(_)) => t.0 += 1,
                        Some(Value::Loss(_)) => t.1 += 1,
                        Some(Value::Draw) => t.2 += 1,
                        None => unreachable!("unresolved value in a solved pair"),
                    }
                });
                t
            })
            .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2))
    }

    /// The longest win and the longest loss (in plies) in pair (a, b).
    pub fn max_dtc(&self, a: u8, b: u8) -> (u16, u16) {
        self.pairs[&(a, b)]
            .par_iter()
            .map(|&c| match decode(c) {
                Some(Value::Win(d)) => (d, 0),
                Some(Value::Loss(d)) => (0, d),
                _ => (0, 0),
            })
            .reduce(|| (0, 0), |x, y| (x.0.max(y.0), x.1.max(y.1)))
    }
}

/// Whether (m, o) is the least of its images under the 16 symmetries.
fn least_image(m: u32, o: u32) -> bool {
    (1..SYMMETRIES).all(|s| {
        let image = (transform(s, Bitboard(m)).0, transform(s, Bitboard(o)).0);
        image >= (m, o)
    })
}

/// Solves every pair with 3 to `max` pieces a side under `rules` with draw rules off. Reports
/// each group's progress on stderr (expansion time, passes, pass time).
pub fn solve(rules: &Rules, max: u8) -> Naive {
    assert!(
        rules.reform == Reform::Allowed,
        "the naive solver needs rules where mills may be re-formed freely"
    );
    assert!((3..=rules.pieces).contains(&max), "max out of range");
    let rules = rules.without_draw_rules();
    let mut naive = Naive {
        pairs: HashMap::new(),
    };
    for total in 6..=2 * max {
        for a in 3..=max {
            let b = total - a;
            if b < a || b > max {
                continue;
            }
            let start = Instant::now();
            let group = if a == b {
                vec![(a, b)]
            } else {
                vec![(a, b), (b, a)]
            };
            let values = solve_group(&rules, &naive, &group);
            eprintln!(
                "naive: {a}-{b} solved in {:.1} s",
                start.elapsed().as_secs_f64()
            );
            for (pair, v) in group.into_iter().zip(values) {
                naive.pairs.insert(pair, v);
            }
        }
    }
    naive
}

/// Solves the pairs of `group` ((a, b) and (b, a), or (a, a) alone), all of whose capture
/// targets are in `solved`. Returns their arrays.
fn solve_group(rules: &Rules, solved: &Naive, group: &[(u8, u8)]) -> Vec<Vec<u16>> {
    let partner = |slot: usize| if group.len() == 1 { 0 } else { 1 - slot };
    let start = Instant::now();
    // 1. Expansion.
    let mut rows: Vec<Vec<Row>> = Vec::new();
    let mut values: Vec<Vec<u16>> = Vec::new();
    for &(a, b) in group {
        let pair_rows: Vec<Row> = (0..choose(POINTS, a as usize))
            .into_par_iter()
            .map(|row| expand_row(rules, solved, a, b, row))
            .collect();
        let mut v = vec![UNKNOWN; pair_size(a, b)];
        let n = row_size(a, b);
        for (r, row) in pair_rows.iter().enumerate() {
            for (k, &f) in row.flags.iter().enumerate() {
                if f & BLOCKED != 0 {
                    v[r * n + k] = LOSS;
                } else if f & CAPTURE_WINS != 0 {
                    v[r * n + k] = WIN | 1;
                }
            }
        }
        rows.push(pair_rows);
        values.push(v);
    }
    let expanded = start.elapsed().as_secs_f64();
    // 2. Forward iteration.
    let mut k: u16 = 1;
    loop {
        let mut updates: Vec<Vec<(usize, u16)>> = Vec::new();
        for slot in 0..group.len() {
            let (a, b) = group[slot];
            let n = row_size(a, b);
            let own = &values[slot];
            let theirs = &values[partner(slot)];
            let found: Vec<(usize, u16)> = rows[slot]
                .par_iter()
                .enumerate()
                .flat_map_iter(|(r, row)| {
                    let mut out = Vec::new();
                    for i in 0..row.flags.len() {
                        if own[r * n + i] != UNKNOWN {
                            continue;
                        }
                        let succ = &row.succ[row.offsets[i] as usize..row.offsets[i + 1] as usize];
                        if let Some(code) = recompute(k, row.flags[i], succ, theirs) {
                            out.push((r * n + i, code));
                        }
                    }
                    out
                })
                .collect();
            updates.push(found);
        }
        let mut at_k = updates.iter().map(Vec::len).sum::<usize>();
        for (slot, found) in updates.into_iter().enumerate() {
            for (i, code) in found {
                values[slot][i] = code;
            }
        }
        if k == 1 {
            // The wins by capture, set during expansion, have distance 1 too.
            at_k += values
                .iter()
                .map(|v| v.iter().filter(|&&c| c == WIN | 1).count())
                .sum::<usize>();
        }
        // 3. Nothing has distance k: nothing will have k + 1 or more.
        if at_k == 0 {
            break;
        }
        k += 1;
        assert!(k < DIST, "distance overflow");
    }
    eprintln!(
        "naive: {:?} expanded in {expanded:.1} s, {k} passes in {:.1} s",
        group,
        start.elapsed().as_secs_f64() - expanded
    );
    for v in &mut values {
        for c in v.iter_mut() {
            if *c == UNKNOWN {
                *c = DRAW;
            }
        }
    }
    values
}

/// The value of an unresolved position in pass `k`, from its capture flags and the partner
/// pair's values (`theirs`) of its non-capture successors; `None` while it stays unresolved.
fn recompute(k: u16, flags: u8, succ: &[u32], theirs: &[u16]) -> Option<u16> {
    // Only values of distance below k are known in pass k.
    let known = |c: u16| c != UNKNOWN && c & KIND != DRAW && c & DIST < k;
    let mut all_lose = flags & CAPTURE_DRAWS == 0;
    let mut longest = u16::from(flags & CAPTURES != 0);
    for &s in succ {
        let c = theirs[s as usize];
        if known(c) && c & KIND == LOSS {
            let d = (c & DIST) + 1;
            debug_assert_eq!(d, k);
            return Some(WIN | d);
        }
        if known(c) && c & KIND == WIN {
            longest = longest.max((c & DIST) + 1);
        } else {
            all_lose = false;
        }
    }
    if all_lose {
        debug_assert_eq!(longest, k);
        return Some(LOSS | longest);
    }
    None
}

/// Expands row `row` of pair (a, b): generates and plays every legal turn of each position.
fn expand_row(rules: &Rules, solved: &Naive, a: u8, b: u8, row: usize) -> Row {
    let mut out = Row {
        flags: Vec::with_capacity(row_size(a, b)),
        offsets: Vec::with_capacity(row_size(a, b) + 1),
        succ: Vec::new(),
    };
    out.offsets.push(0);
    let mut moves: Vec<Move> = Vec::new();
    for_each_in_row(a, b, row, |_, mover, other| {
        let setup = Setup {
            pieces: ByColor::new(Bitboard(mover), Bitboard(other)),
            side: Color::White,
            phase: Phase::Moving,
            action: Action::Step,
            on_board: ByColor::new(a, b),
            in_hand: ByColor::new(0, 0),
            pending: ByColor::new(0, 0),
            mills: ByColor::new(0, 0),
            no_capture: 0,
            fullmove: 1,
        };
        let pos = setup
            .position(rules)
            .expect("every placement is a position");
        movegen::generate(&pos, Convention::Turn, &mut moves);
        let mut flags = if moves.is_empty() { BLOCKED } else { 0 };
        let first = out.succ.len();
        for &mv in &moves {
            let mut next = pos;
            next.play(mv);
            debug_assert_eq!(next.side_to_move(), Color::Black);
            debug_assert_eq!(next.pending_removals(), 0);
            // The successor seen from its mover: Black's pieces, against White's.
            let (m, o) = (next.pieces(Color::Black).0, next.pieces(Color::White).0);
            let left = m.count_ones() as u8;
            if left == b {
                out.succ.push(index_of(b, a, m, o) as u32);
                continue;
            }
            flags |= CAPTURES;
            if left < 3 {
                flags |= CAPTURE_WINS;
                break;
            }
            match solved.code(left, a, m, o) & KIND {
                LOSS => {
                    flags |= CAPTURE_WINS;
                    break;
                }
                DRAW => flags |= CAPTURE_DRAWS,
                WIN => {}
                _ => unreachable!("capture into an unsolved pair"),
            }
        }
        if flags & CAPTURE_WINS != 0 {
            // Resolved now: its other successors are not needed.
            out.succ.truncate(first);
        }
        out.flags.push(flags);
        out.offsets.push(out.succ.len() as u32);
    });
    out
}
