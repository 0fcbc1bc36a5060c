//! The checksum of the tables' files (built tables, placing groups, the opening's solution,
//! packed sets): `SplitMix64`'s mixer over 8 bytes at a time. A leaf: it knows no format.

use crate::rng::mix;

/// The checksum of a table's values: `SplitMix64`'s mixer over 8 bytes at a time.
pub fn checksum(values: &[u8]) -> u64 {
    mix_words(values.len() as u64, values)
}

/// `h` mixed with each 8 bytes of `bytes` in turn, little-endian, the last word padded with
/// zeros.
pub fn mix_words(mut h: u64, bytes: &[u8]) -> u64 {
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = mix(h ^ u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = mix(h ^ u64::from_le_bytes(word));
    }
    h
}
