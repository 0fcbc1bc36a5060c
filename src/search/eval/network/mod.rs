//! The network evaluation: a small network in the NNUE manner, trained on the solution's
//! exact values (`moulin train net`, `src/train/net.rs`), read from a file found like the book
//! (`nnue_file`), as Stockfish's `nnue/` is laid out: what the network sees (`features`), its
//! shape and weights (`layers`), the first layer's sums (`accumulator`), the kernels of the inner
//! loop (`simd`), the file (`nnue_file`) and what is wrong with one (`network_error`); here, the
//! `Network` that holds them and its output.
//!
//! **The output.** Each view's sums are clipped to `[0, QA]` (a clipped `ReLU`), the side to
//! move's view first, and weighed by one of [`BUCKETS`] output layers chosen by the phase
//! (early placing, late placing, moving, flying: `bucket`): an `i32` sum, scaled into
//! centi-pieces (`Network::output`). Every number is an integer, and any machine gives the same
//! numbers.

mod accumulator;
mod features;
mod layers;
mod network_error;
mod nnue_file;
mod simd;

pub use accumulator::Accumulator;
pub use features::{bucket, Seen, INPUTS, MAX_ACTIVE};
pub use layers::{Layers, BUCKETS, HIDDEN, QA, QB};
pub use network_error::NetworkError;
pub use nnue_file::{chosen, file_name, Flaw, Header, MAGIC};

use crate::rules::position::Position;
use crate::rules::Rules;
use crate::search::score::EVAL_LIMIT;
use crate::shipped::{Loaded, Source};
use simd::clipped_dot;
use std::borrow::Cow;
use std::path::Path;

/// A network, quantized, ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// What its file says of it: the rules, the variant, the command that made it, the scale.
    pub header: Header,
    /// Its weights.
    layers: Layers,
}

impl Network {
    /// The network of the quantized weights `layers`, made for `rules` (named `variant`) by
    /// `command`, with `scale` centi-pieces per unit of output.
    pub fn new(layers: Layers, rules: &Rules, variant: &str, command: &str, scale: i32) -> Network {
        let header = Header {
            print: crate::tables::placing::fingerprint(rules),
            variant: variant.to_string(),
            command: command.to_string(),
            scale,
        };
        Network { header, layers }
    }

    /// Whether the network was made for `rules` (every option that changes a value).
    pub fn serves(&self, rules: &Rules) -> bool {
        crate::tables::placing::fingerprint(rules) == self.header.print
    }

    /// The accumulator of `seen`, summed from nothing.
    #[inline]
    pub fn refresh(&self, seen: &Seen) -> Accumulator {
        Accumulator::summed(&self.layers, seen)
    }

    /// `acc` made the accumulator of `seen`, summed from nothing.
    #[inline]
    pub fn refresh_into(&self, acc: &mut Accumulator, seen: &Seen) {
        acc.refresh(&self.layers, seen);
    }

    /// `acc`, summed for `acc.seen`, made the accumulator of `to`: the rows of the features
    /// that differ subtracted and added.
    #[inline]
    pub fn update(&self, acc: &mut Accumulator, to: &Seen) {
        acc.update(&self.layers, to);
    }

    /// The evaluation of `pos` for its side to move, in centi-pieces, from its accumulator
    /// `acc` (summed for `Seen::of(pos)`), within the evaluation's range (`EVAL_LIMIT`: a file
    /// whose weights would reach beyond it is still never read as a mate or a table win).
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let us = pos.side_to_move() as usize;
        let w = &self.layers.output[bucket(pos)];
        let (ours, theirs) = w.split_at(HIDDEN);
        let sum = clipped_dot(&acc.sums[us], ours) + clipped_dot(&acc.sums[1 - us], theirs);
        let y = i64::from(sum) + i64::from(self.layers.out_bias[bucket(pos)]);
        let cp = y * i64::from(self.header.scale) / i64::from(QA * QB);
        cp.clamp(i64::from(-EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// The evaluation of `pos` for its side to move, summed from nothing.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(&Seen::of(pos)), pos)
    }

    /// The network's file (`nnue_file`).
    pub fn to_bytes(&self) -> Vec<u8> {
        nnue_file::to_bytes(&self.header, &self.layers)
    }

    /// The network in `bytes`, checked: magic, version, shape, quantization, checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, Flaw> {
        let (header, layers) = nnue_file::from_bytes(bytes)?;
        Ok(Network { header, layers })
    }

    /// Reads and checks the network file at `path` for `rules` (`load`), and logs what was
    /// loaded.
    pub fn read(path: &Path, rules: &Rules) -> Result<Network, NetworkError> {
        let (net, loaded) = Network::load(&Source::File(path.to_path_buf()), rules)?;
        log::info!("{loaded}");
        Ok(net)
    }

    /// Reads and checks the network `source` gives for `rules`; the network and what was
    /// loaded, in one line.
    pub fn load(source: &Source, rules: &Rules) -> Result<(Network, Loaded), NetworkError> {
        let origin = source.origin();
        let cannot = |source| NetworkError::Read {
            origin: origin.clone(),
            source,
        };
        let flawed = |flaw| NetworkError::Flawed {
            origin: origin.clone(),
            flaw,
        };
        let bytes = match source {
            Source::BuiltIn(b) => Cow::Borrowed(b.bytes),
            Source::File(path) => {
                let file = crate::input_file::open_regular(path).map_err(cannot)?;
                let cap = nnue_file::MAX_FILE_BYTES;
                Cow::Owned(crate::input_file::read_file_capped(file, cap).map_err(cannot)?)
            }
        };
        let net = Network::from_bytes(&bytes).map_err(flawed)?;
        if !net.serves(rules) {
            let variant = net.header.variant.clone();
            return Err(flawed(Flaw::Rules { variant }));
        }
        let loaded = Loaded {
            kind: "network",
            origin,
            bytes: bytes.len() as u64,
            fingerprint: net.header.print,
            checksum: bytes.last_chunk().copied().map(u64::from_le_bytes),
        };
        Ok((net, loaded))
    }
}

#[cfg(test)]
#[path = "network_tests.rs"]
pub(crate) mod tests;
