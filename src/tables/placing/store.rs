//! The files of the placing solution: one a group, `placing/<left>-<mover>-<other>.plc` in the
//! tables directory.
//!
//! ```text
//!  bytes  0..8   magic "MOULPLC1"
//!  bytes  8..16  fingerprint of the rules (placing::fingerprint), little-endian
//!  byte  16      placements left; byte 17: pieces on the board of the side to move; byte 18:
//!                of the other side; byte 19: pieces a side
//!  bytes 20..24  zero
//!  bytes 24..32  number of slots, little-endian
//!  bytes 32..40  checksum of the values (tables::checksum::checksum), little-endian
//!  bytes 40..    the values, four to a byte (placing::packed), in the order of
//!                PairIndex(mover, other), as the moving tables
//! ```
//!
//! Files are written atomically: a group is on disk whole or not at all, so a stopped build
//! keeps every finished group.

use super::packed;
use crate::durable;
use crate::tables::checksum::checksum;
use crate::tables::file::read_head;
use crate::tables::groups::Group;
use crate::tables::index::pair_len;
use crate::tables::mapped::{self, Mapping};
use crate::tables::tables_error::TablesError;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"MOULPLC1";
const HEADER: usize = 40;

/// The folder of the placing files in a tables directory.
pub fn folder(tables_dir: &Path) -> PathBuf {
    tables_dir.join("placing")
}

/// The file of `group` in the placing folder `dir`.
pub fn path(dir: &Path, group: Group) -> PathBuf {
    dir.join(format!("{group}.plc"))
}

/// Writes a group's packed values atomically.
pub fn write(
    dir: &Path,
    fingerprint: u64,
    pieces: u8,
    group: Group,
    packed_values: &[u8],
) -> Result<(), TablesError> {
    let slots = pair_len(group.mover as usize, group.other as usize);
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&fingerprint.to_le_bytes());
    head.extend_from_slice(&[group.left, group.mover, group.other, pieces, 0, 0, 0, 0]);
    head.extend_from_slice(&slots.to_le_bytes());
    head.extend_from_slice(&checksum(packed_values).to_le_bytes());
    Ok(durable::write_atomic_parts(
        &path(dir, group),
        &[&head, packed_values],
    )?)
}

/// A group's values, mapped from its file.
pub struct Mapped {
    /// The mapping of the values (after the header).
    pub mapping: Mapping,
    /// The checksum the header gives.
    pub checksum: u64,
}

impl Mapped {
    /// The packed values.
    pub fn bytes(&self) -> &[u8] {
        self.mapping.bytes()
    }

    /// Whether the values give the header's checksum (reads every byte).
    pub fn check(&self) -> Result<(), TablesError> {
        if checksum(self.bytes()) == self.checksum {
            Ok(())
        } else {
            Err(TablesError::Checksum {
                path: self.mapping.path().to_path_buf(),
            })
        }
    }
}

fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Opens the file of `group` in `dir`, made for the rules of `fingerprint` and `pieces` a side,
/// and checks its header and size (not its checksum: `Mapped::check`).
pub fn open(dir: &Path, fingerprint: u64, pieces: u8, group: Group) -> Result<Mapped, TablesError> {
    let path = path(dir, group);
    let file = mapped::open_regular(&path)?;
    let head = read_head(&file, &path, HEADER)?;
    if &head[..8] != MAGIC {
        return Err(TablesError::NotATable { path });
    }
    let found = word(&head, 8);
    if found != fingerprint {
        return Err(TablesError::Fingerprint {
            path,
            found,
            expected: fingerprint,
        });
    }
    let bad = |what: String| TablesError::PlacingHeader {
        path: path.clone(),
        what,
    };
    let held = Group {
        left: head[16],
        mover: head[17],
        other: head[18],
    };
    if held != group || head[19] != pieces {
        return Err(bad(format!(
            "holds group {held} of a game of {} pieces a side, not {group} of {pieces}",
            head[19]
        )));
    }
    let slots = word(&head, 24);
    let expected = pair_len(group.mover as usize, group.other as usize);
    if slots != expected {
        return Err(bad(format!(
            "{slots} values, a group {group} has {expected}"
        )));
    }
    let mapping = Mapping::of_file(&file, &path, HEADER)?;
    let bytes = mapping.bytes().len();
    if bytes != packed::bytes_for(slots) {
        return Err(bad(format!(
            "{bytes} bytes of values, {slots} values take {}",
            packed::bytes_for(slots)
        )));
    }
    Ok(Mapped {
        mapping,
        checksum: word(&head, 32),
    })
}
