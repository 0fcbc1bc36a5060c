//! The one small random generator of the project: `SplitMix64` (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", 2014). Deterministic from its seed, so that
//! anything drawn with it (Zobrist keys, openings, fuzz input, a book move) can be replayed. It
//! is not for cryptography.

/// One step of `SplitMix64`'s output function on `state` advanced by the golden gamma: a well mixed
/// 64-bit value. `const`, so that tables (the Zobrist keys) are built at compile time.
pub const fn mix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed from the clock, the nanoseconds since 1970 (their low 64 bits): a different one on
/// each run.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5eed, |d| d.as_nanos() as u64)
}

/// A `SplitMix64` stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A stream seeded with `seed`: the same seed gives the same stream.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Seeded from the clock (`clock_seed`): a different stream on each run.
    pub fn from_time() -> Rng {
        Rng(clock_seed())
    }

    /// The next number of the stream.
    pub fn next_u64(&mut self) -> u64 {
        let z = mix(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `0..1`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // The first outputs of SplitMix64 seeded with 0, as published with the algorithm.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert!((0..1000).all(|_| r.unit() < 1.0 && r.below(7) < 7));
    }
}
