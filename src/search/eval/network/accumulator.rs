//! The accumulator: the first layer's sums of both views of a position, kept for each view
//! (`HIDDEN` integers), made from nothing by summing the rows of the features that are on plus
//! the bias, or from the sums of a position near it (its parent, or its sibling) by adding and
//! subtracting the rows of the features that differ, in `i16`, instead of summing every row
//! again.

use super::features::{Seen, MAX_ACTIVE};
use super::layers::{Layers, HIDDEN};
use super::simd::apply;
use crate::rules::board::Color;

/// The first layer's sums of both views, White's then Black's, for one `Seen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// What they were summed for.
    pub seen: Seen,
    /// White's view, then Black's.
    pub sums: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulator of `seen`, summed from nothing by the first layer of `layers`.
    pub(super) fn summed(layers: &Layers, seen: &Seen) -> Accumulator {
        let mut acc = Accumulator {
            seen: *seen,
            sums: [[0; HIDDEN]; 2],
        };
        acc.refresh(layers, seen);
        acc
    }

    /// `self` made the accumulator of `seen`, summed from nothing.
    pub(super) fn refresh(&mut self, layers: &Layers, seen: &Seen) {
        let mut active = [0usize; MAX_ACTIVE];
        for view in [Color::White, Color::Black] {
            let n = seen.features(view, &mut active);
            let sums = &mut self.sums[view as usize];
            *sums = layers.bias;
            apply::<usize>(sums, &layers.input, &active[..n], &[]);
        }
        self.seen = *seen;
    }

    /// `self`, summed for `self.seen`, made the accumulator of `to`: the rows of the features
    /// that differ subtracted and added.
    pub(super) fn update(&mut self, layers: &Layers, to: &Seen) {
        let mut removed = [[0u16; MAX_ACTIVE]; 2];
        let mut added = [[0u16; MAX_ACTIVE]; 2];
        let n = self.seen.changes(to, &mut removed, &mut added);
        for v in 0..2 {
            let (r, a) = n[v];
            apply(
                &mut self.sums[v],
                &layers.input,
                &added[v][..a],
                &removed[v][..r],
            );
        }
        self.seen = *to;
    }
}
