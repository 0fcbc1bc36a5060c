//! The unpacked blocks of the packed tables of one owner (the loaded `Tables` they belong to),
//! kept for the next probe: up to a number of bytes (`TablesCache`), in frames of one block
//! each, without a lock on the way of a probe. The owner hands its cache to each packed table it
//! opens; the cache's memory goes with the last of them.
//!
//! A search probes the tables at almost every node, so a probe that finds its block kept must
//! cost no more than a read of a built table from the page cache: one word of the table's map
//! (its block's frame), the frame's tag, then the value. Frames of one block size form a pool:
//! one array of bytes (in huge pages where the system allows, `crate::memory`), a tag a frame
//! naming the block it holds, and a bit a frame saying it was probed since the pool's hand last
//! passed it (CLOCK, the "second chance" order: a block is given up when the hand finds it not
//! probed since its last pass).
//!
//! A frame is read as a sequence lock is: its count of fills (odd while it is filled) and its
//! tag read before the value and again after; if either changed, the frame was filled again
//! meanwhile (perhaps with the same block after another: the count tells), and the value is not
//! trusted. So a reader never takes a lock and never sees another block's value: a probe finds
//! its value or a miss, and a miss unpacks the block. A frame is filled by the thread that
//! claims it: the tag set to "busy" (by compare-and-swap), the count made odd, the bytes
//! written, the count made even, the tag set to the block's.

use crate::memory::Words;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The bytes of blocks kept by default: a quarter of the memory the process may use
/// (`memory::memory_limit`), at least 256 MiB and at most 4 GiB (512 MiB where the memory is not
/// known), and no more than the share of its address space left that one cache may take
/// (`memory::within_limits`: under `ulimit -v`), taken only as blocks are probed. With memory
/// limited to 8 GB, a search probing the whole game's set from the late placing ran 1.1 to 1.4
/// times faster with 2 GiB than with 512 MiB, and faster than the built tables with the page
/// cache to themselves (docs/results.md, 2026-11-29).
pub fn default_bytes() -> usize {
    static DEFAULT: OnceLock<usize> = OnceLock::new();
    let by_memory = *DEFAULT.get_or_init(|| {
        crate::memory::memory_limit().map_or(512 << 20, |m| {
            usize::try_from(m / 4)
                .unwrap_or(usize::MAX)
                .clamp(256 << 20, 4 << 30)
        })
    });
    crate::memory::within_limits(by_memory)
}

/// The largest cache a pool reserves room for (`TablesCache`'s largest, 64 GiB): reserved, not
/// taken (`Words::reserved`), where the address space is not limited.
const MOST_BYTES: usize = 64 << 30;

/// A frame's tag while it is filled.
const BUSY: u64 = u64::MAX;
/// A frame's tag once the cache shrank past it.
const RETIRED: u64 = u64::MAX - 1;

/// The block sizes a pool exists for: 4 KiB (`MIN_BLOCK`) to 1 MiB (`MAX_BLOCK`).
const SHIFTS: std::ops::RangeInclusive<u32> = 12..=20;

/// The frames of one block size.
pub struct Pool {
    /// The frame's size: `1 << shift` bytes.
    shift: u32,
    /// The bytes of the frames, `1 << (shift - 3)` words a frame.
    data: Words,
    /// Each frame's head, `HEAD` words side by side (one cache line holds two heads): its tag
    /// (`TAG`: 0 nothing, `BUSY`, `RETIRED`, else a block's, `tag`), its count of fills
    /// (`FILLS`: odd while it is filled) and whether it was probed since the hand last passed
    /// it (`PROBED`).
    heads: Words,
    /// The frames reserved.
    reserved: usize,
    /// The frames in use: the first `active` of those reserved.
    active: AtomicUsize,
    /// The next frame the hand looks at (taken modulo `active`).
    hand: AtomicUsize,
    /// Held while the pool shrinks or grows.
    resizing: Mutex<()>,
}

