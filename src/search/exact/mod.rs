//! The exact solver of the placing phase near its end, with the endgame tables at its leaves:
//! `wdl` the values it proves (win, draw, loss); `memory` what it remembers of the positions it
//! has proven; `solver` the alpha-beta over the placements left, and solvers on several threads.
//! `testing` holds what the tests of the solver and of its users share.

mod memory;
mod solver;
#[cfg(test)]
pub(crate) mod testing;
mod wdl;

pub use memory::Memory;
pub use solver::{in_parallel, RootMoves, Solver};
pub use wdl::{from_name, name, outcome, wdl, Wdl};
