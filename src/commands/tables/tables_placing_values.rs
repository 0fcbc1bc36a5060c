//! `moulin tables placing-values`: every position of the first plies of the game, one per
//! symmetry class, with its value by the placing solution and every move that keeps it, one line
//! each, to hold moulin's solution against a published one (`tests/data/placing-values.txt`);
//! the walk is the library's (`tables::placing_play::first_plies`).

use super::tables_shared::DirArgs;
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::tables::{placing_play, Tables};

/// The arguments of `moulin tables placing-values`.
#[derive(clap::Args, Debug)]
pub struct PlacingValuesArgs {
    /// The tables directory with its placing solution.
    #[command(flatten)]
    pub tables: DirArgs,
    /// The positions after 0 to this many plies.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=8))]
    pub plies: u8,
}

/// Runs `moulin tables placing-values`: `<position string> | <W|D|L> | <moves keeping it>`.
pub(super) fn run(args: &PlacingValuesArgs) -> Result<(), Failure> {
    let rules = super::tables_shared::table_rules(&args.tables.variant)?;
    let dir = args
        .tables
        .dir
        .clone()
        .unwrap_or_else(|| moulin::tables::default_dir(&args.tables.variant));
    let tables = Tables::open(&dir, &rules)?;
    if tables.placing().is_none() {
        return Err(format!(
            "no whole placing solution in {} (moulin tables build --placing)",
            dir.display()
        )
        .into());
    }
    let lines = placing_play::first_plies(&tables, rules, args.plies)?;
    outln!("# moulin placing solution, variant {}: every position after 0 to {} plies, one per symmetry class", args.tables.variant, args.plies)?;
    outln!(
        "# <position string> | <W|D|L for the side to move> | <every move that keeps that value>"
    )?;
    for line in lines {
        outln!(
            "{} | {} | {}",
            line.text,
            ["L", "D", "W"][(line.value + 1) as usize],
            line.keeping.join(" ")
        )?;
    }
    Ok(())
}
