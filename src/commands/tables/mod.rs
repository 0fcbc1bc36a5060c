//! `moulin tables`: the endgame tables' commands (build, stats, verify, plan, sample,
//! placing-values, keep, opening, pack, install), parsed and dispatched; what they share is in `tables_shared.rs`.

mod tables_build;
mod tables_keep;
mod tables_opening;
mod tables_pack;
mod tables_placing_values;
mod tables_plan;
mod tables_plan_placing;
mod tables_plan_shell;
mod tables_sample;
mod tables_shared;
mod tables_stats;
mod tables_verify;

use crate::commands::failure::Failure;
use clap::Subcommand;
use tables_shared::DirArgs;

/// The subcommands of `moulin tables`.
#[derive(Subcommand)]
pub enum TablesCommand {
    /// Build the moving tables, or the placing solution
    ///
    /// Compute every moving-phase position with 3 to N pieces a side (or one pair), resuming
    /// where a stopped build was.
    Build(tables_build::BuildArgs),
    /// Count wins, losses and draws per table
    ///
    /// One line per table: `W-B wins N losses N draws N max-win D max-loss D`, counted up to
    /// symmetry.
    Stats(DirArgs),
    /// Check the tables or a packed set
    ///
    /// Check every stored value (or an even sample of them) against its successors; fails on
    /// any disagreement. On a packed set (--dir its folder): every file's size and checksum,
    /// every block, then --sample N positions of each table (2,000 by default).
    Verify(tables_verify::VerifyArgs),
    /// Print a Slurm script for a cluster build
    ///
    /// Print a shell script that submits the same build to a Slurm cluster as job arrays.
    Plan(tables_plan_shell::PlanArgs),
    /// Draw positions from the tables, as openings
    ///
    /// Draw positions from the tables, as match openings (`fen ...`) with their values.
    Sample(tables_sample::SampleArgs),
    /// List the first plies with their exact values
    ///
    /// Every position of the first plies, one per symmetry class, with its value by the placing
    /// solution and the moves that keep it (as tests/data/placing-values.txt).
    PlacingValues(tables_placing_values::PlacingValuesArgs),
    /// Count the moves that keep the tables' value
    ///
    /// Search sampled positions and count the moves that keep the tables' value.
    Keep(tables_keep::KeepArgs),
    /// Make or verify the opening's solution
    ///
    /// Make the opening's solution (the placing solution's first plies in one compressed file,
    /// shipped in book/ and found like the book) from a built placing solution, printing its
    /// size ply by ply; or verify one (--verify FILE) against the solution and the rules.
    Opening(tables_opening::OpeningArgs),
    /// Pack the built solution into a set that travels
    ///
    /// Pack the built moving tables and placing solution into a set that travels: every value
    /// and distance, in zstd blocks probed where they lie, with a manifest (rules, format,
    /// coverage, each file's size and checksum); resumes where a stopped run was.
    Pack(tables_pack::PackArgs),
    /// Check a packed set and install it
    ///
    /// Check a packed set whole (manifest, checksums, a sample of values against their
    /// successors), copy it, check the copy, and put it where the engine looks.
    Install(tables_pack::InstallArgs),
}

/// Runs a `moulin tables` subcommand.
///
/// # Errors
///
/// What went wrong, or `Failure::Closed` when standard output's reader left.
pub(super) fn run(command: TablesCommand) -> Result<(), Failure> {
    match command {
        TablesCommand::Build(args) => tables_build::run(&args),
        TablesCommand::Stats(args) => tables_stats::run(&args),
        TablesCommand::Verify(args) => tables_verify::run(&args),
        TablesCommand::Plan(args) => tables_plan::run(&args),
        TablesCommand::Sample(args) => tables_sample::run(&args),
        TablesCommand::PlacingValues(args) => tables_placing_values::run(&args),
        TablesCommand::Keep(args) => tables_keep::run(&args),
        TablesCommand::Opening(args) => tables_opening::run(&args),
        TablesCommand::Pack(args) => tables_pack::run_pack(&args),
        TablesCommand::Install(args) => tables_pack::run_install(&args),
    }
}
