//! The network's shape and its quantized weights (`Layers`): the first layer's rows and bias,
//! summed into each view's accumulator, and the output layers, one a phase, that weigh the two
//! views' clipped sums.

/// The first layer's width, per view.
pub const HIDDEN: usize = 256;
/// The output layers, one per phase (`features::bucket`).
pub const BUCKETS: usize = 4;
/// The first layer's quantization: 1.0 is `QA`, and the clipped `ReLU` clips at `QA`.
pub const QA: i32 = 255;
/// The output layer's quantization: 1.0 is `QB`.
pub const QB: i32 = 256;

/// The weights of a network, quantized, as its file holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// The first layer: one row per feature (`features::INPUTS` rows).
    pub input: Box<[[i16; HIDDEN]]>,
    /// The first layer's bias.
    pub bias: [i16; HIDDEN],
    /// The output layers: the side to move's view's weights, then the other's.
    pub output: Box<[[i16; 2 * HIDDEN]; BUCKETS]>,
    /// The output biases, in units of `QA * QB`.
    pub out_bias: [i32; BUCKETS],
}
