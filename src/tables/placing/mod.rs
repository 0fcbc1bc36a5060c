//! The placing solution: the value (win, draw or loss for the side to move) of every position of
//! the placing phase, computed here by backward induction from the moving tables, two bits a
//! position up to the board's symmetries.
//!
//! - `groups`: the groups of positions (placements left, pieces on the board of each side);
//! - `packed`: values four to a byte;
//! - `induction`: one group solved from the groups after it;
//! - `store`: a group's file (header with the rules' fingerprint and a checksum), written
//!   atomically;
//! - `backward`: the build of every group into a tables directory, resumable.

pub mod backward;
pub mod groups;
pub mod induction;
pub mod packed;
pub mod solution;
pub mod store;
pub mod verify;

use crate::rules::{PlacingMoves, Rules};
use crate::tables::{TablesError, MAX_PIECES};

/// Why the placing solution cannot serve `rules`, if it cannot: the moving tables must serve them,
/// the placing must have no moves of pieces on the board (so no cycles), and a side has at most
/// nine pieces (the moving tables' reach).
pub fn unsupported(rules: &Rules) -> Option<TablesError> {
    if let Some(e) = crate::tables::unsupported(rules) {
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
    crate::rng::mix(
        crate::tables::fingerprint(rules) ^ 0x706c_6163_0000_0000 ^ u64::from(rules.pieces),
    )
}

#[cfg(test)]
mod tests {
    use super::backward::{Build, Step};
    use super::solution::{Found, Solution};
    use super::*;
    use crate::tables::index::Classes;
    use crate::tables::schedule::solve_in_memory;
    use crate::tables::scratch::{scratch, Scratch};

    /// Builds the placing of a game of `pieces` a side (moving tables solved in memory) into a
    /// scratch folder.
    fn built(pieces: u8, name: &str) -> (Scratch, Rules, crate::tables::Tables) {
        let dir = scratch(&format!("placing-{name}"));
        let mut rules = Rules::nine();
        rules.pieces = pieces;
        let tables = solve_in_memory(&rules, pieces as usize).unwrap();
        let mut build = Build::over(tables.clone(), &dir.0, &rules).unwrap();
        for g in build.groups() {
            assert!(matches!(build.step(g).unwrap(), Step::Solved(_)));
        }
        (dir, rules, tables)
    }

    #[test]
    fn every_stored_value_is_the_best_of_its_successors_with_three_and_four_pieces() {
        for pieces in [3u8, 4] {
            let (dir, rules, tables) = built(pieces, &format!("whole{pieces}"));
            let Found::Whole(solution) = Solution::open(&dir.0, &rules).unwrap() else {
                panic!("the whole solution");
            };
            let classes = Classes::new(pieces as usize);
            let mut checked = 0;
            for g in groups::all(&rules) {
                let slots = backward::Build::size(g);
                let bad = verify::check(&rules, &classes, &solution, &tables, g, 0..slots);
                assert_eq!(bad, vec![], "group {g}");
                checked += slots;
            }
            assert!(checked > 1000, "{checked} slots");
        }
    }

    #[test]
    fn a_stopped_build_resumes_and_a_damaged_group_is_solved_again() {
        let (dir, rules, tables) = built(3, "resume");
        let mut build = Build::over(tables, &dir.0, &rules).unwrap();
        let groups = build.groups();
        // Damage one value byte of the last group's file (the start).
        let start = *groups.last().unwrap();
        let path = store::path(build.folder(), start);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, bytes).unwrap();
        for g in groups {
            let step = build.step(g).unwrap();
            if g == start {
                assert!(matches!(step, Step::Redone(TablesError::Checksum { .. })));
            } else {
                assert!(matches!(step, Step::Kept), "{g}");
            }
        }
        assert!(matches!(
            Solution::open(&dir.0, &rules).unwrap(),
            Found::Whole(_)
        ));
    }

    #[test]
    fn a_recheck_finds_a_value_changed_under_a_sound_checksum() {
        let (dir, rules, tables) = built(3, "recheck");
        let mut build = Build::over(tables, &dir.0, &rules).unwrap();
        let groups = build.groups();
        for &g in &groups {
            assert_eq!(build.recheck(g).unwrap(), 0, "{g}");
        }
        // One value of the largest group changed, the file written again whole (checksum sound).
        let g = *groups.iter().max_by_key(|&&g| Build::size(g)).unwrap();
        let mapped = store::open(build.folder(), fingerprint(&rules), 3, g).unwrap();
        let mut values = mapped.bytes().to_vec();
        drop(mapped);
        let at = values.iter().position(|&b| b & 3 != 0).unwrap();
        // A loss (1) becomes a win (3), a draw (2) or a win a loss.
        values[at] = (values[at] & !3) | if values[at] & 3 == 1 { 3 } else { 1 };
        store::write(build.folder(), fingerprint(&rules), 3, g, &values).unwrap();
        let mut again = Build::over(solve_in_memory(&rules, 3).unwrap(), &dir.0, &rules).unwrap();
        for &h in &groups {
            let differ = again.recheck(h).unwrap();
            if h == g {
                assert_eq!(differ, 1, "the changed value");
            } else if h.left <= g.left {
                assert_eq!(differ, 0, "{h}: before the change");
            }
            // The groups before it may differ too: their values follow from the wrong one.
        }
    }
}
