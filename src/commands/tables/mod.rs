//! `moulin tables`: the endgame tables' commands (build, stats, verify, plan, sample,
//! placing-values, keep), and what they share: the rules of a preset the tables serve, a pair
//! read from the command line, the threads' pool, a built directory's arguments and files.

mod tables_build;
mod tables_keep;
mod tables_placing_values;
mod tables_plan;
mod tables_plan_placing;
mod tables_sample;
mod tables_stats;
mod tables_verify;

use crate::commands::output::Failure;
use crate::rules::Rules;
use crate::tables::{default_dir, file, fingerprint, unsupported, MAX_PIECES};
use clap::Subcommand;
use std::path::PathBuf;

/// The subcommands of `moulin tables`.
#[derive(Subcommand)]
pub enum TablesCommand {
    /// Compute every moving-phase position with 3 to N pieces a side (or one pair), resuming
    /// where a stopped build was.
    Build(tables_build::BuildArgs),
    /// One line per table: `W-B wins N losses N draws N max-win D max-loss D`, counted up to
    /// symmetry.
    Stats(DirArgs),
    /// Check every stored value (or an even sample of them) against its successors; fails on
    /// any disagreement.
    Verify(tables_verify::VerifyArgs),
    /// Print a shell script that submits the same build to a Slurm cluster as job arrays.
    Plan(tables_plan::PlanArgs),
    /// Draw positions from the tables, as match openings (`fen ...`) with their values.
    Sample(tables_sample::SampleArgs),
    /// Every position of the first plies, one per symmetry class, with its value by the placing
    /// solution and the moves that keep it (as tests/data/placing-values.txt).
    PlacingValues(tables_placing_values::PlacingValuesArgs),
    /// Search sampled positions and count the moves that keep the tables' value.
    Keep(tables_keep::KeepArgs),
}

/// Runs a `moulin tables` subcommand.
///
/// # Errors
///
/// What went wrong, or `Failure::Closed` when standard output's reader left.
pub(super) fn run(command: TablesCommand) -> Result<(), Failure> {
    match command {
        TablesCommand::Build(args) => tables_build::run(&args).map_err(Failure::from),
        TablesCommand::Stats(args) => tables_stats::run(&args),
        TablesCommand::Verify(args) => tables_verify::run(&args),
        TablesCommand::Plan(args) => tables_plan::run(&args),
        TablesCommand::Sample(args) => tables_sample::run(&args),
        TablesCommand::PlacingValues(args) => tables_placing_values::run(&args),
        TablesCommand::Keep(args) => tables_keep::run(&args),
    }
}

/// The rules of a preset, without draw rules, refused when tables cannot serve them.
pub(super) fn table_rules(variant: &str) -> Result<Rules, String> {
    let rules = Rules::named(variant).map_err(|e| e.to_string())?;
    match unsupported(&rules) {
        Some(why) => Err(format!("variant {variant}: {why}")),
        None => Ok(rules.without_draw_rules()),
    }
}

/// Parses `W-B`, as the group `(a, b)` with `a <= b`.
pub(super) fn parse_pair(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--pair '{text}': expected W-B with 3 to {MAX_PIECES} pieces a side");
    let (w, b) = text.split_once('-').ok_or_else(bad)?;
    let (w, b) = (
        w.parse::<usize>().map_err(|_| bad())?,
        b.parse::<usize>().map_err(|_| bad())?,
    );
    if !(3..=MAX_PIECES as usize).contains(&w) || !(3..=MAX_PIECES as usize).contains(&b) {
        return Err(bad());
    }
    Ok((w.min(b), w.max(b)))
}

/// A pool of `threads` threads (default: one per core).
pub(super) fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, String> {
    crate::parallel::pool(threads.map(usize::from), None)
        .map_err(|e| format!("cannot start the threads: {e}"))
}

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
