//! `moulin tables keep`: does the engine keep the value of covered endgames? The positions of a
//! file (`moulin tables sample`) are measured by `search::keeping`, with the tables or without
//! them, and the counts printed by pair. Draw rules are off, as in the tables.

use super::tables_shared::DirArgs;
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use crate::commands::progress::Bars;
use moulin::record::openings::read_book_file;
use moulin::rules::Rules;
use moulin::search::keeping::{self, KeepCounts};
use moulin::tables::default_dir;
use moulin::tables::Tables;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The flags of `moulin tables keep`.
#[derive(clap::Args, Debug)]
pub struct KeepArgs {
    /// The tables that judge the moves (and that the search probes, unless --without-tables).
    #[command(flatten)]
    pub tables: DirArgs,
    /// The positions: an openings file of `fen` lines, as `moulin tables sample` writes.
    #[arg(long)]
    pub positions: PathBuf,
    /// Milliseconds a move.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: u64,
    /// Search without the tables (they only judge the moves).
    #[arg(long)]
    pub without_tables: bool,
}

/// Runs `moulin tables keep`.
pub(super) fn run(args: &KeepArgs) -> Result<(), Failure> {
    let rules = Rules::preset(&args.tables.variant)
        .ok_or_else(|| format!("unknown variant '{}'", args.tables.variant))?
        .without_draw_rules();
    let dir = args
        .tables
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.tables.variant));
    let tables = Arc::new(Tables::open(&dir, &rules)?);
    let openings = read_book_file(&args.positions, &rules)?;
    let games = openings
        .iter()
        .map(|o| o.game(&rules))
        .collect::<Result<Vec<_>, _>>()?;
    let by_pair = keeping::measure(
        &tables,
        &games,
        args.movetime,
        args.without_tables,
        &Bars::default(),
    )
    .map_err(|e| format!("{}: {e}", openings[e.index()].to_line()))?;
    print_report(&by_pair, args)
}

/// Prints one line per pair of piece counts, then the totals.
fn print_report(
    by_pair: &BTreeMap<(u32, u32), KeepCounts>,
    args: &KeepArgs,
) -> Result<(), Failure> {
    let mut total = KeepCounts::default();
    outln!(
        "{} at {} ms a move, draw rules off:",
        if args.without_tables {
            "without tables"
        } else {
            "with tables"
        },
        args.movetime
    )?;
    for ((m, o), k) in by_pair {
        outln!(
            "{m}-{o} positions {} kept {} optimal {} decisive {} decisive-kept {}",
            k.positions,
            k.kept,
            k.optimal,
            k.decisive,
            k.decisive_kept
        )?;
        total.add(k);
    }
    let share = |a: u32, b: u32| 100.0 * f64::from(a) / f64::from(b.max(1));
    outln!(
        "all positions {} kept {} ({:.1}%) optimal {} ({:.1}%); decisive {} kept {} ({:.1}%)",
        total.positions,
        total.kept,
        share(total.kept, total.positions),
        total.optimal,
        share(total.optimal, total.positions),
        total.decisive,
        total.decisive_kept,
        share(total.decisive_kept, total.decisive)
    )
}
