//! The one header of the binary formats: the magic (what kind of file it is), the format's
//! version, the fingerprint of the rules it was made for and a checksum, written and read in
//! one place, each refusal a `HeaderError` that says what was wrong (not this kind of file,
//! another version, other rules, a checksum that does not match, cut short).
//!
//! Each format keeps its own layout (`Layout`), as its files have it on disk: the magic is
//! always its first 8 bytes, the version (where the format has one apart from its magic) the
//! `u32` after it; the fingerprint and the checksum stand where the format put them, among its
//! own fields, which it reads and writes itself; what the checksum covers is the format's too
//! (its values, the whole file, the header and index, all before it), so the format computes it
//! and the header compares. The seven layouts:
//!
//! ```text
//!  format              magic     version  fingerprint  checksum (of)          header
//!  built table         MOULTBL1  -        8            32 (the values)        40
//!  placing group       MOULPLC1  -        8            32 (the values)        40
//!  resume point        MOULRES1  -        8            32 (its parts' sums)   40
//!  opening's solution  MOULOPN1  8        16           32 (the whole file)    40
//!  packed table        MOULPACK  8        16           56 (header and index)  64
//!  network             MOULNNUE  8        12           last 8 bytes (before)  20
//!  network data        MOULNDAT  8        12           -                      32
//! ```

use super::le_bytes::{put_u32, put_u64, u32_at, u64_at};

/// Where the version's `u32` stands in a format that has one: after the magic.
pub const VERSION_AT: usize = 8;

/// One format's header as its files have it.
#[derive(Debug)]
pub struct Layout {
    /// What a file of the format is, as a refusal names it: "not {what}".
    pub what: &'static str,
    /// The first 8 bytes of every file of the format.
    pub magic: [u8; 8],
    /// The version this code reads and writes, at `VERSION_AT`; `None` where the magic alone
    /// says it.
    pub version: Option<u32>,
    /// Where the rules' fingerprint (a `u64`) stands.
    pub fingerprint_at: usize,
    /// Where the checksum (a `u64`) stands in the header; `None` where it does not (after the
    /// body, or none).
    pub checksum_at: Option<usize>,
    /// What the checksum covers, as a refusal names it: "checksum mismatch of {covers}".
    pub covers: &'static str,
    /// The header's bytes.
    pub len: usize,
}

/// What a header says that every format's says.
#[derive(Clone, Copy, Debug)]
pub struct Header {
    /// The fingerprint of the rules the file was made for.
    pub fingerprint: u64,
    /// The checksum the header holds (where its layout has one).
    pub checksum: Option<u64>,
    layout: &'static Layout,
}

/// A header that is not this format's, or not for these rules, or a file that is damaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The magic is not the format's: another kind of file.
    #[error("not {what}")]
    NotThisKind {
        /// What a file of the format is.
        what: &'static str,
    },
    /// Another version of the format.
    #[error("format version {found}, this engine reads version {reads}")]
    Version {
        /// The file's version.
        found: u32,
        /// The version this code reads.
        reads: u32,
    },
    /// Made for rules with another fingerprint.
    #[error(
        "made for other rules (fingerprint {found:016x}, the rules in force have {expected:016x})"
    )]
    OtherRules {
        /// The file's fingerprint.
        found: u64,
        /// The fingerprint of the rules in force.
        expected: u64,
    },
    /// The checksum does not match what it covers.
    #[error("checksum mismatch of {covers}: the file is damaged")]
    Checksum {
        /// What the checksum covers.
        covers: &'static str,
    },
    /// The file ends inside its header.
    #[error("cut inside its header ({len} bytes of {need})")]
    Cut {
        /// The bytes there are.
        len: usize,
        /// The header's bytes.
        need: usize,
    },
}

impl Layout {
    /// A header for the rules of `fingerprint`: the magic, the version and the fingerprint in
    /// place, every other byte zero (for the format's own fields, then `seal`).
    pub fn blank(&self, fingerprint: u64) -> Vec<u8> {
        let mut head = vec![0u8; self.len];
        head[..8].copy_from_slice(&self.magic);
        if let Some(v) = self.version {
            put_u32(&mut head, VERSION_AT, v);
        }
        put_u64(&mut head, self.fingerprint_at, fingerprint);
        head
    }

