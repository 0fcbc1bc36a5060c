//! The transposition table: one table shared by every search thread, lock-free. Each slot is two
//! `AtomicU64` words, the key XOR the data and the data, so a slot torn by two threads writing at
//! once reads as a miss (Hyatt and Mann, "A lock-less transposition table implementation for
//! parallel search chess engines", 2002).

use crate::memory::Words;
use crate::rules::moves::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at least the stored one (a beta cut-off).
    Lower = 1,
    /// The true score is at most the stored one (no move raised alpha).
    Upper = 2,
    /// The true score is the stored one.
    Exact = 3,
}

/// What a slot holds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best move found (`Move::NULL` when none).
    pub mv: Move,
    /// The score, wins and losses counted from the position (`score::to_table`).
    pub score: i32,
    /// The depth searched.
    pub depth: i32,
    /// How the score bounds the true one.
    pub bound: Bound,
}

const MOVE_MASK: u64 = (1 << 25) - 1;
const SCORE_SHIFT: u32 = 25;
const DEPTH_SHIFT: u32 = 41;
const BOUND_SHIFT: u32 = 48;
const GEN_SHIFT: u32 = 50;

/// A slot's two words.
struct Slot<'a> {
    check: &'a AtomicU64,
    data: &'a AtomicU64,
}

/// The bytes of a slot.
const SLOT_BYTES: usize = 16;

/// The shared table. Data layout of a slot's data word:
///
/// ```text
///  bits  0..25  move bits (see `Move`)
///  bits 25..41  score (i16)
///  bits 41..48  depth (0..127)
///  bits 48..50  bound
///  bits 50..53  generation (0..7)
/// ```
pub struct TranspositionTable {
    /// Two words a slot: its check, then its data.
    words: Words,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// The largest table, in megabytes.
    pub const MAX_MB: usize = 65536;

    /// A table of about `mb` megabytes (1 to `MAX_MB`), or less: no more than the share of the
    /// memory and address space left that one table may take (`memory::within_limits`), and
    /// halved until the memory is given (`bytes` says what it has). Its pages are taken as they
    /// are first written.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = crate::memory::within_limits(mb.clamp(1, Self::MAX_MB) << 20);
        let slots = (bytes / SLOT_BYTES).max(1);
        let mut words = Words::at_most(slots, 1, |n| Words::zeroed(2 * n));
        if words.is_empty() {
            // Sixteen bytes refused: nothing would run on.
            words = Words::zeroed(2).expect("memory for one slot");
        }
        let table = TranspositionTable {
            words,
            generation: AtomicU64::new(0),
        };
        if table.bytes() >> 20 < mb.clamp(1, Self::MAX_MB) {
            log::warn!(
                "a hash table of {mb} MB does not fit in the memory this process may use: it \
                 has {} MB",
                table.bytes() >> 20
            );
        }
        table
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 7
    }

    #[inline]
    fn slot(&self, key: u64) -> Slot<'_> {
        // Multiply-shift maps the key onto the table without a division.
        let i = ((u128::from(key) * self.slots() as u128) >> 64) as usize;
        let s = &self.words[2 * i..2 * i + 2];
        Slot {
            check: &s[0],
            data: &s[1],
        }
    }

    /// The slots.
    #[inline]
    fn slots(&self) -> usize {
        self.words.len() / 2
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match data >> BOUND_SHIFT & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_bits((data & MOVE_MASK) as u32).unwrap_or(Move::NULL),
            score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
            depth: (data >> DEPTH_SHIFT & 127) as i32,
            bound,
        })
    }

    /// Stores an entry, replacing the slot's entry unless that one is from this search, for
    /// another position, and deeper.
    #[inline]
    pub fn store(&self, key: u64, e: Entry) {
        let s = self.slot(key);
        let old = s.data.load(Ordering::Relaxed);
        let old_key = s.check.load(Ordering::Relaxed) ^ old;
        let gen = self.generation();
        if old != 0
            && old_key != key
            && old >> GEN_SHIFT == gen
            && (old >> DEPTH_SHIFT & 127) as i32 > e.depth
        {
            return;
        }
        // Keep the old move when the new entry has none for the same position.
        let mv = if e.mv.is_null() && old_key == key && old != 0 {
            old & MOVE_MASK
        } else {
            u64::from(e.mv.bits())
        };
        let data = mv
            | u64::from(e.score.clamp(-32000, 32000) as i16 as u16) << SCORE_SHIFT
            | (e.depth.clamp(0, 127) as u64) << DEPTH_SHIFT
            | (e.bound as u64) << BOUND_SHIFT
            | gen << GEN_SHIFT;
        s.check.store(key ^ data, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation();
        let n = self.slots().min(1000);
        let used = self.words[..2 * n]
            .chunks_exact(2)
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && d >> GEN_SHIFT == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots() * SLOT_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Point;

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        let mv = Move::place(Point::new(3).unwrap()).with_removal(Point::new(9).unwrap());
        let e = Entry {
            mv,
            score: -1234,
            depth: 9,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_1234_5678, e);
        let got = tt.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!(
            (got.mv, got.score, got.depth, got.bound),
            (mv, -1234, 9, Bound::Lower)
        );
        assert!(tt.probe(0x1234).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
    }
}
