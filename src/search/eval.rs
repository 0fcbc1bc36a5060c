//! Static evaluation, from the side to move's point of view, in centi-pieces (100 = one piece).
//! Each hand-written term has a named weight (`Weights::DEFAULT`), tuned by matches; `terms`
//! lists the terms for the protocol's `eval` command.
//!
//! In the placing phase of the variant the learned weights were made for (`placing.rs`, by
//! `moulin train fit`), a learned evaluation takes over: the material plus a weighted sum of
//! `INPUTS` counts of each side (`inputs`), tapered into the hand-written evaluation as the
//! hands empty, so that it is the whole evaluation at the first turn and gone when the last
//! piece is placed; and a learned correction of the same counts with its own weights, which
//! weighs most halfway through the placing and nothing at either end (`evaluate`). In the
//! moving phase, while neither side flies, a learned moving correction of the same counts is
//! added to the hand-written evaluation; with a fade (`Learned::moving_fade`), it fades to
//! nothing as the weaker side nears flying (`moving_share`), so that the evaluation does not jump
//! where the correction is cut off.

pub use super::learned::{Learned, INPUTS, INPUT_NAMES};
use super::score::within_eval;
use crate::rules::board::{Bitboard, Color};
use crate::rules::position::Position;
use crate::rules::{Flying, Rules};

/// One piece, on the board or in hand.
pub const PIECE: i32 = 100;

/// The weights of the evaluation terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each empty point next to one of our pieces (while the side does not fly): the room to
    /// move, in the placing phase too, where it decides who will be blocked.
    pub mobility: i32,
    /// A piece that cannot move at all (while the side does not fly).
    pub blocked_piece: i32,
    /// Two of our pieces on a line whose third point is empty.
    pub open_mill: i32,
    /// A point where one of our arrivals would close two mills at once.
    pub double_threat: i32,
    /// A piece of a standing mill that can step out to a point where it closes another mill
    /// (a "running mill": a removal every other turn).
    pub running_mill: i32,
    /// A piece in a standing mill.
    pub in_mill: i32,
    /// The side flies while the other does not.
    pub flying: i32,
    /// Having the move.
    pub tempo: i32,
    /// The learned placing evaluation, when the rules are those it was learned for (filled in
    /// by `for_rules`).
    pub placing: Option<Placing>,
}

impl Weights {
    /// These weights with the learned placing evaluation of `rules`, if there is one.
    pub fn for_rules(self, rules: &Rules) -> Weights {
        Weights {
            placing: Placing::for_rules(rules),
            ..self
        }
    }

    /// The weights the engine plays with, tuned by matches.
    pub const DEFAULT: Weights = Weights {
        mobility: 12,
        blocked_piece: -25,
        open_mill: 0,
        double_threat: 0,
        running_mill: 0,
        in_mill: 0,
        flying: 0,
        tempo: 10,
        placing: None,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The evaluation terms of one side, already weighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// The pieces on the board and in hand (`PIECE` each).
    pub material: i32,
    /// The empty points next to the side's pieces (`Weights::mobility`).
    pub mobility: i32,
    /// The pieces that cannot move (`Weights::blocked_piece`).
    pub blocked: i32,
    /// The lines of two pieces and an empty point (`Weights::open_mill`).
    pub open_mills: i32,
    /// The points that would close two mills at once (`Weights::double_threat`).
    pub double_threats: i32,
    /// The running mills (`Weights::running_mill`).
    pub running_mills: i32,
    /// The pieces in standing mills (`Weights::in_mill`).
    pub in_mills: i32,
    /// Flying while the other side does not (`Weights::flying`).
    pub flying: i32,
}

impl Terms {
    /// The side's evaluation: the sum of its terms.
    pub fn total(&self) -> i32 {
        self.named().iter().map(|(_, v)| v).sum()
    }

