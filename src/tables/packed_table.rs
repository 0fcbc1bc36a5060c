//! One packed table: the values of a moving table (its `.tbl` file's bytes) or of a placing
//! group (its `.plc` file's), cut into blocks (of [`DEFAULT_BLOCK`] bytes unless the packer
//! says otherwise: a power of two from [`MIN_BLOCK`] to [`MAX_BLOCK`]), each a zstd frame with the
//! checksum of its bytes; probed a block at a time, through the cache of unpacked blocks of the
//! tables it belongs to ([`BlockCache`]).
//!
//! **The file** (little-endian): a header of [`HEADER`] bytes (the magic `MOULPACK`, the
//! format's version, the kind and key of the table, the rules' fingerprint, the width of a
//! value, the block size, the length of the values, the longest distance or the slots, the
//! checksum of the values as their table file has it, and a checksum of the header and the
//! index), the index (each block's offset and the checksum of its unpacked bytes,
//! [`block_checksum`]), then the frames. The checksum of the values is the table file's own
//! (`tables::checksum::checksum`), so a packed table is checked against the file it was made from
//! without unpacking that file. The magic, version, fingerprint and closing checksum are the
//! shared header's (`shipped::header`, `LAYOUT`).

use super::block_cache::{self as cache, BlockCache};
use super::frame;
use crate::durable;
use crate::memory::Words;
use crate::shipped::le_bytes::{put_u32, put_u64, u32_at, u64_at};
use crate::shipped::Layout;
use crate::tables::checksum::checksum;
use crate::tables::mapped::{open_regular, Mapping};
use crate::tables::packed_flaw::{BlockFault, PackedFlaw};
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The bytes of values a block holds by default (the last block of a table may hold fewer): a
/// probe unpacks one block, so a smaller one is a cheaper probe and a larger one packs tighter.
/// 4 KiB, the page the system caches a built table's file by: unpacked in about 7 µs (21 µs at
/// 16 KiB) for 7 to 44% more bytes than 16 KiB on the tables measured, 21% on the moving tables
/// packed (docs/results.md, 2026-11-29), and a cache of unpacked blocks then keeps the very
/// positions a search probes as the page cache does for the build.
pub const DEFAULT_BLOCK: usize = 1 << 12;
/// The smallest block a packed table may have.
pub const MIN_BLOCK: usize = 1 << 12;
/// The largest block a packed table may have.
pub const MAX_BLOCK: usize = 1 << 20;
/// The header's bytes.
pub const HEADER: usize = LAYOUT.len;
/// The format's version: 2 since a block's checksum is [`block_checksum`] (version 1 checked
/// blocks with the slower `tables::checksum::checksum`).
pub const VERSION: u32 = 2;
/// A packed table's header: the checksum that closes it covers it and the index.
static LAYOUT: Layout = Layout {
    what: "a moulin packed table",
    magic: *b"MOULPACK",
    version: Some(VERSION),
    fingerprint_at: 16,
    checksum_at: Some(56),
    covers: "its header and index",
    len: 64,
};

/// What a packed table says of its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    /// The table.
    pub key: Key,
    /// The rules' fingerprint its values were made under.
    pub fingerprint: u64,
    /// Bytes a value: 1 or 2 for a moving table, 0 for a placing group (four values a byte).
    pub width: u8,
    /// The bytes of values.
    pub len: u64,
    /// A moving table's longest distance; a placing group's slots.
    pub extra: u64,
    /// The checksum of the values (`tables::checksum::checksum`), as their table file has it.
    pub checksum: u64,
}

/// The header of a packed table of `meta` in blocks of `block` bytes, but its closing checksum.
fn header(meta: &Meta, block: usize) -> Vec<u8> {
    let mut h = LAYOUT.blank(meta.fingerprint);
    h[12..16].copy_from_slice(&meta.key.bytes());
    h[24] = meta.width;
    put_u32(&mut h, 28, block as u32);
    put_u64(&mut h, 32, meta.len);
    put_u64(&mut h, 40, meta.extra);
    put_u64(&mut h, 48, meta.checksum);
    h
}