/// Words of a frame's head, and the place of each in it.
const HEAD: usize = 4;
const TAG: usize = 0;
const FILLS: usize = 1;
const PROBED: usize = 2;

/// The tag of block `block` of table `table`: never 0, `BUSY` or `RETIRED` (`table` is below
/// `u32::MAX`: `BlockCache::new_table_id`).
#[inline]
pub fn tag(table: u32, block: u32) -> u64 {
    (u64::from(table) + 1) << 32 | u64::from(block)
}

/// The unpacked blocks of one owner's packed tables: a pool a block size, made when a block of
/// that size is first probed, each keeping at most the owner's budget.
pub struct BlockCache {
    /// The bytes each pool may keep; 0 until set: `default_bytes`.
    capacity: AtomicUsize,
    /// The pools, one a block size (`SHIFTS`).
    pools: [OnceLock<Pool>; 9],
    /// The number of the next table opened with this cache.
    next_table: AtomicU32,
}

impl Default for BlockCache {
    fn default() -> BlockCache {
        BlockCache {
            capacity: AtomicUsize::new(0),
            pools: [const { OnceLock::new() }; 9],
            next_table: AtomicU32::new(0),
        }
    }
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockCache({} bytes a pool)", self.capacity())
    }
}

impl BlockCache {
    /// The bytes each pool may keep.
    fn capacity(&self) -> usize {
        match self.capacity.load(Ordering::Relaxed) {
            0 => default_bytes(),
            bytes => bytes,
        }
    }

    /// A number for a table just opened with this cache, never given before by it (4 billion
    /// numbers: then tables share the last number, and each other's blocks are read as misses
    /// or, where tags meet, as theirs, so the numbers stop short of that: the last ones opened
    /// are never cached).
    pub fn new_table_id(&self) -> u32 {
        self.next_table
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < u32::MAX - 1).then_some(n + 1)
            })
            .unwrap_or(u32::MAX - 1)
    }

    /// The pool of frames of `block` bytes (a power of two, 4 KiB to 1 MiB). A pool of another
    /// size (a table read again in another block size) gives its memory back when this one is
    /// made: it keeps one frame.
    #[inline]
    pub fn pool(&self, block: usize) -> &Pool {
        let shift = block.trailing_zeros().clamp(*SHIFTS.start(), *SHIFTS.end());
        self.pools[(shift - SHIFTS.start()) as usize].get_or_init(|| {
            for other in self.pools.iter().filter_map(OnceLock::get) {
                other.resize(0);
            }
            Pool::new(shift, crate::memory::within_limits(self.capacity()))
        })
    }

    /// Keeps at most `bytes` bytes of blocks of each size from now on (at least one block): a
    /// set has one block size, so this is its cache. The bytes each pool will keep at most:
    /// fewer than `bytes` where they do not fit in the memory the process may use
    /// (`memory::within_memory`), in the room a pool reserved, or (no pool made yet) in the
    /// address space left (`memory::within_limits`).
    pub fn set_capacity_bytes(&self, bytes: usize) -> usize {
        let bytes = bytes.max(1);
        self.capacity.store(bytes, Ordering::Relaxed);
        let mut kept = None;
        for pool in self.pools.iter().filter_map(OnceLock::get) {
            let frames = pool.resize(crate::memory::within_memory(bytes));
            let pool_bytes = frames << pool.shift;
            kept = Some(kept.map_or(pool_bytes, |k: usize| k.min(pool_bytes)));
        }
        kept.unwrap_or_else(|| fits(bytes))
    }
}

/// The bytes of blocks a cache asked to keep `bytes` would keep before any block is probed:
/// what fits in the address space left (`memory::within_limits`).
pub fn fits(bytes: usize) -> usize {
    crate::memory::within_limits(bytes.max(1))
}

