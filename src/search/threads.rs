//! What the threads of one search share (Lazy SMP on a rayon pool): the table, the controls,
//! the node count, the deepest completed iteration, and the positions being searched right now,
//! so that a thread defers a move another thread is busy with (ABDADA: Weill, "The ABDADA
//! distributed minimax search algorithm", 1996).

use super::control::Control;
use super::eval::Evaluation;
use super::limits::Deadline;
use super::style::Features;
use super::tt::Bound;
use super::tt::TranspositionTable;
use crate::rules::moves::Move;
use crate::tables::Tables;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// What every thread of one search shares.
pub(super) struct Shared<'a> {
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a Control,
    pub(super) nodes: AtomicU64,
    /// Exact values found by every thread: the table probes that answered.
    pub(super) tbhits: AtomicU64,
    /// Set when the main thread has finished, to stop the helpers.
    pub(super) abort: AtomicBool,
    /// Positions being searched right now, by which thread (see `mark_busy`).
    pub(super) busy: Vec<AtomicU64>,
    pub(super) threads: usize,
    /// The deepest iteration any thread has completed, with its principal line.
    pub(super) completed: Mutex<Option<Line>>,
    pub(super) completed_depth: AtomicU64,
    pub(super) deadline: Deadline,
    pub(super) node_limit: Option<u64>,
    pub(super) infinite: bool,
    /// `movetime`: use all of it, since nothing is saved for later moves.
    pub(super) fixed_time: bool,
    pub(super) features: Features,
    /// Endgame tables that serve the game's rules.
    pub(super) tables: Option<&'a Tables>,
    /// What the threads evaluate with: a network where one serves the game's rules.
    pub(super) evaluation: Evaluation<'a>,
}

/// Slots of the table of positions being searched (a power of two).
pub(super) const BUSY_SLOTS: usize = 1 << 14;

impl Shared<'_> {
    /// A busy slot holds the position's key with its low byte replaced by the searching thread's
    /// id plus one.
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key >> 50) as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether another thread is searching the position with this key.
    pub(super) fn busy_elsewhere(&self, key: u64, id: usize) -> bool {
        let v = self.busy_slot(key).load(Ordering::Relaxed);
        v >> 8 == key >> 8 && v & 0xff != id as u64 + 1
    }

    /// Claims the position for this thread, unless another thread holds its slot.
    pub(super) fn mark_busy(&self, key: u64, id: usize) -> bool {
        let slot = self.busy_slot(key);
        let mine = key & !0xff | (id as u64 + 1);
        slot.compare_exchange(0, mine, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    pub(super) fn unmark_busy(&self, key: u64, id: usize) {
        let mine = key & !0xff | (id as u64 + 1);
        let _ = self
            .busy_slot(key)
            .compare_exchange(mine, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

pub(super) fn build_pool(threads: usize) -> rayon::ThreadPool {
    let name = Some("moulin-search");
    crate::parallel::pool(Some(threads.max(1)), name)
        .or_else(|_| crate::parallel::pool(Some(1), name))
        .expect("a one-thread pool can always be built")
}

/// The move a root search chose: the answer it expects, the move's score (internal) and the
/// depth of the iteration that chose it.
#[derive(Clone, Copy)]
pub(super) struct RootChoice {
    pub(super) best: Move,
    pub(super) ponder: Option<Move>,
    pub(super) score: i32,
    pub(super) depth: u32,
}

impl RootChoice {
    /// The choice of a line with a move (`pv` not empty).
    pub(super) fn of(line: &Line) -> RootChoice {
        RootChoice {
            best: line.pv[0],
            ponder: line.pv.get(1).copied(),
            score: line.score,
            depth: line.depth,
        }
    }
}

/// One finished root line.
#[derive(Clone)]
pub(super) struct Line {
    pub(super) depth: u32,
    pub(super) seldepth: u32,
    pub(super) multipv: usize,
    pub(super) score: i32,
    pub(super) bound: Option<Bound>,
    pub(super) pv: Vec<Move>,
}