/// The checksum of a block's unpacked bytes, checked at each unpacking: four words mixed side
/// by side (`rng::mix`, as `tables::checksum::checksum` mixes one word after another, four times
/// slower), the lanes and the length mixed at the end; a tail of fewer than 32 bytes is padded
/// with zeros.
pub fn block_checksum(bytes: &[u8]) -> u64 {
    let mut lanes = [0u64, 1, 2, 3];
    let mut mix_in = |chunk: &[u8]| {
        for (lane, word) in lanes.iter_mut().zip(chunk.chunks_exact(8)) {
            *lane = crate::rng::mix(*lane ^ u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
    };
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        mix_in(chunk);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut tail = [0u8; 32];
        tail[..rest.len()].copy_from_slice(rest);
        mix_in(&tail);
    }
    let folded =
        lanes[0] ^ lanes[1].rotate_left(16) ^ lanes[2].rotate_left(32) ^ lanes[3].rotate_left(48);
    crate::rng::mix(folded ^ bytes.len() as u64)
}

/// The checksum that closes the header: of its first 56 bytes and the index.
fn closing_checksum(head: &[u8], index: &[u8]) -> u64 {
    crate::rng::mix(checksum(&head[..56]) ^ checksum(index).rotate_left(23))
}

/// Packs `values` (a table file's bytes of values) into the file `path`, atomically, in blocks
/// of `block` bytes (a power of two, `MIN_BLOCK` to `MAX_BLOCK`) compressed on every thread of
/// the pool; the file's bytes.
pub fn write(path: &Path, meta: &Meta, values: &[u8], block: usize) -> Result<u64, TablesError> {
    debug_assert_eq!(values.len() as u64, meta.len);
    debug_assert!(block.is_power_of_two() && (MIN_BLOCK..=MAX_BLOCK).contains(&block));
    let frames: Vec<(Vec<u8>, u64)> = values
        .par_chunks(block)
        .map(|block| (frame::compress(block), block_checksum(block)))
        .collect();
    let mut index = Vec::with_capacity((2 * frames.len() + 1) * 8);
    let mut at = 0u64;
    for (f, _) in &frames {
        index.extend_from_slice(&at.to_le_bytes());
        at += f.len() as u64;
    }
    index.extend_from_slice(&at.to_le_bytes());
    for (_, sum) in &frames {
        index.extend_from_slice(&sum.to_le_bytes());
    }
    let mut head = header(meta, block);
    let closing = closing_checksum(&head, &index);
    LAYOUT.seal(&mut head, closing);
    let mut parts: Vec<&[u8]> = vec![&head, &index];
    parts.extend(frames.iter().map(|(f, _)| f.as_slice()));
    durable::write_atomic_parts(path, &parts)?;
    Ok((HEADER + index.len()) as u64 + at)
}

/// A packed table opened for probing: its file mapped, its header and index checked.
pub struct PackedTable {
    meta: Meta,
    mapping: Mapping,
    /// Bytes of values a block holds (the last may hold fewer).
    block: usize,
    blocks: usize,
    /// Where the frames start in the file.
    data: usize,
    /// The cache of unpacked blocks of the tables it belongs to.
    cache: Arc<BlockCache>,
    /// Its number in that cache (`cache::tag`).
    id: u32,
    /// Each block's frame in the cache's pool plus one (0: none), made at the first probe
    /// (empty where its memory was refused).
    frames: OnceLock<Words>,
    /// A block failed to unpack or its checksum: nothing of the table is trusted since.
    damaged: AtomicBool,
}

impl std::fmt::Debug for PackedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackedTable({}, {} bytes)", self.meta.key, self.meta.len)
    }
}

/// A packed table's file is not one: what is wrong.
fn flawed(path: &Path, flaw: PackedFlaw) -> TablesError {
    TablesError::Packed {
        path: path.to_path_buf(),
        flaw,
    }
}

