//! The table file: one pair, `<mover>-<other>.tbl` in the tables directory; its header is
//! shipped data's (`shipped::header`, `LAYOUT`), its fields its own.
//!
//! ```text
//!  bytes  0..8   magic "MOULTBL1"
//!  bytes  8..16  fingerprint of the rules (tables::fingerprint), little-endian
//!  byte  16      pieces of the side to move; byte 17: pieces of the other side
//!  byte  18      bytes per value: 1 (distances up to 127 plies) or 2
//!  bytes 19..24  zero
//!  bytes 24..32  number of slots, little-endian
//!  bytes 32..40  checksum of the values (below), little-endian
//!  bytes 40..    the values in index order (tables::Values::to_bytes)
//! ```
//!
//! Files are written atomically (`durable::write_atomic`): a table is on disk whole or not at
//! all, so a stopped build keeps every finished pair.

use super::checksum::{checksum, mix_words};
use super::index::pair_len;
use super::mapped::{self, Mapping};
use super::scope::MAX_PIECES;
use super::tables_error::TablesError;
use super::values::Values;
use crate::durable;
use crate::shipped::le_bytes::{put_u64, u64_at};
use crate::shipped::{HeaderError, Layout};
use crate::tables::block_cache::BlockCache;
use crate::tables::frame::Effort;
use crate::tables::packed_table::{self, Meta, PackedTable};
use crate::tables::table_key::Key;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The header of a file of values (a table's, a placing group's): no version apart from the
/// magic's last byte, the rules' fingerprint at byte 8, the checksum of the values at 32.
pub(crate) const fn values_layout(what: &'static str, magic: [u8; 8]) -> Layout {
    Layout {
        what,
        magic,
        version: None,
        fingerprint_at: 8,
        checksum_at: Some(32),
        covers: "its values",
        len: 40,
    }
}

/// A table file's header.
static LAYOUT: Layout = values_layout("a moulin table file", *b"MOULTBL1");
const HEADER: usize = LAYOUT.len;

/// The checksum of a table's values (`checksum`) and the longest distance they hold, in one pass
/// (loading the tables reads every byte once).
fn checksum_and_longest(values: &[u8], width: u8) -> (u64, u16) {
    let mut h = values.len() as u64;
    let mut longest = 0u16;
    // Blocks of a multiple of 8 bytes, small enough to stay in the cache between the two loops.
    for block in values.chunks(1 << 15) {
        h = mix_words(h, block);
        longest = longest.max(longest_distance(block, width));
    }
    (h, longest)
}

/// The longest distance among a table's values as its file holds them (`width` bytes each, a
/// whole number of values): a byte's distance is its low 7 bits, a wide code's its low 15
/// (`Value::from_byte`, `Value::from_code`).
pub fn longest_distance(values: &[u8], width: u8) -> u16 {
    let d = if width == 1 {
        values.iter().map(|&b| b & 0x7f).max().map(u16::from)
    } else {
        values
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) & 0x7fff)
            .max()
    };
    d.unwrap_or(0)
}

/// The file of pair `(mover, other)` in `dir`.
pub fn path(dir: &Path, mover: usize, other: usize) -> PathBuf {
    dir.join(format!("{mover}-{other}.tbl"))
}

/// The folder of a tables directory where a build keeps its finished moving tables packed
/// (`compact`), laid out as a packed set's files (`compact/moving/<m>-<o>.pk`).
pub const COMPACT: &str = "compact";

/// Where the table of pair `(mover, other)` is kept packed in the tables directory `dir`.
pub fn compact_path(dir: &Path, mover: usize, other: usize) -> PathBuf {
    packed_table::path(&dir.join(COMPACT), Key::Moving(mover as u8, other as u8))
}

/// Keeps the table of pair `(mover, other)` packed in `dir`'s `compact` folder, fast (zstd's
/// level 3, about 110 MB/s a thread by `zstd -b`), then unpacks it and checks every frame
/// against the values' checksum: what a build keeps of a finished table in place of its file
/// (0.113 of the files' bytes on the tables up to 6 a side; `moulin tables pack` makes the set
/// from it as from the file).
pub fn compact(
    dir: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
    values: &Values,
) -> Result<(), TablesError> {
    let data = values.to_bytes();
    let path = compact_path(dir, mover, other);
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|source| TablesError::Open {
            path: folder.to_path_buf(),
            source,
        })?;
    }
    let (sum, longest) = checksum_and_longest(&data, values.width());
    let meta = Meta {
        key: Key::Moving(mover as u8, other as u8),
        fingerprint,
        width: values.width(),
        len: data.len() as u64,
        extra: u64::from(longest),
        checksum: sum,
    };
    packed_table::write(&path, &meta, &data, COMPACT_CUT, Effort::Fast)?;
    let check = PackedTable::open(&path, meta.key, fingerprint, &Arc::default())?;
    check.check_all(|_| ())
}

