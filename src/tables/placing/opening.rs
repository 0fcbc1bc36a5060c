//! The opening's solution: the groups of the placing solution that hold every position of the
//! first plies of a game, in one compressed file small enough to ship with the engine (issue
//! 53), made from a built solution (`moulin tables opening`) and read whole into memory, each
//! group unpacked the first time it is probed.
//!
//! A group with `left` placements left holds the positions of ply `2 * pieces - left`, so the
//! positions of plies 0 to `plies` are the groups with `left >= 2 * pieces - plies`. A group's
//! values are its `.plc` file's (`store`, `packed`: four to a byte, in the order of its pairs'
//! index), each compressed on its own as one zstd frame.
//!
//! ```text
//!  bytes  0..8   magic "MOULOPN1"
//!  bytes  8..12  the format's version (VERSION), little-endian
//!  byte  12      codec: 1, zstd (one frame a group)
//!  byte  13      pieces a side; byte 14: plies (positions of plies 0 to it); byte 15: zero
//!  bytes 16..24  fingerprint of the rules (placing::fingerprint), little-endian
//!  bytes 24..28  number of groups, little-endian; bytes 28..32: zero
//!  bytes 32..40  checksum of the whole file, these 8 bytes left out (`whole_checksum`)
//!  bytes 40..    the group table, 40 bytes a group: placements left, pieces of the side to
//!                move, of the other side, 5 zero bytes; then, little-endian words: the slots,
//!                the offset of its compressed values after the table, their length, and the
//!                checksum of its packed values (tables::checksum::checksum)
//!  then          the groups' compressed values, in the table's order
//! ```
//!
//! The header is shipped data's (`shipped::header`, `LAYOUT`), its codec, pieces, plies and
//! groups its own. Loading reads the whole file (at most `MAX_FILE_BYTES`) and checks it (header, the rules'
//! fingerprint, every group of those plies there once, the file's checksum) before any value is
//! used: a file that fails is refused whole (`TablesError::Opening`, naming it and what is
//! wrong). A group is decompressed when it is first probed, its size and checksum checked then
//! (a group that fails answers nothing, with one error in the log); `Opening::unpack_all`
//! decompresses and checks every group at once, as making and verifying the file do.

use super::packed;
use super::solution::{Solution, Unpack};
use super::{fingerprint, unsupported};
use crate::durable;
use crate::job_progress::Progress;
use crate::rules::Rules;
use crate::shipped::le_bytes::{put_u32, u32_at, u64_at};
use crate::shipped::{Header, HeaderError, Layout, Loaded, Origin, Source};
use crate::tables::checksum::checksum;
use crate::tables::frame;
use crate::tables::groups::{self, Group};
use crate::tables::index::pair_len;
use crate::tables::tables_error::TablesError;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The bytes every opening's solution file begins with, whatever its version (what a writer
/// recognises as its own output).
pub const FAMILY: &[u8; 7] = b"MOULOPN";
/// The version of the format this code reads and writes.
pub const VERSION: u32 = 1;
/// The codec of the groups' values: zstd, one frame a group.
pub const CODEC_ZSTD: u8 = 1;
/// The header of an opening's solution.
static LAYOUT: Layout = Layout {
    what: "an opening's solution (moulin tables opening makes one)",
    magic: *b"MOULOPN1",
    version: Some(VERSION),
    fingerprint_at: 16,
    checksum_at: Some(32),
    covers: "the whole file",
    len: 40,
};
const HEADER: usize = LAYOUT.len;
const ENTRY: usize = 40;
/// The largest file the engine reads (the standard game's first ten plies take a few MB).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The default file name of a variant's opening solution: `<variant>-opening.sol`, looked for
/// where the book is (beside the binary, in `book/` beside it, in the repository's `book/`).
pub fn file_name(variant: &str) -> String {
    format!("{variant}-opening.sol")
}

