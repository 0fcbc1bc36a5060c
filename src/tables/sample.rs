//! Sampling positions from the tables: for each pair, positions drawn at random among its
//! stored positions, written as match openings (`fen <position string>`, book/README.md) with
//! their value, to measure play in covered endgames.

use super::build::{default_dir, DirArgs};
use super::index::PairIndex;
use super::solve::position;
use super::{Tables, Value};
use crate::rng::Rng;
use crate::rules::fen;
use crate::rules::Rules;

#[derive(clap::Args, Debug)]
pub struct SampleArgs {
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

/// One sampled position: its position string (White to move) and its value.
pub struct Sampled {
    pub fen: String,
    pub value: Value,
}

/// Draws `per_pair` positions from every pair of `tables`.
pub fn sample(
    tables: &Tables,
    rules: &Rules,
    per_pair: u32,
    decisive: bool,
    rng: &mut Rng,
) -> Vec<Sampled> {
    let mut out = Vec::new();
    for (m, o) in tables.pairs() {
        let index = PairIndex::new(m, o, tables.classes());
        let values = tables.values(m, o).expect("a loaded pair");
        let mut found = 0;
        // Give up on a pair with too few positions of the kind asked for.
        for _ in 0..u64::from(per_pair) * 1000 {
            if found == per_pair {
                break;
            }
            let slot = rng.below(index.len() as usize) as u64;
            let v = values.get(slot as usize);
            if !index.is_canonical(slot) || (decisive && v == Value::Draw) {
                continue;
            }
            let (ours, theirs) = index.position(slot);
            out.push(Sampled {
                fen: fen::write(&position(rules, ours, theirs)),
                value: v,
            });
            found += 1;
        }
    }
    out
}

/// `moulin tables sample`: positions as match openings, one per line, the value as a comment.
pub fn run_sample(args: SampleArgs) -> Result<(), String> {
    let rules = Rules::preset(&args.tables.variant)
        .ok_or_else(|| format!("unknown variant '{}'", args.tables.variant))?;
    let dir = args
        .tables
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.tables.variant));
    let tables = Tables::open(&dir, &rules)?;
    let mut rng = Rng::new(args.seed);
    println!(
        "# moulin tables sample --per-pair {} --seed {}{}: positions of {} drawn at random, \
         White to move; the comment is the value without draw rules",
        args.per_pair,
        args.seed,
        if args.decisive { " --decisive" } else { "" },
        dir.display()
    );
    for s in sample(&tables, &rules, args.per_pair, args.decisive, &mut rng) {
        println!("fen {}  # {} dtc {}", s.fen, s.value, s.value.distance());
    }
    Ok(())
}
