//! The unpacked blocks of every packed table of the process, kept for the next probe: up to a
//! number of bytes (`TablesCache`), spread over shards each behind its own lock (the search's
//! threads probe at once). A shard finds a block by a map, and gives up blocks in the order it
//! took them, but for those probed since they were last passed over (CLOCK: the "second
//! chance" order), so that a lookup and a replacement cost the same at any size.

use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// A block of one packed table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockKey {
    /// The table's number in this process (`new_table_id`).
    pub table: u32,
    /// The block.
    pub block: u32,
}

const SHARDS: usize = 64;
/// The bytes of blocks kept by default: 512 MiB (131,072 blocks of 4 KiB), taken only as blocks
/// are probed. With memory limited to 8 GB, a search probing the whole game's set from the late
/// placing ran 1.06 to 1.29 times faster with 1 GiB; in blocks of 16 KiB (format 1), 2.5 to 2.7
/// times slower with 64 MiB (docs/results.md, 2026-11-29).
pub const DEFAULT_BYTES: usize = 512 << 20;

/// A block kept, and whether it was probed since the ring last passed it.
struct Slot {
    bytes: Arc<[u8]>,
    probed: bool,
}

/// One shard: its blocks by key, the order they are passed over in, their bytes.
#[derive(Default)]
struct Shard {
    slots: FxHashMap<BlockKey, Slot>,
    ring: VecDeque<BlockKey>,
    held: usize,
}

impl Shard {
    /// Gives up blocks until `room` bytes are free under `budget` (or none is left): the next
    /// in the ring not probed since it was last passed over.
    fn make_room(&mut self, room: usize, budget: usize) {
        while self.held + room > budget {
            let Some(key) = self.ring.pop_front() else {
                return;
            };
            let Some(slot) = self.slots.get_mut(&key) else {
                continue;
            };
            if slot.probed {
                slot.probed = false;
                self.ring.push_back(key);
            } else if let Some(gone) = self.slots.remove(&key) {
                self.held -= gone.bytes.len();
            }
        }
    }
}

struct Cache {
    shards: Vec<Mutex<Shard>>,
    /// Bytes of blocks a shard keeps.
    per_shard: AtomicUsize,
}

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Cache {
        shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
        per_shard: AtomicUsize::new(DEFAULT_BYTES / SHARDS),
    })
}

/// A number for a table just opened, never given before in this process.
pub fn new_table_id() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn shard(key: BlockKey) -> &'static Mutex<Shard> {
    let h = crate::rng::mix(u64::from(key.table) << 32 | u64::from(key.block));
    &cache().shards[(h % SHARDS as u64) as usize]
}

fn lock(m: &Mutex<Shard>) -> std::sync::MutexGuard<'_, Shard> {
    // A thread that panicked holding a shard left it whole (its changes are made whole or not
    // at all before the lock is let go): the shard is sound.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Blocks each thread keeps of those it probed last, in front of the shared cache: a probe
/// that finds its block here takes no lock (a search probes the same few blocks again and
/// again: the successors of a derived position lie in one or two), at most 2 MiB a thread.
const RECENT: usize = 512;

/// A thread's blocks: each place holds the block last probed there.
type Recent = Vec<Option<(BlockKey, Arc<[u8]>)>>;

thread_local! {
    static LOCAL: std::cell::RefCell<Recent> = std::cell::RefCell::new(vec![None; RECENT]);
}

/// `read` of the bytes of block `key`: from the blocks this thread probed last, else from the
/// shared cache, else as `unpack` gives them (which keeps them in the shared cache); `None`
/// when `unpack` gives none.
#[inline]
pub fn with_block<R>(
    key: BlockKey,
    unpack: impl FnOnce() -> Option<Arc<[u8]>>,
    read: impl FnOnce(&[u8]) -> R,
) -> Option<R> {
    LOCAL.with(|local| {
        let mut local = local.borrow_mut();
        let place = (key.block as usize ^ (key.table as usize).wrapping_mul(0x9e37)) % RECENT;
        if let Some((held, bytes)) = &local[place] {
            if *held == key {
                return Some(read(bytes));
            }
        }
        let bytes = get(key).or_else(unpack)?;
        let out = read(&bytes);
        local[place] = Some((key, bytes));
        Some(out)
    })
}

/// The block `key`, if it is kept.
pub fn get(key: BlockKey) -> Option<Arc<[u8]>> {
    let mut s = lock(shard(key));
    let slot = s.slots.get_mut(&key)?;
    slot.probed = true;
    Some(slot.bytes.clone())
}

/// Keeps `bytes` as the block `key` (giving up others when the shard is full, at least the new
/// one kept); the block.
pub fn put(key: BlockKey, bytes: Arc<[u8]>) -> Arc<[u8]> {
    let budget = cache().per_shard.load(Ordering::Relaxed);
    let mut s = lock(shard(key));
    if let Some(slot) = s.slots.get_mut(&key) {
        slot.probed = true;
        return slot.bytes.clone();
    }
    s.make_room(bytes.len(), budget);
    s.held += bytes.len();
    s.ring.push_back(key);
    s.slots.insert(
        key,
        Slot {
            bytes: bytes.clone(),
            probed: false,
        },
    );
    bytes
}

/// Keeps at most `bytes` bytes of blocks from now on (at least one block a shard).
pub fn set_capacity_bytes(bytes: usize) {
    let per = bytes / SHARDS;
    cache().per_shard.store(per, Ordering::Relaxed);
    for m in &cache().shards {
        lock(m).make_room(0, per);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_block_is_found_and_a_full_shard_gives_up_its_oldest() {
        let table = new_table_id();
        let key = |block| BlockKey { table, block };
        assert!(get(key(0)).is_none());
        put(key(0), vec![7u8; 4].into());
        assert_eq!(&*get(key(0)).unwrap(), &[7, 7, 7, 7]);
        // Far more bytes than the cache keeps: the first is given up, the last kept. (A
        // smaller cache for this test; other tests probing sets meanwhile only go slower.)
        let capacity = 64 << 20;
        set_capacity_bytes(capacity);
        let blocks = (capacity / (1 << 14)) as u32 * 4;
        for b in 1..blocks {
            put(key(b), vec![b as u8; 1 << 14].into());
        }
        let last = blocks - 1;
        assert_eq!(get(key(last)).unwrap()[0], last as u8);
        assert!(get(key(0)).is_none(), "the oldest given up");
    }
}
