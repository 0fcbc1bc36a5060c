//! `moulin tables sample`: positions drawn at random from the tables, as match openings, one per
//! line, the value as a comment.

use super::tables_shared::DirArgs;
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::rng::Rng;
use moulin::rules::Rules;
use moulin::tables::sample::sample;
use moulin::tables::{default_dir, Tables};

/// The arguments of `moulin tables sample`.
#[derive(clap::Args, Debug)]
pub struct SampleArgs {
    /// The tables to draw from.
    #[command(flatten)]
    pub tables: DirArgs,
    /// Positions per pair.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub per_pair: u32,
    /// Only positions won or lost for the side to move.
    #[arg(long)]
    pub decisive: bool,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `moulin tables sample`.
pub(super) fn run(args: &SampleArgs) -> Result<(), Failure> {
    let rules = Rules::preset(&args.tables.variant)
        .ok_or_else(|| format!("unknown variant '{}'", args.tables.variant))?;
    let dir = args
        .tables
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.tables.variant));
    let tables = Tables::open(&dir, &rules)?;
    let mut rng = Rng::new(args.seed);
    outln!(
        "# moulin tables sample --per-pair {} --seed {}{}: positions of {} drawn at random, \
         White to move; the comment is the value without draw rules",
        args.per_pair,
        args.seed,
        if args.decisive { " --decisive" } else { "" },
        dir.display()
    )?;
    for s in sample(&tables, &rules, args.per_pair, args.decisive, &mut rng) {
        outln!("fen {}  # {} dtc {}", s.fen, s.value, s.value.distance())?;
    }
    Ok(())
}
