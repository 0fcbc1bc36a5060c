//! `moulin tables verify`: every stored value (or an even sample of them) against its
//! successors; an error (non-zero exit) on any disagreement.

use super::output::{outln, Failure};
use super::tables_build::{parse_pair, pool};
use super::tables_stats::{table_files, DirArgs, TableFiles};
use crate::tables::consistency::check_table;
use crate::tables::schedule::Store;

/// The arguments of `moulin tables verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The tables to check.
    #[command(flatten)]
    pub tables: DirArgs,
    /// Only this pair and its mirror (W-B), with the tables their removals lead to.
    #[arg(long)]
    pub pair: Option<String>,
    /// Check this many positions of each table, spread evenly over it, instead of all (the
    /// tables up to 9 a side hold 9.2 billion positions).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
}

/// Runs `moulin tables verify`.
pub(super) fn run(args: &VerifyArgs) -> Result<(), Failure> {
    let TableFiles {
        rules,
        dir,
        mut list,
        ..
    } = table_files(&args.tables)?;
    if let Some(p) = &args.pair {
        let (a, b) = parse_pair(p)?;
        list.retain(|&(m, o, _)| (m, o) == (a, b) || (m, o) == (b, a));
        if list.is_empty() {
            return Err(format!("no table {a}-{b} or {b}-{a} in {}", dir.display()).into());
        }
    }
    let largest = list.iter().map(|&(m, o, _)| m.max(o)).max().unwrap_or(3);
    let pool = pool(args.tables.threads)?;
    let mut store = Store::new(&dir, &rules, largest);
    let mut wrong_total = 0u64;
    for (m, o, _) in list {
        let load = |store: &mut Store| -> Result<(), crate::tables::TablesError> {
            store.ensure((m, o))?;
            store.ensure((o, m))?;
            store.load_dependencies(m.min(o), m.max(o))
        };
        load(&mut store).map_err(|e| e.to_string())?;
        let tables = store.tables();
        let values = tables.values(m, o).ok_or("a table that verify loaded")?;
        let (checked, wrong) = pool
            .install(|| check_table(&rules, tables, values, (m, o), args.sample))
            .map_err(|e| e.to_string())?;
        let sampled = match args.sample {
            Some(_) => format!(" ({checked} positions checked)"),
            None => String::new(),
        };
        outln!(
            "{m}-{o}: {}{sampled}",
            if wrong == 0 {
                "consistent".to_string()
            } else {
                format!("{wrong} values disagree with their successors")
            }
        )?;
        wrong_total += wrong;
    }
    if wrong_total > 0 {
        return Err(format!("{wrong_total} values disagree with their successors").into());
    }
    Ok(())
}
