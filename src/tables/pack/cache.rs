//! The unpacked blocks of every packed table of the process, kept for the next probe: up to a
//! number of bytes (`TablesCache`), spread over shards each behind its own lock (the search's
//! threads probe at once), the block unused the longest given up in a full shard.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
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
/// The bytes of blocks kept by default: 64 MiB (4,096 blocks of 16 KiB).
pub const DEFAULT_BYTES: usize = 64 << 20;

struct Slot {
    key: BlockKey,
    bytes: Arc<[u8]>,
    used: u64,
}

struct Cache {
    shards: Vec<Mutex<Vec<Slot>>>,
    /// Bytes of blocks a shard keeps.
    per_shard: AtomicUsize,
    clock: AtomicU64,
    hits: AtomicU64,
    misses: AtomicU64,
}

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Cache {
        shards: (0..SHARDS).map(|_| Mutex::new(Vec::new())).collect(),
        per_shard: AtomicUsize::new(DEFAULT_BYTES / SHARDS),
        clock: AtomicU64::new(0),
        hits: AtomicU64::new(0),
        misses: AtomicU64::new(0),
    })
}

/// A number for a table just opened, never given before in this process.
pub fn new_table_id() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn shard(key: BlockKey) -> &'static Mutex<Vec<Slot>> {
    let h = crate::rng::mix(u64::from(key.table) << 32 | u64::from(key.block));
    &cache().shards[(h % SHARDS as u64) as usize]
}

fn lock(m: &Mutex<Vec<Slot>>) -> std::sync::MutexGuard<'_, Vec<Slot>> {
    // A thread that panicked holding a shard left whole blocks or none: the shard is sound.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The block `key`, if it is kept.
pub fn get(key: BlockKey) -> Option<Arc<[u8]>> {
    let c = cache();
    let now = c.clock.fetch_add(1, Ordering::Relaxed);
    let mut s = lock(shard(key));
    if let Some(slot) = s.iter_mut().find(|slot| slot.key == key) {
        slot.used = now;
        c.hits.fetch_add(1, Ordering::Relaxed);
        return Some(slot.bytes.clone());
    }
    c.misses.fetch_add(1, Ordering::Relaxed);
    None
}

/// Gives up the shard's blocks unused the longest until `room` bytes are free under `budget`
/// (or the shard is empty).
fn make_room(s: &mut Vec<Slot>, room: usize, budget: usize) {
    let mut held: usize = s.iter().map(|slot| slot.bytes.len()).sum();
    while !s.is_empty() && held + room > budget {
        let oldest = (0..s.len())
            .min_by_key(|&i| s[i].used)
            .expect("a shard with blocks");
        held -= s.swap_remove(oldest).bytes.len();
    }
}

/// Keeps `bytes` as the block `key` (giving up the shard's blocks unused the longest when it is
/// full); the block.
pub fn put(key: BlockKey, bytes: Arc<[u8]>) -> Arc<[u8]> {
    let c = cache();
    let now = c.clock.fetch_add(1, Ordering::Relaxed);
    let budget = c.per_shard.load(Ordering::Relaxed);
    let mut s = lock(shard(key));
    if let Some(slot) = s.iter_mut().find(|slot| slot.key == key) {
        slot.used = now;
        return slot.bytes.clone();
    }
    make_room(&mut s, bytes.len(), budget);
    s.push(Slot {
        key,
        bytes: bytes.clone(),
        used: now,
    });
    bytes
}

/// Keeps at most `bytes` bytes of blocks from now on (at least one block a shard).
pub fn set_capacity_bytes(bytes: usize) {
    let per = bytes / SHARDS;
    cache().per_shard.store(per, Ordering::Relaxed);
    for m in &cache().shards {
        make_room(&mut lock(m), 0, per);
    }
}

/// The probes answered from the cache and those that unpacked a block, since the start.
pub fn hits_and_misses() -> (u64, u64) {
    let c = cache();
    (
        c.hits.load(Ordering::Relaxed),
        c.misses.load(Ordering::Relaxed),
    )
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
        // Far more bytes than the cache keeps: the first is given up, the last kept.
        let blocks = (DEFAULT_BYTES / (1 << 14)) as u32 * 4;
        for b in 1..blocks {
            put(key(b), vec![b as u8; 1 << 14].into());
        }
        let last = blocks - 1;
        assert_eq!(get(key(last)).unwrap()[0], last as u8);
        assert!(get(key(0)).is_none(), "the oldest given up");
    }
}
