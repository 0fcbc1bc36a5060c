//! Zobrist keys, built at compile time by a fixed pseudo-random sequence (`SplitMix64`, Steele,
//! Lea and Flood 2014), so that keys are the same on every run and every machine.

use crate::rng::mix as splitmix;

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(
            seed.wrapping_mul(0x1_0000_0001)
                .wrapping_add(i as u64 * 0x9E37),
        );
        i += 1;
    }
    out
}

/// A piece of colour `c` on point `p`: index `24 * c + p`.
pub static PIECE: [u64; 48] = table(1);
/// Pieces in hand: index `13 * c + count`.
pub static HAND: [u64; 26] = table(2);
/// Black to move.
pub const SIDE: u64 = splitmix(3);
/// Removals pending for the side to move (0 to 3: three when one piece closes three mills).
pub static PENDING: [u64; 4] = [0, splitmix(4), splitmix(5), splitmix(6)];

/// A spent mill (a line that gave its owner a removal, with the ids of its three pieces), mixed
/// rather than tabled: there are too many combinations for a table and they are rare.
pub const fn spent(color: usize, line: usize, record: u16) -> u64 {
    if record == 0 {
        0
    } else {
        splitmix(0x5EED_0000 ^ (color as u64) << 40 ^ (line as u64) << 32 ^ record as u64)
    }
}
