//! A value of the tables (win or loss with its distance, or draw) and the values of one table,
//! in memory or mapped from its file.

use super::mapped::Mapping;
use super::packed_table::PackedTable;
use super::tables_error::TablesError;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// A value without its distance, for the side to move: 1 won, 0 drawn, -1 lost (a placing
/// position's, as the placing solution and the exact solver know it; a table value's, `Value::wdl`).
pub type Wdl = i8;

/// The value of a position for its side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// Won: the next removal (or the end) comes within this many plies.
    Win(u16),
    /// Lost, the next removal (or the end) this many plies away at most.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The same result with no distance left (the value of a removal's result, whose own
    /// distance is not counted).
    pub fn at_once(self) -> Value {
        match self {
            Value::Win(_) => Value::Win(0),
            Value::Loss(_) => Value::Loss(0),
            Value::Draw => Value::Draw,
        }
    }

    /// The result alone: 1 won, 0 drawn, -1 lost.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }

    /// The distance in plies (0 for a draw).
    pub fn distance(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }

    /// The stored code: 0 a draw, 1 to 32767 a win in that many plies, 32768 + d a loss in d.
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => d.min(MAX_DISTANCE),
            Value::Loss(d) => 0x8000 + d.min(MAX_DISTANCE),
        }
    }

    /// The value of a stored code (`Value::code`).
    pub fn from_code(c: u16) -> Value {
        match c {
            0 => Value::Draw,
            1..=0x7fff => Value::Win(c),
            _ => Value::Loss(c - 0x8000),
        }
    }

    /// The code in a byte, when the distance is at most 127 plies: 0 a draw, 1 to 127 a win,
    /// 128 + d a loss.
    fn byte(self) -> Option<u8> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d <= 127 => Some(d as u8),
            Value::Loss(d) if d <= 127 => Some(128 + d as u8),
            _ => None,
        }
    }

    fn from_byte(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            1..=127 => Value::Win(u16::from(b)),
            _ => Value::Loss(u16::from(b) - 128),
        }
    }
}

/// The longest distance a table holds.
pub const MAX_DISTANCE: u16 = 0x7fff;

/// A table's values by slot: a byte each when every distance is at most 127 plies, two bytes
/// otherwise; in memory, or mapped from the table's file (as the engine and later builds read
/// them).
#[derive(Clone, Debug)]
pub enum Values {
    /// A byte a value (`Value::byte`), in memory.
    Narrow(Vec<u8>),
    /// A code a value (`Value::code`), in memory.
    Wide(Vec<u16>),
    /// A file's values, their width in bytes (2: little-endian codes) and the longest distance
    /// they hold (found when the file was read and checked).
    Mapped(Arc<Mapping>, u8, u16),
    /// A packed table's values (`tables::pack`), unpacked a block at a time as they are probed.
    Packed(Arc<PackedTable>),
    /// A table a packed set does not store: each value is found from its successors, which lie
    /// in stored tables (`Tables::value` does it; read here, a value is a draw, not trusted).
    /// Its slots, the width and the longest distance of the table it stands for.
    Derived(usize, u8, u16),
}

/// The code stored in the first two bytes of `bytes`, little-endian (a wide table's value in its
/// file).
#[inline]
fn wide_code(bytes: &[u8]) -> u16 {
    u16::from_le_bytes([bytes[0], bytes[1]])
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.width() == other.width() && self.to_bytes() == other.to_bytes()
    }
}

impl Eq for Values {}

impl Values {
    /// The values of `codes` (`Value::code`), in a byte each when they fit.
    pub fn from_codes(codes: Vec<u16>) -> Values {
        let narrow: Option<Vec<u8>> = codes.iter().map(|&c| Value::from_code(c).byte()).collect();
        match narrow {
            Some(bytes) => Values::Narrow(bytes),
            None => Values::Wide(codes),
        }
    }

    /// The number of values (slots).
    pub fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
            Values::Mapped(m, w, _) => m.bytes().len() / *w as usize,
            Values::Packed(p) => (p.meta().len / u64::from(p.meta().width)) as usize,
            Values::Derived(len, _, _) => *len,
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The longest distance held.
    pub fn longest(&self) -> u16 {
        match self {
            Values::Narrow(v) => v.iter().map(|&b| Value::from_byte(b).distance()).max(),
            Values::Wide(v) => v.iter().map(|&c| Value::from_code(c).distance()).max(),
            Values::Mapped(_, _, longest) | Values::Derived(_, _, longest) => Some(*longest),
            Values::Packed(p) => Some(p.meta().extra as u16),
        }
        .unwrap_or(0)
    }

    /// Bytes per value: 1 or 2.
    pub fn width(&self) -> u8 {
        match self {
            Values::Narrow(_) => 1,
            Values::Wide(_) => 2,
            Values::Mapped(_, w, _) => *w,
            Values::Packed(p) => p.meta().width,
            Values::Derived(_, width, _) => *width,
        }
    }

