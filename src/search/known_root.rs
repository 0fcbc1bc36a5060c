//! The root where something exact is known, around the iterative-deepening search of
//! `Searcher::search`: the placing solution's move, the endgame tables' move, the exact solver's
//! proof of the root or its sifting of the root's moves before the search, and its check of the
//! search's choice after (`exact/`).

use super::exact::solved::{self, Solved};
use super::exact::{choice_check, root_proof, ChoiceCheck, RootProof, Verdict};
use super::exact_lines::{exact_lines, Known};
use super::limits::{Budget, Deadline};
use super::timeman::{
    CHECKED_SEARCH_END, PROVE_DRAW_END, PROVE_WIN_END, SEARCH_AGAIN_SHARE, SOLVED_TIE_SEARCH_END,
    SOLVER_END, WIN_OPEN_SEARCH_END,
};
use super::{Control, Info, Limits, Score, SearchResult, Searcher, SolvedChoice};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::tables::perfect_play;

/// One search of the root (`Searcher::search`): the game, its limits, control and progress
/// report, the root's moves and the move's time; what the check of the search's choice needs
/// to search the root again.
pub(super) struct RootSearch<'a> {
    pub(super) game: &'a Game,
    pub(super) root_moves: &'a [Move],
    pub(super) limits: &'a Limits,
    pub(super) control: &'a Control,
    pub(super) budget: Budget,
    pub(super) report: &'a mut (dyn FnMut(&Info) + Send),
}

impl Searcher {
    /// The search of the root's `root_moves` where the placing solution does not decide the
    /// move: the exact solver's step before (`solve_root`); the tables' move where they cover
    /// the root; else the iterative-deepening search, until its share of the move's time when
    /// the solver checks its choice after (`check_choice`).
    pub(super) fn search_known(
        &mut self,
        game: &Game,
        mut root_moves: Vec<Move>,
        limits: &Limits,
        control: &Control,
        budget: Budget,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let pos = *game.position();
        let proof = self.solve_root(&pos, &mut root_moves, limits, control, budget);
        if let Some(played) = self.play_from_tables(&pos, &root_moves, report) {
            return played;
        }
        self.keep_table_value(&pos, &mut root_moves);
        let deadline = search_deadline(proof, budget);
        let result = self.search_root(game, &root_moves, limits, control, deadline, report);
        let Some(proof) = proof else {
            return result;
        };
        let mut search = RootSearch {
            game,
            root_moves: &root_moves,
            limits,
            control,
            budget,
            report,
        };
        self.check_choice(&mut search, result, proof)
    }

