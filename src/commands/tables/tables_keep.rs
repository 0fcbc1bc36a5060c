//! `moulin tables keep`: does the engine keep the value of covered endgames? Each position of a
//! file (`moulin tables sample`) is searched for a fixed time, with the tables or without them,
//! and the move played is judged by the tables: kept when its result has the position's value
//! (a win stays a win, a draw a draw, a loss a loss), optimal when it also has the best
//! distance. Draw rules are off, as in the tables.

use super::tables_shared::DirArgs;
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::record::openings::read_book_file;
use moulin::rules::position::Position;
use moulin::rules::Rules;
use moulin::search::{Control, Limits, Searcher};
use moulin::tables::default_dir;
use moulin::tables::{perfect_play, Tables, Value};
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

/// What happened to the positions of one pair of piece counts.
#[derive(Default)]
struct Counts {
    positions: u32,
    kept: u32,
    optimal: u32,
    decisive: u32,
    decisive_kept: u32,
}

/// Whether two values are both wins, both draws or both losses.
fn same_kind(a: Value, b: Value) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
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
    let mut searcher = Searcher::new(16, 1);
    if !args.without_tables {
        searcher.options.tables = Some(Arc::clone(&tables));
    }
    let bar = crate::commands::progress::bar(openings.len() as u64, 0, "", "positions");
    let mut by_pair: BTreeMap<(u32, u32), Counts> = BTreeMap::new();
    for opening in &openings {
        let game = opening.game(&rules)?;
        let pos: Position = *game.position();
        let us = pos.side_to_move();
        let Some(value) = tables.probe(&pos) else {
            return Err(format!("{}: not covered by the tables", opening.to_line()).into());
        };
        searcher.new_game();
        let limits = Limits {
            movetime: Some(args.movetime),
            ..Limits::default()
        };
        let result = searcher.search(&game, &limits, &Control::new(), &mut |_| {});
        let best = result.best.ok_or("a covered position with no move")?;
        let played =
            perfect_play::value_of_move(&tables, &pos, best).ok_or("a move out of the tables")?;
        let k = by_pair
            .entry((pos.on_board(us), pos.on_board(!us)))
            .or_default();
        k.positions += 1;
        k.kept += u32::from(same_kind(played, value));
        k.optimal += u32::from(played == value);
        if value != Value::Draw {
            k.decisive += 1;
            k.decisive_kept += u32::from(same_kind(played, value));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    print_report(&by_pair, args)
}

/// Prints one line per pair of piece counts, then the totals.
fn print_report(by_pair: &BTreeMap<(u32, u32), Counts>, args: &KeepArgs) -> Result<(), Failure> {
    let mut total = Counts::default();
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
        total.positions += k.positions;
        total.kept += k.kept;
        total.optimal += k.optimal;
        total.decisive += k.decisive;
        total.decisive_kept += k.decisive_kept;
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