    /// The terms with their names, for display.
    pub fn named(&self) -> [(&'static str, i32); 8] {
        [
            ("material", self.material),
            ("mobility", self.mobility),
            ("blocked", self.blocked),
            ("open mills", self.open_mills),
            ("double threats", self.double_threats),
            ("running mills", self.running_mills),
            ("in mills", self.in_mills),
            ("flying", self.flying),
        ]
    }
}

/// The weighted terms of colour `c`.
pub fn terms(pos: &Position, c: Color, w: &Weights) -> Terms {
    let t = pos.rules().topology();
    let ours = pos.pieces(c);
    let theirs = pos.pieces(!c);
    let empty = pos.empty();
    let mut out = Terms {
        material: PIECE * (ours.count() as i32 + i32::from(pos.in_hand(c))),
        ..Terms::default()
    };
    let flies = pos.can_fly(c);
    if !flies {
        for from in ours {
            let n = (t.adjacent[from.index()] & empty).count() as i32;
            out.mobility += w.mobility * n;
            if n == 0 {
                out.blocked += w.blocked_piece;
            }
        }
    } else if !pos.can_fly(!c) {
        out.flying = w.flying;
    }
    if w.open_mill == 0 && w.double_threat == 0 && w.running_mill == 0 && w.in_mill == 0 {
        return out;
    }
    // Lines with two of ours and an empty third point; points that close two at once.
    let mut closers = Bitboard::EMPTY;
    let mut doubles = Bitboard::EMPTY;
    for line in &t.lines[..t.line_count] {
        if (*line & ours).count() == 2 && (*line & theirs).is_empty() {
            out.open_mills += w.open_mill;
            let third = *line & empty;
            doubles |= closers & third;
            closers |= third;
        }
    }
    out.double_threats = w.double_threat * doubles.count() as i32;
    let in_mills = t.in_mills(ours);
    out.in_mills = w.in_mill * in_mills.count() as i32;
    if pos.in_hand(c) == 0 && !flies {
        for from in in_mills {
            let rest = ours.without(from);
            let runs = (t.adjacent[from.index()] & empty)
                .into_iter()
                .any(|to| t.partners[to.index()].iter().any(|p| p.is_subset(rest)));
            if runs {
                out.running_mills += w.running_mill;
            }
        }
    }
    out
}

/// The static evaluation for the side to move, within the evaluation's range (`EVAL_LIMIT`).
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    within_eval(unbounded(pos, w))
}

/// `evaluate` before it is kept within the evaluation's range.
fn unbounded(pos: &Position, w: &Weights) -> i32 {
    let Some(p) = w.placing else {
        return hand_written(pos, w);
    };
    let us = pos.side_to_move();
    let flies = pos.can_fly(us) || pos.can_fly(!us);
    if pos.is_placing() {
        let x = both_inputs(pos, us, &p.by_degree);
        let written = written_from(pos, w, &x, flies);
        let hands = i32::from(pos.in_hand(us) + pos.in_hand(!us));
        let all = 2 * i32::from(pos.rules().pieces);
        let (learned, late) = p.weigh(pos, &x);
        // s L + (1 - s) H + 4 s (1 - s) C, with s = hands / all, over a common denominator.
        (all * (hands * learned + (all - hands) * written) + 4 * hands * (all - hands) * late)
            / (all * all)
    } else if p.weights.has_moving() && !flies {
        let x = both_inputs(pos, us, &p.by_degree);
        written_from(pos, w, &x, false) + p.weigh_moving(pos, &x)
    } else {
        hand_written(pos, w)
    }
}

/// How much of the moving correction counts in `pos` under the fade `fade`
/// (`Learned::moving_fade`), as a fraction `(share, whole)`: in `fade`ths, how many pieces the
/// side nearer to flying can lose before it flies (at most all of them; 0 once a side flies);
/// in full without a fade or where nobody ever flies.
pub fn moving_share(pos: &Position, fade: i32) -> (i32, i32) {
    match pos.rules().flying {
        Flying::AtMost(n) if fade > 0 => {
            let least = pos.on_board(Color::White).min(pos.on_board(Color::Black)) as i32;
            ((least - i32::from(n)).clamp(0, fade), fade)
        }
        _ => (1, 1),
    }
}

/// The hand-written evaluation, from the inputs of the side to move and of the other side when
/// it is made of the material, the mobility and the blocked pieces only (the other terms'
/// weights zero, neither side flying), as it is by default: the inputs hold those counts.
fn written_from(pos: &Position, w: &Weights, x: &[[i32; INPUTS]; 2], flies: bool) -> i32 {
    let others = w.open_mill != 0 || w.double_threat != 0 || w.running_mill != 0 || w.in_mill != 0;
    if flies || others {
        return hand_written(pos, w);
    }
    material(pos)
        + w.mobility * (x[0][4] - x[1][4])
        + w.blocked_piece * (x[0][5] - x[1][5])
        + w.tempo
}

/// The hand-written evaluation for the side to move.
pub fn hand_written(pos: &Position, w: &Weights) -> i32 {
    let us = pos.side_to_move();
    terms(pos, us, w).total() - terms(pos, !us, w).total() + w.tempo
}

/// Which evaluation a search of a position under `rules` uses: 0 for the hand-written one, or a
/// fingerprint (FNV-1a) of the learned placing weights that serve these rules. Books record it,
/// since a book's searches can be repeated only with the same evaluation.
pub fn fingerprint(rules: &Rules) -> u64 {
    let Some(p) = Placing::for_rules(rules) else {
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

/// The learned placing weights of this build.
pub fn learned() -> &'static Learned {
    &super::placing::LEARNED
}

/// The learned placing evaluation, ready for one board: the weights and the points sorted by how
/// many neighbours they have (2 or fewer, 3, 4 or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placing {
    /// The learned weights.
    pub weights: &'static Learned,
    /// The board's points with 2 or fewer neighbours, with 3, and with 4 or more.
    pub by_degree: [Bitboard; 3],
}

impl Placing {
    /// The learned evaluation that serves `rules`, if any.
    pub fn for_rules(rules: &Rules) -> Option<Placing> {
        let weights = learned();
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
        Some(Placing { weights, by_degree })
    }

