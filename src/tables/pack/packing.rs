//! A built solution packed into a set (`moulin tables pack`): the tables to store chosen
//! (`storage`), each written as a packed table unless a stopped run left it packed whole from
//! the same values, then the manifest, last.

use super::folder::{self, SetError, SetLock, MANIFEST_BEFORE};
use super::manifest::{Derived, Listed, Manifest, MANIFEST};
use super::storage::{kept_though_derivable, pair_derivable, stored_groups, TableHeld};
use super::verify::file_checksum;
use crate::job_progress::{Progress, Silent};
use crate::rules::Rules;
use crate::tables::checksum::checksum;
use crate::tables::frame::Effort;
use crate::tables::groups::{self, Group};
use crate::tables::index::pair_len;
use crate::tables::packed_table::{self as table, Cut, Meta, PackedTable};
use crate::tables::placing::{self, packed::bytes_for, solution::Solution};
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use crate::tables::{fingerprint, frame, Tables};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What `pack` did.
#[derive(Clone, Debug, Default)]
pub struct Packed {
    /// Tables packed now, and those found packed already (a resumed run).
    pub made: usize,
    /// Tables already packed and sound.
    pub kept: usize,
    /// Tables not stored: found from their successors.
    pub derived: usize,
    /// Bytes of values stored.
    pub raw: u64,
    /// Bytes of the set's files.
    pub packed: u64,
    /// Bytes of values of the whole solution packed, stored or derived.
    pub values: u64,
    /// Whether the set holds the placing solution (the tables had it whole).
    pub placing: bool,
    /// Tables of the set before that it no longer stores, removed: their count and bytes.
    pub dropped: (usize, u64),
}

/// One table to pack: its key, its values' bytes, its width and extra (`Meta`).
struct Source<'a> {
    key: Key,
    bytes: Cow<'a, [u8]>,
    width: u8,
    extra: u64,
    print: u64,
}

impl Source<'_> {
    /// The header of its packed table.
    fn meta(&self) -> Meta {
        Meta {
            key: self.key,
            fingerprint: self.print,
            width: self.width,
            len: self.bytes.len() as u64,
            extra: self.extra,
            checksum: checksum(&self.bytes),
        }
    }
}

/// One frame in how many a placing group's bytes are estimated by, to choose the groups a set
/// stores (`storage::stored_groups`): zstd's fast level on an eighth of the values takes about
/// ten seconds for the standard game's 4.4 GB (the cover it chose there packed to 623 MB, where
/// samples at the strong level had put the lightest at 609).
const ESTIMATE_EVERY: usize = 8;

/// The header of placing group `g`'s packed table, but its checksum (what an estimate reads).
fn placing_meta(rules: &Rules, g: Group, bytes: &[u8]) -> Meta {
    Meta {
        key: Key::Placing(g),
        fingerprint: placing::fingerprint(rules),
        width: 0,
        len: bytes.len() as u64,
        extra: pair_len(g.mover as usize, g.other as usize),
        checksum: 0,
    }
}

/// The tables of `tables` to store and those to derive (every table stored when `store_all`),
/// and the bytes of values of the whole solution; the placing groups stored are the fewest
/// bytes (estimated as cut by `cut`) from which the others are derived.
fn sources<'a>(
    tables: &'a Tables,
    rules: &Rules,
    store_all: bool,
    cut: Cut,
) -> Result<(Vec<Source<'a>>, Vec<Derived>, u64), TablesError> {
    let (mut sources, mut derived, mut values) = (Vec::new(), Vec::new(), 0u64);
    let derive = |key, slots, width, longest| Derived {
        key,
        slots,
        width,
        longest,
    };
    for (m, o) in tables.pairs() {
        let v = tables.values(m, o).expect("a listed pair");
        let key = Key::Moving(m as u8, o as u8);
        values += v.len() as u64 * u64::from(v.width());
        if !store_all && !kept_though_derivable(m, o) && pair_derivable(tables, rules, m, o) {
            derived.push(derive(key, v.len() as u64, v.width(), v.longest()));
            continue;
        }
        sources.push(Source {
            key,
            bytes: v.to_bytes(),
            width: v.width(),
            extra: u64::from(v.longest()),
            print: fingerprint(rules),
        });
    }
    let whole = tables.placing().filter(|s| s.is_whole());
    let all = whole.map(|_| groups::all(rules)).unwrap_or_default();
    let missing = |g: Group| TablesError::PlacingMissing {
        group: g.to_string(),
    };
    let bytes_of = |g: Group| {
        whole
            .and_then(|s| s.group_bytes(g))
            .ok_or_else(|| missing(g))
    };
    let stored_pairs: HashSet<(usize, usize)> = sources
        .iter()
        .filter_map(|s| match s.key {
            Key::Moving(m, o) => Some((m as usize, o as usize)),
            Key::Placing(_) => None,
        })
        .collect();
    let stored = if store_all {
        all.iter().copied().collect()
    } else {
        let start = std::time::Instant::now();
        let mut estimates = HashMap::new();
        for &g in &all {
            let bytes = bytes_of(g)?;
            let meta = placing_meta(rules, g, &bytes);
            let guess = table::estimate(&meta, &bytes, cut, ESTIMATE_EVERY, Effort::Fast);
            estimates.insert(g, guess);
        }
        let moving = |m: usize, o: usize| {
            let key = Key::Moving(m as u8, o as u8);
            if stored_pairs.contains(&(m, o)) {
                TableHeld::Stored
            } else if derived.iter().any(|d| d.key == key) {
                TableHeld::Derived
            } else {
                TableHeld::Absent
            }
        };
        let chosen = stored_groups(rules, &all, &|g| estimates[&g], &moving);
        log::info!(
            "placing groups to store: {} of {}, chosen in {:.1} s",
            chosen.len(),
            all.len(),
            start.elapsed().as_secs_f64()
        );
        chosen
    };
    for g in all {
        let key = Key::Placing(g);
        let slots = pair_len(g.mover as usize, g.other as usize);
        values += bytes_for(slots) as u64;
        if !stored.contains(&g) {
            derived.push(derive(key, slots, 0, 0));
            continue;
        }
        sources.push(Source {
            key,
            bytes: bytes_of(g)?,
            width: 0,
            extra: slots,
            print: placing::fingerprint(rules),
        });
    }
    Ok((sources, derived, values))
}

