//! Training the network evaluation (`src/search/eval/network/`) on exact values.
//!
//! Each example is a position seen by the network (`Seen`, the side to move, the phase's
//! bucket) and its exact value for the side to move: the goal is 1 for a win, ½ for a draw, 0
//! for a loss. The network, in floats, gives `y`; its prediction is `σ(y)`; the loss is the
//! mean of `(σ(y) - goal)²`, minimised by Adam on mini-batches. After training the output is
//! quantized into the engine's integers (`Floats::quantized`), `y` counting `scale`
//! centi-pieces a unit: the scale that best matches the hand-written evaluation's
//! centi-pieces on the training positions (least squares through zero), so that the search's
//! margins keep their meaning.
//!
//! **Reproducible.** The first weights, the order of the examples in each epoch and the split of
//! a batch into its slices come from the seed; each slice's gradient is summed in its own
//! buffer and the slices' in order, so the result does not depend on the threads.
//!
//! **Resumable.** After each epoch the whole state (weights, Adam's moments, the epoch) is written
//! to a checkpoint beside the output; a run given the same settings resumes from it.
//!
//! Hand-written rather than a learning crate's: the model is small (a sparse first layer, one
//! output layer), its gradient is twenty lines, and the engine's build keeps no training-only
//! dependency.

use super::net_floats::{Floats, WEIGHT_LIMIT};
use crate::rng::Rng;
use crate::rules::board::Color;
use crate::rules::position::Position;
use crate::search::eval::network::{self, Seen, BUCKETS, HIDDEN, INPUTS, MAX_ACTIVE};
use rayon::prelude::*;

/// Slices a batch is split into (each summed in order, so that threads do not change a sum).
const SLICES: usize = 16;

/// One position to learn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    /// What the network sees.
    pub seen: Seen,
    /// The side to move.
    pub side: Color,
    /// The output bucket (`network::bucket`).
    pub bucket: u8,
    /// The goal: 1 a win for the side to move, 0.5 a draw, 0 a loss.
    pub goal: f32,
}

impl Example {
    /// The example of `pos`, whose value for its side to move is `wdl` (1, 0, -1).
    pub fn of(pos: &Position, wdl: i8) -> Example {
        Example {
            seen: Seen::of(pos),
            side: pos.side_to_move(),
            bucket: network::bucket(pos) as u8,
            goal: f32::midpoint(f32::from(wdl.signum()), 1.0),
        }
    }

    /// Whether the example is held out of training: a fixed twentieth of the positions, by
    /// what the network sees (so that a position drawn twice is on one side only).
    pub fn held_out(&self) -> bool {
        let key = u64::from(self.seen.pieces[0])
            | u64::from(self.seen.pieces[1]) << 24
            | u64::from(self.seen.hands[0]) << 48
            | u64::from(self.seen.hands[1]) << 52
            | (self.side as u64) << 56;
        crate::rng::mix(key ^ 0x6e6e_7565_686f_6c64).is_multiple_of(20)
    }
}

/// The settings of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Passes over the training examples.
    pub epochs: usize,
    /// Examples per gradient step.
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth by the last epoch.
    pub rate: f32,
    /// The seed of the first weights and of the order.
    pub seed: u64,
}

/// The state of a run: the weights and Adam's moments.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The weights.
    pub net: Floats,
    /// Adam's first moments, in the order of `parts`.
    first: Vec<f32>,
    /// Adam's second moments.
    second: Vec<f32>,
    /// Gradient steps taken.
    pub steps: u64,
    /// Epochs done.
    pub epochs: usize,
}

fn zeros() -> Floats {
    Floats {
        input: vec![0.0; INPUTS * HIDDEN],
        bias: vec![0.0; HIDDEN],
        output: vec![0.0; BUCKETS * 2 * HIDDEN],
        out_bias: vec![0.0; BUCKETS],
    }
}

fn parts(f: &Floats) -> [&[f32]; 4] {
    [&f.input, &f.bias, &f.output, &f.out_bias]
}

fn parts_mut(f: &mut Floats) -> [&mut [f32]; 4] {
    [&mut f.input, &mut f.bias, &mut f.output, &mut f.out_bias]
}

/// The number of weights.
pub const WEIGHTS: usize = INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN + BUCKETS;