/// How a compact table is cut: a packed set's usual blocks and frames.
const COMPACT_CUT: packed_table::Cut = packed_table::Cut::DEFAULT;

/// Reads the table of pair `(mover, other)` kept packed at `path` (`compact`) for the rules of
/// `fingerprint`: its header and index checked, its blocks unpacked as they are probed into
/// `cache` (`Values::Packed`; `Values::resident` unpacks it whole).
pub fn read_compact(
    path: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
    cache: &Arc<BlockCache>,
) -> Result<Values, TablesError> {
    let key = Key::Moving(mover as u8, other as u8);
    let table = PackedTable::open(path, key, fingerprint, cache)?;
    Ok(Values::Packed(Arc::new(table)))
}

/// Reads the table of pair `(mover, other)` at `path` as `list` gives it: a table file
/// (`read`), or one kept packed (`read_compact`, named `.pk`).
pub fn read_listed(
    path: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
    cache: &Arc<BlockCache>,
) -> Result<Values, TablesError> {
    if path.extension().is_some_and(|e| e == "pk") {
        read_compact(path, fingerprint, mover, other, cache)
    } else {
        read(path, fingerprint, mover, other)
    }
}

/// Reads the table of pair `(mover, other)` of the tables directory `dir`: its file (`read`),
/// or where the build kept it packed instead (`read_compact`); `NotBuilt` when it has neither.
pub fn open(
    dir: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
    cache: &Arc<BlockCache>,
) -> Result<Values, TablesError> {
    let raw = path(dir, mover, other);
    if raw.exists() {
        return read(&raw, fingerprint, mover, other);
    }
    let packed = compact_path(dir, mover, other);
    if packed.exists() {
        return read_compact(&packed, fingerprint, mover, other, cache);
    }
    Err(TablesError::NotBuilt { mover, other })
}

/// Whether the table of pair `(mover, other)` is in `dir`, as a file or kept packed.
pub fn exists(dir: &Path, mover: usize, other: usize) -> bool {
    path(dir, mover, other).exists() || compact_path(dir, mover, other).exists()
}

/// Writes a table atomically.
pub fn write(
    dir: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
    values: &Values,
) -> Result<(), TablesError> {
    let data = values.to_bytes();
    let mut head = LAYOUT.blank(fingerprint);
    head[16..19].copy_from_slice(&[mover as u8, other as u8, values.width()]);
    put_u64(&mut head, 24, values.len() as u64);
    LAYOUT.seal(&mut head, checksum(&data));
    Ok(durable::write_atomic_parts(
        &path(dir, mover, other),
        &[&head, &data],
    )?)
}

/// What a table file's header says.
pub struct Header {
    /// What every format's header says: the fingerprint of the rules the table was made for
    /// (`tables::fingerprint`) and the checksum of the values (`checksum`).
    pub head: crate::shipped::Header,
    /// The pieces of the side to move.
    pub mover: usize,
    /// The pieces of the other side.
    pub other: usize,
    /// Bytes per value.
    pub width: u8,
    /// The number of values (slots of the pair's index).
    pub slots: u64,
}

/// A table's or a placing group's file refused by its header (`fault`).
pub(super) fn refused(path: &Path, fault: HeaderError) -> TablesError {
    TablesError::HeaderFault {
        path: path.to_path_buf(),
        fault,
    }
}

/// The header of `layout` at the start of the open `file` (of `path`), read and checked (the
/// magic, the version, whole: `Layout::read`), and its bytes.
pub(super) fn read_head(
    file: impl Read,
    path: &Path,
    layout: &'static Layout,
) -> Result<(crate::shipped::Header, Vec<u8>), TablesError> {
    let mut bytes = Vec::with_capacity(layout.len);
    file.take(layout.len as u64)
        .read_to_end(&mut bytes)
        .map_err(|source| TablesError::Header {
            path: path.to_path_buf(),
            source,
        })?;
    let head = layout.read(&bytes).map_err(|fault| refused(path, fault))?;
    Ok((head, bytes))
}

/// The header at the start of the open `file` (of `path`); the error names the file and what
/// is wrong.
fn header(file: impl Read, path: &Path) -> Result<Header, TablesError> {
    let (head, bytes) = read_head(file, path, &LAYOUT)?;
    Ok(Header {
        head,
        mover: bytes[16] as usize,
        other: bytes[17] as usize,
        width: bytes[18],
        slots: u64_at(&bytes, 24),
    })
}

