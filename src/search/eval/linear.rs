//! The linear terms: counts of each side (`INPUTS` of them, `both_inputs`) weighed by the
//! weights `moulin train fit` fitted (`fitted_weights.rs`), for the variant they were fitted for.
//! In the placing phase they make a placing evaluation (`LinearTerms::placing`: the material plus
//! a weighted sum of the counts) and its late correction; in the moving phase, while neither side
//! flies, a moving correction (`LinearTerms::moving`), faded as the weaker side nears flying
//! (`moving_share`). How they mix with the hand-written evaluation is the dispatch's (`evaluate`).

use super::linear_weights::{LinearWeights, INPUTS};
use super::material::material;
use crate::rules::board::{Bitboard, Color};
use crate::rules::position::Position;
use crate::rules::{Flying, Rules};

/// How much of the moving correction counts in `pos` under the fade `fade`
/// (`LinearWeights::moving_fade`), as a fraction `(share, whole)`: in `fade`ths, how many
/// pieces the side nearer to flying can lose before it flies (at most all of them; 0 once a side
/// flies); in full without a fade or where nobody ever flies.
pub fn moving_share(pos: &Position, fade: i32) -> (i32, i32) {
    match pos.rules().flying {
        Flying::AtMost(n) if fade > 0 => {
            let least = pos.on_board(Color::White).min(pos.on_board(Color::Black)) as i32;
            ((least - i32::from(n)).clamp(0, fade), fade)
        }
        _ => (1, 1),
    }
}

/// Which evaluation a search of a position under `rules` uses: 0 for the hand-written one, or a
/// fingerprint (FNV-1a) of the fitted linear weights that serve these rules. Books record it,
/// since a book's searches can be repeated only with the same evaluation.
pub fn fingerprint(rules: &Rules) -> u64 {
    let Some(p) = LinearTerms::for_rules(rules) else {
        return 0;
    };
    let w = p.weights;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words: Vec<i32> = w.us.iter().chain(&w.them).copied().collect();
    words.push(w.tempo);
    // Weights without a late or moving correction keep the fingerprint they had before the
    // correction existed.
    if w.has_late() {
        words.extend(w.late_us.iter().chain(&w.late_them));
        words.push(w.late_tempo);
    }
    if w.has_moving() {
        // A marker, so that moving weights are never read as late ones.
        words.push(i32::MIN);
        words.extend(w.moving_us.iter().chain(&w.moving_them));
        words.push(w.moving_tempo);
        // Weights without a fade keep the fingerprint they had before the fade existed.
        if w.moving_fade != 0 {
            words.push(w.moving_fade);
        }
    }
    let bytes = w
        .variant
        .bytes()
        .chain(words.into_iter().flat_map(i32::to_le_bytes));
    for b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h.max(1)
}

/// The linear weights fitted for this build (`fitted_weights.rs`).
pub fn fitted() -> &'static LinearWeights {
    &super::fitted_weights::FITTED
}

/// The linear terms, ready for one board: the fitted weights and the points sorted by how many
/// neighbours they have (2 or fewer, 3, 4 or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearTerms {
    /// The fitted weights.
    pub weights: &'static LinearWeights,
    /// The board's points with 2 or fewer neighbours, with 3, and with 4 or more.
    pub by_degree: [Bitboard; 3],
}

impl LinearTerms {
    /// The linear terms that serve `rules`, if any.
    pub fn for_rules(rules: &Rules) -> Option<LinearTerms> {
        let weights = fitted();
        let made_for = Rules {
            first: rules.first,
            no_capture: rules.no_capture,
            repetition: rules.repetition,
            full_board: rules.full_board,
            ..Rules::preset(weights.variant)?
        };
        if made_for != *rules {
            return None;
        }
        let t = rules.topology();
        let mut by_degree = [Bitboard::EMPTY; 3];
        for pt in crate::rules::board::Point::all() {
            let d = t.adjacent[pt.index()].count() as usize;
            let slot = &mut by_degree[d.clamp(2, 4) - 2];
            *slot = slot.with(pt);
        }
        Some(LinearTerms { weights, by_degree })
    }

