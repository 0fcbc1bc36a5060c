//! The match family: `moulin match` (engines against each other, with its `--openings`),
//! `moulin openings` (a balanced opening book made with any engine) and `moulin replay` (a
//! match's records re-checked).

pub(crate) mod match_cmd;
mod match_openings;
pub(crate) mod openings_cmd;
pub(crate) mod replay_cmd;