/// Whether the file `path`, left by a stopped run, is `s` packed whole as cut by `cut`: it
/// unpacks, block by block, to these very values (its header and index alone could hide a
/// damaged block).
fn packed_already(path: &Path, s: &Source, meta: &Meta, cut: Cut) -> bool {
    let opened = PackedTable::open(path, s.key, s.print, &Arc::default());
    opened.is_ok_and(|p| {
        // A file of format 2, or of other blocks or frames, is packed again (whether a group's
        // spare slots were filled depends on its values, not on the cut).
        let (version, coded) = p.format();
        let wanted = table::coding_for(meta, cut);
        if p.meta() != meta
            || p.block_size() != cut.block
            || version != table::VERSION
            || (coded.escaped, coded.shift) != (wanted.escaped, wanted.shift)
        {
            return false;
        }
        let (mut at, mut same) = (0usize, true);
        let checked = p.check_all(|b| {
            same &= s.bytes.get(at..at + b.len()) == Some(b);
            at += b.len();
        });
        checked.is_ok() && same && at == s.bytes.len()
    })
}

/// Packs the moving tables and the placing solution in `tables` (opened from a directory for
/// `rules`; the placing only if whole) into the set folder held by `out`
/// (`folder::prepare_pack`), cut by `cut` (blocks and frames, `table::Cut`), every table or only those whose values cannot be found from stored
/// successors (`store_all`), resuming where a stopped run left it (a table already packed whole
/// from the same values and blocks is kept). A manifest there before is renamed
/// `folder::MANIFEST_BEFORE` (and the rename flushed to disk) before any table is written, and
/// the new one written last: a pack stopped partway leaves a folder without a manifest, which
/// nothing takes for a set; the tables the manifest before listed that the new one does not are
/// then removed (`folder::remove_dropped`), also when the pack that began it was stopped.
/// `progress` counts the bytes of values packed.
pub fn pack(
    tables: &Tables,
    rules: &Rules,
    out: &SetLock,
    store_all: bool,
    cut: Cut,
    progress: &dyn Progress,
) -> Result<Packed, SetError> {
    let out = out.dir();
    let (sources, derived, values) = sources(tables, rules, store_all, cut)?;
    let placing = tables.placing().is_some_and(Solution::is_whole);
    if !frame::strong() {
        log::warn!(
            "this build (without default features) packs at ruzstd's only level (about zstd's \
             level 1): the set comes out about twice the size of one packed by a default build \
             (zstd's level 19, feature strong-compression); either reads the same way"
        );
    }
    // The tables the set held before, so that those it no longer stores are removed once the
    // new manifest is written: its manifest's, or, after a pack stopped partway, those of the
    // manifest that pack kept (a folder without either, such as a build's compact folder, holds
    // none that are known to be a set's).
    finish_stopped(out)?;
    let before: Vec<Key> = [MANIFEST, MANIFEST_BEFORE]
        .iter()
        .find_map(|name| Manifest::read_file(&out.join(name)).ok())
        .map(|m| m.files.iter().map(|f| f.key).collect())
        .unwrap_or_default();
    folder::begin_pack(out)?;
    progress.stage(values, 0, "packing ", "bytes");
    let mut report = Packed {
        values,
        placing,
        ..Packed::default()
    };
    let mut files = Vec::new();
    for s in &sources {
        let meta = s.meta();
        let path = table::path(out, s.key);
        if packed_already(&path, s, &meta, cut) {
            report.kept += 1;
        } else {
            table::write(&path, &meta, &s.bytes, cut, Effort::Strong)?;
            report.made += 1;
        }
        let (size, checksum) = file_checksum(&path, &Silent)?;
        files.push(Listed {
            key: s.key,
            size,
            checksum,
        });
        report.raw += meta.len;
        report.packed += size;
        progress.advance(meta.len);
    }
    progress.finish();
    report.derived = derived.len();
    let manifest = Manifest::new(rules, files, derived);
    crate::durable::write_atomic(&out.join(MANIFEST), manifest.to_text().as_bytes())?;
    let gone: Vec<PathBuf> = before
        .into_iter()
        .filter(|&k| manifest.files.iter().all(|f| f.key != k))
        .map(|k| table::path(out, k))
        .collect();
    report.dropped = folder::remove_dropped(out, &gone);
    folder::end_pack(out)?;
    Ok(report)
}

/// Finishes the pack into `out` that was stopped once its manifest was written, before it ended
/// (both manifests there): the tables the set before stored that the new one does not removed,
/// then the set before's manifest.
fn finish_stopped(out: &Path) -> Result<(), SetError> {
    let read = |name: &str| Manifest::read_file(&out.join(name));
    let (Ok(now), Ok(before)) = (read(MANIFEST), read(MANIFEST_BEFORE)) else {
        return Ok(());
    };
    let gone: Vec<PathBuf> = before
        .files
        .iter()
        .filter(|b| now.files.iter().all(|f| f.key != b.key))
        .map(|b| table::path(out, b.key))
        .collect();
    folder::remove_dropped(out, &gone);
    folder::end_pack(out)
}