impl PackedTable {
    /// Opens the packed table `path`, which must hold `key` made under `fingerprint`: the
    /// header, the index and the file's length are checked (the frames are checked as they are
    /// unpacked, and whole by `check_all`); its blocks are kept in `cache` as they are probed.
    pub fn open(
        path: &Path,
        key: Key,
        fingerprint: u64,
        cache: &Arc<BlockCache>,
    ) -> Result<PackedTable, TablesError> {
        let file = open_regular(path)?;
        let mapping = Mapping::of_file(&file, path, 0)?;
        let bytes = mapping.bytes();
        let head = LAYOUT
            .read(bytes)
            .map_err(|fault| flawed(path, fault.into()))?;
        let held = Key::from_bytes(bytes[12..16].try_into().expect("4 bytes"))
            .ok_or_else(|| flawed(path, PackedFlaw::NoKey))?;
        if held != key {
            return Err(flawed(path, PackedFlaw::OtherTable { held, want: key }));
        }
        head.check_rules(fingerprint)
            .map_err(|fault| flawed(path, fault.into()))?;
        let meta = Meta {
            key,
            fingerprint,
            width: bytes[24],
            len: u64_at(bytes, 32),
            extra: u64_at(bytes, 40),
            checksum: u64_at(bytes, 48),
        };
        let block = u32_at(bytes, 28);
        let width_fits = match key {
            Key::Moving(..) => meta.width == 1 || meta.width == 2,
            Key::Placing(_) => meta.width == 0,
        };
        let block = block as usize;
        let block_fits = block.is_power_of_two() && (MIN_BLOCK..=MAX_BLOCK).contains(&block);
        if !block_fits || !width_fits || meta.len == 0 {
            return Err(flawed(path, PackedFlaw::DamagedHeader));
        }
        let blocks = meta.len.div_ceil(block as u64) as usize;
        let data = (HEADER as u64).saturating_add(16 * blocks as u64 + 8);
        if data > bytes.len() as u64 {
            return Err(flawed(
                path,
                PackedFlaw::CutIndex {
                    bytes: bytes.len() as u64,
                    index: data,
                },
            ));
        }
        let data = data as usize;
        head.check_sum(closing_checksum(bytes, &bytes[HEADER..data]))
            .map_err(|fault| flawed(path, fault.into()))?;
        let end = u64_at(bytes, HEADER + 8 * blocks);
        if (data as u64).checked_add(end) != Some(bytes.len() as u64) {
            return Err(flawed(
                path,
                PackedFlaw::Length {
                    bytes: bytes.len() as u64,
                    expected: (data as u64).saturating_add(end),
                },
            ));
        }
        let offsets_rise = (0..blocks)
            .all(|b| u64_at(bytes, HEADER + 8 * b) <= u64_at(bytes, HEADER + 8 * (b + 1)));
        if !offsets_rise {
            return Err(flawed(path, PackedFlaw::DamagedIndex));
        }
        Ok(PackedTable {
            meta,
            mapping,
            block,
            blocks,
            data,
            id: cache.new_table_id(),
            cache: Arc::clone(cache),
            frames: OnceLock::new(),
            damaged: AtomicBool::new(false),
        })
    }