    /// The value in `slot`.
    #[inline]
    pub fn get(&self, slot: usize) -> Value {
        match self {
            Values::Narrow(v) => Value::from_byte(v[slot]),
            Values::Wide(v) => Value::from_code(v[slot]),
            Values::Mapped(m, 1, _) => Value::from_byte(m.bytes()[slot]),
            Values::Mapped(m, _, _) => Value::from_code(wide_code(&m.bytes()[2 * slot..])),
            // A block that does not unpack reads as a draw, and the table is not trusted since
            // (`trusted`, asked after the read).
            Values::Packed(p) if p.meta().width == 1 => {
                p.byte(slot as u64).map_or(Value::Draw, Value::from_byte)
            }
            Values::Packed(p) => p
                .pair(2 * slot as u64)
                .map_or(Value::Draw, |b| Value::from_code(wide_code(&b))),
            Values::Derived(..) => Value::Draw,
        }
    }

    /// The file the values are mapped from, if they are.
    pub fn mapping(&self) -> Option<&Mapping> {
        match self {
            Values::Mapped(m, _, _) => Some(m),
            Values::Packed(p) => Some(p.mapping()),
            Values::Narrow(_) | Values::Wide(_) | Values::Derived(..) => None,
        }
    }

    /// Whether the values read so far are the file's as it was checked (`Mapping::trusted`;
    /// values in memory always are). Asked after a read, it says whether that read is good.
    #[inline]
    pub fn trusted(&self) -> bool {
        match self {
            Values::Packed(p) => p.trusted(),
            Values::Derived(..) => false,
            _ => self.mapping().is_none_or(Mapping::trusted),
        }
    }

    /// Changes one value (widening the table if it must).
    pub fn set(&mut self, slot: usize, value: Value) {
        if matches!(self, Values::Mapped(..) | Values::Packed(_)) {
            *self = Values::from_bytes(self.to_bytes().into_owned(), self.width());
        }
        match (&mut *self, value.byte()) {
            (Values::Narrow(v), Some(b)) => v[slot] = b,
            (Values::Wide(v), _) => v[slot] = value.code(),
            (Values::Narrow(v), None) => {
                let mut codes: Vec<u16> = v.iter().map(|&b| Value::from_byte(b).code()).collect();
                codes[slot] = value.code();
                *self = Values::Wide(codes);
            }
            (Values::Mapped(..) | Values::Packed(_), _) => {
                unreachable!("copied into memory above")
            }
            // Nothing stored to change: `Tables::value` finds it from its successors.
            (Values::Derived(..), _) => {}
        }
    }

    /// The values as stored in a file: the bytes, or each code in two bytes, little-endian
    /// (borrowed, but for a wide table in memory and a packed one, unpacked whole: a damaged
    /// block reads as zeros and leaves the table untrusted; none for a derived table).
    pub fn to_bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Values::Narrow(v) => Cow::Borrowed(v),
            Values::Wide(v) => Cow::Owned(v.iter().flat_map(|c| c.to_le_bytes()).collect()),
            Values::Mapped(m, _, _) => Cow::Borrowed(m.bytes()),
            Values::Packed(p) => Cow::Owned(p.unpack_all()),
            Values::Derived(..) => Cow::Borrowed(&[]),
        }
    }

    /// The values in memory, for a reader that probes them everywhere (a build): a packed
    /// table unpacked whole, every frame checked (the error names the first that fails); the
    /// others as they are.
    pub fn resident(self) -> Result<Values, TablesError> {
        match self {
            Values::Packed(p) => {
                let mut bytes = Vec::with_capacity(p.meta().len as usize);
                p.check_all(|v| bytes.extend_from_slice(v))?;
                Ok(Values::from_bytes(bytes, p.meta().width))
            }
            other => Ok(other),
        }
    }

    /// The inverse of `to_bytes`.
    fn from_bytes(bytes: Vec<u8>, width: u8) -> Values {
        if width == 2 {
            Values::Wide(bytes.chunks_exact(2).map(wide_code).collect())
        } else {
            Values::Narrow(bytes)
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(_) => f.write_str("win"),
            Value::Loss(_) => f.write_str("loss"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_bytes_round_trip() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Win(127),
            Value::Loss(0),
            Value::Loss(127),
        ] {
            assert_eq!(Value::from_byte(v.byte().unwrap()), v);
            assert_eq!(Value::from_code(v.code()), v);
        }
        let mut values = Values::from_codes(vec![0, 5, 0x8000 + 3]);
        assert_eq!(values.width(), 1);
        values.set(0, Value::Loss(300));
        assert_eq!(values.width(), 2);
        assert_eq!(
            (values.get(0), values.get(1)),
            (Value::Loss(300), Value::Win(5))
        );
        assert_eq!(
            Values::from_bytes(values.to_bytes().into_owned(), 2),
            values
        );
    }
}
