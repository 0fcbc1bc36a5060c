//! The engine's placing solution (`moulin::tables::placing`, built by backward induction from
//! the moving tables) against the naive minimax of `naive_placing.rs`, value for value, on every
//! placing position reachable from the empty board in the games of 3 and of 4 pieces a side
//! (`nine`'s rules otherwise). The engine's solution is probed through `Solution::value`, so its
//! folding of the 16 symmetries is checked on every image too.

use super::naive;
use super::naive_placing::{MovingValues, NaivePlacing};
use moulin::tables::placing::solution::{Found, Solution};
use moulin::tables::placing_build::Build;
use moulin::tables::schedule::solve_in_memory;
use moulin::tables::Value as TableValue;
use moulin::{Bitboard, Rules};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A scratch folder under the system's temporary folder, removed when dropped (so also when the
/// test fails).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("moulin-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The game of `pieces` a side, under `nine`'s rules otherwise.
fn game(pieces: u8) -> Rules {
    Rules {
        pieces,
        ..super::nine()
    }
}

/// The engine's placing solution of `rules`, built into `dir` over moving tables solved in
/// memory.
fn engine_solution(rules: &Rules, dir: &Path) -> Solution {
    let tables = solve_in_memory(rules, rules.pieces as usize).unwrap();
    let mut build = Build::over(tables, dir, rules).unwrap();
    for g in build.groups() {
        build.step(g).unwrap();
    }
    match Solution::open(dir, rules).unwrap() {
        Found::Whole(solution) => solution,
        _ => panic!("the build left the solution incomplete"),
    }
}

/// The positions reachable after `placed` placements while no mill can have formed yet (fewer
/// than five): White's points times Black's among the rest.
fn before_any_mill(placed: u64) -> u64 {
    let choose = |n: u64, k: u64| (0..k).fold(1, |c, i| c * (n - i) / (i + 1));
    let white = placed.div_ceil(2);
    choose(24, white) * choose(24 - white, placed / 2)
}

/// Solves the game of `pieces` a side both ways and compares every position the naive minimax
/// reached; asserts that `expected` positions were compared.
fn check(pieces: u8, moving: &dyn MovingValues, expected: usize) {
    let rules = game(pieces);
    let start = Instant::now();
    let naive = NaivePlacing::solve(&rules, moving);
    println!(
        "{pieces} a side: naive minimax solved {} placing positions in {:.1} s, start value {}",
        naive.len(),
        start.elapsed().as_secs_f64(),
        naive.start()
    );
    for (left, [wins, draws, losses]) in naive.tally() {
        println!("  {left} placements left: wins {wins} draws {draws} losses {losses}");
        let placed = u64::from(2 * pieces) - u64::from(left);
        if placed < 5 {
            assert_eq!(
                wins + draws + losses,
                before_any_mill(placed),
                "{left} left"
            );
        }
    }
    let dir = Scratch::new(&format!("agree-placing-{pieces}"));
    let start = Instant::now();
    let solution = engine_solution(&rules, &dir.0);
    println!(
        "{pieces} a side: engine placing solution built in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let mut differ = Vec::new();
    let mut compared = 0;
    for (pos, value) in naive.positions() {
        let engine = solution.value(&pos);
        if engine != Some(value) {
            differ.push(format!(
                "{}: naive {value}, engine {engine:?}",
                moulin::rules::fen::write(&pos)
            ));
        }
        compared += 1;
    }
    println!(
        "{pieces} a side: {compared} positions compared in {:.1} s, {} differ",
        start.elapsed().as_secs_f64(),
        differ.len()
    );
    let n = differ.len();
    differ.sort();
    differ.truncate(20);
    assert!(
        n == 0,
        "{n} of {compared} values differ, the first ones: {differ:#?}"
    );
    assert_eq!(compared, expected, "positions compared");
}

#[test]
fn the_placing_solution_agrees_with_naive_minimax_with_three_pieces() {
    // `pieces` only sets the hands at the start: the moving values of `nine` serve.
    check(3, super::nine_up_to_three(), 492_085);
}

/// The engine's moving tables as the values the naive placing ends on (they are held against the
/// naive moving solver in `agree.rs`).
struct EngineMoving(moulin::tables::Tables);

impl MovingValues for EngineMoving {
    fn wdl(&self, ours: Bitboard, theirs: Bitboard) -> Option<i8> {
        self.0.value(ours.0, theirs.0).map(|v| match v {
            TableValue::Win(_) => 1,
            TableValue::Draw => 0,
            TableValue::Loss(_) => -1,
        })
    }
}

#[test]
#[ignore = "slow: the placing solution against naive minimax over 14.9 million positions with 4 \
            pieces (the 3-piece test checks the same at a smaller size)"]
fn the_placing_solution_agrees_with_naive_minimax_with_four_pieces_over_the_engine_tables() {
    // The naive placing over the engine's moving tables: the naive moving solver up to 4 a side
    // costs more than the placing itself (the whole naive check is the ignored test below).
    let moving = EngineMoving(solve_in_memory(&game(4), 4).unwrap());
    check(4, &moving, 14_872_493);
}

#[test]
#[ignore = "the naive moving solver up to 4 a side and 15 million placing positions: about \
            2 CPU-minutes and 4.5 GB"]
fn the_placing_solution_agrees_with_naive_minimax_with_four_pieces() {
    let moving = naive::solve(&game(4), 4);
    check(4, &moving, 14_872_493);
}
