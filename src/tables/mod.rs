//! Endgame tables: the exact value of every moving-phase position with 3 to N pieces a side,
//! computed here by retrograde analysis for the rules in force, stored a byte per position up to
//! the board's symmetries, and probed by the engine.
//!
//! The parts, from the ground up (each imports only parts listed before it):
//!
//! - leaves: `index` (where a position lives in its pair's table, 16 symmetries folded);
//!   `groups` (the groups of the placing solution, a helper of both the solution and the
//!   packed tables' keys); `checksum`; `frame` (one zstd frame, as the opening's solution and a
//!   packed table keep their values); `faults` (a page cut from a mapped file while it is read
//!   costs its table, not the process: SIGBUS caught); `block_cache` (the unpacked blocks of one
//!   owner's packed tables, kept for the next probes); `memo` (the values of derived positions
//!   found already);
//! - `table_key`: which table a packed file holds; `packed_flaw`: what is wrong with a file of
//!   a packed set; `tables_error`: `TablesError`, which names the file and the cause;
//! - `mapped`: a file's values mapped into memory, and what the file was then, to notice a
//!   change; `scope`: where the tables live and which rules they serve;
//! - `packed_table`: the block format: one packed table, probed a block at a time;
//!   `packed_coding`: how its values are coded in its frames (format 3);
//! - `values`: a value (and `Wdl`, a value without its distance) and the values of one table:
//!   in memory, mapped or packed;
//! - `file`: the table file (a header with the rules' fingerprint and a checksum, then the
//!   values), written atomically; `retrograde`: retrograde analysis of one group of pairs;
//!   `tally`: the count of a table's values; `resume_point`: a group's build kept between two
//!   levels of its proof, to resume a stopped build there;
//! - `placing/`: the placing solution (its files, induction and loading) and the opening's
//!   solution (`placing::opening`: the first plies, one compressed file that ships);
//! - `table_set`: `Tables`, the tables loaded for probing (a built directory's, or filled by a
//!   packed set), which of their files changed since, and the cache of their blocks;
//! - beside each other above it: `perfect_play` (the value-keeping move of a covered moving
//!   position) and `placing_play` (the value of a placing position and of its moves);
//!   `schedule` (the order of the groups, solving a group into the tables, the cost estimates of
//!   a cluster build); `consistency` (a table's values checked against their successors);
//!   `sample` (positions drawn from the tables, to measure play);
//! - `placing_build`: the placing solution built over the moving tables; `placing_verify`: the
//!   solution checked against its successors;
//! - `pack/`: the packed set (its manifest, what it stores, packing, opening, verifying,
//!   installing, and two solutions compared), above the tables it opens;
//! - `load`: `Tables::open`, a folder opened whichever kind it holds (a packed set or built
//!   tables); this file only names the parts and hands their names on.
//!
//! A value is for the side to move, with the distance in plies to the next removal or the end
//! of the game (DTC), under the rules without draw rules (a game nobody can force to a win is a
//! draw). Positions with a removal pending are not stored: a move is a whole turn (a step with
//! its removals), so they are resolved through their removals.

pub mod block_cache;
pub mod checksum;
pub mod consistency;
pub mod faults;
pub mod file;
pub mod frame;
pub mod groups;
pub mod index;
pub mod load;
pub mod mapped;
pub mod memo;
pub mod pack;
pub mod packed_coding;
pub mod packed_flaw;
pub mod packed_table;
pub mod perfect_play;
pub mod placing;
pub mod placing_build;
pub mod placing_play;
pub mod placing_verify;
pub mod resume_point;
pub mod retrograde;
pub mod sample;
pub mod schedule;
pub mod scope;
#[cfg(test)]
pub(crate) mod scratch;
pub mod table_key;
pub mod table_set;
pub mod tables_error;
pub mod tally;
pub mod values;

pub use scope::{cache_root, default_dir, fingerprint, unsupported, MAX_PIECES};
pub use table_set::{TableChange, Tables};
pub use tables_error::TablesError;
pub use values::{Value, Values, Wdl, MAX_DISTANCE};

#[cfg(test)]
mod tests {
    use super::index::Classes;
    use super::tally::tally;
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn three_against_three_matches_the_published_tally() {
        let rules = Rules::nine().without_draw_rules();
        let classes = Classes::new(3);
        let no_smaller = |_: u32, _: u32| None;
        let tables = retrograde::solve_group(&rules, &classes, 3, 3, &no_smaller, &|_| {}).unwrap();
        let t = tally(&classes, 3, 3, &Values::from_codes(tables[0].clone()));
        // docs/rules.md, "Perfect play" (a public re-solve): wins, losses, draws for the side to
        // move, up to symmetry, no draw rules.
        assert_eq!((t.wins, t.losses, t.draws), (140_621, 28_736, 269));
    }

    #[test]
    fn the_no_capture_rule_decides_only_what_fits_in_it() {
        // The tables 3-3, 3-4 and 4-3: 3-3's longest distance is 26 plies.
        let rules = Rules::nine().without_draw_rules();
        let mut tables = Tables::empty(&rules, 4);
        for (a, b) in [(3, 3), (3, 4)] {
            schedule::solve_into(&mut tables, &rules, a, b).unwrap();
        }
        let with = |no_capture: u16, plies: u16, fen: &str| {
            let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
            fields[15] = plies.to_string();
            let mut rules = Rules::nine();
            rules.set("NoCapture", &no_capture.to_string()).unwrap();
            let pos = crate::rules::fen::read(&fields.join(" "), &rules).unwrap();
            tables.probe_in_game(&pos)
        };
        let mut rng = crate::rng::Rng::new(5);
        let won = |pair: (usize, usize), rng: &mut crate::rng::Rng| {
            sample::sample(&tables, &Rules::nine(), 400, true, rng)
                .into_iter()
                .find(|p| {
                    let pos = crate::rules::fen::read(&p.fen, &Rules::nine()).unwrap();
                    (
                        pos.on_board(crate::Color::White) as usize,
                        pos.on_board(crate::Color::Black) as usize,
                    ) == pair
                        && matches!(p.value, Value::Win(d) if d >= 3)
                })
                .expect("wins in more than 2 plies")
        };
        // 3-3: the removal ends the game, so a win that fits in the plies left is exact.
        let w = won((3, 3), &mut rng);
        let d = w.value.distance();
        assert_eq!(with(30, 30 - d, &w.fen), Some(w.value));
        // ... and one further than the plies left is a draw.
        assert_eq!(with(30, 30 - d + 1, &w.fen), Some(Value::Draw));
        // 3-4: its removal leads to 3-3, whose distances reach 26 plies: exact under 30 plies,
        // not decided under 20.
        let w = won((3, 4), &mut rng);
        let d = w.value.distance();
        assert_eq!(with(30, 30 - d, &w.fen), Some(w.value));
        assert_eq!(with(20, 20 - d, &w.fen), None);
    }

    #[test]
    fn the_fingerprint_is_that_of_the_moving_rules() {
        assert_ne!(
            fingerprint(&Rules::nine()),
            fingerprint(&Rules::preset("twelve").unwrap())
        );
        assert_eq!(
            fingerprint(&Rules::nine()),
            fingerprint(&Rules::preset("lasker").unwrap()),
            "Lasker differs in the placing phase only"
        );
        assert!(unsupported(&Rules::preset("no-reform").unwrap()).is_some());
    }
}