impl Pool {
    /// The pool of frames of `1 << shift` bytes, as many as `bytes` holds (what the capacity
    /// asks and fits: `memory::within_limits`), fewer where the memory is refused, none where not
    /// even one frame can be had (every probe then unpacks its block).
    fn new(shift: u32, bytes: usize) -> Pool {
        let wanted = frames_for(bytes, shift);
        let words = 1usize << (shift - 3);
        // Room for the largest cache where memory can be reserved without being taken and
        // the address space is not limited; elsewhere, the frames of the size asked now (a
        // larger size later keeps to these), or as many as can be had.
        let most = frames_for(MOST_BYTES, shift);
        let unlimited = crate::memory::room_left().is_none();
        let most_reserved = unlimited
            .then(|| {
                Some((
                    Words::reserved(most * words)?,
                    Words::reserved(most * HEAD)?,
                ))
            })
            .flatten();
        let (data, heads, reserved) = if let Some((data, heads)) = most_reserved {
            (data, heads, most)
        } else {
            let make = |len: usize| Words::reserved(len).or_else(|| Words::zeroed(len));
            let data = Words::at_most(wanted * words, words, make);
            let frames = data.len() / words;
            let heads = Words::at_most(frames * HEAD, HEAD, make);
            let frames = heads.len() / HEAD;
            if frames < wanted {
                log::warn!(
                    "the cache of blocks of {} bytes keeps {frames} of the {wanted} asked for: \
                     the memory was refused",
                    1usize << shift
                );
            }
            (data, heads, frames)
        };
        Pool {
            shift,
            data,
            heads,
            reserved,
            active: AtomicUsize::new(wanted.min(reserved)),
            hand: AtomicUsize::new(0),
            resizing: Mutex::new(()),
        }
    }

    /// The head of frame `frame`.
    #[inline]
    fn head(&self, frame: usize) -> &[AtomicU64] {
        &self.heads[frame * HEAD..(frame + 1) * HEAD]
    }

    /// The two bytes at `at` and `at + 1` of the block tagged `tag` (`at` even: they lie in
    /// one word), if frame `frame` holds it (read as a sequence lock: `None` if the frame was
    /// filled meanwhile).
    #[inline]
    pub fn read(&self, frame: usize, tag: u64, at: usize) -> Option<[u8; 2]> {
        if frame >= self.reserved {
            return None;
        }
        let head = self.head(frame);
        let fills = head[FILLS].load(Ordering::Acquire);
        if fills % 2 == 1 || head[TAG].load(Ordering::Acquire) != tag {
            return None;
        }
        let word = self.data[(frame << (self.shift - 3)) + at / 8].load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        if head[FILLS].load(Ordering::Relaxed) != fills || head[TAG].load(Ordering::Relaxed) != tag
        {
            return None;
        }
        if head[PROBED].load(Ordering::Relaxed) == 0 {
            head[PROBED].store(1, Ordering::Relaxed);
        }
        let b = word.to_le_bytes();
        let i = at % 8;
        Some([b[i], b[i + 1]])
    }