/// Reads the table of pair `(mover, other)` made for the rules of `fingerprint`, checking its
/// header, size and checksum. The values stay in the file, mapped (`mapped`); the file is opened
/// once, so the header and the values checked are the same file's.
pub fn read(
    path: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
) -> Result<Values, TablesError> {
    let file = mapped::open_regular(path)?;
    let h = header(&file, path)?;
    check_header(&h, path, fingerprint, mover, other)?;
    let mapping = Mapping::of_file(&file, path, HEADER)?;
    let data = mapping.bytes();
    let path = path.to_path_buf();
    let bytes = data.len();
    let size = |width: u8| h.slots * u64::from(width);
    if bytes as u64 != size(h.width) {
        let (slots, width) = (h.slots, h.width);
        return Err(if bytes as u64 == size(3 - width) {
            TablesError::WidthMismatch {
                path,
                width,
                bytes,
                slots,
            }
        } else if (bytes as u64) < size(width) {
            TablesError::Cut {
                path,
                bytes,
                slots,
                width,
            }
        } else {
            TablesError::Overlong {
                path,
                bytes,
                slots,
                width,
            }
        });
    }
    let (sum, longest) = checksum_and_longest(data, h.width);
    h.head
        .check_sum(sum)
        .map_err(|fault| refused(&path, fault))?;
    Ok(Values::Mapped(Arc::new(mapping), h.width, longest))
}

/// Checks what a header says against what the file should hold: the rules, the pair, the
/// number of values and their width.
fn check_header(
    h: &Header,
    path: &Path,
    fingerprint: u64,
    mover: usize,
    other: usize,
) -> Result<(), TablesError> {
    h.head
        .check_rules(fingerprint)
        .map_err(|fault| refused(path, fault))?;
    let path = path.to_path_buf();
    if (h.mover, h.other) != (mover, other) {
        return Err(TablesError::WrongPair {
            path,
            held_mover: h.mover,
            held_other: h.other,
            mover,
            other,
        });
    }
    if !(1..=2).contains(&h.width) {
        return Err(TablesError::BadWidth {
            path,
            width: h.width,
        });
    }
    let expected = pair_len(mover, other);
    if h.slots != expected {
        return Err(TablesError::BadHeader {
            path,
            slots: h.slots,
            mover,
            other,
            expected,
        });
    }
    Ok(())
}

/// The tables of a directory, as (mover, other, path), in order of pieces: its table files,
/// and the tables a build kept packed in its `compact` folder (`compact`) instead (a table with
/// both is listed by its file).
pub fn list(dir: &Path) -> Result<Vec<(usize, usize, PathBuf)>, TablesError> {
    let mut out = named(dir, ".tbl")?;
    let compact = dir.join(COMPACT).join("moving");
    if compact.is_dir() {
        for (m, o, p) in named(&compact, ".pk")? {
            if !out.iter().any(|&(a, b, _)| (a, b) == (m, o)) {
                out.push((m, o, p));
            }
        }
    }
    out.sort_by_key(|&(m, o, _)| (m + o, m, o));
    Ok(out)
}

