//! `moulin tables stats`: one line per table, its wins, losses, draws and longest distances,
//! counted up to symmetry. Also the arguments every command over a built directory shares.

use super::output::{outln, Failure};
use super::tables_build::{pool, table_rules};
use crate::rules::Rules;
use crate::tables::index::Classes;
use crate::tables::tally::tally;
use crate::tables::{default_dir, file, fingerprint};
use std::path::PathBuf;

/// The arguments of the commands that read a built tables directory.
#[derive(clap::Args, Debug)]
pub struct DirArgs {
    /// The tables directory (default: ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Rule preset the tables were built for.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// The rules, directory, fingerprint and table files `DirArgs` name.
pub(super) struct TableFiles {
    /// The rules of the preset, without draw rules.
    pub rules: Rules,
    /// The tables directory.
    pub dir: PathBuf,
    /// The fingerprint of the rules.
    pub print: u64,
    /// The table files, as (mover, other, path), in order of pieces.
    pub list: Vec<(usize, usize, PathBuf)>,
}

/// The table files `args` name; a directory without tables is an error.
pub(super) fn table_files(args: &DirArgs) -> Result<TableFiles, String> {
    let rules = table_rules(&args.variant)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    let list = file::list(&dir).map_err(|e| e.to_string())?;
    if list.is_empty() {
        return Err(format!("no tables in {}", dir.display()));
    }
    Ok(TableFiles {
        rules,
        print: fingerprint(&rules),
        dir,
        list,
    })
}

/// Runs `moulin tables stats`.
pub(super) fn run(args: &DirArgs) -> Result<(), Failure> {
    let TableFiles { print, list, .. } = table_files(args)?;
    let largest = list.iter().map(|&(m, _, _)| m).max().unwrap_or(3);
    let classes = Classes::new(largest);
    let pool = pool(args.threads)?;
    for (m, o, path) in list {
        let values = file::read(&path, print, m, o).map_err(|e| e.to_string())?;
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
