//! A group's build kept between two levels of its proof (`retrograde::Saved`), in the tables
//! directory as `.<a>-<b>.resume`, so that a build stopped inside a group resumes there rather
//! than from the group's start: written atomically every `EVERY` while the group is solved (and
//! once it is settled), read when the group starts again, removed once its tables are written.
//! A file that is damaged, cut, or made for other rules or another group is not used (the group
//! is solved from its start, and the file written over).
//!
//! ```text
//!  bytes  0..8   magic "MOULRES1"
//!  bytes  8..16  fingerprint of the rules (tables::fingerprint), little-endian
//!  byte  16      the group's a; byte 17: its b
//!  bytes 18..20  the level to take next, little-endian
//!  bytes 20..22  the tables of the group (1 or 2)
//!  bytes 22..32  zero
//!  bytes 32..40  checksum of the checksums of the tables' parts below, little-endian
//!  then, a table after the other: its slots (u64), its value codes (u16 each), its counts
//!  (a byte each), all little-endian
//! ```

use super::checksum::checksum;
use super::file::values_layout;
use super::retrograde::{Checkpoints, Saved};
use super::tables_error::TablesError;
use crate::shipped::le_bytes::u64_at;
use crate::shipped::Layout;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The `u16` at byte `at` of `bytes`, which hold it.
fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// A resume point's header.
static LAYOUT: Layout = values_layout("a moulin resume point", *b"MOULRES1");

/// How often a group's state is kept while it is solved: a stop loses at most this much work
/// (and writing the state, 3 bytes a slot, costs seconds: the 8-9 group's 3.2 GB take about 10 s).
pub const EVERY: Duration = Duration::from_mins(15);

/// The resume point of group `(a, b)` in the tables directory `dir`, for the rules of `print`.
pub struct ResumePoint {
    path: PathBuf,
    print: u64,
    group: (usize, usize),
    every: Duration,
    last: Mutex<Option<Instant>>,
}

impl ResumePoint {
    /// The resume point of group `(a, b)` in `dir`, kept every `every` (and once the group is
    /// settled).
    pub fn new(dir: &Path, print: u64, (a, b): (usize, usize), every: Duration) -> ResumePoint {
        ResumePoint {
            path: dir.join(format!(".{a}-{b}.resume")),
            print,
            group: (a, b),
            every,
            last: Mutex::new(None),
        }
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The level the file there would resume at, if it is there and its header is this group's
    /// (the body is checked when it is loaded).
    pub fn level_there(&self) -> Option<u16> {
        let mut head = [0u8; 40];
        let mut file = super::mapped::open_regular(&self.path).ok()?;
        file.read_exact(&mut head).ok()?;
        self.header_level(&head)
    }

    /// The level of a header of this group and these rules.
    fn header_level(&self, head: &[u8]) -> Option<u16> {
        let header = LAYOUT.read(head).ok()?;
        header.check_rules(self.print).ok()?;
        let (a, b) = self.group;
        (usize::from(head[16]) == a && usize::from(head[17]) == b).then(|| u16_at(head, 18))
    }

    /// Removes the file, if it is there (the group's tables are written, or built already).
    pub fn remove(&self) {
        if let Err(e) = std::fs::remove_file(&self.path) {
            if e.kind() != std::io::ErrorKind::NotFound {
                log::warn!("{}: cannot remove it: {e}", self.path.display());
            }
        }
    }

    /// The state in `bytes`, if they are a sound resume point of this group.
    fn parse(&self, bytes: &[u8]) -> Option<Saved> {
        let level = self.header_level(bytes.get(..40)?)?;
        let count = usize::from(u16_at(bytes, 20));
        let mut at = 40;
        let mut sums = Vec::new();
        let mut tables = Vec::new();
        for _ in 0..count {
            let slots = usize::try_from(u64_at(bytes.get(at..at + 8)?, 0)).ok()?;
            // A length read from the file: checked before any slice is taken.
            let end = slots.checked_mul(3)?.checked_add(at + 8)?;
            let part = bytes.get(at..end)?;
            let (values, counts) = part[8..].split_at(2 * slots);
            sums.extend(checksum(part).to_le_bytes());
            let codes = values.chunks_exact(2).map(|c| u16_at(c, 0)).collect();
            tables.push((codes, counts.to_vec()));
            at = end;
        }
        let sound = at == bytes.len() && u64_at(bytes, 32) == checksum(&sums);
        sound.then_some(Saved { level, tables })
    }
}

impl Checkpoints for ResumePoint {
    fn load(&self) -> Option<Saved> {
        let mut bytes = Vec::new();
        super::mapped::open_regular(&self.path)
            .ok()?
            .read_to_end(&mut bytes)
            .ok()?;
        let saved = self.parse(&bytes);
        if saved.is_some() {
            // Kept already: the next is due a whole interval from now.
            *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
        } else {
            log::warn!(
                "{}: not a sound resume point of this group: solved from its start",
                self.path.display()
            );
        }
        saved
    }

