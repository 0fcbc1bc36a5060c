//! A table checked against the rules (`moulin tables verify`): each stored value must be the one
//! its successors give, through the same table and the smaller ones its removals lead to; and a
//! built directory's tables checked one after the other (`check_tables`), each loaded with those
//! its removals lead to.

use super::index::PairIndex;
use super::retrograde::{self, Successor};
use super::schedule::Store;
use super::table_set::Tables;
use super::tables_error::TablesError;
use super::values::{Value, Values};
use crate::rules::Rules;
use rayon::prelude::*;
use std::path::Path;

/// One table checked: its pair, the positions checked and those whose value is not the one
/// their successors give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableChecked {
    /// The pair (pieces of the side to move, of the other side).
    pub pair: (usize, usize),
    /// The positions checked.
    pub checked: u64,
    /// Those that disagree with their successors.
    pub wrong: u64,
}

/// The tables of `pairs` in `dir` checked one after the other (`check_table`: every position,
/// or `sample` of each), each loaded with its mirror and the tables its removals lead to; each
/// told to `each` as it is checked. The checks run on the caller's rayon pool.
///
/// # Errors
///
/// A table that cannot be loaded, or whose successors cannot be made; what `each` returns.
pub fn check_tables<E: From<TablesError>>(
    dir: &Path,
    rules: &Rules,
    pairs: &[(usize, usize)],
    sample: Option<u64>,
    mut each: impl FnMut(TableChecked) -> Result<(), E>,
) -> Result<(), E> {
    let largest = pairs.iter().map(|&(m, o)| m.max(o)).max().unwrap_or(3);
    let mut store = Store::new(dir, rules, largest);
    for &(m, o) in pairs {
        store.ensure((m, o))?;
        store.ensure((o, m))?;
        store.load_dependencies(m.min(o), m.max(o))?;
        let tables = store.tables();
        let values = tables
            .values(m, o)
            .ok_or(TablesError::Missing { mover: m, other: o })?;
        let (checked, wrong) = check_table(rules, tables, values, (m, o), sample)?;
        each(TableChecked {
            pair: (m, o),
            checked,
            wrong,
        })?;
    }
    Ok(())
}

/// The canonical positions of table `(m, o)` (its `values`) checked, all of them or those among
/// `sample` slots spread evenly over it, and how many of them hold a value that is not the one
/// their successors give in `tables`; each disagreement is logged as a warning.
pub fn check_table(
    rules: &Rules,
    tables: &Tables,
    values: &Values,
    (m, o): (usize, usize),
    sample: Option<u64>,
) -> Result<(u64, u64), TablesError> {
    let index = PairIndex::new(m, o, tables.classes());
    let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
    let len = index.len();
    let n = sample.map_or(len, |s| s.min(len));
    (0..n)
        .into_par_iter()
        .map(|i| (u128::from(i) * u128::from(len) / u128::from(n)) as u64)
        .filter(|&slot| index.is_canonical(slot))
        .map_init(Vec::new, |succ, slot| {
            let (ours, theirs) = index.position(slot);
            retrograde::successors(rules, ours, theirs, &exit, succ)?;
            let expected = retrograde::value_from(succ.iter().map(|s| match *s {
                Successor::Exit(v) => Some(v),
                Successor::Stay { ours, theirs } => match tables.value(ours, theirs) {
                    Some(Value::Draw) | None => None,
                    v => v,
                },
            }))
            .unwrap_or(Value::Draw);
            let stored = values.get(slot as usize);
            if stored != expected {
                log::warn!(
                    "{m}-{o} slot {slot} ({ours:06x} {theirs:06x}): stored {stored:?}, successors give {expected:?}"
                );
            }
            Ok((1, u64::from(stored != expected)))
        })
        .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))
}