    /// The learned evaluation of `pos` for the side to move, and its late correction (before
    /// their weights in `evaluate`).
    pub fn learned(&self, pos: &Position) -> (i32, i32) {
        self.weigh(pos, &both_inputs(pos, pos.side_to_move(), &self.by_degree))
    }

    /// `learned` from the inputs of the side to move and of the other side.
    fn weigh(&self, pos: &Position, x: &[[i32; INPUTS]; 2]) -> (i32, i32) {
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
    fn weigh_moving(&self, pos: &Position, x: &[[i32; INPUTS]; 2]) -> i32 {
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

/// The counts the learned evaluation weighs, for colour `c` (see `INPUT_NAMES`).
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

/// Material only: the evaluation of the plain baseline searcher.
pub fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let count = |c: Color| pos.on_board(c) as i32 + i32::from(pos.in_hand(c));
    PIECE * (count(us) - count(!us))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::movegen;
    use crate::rules::notation::Convention;

    /// The learned evaluation of `rules` with the weights `learned`, and the evaluation weights
    /// that use it.
    fn with_learned(learned: &'static Learned, rules: &Rules) -> (Placing, Weights) {
        let p = Placing {
            weights: learned,
            ..Placing::for_rules(rules).unwrap()
        };
        let w = Weights {
            placing: Some(p),
            ..Weights::DEFAULT
        };
        (p, w)
    }

    fn random_positions(rules: Rules, n: usize, plies: usize) -> Vec<Position> {
        let mut rng = Rng::new(3);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::start(rules);
            for _ in 0..=rng.below(plies) {
                let legal = movegen::legal_moves(&pos, Convention::Turn);
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[rng.below(legal.len())]);
            }
            out.push(pos);
        }
        out
    }

    #[test]
    fn the_hand_weights_learned_equal_the_hand_written_evaluation() {
        let rules = Rules::nine();
        let (p, w) = with_learned(&Learned::HAND, &rules);
        for pos in random_positions(rules, 500, 30) {
            assert_eq!(evaluate(&pos, &w), hand_written(&pos, &Weights::DEFAULT));
            if pos.is_placing() {
                let (learned, late) = p.learned(&pos);
                assert_eq!((learned, late), (hand_written(&pos, &Weights::DEFAULT), 0));
            }
        }
    }

