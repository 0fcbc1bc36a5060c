//! Sampling positions from the tables: for each pair, positions drawn at random among its
//! stored positions, written as match openings (`fen <position string>`, book/README.md) with
//! their value, to measure play in covered endgames.

use super::index::PairIndex;
use super::retrograde::position;
use super::table_set::Tables;
use super::values::Value;
use crate::rng::Rng;
use crate::rules::fen;
use crate::rules::Rules;

/// One sampled position: its position string (White to move) and its value.
pub struct Sampled {
    /// The position string.
    pub fen: String,
    /// Its value for White, to move, without draw rules.
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
        let mut found = 0;
        // Give up on a pair with too few positions of the kind asked for.
        for _ in 0..u64::from(per_pair) * 1000 {
            if found == per_pair {
                break;
            }
            let slot = rng.below(index.len() as usize) as u64;
            if !index.is_canonical(slot) {
                continue;
            }
            let (ours, theirs) = index.position(slot);
            // Through the tables (a packed set's derived table has no values of its own).
            let Some(v) = tables.value(ours, theirs) else {
                continue;
            };
            if decisive && v == Value::Draw {
                continue;
            }
            out.push(Sampled {
                fen: fen::write(&position(rules, ours, theirs)),
                value: v,
            });
            found += 1;
        }
    }
    out
}