/// The groups that hold the positions of plies 0 to `plies` of a game of `rules`, in the order
/// of `groups::all` (the last placement first). `plies` is at most `2 * pieces - 1`: the last
/// placing ply.
pub fn groups_of(rules: &Rules, plies: u8) -> Vec<Group> {
    let first_left = (2 * rules.pieces).saturating_sub(plies);
    groups::all(rules)
        .into_iter()
        .filter(|g| g.left >= first_left)
        .collect()
}

/// The ply of the positions of `group` in a game of `pieces` a side.
pub fn ply_of(pieces: u8, group: Group) -> u8 {
    2 * pieces - group.left
}

/// What one ply takes in a file: its groups, their packed values' bytes and compressed bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlySize {
    /// The ply.
    pub ply: u8,
    /// Its groups.
    pub groups: usize,
    /// The bytes of their packed values (two bits a slot).
    pub raw: u64,
    /// The bytes of their compressed values.
    pub compressed: u64,
}

/// A file made (`write`): the bytes of each ply, and the file's size.
#[derive(Debug)]
pub struct Made {
    /// Ply by ply, from ply 0.
    pub plies: Vec<PlySize>,
    /// The file's size in bytes, header and group table included.
    pub file_bytes: u64,
}

/// One group's line of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    group: Group,
    slots: u64,
    offset: u64,
    length: u64,
    checksum: u64,
}

/// The checksum of a whole file: its bytes mixed, those of the checksum's own word left out.
fn whole_checksum(bytes: &[u8]) -> u64 {
    crate::rng::mix(checksum(&bytes[..32]) ^ checksum(&bytes[HEADER..]).rotate_left(17))
}

/// Writes the opening's solution of plies 0 to `plies` of a game of `rules`, taken from
/// `solution` (a directory's, whole), to `path` atomically, the groups compressed on every
/// thread (`progress` counts their bytes). What each ply takes.
///
/// # Errors
///
/// Rules the placing solution does not serve, plies past the placing, a group the solution
/// does not hold, or the file that cannot be written.
pub fn write(
    path: &Path,
    rules: &Rules,
    plies: u8,
    solution: &Solution,
    progress: &dyn Progress,
) -> Result<Made, TablesError> {
    if let Some(e) = unsupported(rules) {
        return Err(e);
    }
    let n = rules.pieces;
    if plies >= 2 * n || solution.pieces() != n {
        return Err(TablesError::Opening {
            origin: Origin::File(path.to_path_buf()),
            what: Box::new(Flaw::PlacingEnds {
                plies,
                last: 2 * n - 1,
            }),
        });
    }
    let wanted = groups_of(rules, plies);
    let raw_total: u64 = wanted
        .iter()
        .map(|g| packed::bytes_for(pair_len(g.mover as usize, g.other as usize)) as u64)
        .sum();
    progress.stage(raw_total, 0, "compressing ", "bytes");
    let compressed: Vec<(Group, u64, u64, Vec<u8>)> = wanted
        .par_iter()
        .map(|&g| {
            let values = solution
                .group_bytes(g)
                .ok_or_else(|| TablesError::PlacingMissing {
                    group: g.to_string(),
                })?;
            let packed = frame::compress(&values);
            progress.advance(values.len() as u64);
            Ok((g, values.len() as u64, checksum(&values), packed))
        })
        .collect::<Result<_, TablesError>>()?;
    progress.finish();
    let mut table = Vec::with_capacity(compressed.len() * ENTRY);
    let mut offset = 0u64;
    let mut sizes: Vec<PlySize> = (0..=plies)
        .map(|ply| PlySize {
            ply,
            ..PlySize::default()
        })
        .collect();
    for (g, raw, sum, packed) in &compressed {
        let length = packed.len() as u64;
        table.extend_from_slice(&[g.left, g.mover, g.other, 0, 0, 0, 0, 0]);
        for w in [
            pair_len(g.mover as usize, g.other as usize),
            offset,
            length,
            *sum,
        ] {
            table.extend_from_slice(&w.to_le_bytes());
        }
        offset += length;
        let size = &mut sizes[ply_of(n, *g) as usize];
        size.groups += 1;
        size.raw += raw;
        size.compressed += length;
    }
    let mut file = header(rules, plies, compressed.len());
    file.reserve(table.len() + offset as usize);
    file.extend_from_slice(&table);
    for (_, _, _, packed) in &compressed {
        file.extend_from_slice(packed);
    }
    let sum = whole_checksum(&file);
    LAYOUT.seal(&mut file, sum);
    durable::write_atomic(path, &file)?;
    Ok(Made {
        plies: sizes,
        file_bytes: file.len() as u64,
    })
}

