//! A packed set checked whole (`moulin tables verify` and `install` on one): every file's size
//! and checksum against the manifest, every block of every table unpacked against its checksum,
//! and every table's values against the checksum of the file it was made from.

use super::manifest::Manifest;
use crate::job_progress::Progress;
use crate::rules::Rules;
use crate::tables::checksum::mix_words;
use crate::tables::file::longest_distance;
use crate::tables::packed_flaw::PackedFlaw;
use crate::tables::packed_table::{self as table, PackedTable};
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use std::path::Path;
use std::sync::Arc;

/// The checksum of a whole file (`tables::checksum::checksum` of its bytes), read a piece at a time.
pub fn file_checksum(path: &Path, progress: &dyn Progress) -> Result<(u64, u64), TablesError> {
    use std::io::Read;
    let open = |source| TablesError::Open {
        path: path.to_path_buf(),
        source,
    };
    let mut f = crate::tables::mapped::open_regular(path)?;
    let len = f.metadata().map_err(open)?.len();
    let mut h = len;
    let mut buf = vec![0u8; 1 << 20];
    let mut read = 0u64;
    loop {
        // Whole multiples of 8 bytes but at the end, so that the pieces mix as the whole would.
        let mut n = 0;
        while n < buf.len() {
            let k = f.read(&mut buf[n..]).map_err(open)?;
            if k == 0 {
                break;
            }
            n += k;
        }
        if n == 0 {
            break;
        }
        h = mix_words(h, &buf[..n]);
        read += n as u64;
        progress.advance(n as u64);
        if n < buf.len() {
            break;
        }
    }
    if read != len {
        return Err(TablesError::Packed {
            path: path.to_path_buf(),
            flaw: PackedFlaw::ChangedWhileRead { read, len },
        });
    }
    Ok((len, h))
}

/// What `verify` found: the files and bytes checked.
#[derive(Clone, Debug, Default)]
pub struct Verified {
    /// Files checked.
    pub files: usize,
    /// Bytes of the files, and bytes of values unpacked.
    pub bytes: u64,
    /// Bytes of values unpacked and checked.
    pub values: u64,
}

/// Checks the set `dir` whole for `rules`: the manifest, every file's size and checksum, every
/// block of every table unpacked against its checksum and every table's values against the
/// checksum of the file it was made from. The first fault is the error, naming its file.
/// `progress` counts the bytes of the files read.
pub fn verify(dir: &Path, rules: &Rules, progress: &dyn Progress) -> Result<Verified, TablesError> {
    let manifest = Manifest::read(dir)?;
    manifest.check_rules(dir, rules)?;
    let total = manifest.files.iter().map(|f| f.size).sum();
    progress.stage(total, 0, "checksums ", "bytes");
    let mut out = Verified::default();
    for f in &manifest.files {
        let path = table::path(dir, f.key);
        let (size, sum) = file_checksum(&path, progress)?;
        if size != f.size || sum != f.checksum {
            return Err(TablesError::Packed {
                path,
                flaw: PackedFlaw::Altered {
                    size,
                    sum,
                    listed_size: f.size,
                    listed_sum: f.checksum,
                },
            });
        }
        let t = PackedTable::open(&path, f.key, manifest.print_of(f.key), &Arc::default())?;
        // A moving table's longest distance bounds what the no-capture rule decides: the
        // header's must be its values'.
        let width = t.meta().width;
        let mut longest = 0u16;
        t.check_all(|bytes| {
            if let Key::Moving(..) = f.key {
                longest = longest.max(longest_distance(bytes, width));
            }
        })?;
        if matches!(f.key, Key::Moving(..)) && u64::from(longest) != t.meta().extra {
            return Err(TablesError::Packed {
                path,
                flaw: PackedFlaw::Longest {
                    said: t.meta().extra,
                    held: longest,
                },
            });
        }
        out.files += 1;
        out.bytes += size;
        out.values += t.meta().len;
    }
    progress.finish();
    Ok(out)
}
