//! A packed set's values checked against their successors (`moulin tables verify` and `install`
//! on a set, after its checksums): positions of each stored moving table (`consistency`) and
//! of each stored placing group (`placing_verify`). A derived table or group is its
//! successors' by construction, and is not checked.

use super::manifest::Manifest;
use crate::rules::Rules;
use crate::tables::consistency::check_table;
use crate::tables::groups::{self, Group};
use crate::tables::index::{pair_len, Classes};
use crate::tables::placing_verify;
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use crate::tables::{Tables, Values};
use std::path::Path;

/// A table of a set some of whose sampled values disagree with their successors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disagreeing {
    /// A moving table: its pairs, the positions checked and those that disagree.
    Moving {
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
        /// Positions checked.
        checked: u64,
        /// Positions that disagree.
        wrong: u64,
    },
    /// A placing group, and its positions that disagree.
    Placing {
        /// The group.
        group: Group,
        /// Positions that disagree.
        wrong: u64,
    },
}

impl Disagreeing {
    /// The positions that disagree.
    pub fn wrong(&self) -> u64 {
        match *self {
            Disagreeing::Moving { wrong, .. } | Disagreeing::Placing { wrong, .. } => wrong,
        }
    }
}

/// Checks `sample` positions of each stored table of the set `dir`, opened as `tables` for
/// `rules`, against their successors (on the threads of the pool it runs in): the tables and
/// groups where some disagree.
pub fn check_sample(
    dir: &Path,
    tables: &Tables,
    rules: &Rules,
    sample: u64,
) -> Result<Vec<Disagreeing>, TablesError> {
    let mut out = Vec::new();
    for (mover, other) in tables.pairs() {
        let Some(values) = tables.values(mover, other) else {
            continue;
        };
        // A derived table's values are its successors' by construction.
        if let Values::Derived(..) = values {
            continue;
        }
        let (checked, wrong) = check_table(rules, tables, values, (mover, other), Some(sample))?;
        if wrong > 0 {
            out.push(Disagreeing::Moving {
                mover,
                other,
                checked,
                wrong,
            });
        }
    }
    let Some(solution) = tables.placing().filter(|s| s.is_whole()) else {
        return Ok(out);
    };
    let classes = Classes::new(rules.pieces as usize);
    let derived: Vec<Key> = Manifest::read(dir)?.derived.iter().map(|d| d.key).collect();
    for group in groups::all(rules) {
        if derived.contains(&Key::Placing(group)) {
            continue;
        }
        let size = pair_len(group.mover as usize, group.other as usize);
        let step = (size / sample).max(1);
        let slots = (0..size).step_by(step as usize);
        let wrong =
            placing_verify::check(rules, &classes, solution, tables, group, slots).len() as u64;
        if wrong > 0 {
            out.push(Disagreeing::Placing { group, wrong });
        }
    }
    Ok(out)
}
