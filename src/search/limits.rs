//! What bounds one search: the deepest ply (`MAX_PLY`) and iteration (`MAX_DEPTH`), its
//! threads (`MAX_THREADS`), the limits `go` gives (depth, nodes, time, clocks), and the time
//! for this move that follows from them (`Budget`, made once a search): a soft limit between
//! iterations and a hard one anywhere (`Deadline`), and the shares of the move's time that the
//! exact solver of the placing and the search it checks take in turn (the `*_END` constants
//! and `SEARCH_AGAIN_SHARE`, named with the time manager's in `timeman`).
//!
//! A timed placing search whose choice the exact solver checks runs: the proof of the root's
//! value (a draw at least until `PROVE_DRAW_END`, a win until `PROVE_WIN_END`), the search (until
//! `CHECKED_SEARCH_END`, or `WIN_OPEN_SEARCH_END` when a draw is proven and a win not ruled
//! out), the check of its choice (until `CHECK_END`), with a search again without a refuted
//! move in `SEARCH_AGAIN_SHARE` of the time left. Any other search with the exact solver gives
//! it until `SOLVER_END` (or `SOLVER_NODES` positions without a clock), then searches until the
//! move's own deadline.

use super::control::Control;
use super::timeman::{self, Charge, Clock, Horizon, CHECK_END, SOLVER_NODES};
use crate::rules::board::ByColor;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::time::Duration;

/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;

/// The deepest iteration of a search: `MAX_PLY` less room for the plies that quiescence adds
/// below it. A deeper `go depth` stops there; `bench` refuses a deeper depth.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 10;

/// The most threads one search takes (the protocol's `Threads`, and the `--threads` of the
/// commands that search).
pub const MAX_THREADS: usize = 64;

/// What limits a search. All fields default to "no limit".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The positions the search may visit.
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Milliseconds left on each side's clock.
    pub time: ByColor<Option<u64>>,
    /// Milliseconds added per move.
    pub inc: ByColor<u64>,
    /// The moves until the clocks get more time.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search the expected position until `ponderhit` (then the limits apply) or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Milliseconds the GUI was seen to charge per move beyond the engine's own time (learned
    /// by the protocol), kept in reserve for every move to come, besides `MoveOverhead` (kept
    /// once).
    pub reserve: u64,
    /// The largest such charge seen in this game (the GUI's dearest kind of move), kept for the
    /// moves to come that may cost as much (`timeman::plan`).
    pub reserve_peak: u64,
}

impl Limits {
    /// The time a `go movetime` fixes for the move, less at most a share of `overhead`
    /// (`timeman::movetime`): the one reader of `movetime`, for the move's deadline and for the
    /// iterations, which spend all of a fixed time (nothing is saved for later moves).
    pub(super) fn fixed_time(&self, overhead: u64) -> Option<Duration> {
        self.movetime
            .map(|mt| Duration::from_millis(timeman::movetime(mt, overhead)))
    }
}

/// Time limits for a search: (soft, hard), counted from the start of the move's clock. The soft
/// limit (the time manager's optimum, scaled between iterations) ends iterative deepening
/// between iterations; the hard one (its maximum) stops the search wherever it is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deadline {
    pub(super) soft: Option<Duration>,
    pub(super) hard: Option<Duration>,
}

