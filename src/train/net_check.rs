//! How well an evaluation chooses by itself: on positions whose every move the solution values,
//! the share where the move a 1-ply search picks with the evaluation keeps the value (the best
//! of the successors' values), by phase: the placing by ply, the moving by material.

use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::exact::Wdl;
use crate::tables::placing::solution::Solution;
use crate::tables::placing_play::known;
use crate::tables::Tables;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The phase a position is counted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// The placing, at this ply (placements made, 0 first).
    Placing(u32),
    /// The moving, with this many pieces for the side with more and the side with fewer.
    Moving(u32, u32),
}

impl Phase {
    /// The phase of `pos`.
    pub fn of(pos: &Position) -> Phase {
        if pos.is_placing() {
            let all = 2 * u32::from(pos.rules().pieces);
            Phase::Placing(all - pos.placements_left())
        } else {
            let (w, b) = (
                pos.on_board(crate::rules::board::Color::White),
                pos.on_board(crate::rules::board::Color::Black),
            );
            Phase::Moving(w.max(b), w.min(b))
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Phase::Placing(ply) => write!(f, "placing ply {ply}"),
            Phase::Moving(a, b) => write!(f, "moving {a} v {b}"),
        }
    }
}

/// The counts of one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions judged.
    pub positions: u64,
    /// Those in which some move loses value (the others cannot be got wrong).
    pub testing: u64,
    /// Positions where the evaluation's move kept the value.
    pub kept: u64,
    /// Testing positions where it did.
    pub testing_kept: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.positions += other.positions;
        self.testing += other.testing;
        self.kept += other.kept;
        self.testing_kept += other.testing_kept;
    }
}

/// The value of each move of `pos` for its side to move, by the solution and the tables; none
/// if one is not known (or there is no move).
fn move_values(
    pos: &Position,
    solution: &Solution,
    tables: &Tables,
) -> Option<Vec<(Position, Wdl)>> {
    let moves = movegen::legal_moves(pos, Convention::Turn);
    if moves.is_empty() {
        return None;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play(mv);
            Some((child, -known(&child, Some(solution), tables)?))
        })
        .collect()
}

/// The index of the child a 1-ply search with `evaluate` picks (the first of the best): a won
/// game first, then the lowest evaluation for the opponent.
fn pick(children: &[(Position, Wdl)], evaluate: &(impl Fn(&Position) -> i32 + Sync)) -> usize {
    let score = |child: &Position| match child.quick_outcome() {
        Some(o) => i64::from(o.value_for(child.side_to_move())) * -1_000_000,
        None => -i64::from(evaluate(child)),
    };
    let mut best = 0;
    let mut best_score = i64::MIN;
    for (i, (child, _)) in children.iter().enumerate() {
        let s = score(child);
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    best
}

/// For each evaluation of `evaluations`, the counts by phase of `positions` (those whose moves
/// are all valued; the others are skipped).
pub fn judge(
    positions: &[Position],
    solution: &Solution,
    tables: &Tables,
    evaluations: &[&(dyn Fn(&Position) -> i32 + Sync)],
) -> Vec<BTreeMap<Phase, Counts>> {
    let per: Vec<Vec<(Phase, Counts)>> = positions
        .par_iter()
        .filter_map(|pos| {
            let children = move_values(pos, solution, tables)?;
            let best = children.iter().map(|c| c.1).max()?;
            let testing = children.iter().any(|c| c.1 != best);
            let phase = Phase::of(pos);
            Some(
                evaluations
                    .iter()
                    .map(|evaluate| {
                        let kept = children[pick(&children, evaluate)].1 == best;
                        let counts = Counts {
                            positions: 1,
                            testing: u64::from(testing),
                            kept: u64::from(kept),
                            testing_kept: u64::from(testing && kept),
                        };
                        (phase, counts)
                    })
                    .collect(),
            )
        })
        .collect();
    let mut out = vec![BTreeMap::new(); evaluations.len()];
    for one in per {
        for (k, (phase, counts)) in one.into_iter().enumerate() {
            out[k]
                .entry(phase)
                .or_insert_with(Counts::default)
                .add(&counts);
        }
    }
    out
}

/// The counts of `by_phase` summed into the placing's, the moving's and all.
pub fn totals(by_phase: &BTreeMap<Phase, Counts>) -> [(&'static str, Counts); 3] {
    let mut placing = Counts::default();
    let mut moving = Counts::default();
    for (phase, c) in by_phase {
        match phase {
            Phase::Placing(_) => placing.add(c),
            Phase::Moving(..) => moving.add(c),
        }
    }
    let mut all = placing;
    all.add(&moving);
    [("placing", placing), ("moving", moving), ("all", all)]
}
