//! The exact solver of the placing phase near its end, with the endgame tables at its leaves:
//! `wdl` the values it proves (win, draw, loss); `solver_memory` what it remembers of the
//! positions it has proven; `solver` the alpha-beta over the placements left, and solvers on
//! several threads (`parallel::run`).
//! `root_proof` what it proves of the root before the search (the root's value, or its moves
//! sifted); `choice_check` its check of a move after (the search's choice, the book's move).
//! `solved` play and grading from the placing solution where it covers the position. `testing`
//! holds what the tests of the solver and of its users share. `proof` proves a placing
//! position's value from any ply, the start included (`moulin solve`).

pub(super) mod choice_check;
pub mod proof;
pub(super) mod root_proof;
pub mod solved;
mod solver;
mod solver_memory;
#[cfg(test)]
pub(crate) mod testing;
mod wdl;

pub(super) use choice_check::{ChoiceCheck, Verdict};
pub(super) use root_proof::RootProof;
pub use solver::{in_parallel, SiftedMoves, Solver};
pub use solver_memory::Memory;
pub use wdl::{from_name, name, outcome, wdl, Wdl};
