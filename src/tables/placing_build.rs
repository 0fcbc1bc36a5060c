//! Building the placing solution (`placing`) into a tables directory, over the moving tables:
//! every group (`groups::all`), from the last placement back to the first, each from the groups
//! after it (`induction`), written to its file as soon as it is solved. A stopped build resumes at the first group without a sound file;
//! a group whose file is damaged is solved again.

use super::groups::{self, Group};
use super::placing::induction::{self, Source};
use super::placing::store::{self, Mapped};
use super::placing::{fingerprint, unsupported};
use crate::rules::Rules;
use crate::tables::index::{pair_len, Classes};
use crate::tables::schedule;
use crate::tables::table_set::Tables;
use crate::tables::tables_error::TablesError;
use crate::tables::values::Values;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What happened to one group.
pub enum Step {
    /// Its file was there and sound.
    Kept,
    /// Its file was damaged (the error): solved again.
    Redone(TablesError),
    /// Solved, in this many seconds.
    Solved(f64),
}

/// A build of the placing solution of `rules` into the tables directory `tables_dir`, which holds
/// the moving tables.
pub struct Build {
    rules: Rules,
    folder: PathBuf,
    print: u64,
    classes: Classes,
    moving: Tables,
    /// Every group, in the order they are built (`groups::all`).
    all: Vec<Group>,
    /// The groups of the previous placement count, mapped.
    solved: HashMap<Group, Mapped>,
    /// The moving tables kept packed (a build's `compact` folder) that the group being built
    /// reads unpacked in memory, as they were opened (`resident_for`).
    unpacked: HashMap<(usize, usize), Values>,
}

impl Build {
    /// Opens the moving tables of `tables_dir` (all needed) and makes the placing folder.
    pub fn new(tables_dir: &Path, rules: &Rules) -> Result<Build, TablesError> {
        if let Some(why) = unsupported(rules) {
            return Err(why);
        }
        let rules = rules.without_draw_rules();
        let moving = Tables::open_moving(tables_dir, &rules)?;
        Build::over(moving, tables_dir, &rules)
    }

    /// A build that reads no moving table: for the groups with two placements left or more,
    /// which read only the groups after them (one group at a time, as a cluster's task builds).
    pub fn without_moving(tables_dir: &Path, rules: &Rules) -> Result<Build, TablesError> {
        if let Some(why) = unsupported(rules) {
            return Err(why);
        }
        let rules = rules.without_draw_rules();
        Build::over(
            Tables::empty(&rules, rules.pieces as usize),
            tables_dir,
            &rules,
        )
    }

    /// A build over moving tables already loaded (`moving`, which must hold every pair of the
    /// rules' pieces), writing into `tables_dir`'s placing folder.
    pub fn over(moving: Tables, tables_dir: &Path, rules: &Rules) -> Result<Build, TablesError> {
        let folder = store::folder(tables_dir);
        std::fs::create_dir_all(&folder).map_err(|source| TablesError::Open {
            path: folder.clone(),
            source,
        })?;
        Ok(Build {
            rules: rules.without_draw_rules(),
            print: fingerprint(rules),
            classes: Classes::new(rules.pieces as usize),
            moving,
            all: groups::all(rules),
            folder,
            solved: HashMap::new(),
            unpacked: HashMap::new(),
        })
    }

    /// The groups, in the order they are built.
    pub fn groups(&self) -> Vec<Group> {
        self.all.clone()
    }

    /// The moving tables the last placements lead to.
    pub fn moving(&self) -> &Tables {
        &self.moving
    }

    /// The folder the files go in.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The positions (slots) of a group.
    pub fn size(group: Group) -> u64 {
        pair_len(group.mover as usize, group.other as usize)
    }

    /// The bytes of disk the groups of the placing solution of `rules` not yet in `dir`'s
    /// placing folder will take (four values a byte, and a header a group).
    pub fn disk_needed(dir: &Path, rules: &Rules) -> u64 {
        let folder = store::folder(dir);
        groups::all(rules)
            .into_iter()
            .filter(|&g| !store::path(&folder, g).exists())
            .map(|g| Build::size(g).div_ceil(4) + 64)
            .sum()
    }