/// The files of `folder` named `<m>-<o>` and `suffix`, as (m, o, path).
fn named(folder: &Path, suffix: &str) -> Result<Vec<(usize, usize, PathBuf)>, TablesError> {
    let entries = std::fs::read_dir(folder).map_err(|source| TablesError::ReadDir {
        dir: folder.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(suffix) else {
            continue;
        };
        let Some((m, o)) = stem.split_once('-') else {
            continue;
        };
        let pieces = 3..=MAX_PIECES as usize;
        match (m.parse::<usize>(), o.parse::<usize>()) {
            (Ok(m), Ok(o)) if pieces.contains(&m) && pieces.contains(&o) => {
                let path = entry.path();
                // Only a regular file (or a link to one) is read: opening a named pipe would
                // wait for a writer. A name whose file cannot be looked at is kept, for its
                // reader to say why.
                let odd = std::fs::metadata(&path).ok();
                if let Some(kind) = odd.as_ref().and_then(crate::input_file::not_regular) {
                    log::warn!("{}: {kind}, not a regular file: skipped", path.display());
                } else {
                    out.push((m, o, path));
                }
            }
            _ => log::warn!("{}: not a table's name: ignored", entry.path().display()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::values::Value;

    use crate::tables::scratch::scratch;

    #[test]
    fn a_table_read_back_is_mapped_and_holds_what_was_written() {
        let dir = scratch("mapped");
        let n = pair_len(3, 3) as usize;
        // A byte a value, then two (one distance past 127 plies).
        for longest in [100u16, 300] {
            let values = fixture_values(longest);
            write(&dir.0, 7, 3, 3, &values).unwrap();
            let read = read(&path(&dir.0, 3, 3), 7, 3, 3).unwrap();
            assert!(matches!(read, Values::Mapped(..)));
            assert_eq!(read.width(), if longest > 127 { 2 } else { 1 });
            assert_eq!(read.len(), n);
            assert_eq!(read.longest(), values.longest());
            for slot in (0..n).step_by(997).chain([n - 1]) {
                assert_eq!(read.get(slot), values.get(slot), "slot {slot}");
            }
            assert_eq!(read, values);
            // A value changed in memory leaves the file as it was.
            let mut changed = read.clone();
            changed.set(0, Value::Draw);
            assert_eq!(changed.get(0), Value::Draw);
            assert_eq!(read.get(0), values.get(0));
        }
    }

    /// The values of the old format's fixture: distances up to `longest`.
    fn fixture_values(longest: u16) -> Values {
        let n = pair_len(3, 3) as usize;
        let codes: Vec<u16> = (0..n)
            .map(|i| match i % 3 {
                0 => Value::Win(1 + (i as u16 % longest)).code(),
                1 => Value::Loss(i as u16 % longest).code(),
                _ => Value::Draw.code(),
            })
            .collect();
        Values::from_codes(codes)
    }

    /// The file written today is byte for byte the one the code before the shared header wrote
    /// (its length and checksum, taken then), and reads back.
    #[test]
    fn a_table_file_is_written_as_before_the_shared_header_and_reads_back() {
        let dir = scratch("as-before");
        for (longest, len, sum) in [
            (100, 210_180, 0x2aa9_24ae_ea39_4622),
            (300, 420_320, 0x348d_7f99_a0c6_8ce0),
        ] {
            let values = fixture_values(longest);
            write(&dir.0, 7, 3, 3, &values).unwrap();
            let bytes = std::fs::read(path(&dir.0, 3, 3)).unwrap();
            assert_eq!((bytes.len(), checksum(&bytes)), (len, sum), "{longest}");
            assert_eq!(read(&path(&dir.0, 3, 3), 7, 3, 3).unwrap(), values);
        }
    }

    #[test]
    fn each_fault_of_a_tables_header_is_refused_in_its_words() {
        let dir = scratch("header-faults");
        write(&dir.0, 7, 3, 3, &fixture_values(100)).unwrap();
        let file = path(&dir.0, 3, 3);
        let good = std::fs::read(&file).unwrap();
        let refused = |bytes: &[u8], fingerprint: u64| {
            std::fs::write(&file, bytes).unwrap();
            read(&file, fingerprint, 3, 3).unwrap_err().to_string()
        };
        let mut magic = good.clone();
        magic[7] = b'2';
        let mut damaged = good.clone();
        damaged[1000] ^= 1;
        for (e, said) in [
            (refused(&magic, 7), "3-3.tbl: not a moulin table file"),
            (
                refused(&good, 8),
                "3-3.tbl: made for other rules (fingerprint 0000000000000007, the rules in \
                 force have 0000000000000008): build tables for these rules in another directory",
            ),
            (
                refused(&damaged, 7),
                "3-3.tbl: checksum mismatch of its values: the file is damaged; delete it and \
                 build it again",
            ),
            (
                refused(&good[..39], 7),
                "3-3.tbl: cut inside its header (39 bytes of 40): not a whole table; delete it \
                 and build it again",
            ),
        ] {
            assert!(e.ends_with(said), "{e}");
        }
    }

    #[test]
    fn a_cut_table_is_refused_by_name() {
        let dir = scratch("cut");
        let values = Values::from_codes(vec![0; pair_len(3, 3) as usize]);
        write(&dir.0, 7, 3, 3, &values).unwrap();
        let file = path(&dir.0, 3, 3);
        let bytes = std::fs::read(&file).unwrap();
        for keep in [HEADER, HEADER + 10] {
            std::fs::write(&file, &bytes[..keep]).unwrap();
            let e = read(&file, 7, 3, 3).unwrap_err().to_string();
            assert!(e.contains("3-3.tbl") && e.contains("cut"), "{e}");
        }
    }

    /// A table cut short while mapped (the same file): a read of a page past the new end gives
    /// a zero and marks the values as not to be trusted (`faults`), where it ended the process
    /// before.
    #[test]
    fn a_table_cut_while_mapped_reads_as_faulted_not_a_crash() {
        crate::tables::faults::catch_faults().unwrap();
        let dir = scratch("faulted");
        let values = Values::from_codes(vec![5; pair_len(3, 3) as usize]);
        write(&dir.0, 7, 3, 3, &values).unwrap();
        let file = path(&dir.0, 3, 3);
        let read = read(&file, 7, 3, 3).unwrap();
        assert_eq!(read.get(100_000), Value::Win(5));
        assert!(read.trusted());
        assert!(read.mapping().unwrap().change().is_none());
        std::fs::OpenOptions::new()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(0)
            .unwrap();
        assert_eq!(read.get(100_000), Value::Draw);
        assert!(!read.trusted());
        let change = read.mapping().unwrap().change().unwrap();
        assert!(matches!(change, mapped::Change::Faulted), "{change}");
    }
}
