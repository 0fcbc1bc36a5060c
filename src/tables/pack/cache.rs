//! The unpacked blocks of every packed table of the process, kept for the next probe: a fixed
//! number of blocks, spread over shards each behind its own lock (the search's threads probe
//! at once), the block unused the longest given up in a full shard.

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
/// The blocks kept by default: 4,096, 64 MiB of blocks of 16 KiB.
pub const DEFAULT_BLOCKS: usize = 4096;

struct Slot {
    key: BlockKey,
    bytes: Arc<[u8]>,
    used: u64,
}

struct Cache {
    shards: Vec<Mutex<Vec<Slot>>>,
    /// Blocks a shard keeps.
    per_shard: AtomicUsize,
    clock: AtomicU64,
    hits: AtomicU64,
    misses: AtomicU64,
}

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Cache {
        shards: (0..SHARDS).map(|_| Mutex::new(Vec::new())).collect(),
        per_shard: AtomicUsize::new(DEFAULT_BLOCKS / SHARDS),
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

/// Keeps `bytes` as the block `key` (giving up the shard's block unused the longest when it is
/// full); the block.
pub fn put(key: BlockKey, bytes: Arc<[u8]>) -> Arc<[u8]> {
    let c = cache();
    let now = c.clock.fetch_add(1, Ordering::Relaxed);
    let room = c.per_shard.load(Ordering::Relaxed).max(1);
    let mut s = lock(shard(key));
    if let Some(slot) = s.iter_mut().find(|slot| slot.key == key) {
        slot.used = now;
        return slot.bytes.clone();
    }
    while s.len() >= room {
        let oldest = (0..s.len())
            .min_by_key(|&i| s[i].used)
            .expect("a full shard");
        s.swap_remove(oldest);
    }
    s.push(Slot {
        key,
        bytes: bytes.clone(),
        used: now,
    });
    bytes
}

/// Keeps at most `blocks` blocks from now on (at least one a shard).
pub fn set_capacity(blocks: usize) {
    let per = (blocks / SHARDS).max(1);
    cache().per_shard.store(per, Ordering::Relaxed);
    for m in &cache().shards {
        let mut s = lock(m);
        while s.len() > per {
            let oldest = (0..s.len())
                .min_by_key(|&i| s[i].used)
                .expect("a full shard");
            s.swap_remove(oldest);
        }
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
        // Far more blocks than the cache keeps: the first is given up, the last kept.
        for b in 1..(DEFAULT_BLOCKS as u32 * 8) {
            put(key(b), vec![b as u8].into());
        }
        let last = DEFAULT_BLOCKS as u32 * 8 - 1;
        assert_eq!(&*get(key(last)).unwrap(), &[last as u8]);
        assert!(get(key(0)).is_none(), "the oldest given up");
    }
}
