//! The files of the placing solution: one a group, `placing/<left>-<mover>-<other>.plc` in the
//! tables directory; the header is shipped data's (`shipped::header`, `LAYOUT`), its fields its
//! own.
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
use crate::shipped::le_bytes::{put_u64, u64_at};
use crate::shipped::{Header, Layout};
use crate::tables::checksum::checksum;
use crate::tables::file::{read_head, refused, values_layout};
use crate::tables::groups::Group;
use crate::tables::index::pair_len;
use crate::tables::mapped::{self, Mapping};
use crate::tables::tables_error::{PlacingFault, TablesError};
use std::path::{Path, PathBuf};

/// A group file's header: a table's (`file::values_layout`) under its own magic.
static LAYOUT: Layout = values_layout("a moulin placing file", *b"MOULPLC1");
const HEADER: usize = LAYOUT.len;

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
    let mut head = LAYOUT.blank(fingerprint);
    head[16..20].copy_from_slice(&[group.left, group.mover, group.other, pieces]);
    put_u64(&mut head, 24, slots);
    LAYOUT.seal(&mut head, checksum(packed_values));
    Ok(durable::write_atomic_parts(
        &path(dir, group),
        &[&head, packed_values],
    )?)
}

/// A group's values, mapped from its file.
pub struct Mapped {
    /// The mapping of the values (after the header).
    pub mapping: Mapping,
    /// The header, which gives the checksum of the values.
    pub head: Header,
}

impl Mapped {
    /// The packed values.
    pub fn bytes(&self) -> &[u8] {
        self.mapping.bytes()
    }

    /// Whether the values give the header's checksum (reads every byte).
    pub fn check(&self) -> Result<(), TablesError> {
        self.head
            .check_sum(checksum(self.bytes()))
            .map_err(|fault| refused(self.mapping.path(), fault))
    }
}

/// Opens the file of `group` in `dir`, made for the rules of `fingerprint` and `pieces` a side,
/// and checks its header and size (not its checksum: `Mapped::check`).
pub fn open(dir: &Path, fingerprint: u64, pieces: u8, group: Group) -> Result<Mapped, TablesError> {
    let path = path(dir, group);
    let file = mapped::open_regular(&path)?;
    let (header, head) = read_head(&file, &path, &LAYOUT)?;
    header
        .check_rules(fingerprint)
        .map_err(|fault| refused(&path, fault))?;
    let bad = |fault: PlacingFault| TablesError::PlacingHeader {
        path: path.clone(),
        fault,
    };
    let held = Group {
        left: head[16],
        mover: head[17],
        other: head[18],
    };
    if held != group || head[19] != pieces {
        return Err(bad(PlacingFault::OtherGroup {
            held,
            held_pieces: head[19],
            group,
            pieces,
        }));
    }
    let slots = u64_at(&head, 24);
    let expected = pair_len(group.mover as usize, group.other as usize);
    if slots != expected {
        return Err(bad(PlacingFault::Slots {
            slots,
            group,
            expected,
        }));
    }
    let mapping = Mapping::of_file(&file, &path, HEADER)?;
    let bytes = mapping.bytes().len();
    if bytes != packed::bytes_for(slots) {
        return Err(bad(PlacingFault::Bytes {
            bytes,
            slots,
            need: packed::bytes_for(slots),
        }));
    }
    Ok(Mapped {
        mapping,
        head: header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FINGERPRINT: u64 = 0x1234_5678_9abc_def0;
    const GROUP: Group = Group {
        left: 17,
        mover: 0,
        other: 1,
    };

    /// The fixture, written by the code before the shared header.
    fn fixture() -> Vec<u8> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shipped");
        std::fs::read(dir.join("placing-17-0-1.plc")).unwrap()
    }

    fn values() -> Vec<u8> {
        (0..packed::bytes_for(pair_len(0, 1)))
            .map(|i| (i * 37 % 256) as u8)
            .collect()
    }

    #[test]
    fn a_group_file_of_the_old_code_reads_back_and_is_written_as_it_was() {
        let dir = crate::tables::scratch::scratch("placing-as-before");
        std::fs::write(path(&dir.0, GROUP), fixture()).unwrap();
        let mapped = open(&dir.0, FINGERPRINT, 9, GROUP).unwrap();
        mapped.check().unwrap();
        assert_eq!(mapped.bytes(), values());
        drop(mapped);
        let e = open(&dir.0, FINGERPRINT, 12, GROUP)
            .err()
            .unwrap()
            .to_string();
        let said = "holds group 17-0-1 of a game of 9 pieces a side, not 17-0-1 of 12";
        assert!(e.contains(said), "{e}");
        write(&dir.0, FINGERPRINT, 9, GROUP, &values()).unwrap();
        assert_eq!(std::fs::read(path(&dir.0, GROUP)).unwrap(), fixture());
    }

    #[test]
    fn each_fault_of_a_group_files_header_is_refused_in_its_words() {
        let dir = crate::tables::scratch::scratch("placing-faults");
        let file = path(&dir.0, GROUP);
        let refused = |bytes: &[u8], fingerprint: u64| {
            std::fs::write(&file, bytes).unwrap();
            open(&dir.0, fingerprint, 9, GROUP).and_then(|m| m.check())
        };
        let good = fixture();
        let mut magic = good.clone();
        magic[0] = b'X';
        let mut damaged = good.clone();
        damaged[41] ^= 1;
        for (bytes, fingerprint, said) in [
            (&magic[..], FINGERPRINT, "not a moulin placing file"),
            (&good[..], 1, "made for other rules"),
            (&damaged[..], FINGERPRINT, "checksum mismatch of its values"),
            (
                &good[..12],
                FINGERPRINT,
                "cut inside its header (12 bytes of 40)",
            ),
        ] {
            let e = refused(bytes, fingerprint).unwrap_err().to_string();
            assert!(e.contains("17-0-1.plc: ") && e.contains(said), "{e}");
        }
    }
}