/// The time for this move: a `movetime` (less at most a share of the overhead,
/// `Limits::fixed_time`), or the time manager's plan from the side to move's clock (the other
/// side's, when only that one is given), its optimum the soft limit and its maximum the hard
/// one; no limit without either. `overhead` (`MoveOverhead`) is kept once, the learned
/// `limits.reserve` for every move to come.
fn deadline(pos: &Position, limits: &Limits, overhead: u64, horizon: Horizon) -> Deadline {
    if let Some(t) = limits.fixed_time(overhead) {
        return Deadline {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let us = pos.side_to_move();
    // A clock given for the other side only (some GUIs send one): the side to move is taken to
    // have the same clock and increment, rather than to have no limit at all.
    let clock = if limits.time[us].is_some() { us } else { !us };
    let Some(left) = limits.time[clock] else {
        return Deadline {
            soft: None,
            hard: None,
        };
    };
    let clock = Clock {
        left,
        inc: limits.inc[clock],
        movestogo: limits.movestogo,
    };
    let charge = Charge {
        recent: limits.reserve,
        peak: limits.reserve_peak,
    };
    let plan = timeman::plan(clock, horizon, overhead, charge);
    Deadline {
        soft: Some(Duration::from_millis(plan.optimum)),
        hard: Some(Duration::from_millis(plan.maximum)),
    }
}

/// The time of one move, computed once a search from its limits (`Budget::new`): the deadline
/// of a search that has the whole move, and the instants at which the shares of the move's time
/// end, counted from the move's clock (which starts at `go`, so that a book check, the exact
/// solver and the search share it).
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// The move's limits: the soft one is the move's time that the shares divide.
    whole: Deadline,
}

impl Budget {
    /// The budget of a search of `pos` within `limits`, keeping `overhead` milliseconds for the
    /// communication with the GUI, and the learned `limits.reserve` for every move to come, the
    /// game's `horizon` telling how many moves are to come.
    pub(super) fn new(pos: &Position, limits: &Limits, overhead: u64, horizon: Horizon) -> Budget {
        Budget {
            whole: deadline(pos, limits, overhead, horizon),
        }
    }

    /// The deadline of a search that has the whole move.
    pub(super) fn whole(self) -> Deadline {
        self.whole
    }

    /// Whether the move is timed (it has a soft limit).
    pub(super) fn is_timed(self) -> bool {
        self.whole.soft.is_some()
    }

    /// When `share` of the move's time has run (`None` without a clock).
    fn share_end(self, share: f64) -> Option<Duration> {
        self.whole.soft.map(|t| t.mul_f64(share))
    }

    /// The deadline of a search that ends at `share` of the move's time, soft and hard alike.
    pub(super) fn search_until(self, share: f64) -> Deadline {
        let end = self.share_end(share);
        Deadline {
            soft: end,
            hard: end,
        }
    }

    /// The deadline of a search again that starts at `now` (on the move's clock) and may take
    /// `share` of the move's time left, soft and hard alike.
    pub(super) fn search_again_until(self, now: Duration, share: f64) -> Deadline {
        let until = self
            .whole
            .soft
            .map(|t| now + t.saturating_sub(now).mul_f64(share));
        Deadline {
            soft: until,
            hard: until,
        }
    }

    /// When the exact solver gives up in a step that ends at `share` of the move's time: at
    /// `stop`; in a timed search once the move's clock has run `share` of its time; in a search
    /// without a clock, or while pondering, after `SOLVER_NODES` positions.
    pub(super) fn solver_stop(self, control: &Control, share: f64) -> impl Fn(u64) -> bool + '_ {
        let end = self.share_end(share);
        move |nodes| {
            control.is_stopped()
                || match end {
                    Some(b) if !control.is_pondering() => control.elapsed() >= b,
                    _ => nodes >= SOLVER_NODES,
                }
        }
    }

    /// When the check of the search's choice gives up: at `stop`, or once the move's clock has
    /// run `CHECK_END` of its time (never, on the clock, in an untimed search: a search whose
    /// choice is checked is timed).
    pub(super) fn check_stop(self, control: &Control) -> impl Fn(u64) -> bool + '_ {
        let end = self.share_end(CHECK_END);
        move |_| control.is_stopped() || end.is_some_and(|end| control.elapsed() >= end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn a_clock_for_the_other_side_only_still_limits_the_move() {
        let mut pos = Position::start(Rules::nine());
        pos.play(Move::place(
            crate::rules::board::Point::parse("d6").unwrap(),
        ));
        // Black to move, only White's clock given.
        let limits = Limits {
            time: ByColor::new(Some(1000), None),
            ..Limits::default()
        };
        let d = deadline(&pos, &limits, 30, Horizon::default());
        assert!(d.hard.is_some_and(|h| h <= Duration::from_secs(1)));
        assert!(deadline(&pos, &Limits::default(), 30, Horizon::default())
            .hard
            .is_none());
    }
}
