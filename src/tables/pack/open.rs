//! A packed set opened for probing: the manifest read and checked against the rules, each file
//! there with its size, each table's header and index checked (the blocks are checked as they
//! are unpacked; `verify` checks everything), every table opened with the cache of the `Tables`
//! it fills.

use super::manifest::{Listed, Manifest, MANIFEST};
use super::storage::{group_derivable, pair_derivable, TableHeld};
use crate::rules::Rules;
use crate::tables::block_cache::BlockCache;
use crate::tables::groups;
use crate::tables::index::pair_len;
use crate::tables::packed_flaw::PackedFlaw;
use crate::tables::packed_table::{self as table, PackedTable};
use crate::tables::placing::{packed::bytes_for, solution::Solution};
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use crate::tables::{Tables, Values, MAX_PIECES};
use std::path::Path;
use std::sync::Arc;

/// Opens the set `dir` for `rules`: the manifest read and checked against the rules, each file
/// there with its size, each table's header and index checked (the blocks are checked as they
/// are unpacked; `verify` checks everything). Tables of the moving phase and, when the set
/// holds every group, the placing solution.
pub fn open(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
    let manifest = Manifest::read(dir)?;
    manifest.check_rules(dir, rules)?;
    let largest = manifest
        .pairs()
        .map(|(m, o)| m.max(o))
        .max()
        .unwrap_or(3)
        .min(MAX_PIECES) as usize;
    let mut tables = Tables::empty(rules, largest);
    let cache = Arc::clone(tables.block_cache());
    let mut placing = std::collections::HashMap::new();
    let placing_serves = manifest.placing_serves(rules);
    let refuse = |flaw: PackedFlaw| TablesError::Packed {
        path: dir.join(MANIFEST),
        flaw,
    };
    if manifest.keys().any(|k| !key_fits(k, manifest.pieces)) {
        return Err(refuse(PackedFlaw::ForeignTable));
    }
    for f in &manifest.files {
        if matches!(f.key, Key::Placing(_)) && !placing_serves {
            continue;
        }
        let t = Arc::new(open_listed(dir, &manifest, f, &cache)?);
        match f.key {
            Key::Moving(m, o) => tables.insert(m as usize, o as usize, Values::Packed(t)),
            Key::Placing(g) => {
                placing.insert(g, t);
            }
        }
    }
    let mut derived_groups = Vec::new();
    for d in &manifest.derived {
        let slots = match d.key {
            Key::Moving(m, o) => pair_len(m as usize, o as usize),
            Key::Placing(g) => pair_len(g.mover as usize, g.other as usize),
        };
        if d.slots != slots {
            return Err(refuse(PackedFlaw::DerivedSlots {
                key: d.key,
                said: d.slots,
                has: slots,
            }));
        }
        match d.key {
            Key::Moving(m, o) => {
                let (m, o) = (m as usize, o as usize);
                if !(d.width == 1 || d.width == 2) || !pair_derivable(&tables, rules, m, o) {
                    return Err(refuse(PackedFlaw::DerivesWithoutTables { key: d.key }));
                }
                tables.insert(m, o, Values::Derived(d.slots as usize, d.width, d.longest));
            }
            Key::Placing(g) if placing_serves => derived_groups.push(g),
            Key::Placing(_) => {}
        }
    }
    // The derived groups once every moving table is in, whatever the manifest's order.
    let stored = |s| placing.contains_key(&s);
    let moving = |m: usize, o: usize| match tables.values(m, o) {
        Some(Values::Derived(..)) => TableHeld::Derived,
        Some(_) => TableHeld::Stored,
        None => TableHeld::Absent,
    };
    if let Some(&g) = derived_groups
        .iter()
        .find(|&&g| !group_derivable(rules, g, &stored, &moving))
    {
        return Err(refuse(PackedFlaw::DerivesWithoutGroup {
            key: Key::Placing(g),
        }));
    }
    let covered = placing.len() + derived_groups.len();
    if covered > 0 {
        let all = groups::all(rules);
        let whole = all
            .iter()
            .all(|g| placing.contains_key(g) || derived_groups.contains(g));
        if whole && covered == all.len() {
            tables.set_placing(Arc::new(Solution::from_packed_set(
                rules,
                placing,
                &derived_groups,
            )));
        } else {
            log::warn!(
                "{}: the set holds {} of the {} placing groups: its placing is not used",
                dir.display(),
                covered,
                all.len()
            );
        }
    }
    Ok(tables)
}

/// The packed table the manifest lists as `f`, opened: its size as listed, its header, index
/// and length as its key's; its blocks kept in `cache`.
fn open_listed(
    dir: &Path,
    manifest: &Manifest,
    f: &Listed,
    cache: &Arc<BlockCache>,
) -> Result<PackedTable, TablesError> {
    let path = table::path(dir, f.key);
    let meta = std::fs::metadata(&path).map_err(|source| TablesError::Open {
        path: path.clone(),
        source,
    })?;
    if let Some(kind) = crate::input_file::not_regular(&meta) {
        // A named pipe or a folder is no table cut short: say what it is.
        return Err(TablesError::NotAFile { path, kind });
    }
    let len = meta.len();
    if len != f.size {
        return Err(TablesError::Packed {
            path,
            flaw: PackedFlaw::Size {
                bytes: len,
                listed: f.size,
            },
        });
    }
    let t = PackedTable::open(&path, f.key, manifest.print_of(f.key), cache)?;
    check_length(&t, f.key)?;
    Ok(t)
}

/// Whether a manifest's `key` is a table of the game of `pieces` a side.
fn key_fits(key: Key, pieces: u8) -> bool {
    let fits = |n: u8| (3..=MAX_PIECES).contains(&n) && n <= pieces.max(3);
    match key {
        Key::Moving(m, o) => fits(m) && fits(o),
        Key::Placing(g) => {
            (1..=2 * pieces).contains(&g.left) && g.mover <= pieces && g.other <= pieces
        }
    }
}

/// A packed table whose values are not as long as its key's table: refused, naming it.
fn check_length(t: &PackedTable, key: Key) -> Result<(), TablesError> {
    let m = t.meta();
    let want = match key {
        Key::Moving(a, b) => pair_len(a as usize, b as usize) * u64::from(m.width),
        Key::Placing(g) => {
            let slots = pair_len(g.mover as usize, g.other as usize);
            if m.extra != slots {
                return Err(TablesError::Packed {
                    path: t.path().to_path_buf(),
                    flaw: PackedFlaw::Slots {
                        said: m.extra,
                        key,
                        has: slots,
                    },
                });
            }
            bytes_for(slots) as u64
        }
    };
    if m.len == want {
        return Ok(());
    }
    Err(TablesError::Packed {
        path: t.path().to_path_buf(),
        flaw: PackedFlaw::ValuesLength {
            bytes: m.len,
            key,
            want,
        },
    })
}