    #[test]
    fn the_learned_evaluation_fades_out_as_the_hands_empty() {
        let rules = Rules::nine();
        let w = Weights::DEFAULT.for_rules(&rules);
        let p = w.placing.unwrap();
        for pos in random_positions(rules, 500, 30) {
            let written = hand_written(&pos, &Weights::DEFAULT);
            if pos.is_placing() {
                // Without the late correction, the evaluation lies between the two.
                let (learned, late) = p.learned(&pos);
                let us = pos.side_to_move();
                let hands = i32::from(pos.in_hand(us) + pos.in_hand(!us));
                let bump = 4 * hands * (18 - hands) * late / (18 * 18);
                let (lo, hi) = (written.min(learned), written.max(learned));
                let tapered = evaluate(&pos, &w) - bump;
                assert!(
                    (lo - 1..=hi + 1).contains(&tapered),
                    "{tapered} not within {lo}..={hi}"
                );
            } else {
                // Past the placing, the moving correction is added while neither side flies.
                let us = pos.side_to_move();
                let moving = if pos.can_fly(us) || pos.can_fly(!us) {
                    0
                } else {
                    p.moving(&pos)
                };
                assert_eq!(evaluate(&pos, &w), written + moving);
            }
        }
        let start = Position::start(rules);
        assert_eq!(evaluate(&start, &w), p.learned(&start).0);
    }

    #[test]
    fn the_late_correction_weighs_most_halfway_and_nothing_at_the_ends() {
        static LATE: Learned = Learned {
            late_tempo: 90,
            ..Learned::HAND
        };
        let rules = Rules::nine();
        let late = &LATE;
        let (_, with) = with_learned(late, &rules);
        // The HAND weights give the hand-written evaluation, so the difference is the late
        // correction's share: 4 s (1 - s) 90 with s the share of the 18 pieces in hand.
        for pos in random_positions(rules, 500, 30) {
            let us = pos.side_to_move();
            let hands = i32::from(pos.in_hand(us) + pos.in_hand(!us));
            let written = hand_written(&pos, &Weights::DEFAULT);
            let extra = evaluate(&pos, &with) - written;
            if !pos.is_placing() || hands == 0 {
                assert_eq!(extra, 0);
            } else {
                assert!((extra - 4 * hands * (18 - hands) * 90 / 324).abs() <= 1);
            }
        }
        let start = Position::start(rules);
        assert_eq!(
            evaluate(&start, &with),
            hand_written(&start, &Weights::DEFAULT)
        );
        assert_ne!(
            fingerprint(&rules),
            0,
            "the learned weights have a fingerprint"
        );
        assert!(!Learned::HAND.has_late() && late.has_late());
    }

    /// White on the first `white` points of the outer square, Black on the middle and inner
    /// squares' eight middle points, White to move.
    fn moving_with(white: usize, rules: &Rules) -> Position {
        let outer: String = (0..8).map(|i| if i < white { 'O' } else { '*' }).collect();
        let fen = format!("{outer}/*@*@*@*@/*@*@*@*@ w m s {white} 0 8 0 0 0 -1 -1 -1 -1 0 0 30");
        crate::rules::fen::read(&fen, rules).unwrap()
    }

    #[test]
    fn the_moving_correction_fades_as_the_weaker_side_nears_flying() {
        static FADED: std::sync::OnceLock<Learned> = std::sync::OnceLock::new();
        let nine = Rules::nine();
        let shares: Vec<(i32, i32)> = (3..=8)
            .map(|k| moving_share(&moving_with(k, &nine), 3))
            .collect();
        assert_eq!(shares, [(0, 3), (1, 3), (2, 3), (3, 3), (3, 3), (3, 3)]);
        // Without a fade, or where nobody ever flies, the correction counts in full.
        assert_eq!(moving_share(&moving_with(4, &nine), 0), (1, 1));
        let never = Rules {
            flying: Flying::Never,
            ..nine
        };
        assert_eq!(moving_share(&moving_with(3, &never), 3), (1, 1));
        // With the shipped moving weights faded over 3 pieces, the evaluation does not jump
        // where a side starts flying: each piece White loses makes it worse, down to 3 (with 8,
        // White fills the outer square and is blocked in).
        let faded = FADED.get_or_init(|| Learned {
            moving_fade: 3,
            ..*learned()
        });
        assert!(faded.has_moving());
        let (p, w) = with_learned(faded, &nine);
        let evals: Vec<i32> = (3..=7)
            .map(|k| evaluate(&moving_with(k, &nine), &w))
            .collect();
        assert!(evals.windows(2).all(|p| p[0] < p[1]), "{evals:?}");
        // With 4 pieces, a third of the correction counts.
        let four = moving_with(4, &nine);
        let whole = Placing {
            weights: learned(),
            ..p
        };
        assert_eq!(p.moving(&four), whole.moving(&four) / 3);
    }

