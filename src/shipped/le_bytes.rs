//! One little-endian reader and writer over a byte slice, shared by the binary formats (the
//! tables' files, the opening's solution, the packed tables, the network, its training data): a
//! cursor that reads fields in order (`Reader`), a read past the end refused as `Cut` (where
//! the bytes end, and what was wanted); and reads and writes at a fixed offset of a header
//! whose length was checked first (`u32_at`, `put_u64`...).

/// Bytes that end before a field does: the file is cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cut short at byte {len}: {want} bytes wanted at byte {at}")]
pub struct Cut {
    /// Where the field starts.
    pub at: usize,
    /// The field's bytes.
    pub want: usize,
    /// The bytes there are.
    pub len: usize,
}

/// Reads little-endian fields of a byte slice in order.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// A reader at byte `at` of `bytes` (past a header already read).
    pub fn starting_at(bytes: &'a [u8], at: usize) -> Reader<'a> {
        Reader { bytes, at }
    }

    /// Where the next field starts.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The bytes after the last field read.
    pub fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Cut> {
        let cut = Cut {
            at: self.at,
            want: n,
            len: self.bytes.len(),
        };
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(cut)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// The next `N` bytes, as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], Cut> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    /// The next byte.
    pub fn u8(&mut self) -> Result<u8, Cut> {
        Ok(self.take(1)?[0])
    }

    /// The next `u32`.
    pub fn u32(&mut self) -> Result<u32, Cut> {
        self.array().map(u32::from_le_bytes)
    }

    /// The next `i32`.
    pub fn i32(&mut self) -> Result<i32, Cut> {
        self.array().map(i32::from_le_bytes)
    }

    /// The next `u64`.
    pub fn u64(&mut self) -> Result<u64, Cut> {
        self.array().map(u64::from_le_bytes)
    }

    /// The next `out.len()` `i16`s, into `out`.
    pub fn i16s(&mut self, out: &mut [i16]) -> Result<(), Cut> {
        let bytes = self.take(2 * out.len())?;
        for (w, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *w = i16::from_le_bytes([b[0], b[1]]);
        }
        Ok(())
    }
}

/// The `u32` at byte `at` of `bytes`, which hold it (a header whose length was checked).
#[inline]
pub fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// The `u64` at byte `at` of `bytes`, which hold it (a header or an index whose length was
/// checked).
#[inline]
pub fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// Writes `v` at byte `at` of `bytes`.
pub fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Writes `v` at byte `at` of `bytes`.
pub fn put_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_back_in_order_and_a_read_past_the_end_says_where_it_was_cut() {
        let mut b = vec![0u8; 14];
        put_u32(&mut b, 0, 0xdead_beef);
        put_u64(&mut b, 4, u64::MAX - 1);
        b[12..14].copy_from_slice(&(-2i16).to_le_bytes());
        assert_eq!((u32_at(&b, 0), u64_at(&b, 4)), (0xdead_beef, u64::MAX - 1));
        let mut r = Reader::new(&b);
        assert_eq!(r.u32(), Ok(0xdead_beef));
        assert_eq!(r.u64(), Ok(u64::MAX - 1));
        let mut one = [0i16];
        assert_eq!(r.i16s(&mut one), Ok(()));
        assert_eq!((one[0], r.position(), r.left()), (-2, 14, 0));
        let cut = r.u8().unwrap_err();
        assert_eq!(
            cut,
            Cut {
                at: 14,
                want: 1,
                len: 14
            }
        );
        assert_eq!(
            cut.to_string(),
            "cut short at byte 14: 1 bytes wanted at byte 14"
        );
        let mut r = Reader::starting_at(&b, 10);
        assert_eq!(r.u64().unwrap_err().len, 14);
        assert_eq!(r.position(), 10, "a refused read takes nothing");
        assert_eq!(r.take(usize::MAX).unwrap_err().want, usize::MAX);
    }
}