/// The header of an opening's solution of plies 0 to `plies` of a game of `rules` in `groups`
/// groups, but its checksum (`Layout::seal`, once the file is whole).
fn header(rules: &Rules, plies: u8, groups: usize) -> Vec<u8> {
    let mut head = LAYOUT.blank(fingerprint(rules));
    head[12..15].copy_from_slice(&[CODEC_ZSTD, rules.pieces, plies]);
    put_u32(&mut head, 24, groups as u32);
    head
}

/// An opening's solution read from its file.
#[derive(Debug)]
pub struct Opening {
    /// Its groups, in memory, each unpacked when first probed.
    pub solution: Solution,
    /// The plies it covers: the positions of plies 0 to this.
    pub plies: u8,
    /// The file's size in bytes.
    pub file_bytes: u64,
    /// The time it took to read and check it, in seconds.
    pub secs: f64,
    /// What was loaded (the file, to name it in an error).
    loaded: Box<Loaded>,
}

impl Opening {
    /// What was loaded, in one line: the file, its size, its rules and its checksum.
    pub fn loaded(&self) -> &Loaded {
        &self.loaded
    }

    /// Decompresses every group now and checks each against its size and checksum, returning
    /// the time it took in seconds.
    ///
    /// # Errors
    ///
    /// A group that does not decompress, or whose values are not the table's
    /// (`TablesError::Opening`, naming the group; the log says what is wrong with it).
    pub fn unpack_all(&self) -> Result<f64, TablesError> {
        let start = Instant::now();
        let groups: Vec<Group> = self.solution.groups().collect();
        let failed = groups
            .par_iter()
            .filter(|&&g| self.solution.group_bytes(g).is_none())
            .min()
            .copied();
        if let Some(group) = failed {
            return Err(TablesError::Opening {
                origin: self.loaded.origin.clone(),
                what: Box::new(Flaw::Group(group, GroupFlaw::Unpacked)),
            });
        }
        Ok(start.elapsed().as_secs_f64())
    }
}

/// One group's compressed values in the file, decompressed when first asked for.
struct Compressed {
    file: Arc<Cow<'static, [u8]>>,
    /// Where the payload (the groups' frames) starts in `file`.
    payload: usize,
    entry: Entry,
    origin: Origin,
    values: OnceLock<Option<Vec<u8>>>,
}

impl Unpack for Compressed {
    fn bytes(&self) -> Option<&[u8]> {
        self.values
            .get_or_init(
                || match decompress(&self.file[self.payload..], &self.entry) {
                    Ok(values) => Some(values),
                    Err(e) => {
                        log::error!("{}: not used: {e}", self.origin);
                        None
                    }
                },
            )
            .as_deref()
    }

    fn unpacked(&self) -> usize {
        self.values
            .get()
            .and_then(Option::as_ref)
            .map_or(0, Vec::len)
    }
}

/// Reads the opening's solution at `path` for a game of `rules` and checks it (each group is
/// decompressed when first probed, or all by `Opening::unpack_all`).
///
/// # Errors
///
/// A file that cannot be read (`TablesError::Open`), or one that is not an opening's solution,
/// is in another version or codec, is made for other rules, is cut or damaged
/// (`TablesError::Opening`, saying which).
pub fn read(path: &Path, rules: &Rules) -> Result<Opening, TablesError> {
    load(&Source::File(path.to_path_buf()), rules)
}