    #[test]
    fn the_moving_correction_is_added_in_the_moving_phase_while_neither_side_flies() {
        static MOVING: Learned = Learned {
            moving_tempo: 50,
            moving_us: [0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0],
            ..Learned::HAND
        };
        let rules = Rules::nine();
        let (p, with) = with_learned(&MOVING, &rules);
        let mut seen = [0; 3];
        for pos in random_positions(rules, 1500, 70) {
            let written = hand_written(&pos, &Weights::DEFAULT);
            let extra = evaluate(&pos, &with) - written;
            let us = pos.side_to_move();
            let flies = pos.can_fly(us) || pos.can_fly(!us);
            if pos.is_placing() {
                seen[0] += 1;
                assert_eq!(
                    extra, 0,
                    "the HAND weights give the hand-written evaluation"
                );
            } else if flies {
                seen[1] += 1;
                assert_eq!(extra, 0);
            } else {
                seen[2] += 1;
                let open = inputs(&pos, us, &p.by_degree)[6];
                assert_eq!(extra, 50 + 7 * open);
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        assert!(MOVING.has_moving() && !MOVING.has_late() && !Learned::HAND.has_moving());
    }

    #[test]
    fn the_learned_weights_serve_their_own_rules_only() {
        assert!(Placing::for_rules(&Rules::nine()).is_some());
        let mut no_draws = Rules::nine().without_draw_rules();
        no_draws.first = Color::Black;
        assert!(Placing::for_rules(&no_draws).is_some());
        for other in [
            "twelve",
            "lasker",
            "morabaraba",
            "no-reform",
            "protected-mills",
        ] {
            assert!(
                Placing::for_rules(&Rules::preset(other).unwrap()).is_none(),
                "{other}"
            );
        }
    }

    #[test]
    fn both_sides_inputs_are_each_side_s_own() {
        let rules = Rules::nine();
        let p = Placing::for_rules(&rules).unwrap();
        let t = rules.topology();
        for pos in random_positions(rules, 400, 60) {
            for c in [Color::White, Color::Black] {
                let [ours, theirs] = both_inputs(&pos, c, &p.by_degree);
                assert_eq!(theirs, both_inputs(&pos, !c, &p.by_degree)[0]);
                // Two counts worked out another way.
                assert_eq!(ours[8], t.in_mills(pos.pieces(c)).count() as i32);
                let lonely = crate::rules::board::Point::all()
                    .filter(|pt| {
                        let around = t.adjacent[pt.index()];
                        pos.empty().has(*pt)
                            && !(around & pos.pieces(c)).is_empty()
                            && (around & pos.pieces(!c)).is_empty()
                    })
                    .count();
                assert_eq!(ours[11], lonely as i32);
            }
        }
    }

    #[test]
    fn inputs_count_what_they_name() {
        let rules = Rules::nine();
        let p = Placing::for_rules(&rules).unwrap();
        // White on a7 d7 (a line with g7 empty), d6 (a point with four neighbours); Black on d5.
        let mut game = crate::Game::new(rules);
        game.play_tokens(["a7", "g1", "d7", "d5", "d6", "a1"])
            .unwrap();
        let pos = game.position();
        let x = inputs(pos, Color::White, &p.by_degree);
        assert_eq!(x[0], 6, "in hand");
        assert_eq!((x[1], x[2], x[3]), (1, 1, 1), "on 2-, 3- and 4-points");
        assert_eq!(x[6], 1, "open mills");
        assert_eq!(x[8], 0, "in mills");
    }
}
