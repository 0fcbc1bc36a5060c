//! What the exact solver proves of the root before the search, in the placing phase with endgame
//! tables for every moving position. In a timed search whose choice it checks after, the root's
//! value (`RootProof::prove`): proving the value (one move that keeps it) costs less than
//! testing every move, which the search's choice and its check then make up for. In any other
//! search, the root's moves sifted by their values (`sift_root_moves`): the search then sees
//! only the moves that keep the value, as far as the solver proves it in its time.

use super::solver::Solver;
use super::solver_memory::Memory;
use super::wdl::{name, Wdl};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::tables::Tables;
use std::time::Instant;

/// What the exact solver proved of the root before a timed search (`RootProof::prove`): bounds
/// on its value for the side to move, and the move that proved the lower one when it is a draw
/// or a win.
#[derive(Clone, Copy)]
pub(in crate::search) struct RootProof {
    /// The root is worth at least this.
    pub(in crate::search) lower: Wdl,
    /// The root is worth at most this.
    pub(in crate::search) upper: Wdl,
    /// The move that proved `lower`, when it is a draw or a win.
    pub(in crate::search) best: Option<Move>,
}

impl RootProof {
    /// Nothing proven: the value lies anywhere between a loss and a win.
    pub(in crate::search) const NOTHING: RootProof = RootProof {
        lower: -1,
        upper: 1,
        best: None,
    };

    /// The root's value, as far as the solver proves it in its time: a draw at least first
    /// (until `draw_stop` says so), the surest step away from a loss, then a win (until
    /// `win_stop`).
    pub(in crate::search) fn prove(
        tables: &Tables,
        memory: &mut Memory,
        pos: &Position,
        draw_stop: &dyn Fn(u64) -> bool,
        win_stop: &dyn Fn(u64) -> bool,
    ) -> RootProof {
        let mut proof = RootProof::NOTHING;
        let start = Instant::now();
        let mut nodes = 0;
        for (v, stop) in [(0, draw_stop), (1, win_stop)] {
            let mut solver = Solver::new(tables, memory, stop);
            let answer = solver.at_least(pos, v);
            nodes += solver.nodes;
            match answer {
                Some(true) => {
                    proof.lower = v;
                    proof.best = solver.proving_move(pos, v);
                }
                Some(false) => {
                    proof.upper = v - 1;
                    break;
                }
                None => {}
            }
        }
        log::debug!(
            "exact solver: the root is worth {} to {} (by {}) in {nodes} positions, {:.3} s",
            name(proof.lower),
            name(proof.upper),
            proof.best.map_or("-".to_string(), |m| m.to_string()),
            start.elapsed().as_secs_f64()
        );
        proof
    }

    /// The move of a proven win, the only one worth searching.
    pub(in crate::search) fn win(&self) -> Option<Move> {
        self.best.filter(|_| self.lower == 1)
    }

    /// Whether a draw is proven and a win not ruled out: the proof of the win goes on after the
    /// search (`ChoiceCheck`).
    pub(in crate::search) fn win_open(&self) -> bool {
        self.lower == 0 && self.upper > 0
    }
}

/// The root moves worth searching by their exact values, as far as the solver proves them
/// before `stop` says so, as `Solver::sift_root_moves` tests them. The moves kept are `None`
/// when nothing is dropped: a position on the way is not covered, or there was not time. With
/// them, whether every move left is proven to keep the position's value (then the search's
/// choice needs no check).
pub(in crate::search) fn sift_root_moves(
    tables: &Tables,
    memory: &mut Memory,
    stop: &dyn Fn(u64) -> bool,
    pos: &Position,
    moves: &[Move],
) -> (Option<Vec<Move>>, bool) {
    let start = Instant::now();
    let mut solver = Solver::new(tables, memory, stop);
    let root = solver.sift_root_moves(pos, moves);
    log::debug!(
        "exact solver: {} of {} moves kept ({} drawing at least, {} undecided) in {} \
         positions, {:.3} s",
        root.kept.len(),
        moves.len(),
        root.drawing,
        root.undecided,
        solver.nodes,
        start.elapsed().as_secs_f64()
    );
    let kept = root.kept;
    (
        (!kept.is_empty() && kept.len() < moves.len()).then_some(kept),
        root.decided,
    )
}

#[cfg(test)]
mod tests {
    use crate::search::control::Control;
    use crate::search::exact::testing::{placing_positions, tables};
    use crate::search::exact::{Memory, Solver};
    use crate::search::{Limits, Searcher};
    use std::sync::Arc;

    #[test]
    fn the_search_plays_only_moves_that_keep_the_exact_value() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut with = Searcher::new(4, 1);
        with.options.tables = Some(Arc::clone(tables));
        let mut without = Searcher::new(4, 1);
        let mut lost_without = 0;
        for pos in placing_positions(40, 23) {
            let mut solver = Solver::new(tables, &mut memory, &never);
            let truth = solver.value(&pos).unwrap();
            // A search of one ply keeps the value all the same.
            let best = with.search_to_depth(&pos, 1, Vec::new()).best.unwrap();
            assert_eq!(
                solver.move_at_least(&pos, best, truth),
                Some(true),
                "{} {}",
                crate::rules::fen::write(&pos),
                best.turn_notation()
            );
            let blind = without.search_to_depth(&pos, 1, Vec::new()).best.unwrap();
            lost_without += usize::from(solver.move_at_least(&pos, blind, truth) == Some(false));
        }
        // Without the tables, one ply is often not enough.
        assert!(lost_without > 0);
    }

    #[test]
    fn the_root_proof_bounds_the_value_and_its_move_keeps_it() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut searcher = Searcher::new(4, 1);
        searcher.options.tables = Some(Arc::clone(tables));
        let limits = Limits {
            movetime: Some(60_000),
            ..Limits::default()
        };
        let mut seen = [0usize; 3];
        for pos in placing_positions(40, 43) {
            let truth = Solver::new(tables, &mut memory, &never)
                .value(&pos)
                .unwrap();
            searcher.new_game();
            let budget = searcher.budget(&pos, &limits);
            let proof = searcher.prove_root_value(&pos, &Control::new(), budget);
            // With time enough, the value itself, and a move that keeps it unless lost.
            assert_eq!((proof.lower, proof.upper), (truth, truth));
            let mut solver = Solver::new(tables, &mut memory, &never);
            match proof.best {
                Some(mv) => assert_eq!(solver.move_at_least(&pos, mv, truth), Some(true)),
                None => assert_eq!(truth, -1),
            }
            seen[(truth + 1) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}