    /// Where the placing solution or the endgame tables value every root move and more than the
    /// move is asked for (`go infinite`, `MultiPV` above 1): each move's exact value at once, a
    /// line of one ply each for the first `MultiPV` moves, best first; then the search goes on
    /// as asked, each of its lines scored by the exact value of its first move (a GUI's
    /// analysis mode shows what the engine plays by, and the lines deepen); the move is one that
    /// keeps the value. With `SolvedPlacing off` the placing solution is not used so.
    pub(super) fn exact_root(
        &mut self,
        game: &Game,
        root_moves: &[Move],
        limits: &Limits,
        control: &Control,
        budget: Budget,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> Option<SearchResult> {
        let pos = *game.position();
        let many = self.options.multipv != 1 || limits.infinite;
        let solution_off = pos.is_placing() && self.options.solved_placing == SolvedChoice::Off;
        if !many || solution_off {
            return None;
        }
        let tables = self.playing_tables(&pos)?;
        let exact = exact_lines(&tables, &pos, root_moves)?;
        let known = exact.lines.len() as u64;
        let shown = exact.lines.iter().take(self.options.multipv.max(1));
        for (k, &(mv, score)) in shown.enumerate() {
            report(&Info {
                multipv: k + 1,
                tbhits: known,
                ..Self::known_line(mv, score)
            });
        }
        let exact_score = |mv: &Move| exact.lines.iter().find(|(m, _)| m == mv).map(|l| l.1);
        let mut searched = self.search_root(
            game,
            root_moves,
            limits,
            control,
            budget.whole(),
            &mut |i: &Info| {
                let score = i.pv.first().and_then(exact_score).unwrap_or(i.score);
                report(&Info {
                    score,
                    bound: None,
                    tbhits: i.tbhits + known,
                    ..i.clone()
                });
            },
        );
        let best = searched
            .best
            .filter(|m| exact.kept.contains(m))
            .unwrap_or_else(|| exact.best());
        if searched.best != Some(best) {
            searched.ponder = None;
        }
        let (table, solved) = match exact.value {
            Known::Table(v) => (Some(v), None),
            Known::Solved(v) => (None, Some(v)),
        };
        Some(SearchResult {
            best: Some(best),
            score: exact_score(&best).unwrap_or(exact.score()),
            table,
            solved,
            ..searched
        })
    }

    /// What the placing solution says of the root's moves, when it covers the root and decides
    /// the move: one line at full strength, the choice not switched off (`SolvedPlacing`).
    pub(super) fn solved_root(
        &mut self,
        pos: &Position,
        root_moves: &[Move],
        limits: &Limits,
    ) -> Option<Solved> {
        if self.options.multipv != 1 || limits.infinite {
            return None;
        }
        let tables = self.playing_tables(pos)?;
        solved::choose(
            &tables,
            pos,
            root_moves,
            self.options.solved_placing,
            &mut self.rng,
        )
    }

    /// Plays from the placing solution: its one best move at once, reported as a line of one
    /// ply; several equally testing moves, by a search among them (its score replaced by the
    /// solved value).
    pub(super) fn play_solved(
        &mut self,
        game: &Game,
        solved: &Solved,
        limits: &Limits,
        control: &Control,
        budget: Budget,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let score = Score::solved(solved.value);
        // The value and a move that keeps it are known at once: said at depth 0, as a book
        // move is, before any search among equally testing moves.
        report(&Self::known_line(solved.moves[0], score));
        let mut result = if solved.moves.len() == 1 {
            SearchResult {
                best: Some(solved.moves[0]),
                ..SearchResult::nothing(None)
            }
        } else {
            let deadline = if budget.is_timed() {
                budget.search_until(SOLVED_TIE_SEARCH_END)
            } else {
                budget.whole()
            };
            self.search_root(
                game,
                &solved.moves,
                limits,
                control,
                deadline,
                &mut |i: &Info| {
                    report(&Info {
                        score,
                        tbhits: i.tbhits + 1,
                        ..i.clone()
                    });
                },
            )
        };
        result.score = score;
        result.solved = Some(solved.value);
        result
    }

    /// The exact solver's step before the search, in the placing phase with tables for every
    /// moving position, for one line: in a timed search whose choice it is to check, the proof
    /// of the root's value (`prove_root_value`; a proven win leaves its move alone to search);
    /// in any other, the root's moves sifted by their values (`sift_root_moves`). The proof to
    /// check the search's choice against, when it is to be checked: not when a loss is proven
    /// (the search then picks the stoutest resistance), nor when every move left is proven to
    /// keep the value, nor when one move is left.
    fn solve_root(
        &mut self,
        pos: &Position,
        root_moves: &mut Vec<Move>,
        limits: &Limits,
        control: &Control,
        budget: Budget,
    ) -> Option<RootProof> {
        let mut checked = self.choice_is_checked(pos, limits, control, budget);
        let mut proof = RootProof::NOTHING;
        if self.options.multipv == 1 && root_moves.len() > 1 {
            if checked && limits.searchmoves.is_empty() {
                proof = self.prove_root_value(pos, control, budget);
                if let Some(win) = proof.win() {
                    *root_moves = vec![win];
                } else if proof.upper < 0 {
                    checked = false;
                }
            } else if self.sift_root_moves(pos, root_moves, control, budget) {
                // Every move left is proven: nothing for the solver to check after the search.
                checked = false;
            }
        }
        (checked && root_moves.len() > 1).then_some(proof)
    }

    /// Whether the exact solver checks the search's choice (`check_choice`): a placing position
    /// the tables serve, a timed search (not pondering, not infinite), one line at full
    /// strength.
    fn choice_is_checked(
        &self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        budget: Budget,
    ) -> bool {
        self.options.multipv == 1
            && !limits.infinite
            && !limits.ponder
            && !control.is_pondering()
            && self.exact_tables(pos).is_some()
            && budget.is_timed()
    }

    /// The root's value, as far as the solver proves it before a timed search whose choice it
    /// checks (`RootProof::prove`): a draw at least until `PROVE_DRAW_END` of the move's time,
    /// a win until `PROVE_WIN_END`.
    pub(super) fn prove_root_value(
        &mut self,
        pos: &Position,
        control: &Control,
        budget: Budget,
    ) -> RootProof {
        let Some(tables) = self.exact_tables(pos) else {
            return RootProof::NOTHING;
        };
        let draw_stop = budget.solver_stop(control, PROVE_DRAW_END);
        let win_stop = budget.solver_stop(control, PROVE_WIN_END);
        RootProof::prove(&tables, &mut self.exact, pos, &draw_stop, &win_stop)
    }

    /// Keeps the root moves worth searching by their exact values, as far as the solver proves
    /// them until `SOLVER_END` of the move's time (`SOLVER_NODES` positions without a clock;
    /// `stop` ends it): `exact::root_proof::sift_root_moves`. Whether every move left is proven
    /// to keep the position's value (then the search's choice needs no check).
    fn sift_root_moves(
        &mut self,
        pos: &Position,
        root_moves: &mut Vec<Move>,
        control: &Control,
        budget: Budget,
    ) -> bool {
        let Some(tables) = self.exact_tables(pos) else {
            return false;
        };
        let stop = budget.solver_stop(control, SOLVER_END);
        let (keep, decided) =
            root_proof::sift_root_moves(&tables, &mut self.exact, &stop, pos, root_moves);
        if let Some(keep) = keep {
            root_moves.retain(|m| keep.contains(m));
        }
        decided
    }

    /// The report of a move known without a search (the tables', the placing solution's): a
    /// line of one ply at depth 0 (nothing searched), as a book move's.
    fn known_line(mv: Move, score: Score) -> Info {
        Info {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
            nps: 0,
            tbhits: 1,
            // Nothing of this search is in the table yet.
            hashfull: 0,
            time_ms: 0,
            pv: vec![mv],
        }
    }

    /// Where the endgame tables cover the root: their value-keeping move at once, reported as a
    /// line of one ply.
    fn play_from_tables(
        &self,
        pos: &Position,
        root_moves: &[Move],
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> Option<SearchResult> {
        let tables = self.playing_tables(pos)?;
        let (best, value) = perfect_play::best_move(&tables, pos, root_moves)?;
        let score = Score::table(value);
        report(&Self::known_line(best, score));
        Some(SearchResult {
            best: Some(best),
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            outcome: None,
            table: Some(value),
            solved: None,
        })
    }

    /// Where the endgame tables cover the root but the draw rules leave some move's value
    /// undecided (so the search judges them), the moves that keep the tables' value only
    /// (`perfect_play::keeping_moves`): a search's score never trades a drawn position for a
    /// lost one the rules might save. One line only: `MultiPV` shows every move.
    fn keep_table_value(&self, pos: &Position, root_moves: &mut Vec<Move>) {
        if self.options.multipv != 1 {
            return;
        }
        let Some(tables) = self.playing_tables(pos) else {
            return;
        };
        if let Some(keep) = perfect_play::keeping_moves(&tables, pos, root_moves) {
            *root_moves = keep;
        }
    }

    /// The exact solver's check of the search's choice (`exact::ChoiceCheck`), after its proof
    /// of the root (`proof`), until `CHECK_END` of the move's time: the proof of a win first
    /// where one is open, then the choice judged; a refuted choice is searched again without,
    /// as long as the move's time allows (`SEARCH_AGAIN_SHARE` of the time left), and the new
    /// choice judged in turn.
    pub(super) fn check_choice(
        &mut self,
        search: &mut RootSearch<'_>,
        mut result: SearchResult,
        proof: RootProof,
    ) -> SearchResult {
        let pos = *search.game.position();
        let Some(tables) = self.exact_tables(&pos) else {
            return result;
        };
        let stop = search.budget.check_stop(search.control);
        let mut check = ChoiceCheck::new(
            &tables,
            &stop,
            search.control,
            pos,
            proof,
            search.root_moves,
        );
        if let Some(choice) = result.best {
            if let Some(verdict) = check.prove_win_first(&mut self.exact, choice) {
                play(&mut result, verdict);
                return result;
            }
        }
        let mut refuted: Vec<Move> = Vec::new();
        while let Some(best) = result.best {
            let verdict = check.judge(&mut self.exact, best);
            if verdict != Verdict::Refuted {
                play(&mut result, verdict);
                break;
            }
            refuted.push(best);
            let rest: Vec<Move> = search
                .root_moves
                .iter()
                .copied()
                .filter(|m| !refuted.contains(m))
                .collect();
            if rest.is_empty() || search.control.is_stopped() {
                break;
            }
            // Searched again without the losing moves, until a share of what is left.
            let now = search.control.elapsed();
            let deadline = search.budget.search_again_until(now, SEARCH_AGAIN_SHARE);
            result = self.search_root(
                search.game,
                &rest,
                search.limits,
                search.control,
                deadline,
                search.report,
            );
        }
        result
    }

    /// Whether `mv` keeps the exact value of the game's position (a draw at least, and a win
    /// when the position is won), as far as the exact solver proves it until `SOLVER_END` of the
    /// move's time (`SOLVER_NODES` positions without a clock): `None` when it does not know, or
    /// when the solver does not serve the position (not placing, no tables for its rules, a
    /// limited strength). The protocol checks the book's move with it.
    pub fn move_keeps_value(
        &mut self,
        game: &Game,
        mv: Move,
        limits: &Limits,
        control: &Control,
    ) -> Option<bool> {
        let pos = *game.position();
        let tables = self.exact_tables(&pos)?;
        let budget = self.budget(&pos, limits);
        let stop = budget.solver_stop(control, SOLVER_END);
        choice_check::keeps_value(&tables, &mut self.exact, &stop, &pos, mv)
    }
}

/// The deadline of the iterative-deepening search: the move's own, or, when the exact solver
/// checks its choice after (`proof`), `CHECKED_SEARCH_END` of the move's time
/// (`WIN_OPEN_SEARCH_END` when a draw is proven and a win not ruled out).
fn search_deadline(proof: Option<RootProof>, budget: Budget) -> Deadline {
    match proof {
        Some(proof) if proof.win_open() => budget.search_until(WIN_OPEN_SEARCH_END),
        Some(_) => budget.search_until(CHECKED_SEARCH_END),
        None => budget.whole(),
    }
}

/// Plays what the check of the choice says (`Verdict`) in `result`: another move replaces the
/// search's choice, without the ponder move of the search's line.
fn play(result: &mut SearchResult, verdict: Verdict) {
    if let Verdict::PlayInstead(mv) = verdict {
        result.best = Some(mv);
        result.ponder = None;
    }
}
