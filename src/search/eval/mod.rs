//! The evaluation, from the side to move's point of view, in centi-pieces (100 = one piece),
//! and its dispatch: the search evaluates with a network where one serves the rules
//! (`network/`), else with the hand-written evaluation (`hand_written`) and the linear terms
//! (`linear`, weights in `fitted_weights.rs`) tapered into it, or, in the plain baseline, with
//! the material alone (`material`). `Evaluation` is what a search chose; `Evaluator` is one
//! thread's, with the network's accumulators by ply.
//!
//! In the placing phase of the variant the linear weights were fitted for, the placing
//! evaluation of the linear terms is tapered into the hand-written evaluation as the hands
//! empty, so that it is the whole evaluation at the first turn and gone when the last piece is
//! placed, and a late correction of the same counts with its own weights weighs most halfway
//! through the placing and nothing at either end (`evaluate`). In the moving phase, while
//! neither side flies, the moving correction is added to the hand-written evaluation.

mod fitted_weights;
mod hand_written;
mod linear;
mod linear_weights;
mod material;
pub mod network;

pub use hand_written::{hand_written, terms, Terms, Weights};
pub use linear::{both_inputs, fingerprint, fitted, inputs, moving_share, LinearTerms};
pub use linear_weights::{LinearWeights, INPUTS, INPUT_NAMES};
pub use material::{material, PIECE};

use crate::rules::position::Position;
use crate::search::score::within_eval;
use hand_written::written_from;
use network::{Accumulator, Network, Seen};

/// The static evaluation for the side to move, within the evaluation's range (`EVAL_LIMIT`).
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    within_eval(unbounded(pos, w))
}

/// `evaluate` before it is kept within the evaluation's range.
fn unbounded(pos: &Position, w: &Weights) -> i32 {
    let Some(p) = w.linear else {
        return hand_written(pos, w);
    };
    let us = pos.side_to_move();
    let flies = pos.can_fly(us) || pos.can_fly(!us);
    if pos.is_placing() {
        let x = both_inputs(pos, us, &p.by_degree);
        let written = written_from(pos, w, &x, flies);
        let hands = i32::from(pos.in_hand(us) + pos.in_hand(!us));
        let all = 2 * i32::from(pos.rules().pieces);
        let (placing, late) = p.weigh(pos, &x);
        // s L + (1 - s) H + 4 s (1 - s) C, with s = hands / all, over a common denominator.
        (all * (hands * placing + (all - hands) * written) + 4 * hands * (all - hands) * late)
            / (all * all)
    } else if p.weights.has_moving() && !flies {
        let x = both_inputs(pos, us, &p.by_degree);
        written_from(pos, w, &x, false) + p.weigh_moving(pos, &x)
    } else {
        hand_written(pos, w)
    }
}

/// What a search evaluates with, chosen once for its rules.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Evaluation<'a> {
    /// The material only: the plain baseline's.
    Material,
    /// The hand-written evaluation with these weights, the linear terms in them where they
    /// serve the rules (`evaluate`).
    Written(Weights),
    /// The network.
    Network(&'a Network),
}

/// Features that differ (as `Seen::distance` counts them: three a point, two a hand) from which
/// an accumulator is summed from nothing rather than updated: summing costs a row for each
/// feature on, about 22 a view late in the placing, and an update about one a point that
/// differs and one or two a line through it whose threat comes or goes (a step counts 6).
const REFRESH_AT: u32 = 28;

/// One search thread's evaluation: what the search evaluates with, and the network's
/// accumulators by ply.
pub(crate) struct Evaluator<'a> {
    evaluation: Evaluation<'a>,
    /// Each of the last position evaluated at its ply (none without a network).
    accumulators: Vec<Option<Accumulator>>,
}

impl<'a> Evaluator<'a> {
    /// A thread's evaluator of `evaluation`, for searches of up to `plies` plies.
    pub(crate) fn new(evaluation: Evaluation<'a>, plies: usize) -> Evaluator<'a> {
        let accumulators = match evaluation {
            Evaluation::Network(_) => (0..plies).map(|_| None).collect(),
            _ => Vec::new(),
        };
        Evaluator {
            evaluation,
            accumulators,
        }
    }

    /// The static evaluation for the side to move at `ply`.
    pub(crate) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match self.evaluation {
            Evaluation::Material => material(pos),
            Evaluation::Network(net) => {
                let acc = self.network_at(net, pos, ply);
                net.output(acc, pos)
            }
            Evaluation::Written(ref w) => evaluate(pos, w),
        }
    }

    /// The accumulator of `pos` at `ply`, made from the nearest of those kept at `ply` (a
    /// sibling's, or an earlier visit's), at `ply - 1` (the parent's, when it was evaluated)
    /// and `ply - 2`, by the features that differ; summed from nothing when none is near.
    fn network_at(&mut self, net: &Network, pos: &Position, ply: usize) -> &Accumulator {
        let seen = Seen::of(pos);
        let mut best: Option<(u32, usize)> = None;
        for k in [ply, ply.wrapping_sub(1), ply.wrapping_sub(2)] {
            if let Some(Some(acc)) = self.accumulators.get(k) {
                let d = acc.seen.distance(&seen);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, k));
                }
            }
        }
        match best {
            Some((d, k)) if d < REFRESH_AT => {
                if k != ply {
                    // A parent's: copied into this ply's place (no other copy), then updated.
                    let (below, here) = self.accumulators.split_at_mut(ply);
                    let from = below[k].as_ref().expect("a candidate is kept");
                    match &mut here[0] {
                        // Field by field: the sums copied straight into place, no temporary.
                        Some(acc) => {
                            acc.seen = from.seen;
                            acc.sums = from.sums;
                        }
                        slot @ None => *slot = Some(from.clone()),
                    }
                }
                let acc = self.accumulators[ply].as_mut().expect("just kept");
                net.update(acc, &seen);
            }
            _ => match &mut self.accumulators[ply] {
                Some(acc) => net.refresh_into(acc, &seen),
                slot @ None => *slot = Some(net.refresh(&seen)),
            },
        }
        self.accumulators[ply].as_ref().expect("just kept")
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;
