//! The exact solver's check of a move in the placing phase: of the search's choice in a timed
//! search, after the proof of the root (`ChoiceCheck`), and of any one move (`keeps_value`: the
//! book's move, before it is played).

use super::root_proof::RootProof;
use super::solver::Solver;
use super::solver_memory::Memory;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::control::Control;
use crate::tables::Tables;

/// What the check of the search's choice plays (`ChoiceCheck::judge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::search) enum Verdict {
    /// The search's choice: it keeps the value, or the solver cannot tell in time and no move
    /// is proven to draw.
    Play,
    /// This move instead: the one that proved a win the choice gives away, or the one that
    /// proved a draw where the choice loses or is undecided.
    PlayInstead(Move),
    /// None yet: the choice is proven to lose and no move is proven to draw; the root is to be
    /// searched again without it, and the new choice judged in turn.
    Refuted,
}

/// The exact solver's check of the search's choice in a timed placing search, after its proof
/// of the root. Where a draw is proven and a win not ruled out, the proof of the win goes on
/// first (`prove_win_first`): a proven win is played (the search's choice if it is proven to
/// win too, else the move that proved it). Then a choice the solver proves losing (below a
/// draw) is not played (`judge`): the move that proved a draw is played instead when there is
/// one, else the root is searched again without it. A choice proven to draw at least is then
/// tested for a win where a win is not ruled out, and replaced by the move that proved the win
/// if it gives the win away. A choice the solver cannot decide in time gives way to the move
/// that proved a draw, or is played as the search chose it when there is none.
pub(in crate::search) struct ChoiceCheck<'a> {
    tables: &'a Tables,
    /// When the solver gives up (`Budget::check_stop`).
    stop: &'a dyn Fn(u64) -> bool,
    /// The move's clock, for the log.
    control: &'a Control,
    pos: Position,
    /// The move that proved a draw, among the root's moves searched: played where the choice
    /// is not proven to draw.
    drawing: Option<Move>,
    /// Whether a win is not ruled out.
    win_open: bool,
}

impl<'a> ChoiceCheck<'a> {
    /// The check of a choice among `root_moves` in `pos`, after the root's proof `proof`.
    pub(in crate::search) fn new(
        tables: &'a Tables,
        stop: &'a dyn Fn(u64) -> bool,
        control: &'a Control,
        pos: Position,
        proof: RootProof,
        root_moves: &[Move],
    ) -> ChoiceCheck<'a> {
        ChoiceCheck {
            tables,
            stop,
            control,
            pos,
            drawing: proof
                .best
                .filter(|m| proof.lower == 0 && root_moves.contains(m)),
            win_open: proof.upper > 0,
        }
    }

    /// Where a draw is proven and a win not ruled out, the proof of the win goes on first (the
    /// move that proved the draw is there to fall back on): `Some` verdict when the root is
    /// proven to win (`choice`, or the move that proved the win if `choice` is not proven to
    /// win too), and `None` when the check goes on to `judge`.
    pub(in crate::search) fn prove_win_first(
        &mut self,
        memory: &mut Memory,
        choice: Move,
    ) -> Option<Verdict> {
        if self.drawing.is_none() || !self.win_open {
            return None;
        }
        let pos = self.pos;
        let mut solver = Solver::new(self.tables, memory, self.stop);
        let won = solver.at_least(&pos, 1);
        log::debug!(
            "exact solver: the root {} ({} positions, at {:.3} s)",
            match won {
                Some(true) => "wins",
                Some(false) => "does not win",
                None => "is not proven to win",
            },
            solver.nodes,
            self.control.elapsed().as_secs_f64()
        );
        if won == Some(true) {
            if solver.move_at_least(&pos, choice, 1) != Some(true) {
                if let Some(win) = solver.proving_move(&pos, 1) {
                    log::debug!("exact solver: {win} wins, played instead of {choice}");
                    return Some(Verdict::PlayInstead(win));
                }
            }
            return Some(Verdict::Play);
        }
        self.win_open = won.is_none();
        None
    }

    /// What is played for the search's choice `choice`: tested for a draw at least, then, where
    /// a win is not ruled out, for the win it might give away.
    pub(in crate::search) fn judge(&mut self, memory: &mut Memory, choice: Move) -> Verdict {
        let pos = self.pos;
        let mut solver = Solver::new(self.tables, memory, self.stop);
        let verdict = solver.move_at_least(&pos, choice, 0);
        log::debug!(
            "exact solver: the search's choice {choice} {} ({} positions, at {:.3} s)",
            match verdict {
                Some(true) => "draws at least",
                Some(false) => "loses",
                None => "is undecided",
            },
            solver.nodes,
            self.control.elapsed().as_secs_f64()
        );
        if verdict == Some(true) {
            // It draws at least: does the position hold a win the choice gives away? Then
            // the move that proved the win is played instead.
            if self.win_open
                && solver.at_least(&pos, 1) == Some(true)
                && solver.move_at_least(&pos, choice, 1) == Some(false)
            {
                if let Some(win) = solver.proving_move(&pos, 1) {
                    log::debug!(
                        "exact solver: {choice} gives a win away; {win} wins (at {:.3} s)",
                        self.control.elapsed().as_secs_f64()
                    );
                    return Verdict::PlayInstead(win);
                }
            }
            return Verdict::Play;
        }
        if let Some(draw) = self.drawing {
            // Refuted or undecided: the move proven to draw.
            log::debug!("exact solver: {draw} draws at least, played instead");
            return Verdict::PlayInstead(draw);
        }
        if verdict.is_none() {
            return Verdict::Play;
        }
        Verdict::Refuted
    }
}

