//! Two loaded solutions held against each other (a packed set and the build it came from): on
//! positions sampled evenly from every moving table and placing group, the same value and the
//! same choice of move, as the engine makes it.

use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::groups;
use crate::tables::index::{Classes, PairIndex};
use crate::tables::perfect_play;
use crate::tables::placing_play;
use crate::tables::{retrograde, Tables};
use rayon::prelude::*;

/// What a comparison found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    /// Moving positions compared, and those where the value or the move differs.
    pub moving: (u64, u64),
    /// Placing positions compared, and those where the value or a move's value differs.
    pub placing: (u64, u64),
    /// The first differences, as position strings (at most 20).
    pub examples: Vec<String>,
}

/// Whether `a` and `b` agree on the moving position `pos`: its value, and the move the tables
/// play (the shortest win, the longest loss, the draw leaving fewest drawing replies).
fn moving_agrees(a: &Tables, b: &Tables, pos: &Position) -> bool {
    let moves = movegen::legal_moves(pos, Convention::Turn);
    a.probe(pos) == b.probe(pos)
        && perfect_play::best_move(a, pos, &moves) == perfect_play::best_move(b, pos, &moves)
}

/// Whether `a` and `b` agree on the placing position `pos`: its value, and every move's.
fn placing_agrees(a: &Tables, b: &Tables, pos: &Position) -> bool {
    let moves = movegen::legal_moves(pos, Convention::Turn);
    a.placing_value(pos) == b.placing_value(pos)
        && placing_play::move_values(a, pos, &moves) == placing_play::move_values(b, pos, &moves)
}

/// The position strings of `positions` where `agrees` says no, found on every thread.
fn differing(positions: &[Position], agrees: impl Fn(&Position) -> bool + Sync) -> Vec<String> {
    positions
        .par_iter()
        .filter(|p| !agrees(p))
        .map(crate::rules::fen::write)
        .collect()
}

/// `per_table` slots spread evenly over `len`, the canonical ones.
fn sample(index: &PairIndex, per_table: u64) -> Vec<u64> {
    let len = index.len();
    let n = per_table.min(len).max(1);
    (0..n)
        .map(|i| (u128::from(i) * u128::from(len) / u128::from(n)) as u64)
        .filter(|&s| index.is_canonical(s))
        .collect()
}

/// Compares `a` and `b` (opened for `rules`) on `per_table` positions of each moving table of
/// `a` and each placing group (when `a` holds the placing solution), on every thread.
pub fn compare(a: &Tables, b: &Tables, rules: &Rules, per_table: u64) -> Compared {
    let mut out = Compared::default();
    let note = |out: &mut Compared, bad: Vec<String>, checked: u64, placing: bool| {
        let slot = if placing {
            &mut out.placing
        } else {
            &mut out.moving
        };
        slot.0 += checked;
        slot.1 += bad.len() as u64;
        let room = 20usize.saturating_sub(out.examples.len());
        out.examples.extend(bad.into_iter().take(room));
    };
    for (m, o) in a.pairs() {
        let index = PairIndex::new(m, o, a.classes());
        let slots = sample(&index, per_table);
        let positions: Vec<Position> = slots
            .iter()
            .map(|&s| {
                let (ours, theirs) = index.position(s);
                retrograde::position(rules, ours, theirs)
            })
            .filter(|p| p.quick_outcome().is_none())
            .collect();
        let bad = differing(&positions, |p| moving_agrees(a, b, p));
        note(&mut out, bad, positions.len() as u64, false);
    }
    if a.placing()
        .is_some_and(crate::tables::placing::solution::Solution::is_whole)
    {
        let classes = Classes::new(rules.pieces as usize);
        for g in groups::all(rules) {
            let index = PairIndex::new(g.mover as usize, g.other as usize, &classes);
            let positions: Vec<Position> = sample(&index, per_table)
                .into_iter()
                .map(|s| {
                    let (ours, theirs) = index.position(s);
                    crate::tables::groups::position(rules, g, ours, theirs)
                })
                .filter(|p| a.placing_value(p).is_some() || b.placing_value(p).is_some())
                .collect();
            let bad = differing(&positions, |p| placing_agrees(a, b, p));
            note(&mut out, bad, positions.len() as u64, true);
        }
    }
    out
}
