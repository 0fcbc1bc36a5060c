//! The retrograde tables (`moulin::tables`) against the naive solver, value for value, on every
//! placement of every pair (no symmetry folded on the naive side, so this also checks the
//! tables' index over all 16 images of each position).

use super::naive::{self, Naive, Value};
use moulin::tables::index::{expand, subsets};
use moulin::tables::schedule::solve_in_memory;
use moulin::tables::{Tables, Value as TableValue};
use moulin::{Bitboard, Rules};

/// Compares every position of pairs with 3 to `max` pieces a side; the number compared.
fn compare(naive: &Naive, tables: &Tables, max: u32) -> u64 {
    let mut compared = 0;
    for a in 3..=max {
        let movers: Vec<u32> = subsets(24, a as usize).collect();
        for b in 3..=max {
            for &m in &movers {
                let free = !m & 0xff_ffff;
                // Every b-subset of the free points.
                for o in subsets(24 - a as usize, b as usize) {
                    let other = expand(o, free);
                    let expected = naive
                        .value(Bitboard(m), Bitboard(other))
                        .expect("a solved pair");
                    let got = tables.value(m, other).expect("a solved pair");
                    let got = match got {
                        TableValue::Win(d) => Value::Win(d),
                        TableValue::Loss(d) => Value::Loss(d),
                        TableValue::Draw => Value::Draw,
                    };
                    assert_eq!(got, expected, "{a}-{b}: mover {m:06x} other {other:06x}");
                    compared += 1;
                }
            }
        }
    }
    compared
}

#[test]
fn the_tables_agree_with_the_naive_solver_up_to_three_a_side() {
    let tables = solve_in_memory(&super::nine(), 3).unwrap();
    assert_eq!(compare(super::nine_up_to_three(), &tables, 3), 2_691_920);
}

#[test]
fn the_tables_of_twelve_agree_with_the_naive_solver_up_to_three_a_side() {
    let twelve = Rules::preset("twelve").unwrap().without_draw_rules();
    let tables = solve_in_memory(&twelve, 3).unwrap();
    assert_eq!(compare(&naive::solve(&twelve, 3), &tables, 3), 2_691_920);
}

#[test]
#[ignore = "solves every pair up to 4 a side twice: minutes in release mode"]
fn the_tables_agree_with_the_naive_solver_up_to_four_a_side() {
    let tables = solve_in_memory(&super::nine(), 4).unwrap();
    let naive = naive::solve(&super::nine(), 4);
    let n = compare(&naive, &tables, 4);
    eprintln!("{n} positions agree");
    assert_eq!(n, 2_691_920 + 2 * 12_113_640 + 51_482_970);
}
