//! One packed table: the values of a moving table (its `.tbl` file's bytes) or of a placing
//! group (its `.plc` file's), cut into blocks (of [`DEFAULT_BLOCK`] bytes unless the packer
//! says otherwise: a power of two from [`MIN_BLOCK`] to [`MAX_BLOCK`]), one or more blocks a
//! zstd frame with the checksum of its values; probed a block at a time, through the cache of
//! unpacked blocks of the tables it belongs to ([`BlockCache`]: a frame unpacked for a probe
//! leaves each of its blocks there).
//!
//! **The file** (little-endian): a header of [`HEADER`] bytes (the magic `MOULPACK`, the
//! format's version, the kind and key of the table, the rules' fingerprint, the width of a
//! value, the coding of the values in the frames (`packed_coding::Coding`, format 3), the block
//! size, the length of the values, the longest distance or the slots, the checksum of the values
//! as their table file has it, and a checksum of the header and the index), the index (each
//! frame's offset from the first, and the checksum of the values it unpacks to,
//! [`block_checksum`]: four bytes each in format 3, eight in format 2), then the frames (without
//! the zstd magic in format 3, which every frame would repeat). The checksum of the values is the
//! table file's own (`tables::checksum::checksum`), so a packed table is checked against the file
//! it was made from without unpacking that file. The magic, version, fingerprint and closing
//! checksum are the shared header's (`shipped::header`, `LAYOUT`).
//!
//! **Format 3** (2026-12-07) codes a wide table's values in a byte each (`packed_coding::escape`)
//! in frames of two blocks, and fills a placing group's spare slots from their neighbours
//! (`packed_coding::fill_spare`: a probe never reads them; `check_all` and `unpack_all` give them
//! back as the file has them, 0). Format 2 (one block a frame, as the build wrote the values) is
//! still read, so that a set installed before keeps serving without its build.

use super::block_cache::{self as cache, BlockCache};
use super::frame::{self, Effort};
use super::packed_coding::{self as coding, Coding};
use crate::durable;
use crate::memory::Words;
use crate::shipped::le_bytes::{put_u32, put_u64, u32_at, u64_at};
use crate::shipped::{HeaderError, Layout};
use crate::tables::checksum::checksum;
use crate::tables::mapped::{open_regular, Mapping};
use crate::tables::packed_flaw::{BlockFault, PackedFlaw};
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use rayon::prelude::*;
use std::borrow::Cow;
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

/// How a table's values are cut when packed: blocks of `block` bytes (what a probe leaves in
/// the cache, a power of two from `MIN_BLOCK` to `MAX_BLOCK`), frames of `frame` bytes of values
/// (what zstd packs whole and a probe of a block not in the cache unpacks: `block` times a power
/// of two up to `1 << MAX_SHIFT`); a wide table's frame holds two blocks at least, its escaped
/// values coming to about half their bytes (`packed_coding::escape`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Bytes of values a block holds.
    pub block: usize,
    /// Bytes of values a frame holds.
    pub frame: usize,
}

impl Cut {
    /// Blocks and frames of [`DEFAULT_BLOCK`] bytes.
    pub const DEFAULT: Cut = Cut {
        block: DEFAULT_BLOCK,
        frame: DEFAULT_BLOCK,
    };

    /// A cut of blocks of `block` bytes in frames of `frame` (`None` unless both are powers of
    /// two, the block within `MIN_BLOCK` to `MAX_BLOCK` and the frame one to `1 << MAX_SHIFT`
    /// blocks).
    pub fn new(block: usize, frame: usize) -> Option<Cut> {
        let fits = block.is_power_of_two()
            && (MIN_BLOCK..=MAX_BLOCK).contains(&block)
            && frame.is_power_of_two()
            && (block..=block << coding::MAX_SHIFT).contains(&frame);
        fits.then_some(Cut { block, frame })
    }

