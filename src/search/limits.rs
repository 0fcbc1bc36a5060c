//! What bounds one search: the limits `go` gives (depth, nodes, time, clocks), and the time
//! for this move that follows from them (a soft limit between iterations, a hard one anywhere).

use crate::rules::board::ByColor;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::time::Duration;

/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;

/// What limits a search. All fields default to "no limit".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Milliseconds left on each side's clock.
    pub time: ByColor<Option<u64>>,
    /// Milliseconds added per move.
    pub inc: ByColor<u64>,
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search the expected position until `ponderhit` (then the limits apply) or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// Time limits for this move: (soft, hard). The soft limit ends iterative deepening between
/// iterations; the hard one stops the search wherever it is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deadline {
    pub(super) soft: Option<Duration>,
    pub(super) hard: Option<Duration>,
}

/// The time for this move: all of `movetime`, or a share of the side to move's clock (the other
/// side's, when only that one is given); no limit without either.
pub(super) fn deadline(pos: &Position, limits: &Limits, overhead: u64) -> Deadline {
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
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
    let inc = limits.inc[clock];
    let usable = left.saturating_sub(overhead).max(1);
    // Spread the time over the moves to go (or an estimate of them), plus most of the increment.
    let moves = u64::from(limits.movestogo.unwrap_or(35).clamp(1, 60));
    let soft = (usable / moves)
        .saturating_add(inc / 4 * 3)
        .min(usable / 2)
        .max(1);
    let hard = soft.saturating_mul(4).min(usable / 3 * 2).max(soft);
    Deadline {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
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
        let d = deadline(&pos, &limits, 30);
        assert!(d.hard.is_some_and(|h| h <= Duration::from_millis(1000)));
        assert!(deadline(&pos, &Limits::default(), 30).hard.is_none());
    }
}
