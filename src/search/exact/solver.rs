//! Exact values of placing positions near the end of the placing: alpha-beta over the placements
//! left, with the endgame tables' values where the placing ends. Every leaf is exact (a game
//! over, or a moving-phase position the tables cover), so the result is the position's true
//! value (win, draw or loss), not an estimate; there is no depth limit and no reduction.
//!
//! The values are the tables' under the game's draw rules (`Tables::probe_in_game`); where those
//! do not decide a win (a later phase might outlast the no-capture rule), the win counts, as the
//! tables give it without the rule.

use super::solver_memory::Memory;
use super::wdl::{outcome, wdl, Wdl};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::eval::{self, Weights};
use crate::search::limits::MAX_PLY;
use crate::search::ordering::{self, MoveOrder};
use crate::tables::Tables;

/// The placements left (both sides) from which the moves are ordered by the evaluation:
/// nearer the end, where a subtree is a few table probes, evaluating every move costs more than
/// it saves.
const EVAL_ORDER_FROM: u32 = 4;

/// Runs `work` on each of `jobs` on `threads` threads through `parallel::run`, each thread with
/// a solver of its own (a memory of `memory` positions, never stopped), and hands each job with
/// its answer to `take` on the calling thread as they finish; the first error of `take` stops
/// the work and is returned.
pub fn in_parallel<J, R, E>(
    tables: &Tables,
    jobs: &[J],
    threads: usize,
    memory: usize,
    work: impl Fn(&mut Solver, &J) -> R + Sync,
    take: impl FnMut(&J, R) -> Result<(), E>,
) -> Result<(), E>
where
    J: Sync,
    R: Send,
{
    let never = |_: u64| false;
    crate::parallel::run(
        jobs,
        threads,
        || Memory::new(memory),
        |memory, job| work(&mut Solver::new(tables, memory, &never), job),
        take,
    )
}

/// What the solver's test of the root's moves found (`Solver::sift_root_moves`).
pub struct SiftedMoves {
    /// The moves worth searching: the winning ones when some are proven, else those not
    /// proven to lose (none when every move is proven to lose: the search then takes them all).
    pub kept: Vec<Move>,
    /// Moves proven to draw at least.
    pub drawing: usize,
    /// Moves the test for a draw did not decide.
    pub undecided: usize,
    /// Whether every kept move is proven to keep the position's value: each move was decided
    /// for a draw at least, and either a win is proven or no drawing move wins.
    pub decided: bool,
}

/// The solver: what it proves is kept in its `Memory`, the move ordering between its calls.
pub struct Solver<'a> {
    tables: &'a Tables,
    memory: &'a mut Memory,
    order: MoveOrder,
    /// The evaluation that orders the moves far from the end of the placing (that of the
    /// positions' rules, set at the first one).
    weights: Option<Weights>,
    lists: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    /// Positions visited.
    pub nodes: u64,
    /// Asked every 1024 nodes whether to give up.
    stop: &'a dyn Fn(u64) -> bool,
    stopped: bool,
}

