//! The network in floats, as the trainer holds it (`Floats`), and its quantization into the
//! engine's integers (`Floats::quantized`): each weight kept within `WEIGHT_LIMIT` and rounded
//! to the layer's factor (`QA`, `QB`).

use crate::rules::Rules;
use crate::search::eval::network::{Layers, Network, BUCKETS, HIDDEN, INPUTS, QA, QB};

/// The largest weight a quantized layer holds, as a float (so that no sum overflows).
pub const WEIGHT_LIMIT: f32 = 1.98;

/// A network in floats, as a trainer holds it: row-major, the shapes of `Network`.
#[derive(Clone, Debug, PartialEq)]
pub struct Floats {
    /// `INPUTS * HIDDEN`: the row of feature `f` is `input[f * HIDDEN..][..HIDDEN]`.
    pub input: Vec<f32>,
    /// `HIDDEN`.
    pub bias: Vec<f32>,
    /// `BUCKETS * 2 * HIDDEN`.
    pub output: Vec<f32>,
    /// `BUCKETS`.
    pub out_bias: Vec<f32>,
}

impl Floats {
    /// Weights drawn uniformly from `(-half, half)` by the stream of `seed`: a network of noise,
    /// for tests.
    pub fn uniform(seed: u64, half: f32) -> Floats {
        let mut rng = crate::rng::Rng::new(seed);
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.unit() as f32 * 2.0 - 1.0) * half)
                .collect()
        };
        Floats {
            input: draw(INPUTS * HIDDEN),
            bias: draw(HIDDEN),
            output: draw(BUCKETS * 2 * HIDDEN),
            out_bias: draw(BUCKETS),
        }
    }

    /// The network of these weights, quantized; made for `rules` (named `variant`) by
    /// `command`, with `scale` centi-pieces per unit of output.
    pub fn quantized(&self, rules: &Rules, variant: &str, command: &str, scale: i32) -> Network {
        let mut input = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for (row, w) in input.iter_mut().zip(self.input.chunks_exact(HIDDEN)) {
            for (q, &x) in row.iter_mut().zip(w) {
                *q = quantize(x, QA);
            }
        }
        let mut bias = [0i16; HIDDEN];
        for (q, &x) in bias.iter_mut().zip(&self.bias) {
            *q = quantize(x, QA);
        }
        let mut output = Box::new([[0i16; 2 * HIDDEN]; BUCKETS]);
        for (row, w) in output.iter_mut().zip(self.output.chunks_exact(2 * HIDDEN)) {
            for (q, &x) in row.iter_mut().zip(w) {
                *q = quantize(x, QB);
            }
        }
        let mut out_bias = [0i32; BUCKETS];
        for (q, &x) in out_bias.iter_mut().zip(&self.out_bias) {
            *q = (x * (QA * QB) as f32).round() as i32;
        }
        let layers = Layers {
            input,
            bias,
            output,
            out_bias,
        };
        Network::new(layers, rules, variant, command, scale)
    }
}

/// `x` within `WEIGHT_LIMIT`, in units of `1 / factor`.
fn quantize(x: f32, factor: i32) -> i16 {
    (x.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT) * factor as f32).round() as i16
}