impl State {
    /// The first state of a run seeded with `seed`: small random weights (He's scale for the
    /// sparse layer), the output layer near zero.
    pub fn new(seed: u64) -> State {
        let mut rng = Rng::new(seed);
        let mut net = zeros();
        let mut uniform = |scale: f32| (rng.unit() as f32 * 2.0 - 1.0) * scale;
        for w in &mut net.input {
            *w = uniform(0.15);
        }
        for b in &mut net.bias {
            *b = 0.1 + uniform(0.05);
        }
        for w in &mut net.output {
            *w = uniform(0.05);
        }
        State {
            net,
            first: vec![0.0; WEIGHTS],
            second: vec![0.0; WEIGHTS],
            steps: 0,
            epochs: 0,
        }
    }

    /// The state as bytes (a checkpoint): the epochs, the steps, then every float.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(16 + 12 * WEIGHTS);
        b.extend_from_slice(&(self.epochs as u64).to_le_bytes());
        b.extend_from_slice(&self.steps.to_le_bytes());
        for part in parts(&self.net) {
            b.extend(part.iter().flat_map(|x| x.to_le_bytes()));
        }
        b.extend(self.first.iter().flat_map(|x| x.to_le_bytes()));
        b.extend(self.second.iter().flat_map(|x| x.to_le_bytes()));
        b
    }

    /// The state in `bytes` (`to_bytes`), if they are one.
    pub fn from_bytes(bytes: &[u8]) -> Option<State> {
        if bytes.len() != 16 + 12 * WEIGHTS {
            return None;
        }
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let mut floats = bytes[16..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut net = zeros();
        for part in parts_mut(&mut net) {
            for x in part.iter_mut() {
                *x = floats.next()?;
            }
        }
        let first: Vec<f32> = floats.by_ref().take(WEIGHTS).collect();
        let second: Vec<f32> = floats.collect();
        if !net
            .input
            .iter()
            .chain(&first)
            .chain(&second)
            .all(|x| x.is_finite())
        {
            return None;
        }
        Some(State {
            net,
            first,
            second,
            steps: word(8),
            epochs: usize::try_from(word(0)).ok()?,
        })
    }
}

/// The network's output `y` for `e`, with the first layer's sums of both views (the side to
/// move's first) when `sums` is given.
fn forward(
    net: &Floats,
    e: &Example,
    sums: &mut [[f32; HIDDEN]; 2],
    active: &mut [[usize; MAX_ACTIVE]; 2],
) -> (f32, [usize; 2]) {
    let mut counts = [0usize; 2];
    for (v, view) in [e.side, !e.side].into_iter().enumerate() {
        counts[v] = e.seen.features(view, &mut active[v]);
        sums[v].copy_from_slice(&net.bias);
        for &f in &active[v][..counts[v]] {
            let row = &net.input[f * HIDDEN..][..HIDDEN];
            for (s, w) in sums[v].iter_mut().zip(row) {
                *s += w;
            }
        }
    }
    let out = &net.output[usize::from(e.bucket) * 2 * HIDDEN..][..2 * HIDDEN];
    let mut y = net.out_bias[usize::from(e.bucket)];
    for v in 0..2 {
        for (s, w) in sums[v].iter().zip(&out[v * HIDDEN..][..HIDDEN]) {
            y += s.clamp(0.0, 1.0) * w;
        }
    }
    (y, counts)
}

fn sigmoid(y: f32) -> f32 {
    1.0 / (1.0 + (-y).exp())
}

/// The network's output `y` for `e`.
pub fn output(net: &Floats, e: &Example) -> f32 {
    let mut sums = [[0.0; HIDDEN]; 2];
    let mut active = [[0usize; MAX_ACTIVE]; 2];
    forward(net, e, &mut sums, &mut active).0
}