    /// What the table says of its values.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.mapping.path()
    }

    /// The mapped file (to notice it changed).
    pub fn mapping(&self) -> &Mapping {
        &self.mapping
    }

    /// Whether the values read so far are the file's as it was checked: every block read
    /// unpacked to its checksum, and the mapping is trusted.
    #[inline]
    pub fn trusted(&self) -> bool {
        !self.damaged.load(Ordering::Acquire) && self.mapping.trusted()
    }

    /// The frame of block `b` and the checksum of its bytes; `None` when the index no longer
    /// points inside the file (it changed under the mapping: cut, or written over in place).
    fn frame(&self, b: usize) -> Option<(&[u8], u64)> {
        let bytes = self.mapping.bytes();
        let (from, to) = (
            u64_at(bytes, HEADER + 8 * b),
            u64_at(bytes, HEADER + 8 * (b + 1)),
        );
        let sum = u64_at(bytes, HEADER + 8 * (self.blocks + 1) + 8 * b);
        let (from, to) = (
            (self.data as u64).checked_add(from)?,
            (self.data as u64).checked_add(to)?,
        );
        (from <= to && to <= bytes.len() as u64).then(|| (&bytes[from as usize..to as usize], sum))
    }

    /// The bytes block `b` holds.
    fn block_len(&self, b: usize) -> usize {
        (self.meta.len - (b * self.block) as u64).min(self.block as u64) as usize
    }

    /// Block `b` unpacked and checked, or why not.
    fn unpack(&self, b: usize) -> Result<Vec<u8>, BlockFault> {
        let (frame, sum) = self.frame(b).ok_or(BlockFault::Outside)?;
        let out = frame::decompress(frame, self.block_len(b))?;
        if block_checksum(&out) != sum {
            return Err(BlockFault::Checksum);
        }
        Ok(out)
    }

    /// The bytes of values a block holds.
    pub fn block_size(&self) -> usize {
        self.block
    }

    /// The two bytes at `at` and `at + 1` of block `b` (`at` even and inside the block; the
    /// byte after a block's last reads as 0), from the cache (`cache::Pool`) or unpacked into
    /// it; `None` (and the table marked damaged, said once in the log) when the block does not
    /// unpack to its checksum.
    #[inline]
    fn read(&self, b: usize, at: usize) -> Option<[u8; 2]> {
        let pool = self.cache.pool(self.block);
        let tag = cache::tag(self.id, b as u32);
        // Without the memory for the map, no block is found kept: each probe unpacks its own.
        let frames = self
            .frames
            .get_or_init(|| Words::zeroed(self.blocks).unwrap_or_else(Words::empty));
        let frame = frames.get(b).map_or(0, |f| f.load(Ordering::Relaxed));
        if let Some(v) = frame
            .checked_sub(1)
            .and_then(|f| pool.read(f as usize, tag, at))
        {
            return Some(v);
        }
        let bytes = self.unpack_checked(b)?;
        if let Some(map) = frames.get(b) {
            if let Some(f) = pool.put(tag, &bytes) {
                map.store(f as u64 + 1, Ordering::Relaxed);
            }
        }
        Some([bytes[at], bytes.get(at + 1).copied().unwrap_or(0)])
    }

    /// Block `b` unpacked and checked; `None` (and the table marked damaged, said once in the
    /// log) when it does not unpack to its checksum.
    fn unpack_checked(&self, b: usize) -> Option<Vec<u8>> {
        match self.unpack(b) {
            Ok(bytes) => Some(bytes),
            Err(why) => {
                if !self.damaged.swap(true, Ordering::AcqRel) {
                    log::error!(
                        "{}: block {b} {why}: the file is damaged; its values are not used",
                        self.path().display(),
                    );
                }
                None
            }
        }
    }

    /// The byte at `at` of the values (`None`: damaged).
    #[inline]
    pub fn byte(&self, at: u64) -> Option<u8> {
        if at >= self.meta.len {
            return None;
        }
        let size = self.block as u64;
        let i = (at % size) as usize;
        self.read((at / size) as usize, i & !1)
            .map(|pair| pair[i & 1])
    }

    /// The two bytes at `at` and `at + 1` of the values, `at` even (a block's length is even,
    /// so they lie in one block).
    #[inline]
    pub fn pair(&self, at: u64) -> Option<[u8; 2]> {
        if at.saturating_add(1) >= self.meta.len {
            return None;
        }
        let size = self.block as u64;
        self.read((at / size) as usize, (at % size) as usize)
    }

    /// Every value, unpacked (a block that does not unpack reads as zeros, and the table is
    /// marked damaged).
    pub fn unpack_all(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.meta.len as usize);
        for b in 0..self.blocks {
            match self.unpack_checked(b) {
                Some(block) => out.extend_from_slice(&block),
                None => out.resize(out.len() + self.block_len(b), 0),
            }
        }
        out
    }

    /// Every block unpacked and checked, and the values' checksum against the header's: `Ok`
    /// or what is wrong. The values are handed to `each` block by block, in order.
    pub fn check_all(&self, mut each: impl FnMut(&[u8])) -> Result<(), TablesError> {
        let mut sum = self.meta.len;
        // `file::checksum` mixes 8 bytes at a time; a block's length is a multiple of 8 but the
        // last's, so the blocks mix in order as the whole would.
        for b in 0..self.blocks {
            let bytes = self
                .unpack(b)
                .map_err(|fault| flawed(self.path(), PackedFlaw::Block { block: b, fault }))?;
            sum = crate::tables::checksum::mix_words(sum, &bytes);
            each(&bytes);
        }
        if !self.mapping.trusted() || sum != self.meta.checksum {
            return Err(flawed(self.path(), PackedFlaw::ValuesChecksum));
        }
        Ok(())
    }
}

