//! What bounds one search: the limits `go` gives (depth, nodes, time, clocks), and the time
//! for this move that follows from them (a soft limit between iterations, a hard one anywhere).

use crate::rules::board::ByColor;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::time::Duration;

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

pub(super) fn deadline(pos: &Position, limits: &Limits, overhead: u64) -> Deadline {
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
        return Deadline {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let us = pos.side_to_move();
    let Some(left) = limits.time[us] else {
        return Deadline {
            soft: None,
            hard: None,
        };
    };
    let inc = limits.inc[us];
    let usable = left.saturating_sub(overhead).max(1);
    // Spread the time over the moves to go (or an estimate of them), plus most of the increment.
    let moves = limits.movestogo.unwrap_or(35).clamp(1, 60) as u64;
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