impl<'a> Solver<'a> {
    /// A solver over `tables` (which must serve the positions' rules) that gives up when
    /// `stop(nodes)` says so.
    pub fn new(
        tables: &'a Tables,
        memory: &'a mut Memory,
        stop: &'a dyn Fn(u64) -> bool,
    ) -> Solver<'a> {
        Solver {
            tables,
            memory,
            order: MoveOrder::new(true),
            weights: None,
            lists: Vec::new(),
            scores: Vec::new(),
            nodes: 0,
            stop,
            stopped: false,
        }
    }

    /// The value of `pos` for the side to move; `None` when stopped, or when a position on the
    /// way is neither over nor covered by the tables.
    pub fn value(&mut self, pos: &Position) -> Option<Wdl> {
        self.window(pos, -1, 1)
    }

    /// The value of each of `moves` for the side to move in `pos`, in their order.
    pub fn values_of_moves(&mut self, pos: &Position, moves: &[Move]) -> Option<Vec<Wdl>> {
        let mut out = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut child = *pos;
            child.play(mv);
            let v = self.window(&child, -1, 1)?;
            out.push(if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            });
        }
        Some(out)
    }

    /// Whether the value of `pos` is at least `v` (for the side to move).
    pub fn at_least(&mut self, pos: &Position, v: Wdl) -> Option<bool> {
        if v <= -1 {
            return Some(true);
        }
        if v > 1 {
            return Some(false);
        }
        Some(self.window(pos, v - 1, v)? >= v)
    }

    /// The move that proved `pos` worth at least `v` (for the side to move), if the memory
    /// still holds it: after `at_least(pos, v)` answered yes.
    pub fn proving_move(&self, pos: &Position, v: Wdl) -> Option<Move> {
        self.memory
            .get(pos.key())
            .filter(|k| k.lower >= v && !k.best.is_null())
            .map(|k| k.best)
    }

    /// Whether playing `mv` in `pos` leaves its mover at least `v`.
    pub fn move_at_least(&mut self, pos: &Position, mv: Move, v: Wdl) -> Option<bool> {
        let mut child = *pos;
        child.play(mv);
        if child.side_to_move() == pos.side_to_move() {
            self.at_least(&child, v)
        } else {
            // At least v for the mover: at most -v for the opponent.
            Some(!self.at_least(&child, 1 - v)?)
        }
    }

    /// The root's moves worth searching (`Searcher::sift_root_moves`, before the search): each move is
    /// first tested for a draw at least, and those proven to lose are dropped; then, if every
    /// move is decided, the drawing ones are tested for a win, and the winning ones kept alone
    /// when there are any. A stop on the way leaves the moves not yet tested in.
    pub fn sift_root_moves(&mut self, pos: &Position, moves: &[Move]) -> SiftedMoves {
        let (mut drawing, mut unknown) = (Vec::new(), Vec::new());
        for &mv in moves {
            match self.move_at_least(pos, mv, 0) {
                Some(true) => drawing.push(mv),
                Some(false) => {}
                None => unknown.push(mv),
            }
        }
        let mut root = SiftedMoves {
            kept: drawing.iter().chain(&unknown).copied().collect(),
            drawing: drawing.len(),
            undecided: unknown.len(),
            decided: unknown.is_empty(),
        };
        if root.decided {
            let mut winning = Vec::new();
            for &mv in &drawing {
                match self.move_at_least(pos, mv, 1) {
                    Some(true) => winning.push(mv),
                    Some(false) => {}
                    // Cut short: a win may be there still, for the search's choice to be
                    // checked against (`Searcher::check_choice`).
                    None => root.decided = false,
                }
            }
            if !winning.is_empty() {
                // Only proven wins are left: nothing to check.
                root.kept = winning;
                root.decided = true;
            }
        }
        root
    }

    /// The value of `pos` and those of `moves` that keep it: the value is found first, then each
    /// move is tested against it with a null window (cheaper than valuing every move).
    pub fn keeping_moves(&mut self, pos: &Position, moves: &[Move]) -> Option<(Wdl, Vec<Move>)> {
        let v = self.value(pos)?;
        let mut keep = Vec::new();
        for &mv in moves {
            if self.move_at_least(pos, mv, v)? {
                keep.push(mv);
            }
        }
        Some((v, keep))
    }

    fn window(&mut self, pos: &Position, alpha: Wdl, beta: Wdl) -> Option<Wdl> {
        // Asked at once, not after the next 1,024 positions: the root's moves are tested one
        // by one, and each would otherwise run on past the end of the solver's time.
        if (self.stop)(self.nodes) {
            self.stopped = true;
            return None;
        }
        self.stopped = false;
        let v = self.search(pos, alpha, beta, 0);
        (!self.stopped).then_some(v?)
    }

    /// Orders the moves other than `first` by the static evaluation of the position each leads
    /// to, for the mover: far from the end of the placing, where a subtree is large, the
    /// evaluation finds the move that proves the value first more often than the search's
    /// rules of thumb (docs/endgame-tables.md, "The end of the placing, exact": 37% fewer positions on the
    /// exact critical suite's plies 7 to 10). On the way, each child is looked up in the
    /// memory (an enhanced transposition cut-off): a move whose position is already proven
    /// worth `beta` or more to the mover is returned with that value, and nothing is searched.
    fn order_by_evaluation(
        &mut self,
        pos: &Position,
        list: &[Move],
        order: &mut [i32],
        first: Move,
        beta: Wdl,
    ) -> Option<(Wdl, Move)> {
        let us = pos.side_to_move();
        let weights = self
            .weights
            .get_or_insert_with(|| Weights::DEFAULT.for_rules(pos.rules()));
        for (k, &mv) in list.iter().enumerate() {
            let mut child = *pos;
            child.play(mv);
            if let Some(known) = self.memory.get(child.key()) {
                let v = if child.side_to_move() == us {
                    known.lower
                } else {
                    -known.upper
                };
                if v >= beta {
                    return Some((v, mv));
                }
            }
            if mv == first {
                continue;
            }
            let e = eval::evaluate(&child, weights);
            order[k] = if child.side_to_move() == us { e } else { -e };
        }
        None
    }

    /// Fail-soft alpha-beta over win/draw/loss.
    fn search(&mut self, pos: &Position, mut alpha: Wdl, mut beta: Wdl, ply: usize) -> Option<Wdl> {
        self.nodes += 1;
        if self.nodes % 1024 == 1 && (self.stop)(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return Some(0);
        }
        if let Some(v) = outcome(pos) {
            return Some(v);
        }
        if !pos.is_placing() && pos.pending_removals() == 0 {
            let v = self
                .tables
                .probe_in_game(pos)
                .or_else(|| self.tables.probe(pos))?;
            return Some(wdl(v));
        }
        if let Some(v) = self.tables.placing_value(pos) {
            return Some(v);
        }
        let key = pos.key();
        let mut best_move = Move::NULL;
        if let Some(k) = self.memory.get(key) {
            if k.lower >= beta || k.lower == k.upper {
                return Some(k.lower);
            }
            if k.upper <= alpha {
                return Some(k.upper);
            }
            // The window narrows to what is not yet known.
            alpha = alpha.max(k.lower);
            beta = beta.min(k.upper);
            best_move = k.best;
        }
        let alpha0 = alpha;
        if self.lists.len() <= ply {
            self.lists.push(Vec::with_capacity(32));
            self.scores.push(Vec::with_capacity(32));
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut order = std::mem::take(&mut self.scores[ply]);
        movegen::generate(pos, Convention::Turn, &mut list);
        let ply_index = ply.min(MAX_PLY);
        self.order
            .score_moves(pos, &list, &mut order, best_move, ply_index);
        let cut = if pos.placements_left() >= EVAL_ORDER_FROM {
            self.order_by_evaluation(pos, &list, &mut order, best_move, beta)
        } else {
            None
        };
        let us = pos.side_to_move();
        // No move (blocked; the quick outcome says so first under these rules) is a loss.
        let mut best: Wdl = -1;
        let mut result = Some(());
        if let Some((v, mv)) = cut {
            // Proven by the memory's cut-off: stored as any cut-off is, below.
            best = v;
            best_move = mv;
        } else {
            for next in 0..list.len() {
                ordering::select(&mut list, &mut order, next);
                let mv = list[next];
                let mut child = *pos;
                child.play(mv);
                let s = if child.side_to_move() == us {
                    self.search(&child, alpha, beta, ply + 1)
                } else {
                    self.search(&child, -beta, -alpha, ply + 1).map(|v| -v)
                };
                let Some(s) = s else {
                    result = None;
                    break;
                };
                if self.stopped {
                    break;
                }
                if s > best {
                    best = s;
                    best_move = mv;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            self.order.remember_cutoff(mv, 4, ply_index);
                            break;
                        }
                    }
                }
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = order;
        result?;
        if self.stopped {
            return Some(0);
        }
        self.remember(pos, best, best_move, alpha0, beta);
        Some(best)
    }

    /// Stores in the memory what the search of `pos` in the window (`alpha0`, `beta`) proved:
    /// its value `best`, a lower bound at `beta` or above (with `best_move`, when it raises the
    /// one known), an upper bound at `alpha0` or below, else exact.
    fn remember(&mut self, pos: &Position, best: Wdl, best_move: Move, alpha0: Wdl, beta: Wdl) {
        self.memory.store(pos.key(), pos.placements_left(), |e| {
            if best >= beta {
                // The move kept is the one that proved the best lower bound.
                if best >= e.lower {
                    e.lower = best;
                    e.best = best_move;
                }
            } else if best > alpha0 {
                e.lower = best;
                e.upper = best;
                e.best = best_move;
            } else {
                e.upper = e.upper.min(best);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::search::exact::testing::{placing_positions, tables};

    /// Plain minimax over every turn, the tables at the end of the placing: no bounds, no
    /// ordering, and a memory of exact values only when `memo` is given.
    fn minimax(
        tables: &Tables,
        pos: &Position,
        memo: &mut Option<rustc_hash::FxHashMap<u64, Wdl>>,
    ) -> Wdl {
        if let Some(&v) = memo.as_ref().and_then(|m| m.get(&pos.key())) {
            return v;
        }
        if let Some(o) = pos.quick_outcome() {
            return match o.winner() {
                Some(w) if w == pos.side_to_move() => 1,
                Some(_) => -1,
                None => 0,
            };
        }
        if !pos.is_placing() {
            return wdl(tables.probe(pos).expect("covered"));
        }
        let moves = movegen::legal_moves(pos, Convention::Turn);
        let mut best = -1;
        for mv in moves {
            let mut child = *pos;
            child.play(mv);
            let v = minimax(tables, &child, memo);
            best = best.max(if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            });
        }
        if let Some(m) = memo.as_mut() {
            m.insert(pos.key(), best);
        }
        best
    }

    #[test]
    fn solved_values_agree_with_plain_minimax() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut seen = [0usize; 3];
        for pos in placing_positions(60, 11) {
            let truth = minimax(tables, &pos, &mut None);
            seen[(truth + 1) as usize] += 1;
            // A memory too small for one solve is cleared on the way: the same value.
            let mut small = Memory::new(40);
            let v = Solver::new(tables, &mut small, &never).value(&pos);
            assert_eq!(v, Some(truth), "{}", crate::rules::fen::write(&pos));
            assert!(small.len() <= 40);
            let mut solver = Solver::new(tables, &mut memory, &never);
            assert_eq!(
                solver.value(&pos),
                Some(truth),
                "{}",
                crate::rules::fen::write(&pos)
            );
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let values = solver.values_of_moves(&pos, &moves).unwrap();
            assert_eq!(values.iter().copied().max(), Some(truth));
            let (v, keep) = solver.keeping_moves(&pos, &moves).unwrap();
            assert_eq!(v, truth);
            let expected: Vec<Move> = moves
                .iter()
                .zip(&values)
                .filter(|(_, &x)| x == truth)
                .map(|(&m, _)| m)
                .collect();
            assert_eq!(keep, expected);
            for (&mv, &x) in moves.iter().zip(&values) {
                for bar in -1..=1 {
                    assert_eq!(solver.move_at_least(&pos, mv, bar), Some(x >= bar));
                }
            }
        }
        // The sample holds every kind of value.
        assert!(seen.iter().all(|&n| n > 0), "wins, draws, losses: {seen:?}");
    }

    #[test]
    fn sifted_moves_decided_only_when_every_kept_move_keeps_the_value() {
        let tables = tables();
        let never = |_: u64| false;
        let mut truth_memory = Memory::new(1 << 20);
        let (mut cut_wins, mut decided_wins) = (0, 0);
        for pos in placing_positions(40, 41) {
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let mut truth = Solver::new(tables, &mut truth_memory, &never);
            let values = truth.values_of_moves(&pos, &moves).unwrap();
            let best = values.iter().copied().max().unwrap();
            // Stops after every count of positions up to the whole test: some cut the test
            // for a draw, some the test for a win after it.
            let whole = {
                let mut memory = Memory::new(1 << 16);
                let mut solver = Solver::new(tables, &mut memory, &never);
                solver.sift_root_moves(&pos, &moves);
                solver.nodes
            };
            for budget in (1..=whole + 1).step_by((whole as usize / 25).max(1)) {
                let stop = move |nodes: u64| nodes >= budget;
                let mut memory = Memory::new(1 << 16);
                let root = Solver::new(tables, &mut memory, &stop).sift_root_moves(&pos, &moves);
                // Nothing kept only when every move is proven to lose.
                assert!(!root.kept.is_empty() || best < 0);
                let keeps = |mv: &Move| values[moves.iter().position(|m| m == mv).unwrap()];
                // A move that keeps a draw or a win is dropped only for proven wins.
                for (mv, &v) in moves.iter().zip(&values) {
                    if !root.kept.contains(mv) && v == best && best >= 0 {
                        assert!(
                            root.kept.iter().all(|k| keeps(k) == 1),
                            "{} budget {budget}: {} dropped",
                            crate::rules::fen::write(&pos),
                            mv.turn_notation()
                        );
                    }
                }
                if root.decided {
                    // Decided: the search may play any kept move.
                    for mv in &root.kept {
                        assert_eq!(
                            keeps(mv),
                            best,
                            "{} budget {budget}: {} kept",
                            crate::rules::fen::write(&pos),
                            mv.turn_notation()
                        );
                    }
                    decided_wins += usize::from(best == 1);
                } else if best == 1 && root.undecided == 0 {
                    // Every draw test done, the win test cut short.
                    cut_wins += 1;
                }
            }
        }
        assert!(
            cut_wins > 0 && decided_wins > 0,
            "{cut_wins} wins with the win test cut short, {decided_wins} decided"
        );
    }

    #[test]
    fn solved_values_agree_with_minimax_further_from_the_end() {
        // Far enough from the end for the evaluation's ordering and the memory's cut-offs, with
        // one memory for every solve so that the cut-offs find proven children.
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut memo = Some(rustc_hash::FxHashMap::default());
        for pos in crate::search::exact::testing::placing_positions_left(6, 13, 5, 6) {
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let truths: Vec<Wdl> = moves
                .iter()
                .map(|&mv| {
                    let mut child = pos;
                    child.play(mv);
                    let v = minimax(tables, &child, &mut memo);
                    if child.side_to_move() == pos.side_to_move() {
                        v
                    } else {
                        -v
                    }
                })
                .collect();
            let mut solver = Solver::new(tables, &mut memory, &never);
            // The moves first, then the position from their proven values, then each bound.
            let values = solver.values_of_moves(&pos, &moves).unwrap();
            assert_eq!(values, truths, "{}", crate::rules::fen::write(&pos));
            let truth = truths.iter().copied().max().unwrap();
            assert_eq!(solver.value(&pos), Some(truth));
            for bar in -1..=1 {
                assert_eq!(solver.at_least(&pos, bar), Some(truth >= bar));
            }
        }
    }

    #[test]
    fn a_stopped_solve_answers_nothing() {
        let tables = tables();
        let mut memory = Memory::new(1 << 20);
        let at_once = |_: u64| true;
        let pos = placing_positions(1, 3)[0];
        let mut solver = Solver::new(tables, &mut memory, &at_once);
        assert_eq!(solver.value(&pos), None);
        // Nothing half-proven was kept.
        assert!(memory.is_empty());
    }

    #[test]
    fn solves_after_the_stop_visit_nothing() {
        let tables = tables();
        let mut memory = Memory::new(1 << 20);
        // The time runs out after 10 positions: the solve under way ends at the next check,
        // and the solves after it do not start.
        let after_ten = |nodes: u64| nodes >= 10;
        let positions = placing_positions(20, 5);
        let mut solver = Solver::new(tables, &mut memory, &after_ten);
        let mut answered = 0;
        for pos in &positions {
            let before = solver.nodes;
            match solver.value(pos) {
                Some(_) => answered += 1,
                None if before >= 10 => assert_eq!(solver.nodes, before),
                None => {}
            }
        }
        assert!(solver.nodes <= 1025 + 10, "{} positions", solver.nodes);
        assert!(answered < positions.len());
    }

    #[test]
    fn an_uncovered_position_is_not_solved() {
        // A placing position that ends with more pieces than the tables hold.
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let pos = Position::start(Rules::nine().without_draw_rules());
        let mut late = pos;
        for p in ["d6", "d2", "b4", "f4", "a7", "g7", "a1", "g1", "d7", "d1"] {
            late.play(Move::place(crate::rules::board::Point::parse(p).unwrap()));
        }
        let mut solver = Solver::new(tables, &mut memory, &never);
        assert_eq!(solver.value(&late), None);
    }
}
