//! A deliberately naive solution of the placing phase, written to check the engine's placing
//! solution (`moulin::tables::placing`) from the outside, without reading how that one is
//! computed: it shares nothing with it but the rules layer (`Position::start`,
//! `movegen::legal_moves`, `Position::play`, `Position::quick_outcome`) and, where the placing
//! ends, the naive moving-phase solver of `naive.rs`. It favours being obviously right over being
//! fast.
//!
//! # What it computes
//!
//! The value (1 win, 0 draw, -1 loss for the side to move) of every placing position reachable
//! from the empty board by legal play: every position at the start of a turn where the side to
//! move still has a piece in hand, the game not being over. Draw rules are off, as in the moving
//! solver (the placing has no cycles, and the no-capture count only runs once pieces move).
//!
//! # How
//!
//! Plain minimax, memoized, from the start position, depth first:
//!
//! - the game is over (`quick_outcome`: the side to move has fewer than three pieces, board plus
//!   hand): 1 for the winner, -1 for the loser;
//! - nothing left in hand (the placing is over): the naive moving solver's value of the pieces on
//!   the board, the side to move as its mover (win 1, draw 0, loss -1, the distance dropped);
//! - otherwise the best, over every legal whole turn (a placement with its removals, as
//!   `movegen` generates them), of minus the value of the position it leads to; no move at all
//!   would be a loss (a blocked side), which the placing never meets. Every move is searched,
//!   with no cut-off, so that every reachable position is solved and kept.
//!
//! The memo is keyed by what decides a placing position's future under these rules: each side's
//! points, each side's hand and the side to move. Nothing else can matter: a removal never stays
//! pending between turns (whole turns are played), the draw rules are off, and mills may be
//! re-formed freely (`Reform::Allowed`, checked), so the position keeps no record of past mills.
//! No symmetry is folded: every image of a position is solved on its own.

use super::naive::{Naive, Value};
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::rules::setup::{Action, Phase, Setup};
use moulin::rules::Reform;
use moulin::{Bitboard, ByColor, Color, Outcome, Position, Rules};
use rustc_hash::FxHashMap;

/// The values of every reachable placing position of one game.
pub struct NaivePlacing {
    rules: Rules,
    values: FxHashMap<u64, i8>,
    start: i8,
}

/// The memo's key: White's points (bits 0..24), Black's (24..48), White's hand (48..52),
/// Black's (52..56) and the side to move (bit 56, set for Black).
fn key(pos: &Position) -> u64 {
    u64::from(pos.pieces(Color::White).0)
        | u64::from(pos.pieces(Color::Black).0) << 24
        | u64::from(pos.in_hand(Color::White)) << 48
        | u64::from(pos.in_hand(Color::Black)) << 52
        | u64::from(pos.side_to_move() == Color::Black) << 56
}

/// The value for the side to move of a game that is over.
fn over(pos: &Position, outcome: Outcome) -> i8 {
    match outcome.winner() {
        Some(c) if c == pos.side_to_move() => 1,
        Some(_) => -1,
        None => 0,
    }
}

/// The values of moving-phase positions the placing ends on: win 1, draw 0, loss -1 for the side
/// to move holding `ours` against `theirs`.
pub trait MovingValues {
    /// The value, `None` when not known.
    fn wdl(&self, ours: Bitboard, theirs: Bitboard) -> Option<i8>;
}

impl MovingValues for Naive {
    fn wdl(&self, ours: Bitboard, theirs: Bitboard) -> Option<i8> {
        self.value(ours, theirs).map(|v| match v {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        })
    }
}

/// The search: the moving values it ends on, and the memo it fills.
struct Solver<'a> {
    moving: &'a dyn MovingValues,
    values: FxHashMap<u64, i8>,
}

impl Solver<'_> {
    /// The value of `pos` for its side to move.
    fn value(&mut self, pos: &Position) -> i8 {
        assert_eq!(
            pos.pending_removals(),
            0,
            "whole turns leave nothing pending"
        );
        if let Some(outcome) = pos.quick_outcome() {
            return over(pos, outcome);
        }
        if !pos.is_placing() {
            let us = pos.side_to_move();
            return self
                .moving
                .wdl(pos.pieces(us), pos.pieces(!us))
                .unwrap_or_else(|| panic!("no moving value for {}", fen(pos)));
        }
        let key = key(pos);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let mut best = -1;
        for mv in movegen::legal_moves(pos, Convention::Turn) {
            let mut next = *pos;
            next.play(mv);
            best = best.max(-self.value(&next));
        }
        self.values.insert(key, best);
        best
    }
}

fn fen(pos: &Position) -> String {
    moulin::rules::fen::write(pos)
}

impl NaivePlacing {
    /// Solves the placing of the game of `rules` (draw rules dropped) from the empty board, with
    /// `moving`'s values where the placing ends: `moving` must hold every pair of 3 to
    /// `rules.pieces` a side, solved under the same rules (which `pieces` does not change: it
    /// only sets the hands at the start).
    pub fn solve(rules: &Rules, moving: &dyn MovingValues) -> NaivePlacing {
        assert!(
            rules.reform == Reform::Allowed,
            "the memo key needs rules where mills may be re-formed freely"
        );
        let rules = rules.without_draw_rules();
        let mut solver = Solver {
            moving,
            values: FxHashMap::default(),
        };
        let start = solver.value(&Position::start(rules));
        NaivePlacing {
            rules,
            values: solver.values,
            start,
        }
    }

    /// The value of the start (the empty board) for the side to move first.
    pub fn start(&self) -> i8 {
        self.start
    }

    /// How many positions were solved.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Every solved position, with its value.
    pub fn positions(&self) -> impl Iterator<Item = (Position, i8)> + '_ {
        self.values.iter().map(|(&key, &v)| (self.position(key), v))
    }

    /// The position of a memo key (the inverse of `key`), through a checked setup.
    fn position(&self, key: u64) -> Position {
        let field = |shift: u32, bits: u32| (key >> shift & ((1 << bits) - 1)) as u32;
        let pieces = ByColor::new(Bitboard(field(0, 24)), Bitboard(field(24, 24)));
        let in_hand = ByColor::new(field(48, 4) as u8, field(52, 4) as u8);
        let side = if field(56, 1) == 1 {
            Color::Black
        } else {
            Color::White
        };
        let placed = 2 * self.rules.pieces - in_hand.white - in_hand.black;
        let setup = Setup {
            pieces,
            side,
            phase: Phase::Placing,
            action: Action::Place,
            on_board: ByColor::new(pieces.white.count() as u8, pieces.black.count() as u8),
            in_hand,
            pending: ByColor::new(0, 0),
            mills: ByColor::new(0, 0),
            no_capture: 0,
            fullmove: 1 + u16::from(placed / 2),
        };
        let pos = setup.position(&self.rules).expect("a solved position");
        assert_eq!(self::key(&pos), key, "the key round-trips");
        pos
    }

    /// Wins, draws and losses for the side to move, and the positions, by placements left.
    pub fn tally(&self) -> Vec<(u32, [u64; 3])> {
        let mut by_left = std::collections::BTreeMap::new();
        for (&key, &v) in &self.values {
            let left = (key >> 48 & 15) as u32 + (key >> 52 & 15) as u32;
            let t: &mut [u64; 3] = by_left.entry(left).or_default();
            t[(1 - v) as usize] += 1;
        }
        by_left.into_iter().rev().collect()
    }
}