    fn due(&self) -> bool {
        let last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        last.is_none_or(|t| t.elapsed() >= self.every)
    }

    fn save(&self, level: u16, tables: &[(&[AtomicU16], &[AtomicU8])]) -> Result<(), TablesError> {
        let mut head = LAYOUT.blank(self.print);
        let (a, b) = self.group;
        head[16] = a as u8;
        head[17] = b as u8;
        head[18..20].copy_from_slice(&level.to_le_bytes());
        head[20..22].copy_from_slice(&(tables.len() as u16).to_le_bytes());
        let parts: Vec<Vec<u8>> = tables
            .iter()
            .map(|(values, counts)| {
                let mut part = Vec::with_capacity(8 + 3 * values.len());
                part.extend((values.len() as u64).to_le_bytes());
                part.extend(
                    values
                        .iter()
                        .flat_map(|v| v.load(Ordering::Relaxed).to_le_bytes()),
                );
                part.extend(counts.iter().map(|c| c.load(Ordering::Relaxed)));
                part
            })
            .collect();
        let sums: Vec<u8> = parts
            .iter()
            .flat_map(|p| checksum(p).to_le_bytes())
            .collect();
        LAYOUT.seal(&mut head, checksum(&sums));
        let mut all: Vec<&[u8]> = vec![&head];
        all.extend(parts.iter().map(Vec::as_slice));
        crate::durable::write_atomic_parts(&self.path, &all)?;
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
        log::info!("{}: kept before level {level}", self.path.display());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atomics(values: &[u16], counts: &[u8]) -> (Vec<AtomicU16>, Vec<AtomicU8>) {
        (
            values.iter().map(|&v| AtomicU16::new(v)).collect(),
            counts.iter().map(|&c| AtomicU8::new(c)).collect(),
        )
    }

    #[test]
    fn a_resume_point_reads_back_and_a_damaged_or_foreign_one_is_not_used() {
        let dir = std::env::temp_dir().join(format!("moulin-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let point = ResumePoint::new(&dir, 0xabc, (3, 4), Duration::ZERO);
        assert!(point.due());
        assert_eq!(point.load(), None, "nothing there");
        let (v1, c1) = atomics(&[1, 2, 300], &[0, 5, 0x80]);
        let (v2, c2) = atomics(&[7], &[3]);
        point
            .save(12, &[(&v1[..], &c1[..]), (&v2[..], &c2[..])])
            .unwrap();
        let saved = Saved {
            level: 12,
            tables: vec![(vec![1, 2, 300], vec![0, 5, 0x80]), (vec![7], vec![3])],
        };
        assert_eq!(point.load(), Some(saved.clone()));
        assert_eq!(point.level_there(), Some(12));
        // Another group, other rules: not this group's point.
        assert_eq!(
            ResumePoint::new(&dir, 0xabc, (4, 3), EVERY).level_there(),
            None
        );
        let other_rules = ResumePoint {
            path: point.path().to_path_buf(),
            ..ResumePoint::new(&dir, 0xdef, (3, 4), EVERY)
        };
        assert_eq!(other_rules.load(), None);
        // A byte changed in the body, or the file cut: not used.
        let bytes = std::fs::read(point.path()).unwrap();
        let mut damaged = bytes.clone();
        damaged[45] ^= 1;
        std::fs::write(point.path(), &damaged).unwrap();
        assert_eq!(point.load(), None);
        std::fs::write(point.path(), &bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(point.load(), None);
        std::fs::write(point.path(), &bytes).unwrap();
        assert_eq!(point.load(), Some(saved));
        point.remove();
        assert!(!point.path().exists());
        point.remove();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
