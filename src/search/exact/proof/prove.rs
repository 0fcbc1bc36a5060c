//! A placing position's value, proven by two tests (a draw at least? then a win?), and what
//! each cost.

use super::node::{self, Node};
use super::proof_error::ProofError;
use super::proof_memory::ProofMemory;
use super::search::{Busy, Prover, Shared};
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::search::exact::Wdl;
use crate::tables::Tables;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One test of a proof: whether the position is worth at least `bar` to the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    /// The bar: 0 a draw at least, 1 a win.
    pub bar: Wdl,
    /// Whether the position is worth that much.
    pub holds: bool,
    /// Positions visited, by all threads.
    pub nodes: u64,
    /// The most positions one thread visited (all of them on one thread).
    pub busiest: u64,
    /// Seconds taken.
    pub secs: f64,
}

/// A proven value and its tests.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The value for the side to move.
    pub value: Wdl,
    /// The tests that proved it, in their order.
    pub tests: Vec<Test>,
}

impl Proof {
    /// Positions visited by all the tests.
    pub fn nodes(&self) -> u64 {
        self.tests.iter().map(|t| t.nodes).sum()
    }

    /// Seconds taken by all the tests.
    pub fn secs(&self) -> f64 {
        self.tests.iter().map(|t| t.secs).sum()
    }
}

/// Proves the value of `pos` (a placing position between turns, as a game reaches it) for the
/// side to move, with `tables` at the leaves (every pair the placing can end in) and `memory`
/// (which may hold what an earlier proof under the same tables established).
pub fn prove(
    tables: &Tables,
    pos: &Position,
    memory: &ProofMemory,
    threads: usize,
) -> Result<Proof, ProofError> {
    let root = check(tables, pos)?;
    let rules = *pos.rules();
    let mut tests = Vec::new();
    for bar in [0, 1] {
        let test = test(tables, rules, memory, (root, bar), threads)?;
        tests.push(test);
        if !test.holds {
            break;
        }
    }
    let value = tests
        .iter()
        .filter(|t| t.holds)
        .map(|t| t.bar)
        .max()
        .unwrap_or(-1);
    Ok(Proof { value, tests })
}

/// Whether `root` is worth at least `bar`, tested on `threads` threads over one memory: each
/// searches the whole test, sharing out the subtrees they meet (`search`); the first to answer
/// ends it.
fn test(
    tables: &Tables,
    rules: Rules,
    memory: &ProofMemory,
    (root, bar): (Node, Wdl),
    threads: usize,
) -> Result<Test, ProofError> {
    let start = Instant::now();
    let shared = Shared {
        tables,
        rules,
        memory,
        busy: (threads > 1).then(Busy::new),
        stop: AtomicBool::new(false),
        failed: AtomicBool::new(false),
    };
    let answer = std::sync::Mutex::new(None);
    let counts: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut prover = Prover::new(&shared);
                    let holds = prover.at_least(root, bar);
                    if !shared.stop.swap(true, Ordering::Relaxed) {
                        if let Ok(mut a) = answer.lock() {
                            *a = Some(holds);
                        }
                    }
                    prover.nodes
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).collect()
    });
    let holds = answer.into_inner().ok().flatten();
    match holds {
        Some(holds) if !shared.failed.load(Ordering::Relaxed) => Ok(Test {
            bar,
            holds,
            nodes: counts.iter().sum(),
            busiest: counts.iter().copied().max().unwrap_or(0),
            secs: start.elapsed().as_secs_f64(),
        }),
        _ => Err(ProofError::Changed),
    }
}

/// Checks that `pos` is a position the proof takes, under rules it serves, with `tables` for
/// every end of its placing: the node of its root.
fn check(tables: &Tables, pos: &Position) -> Result<Node, ProofError> {
    let rules = *pos.rules();
    if !node::serves(&rules) {
        return Err(ProofError::Rules);
    }
    if !tables.serves(&rules) {
        return Err(ProofError::OtherRules);
    }
    let root = Node::of(pos).ok_or(ProofError::NotPlacing)?;
    check_pairs(tables, pos)?;
    Ok(root)
}

/// Whether the proof takes `pos` under `tables` (`prove` would not refuse it at once).
pub fn provable(tables: &Tables, pos: &Position) -> Result<(), ProofError> {
    check(tables, pos).map(|_| ())
}