/// Reads the opening's solution `source` gives (built in, or a file) for a game of `rules`, as
/// `read` reads a file.
pub fn load(source: &Source, rules: &Rules) -> Result<Opening, TablesError> {
    let start = Instant::now();
    let origin = source.origin();
    let bytes = match source {
        // Built in: read in place, never copied.
        Source::BuiltIn(b) => Cow::Borrowed(b.bytes),
        Source::File(path) => {
            let open = |source| TablesError::Open {
                path: path.clone(),
                source,
            };
            let file = crate::input_file::open_regular(path).map_err(open)?;
            Cow::Owned(crate::input_file::read_file_capped(file, MAX_FILE_BYTES).map_err(open)?)
        }
    };
    let bad = |what: Flaw| TablesError::Opening {
        origin: origin.clone(),
        what: Box::new(what),
    };
    let head = Head::read(&bytes, rules).map_err(bad)?;
    let entries = head.entries(&bytes, rules).map_err(bad)?;
    let payload = HEADER + entries.len() * ENTRY;
    let file = Arc::new(bytes);
    let groups: HashMap<Group, Box<dyn Unpack>> = entries
        .into_iter()
        .map(|entry| {
            let group: Box<dyn Unpack> = Box::new(Compressed {
                file: Arc::clone(&file),
                payload,
                entry,
                origin: origin.clone(),
                values: OnceLock::new(),
            });
            (entry.group, group)
        })
        .collect();
    Ok(Opening {
        solution: Solution::from_unpackers(rules.pieces, groups),
        plies: head.plies,
        file_bytes: file.len() as u64,
        secs: start.elapsed().as_secs_f64(),
        loaded: Box::new(Loaded {
            kind: "opening solution",
            origin,
            bytes: file.len() as u64,
            fingerprint: head.header.fingerprint,
            checksum: head.header.checksum,
        }),
    })
}

/// What is wrong with an opening's solution file, or with the plies asked of one.
#[derive(Debug, thiserror::Error)]
pub enum Flaw {
    /// Its header is not an opening's solution's of this version, or the file's checksum does
    /// not match (`shipped::header`).
    #[error("{0}")]
    Header(#[from] HeaderError),
    /// Another codec.
    #[error("codec {0}, this engine reads codec {CODEC_ZSTD} (zstd)")]
    Codec(u8),
    /// Rules without a placing solution.
    #[error("the rules in force have no placing solution: {0}")]
    Unsupported(Box<TablesError>),
    /// Made for other rules.
    #[error(
        "made for other rules (fingerprint {found:016x}, {pieces} pieces a side; the rules in \
         force have {expected:016x}, {in_force} pieces a side)"
    )]
    OtherRules {
        /// The file's fingerprint.
        found: u64,
        /// The file's pieces a side.
        pieces: u8,
        /// The fingerprint of the rules in force.
        expected: u64,
        /// Their pieces a side.
        in_force: u8,
    },
    /// Plies that reach past the placing.
    #[error("{0} plies, past the placing")]
    PastThePlacing(u8),
    /// Plies asked of a game whose placing ends before them.
    #[error("plies {plies}: the placing ends at ply {last}")]
    PlacingEnds {
        /// The plies asked.
        plies: u8,
        /// The placing's last ply.
        last: u8,
    },
    /// A file cut inside its group table.
    #[error("cut short: {len} bytes, its table of {groups} groups ends at byte {table_end}")]
    TableCut {
        /// The file's length.
        len: usize,
        /// The groups its header names.
        groups: usize,
        /// Where their table ends.
        table_end: u64,
    },
    /// A group count that does not match the plies.
    #[error("{groups} groups; plies 0 to {plies} have {expected}")]
    GroupCount {
        /// The groups in the file.
        groups: usize,
        /// Its plies.
        plies: u8,
        /// The groups those plies have.
        expected: usize,
    },
    /// A group table entry out of place: (group, slots, offset) found and expected.
    #[error(
        "group table entry {index} holds group {} of {} slots at {}; expected {} of {} at {}",
        found.0, found.1, found.2, expected.0, expected.1, expected.2
    )]
    Entry {
        /// The entry's index.
        index: usize,
        /// What it holds.
        found: (Group, u64, u64),
        /// What belongs there.
        expected: (Group, u64, u64),
    },
    /// A file whose length is not what its table says.
    #[error(
        "{}: {len} bytes, its table says {end}",
        if len < end { "cut short" } else { "bytes past its end" }
    )]
    Length {
        /// The file's length.
        len: u64,
        /// The length its table gives.
        end: u64,
    },
    /// One group's values are damaged.
    #[error("group {0}: {1}")]
    Group(Group, GroupFlaw),
}

