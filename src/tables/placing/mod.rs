//! The placing solution: the value (win, draw or loss for the side to move) of every position of
//! the placing phase, computed here by backward induction from the moving tables, two bits a
//! position up to the board's symmetries.
//!
//! - `packed`: values four to a byte;
//! - `induction`: one group solved from the groups after it;
//! - `store`: a group's file (header with the rules' fingerprint and a checksum), written
//!   atomically;
//! - `solution`: a directory's solution, loaded and checked for probing, or some of its groups
//!   held in memory;
//! - `opening`: the opening's solution, the groups of the first plies in one compressed file
//!   that ships with the engine, made and read.
//!
//! The groups of positions (placements left, pieces on the board of each side) stand below the
//! folder (`tables::groups`), as the packed tables name them too.
//!
//! The build of every group over the moving tables (`tables::placing_build`) and its check from
//! outside the solver (`tables::placing_verify`) stand beside this folder, above the loaded
//! tables (`tables::table_set`), which hold the solution: the arrows go one way.

pub mod induction;
pub mod opening;
pub mod packed;
pub mod solution;
pub mod store;

use crate::rules::{PlacingMoves, Rules};
use crate::tables::scope::{self, MAX_PIECES};
use crate::tables::tables_error::TablesError;

/// Why the placing solution cannot serve `rules`, if it cannot: the moving tables must serve them,
/// the placing must have no moves of pieces on the board (so no cycles), and a side has at most
/// nine pieces (the moving tables' reach).
pub fn unsupported(rules: &Rules) -> Option<TablesError> {
    if let Some(e) = scope::unsupported(rules) {
        return Some(e);
    }
    let why = if rules.placing_moves != PlacingMoves::PlaceOnly {
        "pieces move during the placing".to_string()
    } else if rules.pieces > MAX_PIECES {
        format!("{} pieces a side", rules.pieces)
    } else {
        return None;
    };
    Some(TablesError::PlacingUnsupported { why })
}

/// The fingerprint of the rules a placing file is built for: the moving tables' (`tables::
/// fingerprint`) with the pieces a side. Who places first does not enter (the values are for the
/// side to move), nor do the draw rules.
pub fn fingerprint(rules: &Rules) -> u64 {
    crate::rng::mix(scope::fingerprint(rules) ^ 0x706c_6163_0000_0000 ^ u64::from(rules.pieces))
}