    /// Keeps `bytes` (at most a frame's) as the block tagged `tag`: the frame that holds it,
    /// or `None` when none could be claimed (the cache is being resized, or every frame is
    /// being filled).
    pub fn put(&self, tag: u64, bytes: &[u8]) -> Option<usize> {
        let active = self.active.load(Ordering::Relaxed);
        if active == 0 || bytes.len() > 1 << self.shift {
            return None;
        }
        let frame = self.claim(active)?;
        let head = self.head(frame);
        head[FILLS].fetch_add(1, Ordering::Relaxed);
        // The frame's bytes are written only after every reader can see its count odd.
        fence(Ordering::Release);
        let words = &self.data[frame << (self.shift - 3)..(frame + 1) << (self.shift - 3)];
        for (w, chunk) in words.iter().zip(bytes.chunks(8)) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            w.store(u64::from_le_bytes(b), Ordering::Relaxed);
        }
        head[FILLS].fetch_add(1, Ordering::Release);
        head[PROBED].store(0, Ordering::Relaxed);
        // A frame being filled is never retired (`resize` waits for it).
        head[TAG].store(tag, Ordering::Release);
        Some(frame)
    }

    /// A frame among the first `active` and not retired (`active` may be older than a shrink),
    /// tagged `BUSY` by this thread: the first the hand finds not probed since it last passed
    /// (clearing the mark of those it passes).
    fn claim(&self, active: usize) -> Option<usize> {
        for _ in 0..2 * active + 64 {
            let h = self.hand.fetch_add(1, Ordering::Relaxed) % active;
            let head = self.head(h);
            if head[PROBED].load(Ordering::Relaxed) != 0 {
                head[PROBED].store(0, Ordering::Relaxed);
                continue;
            }
            let t = head[TAG].load(Ordering::Relaxed);
            if t == BUSY || t == RETIRED {
                continue;
            }
            if head[TAG]
                .compare_exchange(t, BUSY, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return Some(h);
            }
        }
        None
    }

    /// Keeps at most `bytes` bytes from now on (at least one frame, none where none could be
    /// reserved): frames given up are retired (once their filling ends) and their memory given
    /// back. The frames in use from now on.
    fn resize(&self, bytes: usize) -> usize {
        let _held = self
            .resizing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let new = frames_for(bytes, self.shift).min(self.reserved);
        let old = self.active.swap(new, Ordering::Relaxed);
        if new >= old {
            // Frames retired by a shrink before serve again.
            for frame in old..new {
                let _ = self.head(frame)[TAG].compare_exchange(
                    RETIRED,
                    0,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
            return new;
        }
        for frame in new..old {
            let t = &self.head(frame)[TAG];
            loop {
                let now = t.load(Ordering::Acquire);
                if now == BUSY {
                    std::thread::yield_now();
                    continue;
                }
                if t.compare_exchange(now, RETIRED, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
                {
                    break;
                }
            }
        }
        // Every reader of a retired frame finds its tag changed before its bytes are gone.
        fence(Ordering::Release);
        let words = 1usize << (self.shift - 3);
        self.data.discard(new * words, old * words);
        new
    }

    /// The frames in use.
    #[cfg(test)]
    fn active(&self) -> usize {
        self.active.load(Ordering::Relaxed)
    }
}

/// The frames of `1 << shift` bytes that `bytes` bytes hold (at least one).
fn frames_for(bytes: usize, shift: u32) -> usize {
    (bytes >> shift).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a test block: each names the block and its place.
    fn block_bytes(tag: u64, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| crate::rng::mix(tag ^ (i as u64) << 40) as u8)
            .collect()
    }

    #[test]
    fn a_kept_block_is_read_back_and_another_tag_misses() {
        let pool = Pool::new(12, default_bytes());
        let t = tag(BlockCache::default().new_table_id(), 5);
        let bytes = block_bytes(t, 4096);
        let frame = pool.put(t, &bytes).expect("a frame");
        for at in (0..4096).step_by(2) {
            assert_eq!(pool.read(frame, t, at), Some([bytes[at], bytes[at + 1]]));
        }
        assert_eq!(pool.read(frame, t + 1, 0), None);
        assert_eq!(pool.read(pool.reserved, t, 0), None);
        // A shorter last block reads zeros past its end.
        let short = [9u8; 10];
        let f = pool.put(t + 2, &short).expect("a frame");
        assert_eq!(pool.read(f, t + 2, 8), Some([9, 9]));
        assert_eq!(pool.read(f, t + 2, 10), Some([0, 0]));
    }

    #[test]
    fn a_shrunk_pool_forgets_its_frames_and_keeps_no_more_than_asked() {
        let pool = Pool::new(12, default_bytes());
        pool.resize(16 << 12);
        let table = BlockCache::default().new_table_id();
        // Blocks `blocks` of the table kept: each block's tag and frame.
        let fill = |blocks: std::ops::Range<u32>| -> Vec<(u64, usize)> {
            blocks
                .map(|b| {
                    let t = tag(table, b);
                    (t, pool.put(t, &block_bytes(t, 4096)).expect("a frame"))
                })
                .collect()
        };
        let kept = fill(0..16);
        assert!(kept.iter().all(|&(_, f)| f < 16));
        pool.resize(4 << 12);
        assert_eq!(pool.active(), 4);
        for &(t, f) in &kept {
            let read = pool.read(f, t, 0);
            assert!(read.is_none() || f < 4, "frame {f} retired");
        }
        // More blocks than frames: the oldest not probed are given up, the last is kept.
        let many = fill(100..140);
        assert!(many.iter().all(|&(_, f)| f < 4));
        let &(t, f) = many.last().expect("blocks");
        assert_eq!(
            pool.read(f, t, 0),
            Some([block_bytes(t, 2)[0], block_bytes(t, 2)[1]])
        );
        assert_eq!(
            many.iter()
                .filter(|&&(t, f)| pool.read(f, t, 0).is_some())
                .count(),
            4
        );
    }

    #[test]
    fn a_frame_counts_its_fills_and_a_stale_size_never_claims_a_retired_frame() {
        let pool = Pool::new(12, default_bytes());
        pool.resize(8 << 12);
        let table = BlockCache::default().new_table_id();
        let (a, b) = (tag(table, 1), tag(table, 2));
        let f = pool.put(a, &block_bytes(a, 4096)).expect("a frame");
        let fills = pool.head(f)[FILLS].load(Ordering::Relaxed);
        assert_eq!(fills % 2, 0, "even once filled");
        // The same frame filled again with another block and then the first: the count tells
        // a reader that began before it (its tag alone would not).
        for t in [b, a] {
            pool.hand.store(f, Ordering::Relaxed);
            assert_eq!(pool.put(t, &block_bytes(t, 4096)), Some(f));
        }
        assert_eq!(pool.head(f)[FILLS].load(Ordering::Relaxed), fills + 4);
        // A filler that read the size before a shrink claims none of the retired frames.
        pool.resize(2 << 12);
        for _ in 0..20 {
            let h = pool.claim(8).expect("a frame");
            assert!(h < 2, "frame {h} is retired");
            pool.head(h)[TAG].store(0, Ordering::Relaxed);
        }
        // Grown again, the retired frames serve again.
        pool.resize(8 << 12);
        let frames: Vec<usize> = (10..30)
            .map(|b| pool.put(tag(table, b), &[1; 8]).expect("a frame"))
            .collect();
        assert!(frames.iter().any(|&f| f >= 2));
    }

    #[test]
    fn readers_racing_with_fillers_see_their_block_or_a_miss() {
        // A few frames, many blocks, threads filling and reading at once: every value read
        // must be its block's.
        let pool = Pool::new(12, default_bytes());
        pool.resize(3 << 12);
        let table = BlockCache::default().new_table_id();
        let map: Vec<AtomicU64> = (0..64).map(|_| AtomicU64::new(0)).collect();
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let (pool, map) = (&pool, &map);
                s.spawn(move || {
                    let mut rng = crate::rng::Rng::new(thread);
                    let (mut hits, mut misses) = (0, 0);
                    for _ in 0..20_000 {
                        let b = (rng.next_u64() % 64) as u32;
                        let t = tag(table, b);
                        let at = (rng.next_u64() % 2048) as usize * 2;
                        let frame = map[b as usize].load(Ordering::Relaxed);
                        if let Some(v) = frame
                            .checked_sub(1)
                            .and_then(|f| pool.read(f as usize, t, at))
                        {
                            let bytes = block_bytes(t, 4096);
                            assert_eq!(v, [bytes[at], bytes[at + 1]], "block {b} at {at}");
                            hits += 1;
                        } else {
                            misses += 1;
                            if let Some(f) = pool.put(t, &block_bytes(t, 4096)) {
                                map[b as usize].store(f as u64 + 1, Ordering::Relaxed);
                            }
                        }
                    }
                    assert!(hits > 0 && misses > 0, "{hits} hits, {misses} misses");
                });
            }
        });
    }
}
