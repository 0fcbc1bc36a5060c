//! The proof of a placing position's value by search, with the moving tables at the leaves: the
//! start of the standard game in well under a minute. `node` is the position as the proof sees
//! it and its turns in the order they are tried; `proof_memory` what the proof has established,
//! shared by its threads; `search` the test of a bar; `prove` the value from two tests, on one or more
//! threads; `proof_error` what can stop it.

mod node;
mod proof_error;
mod proof_memory;
mod prove;
mod search;

pub use proof_error::ProofError;
pub use proof_memory::ProofMemory;
pub use prove::{provable, prove, Proof, Test};
