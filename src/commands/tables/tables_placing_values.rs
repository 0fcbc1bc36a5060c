//! `moulin tables placing-values`: every position of the first plies of the game, one per
//! symmetry class, with its value by the placing solution and every move that keeps it, one line
//! each, to hold moulin's solution against a published one (`tests/data/placing-values.txt`).

use super::tables_shared::DirArgs;
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::rules::fen;
use moulin::rules::movegen::legal_moves;
use moulin::rules::notation::Convention;
use moulin::rules::position::Position;
use moulin::search::exact::solved;
use moulin::tables::Tables;
use std::collections::BTreeMap;

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

/// The least image of `pos` under the board's symmetries (by its position string), the class's
/// representative.
fn representative(pos: &Position) -> (String, Position) {
    (0..moulin::rules::symmetry::SYMMETRIES)
        .map(|s| {
            let image = pos.transformed(s);
            (fen::write(&image), image)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .expect("sixteen images")
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
    let mut layer: BTreeMap<String, Position> = BTreeMap::new();
    let start = Position::start(rules);
    let (text, pos) = representative(&start);
    layer.insert(text, pos);
    outln!("# moulin placing solution, variant {}: every position after 0 to {} plies, one per symmetry class", args.tables.variant, args.plies)?;
    outln!(
        "# <position string> | <W|D|L for the side to move> | <every move that keeps that value>"
    )?;
    for ply in 0..=args.plies {
        let mut next: BTreeMap<String, Position> = BTreeMap::new();
        for (text, pos) in &layer {
            let moves = legal_moves(pos, Convention::Turn);
            let value = tables
                .placing_value(pos)
                .ok_or_else(|| format!("{text}: not in the placing solution"))?;
            let keeping: Vec<String> = moves
                .iter()
                .filter(|&&m| solved::move_value(&tables, pos, m) == Some(value))
                .map(|m| m.written_at(pos, Convention::Turn))
                .collect();
            outln!(
                "{text} | {} | {}",
                ["L", "D", "W"][(value + 1) as usize],
                keeping.join(" ")
            )?;
            if ply < args.plies {
                for m in moves {
                    let mut child = *pos;
                    child.play(m);
                    if child.outcome().is_none() && child.is_placing() {
                        let (t, p) = representative(&child);
                        next.insert(t, p);
                    }
                }
            }
        }
        layer = next;
    }
    Ok(())
}
