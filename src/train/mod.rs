//! Learning the placing phase: `moulin train label` makes the truth (placing-phase positions,
//! each with the score of a search much deeper than match play affords, probing the endgame
//! tables at its leaves); `moulin train fit` learns the evaluation's placing weights from it;
//! `moulin train critical` finds the positions where one move keeps the value and most others
//! lose it. Labelled data live under the cache directory (`cache_dir`), never in the repository;
//! only the learned weights (`src/search/placing.txt`) and the critical suite
//! (`tests/data/critical-<variant>.txt`) are committed, each with the command that made it.

pub mod critical;
pub mod fit;
pub mod label;

use std::path::PathBuf;

/// The directory of the training data of a variant: `$XDG_CACHE_HOME/moulin/train/<variant>`,
/// or `~/.cache/moulin/train/<variant>`.
pub fn cache_dir(variant: &str) -> PathBuf {
    crate::tables::cache_root().join("train").join(variant)
}
