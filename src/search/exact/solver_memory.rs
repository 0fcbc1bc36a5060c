//! The exact solver's memory: what it has proven of each position (`Known`), kept between
//! solves in a table of a fixed size (`Memory`).

use super::wdl::Wdl;
use crate::rules::moves::Move;

/// What is known of a solved position: bounds on its value and the move that proved the lower.
#[derive(Clone, Copy)]
pub(super) struct Known {
    /// The value is at least this.
    pub(super) lower: Wdl,
    /// The value is at most this.
    pub(super) upper: Wdl,
    /// The move that proved `lower` (`Move::NULL` when none did).
    pub(super) best: Move,
}

impl Known {
    const NOTHING: Known = Known {
        lower: -1,
        upper: 1,
        best: Move::NULL,
    };

    /// The second word of a slot: the move's bits, the bounds (plus one), the placements left
    /// and a mark that the slot is used.
    fn pack(self, placements: u32) -> u64 {
        u64::from(self.best.bits())
            | ((self.lower + 1) as u64) << 32
            | ((self.upper + 1) as u64) << 40
            | u64::from(placements.min(255)) << 48
            | USED
    }

    fn unpack(word: u64) -> Known {
        Known {
            lower: (word >> 32 & 0xff) as Wdl - 1,
            upper: (word >> 40 & 0xff) as Wdl - 1,
            best: Move::from_bits(word as u32).unwrap_or(Move::NULL),
        }
    }
}

/// The mark of a used slot.
const USED: u64 = 1 << 63;

/// Slots a bucket holds: four of 16 bytes, one cache line.
const BUCKET: usize = 4;

/// The positions a solver has proven something of, kept between solves (a game's successive
/// positions share most of their subtrees): a table of a fixed size, four slots of 16 bytes (the
/// key, then the bounds, the move and the placements left) to a bucket, so that a lookup and the
/// store after it touch one cache line. A full bucket gives up the slot with the fewest
/// placements left (the smallest subtree to prove again).
pub struct Memory {
    /// Two words a slot.
    words: Vec<u64>,
    /// Buckets less one (their number is a power of two).
    mask: usize,
    used: usize,
}

impl Memory {
    /// A memory of at most `limit` positions (16 bytes each; at least one bucket of 4), fewer
    /// where they do not fit in the share of the memory and address space left that one table
    /// may take (`memory::within_limits`) or the memory is refused. Its pages are taken as they
    /// are first written.
    pub fn new(limit: usize) -> Memory {
        let limit = crate::memory::within_limits(limit.saturating_mul(16)) / 16;
        let mut buckets = (limit / BUCKET + 1).next_power_of_two() / 2;
        let words = loop {
            match crate::memory::zeroed_vec(2 * BUCKET * buckets.max(1)) {
                Some(words) => break words,
                // Sixty-four bytes refused: nothing would run on.
                None if buckets <= 1 => break vec![0; 2 * BUCKET],
                None => buckets /= 2,
            }
        };
        Memory {
            mask: words.len() / (2 * BUCKET) - 1,
            words,
            used: 0,
        }
    }

    /// Forgets everything. The words are zeroed where they are, not given back for fresh ones:
    /// the system maps fresh memory page by page as it is first written, and a solve that
    /// scatters its positions over the table would pay for a page at each of its first stores.
    pub fn clear(&mut self) {
        if self.used > 0 {
            self.words.fill(0);
            self.used = 0;
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.used
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// The first word of the bucket of `key`.
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * 2 * BUCKET
    }

    /// What is known of `key`, if its bucket holds it.
    pub(super) fn get(&self, key: u64) -> Option<Known> {
        let b = self.bucket(key);
        self.words[b..b + 2 * BUCKET]
            .chunks_exact(2)
            .find(|slot| slot[0] == key && slot[1] & USED != 0)
            .map(|slot| Known::unpack(slot[1]))
    }

    /// Updates what is known of `key` (a position with `placements` left) by `update`: in its
    /// slot, else in an empty one, else in the one of fewest placements left of its bucket.
    pub(super) fn store(&mut self, key: u64, placements: u32, update: impl FnOnce(&mut Known)) {
        let b = self.bucket(key);
        let bucket = &mut self.words[b..b + 2 * BUCKET];
        let mut victim = 0;
        let mut victim_left = u64::MAX;
        for (i, slot) in bucket.chunks_exact(2).enumerate() {
            if slot[1] & USED == 0 {
                if victim_left > 0 {
                    (victim, victim_left) = (i, 0);
                }
                continue;
            }
            if slot[0] == key {
                let mut known = Known::unpack(slot[1]);
                update(&mut known);
                bucket[2 * i + 1] = known.pack(placements);
                return;
            }
            let left = slot[1] >> 48 & 0xff;
            if left + 1 < victim_left {
                (victim, victim_left) = (i, left + 1);
            }
        }
        if victim_left == 0 {
            self.used += 1;
        }
        let mut known = Known::NOTHING;
        update(&mut known);
        bucket[2 * victim] = key;
        bucket[2 * victim + 1] = known.pack(placements);
    }
}
