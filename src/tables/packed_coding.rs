//! How a packed table's values are written into its frames before zstd, in format 3
//! (`packed_table`): a wide table's values escaped to a byte each, and a placing group's spare
//! slots filled from their neighbours; and back. Measured on samples of the standard game's
//! tables (docs/results.md, 2026-12-07): the escape takes a wide table's frames of 4 KiB of values
//! to 0.83 of their bytes, and of 8 KiB to 0.75; filling the spare slots takes a placing group
//! to 0.16 to 0.95 of its bytes (the fewer the mover's pieces, the more of its classes some
//! symmetry fixes, each with spare slots).

use super::groups::Group;
use super::index::{Classes, PairIndex};
use std::sync::{Arc, Mutex};

/// A wide value whose distance is this or more is escaped: the byte (127 a win, 255 a loss),
/// then its code in two bytes.
const ESCAPED: u16 = 127;

/// How a table's values are coded in its frames: what a format 3 header says (bytes 25 to 27).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coding {
    /// A wide table's values in a byte each (`escape`).
    pub escaped: bool,
    /// A frame holds `1 << shift` blocks.
    pub shift: u8,
    /// A placing group's spare slots hold their neighbours' codes (`fill_spare`), not 0.
    pub filled: bool,
}

/// The most blocks a frame may hold: `1 << MAX_SHIFT`.
pub const MAX_SHIFT: u8 = 3;

impl Coding {
    /// The coding's three bytes in a header.
    pub fn to_bytes(self) -> [u8; 3] {
        [u8::from(self.escaped), self.shift, u8::from(self.filled)]
    }

    /// The coding a header's three bytes say; `None` for bytes no coding has.
    pub fn from_bytes(b: [u8; 3]) -> Option<Coding> {
        let flag = |x: u8| (x <= 1).then_some(x == 1);
        (b[1] <= MAX_SHIFT).then_some(())?;
        Some(Coding {
            escaped: flag(b[0])?,
            shift: b[1],
            filled: flag(b[2])?,
        })
    }
}

/// A wide table's bytes of values (codes of two bytes, little-endian: `Value::code`) in a byte
/// each as a narrow table's (`Value::byte`: 0 a draw, 1 to 126 a win, 128 to 254 a loss) where
/// the distance is under 127 plies, else the escape (127 a win, 255 a loss) and the code.
pub fn escape(values: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / 2 + 64);
    for pair in values.chunks_exact(2) {
        let code = u16::from_le_bytes([pair[0], pair[1]]);
        let (loss, distance) = (code >= 0x8000, code & 0x7fff);
        let high = if loss { 128 } else { 0 };
        if distance < ESCAPED {
            out.push(high | distance as u8);
        } else {
            out.extend_from_slice(&[high | ESCAPED as u8, pair[0], pair[1]]);
        }
    }
    out
}

/// The bytes of values `escape` coded into `coded`, which must come to `want` bytes; `None` when
/// they do not (an escape cut short, too few or too many values).
pub fn unescape(coded: &[u8], want: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; want];
    let (mut i, mut o) = (0, 0);
    while let Some(&b) = coded.get(i) {
        let pair = out.get_mut(o..o + 2)?;
        if u16::from(b & 0x7f) == ESCAPED {
            pair.copy_from_slice(coded.get(i + 1..i + 3)?);
            i += 3;
        } else {
            // The code's low byte is the distance, its high byte the loss's bit.
            pair.copy_from_slice(&[b & 0x7f, b & 0x80]);
            i += 1;
        }
        o += 2;
    }
    (o == want).then_some(out)
}

/// The classes of point sets up to the placing groups' movers met so far, made once (a second
/// or so for nine pieces) and shared.
fn classes(mover: usize) -> Arc<Classes> {
    static MADE: Mutex<Option<Arc<Classes>>> = Mutex::new(None);
    let mut made = MADE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match &*made {
        Some(c) if c.largest() >= mover => Arc::clone(c),
        _ => {
            let c = Arc::new(Classes::new(mover));
            *made = Some(Arc::clone(&c));
            c
        }
    }
}

/// Calls `each` with the place (from `first`) of each spare slot among the `n` slots of
/// `group` from slot `first`: a slot past the last, or one that is not its position's (a class
/// some symmetries fix stores each position once: at the slot of the least image of the other
/// side's set under those symmetries, `PairIndex::slot_in_class`).
fn spare_slots(group: Group, first: u64, n: u64, mut each: impl FnMut(u64)) {
    let classes = classes(group.mover as usize);
    let index = PairIndex::new(group.mover as usize, group.other as usize, &classes);
    let (len, per_class) = (index.len(), index.per_class().max(1));
    let end = first + n;
    let mut slot = first;
    while slot < end.min(len) {
        let class = (slot / per_class) as usize;
        let class_end = ((class as u64 + 1) * per_class).min(end).min(len);
        // A class no symmetry but the identity fixes has no spare slot.
        if index.class(class).1 != 1 {
            for (s, mover, other) in index.positions(slot..class_end) {
                if !index.is_canonical_position(s, mover, other) {
                    each(s - first);
                }
            }
        }
        slot = class_end;
    }
    for s in slot.max(len)..end {
        each(s - first);
    }
}

