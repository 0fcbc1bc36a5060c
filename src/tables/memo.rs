//! The values of derived positions found already: a packed set does not store half its moving
//! tables (`pack::storage`), and a probe of such a position costs a move generation and a probe of
//! each successor, often a block unpacked each. A search probes the same positions again and
//! again (its table keeps scores, not the probes a node makes before it looks there), so each
//! value found is kept here for the next probe.
//!
//! One word a position, lock-free: the mover's set (24 bits), the other side's (24 bits) and the
//! value's code (16 bits, `Value::code`) in one `AtomicU64`, at a place chosen by the sets' hash
//! (direct-mapped: a newer position takes the place). A word is written and read whole, so a
//! reader finds the value of the position whose sets it holds or nothing; the sets of a derived
//! position are never empty, so the word 0 is no position. The words are allocated at the first
//! derived probe, in huge pages where the system allows (`crate::memory`), fewer where the memory
//! left is short (`memory::within_limits`) or refused, none at all if need be (each derived probe
//! is then found again).

use crate::memory::Words;
use crate::tables::values::Value;
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

/// Words kept at most (8 bytes each: 64 MiB). A search from the late placing probing the whole game's
/// set ran 1.1 to 1.3 times faster with 64 MiB than with 8, and about 1.03 times faster again
/// with 256 (docs/results.md, 2026-11-29).
const WORDS: usize = 1 << 23;

/// Derived values found, shared by the threads probing one `Tables`.
#[derive(Debug, Default)]
pub struct Memo {
    words: OnceLock<Words>,
}

/// The word of a position and its value.
fn word(ours: u32, theirs: u32, value: Value) -> u64 {
    u64::from(ours) << 40 | u64::from(theirs) << 16 | u64::from(value.code())
}

/// The place of a position's word among `len` (a power of two; none of 0 words).
fn place(ours: u32, theirs: u32, len: usize) -> usize {
    (crate::rng::mix(u64::from(ours) << 24 | u64::from(theirs)) as usize) & len.wrapping_sub(1)
}

impl Memo {
    /// The value kept for the position where the mover holds `ours` and the other side `theirs`.
    #[inline]
    pub fn get(&self, ours: u32, theirs: u32) -> Option<Value> {
        let words = self.words.get()?;
        let w = words
            .get(place(ours, theirs, words.len()))?
            .load(Ordering::Relaxed);
        (w >> 16 == u64::from(ours) << 24 | u64::from(theirs)).then(|| Value::from_code(w as u16))
    }

    /// Keeps `value` as the position's.
    pub fn put(&self, ours: u32, theirs: u32, value: Value) {
        let words = self.words.get_or_init(|| {
            let bytes = crate::memory::within_limits(WORDS * 8);
            // The largest power of two of words that fits.
            let len = (bytes / 8 + 1).next_power_of_two() / 2;
            Words::at_most(len.min(WORDS), 1 << 10, Words::zeroed)
        });
        if let Some(w) = words.get(place(ours, theirs, words.len())) {
            w.store(word(ours, theirs, value), Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::values::MAX_DISTANCE;

    #[test]
    fn a_kept_value_is_found_for_its_position_only() {
        let memo = Memo::default();
        assert_eq!(memo.get(0b111, 0b11_1000), None);
        for (i, v) in [Value::Win(17), Value::Loss(300), Value::Draw]
            .into_iter()
            .enumerate()
        {
            let ours = 0b111 << i;
            memo.put(ours, 0b111 << 12, v);
            assert_eq!(memo.get(ours, 0b111 << 12), Some(v));
            assert_eq!(memo.get(ours, 0b111 << 13), None);
        }
        // Every set of 24 points and every code fit the word.
        let (ours, theirs) = (0xff_ffff, 0xf0_0000);
        memo.put(ours, theirs, Value::Loss(MAX_DISTANCE));
        assert_eq!(memo.get(ours, theirs), Some(Value::Loss(MAX_DISTANCE)));
    }
}