/// The path of `key`'s packed table in the packed set `dir`.
pub fn path(dir: &Path, key: Key) -> PathBuf {
    dir.join(key.file_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture's values, and what its header says of them.
    fn fixture_values() -> (Meta, Vec<u8>) {
        let values: Vec<u8> = (0..9000u32)
            .map(|i| ((i * 7 + i / 100) % 128) as u8)
            .collect();
        let meta = Meta {
            key: Key::Moving(3, 3),
            fingerprint: 7,
            width: 1,
            len: values.len() as u64,
            extra: 127,
            checksum: checksum(&values),
        };
        (meta, values)
    }

    /// The fixture, packed by the code before the shared header.
    fn fixture() -> Vec<u8> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shipped");
        std::fs::read(dir.join("moving-3-3.pk")).unwrap()
    }

    fn open_bytes(bytes: &[u8], fingerprint: u64) -> Result<PackedTable, TablesError> {
        let dir = crate::tables::scratch::scratch("packed-header");
        let path = dir.0.join("3-3.pk");
        std::fs::write(&path, bytes).unwrap();
        PackedTable::open(&path, Key::Moving(3, 3), fingerprint, &Arc::default())
    }

    #[test]
    fn a_packed_table_of_the_old_code_reads_back_and_is_written_as_it_was() {
        let (meta, values) = fixture_values();
        let table = open_bytes(&fixture(), 7).unwrap();
        assert_eq!(*table.meta(), meta);
        assert_eq!(table.unpack_all(), values);
        table.check_all(|_| ()).unwrap();
        assert_eq!(table.pair(4000), Some([values[4000], values[4001]]));
        let dir = crate::tables::scratch::scratch("packed-as-before");
        let path = dir.0.join("3-3.pk");
        write(&path, &meta, &values, 4096).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), fixture());
    }

    #[test]
    fn each_fault_of_a_packed_tables_header_is_refused_in_its_words() {
        let good = fixture();
        let mut magic = good.clone();
        magic[4] = b'X';
        let mut version = good.clone();
        version[8] = 3;
        let mut index = good.clone();
        index[HEADER + 8 * 4 + 1] ^= 1;
        for (bytes, fingerprint, said) in [
            (&magic[..], 7, "3-3.pk: not a moulin packed table"),
            (
                &version[..],
                7,
                "3-3.pk: format version 3, this engine reads version 2",
            ),
            (
                &good[..],
                8,
                "3-3.pk: made for other rules (fingerprint 0000000000000007, the rules in force \
                 have 0000000000000008)",
            ),
            (
                &index[..],
                7,
                "3-3.pk: checksum mismatch of its header and index: the file is damaged",
            ),
            (
                &good[..30],
                7,
                "3-3.pk: cut inside its header (30 bytes of 64)",
            ),
        ] {
            let e = open_bytes(bytes, fingerprint).unwrap_err().to_string();
            assert!(e.ends_with(said), "{e}");
        }
    }
}