/// Adds the gradient of `e`'s loss to `grad`; the loss.
fn backward(net: &Floats, e: &Example, grad: &mut Floats) -> f32 {
    let mut sums = [[0.0; HIDDEN]; 2];
    let mut active = [[0usize; MAX_ACTIVE]; 2];
    let (y, counts) = forward(net, e, &mut sums, &mut active);
    let p = sigmoid(y);
    let diff = p - e.goal;
    let g = 2.0 * diff * p * (1.0 - p);
    let b = usize::from(e.bucket);
    grad.out_bias[b] += g;
    let out = &net.output[b * 2 * HIDDEN..][..2 * HIDDEN];
    let out_grad = &mut grad.output[b * 2 * HIDDEN..][..2 * HIDDEN];
    for v in 0..2 {
        let mut hidden = [0.0f32; HIDDEN];
        for j in 0..HIDDEN {
            let s = sums[v][j];
            out_grad[v * HIDDEN + j] += g * s.clamp(0.0, 1.0);
            if s > 0.0 && s < 1.0 {
                hidden[j] = g * out[v * HIDDEN + j];
            }
        }
        for (gb, h) in grad.bias.iter_mut().zip(&hidden) {
            *gb += h;
        }
        for &f in &active[v][..counts[v]] {
            let row = &mut grad.input[f * HIDDEN..][..HIDDEN];
            for (gw, h) in row.iter_mut().zip(&hidden) {
                *gw += h;
            }
        }
    }
    diff * diff
}

/// The mean loss of the network on `examples`.
pub fn loss(net: &Floats, examples: &[Example]) -> f64 {
    if examples.is_empty() {
        return 0.0;
    }
    let sum: f64 = examples
        .par_chunks(4096)
        .map(|chunk| {
            chunk
                .iter()
                .map(|e| f64::from((sigmoid(output(net, e)) - e.goal).powi(2)))
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    sum / examples.len() as f64
}

/// One epoch over `examples` (in an order drawn from the seed and the epoch): the state moved by
/// Adam; the mean training loss. `step` is told after each batch.
pub fn epoch(
    state: &mut State,
    examples: &[Example],
    plan: &Plan,
    mut step: impl FnMut(u64),
) -> f64 {
    let mut order: Vec<u32> = (0..examples.len() as u32).collect();
    let mut rng = Rng::new(crate::rng::mix(plan.seed ^ (state.epochs as u64 + 1) << 32));
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let progress = state.epochs as f32 / plan.epochs.max(1) as f32;
    let rate = plan.rate * (1.0 - 0.9 * progress);
    let mut total = 0.0f64;
    for batch in order.chunks(plan.batch.max(1)) {
        let per = batch.len().div_ceil(SLICES).max(1);
        let net = &state.net;
        let slices: Vec<(Floats, f64)> = batch
            .par_chunks(per)
            .map(|slice| {
                let mut grad = zeros();
                let mut loss = 0.0f64;
                for &i in slice {
                    loss += f64::from(backward(net, &examples[i as usize], &mut grad));
                }
                (grad, loss)
            })
            .collect();
        let mut grad = zeros();
        for (g, l) in &slices {
            total += l;
            for (into, from) in parts_mut(&mut grad).into_iter().zip(parts(g)) {
                for (a, b) in into.iter_mut().zip(from) {
                    *a += b;
                }
            }
        }
        adam(state, &grad, batch.len() as f32, rate);
        step(batch.len() as u64);
    }
    state.epochs += 1;
    total / examples.len().max(1) as f64
}

/// One step of Adam with the summed gradient `grad` of `n` examples; the weights kept within
/// what quantization holds.
fn adam(state: &mut State, grad: &Floats, n: f32, rate: f32) {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    state.steps += 1;
    let t = state.steps as i32;
    let c1 = 1.0 - B1.powi(t);
    let c2 = 1.0 - B2.powi(t);
    let mut k = 0;
    for (w, g) in parts_mut(&mut state.net).into_iter().zip(parts(grad)) {
        for (x, &d) in w.iter_mut().zip(g) {
            let d = d / n;
            let m = &mut state.first[k];
            let v = &mut state.second[k];
            *m = B1 * *m + (1.0 - B1) * d;
            *v = B2 * *v + (1.0 - B2) * d * d;
            *x -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *x = x.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
            k += 1;
        }
    }
}

/// The centi-pieces a unit of output counts: the least-squares factor from the network's
/// outputs to the `reference` evaluations (through zero), within 50 to 2000.
pub fn scale(net: &Floats, examples: &[Example], reference: &[i32]) -> i32 {
    let (mut xy, mut xx) = (0.0f64, 0.0f64);
    for (e, &r) in examples.iter().zip(reference) {
        let y = f64::from(output(net, e));
        xy += y * f64::from(r);
        xx += y * y;
    }
    if xx <= 0.0 {
        return 400;
    }
    ((xy / xx).round() as i32).clamp(50, 2000)
}

#[cfg(test)]
#[path = "net_tests.rs"]
mod tests;