/// What is wrong with one group's compressed values.
#[derive(Debug, thiserror::Error)]
pub enum GroupFlaw {
    /// The frame does not decompress to the bytes its slots take.
    #[error("its frame {0}")]
    Decompress(frame::FrameError),
    /// Its values' checksum does not match.
    #[error("checksum mismatch of its values")]
    Checksum,
    /// It did not unpack (the log says why).
    #[error("its values do not unpack")]
    Unpacked,
}

/// What a file's header says, checked against the rules in force.
struct Head {
    header: Header,
    plies: u8,
    groups: usize,
}

impl Head {
    /// The header of `bytes`, each field checked: the magic, the version, the codec, the
    /// rules' fingerprint and pieces, the plies. The error says what is wrong.
    fn read(bytes: &[u8], rules: &Rules) -> Result<Head, Flaw> {
        let header = LAYOUT.read(bytes)?;
        if bytes[12] != CODEC_ZSTD {
            return Err(Flaw::Codec(bytes[12]));
        }
        if let Some(e) = unsupported(rules) {
            return Err(Flaw::Unsupported(Box::new(e)));
        }
        let (found, expected) = (header.fingerprint, fingerprint(rules));
        if found != expected || bytes[13] != rules.pieces {
            return Err(Flaw::OtherRules {
                found,
                pieces: bytes[13],
                expected,
                in_force: rules.pieces,
            });
        }
        let plies = bytes[14];
        if plies >= 2 * rules.pieces {
            return Err(Flaw::PastThePlacing(plies));
        }
        let groups = u32_at(bytes, 24) as usize;
        let table_end = HEADER as u64 + groups as u64 * ENTRY as u64;
        if (bytes.len() as u64) < table_end {
            return Err(Flaw::TableCut {
                len: bytes.len(),
                groups,
                table_end,
            });
        }
        Ok(Head {
            header,
            plies,
            groups,
        })
    }

    /// The group table of `bytes`, checked: the groups of the plies, each once, in order, their
    /// slots as their pairs have, their values one after the other to the file's end; and the
    /// file's checksum.
    fn entries(&self, bytes: &[u8], rules: &Rules) -> Result<Vec<Entry>, Flaw> {
        let expected = groups_of(rules, self.plies);
        if self.groups != expected.len() {
            return Err(Flaw::GroupCount {
                groups: self.groups,
                plies: self.plies,
                expected: expected.len(),
            });
        }
        let mut entries = Vec::with_capacity(self.groups);
        let mut next = 0u64;
        for (i, &wanted) in expected.iter().enumerate() {
            let at = HEADER + i * ENTRY;
            let e = Entry {
                group: Group {
                    left: bytes[at],
                    mover: bytes[at + 1],
                    other: bytes[at + 2],
                },
                slots: u64_at(bytes, at + 8),
                offset: u64_at(bytes, at + 16),
                length: u64_at(bytes, at + 24),
                checksum: u64_at(bytes, at + 32),
            };
            let slots = pair_len(wanted.mover as usize, wanted.other as usize);
            if e.group != wanted || e.slots != slots || e.offset != next {
                return Err(Flaw::Entry {
                    index: i,
                    found: (e.group, e.slots, e.offset),
                    expected: (wanted, slots, next),
                });
            }
            next = next.saturating_add(e.length);
            entries.push(e);
        }
        let end = HEADER as u64 + (self.groups * ENTRY) as u64 + next;
        if bytes.len() as u64 != end {
            return Err(Flaw::Length {
                len: bytes.len() as u64,
                end,
            });
        }
        self.header.check_sum(whole_checksum(bytes))?;
        Ok(entries)
    }
}

