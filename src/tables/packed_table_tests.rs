//! The tests of `packed_table`: a set of format 2 read, format 3 written and read back (a wide
//! table escaped, a placing group's spare slots filled), and each fault refused in its words.

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
fn a_packed_table_of_format_2_still_reads_back_and_format_3_is_written() {
    let (meta, values) = fixture_values();
    let table = open_bytes(&fixture(), 7).unwrap();
    assert_eq!(table.format(), (VERSION_2, Coding::default()));
    assert_eq!(*table.meta(), meta);
    assert_eq!(table.unpack_all(), values);
    table.check_all(|_| ()).unwrap();
    assert_eq!(table.pair(4000), Some([values[4000], values[4001]]));
    let dir = crate::tables::scratch::scratch("packed-as-before");
    let path = dir.0.join("3-3.pk");
    let bytes = write(&path, &meta, &values, Cut::DEFAULT, Effort::Strong).unwrap();
    let new = std::fs::read(&path).unwrap();
    assert_eq!(new.len() as u64, bytes);
    // The same frames but for their magic, and an index of half the bytes (the C library's
    // frames: a build without it packs at another level).
    if frame::strong() {
        assert_eq!(fixture().len() - new.len(), 3 * 4 + 3 * 8 + 4);
    }
    let table = open_bytes(&new, 7).unwrap();
    assert_eq!(table.format(), (VERSION, Coding::default()));
    assert_eq!(table.unpack_all(), values);
    table.check_all(|_| ()).unwrap();
}

/// `values` of `key` written in blocks of 4 KiB, opened again, unpacked and checked whole;
/// the table and its file's bytes.
fn round_trip(name: &str, key: Key, width: u8, values: &[u8]) -> (PackedTable, Vec<u8>) {
    let meta = Meta {
        key,
        fingerprint: 7,
        width,
        len: values.len() as u64,
        extra: 0,
        checksum: checksum(values),
    };
    let dir = crate::tables::scratch::scratch(name);
    let path = dir.0.join("t.pk");
    write(&path, &meta, values, Cut::DEFAULT, Effort::Strong).unwrap();
    let table = PackedTable::open(&path, key, 7, &Arc::default()).unwrap();
    assert_eq!(table.unpack_all(), values);
    let mut seen = Vec::new();
    table.check_all(|b| seen.extend_from_slice(b)).unwrap();
    assert_eq!(seen, values);
    (table, std::fs::read(&path).unwrap())
}

#[test]
fn a_wide_table_is_escaped_in_frames_of_two_blocks_and_reads_back() {
    // Distances past 126 plies in places, each escaped; 2.5 frames of two blocks.
    let codes: Vec<u16> = (0..5 * 1024 + 7u32)
        .map(|i| match i % 11 {
            0 => 0,
            1 => 0x8000 | (i % 300) as u16,
            _ => (i / 64 % 200) as u16,
        })
        .collect();
    let values: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
    let (table, _) = round_trip("packed-wide", Key::Moving(3, 4), 2, &values);
    let coded = table.format().1;
    assert!(
        coded.escaped && coded.shift == 1 && !coded.filled,
        "{coded:?}"
    );
    assert_eq!(table.frames, 2);
    for slot in (0..codes.len()).step_by(97) {
        let pair = table.pair(2 * slot as u64).unwrap();
        assert_eq!(u16::from_le_bytes(pair), codes[slot], "slot {slot}");
    }
    assert!(table.trusted());
}

#[test]
fn frames_of_several_blocks_read_back_block_by_block() {
    assert_eq!(Cut::new(4096, 4096), Some(Cut::DEFAULT));
    for (block, frame) in [(4096, 2048), (4096, 12288), (4096, 65536), (2048, 4096)] {
        assert_eq!(Cut::new(block, frame), None, "{block} {frame}");
    }
    let cut = Cut::new(4096, 16384).unwrap();
    // 70,000 bytes: four frames of four blocks and a last of one block and a bit; a wide
    // table's codes, every distance under 127 but some, with losses.
    let codes: Vec<u16> = (0..35_000u32)
        .map(|i| match i % 13 {
            0 => 0x8000 | (i % 140) as u16,
            _ => (i / 300 % 90) as u16,
        })
        .collect();
    let values: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
    let dir = crate::tables::scratch::scratch("packed-frames");
    for (width, default_shift) in [(1u8, 0u8), (2, 1)] {
        let meta = Meta {
            key: Key::Moving(3, 4),
            fingerprint: 7,
            width,
            len: values.len() as u64,
            extra: 0,
            checksum: checksum(&values),
        };
        for (cut, shift) in [(Cut::DEFAULT, default_shift), (cut, 2)] {
            let path = dir.0.join(format!("{width}-{shift}.pk"));
            let bytes = write(&path, &meta, &values, cut, Effort::Strong).unwrap();
            assert_eq!(std::fs::metadata(&path).unwrap().len(), bytes);
            let table = PackedTable::open(&path, meta.key, 7, &Arc::default()).unwrap();
            assert_eq!(table.format().1.shift, shift, "width {width}");
            assert_eq!(coding_for(&meta, cut).shift, shift);
            assert_eq!(table.unpack_all(), values);
            for at in (0..values.len() as u64 - 1).step_by(998) {
                let i = at as usize;
                assert_eq!(table.pair(at), Some([values[i], values[i + 1]]), "at {at}");
            }
            table.check_all(|_| ()).unwrap();
        }
    }
}