    /// The blocks of a frame of a table of `width` bytes a value, as a shift.
    fn shift(self, width: u8) -> u8 {
        let shift = (self.frame / self.block).trailing_zeros() as u8;
        if width == 2 {
            shift.max(1)
        } else {
            shift
        }
    }
}
/// The format's version: 3 since the values are coded in their frames (`packed_coding`), the
/// index holds four bytes a frame's offset and checksum and the frames leave out zstd's magic
/// (version 2, still read: one block a frame, eight bytes each; version 1 checked blocks with
/// the slower `tables::checksum::checksum`).
pub const VERSION: u32 = 3;
/// The version before, still read.
pub const VERSION_2: u32 = 2;
/// A packed table's header: the checksum that closes it covers it and the index.
static LAYOUT: Layout = layout(VERSION);
/// A packed table's header in format 2.
static LAYOUT_2: Layout = layout(VERSION_2);

/// The header of a packed table of format `version`.
const fn layout(version: u32) -> Layout {
    Layout {
        what: "a moulin packed table",
        magic: *b"MOULPACK",
        version: Some(version),
        fingerprint_at: 16,
        checksum_at: Some(56),
        covers: "its header and index",
        len: 64,
    }
}

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

/// The header of a packed table of `meta` in blocks of `block` bytes coded by `coded`, but its
/// closing checksum.
fn header(meta: &Meta, block: usize, coded: Coding) -> Vec<u8> {
    let mut h = LAYOUT.blank(meta.fingerprint);
    h[12..16].copy_from_slice(&meta.key.bytes());
    h[24] = meta.width;
    h[25..28].copy_from_slice(&coded.to_bytes());
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

/// The coding `write` gives a table of `meta` cut by `cut`: a wide table's values escaped, two
/// blocks a frame at least (a frame's escaped values then come to about a block's bytes, so it
/// unpacks in about the time a block of another table does); a placing group's spare slots
/// filled where they hold 0.
pub fn coding_for(meta: &Meta, cut: Cut) -> Coding {
    let escaped = meta.width == 2;
    Coding {
        escaped,
        shift: cut.shift(meta.width),
        filled: matches!(meta.key, Key::Placing(_)),
    }
}

/// The frame of `values` (a frame's values, from byte `at`) coded by `coded`, without zstd's
/// magic, and the checksum of the values a probe reads from it; `None` when the spare slots of
/// a group do not all hold 0 (it is not to be filled).
fn frame_of(
    key: Key,
    coded: Coding,
    at: u64,
    values: &[u8],
    effort: Effort,
) -> Option<(Vec<u8>, u32)> {
    let filled = match key {
        Key::Placing(g) if coded.filled => Cow::Owned(coding::fill_spare(g, at, values)?),
        _ => Cow::Borrowed(values),
    };
    let plain = if coded.escaped {
        Cow::Owned(coding::escape(&filled))
    } else {
        Cow::Borrowed(&*filled)
    };
    let mut f = frame::compress_with(&plain, effort);
    debug_assert!(f.starts_with(&frame::MAGIC));
    f.drain(..frame::MAGIC.len());
    Some((f, block_checksum(&filled) as u32))
}

/// Packs `values` (a table file's bytes of values) into the file `path`, atomically, in format
/// 3, cut by `cut`, its frames compressed on every thread of the pool with `effort`; the file's
/// bytes.
pub fn write(
    path: &Path,
    meta: &Meta,
    values: &[u8],
    cut: Cut,
    effort: Effort,
) -> Result<u64, TablesError> {
    debug_assert_eq!(values.len() as u64, meta.len);
    debug_assert_eq!(Cut::new(cut.block, cut.frame), Some(cut));
    let block = cut.block;
    let mut coded = coding_for(meta, cut);
    let size = block << coded.shift;
    let pack = |coded: Coding| -> Option<Vec<(Vec<u8>, u32)>> {
        values
            .par_chunks(size)
            .enumerate()
            .map(|(f, chunk)| frame_of(meta.key, coded, (f * size) as u64, chunk, effort))
            .collect()
    };
    let frames = if let Some(frames) = pack(coded) {
        frames
    } else {
        // A group whose spare slots do not all hold 0: stored as it is.
        coded.filled = false;
        pack(coded).expect("frames that fill nothing")
    };
    let mut index = Vec::with_capacity((2 * frames.len() + 1) * 4);
    let mut at = 0u64;
    for (f, _) in &frames {
        index.extend_from_slice(&(at as u32).to_le_bytes());
        at += f.len() as u64;
    }
    let end = u32::try_from(at).map_err(|_| flawed(path, PackedFlaw::TooLarge { bytes: at }))?;
    index.extend_from_slice(&end.to_le_bytes());
    for (_, sum) in &frames {
        index.extend_from_slice(&sum.to_le_bytes());
    }
    let mut head = header(meta, block, coded);
    let closing = closing_checksum(&head, &index);
    LAYOUT.seal(&mut head, closing);
    let mut parts: Vec<&[u8]> = vec![&head, &index];
    parts.extend(frames.iter().map(|(f, _)| f.as_slice()));
    durable::write_atomic_parts(path, &parts)?;
    Ok((HEADER + index.len()) as u64 + at)
}

/// About the bytes `write` would make of `values` (a table of `meta`, cut by `cut`): one frame
/// in every `every` coded as `write` codes it, packed at `effort`, the sum scaled to the whole.
/// The same values give the same figure, so a choice made by it is made again the same.
pub fn estimate(meta: &Meta, values: &[u8], cut: Cut, every: usize, effort: Effort) -> u64 {
    let coded = coding_for(meta, cut);
    let size = cut.block << coded.shift;
    let frames = values.len().div_ceil(size);
    let picked: Vec<usize> = (0..frames).step_by(every.max(1)).collect();
    let (bytes, raw) = picked
        .par_iter()
        .map(|&f| {
            let chunk = &values[f * size..((f + 1) * size).min(values.len())];
            let coded = frame_of(meta.key, coded, (f * size) as u64, chunk, effort).or_else(|| {
                frame_of(
                    meta.key,
                    Coding {
                        filled: false,
                        ..coded
                    },
                    0,
                    chunk,
                    effort,
                )
            });
            (
                coded.map_or(chunk.len(), |(f, _)| f.len()) as u64,
                chunk.len() as u64,
            )
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if raw == 0 {
        return 0;
    }
    (bytes as f64 * values.len() as f64 / raw as f64) as u64
}

/// A packed table opened for probing: its file mapped, its header and index checked.
pub struct PackedTable {
    meta: Meta,
    mapping: Mapping,
    /// The format's version (`VERSION` or `VERSION_2`).
    version: u32,
    /// How the values are coded in the frames.
    coded: Coding,
    /// Bytes of values a block holds (the last may hold fewer).
    block: usize,
    blocks: usize,
    /// Frames: one each `1 << coded.shift` blocks.
    frames: usize,
    /// Where the frames start in the file.
    data: usize,
    /// The cache of unpacked blocks of the tables it belongs to.
    cache: Arc<BlockCache>,
    /// Its number in that cache (`cache::tag`).
    id: u32,
    /// Each block's frame in the cache's pool plus one (0: none), made at the first probe
    /// (empty where its memory was refused).
    kept: OnceLock<Words>,
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

/// The bytes an index gives a frame's offset and checksum, in format `version`.
fn word(version: u32) -> usize {
    if version == VERSION_2 {
        8
    } else {
        4
    }
}

/// The number at `at` of an index whose numbers take `word` bytes.
fn index_at(bytes: &[u8], at: usize, word: usize) -> u64 {
    if word == 8 {
        u64_at(bytes, at)
    } else {
        u64::from(u32_at(bytes, at))
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
        let (head, version) = match LAYOUT.read(bytes) {
            Err(HeaderError::Version {
                found: VERSION_2, ..
            }) => (LAYOUT_2.read(bytes), VERSION_2),
            read => (read, VERSION),
        };
        let head = head.map_err(|fault| flawed(path, fault.into()))?;
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
        let coded = Coding::from_bytes(bytes[25..28].try_into().expect("3 bytes"));
        let (block, frames) = match (coded, Self::sizes(&meta, bytes, coded)) {
            (Some(c), Some(sizes)) if version == VERSION || c == Coding::default() => sizes,
            _ => return Err(flawed(path, PackedFlaw::DamagedHeader)),
        };
        let coded = coded.expect("checked above");
        let word = word(version);
        let data = (HEADER as u64).saturating_add((2 * frames as u64 + 1) * word as u64);
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
        let end = index_at(bytes, HEADER + word * frames, word);
        if (data as u64).checked_add(end) != Some(bytes.len() as u64) {
            return Err(flawed(
                path,
                PackedFlaw::Length {
                    bytes: bytes.len() as u64,
                    expected: (data as u64).saturating_add(end),
                },
            ));
        }
        let offsets_rise = (0..frames).all(|f| {
            index_at(bytes, HEADER + word * f, word)
                <= index_at(bytes, HEADER + word * (f + 1), word)
        });
        if !offsets_rise {
            return Err(flawed(path, PackedFlaw::DamagedIndex));
        }
        Ok(PackedTable {
            meta,
            mapping,
            version,
            coded,
            block,
            blocks: meta.len.div_ceil(block as u64) as usize,
            frames,
            data,
            id: cache.new_table_id(),
            cache: Arc::clone(cache),
            kept: OnceLock::new(),
            damaged: AtomicBool::new(false),
        })
    }

    /// The block size and the frames the header of `meta` says (`None` for a
    /// header no packer writes): a block a power of two in range, the width a moving table's
    /// (1 or 2) or a group's (0), values, escaped only if wide, filled only in a group.
    fn sizes(meta: &Meta, bytes: &[u8], coded: Option<Coding>) -> Option<(usize, usize)> {
        let coded = coded?;
        let block = u32_at(bytes, 28) as usize;
        let width_fits = match meta.key {
            Key::Moving(..) => (meta.width == 1 || meta.width == 2) && !coded.filled,
            Key::Placing(_) => meta.width == 0 && !coded.escaped,
        };
        let block_fits = block.is_power_of_two() && (MIN_BLOCK..=MAX_BLOCK).contains(&block);
        let escape_fits = !coded.escaped || meta.width == 2;
        if !block_fits || !width_fits || !escape_fits || meta.len == 0 {
            return None;
        }
        let frames = meta.len.div_ceil((block as u64) << coded.shift) as usize;
        Some((block, frames))
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

    /// Frame `f` and the checksum of its values; `None` when the index no longer points inside
    /// the file (it changed under the mapping: cut, or written over in place).
    fn frame(&self, f: usize) -> Option<(&[u8], u64)> {
        let bytes = self.mapping.bytes();
        let word = word(self.version);
        let (from, to) = (
            index_at(bytes, HEADER + word * f, word),
            index_at(bytes, HEADER + word * (f + 1), word),
        );
        let sum = index_at(bytes, HEADER + word * (self.frames + 1 + f), word);
        let (from, to) = (
            (self.data as u64).checked_add(from)?,
            (self.data as u64).checked_add(to)?,
        );
        (from <= to && to <= bytes.len() as u64).then(|| (&bytes[from as usize..to as usize], sum))
    }

    /// The bytes of values frame `f` holds.
    fn frame_len(&self, f: usize) -> usize {
        let size = (self.block as u64) << self.coded.shift;
        (self.meta.len - f as u64 * size).min(size) as usize
    }

    /// Frame `f` unpacked and checked: its values as a probe reads them (a group's spare slots
    /// filled), or why not.
    fn unpack(&self, f: usize) -> Result<Vec<u8>, BlockFault> {
        let (frame, sum) = self.frame(f).ok_or(BlockFault::Outside)?;
        let want = self.frame_len(f);
        let out = if self.version == VERSION_2 {
            frame::decompress(frame, want)?
        } else {
            let mut whole = Vec::with_capacity(frame::MAGIC.len() + frame.len());
            whole.extend_from_slice(&frame::MAGIC);
            whole.extend_from_slice(frame);
            if self.coded.escaped {
                // A value escaped takes three bytes for its two.
                let coded = frame::decompress_up_to(&whole, want / 2 * 3)?;
                coding::unescape(&coded, want).ok_or(BlockFault::Coding)?
            } else {
                frame::decompress(&whole, want)?
            }
        };
        let held = block_checksum(&out);
        let held = if self.version == VERSION_2 {
            held
        } else {
            u64::from(held as u32)
        };
        if held != sum {
            return Err(BlockFault::Checksum);
        }
        Ok(out)
    }

    /// Frame `f`'s values as the table's file holds them (a group's spare slots 0 again).
    fn restored(&self, f: usize, mut values: Vec<u8>) -> Vec<u8> {
        if let (Key::Placing(g), true) = (self.meta.key, self.coded.filled) {
            let at = f as u64 * ((self.block as u64) << self.coded.shift);
            coding::restore_spare(g, at, &mut values);
        }
        values
    }

    /// The bytes of values a block holds.
    pub fn block_size(&self) -> usize {
        self.block
    }

    /// The format's version and the coding of the values.
    pub fn format(&self) -> (u32, Coding) {
        (self.version, self.coded)
    }

    /// The two bytes at `at` and `at + 1` of block `b` (`at` even and inside the block; the
    /// byte after a block's last reads as 0), from the cache (`cache::Pool`) or unpacked into
    /// it with the other blocks of its frame; `None` (and the table marked damaged, said once in
    /// the log) when its frame does not unpack to its checksum.
    #[inline]
    fn read(&self, b: usize, at: usize) -> Option<[u8; 2]> {
        let pool = self.cache.pool(self.block);
        // Without the memory for the map, no block is found kept: each probe unpacks its own.
        let kept = self
            .kept
            .get_or_init(|| Words::zeroed(self.blocks).unwrap_or_else(Words::empty));
        let frame = kept.get(b).map_or(0, |f| f.load(Ordering::Relaxed));
        if let Some(v) = frame
            .checked_sub(1)
            .and_then(|f| pool.read(f as usize, cache::tag(self.id, b as u32), at))
        {
            return Some(v);
        }
        let f = b >> self.coded.shift;
        let values = self.unpack_checked(f)?;
        let first = f << self.coded.shift;
        for (i, bytes) in values.chunks(self.block).enumerate() {
            if let Some(map) = kept.get(first + i) {
                if let Some(slot) = pool.put(cache::tag(self.id, (first + i) as u32), bytes) {
                    map.store(slot as u64 + 1, Ordering::Relaxed);
                }
            }
        }
        let bytes = &values[(b - first) * self.block..];
        Some([bytes[at], bytes.get(at + 1).copied().unwrap_or(0)])
    }

    /// Frame `f` unpacked and checked; `None` (and the table marked damaged, said once in the
    /// log) when it does not unpack to its checksum.
    fn unpack_checked(&self, f: usize) -> Option<Vec<u8>> {
        match self.unpack(f) {
            Ok(bytes) => Some(bytes),
            Err(why) => {
                if !self.damaged.swap(true, Ordering::AcqRel) {
                    log::error!(
                        "{}: frame {f} {why}: the file is damaged; its values are not used",
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

    /// Every value as the table's file holds it, unpacked (a frame that does not unpack reads
    /// as zeros, and the table is marked damaged).
    pub fn unpack_all(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.meta.len as usize);
        for f in 0..self.frames {
            match self.unpack_checked(f) {
                Some(values) => out.extend_from_slice(&self.restored(f, values)),
                None => out.resize(out.len() + self.frame_len(f), 0),
            }
        }
        out
    }

    /// Every frame unpacked and checked, and the values' checksum against the header's: `Ok`
    /// or what is wrong. The values, as the table's file holds them, are handed to `each` frame
    /// by frame, in order.
    pub fn check_all(&self, mut each: impl FnMut(&[u8])) -> Result<(), TablesError> {
        let mut sum = self.meta.len;
        // `file::checksum` mixes 8 bytes at a time; a frame's length is a multiple of 8 but the
        // last's, so the frames mix in order as the whole would.
        for f in 0..self.frames {
            let values = self
                .unpack(f)
                .map_err(|fault| flawed(self.path(), PackedFlaw::Block { block: f, fault }))?;
            let values = self.restored(f, values);
            sum = crate::tables::checksum::mix_words(sum, &values);
            each(&values);
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
#[path = "packed_table_tests.rs"]
mod tests;
