//! `moulin tables stats`: one line per table, its wins, losses, draws and longest distances,
//! counted up to symmetry.

use super::tables_shared::{pool, table_files, DirArgs, TableFiles};
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::tables::file;
use moulin::tables::index::Classes;
use moulin::tables::tally::tally;

/// Runs `moulin tables stats`.
pub(super) fn run(args: &DirArgs) -> Result<(), Failure> {
    let TableFiles { print, list, .. } = table_files(args)?;
    let largest = list.iter().map(|&(m, _, _)| m).max().unwrap_or(3);
    let classes = Classes::new(largest);
    let pool = pool(args.threads)?;
    let cache = std::sync::Arc::default();
    for (m, o, path) in list {
        let values = file::read_listed(&path, print, m, o, &cache)?.resident()?;
        let t = pool.install(|| tally(&classes, m, o, &values));
        outln!(
            "{m}-{o} wins {} losses {} draws {} max-win {} max-loss {}",
            t.wins,
            t.losses,
            t.draws,
            t.max_win,
            t.max_loss
        )?;
    }
    Ok(())
}