#[test]
fn a_placing_groups_spare_slots_are_filled_and_given_back() {
    use crate::tables::index::{Classes, PairIndex};
    use crate::tables::placing::packed::{get, pack_one};
    let group = crate::tables::groups::Group {
        left: 1,
        mover: 2,
        other: 3,
    };
    let classes = Classes::new(2);
    let index = PairIndex::new(2, 3, &classes);
    let codes: Vec<u8> = (0..index.len())
        .map(|s| {
            if index.is_canonical(s) {
                1 + (s / 5 % 3) as u8
            } else {
                0
            }
        })
        .collect();
    let values: Vec<u8> = codes.chunks(4).map(pack_one).collect();
    let (table, _) = round_trip("packed-group", Key::Placing(group), 0, &values);
    assert!(table.format().1.filled);
    for (slot, &c) in codes.iter().enumerate().filter(|(_, &c)| c != 0) {
        let b = table.byte(slot as u64 / 4).unwrap();
        assert_eq!(get(&[b], slot as u64 % 4), c, "slot {slot}");
    }
    // A group whose spare slots hold codes is stored as it is.
    let mut odd = codes.clone();
    let spare = odd.iter().position(|&c| c == 0).unwrap();
    odd[spare] = 3;
    let values: Vec<u8> = odd.chunks(4).map(pack_one).collect();
    let (table, _) = round_trip("packed-group-odd", Key::Placing(group), 0, &values);
    assert!(!table.format().1.filled);
}

#[test]
fn a_damaged_frame_or_coding_is_refused_never_a_panic() {
    let values: Vec<u8> = (0..3 * 4096u32)
        .flat_map(|i| ((i / 50 % 140) as u16).to_le_bytes())
        .collect();
    let (table, good) = round_trip("packed-damaged", Key::Moving(3, 4), 2, &values);
    let data = table.data;
    // A byte of the first frame changed: its checksum or its decoding fails.
    let mut frame = good.clone();
    frame[data + 10] ^= 0x55;
    let t = open_bytes_as(&frame, Key::Moving(3, 4)).unwrap();
    assert!(t.pair(0).is_none() && !t.trusted());
    let e = t.check_all(|_| ()).unwrap_err().to_string();
    assert!(
        e.contains("frame 0") && e.ends_with("the file is damaged"),
        "{e}"
    );
    // A coding no packer writes (a narrow table's values escaped, frames of 512 blocks), its
    // header sealed again.
    for (at, byte) in [(24, 1), (26, 9)] {
        let mut head = good.clone();
        head[at] = byte;
        let closing = closing_checksum(&head, &head[HEADER..data]);
        LAYOUT.seal(&mut head, closing);
        let e = open_bytes_as(&head, Key::Moving(3, 4))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("its header is damaged"), "byte {at}: {e}");
    }
}

fn open_bytes_as(bytes: &[u8], key: Key) -> Result<PackedTable, TablesError> {
    let dir = crate::tables::scratch::scratch("packed-bytes");
    let path = dir.0.join("t.pk");
    std::fs::write(&path, bytes).unwrap();
    PackedTable::open(&path, key, 7, &Arc::default())
}

#[test]
fn each_fault_of_a_packed_tables_header_is_refused_in_its_words() {
    let good = fixture();
    let mut magic = good.clone();
    magic[4] = b'X';
    let mut version = good.clone();
    version[8] = 4;
    let mut index = good.clone();
    index[HEADER + 8 * 4 + 1] ^= 1;
    for (bytes, fingerprint, said) in [
        (&magic[..], 7, "3-3.pk: not a moulin packed table"),
        (
            &version[..],
            7,
            "3-3.pk: format version 4, this engine reads version 3",
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
