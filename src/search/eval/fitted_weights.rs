//! The learned weights of the placing phase and of the moving correction (see
//! `linear_weights::LinearWeights`), written by `moulin train fit`; do not edit by hand. Inputs, in order:
//! in-hand, on-2-points, on-3-points, on-4-points, mobility, blocked, open-mills, double-threats, in-mills, lines-of-one, lines-blocked, own-empties.
//!
//! Made by: `target/release/moulin train fit --labels /root/.cache/moulin/train/nine/labels-d13-s1.txt /root/.cache/moulin/train/nine/labels-d13-games-moving.txt --no-late --moving --out src/search/eval/fitted_weights.rs`
//!
//! From: 4978 placing positions (4480 fitted, 498 held out) from 2 label files (labels-d13-s1.txt, labels-d13-games-moving.txt); scale 200; held-out loss x1e4 300.370 -> 188.373, mean |error| 143.6 -> 124.8 cp; moving correction: 23600 moving positions, held-out loss x1e4 452.225 -> 350.229, mean |error| 403.0 -> 364.5 cp.

use super::linear_weights::LinearWeights;

pub const FITTED: LinearWeights = LinearWeights {
    variant: "nine",
    us: [-10, 1, 35, 41, 6, 7, 146, -22, 14, -10, -144, -10],
    them: [10, 21, -7, -50, 4, 14, -56, 44, 18, 0, 183, -3],
    tempo: 15,
    late_us: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    late_them: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    late_tempo: 0,
    moving_us: [0, 20, 32, 49, -6, -4, 103, 54, 23, 41, 6, -5],
    moving_them: [0, -16, -40, -64, 17, -1, -83, -44, -10, -49, 12, 7],
    moving_tempo: -59,
    moving_fade: 0,
};
