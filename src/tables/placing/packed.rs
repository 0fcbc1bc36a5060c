//! Values of the placing solution, four to a byte: a value is for the side to move, `code =
//! wdl + 2` (1 a loss, 2 a draw, 3 a win); code 0 marks a slot that holds no position (the spare
//! slots of a class some symmetries fix).

use crate::tables::values::Wdl;

/// The code of a slot that holds no position.
pub const NO_POSITION: u8 = 0;

/// The code of a value.
#[inline]
pub fn code(v: Wdl) -> u8 {
    (v + 2) as u8
}

/// The value of a code (`None`: no position).
#[inline]
pub fn value(code: u8) -> Option<Wdl> {
    (code != NO_POSITION).then(|| code as Wdl - 2)
}

/// The bytes that hold `slots` codes.
pub fn bytes_for(slots: u64) -> usize {
    slots.div_ceil(4) as usize
}

/// The code of slot `slot` in `packed`.
#[inline]
pub fn get(packed: &[u8], slot: u64) -> u8 {
    (packed[(slot >> 2) as usize] >> ((slot & 3) * 2)) & 3
}

/// Up to four codes in one byte, the first in the low bits.
#[inline]
pub fn pack_one(codes: &[u8]) -> u8 {
    codes
        .iter()
        .enumerate()
        .fold(0u8, |b, (i, &code)| b | (code & 3) << (2 * i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_packed() {
        let codes: Vec<u8> = (0..11).map(|i| (i * 7 % 4) as u8).collect();
        let packed: Vec<u8> = codes.chunks(4).map(pack_one).collect();
        assert_eq!(packed.len(), bytes_for(11));
        for (slot, &c) in codes.iter().enumerate() {
            assert_eq!(get(&packed, slot as u64), c);
        }
        for v in -1..=1 {
            assert_eq!(value(code(v)), Some(v));
        }
        assert_eq!(value(NO_POSITION), None);
    }
}