/// Whether `mv` keeps the exact value of `pos` (a draw at least, and a win when the position is
/// won), as far as the solver proves it before `stop` says so: `None` when it does not know.
pub(in crate::search) fn keeps_value(
    tables: &Tables,
    memory: &mut Memory,
    stop: &dyn Fn(u64) -> bool,
    pos: &Position,
    mv: Move,
) -> Option<bool> {
    let mut solver = Solver::new(tables, memory, stop);
    if !solver.move_at_least(pos, mv, 0)? {
        return Some(false);
    }
    // It draws at least: does the position hold a win the move gives away?
    if solver.at_least(pos, 1)? {
        return solver.move_at_least(pos, mv, 1);
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::movegen;
    use crate::rules::notation::Convention;
    use crate::search::exact::testing::{placing_positions, tables};
    use crate::search::known_root::RootSearch;
    use crate::search::limits::Budget;
    use crate::search::timeman::Horizon;
    use crate::search::{Limits, SearchResult, Searcher};
    use std::sync::Arc;

    /// What the search plays when the solver checks `choice` in `pos` after its proof of the
    /// root (`proof`), with a minute to spare (a searcher with the small tables, a depth-3
    /// search again where it must).
    fn checked(pos: &Position, moves: &[Move], choice: Move, proof: RootProof) -> Move {
        let mut searcher = Searcher::new(4, 1);
        searcher.options.tables = Some(Arc::clone(tables()));
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let choice = SearchResult {
            best: Some(choice),
            ..SearchResult::nothing(None)
        };
        let game = Game::from_position(*pos);
        let control = Control::new();
        let a_minute = Limits {
            movetime: Some(60_000),
            ..Limits::default()
        };
        let mut search = RootSearch {
            game: &game,
            root_moves: moves,
            limits: &limits,
            control: &control,
            budget: Budget::new(pos, &a_minute, 0, Horizon::default()),
            report: &mut |_| {},
        };
        searcher
            .check_choice(&mut search, choice, proof)
            .best
            .unwrap()
    }

    #[test]
    fn a_choice_of_the_search_that_gives_value_away_is_replaced() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        // Choices that lose where the position draws or wins, and that draw where it wins.
        let (mut losing, mut drawing) = (0, 0);
        for pos in placing_positions(60, 31) {
            let mut solver = Solver::new(tables, &mut memory, &never);
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let values = solver.values_of_moves(&pos, &moves).unwrap();
            let truth = values.iter().copied().max().unwrap();
            // A move below the position's value, as the choice.
            let Some((&bad, &bad_value)) = moves.iter().zip(&values).find(|(_, &v)| v < truth)
            else {
                continue;
            };
            let best = checked(&pos, &moves, bad, RootProof::NOTHING);
            assert_ne!(best, bad);
            let mut solver = Solver::new(tables, &mut memory, &never);
            assert_eq!(
                solver.move_at_least(&pos, best, truth),
                Some(true),
                "{} {}",
                crate::rules::fen::write(&pos),
                best.turn_notation()
            );
            if bad_value < 0 {
                losing += 1;
            } else {
                drawing += 1;
            }
        }
        assert!(
            losing >= 5 && drawing >= 3,
            "{losing} losing choices, {drawing} drawing ones in won positions"
        );
    }

    #[test]
    fn with_a_draw_proven_and_a_win_open_a_win_is_played() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut tried = 0;
        for pos in placing_positions(80, 47) {
            let mut solver = Solver::new(tables, &mut memory, &never);
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let values = solver.values_of_moves(&pos, &moves).unwrap();
            // A won position with a drawing move: the search's choice, and the proof's.
            let Some((&draw, _)) = moves.iter().zip(&values).find(|(_, &v)| v == 0) else {
                continue;
            };
            if !values.contains(&1) {
                continue;
            }
            let proof = RootProof {
                lower: 0,
                upper: 1,
                best: Some(draw),
            };
            let best = checked(&pos, &moves, draw, proof);
            let mut solver = Solver::new(tables, &mut memory, &never);
            assert_eq!(
                solver.move_at_least(&pos, best, 1),
                Some(true),
                "{} {}",
                crate::rules::fen::write(&pos),
                best.turn_notation()
            );
            tried += 1;
        }
        assert!(tried >= 5, "{tried} won positions with a drawing move");
    }

    #[test]
    fn a_refuted_choice_gives_way_to_the_move_that_proved_the_draw() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut tried = 0;
        for pos in placing_positions(60, 37) {
            let mut solver = Solver::new(tables, &mut memory, &never);
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let values = solver.values_of_moves(&pos, &moves).unwrap();
            if values.iter().copied().max() != Some(0) {
                continue;
            }
            // A drawn position: a losing choice, and the last drawing move as the proof's.
            let Some(bad) = moves.iter().zip(&values).find(|(_, &v)| v < 0) else {
                continue;
            };
            let draw = moves
                .iter()
                .zip(&values)
                .rev()
                .find(|(_, &v)| v == 0)
                .unwrap();
            let proof = RootProof {
                lower: 0,
                upper: 0,
                best: Some(*draw.0),
            };
            let best = checked(&pos, &moves, *bad.0, proof);
            assert_eq!(best, *draw.0, "{}", crate::rules::fen::write(&pos));
            tried += 1;
        }
        assert!(tried >= 5, "{tried} drawn positions with a losing move");
    }
}