/// The packed values of the group of `entry`, from the payload: its frame decompressed (into at
/// most the bytes its slots take) and checked against the table's checksum.
fn decompress(payload: &[u8], e: &Entry) -> Result<Vec<u8>, Flaw> {
    // The table was checked: the frame lies inside the payload.
    let frame = &payload[e.offset as usize..(e.offset + e.length) as usize];
    let damaged = |why: GroupFlaw| Flaw::Group(e.group, why);
    let out = frame::decompress(frame, packed::bytes_for(e.slots))
        .map_err(|why| damaged(GroupFlaw::Decompress(why)))?;
    if checksum(&out) != e.checksum {
        return Err(damaged(GroupFlaw::Checksum));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The opening's solution that ships, made by the code before the shared header.
    fn shipped() -> (std::path::PathBuf, Vec<u8>) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/nine-opening.sol");
        let bytes = std::fs::read(&path).unwrap();
        (path, bytes)
    }

    #[test]
    fn the_shipped_opening_reads_as_before_and_its_header_is_written_as_it_was() {
        let (path, bytes) = shipped();
        let rules = Rules::nine();
        let o = read(&path, &rules).unwrap();
        assert_eq!((o.plies, o.solution.groups().count()), (10, 54));
        assert_eq!(o.file_bytes, 8_200_054);
        let loaded = o.loaded().to_string();
        let sum = format!("checksum {:016x}", u64_at(&bytes, 32));
        assert!(
            loaded.starts_with("opening solution ")
                && loaded.contains("nine-opening.sol: 8200054 bytes, rules ")
                && loaded.ends_with(&sum),
            "{loaded}"
        );
        let mut head = header(&rules, 10, 54);
        LAYOUT.seal(&mut head, u64_at(&bytes, 32));
        assert_eq!(head, bytes[..HEADER]);
    }

    #[test]
    fn each_fault_of_an_openings_header_is_refused_in_its_words() {
        let (_, good) = shipped();
        let nine = Rules::nine();
        let three = Rules {
            pieces: 3,
            ..Rules::nine()
        };
        let mut magic = good.clone();
        magic[3] = b'X';
        let mut version = good.clone();
        version[8] = 9;
        let mut damaged = good.clone();
        damaged[good.len() / 2] ^= 1;
        let dir = crate::tables::scratch::scratch("opening-faults");
        let file = dir.0.join("faulty.sol");
        for (bytes, rules, said) in [
            (&magic[..], &nine, "not an opening's solution"),
            (
                &version[..],
                &nine,
                "format version 9, this engine reads version 1",
            ),
            (&good[..], &three, "made for other rules"),
            (&damaged[..], &nine, "checksum mismatch of the whole file"),
            (&good[..20], &nine, "cut inside its header (20 bytes of 40)"),
            (&good[..good.len() - 3], &nine, "cut short"),
        ] {
            std::fs::write(&file, bytes).unwrap();
            let e = read(&file, rules).unwrap_err().to_string();
            assert!(
                e.contains("faulty.sol: not used: ") && e.contains(said),
                "{e}"
            );
        }
    }
}
