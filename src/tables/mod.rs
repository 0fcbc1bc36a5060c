//! Endgame tables: the exact value of every moving-phase position with 3 to N pieces a side,
//! computed here by retrograde analysis for the rules in force, stored a byte per position up to
//! the board's symmetries, and probed by the engine.
//!
//! - `index`: where a position lives in its pair's table (16 symmetries folded);
//! - `retrograde`: retrograde analysis of one group of pairs;
//! - `file`: the table file (a header with the rules' fingerprint and a checksum, then the
//!   values), written atomically; `mapped`: a file's values mapped into memory, and what the
//!   file was then, to notice a change; `faults`: a page cut from a mapped file while it is
//!   read costs its table, not the process (SIGBUS caught);
//! - `schedule`: the order of the groups and what each needs, solving a group into the tables
//!   (in memory, or into a directory, as `moulin tables build` does), and the cost estimates of
//!   a cluster build;
//! - `tally`: the count of a table's values; `consistency`: a table's values checked against
//!   their successors;
//! - `perfect_play`: the value-keeping move of a covered position; `sample`: positions drawn
//!   from the tables, to measure play;
//! - `placing/`: the placing solution (its groups, files, induction and loading), which the
//!   loaded tables hold; `placing_build`: the solution built over the moving tables;
//!   `placing_verify`: the solution checked against its successors;
//! - `values`: a value and the values of one table; `table_set`: `Tables`, the tables of one
//!   directory loaded for probing, and which of their files changed since; `scope`: where the
//!   tables live and which rules they serve; `tables_error`: `TablesError`; this file only
//!   names the parts and hands their names on.
//!
//! A value is for the side to move, with the distance in plies to the next removal or the end
//! of the game (DTC), under the rules without draw rules (a game nobody can force to a win is a
//! draw). Positions with a removal pending are not stored: a move is a whole turn (a step with
//! its removals), so they are resolved through their removals.

pub mod checksum;
pub mod consistency;
pub mod faults;
pub mod file;
pub mod index;
pub mod mapped;
pub mod pack;
pub mod perfect_play;
pub mod placing;
pub mod placing_build;
pub mod placing_verify;
pub mod retrograde;
pub mod sample;
pub mod schedule;
pub mod scope;
#[cfg(test)]
pub(crate) mod scratch;
pub mod table_set;
pub mod tables_error;
pub mod tally;
pub mod values;

pub use scope::{cache_root, default_dir, fingerprint, unsupported, MAX_PIECES};
pub use table_set::{TableChange, Tables};
pub use tables_error::TablesError;
pub use values::{Value, Values, MAX_DISTANCE};

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