    /// Builds `group` unless its file is there and sound; the groups it depends on must be built.
    pub fn step(&mut self, group: Group) -> Result<Step, TablesError> {
        // Only the groups with one placement fewer are read.
        self.solved.retain(|g, _| g.left + 1 == group.left);
        let damaged = match store::open(&self.folder, self.print, self.rules.pieces, group)
            .and_then(|m| m.check().map(|()| m))
        {
            Ok(mapped) => {
                self.solved.insert(group, mapped);
                return Ok(Step::Kept);
            }
            Err(TablesError::Open { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                None
            }
            Err(e) => Some(e),
        };
        let t = Instant::now();
        self.load_after(group)?;
        self.resident_for(group)?;
        let values = {
            let source = |g: Group| self.source(g);
            let sources = induction::sources(&self.rules, group, &source)?;
            induction::solve(&self.rules, &self.classes, group, &sources)
        };
        store::write(&self.folder, self.print, self.rules.pieces, group, &values)?;
        let secs = t.elapsed().as_secs_f64();
        self.log_cost(group, secs);
        let mapped = store::open(&self.folder, self.print, self.rules.pieces, group)?;
        self.solved.insert(group, mapped);
        Ok(damaged.map_or(Step::Solved(secs), Step::Redone))
    }

    /// Solves `group` again from the stored groups after it (or the moving tables) and compares
    /// the result with its stored file, value for value: the number of values that differ (so
    /// every stored value is checked to be the best of its stored successors'). The group's file
    /// must be there and sound.
    pub fn recheck(&mut self, group: Group) -> Result<u64, TablesError> {
        self.solved.retain(|g, _| g.left + 1 == group.left);
        let stored = store::open(&self.folder, self.print, self.rules.pieces, group)?;
        stored.check()?;
        self.load_after(group)?;
        self.resident_for(group)?;
        let values = {
            let source = |g: Group| self.source(g);
            let sources = induction::sources(&self.rules, group, &source)?;
            induction::solve(&self.rules, &self.classes, group, &sources)
        };
        let differ = values
            .iter()
            .zip(stored.bytes())
            .map(|(a, b)| {
                (0..4)
                    .filter(|i| (a >> (2 * i)) & 3 != (b >> (2 * i)) & 3)
                    .count() as u64
            })
            .sum();
        self.solved.insert(group, stored);
        Ok(differ)
    }

    /// Unpacks in memory the moving tables kept packed that `group`'s last placements lead to
    /// (none unless one placement is left), and gives those unpacked for the group before back
    /// their packed form: a last placement's successors are probed everywhere in their tables,
    /// and a table packed unpacks a block at a time.
    fn resident_for(&mut self, group: Group) -> Result<(), TablesError> {
        let need: Vec<(usize, usize)> = if group.left == 1 {
            (0..=self.rules.most_removals().min(group.other))
                .map(|k| group.after(k))
                .map(|g| (g.mover as usize, g.other as usize))
                .filter(|&(m, o)| self.moving.has(m, o))
                .collect()
        } else {
            Vec::new()
        };
        let done: Vec<(usize, usize)> = self
            .unpacked
            .keys()
            .copied()
            .filter(|p| !need.contains(p))
            .collect();
        for (m, o) in done {
            if let Some(packed) = self.unpacked.remove(&(m, o)) {
                self.moving.insert(m, o, packed);
            }
        }
        for (m, o) in need {
            if let Some(packed @ Values::Packed(_)) = self.moving.values(m, o) {
                let packed = packed.clone();
                self.moving.insert(m, o, packed.clone().resident()?);
                self.unpacked.insert((m, o), packed);
            }
        }
        Ok(())
    }

    /// Maps the groups `group`'s placements lead to (none after the last placement: the moving
    /// tables are loaded).
    fn load_after(&mut self, group: Group) -> Result<(), TablesError> {
        if group.left == 1 {
            return Ok(());
        }
        for k in 0..=self.rules.most_removals().min(group.other) {
            let next = group.after(k);
            if self.solved.contains_key(&next) || !self.all.contains(&next) {
                continue;
            }
            let mapped = store::open(&self.folder, self.print, self.rules.pieces, next).map_err(
                |e| match e {
                    TablesError::Open { .. } => TablesError::PlacingMissing {
                        group: next.to_string(),
                    },
                    other => other,
                },
            )?;
            self.solved.insert(next, mapped);
        }
        Ok(())
    }

    /// Where the values of group `g` are read (the moving pair when `g.left` is 0).
    fn source(&self, g: Group) -> Result<Source<'_>, TablesError> {
        if g.left == 0 {
            return self
                .moving
                .values(g.mover as usize, g.other as usize)
                .map(Source::Table)
                .ok_or(TablesError::NotBuilt {
                    mover: g.mover as usize,
                    other: g.other as usize,
                });
        }
        self.solved
            .get(&g)
            .map(|m| Source::Packed(m.bytes()))
            .ok_or_else(|| TablesError::PlacingMissing {
                group: g.to_string(),
            })
    }

    /// Appends a group's cost to `costs.txt` in the placing folder (a failure to write it is
    /// ignored: it is for planning only).
    fn log_cost(&self, group: Group, secs: f64) {
        let size = Build::size(group);
        schedule::log_cost(
            &self.folder,
            &format!("{group} positions {size} seconds {secs:.1}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::tables::groups;
    use crate::tables::index::Classes;
    use crate::tables::placing::solution::{Found, Solution};
    use crate::tables::placing::{fingerprint, store};
    use crate::tables::placing_verify as verify;
    use crate::tables::schedule::solve_in_memory;
    use crate::tables::scratch::{scratch, Scratch};

    /// Builds the placing of a game of `pieces` a side (moving tables solved in memory) into a
    /// scratch folder.
    fn built(pieces: u8, name: &str) -> (Scratch, Rules, Tables) {
        let dir = scratch(&format!("placing-{name}"));
        let mut rules = Rules::nine();
        rules.pieces = pieces;
        // With four pieces, the tables up to 4 a side the exact solver's tests share (the
        // pieces of a game play no part in them).
        let tables = if pieces == 4 {
            crate::tables::scratch::four_a_side().as_ref().clone()
        } else {
            solve_in_memory(&rules, pieces as usize).unwrap()
        };
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
                let slots = Build::size(g);
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
                assert!(matches!(
                    step,
                    Step::Redone(TablesError::HeaderFault {
                        fault: crate::shipped::HeaderError::Checksum { .. },
                        ..
                    })
                ));
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