/// The code of slot `i` of a placing group's bytes (four codes a byte, `placing::packed`).
fn code(bytes: &[u8], i: u64) -> u8 {
    (bytes[(i / 4) as usize] >> (2 * (i % 4))) & 3
}

/// Sets the code of slot `i` of a placing group's bytes.
fn set_code(bytes: &mut [u8], i: u64, c: u8) {
    let (at, shift) = ((i / 4) as usize, 2 * (i % 4));
    bytes[at] = (bytes[at] & !(3 << shift)) | c << shift;
}

/// The bytes of values of `group` from byte `at` (a frame's), their spare slots (which hold 0,
/// no position, in the group's file) given the code of the slot before them that is not spare
/// (at the frame's start, of the first that is not), so that they compress with their
/// neighbours: `None` when a spare slot holds another code than 0 (the file is not one this
/// coding gives back).
pub fn fill_spare(group: Group, at: u64, values: &[u8]) -> Option<Vec<u8>> {
    let n = values.len() as u64 * 4;
    let mut spare = vec![false; n as usize];
    let mut zero = true;
    spare_slots(group, at * 4, n, |i| {
        spare[i as usize] = true;
        zero &= code(values, i) == 0;
    });
    if !zero {
        return None;
    }
    let mut out = values.to_vec();
    let first = (0..n).find(|&i| !spare[i as usize]);
    let mut last = first.map_or(0, |i| code(values, i));
    for i in 0..n {
        if spare[i as usize] {
            set_code(&mut out, i, last);
        } else {
            last = code(values, i);
        }
    }
    Some(out)
}

/// The inverse of `fill_spare`: every spare slot of `values` (the bytes of `group` from byte
/// `at`) set to 0 again, as the group's file holds it.
pub fn restore_spare(group: Group, at: u64, values: &mut [u8]) {
    let n = values.len() as u64 * 4;
    spare_slots(group, at * 4, n, |i| set_code(values, i, 0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_values_escape_and_come_back() {
        let codes: Vec<u16> = vec![
            0,
            1,
            126,
            127,
            300,
            0x8000,
            0x8000 + 126,
            0x8000 + 127,
            0xffff,
        ];
        let bytes: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
        let coded = escape(&bytes);
        assert_eq!(coded.len(), 5 + 4 * 3);
        assert_eq!(unescape(&coded, bytes.len()).as_deref(), Some(&bytes[..]));
        // Too few or too many values, or an escape cut short, are no values.
        assert_eq!(unescape(&coded, bytes.len() + 2), None);
        assert_eq!(unescape(&coded, bytes.len() - 2), None);
        assert_eq!(unescape(&coded[..coded.len() - 1], bytes.len()), None);
    }

    #[test]
    fn the_spare_slots_are_those_not_canonical() {
        for (mover, other) in [(2, 3), (3, 2), (4, 4), (1, 5), (0, 3)] {
            let group = Group {
                left: 1,
                mover,
                other,
            };
            let classes = Classes::new(mover as usize);
            let index = PairIndex::new(mover as usize, other as usize, &classes);
            let n = index.len() + 5;
            for from in [0, 1, index.len() / 3] {
                let mut spare = vec![false; (n - from) as usize];
                spare_slots(group, from, n - from, |i| spare[i as usize] = true);
                for (i, &sp) in spare.iter().enumerate() {
                    let slot = from + i as u64;
                    let want = slot >= index.len() || !index.is_canonical(slot);
                    assert_eq!(sp, want, "{mover}-{other} slot {slot}");
                }
            }
        }
    }

    #[test]
    fn a_groups_spare_slots_fill_and_come_back() {
        // Two pieces against one: many classes of two points are fixed by a symmetry.
        let group = Group {
            left: 1,
            mover: 2,
            other: 1,
        };
        let classes = Classes::new(2);
        let index = PairIndex::new(2, 1, &classes);
        let codes: Vec<u8> = (0..index.len())
            .map(|s| {
                if index.is_canonical(s) {
                    1 + (s % 7 / 3) as u8
                } else {
                    0
                }
            })
            .collect();
        let bytes: Vec<u8> = codes
            .chunks(4)
            .map(crate::tables::placing::packed::pack_one)
            .collect();
        assert!(codes.contains(&0), "no spare slot to fill");
        for at in [0, 8, 16] {
            let part = &bytes[at..];
            let mut filled = fill_spare(group, at as u64, part).expect("spare slots hold 0");
            assert_ne!(filled, part, "nothing filled from byte {at}");
            restore_spare(group, at as u64, &mut filled);
            assert_eq!(filled, part);
        }
        let mut odd = bytes.clone();
        let i = codes.iter().position(|&c| c == 0).unwrap() as u64;
        set_code(&mut odd, i, 2);
        assert_eq!(fill_spare(group, 0, &odd), None);
    }
}
