//! The search's controls, shared between the search threads and the protocol thread: `stop` is
//! one atomic flag, `ponderhit` another, and the clock of this move starts here.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Shared between the search and the protocol thread: `stop` and `ponderhit` act through it.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the clock for this move started (reset at `ponderhit`).
    start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Control {
        Control::new()
    }
}

impl Control {
    /// Controls for a search that is neither stopped nor pondering, its clock starting now.
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }

    /// Readies the control for a new search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.restart_clock();
    }

    /// Starts the clock of the next search now, keeping a `stop` already asked for (searches one
    /// after another under one `stop`, as `bench` runs them).
    pub fn restart_clock(&self) {
        *self
            .start
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether the search is asked to stop.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes the real one, its clock
    /// starting now.
    pub fn ponderhit(&self) {
        *self
            .start
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search ponders (until `ponderhit`, no time limit applies).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    pub(super) fn elapsed(&self) -> Duration {
        self.start
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .elapsed()
    }
}