    /// The placing evaluation of `pos` for the side to move, and its late correction (before
    /// their weights in `evaluate`).
    pub fn placing(&self, pos: &Position) -> (i32, i32) {
        self.weigh(pos, &both_inputs(pos, pos.side_to_move(), &self.by_degree))
    }

    /// `placing` from the inputs of the side to move and of the other side.
    pub(super) fn weigh(&self, pos: &Position, x: &[[i32; INPUTS]; 2]) -> (i32, i32) {
        let [ours, theirs] = x;
        let w = self.weights;
        let mut sum = w.tempo + material(pos);
        let mut late = w.late_tempo;
        for i in 0..INPUTS {
            sum += w.us[i] * ours[i] + w.them[i] * theirs[i];
            late += w.late_us[i] * ours[i] + w.late_them[i] * theirs[i];
        }
        (sum, late)
    }

    /// The moving correction of `pos` for the side to move, faded by `moving_share` (added to
    /// the hand-written evaluation in `evaluate` while neither side flies).
    pub fn moving(&self, pos: &Position) -> i32 {
        self.weigh_moving(pos, &both_inputs(pos, pos.side_to_move(), &self.by_degree))
    }

    /// `moving` from the inputs of the side to move and of the other side, faded by
    /// `moving_share` (without a fade, as shipped, no division is done).
    pub(super) fn weigh_moving(&self, pos: &Position, x: &[[i32; INPUTS]; 2]) -> i32 {
        let [ours, theirs] = x;
        let w = self.weights;
        let mut sum = w.moving_tempo;
        for i in 0..INPUTS {
            sum += w.moving_us[i] * ours[i] + w.moving_them[i] * theirs[i];
        }
        if w.moving_fade == 0 {
            return sum;
        }
        let (share, whole) = moving_share(pos, w.moving_fade);
        sum * share / whole
    }
}

/// The counts the linear terms weigh, for colour `c` (see `INPUT_NAMES`).
pub fn inputs(pos: &Position, c: Color, by_degree: &[Bitboard; 3]) -> [i32; INPUTS] {
    both_inputs(pos, c, by_degree)[0]
}

/// The counts of `inputs` for colour `c`, then for the other colour, in one pass over the board.
pub fn both_inputs(pos: &Position, c: Color, by_degree: &[Bitboard; 3]) -> [[i32; INPUTS]; 2] {
    let t = pos.rules().topology();
    let sides = [pos.pieces(c), pos.pieces(!c)];
    let empty = pos.empty();
    let mut x = [[0; INPUTS]; 2];
    // Empty points next to a side's pieces, and every point next to them.
    let mut free_near = [Bitboard::EMPTY; 2];
    let mut near = [Bitboard::EMPTY; 2];
    for s in 0..2 {
        let xs = &mut x[s];
        xs[0] = i32::from(pos.in_hand(if s == 0 { c } else { !c }));
        xs[1] = (sides[s] & by_degree[0]).count() as i32;
        xs[2] = (sides[s] & by_degree[1]).count() as i32;
        xs[3] = (sides[s] & by_degree[2]).count() as i32;
        for from in sides[s] {
            let around = t.adjacent[from.index()];
            let free = around & empty;
            near[s] |= around;
            free_near[s] |= free;
            xs[4] += free.count() as i32;
            xs[5] += i32::from(free.is_empty());
        }
    }
    let mut closers = [Bitboard::EMPTY; 2];
    let mut doubles = [Bitboard::EMPTY; 2];
    let mut mills = [Bitboard::EMPTY; 2];
    for line in &t.lines[..t.line_count] {
        let counts = [(*line & sides[0]).count(), (*line & sides[1]).count()];
        for s in 0..2 {
            match (counts[s], counts[1 - s]) {
                (2, 0) => {
                    x[s][6] += 1;
                    let third = *line & empty;
                    doubles[s] |= closers[s] & third;
                    closers[s] |= third;
                }
                (1, 0) => x[s][9] += 1,
                (2, 1) => x[s][10] += 1,
                (3, 0) => mills[s] |= *line,
                _ => {}
            }
        }
    }
    for s in 0..2 {
        x[s][7] = doubles[s].count() as i32;
        x[s][8] = mills[s].count() as i32;
        x[s][11] = (free_near[s] & !near[1 - s]).count() as i32;
    }
    x
}
