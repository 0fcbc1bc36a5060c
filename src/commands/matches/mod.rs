//! The match family: `moulin match` (engines against each other, with its `--openings`, and
//! cutechess-cli's spellings of its flags read),
//! `moulin openings` (a balanced opening book made with any engine) and `moulin replay` (a
//! match's records re-checked).

pub(crate) mod cutechess_flags;
pub(crate) mod match_cmd;
mod match_openings;
mod match_screen;
pub(crate) mod openings_cmd;
pub(crate) mod replay_cmd;