    /// Writes the checksum `sum` into the header at the start of `bytes`.
    pub fn seal(&self, bytes: &mut [u8], sum: u64) {
        let at = self
            .checksum_at
            .expect("a layout with a checksum in its header");
        put_u64(bytes, at, sum);
    }

    /// The header at the start of `bytes` (the whole file, or its first `len` bytes): the magic
    /// (bytes that are not the magic's are another kind of file; fewer than the header's, the
    /// magic's first, a file cut short), then the version.
    pub fn read(&'static self, bytes: &[u8]) -> Result<Header, HeaderError> {
        let start = &bytes[..bytes.len().min(8)];
        if !self.magic.starts_with(start) {
            return Err(HeaderError::NotThisKind { what: self.what });
        }
        if bytes.len() < self.len {
            return Err(HeaderError::Cut {
                len: bytes.len(),
                need: self.len,
            });
        }
        if let Some(reads) = self.version {
            let found = u32_at(bytes, VERSION_AT);
            if found != reads {
                return Err(HeaderError::Version { found, reads });
            }
        }
        Ok(Header {
            fingerprint: u64_at(bytes, self.fingerprint_at),
            checksum: self.checksum_at.map(|at| u64_at(bytes, at)),
            layout: self,
        })
    }

    /// Whether the checksum a file holds, `held`, is the one computed of what it covers.
    pub fn check_sum(&'static self, held: u64, computed: u64) -> Result<(), HeaderError> {
        if held == computed {
            Ok(())
        } else {
            Err(HeaderError::Checksum {
                covers: self.covers,
            })
        }
    }
}

impl Header {
    /// Whether the file was made for the rules of fingerprint `expected`.
    pub fn check_rules(&self, expected: u64) -> Result<(), HeaderError> {
        if self.fingerprint == expected {
            Ok(())
        } else {
            Err(HeaderError::OtherRules {
                found: self.fingerprint,
                expected,
            })
        }
    }

    /// Whether the header's checksum is `computed`, the one of what it covers.
    pub fn check_sum(&self, computed: u64) -> Result<(), HeaderError> {
        let held = self
            .checksum
            .expect("a layout with a checksum in its header");
        self.layout.check_sum(held, computed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TEST: Layout = Layout {
        what: "a test file",
        magic: *b"MOULTEST",
        version: Some(3),
        fingerprint_at: 16,
        checksum_at: Some(24),
        covers: "its body",
        len: 32,
    };

    #[test]
    fn a_header_reads_back_and_each_fault_is_refused_with_its_words() {
        let mut head = TEST.blank(0xfeed);
        TEST.seal(&mut head, 77);
        assert_eq!(&head[..12], b"MOULTEST\x03\0\0\0");
        let h = TEST.read(&head).unwrap();
        assert_eq!((h.fingerprint, h.checksum), (0xfeed, Some(77)));
        assert_eq!(h.check_rules(0xfeed), Ok(()));
        assert_eq!(h.check_sum(77), Ok(()));
        let said = |e: HeaderError| e.to_string();
        assert_eq!(
            said(h.check_rules(1).unwrap_err()),
            "made for other rules (fingerprint 000000000000feed, the rules in force have \
             0000000000000001)"
        );
        assert_eq!(
            said(h.check_sum(78).unwrap_err()),
            "checksum mismatch of its body: the file is damaged"
        );
        let mut other = head.clone();
        other[8] = 4;
        assert_eq!(
            said(TEST.read(&other).unwrap_err()),
            "format version 4, this engine reads version 3"
        );
        other[0] = b'X';
        assert_eq!(said(TEST.read(&other).unwrap_err()), "not a test file");
        assert_eq!(said(TEST.read(b"MOUX").unwrap_err()), "not a test file");
        for keep in [0, 5, 8, 31] {
            assert_eq!(
                said(TEST.read(&head[..keep]).unwrap_err()),
                format!("cut inside its header ({keep} bytes of 32)")
            );
        }
    }
}
