//! The kernels of the network's inner loop, over fixed-size arrays so that the compiler makes
//! them SIMD (SSE2 on the x86-64 baseline, NEON on ARM), each compiled a second time for AVX2
//! and chosen at run time where the processor has it: the same numbers on any machine, as every
//! sum is an integer (the first layer's wrapping like an `i16`).

use super::layers::{HIDDEN, QA};

/// Lanes of the sums added to at once: their part of the sums stays in registers while every
/// row is added and subtracted (one pass over the sums, however many features changed).
const LANES: usize = 64;

/// `sum` plus the rows of `added`, minus those of `removed` (wrapping, as `i16` sums do): the
/// loop of `apply_portable` compiled for AVX2 where the processor has it (twice the lanes an
/// instruction of the x86-64 baseline adds; the same numbers, as every sum wraps alike).
#[inline]
pub(super) fn apply<F: Copy + Into<usize>>(
    sum: &mut [i16; HIDDEN],
    input: &[[i16; HIDDEN]],
    added: &[F],
    removed: &[F],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { apply_avx2(sum, input, added, removed) };
        return;
    }
    apply_portable(sum, input, added, removed);
}

/// `apply_portable` for processors with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn apply_avx2<F: Copy + Into<usize>>(
    sum: &mut [i16; HIDDEN],
    input: &[[i16; HIDDEN]],
    added: &[F],
    removed: &[F],
) {
    apply_portable(sum, input, added, removed);
}

/// `apply`'s loop, for any processor. Always inlined, so that `apply_avx2` compiles it for AVX2.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(super) fn apply_portable<F: Copy + Into<usize>>(
    sum: &mut [i16; HIDDEN],
    input: &[[i16; HIDDEN]],
    added: &[F],
    removed: &[F],
) {
    for (part, c) in sum.chunks_exact_mut(LANES).zip((0..HIDDEN).step_by(LANES)) {
        let mut lanes: [i16; LANES] = part.try_into().expect("LANES wide");
        for &f in added {
            let row: &[i16; LANES] = input[f.into()][c..c + LANES]
                .try_into()
                .expect("LANES wide");
            for (s, w) in lanes.iter_mut().zip(row) {
                *s = s.wrapping_add(*w);
            }
        }
        for &f in removed {
            let row: &[i16; LANES] = input[f.into()][c..c + LANES]
                .try_into()
                .expect("LANES wide");
            for (s, w) in lanes.iter_mut().zip(row) {
                *s = s.wrapping_sub(*w);
            }
        }
        part.copy_from_slice(&lanes);
    }
}

/// The sum of `clamp(sums[i], 0, QA) * weights[i]`: `clipped_dot_portable` compiled for AVX2
/// where the processor has it (the same numbers: integer sums in any order).
#[inline]
pub(super) fn clipped_dot(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { clipped_dot_avx2(sums, weights) };
    }
    clipped_dot_portable(sums, weights)
}

/// `clipped_dot_portable` for processors with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clipped_dot_avx2(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    clipped_dot_portable(sums, weights)
}

/// `clipped_dot`'s sum, for any processor. Always inlined, so that `clipped_dot_avx2` compiles
/// it for AVX2.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(super) fn clipped_dot_portable(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    sums.iter()
        .zip(weights)
        .map(|(&s, &w)| i32::from(s.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}
