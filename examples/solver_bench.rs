//! Measures the exact solver of the placing on the positions of a critical suite of the standard
//! rules (`nine`): for each, a fresh memory, the position's value within a budget of positions,
//! and whether the move that proved it keeps the suite's value. Prints each position's figures
//! and the totals, so that two versions of the solver can be compared on the same positions
//! (`farm-bench` for the times).
//!
//! `cargo run --release --example solver_bench -- TABLES SUITE [BUDGET] [MIN_PLY] [MAX_PLY]`
//! (BUDGET in positions a solve may visit, 2,000,000 by default; the plies of the positions
//! taken, 0 to 99 by default).

use moulin::book::ply_of;
use moulin::search::exact::{Memory, Solver};
use moulin::tables::Tables;
use moulin::train::critical::read_suite;
use moulin::Rules;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: solver_bench TABLES SUITE [BUDGET] [MIN_PLY] [MAX_PLY]");
        std::process::exit(2);
    }
    let number = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("not a number: {a}");
                std::process::exit(2)
            })
        })
    };
    let (budget, min_ply, max_ply) = (number(2, 2_000_000), number(3, 0), number(4, 99));
    let rules = Rules::nine();
    let tables = Tables::open(Path::new(&args[0]), &rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let suite = read_suite(Path::new(&args[1]), &rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let stop = move |nodes: u64| nodes >= budget;
    let mut memory = Memory::new(1 << 22);
    let (mut count, mut solved, mut kept, mut nodes) = (0, 0, 0, 0u64);
    let start = Instant::now();
    for c in &suite {
        let ply = u64::from(ply_of(&c.pos));
        if ply < min_ply || ply > max_ply {
            continue;
        }
        count += 1;
        memory.clear();
        let t = Instant::now();
        let mut solver = Solver::new(&tables, &mut memory, &stop);
        let value = solver.value(&c.pos);
        let proving = value.and_then(|v| solver.proving_move(&c.pos, v));
        nodes += solver.nodes;
        let keeps = proving.is_some_and(|mv| c.keeps(mv));
        solved += usize::from(value.is_some());
        kept += usize::from(keeps);
        println!(
            "ply {ply:2} {:<4} {:>9} positions {:>7.3} s  {}",
            c.value.name(),
            solver.nodes,
            t.elapsed().as_secs_f64(),
            match value {
                None => "undecided",
                Some(_) if keeps => "kept",
                Some(_) => "proved by another move",
            }
        );
    }
    println!(
        "{count} positions: {solved} valued within {budget} positions, {kept} by a move the suite \
         keeps; {nodes} positions in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}