/// Checks that `tables` hold every pair the placing from `pos` can end in: each side with 3
/// pieces or more, up to those it has on the board and in hand.
fn check_pairs(tables: &Tables, pos: &Position) -> Result<(), ProofError> {
    let most = |c| pos.on_board(c) as usize + usize::from(pos.in_hand(c));
    let (white, black) = (most(crate::Color::White), most(crate::Color::Black));
    for a in 3..=white {
        for b in 3..=black {
            for (mover, other) in [(a, b), (b, a)] {
                if !tables.has(mover, other) {
                    return Err(ProofError::Missing {
                        mover,
                        other,
                        most: white.max(black),
                    });
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen;
    use crate::rules::notation::Convention;
    use crate::search::exact::testing::{placing_positions_left, start_of_four, tables};
    use crate::search::exact::{Memory, Solver};

    /// The value of `pos` by the exact solver, with the small tables.
    fn exact_value(memory: &mut Memory, pos: &Position) -> Wdl {
        let never = |_: u64| false;
        Solver::new(tables(), memory, &never).value(pos).unwrap()
    }

    #[test]
    fn proven_values_agree_with_the_exact_solver() {
        let tables = tables();
        let mut truth_memory = Memory::new(1 << 20);
        let mut seen = [0usize; 3];
        // One memory for every proof on one thread, so that later proofs meet what earlier
        // ones established; a fresh one for each on two.
        let kept = ProofMemory::new(1 << 20);
        for pos in placing_positions_left(150, 7, 2, 6) {
            let truth = exact_value(&mut truth_memory, &pos);
            seen[(truth + 1) as usize] += 1;
            let text = crate::rules::fen::write(&pos);
            let proof = prove(tables, &pos, &kept, 1).unwrap();
            assert_eq!(proof.value, truth, "{text}");
            // The tests say what the value is: a draw at least, then a win, as far as needed.
            assert_eq!(proof.tests[0].holds, truth >= 0, "{text}");
            assert_eq!(proof.tests.len(), if truth >= 0 { 2 } else { 1 }, "{text}");
            let fresh = ProofMemory::new(1 << 16);
            assert_eq!(
                prove(tables, &pos, &fresh, 2).unwrap().value,
                truth,
                "{text}"
            );
        }
        assert!(seen.iter().all(|&n| n > 5), "wins, draws, losses: {seen:?}");
    }

    #[test]
    fn the_whole_placing_of_a_game_of_four_proven_on_several_threads() {
        // Four pieces a side: from the start, 8 placements left, deep enough for the threads
        // to share out their subtrees (`SHARE_FROM`), and ending in the tables up to 4.
        let tables = tables();
        let start = start_of_four();
        let mut positions = vec![start];
        for mv in movegen::legal_moves(&start, Convention::Turn) {
            let mut child = start;
            child.play(mv);
            for reply in movegen::legal_moves(&child, Convention::Turn) {
                let mut grandchild = child;
                grandchild.play(reply);
                positions.push(grandchild);
            }
            positions.push(child);
        }
        let mut truth_memory = Memory::new(1 << 20);
        let mut seen = [0usize; 3];
        for pos in positions.iter().step_by(7) {
            let truth = exact_value(&mut truth_memory, pos);
            seen[(truth + 1) as usize] += 1;
            for threads in [1, 2, 3] {
                let memory = ProofMemory::new(1 << 16);
                let proof = prove(tables, pos, &memory, threads).unwrap();
                assert_eq!(proof.value, truth, "{}", crate::rules::fen::write(pos));
                assert!(proof.tests.iter().all(|t| t.busiest <= t.nodes));
            }
        }
        assert!(seen[1] > 0, "draws among {seen:?}");
    }

    #[test]
    fn a_memory_too_small_for_the_proof_gives_the_same_values() {
        let tables = tables();
        let mut truth_memory = Memory::new(1 << 20);
        for pos in placing_positions_left(30, 17, 5, 6) {
            let truth = exact_value(&mut truth_memory, &pos);
            // One bucket: every store gives up an entry.
            let tiny = ProofMemory::new(32);
            assert_eq!(tiny.capacity(), 4);
            assert_eq!(prove(tables, &pos, &tiny, 1).unwrap().value, truth);
        }
    }

    #[test]
    fn the_proof_of_each_move_agrees_with_its_exact_value() {
        // The positions after each move, with the side to move's view turned back: the value
        // of the move.
        let tables = tables();
        let never = |_: u64| false;
        let mut truth_memory = Memory::new(1 << 20);
        let memory = ProofMemory::new(1 << 20);
        for pos in placing_positions_left(20, 29, 3, 6) {
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let values = Solver::new(tables, &mut truth_memory, &never)
                .values_of_moves(&pos, &moves)
                .unwrap();
            for (&mv, &v) in moves.iter().zip(&values) {
                let mut child = pos;
                child.play(mv);
                if child.quick_outcome().is_some() {
                    continue;
                }
                let proof = prove(tables, &child, &memory, 1).unwrap();
                assert_eq!(-proof.value, v, "{} {mv}", crate::rules::fen::write(&pos));
            }
        }
    }

    #[test]
    fn positions_the_proof_cannot_take_are_refused() {
        let tables = tables();
        let memory = ProofMemory::new(1 << 16);
        let rules = crate::Rules::nine().without_draw_rules();
        let read = |text: &str| crate::rules::fen::read(text, &rules).unwrap();
        // The start ends with 9 a side: the tables go to 4.
        let start = Position::start(rules);
        assert!(matches!(
            prove(tables, &start, &memory, 1),
            Err(ProofError::Missing { most: 9, .. })
        ));
        // A moving-phase position; hands no game deals (White to move with one in hand less
        // than Black).
        for text in [
            "**OO*O@*/****@**@/******** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 9",
            "***O*O@*/****@***/******** w p p 2 1 2 2 0 0 -1 -1 -1 -1 0 0 9",
        ] {
            assert!(
                matches!(
                    prove(tables, &read(text), &memory, 1),
                    Err(ProofError::NotPlacing)
                ),
                "{text}"
            );
        }
        // Rules whose placing moves pieces.
        let lasker = crate::Rules::preset("lasker").unwrap().without_draw_rules();
        let pos = Position::start(lasker);
        assert!(matches!(
            prove(tables, &pos, &memory, 1),
            Err(ProofError::Rules)
        ));
    }
}
