//! Checking the placing solution (`placing`) from the outside of its solver, against the moving
//! tables: for a stored position, every
//! legal move is made by the move generator and played on a real `Position`, and the stored value
//! must be the best of the successors' (a game over, a placing position of the solution, or a
//! moving position of the tables). Shares nothing with `induction` but the index. The groups of
//! a built solution are checked one after the other by `check_groups` (`moulin tables verify
//! --placing`).

use super::groups::{position, Group};
use super::placing::solution::Solution;
use super::placing_build::Build;
use super::placing_play::known;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::index::{Classes, PairIndex};
use crate::tables::table_set::Tables;
use crate::tables::tables_error::TablesError;
use crate::tables::values::Wdl;

/// A stored value that is not the best of its successors'.
#[derive(Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The group.
    pub group: Group,
    /// The slot.
    pub slot: u64,
    /// The value stored.
    pub stored: Option<Wdl>,
    /// The best of the successors' values (`None`: a successor has no value).
    pub expected: Option<Wdl>,
}

/// The best value of the successors of `pos` for its side to move, from the move generator.
pub fn best_of_successors(pos: &Position, solution: &Solution, tables: &Tables) -> Option<Wdl> {
    let mut moves = Vec::new();
    movegen::generate(pos, Convention::Turn, &mut moves);
    let mut best: Option<Wdl> = None;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = -known(&child, Some(solution), tables)?;
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    // A placing position always has a placement.
    best
}

/// Checks the stored values of `group` at `slots` (canonical or not: spare slots are skipped);
/// the mismatches found.
pub fn check(
    rules: &Rules,
    classes: &Classes,
    solution: &Solution,
    tables: &Tables,
    group: Group,
    slots: impl Iterator<Item = u64>,
) -> Vec<Mismatch> {
    let index = PairIndex::new(group.mover as usize, group.other as usize, classes);
    let rules = rules.without_draw_rules();
    let mut out = Vec::new();
    for slot in slots {
        if !index.is_canonical(slot) {
            continue;
        }
        let (ours, theirs) = index.position(slot);
        let pos = position(&rules, group, ours, theirs);
        let moving = |p: &Position| tables.probe(p).map(crate::tables::values::Value::wdl);
        let stored = solution.value_of_with(group.left, ours, theirs, &moving);
        let expected = best_of_successors(&pos, solution, tables);
        if stored != expected || stored.is_none() {
            out.push(Mismatch {
                group,
                slot,
                stored,
                expected,
            });
        }
    }
    out
}

/// Each group of the placing solution `build` holds checked, told to `each` with the positions
/// checked and those that disagree: with `sample` (and the whole `solution`), that many
/// positions of each spread evenly over it, each against its successors (`check`); without,
/// every group solved again from the stored groups after it and compared value for value
/// (`Build::recheck`). The checks run on the caller's rayon pool.
///
/// # Errors
///
/// A group that cannot be read or solved again; what `each` returns.
pub fn check_groups<E: From<TablesError>>(
    build: &mut Build,
    rules: &Rules,
    solution: Option<&Solution>,
    sample: Option<u64>,
    mut each: impl FnMut(Group, u64, u64) -> Result<(), E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    let classes = Classes::new(rules.pieces as usize);
    for g in build.groups() {
        let size = Build::size(g);
        let (checked, wrong) = match (sample, solution) {
            (Some(n), Some(solution)) => {
                let step = (size / n).max(1);
                let slots: Vec<u64> = (0..size).step_by(step as usize).collect();
                let bad = slots
                    .par_chunks(1024)
                    .map(|c| {
                        check(
                            rules,
                            &classes,
                            solution,
                            build.moving(),
                            g,
                            c.iter().copied(),
                        )
                        .len() as u64
                    })
                    .sum::<u64>();
                (slots.len() as u64, bad)
            }
            _ => (size, build.recheck(g)?),
        };
        each(g, checked, wrong)?;
    }
    Ok(())
}

/// What `check_opening` found of an opening's solution.
#[derive(Debug, Default)]
pub struct OpeningCheck {
    /// The groups compared byte for byte with a whole solution, and their bytes (none without
    /// one).
    pub compared: (usize, u64),
    /// The groups whose values differ from the whole solution's.
    pub differing: Vec<Group>,
    /// The positions checked against their successors.
    pub checked: u64,
    /// Those whose value is not the best of their successors'.
    pub mismatches: Vec<Mismatch>,
}

/// Checks the opening's solution `opening` of plies 0 to `plies` of a game of `rules`: every
/// value against the whole solution `whole` when there is one (group by group, byte for byte),
/// and about `sample` positions, drawn at random from the groups whose successors it holds
/// (every ply but its last), against their successors (`check`: the move generator, a real
/// position, the best of the successors' values). `progress` counts the groups.
pub fn check_opening(
    rules: &Rules,
    opening: &Solution,
    plies: u8,
    whole: Option<&Solution>,
    sample: u64,
    rng: &mut crate::rng::Rng,
    progress: &dyn crate::job_progress::Progress,
) -> OpeningCheck {
    let groups = super::placing::opening::groups_of(rules, plies);
    let mut out = OpeningCheck::default();
    progress.stage(groups.len() as u64, 0, "checking ", "groups");
    let first_left = 2 * rules.pieces - plies;
    let inner: Vec<Group> = groups
        .iter()
        .copied()
        .filter(|g| g.left > first_left)
        .collect();
    let largest = groups
        .iter()
        .map(|g| g.mover.max(g.other))
        .max()
        .unwrap_or(0);
    let classes = Classes::new(largest as usize);
    let no_tables = Tables::empty(rules, 3);
    let per_group = sample.div_ceil(inner.len().max(1) as u64);
    for &g in &groups {
        if let Some(whole) = whole {
            let ours = opening.group_bytes(g);
            out.compared.0 += 1;
            out.compared.1 += ours.as_ref().map_or(0, |b| b.len() as u64);
            if ours.is_none() || ours != whole.group_bytes(g) {
                out.differing.push(g);
            }
        }
        if inner.contains(&g) {
            let index = PairIndex::new(g.mover as usize, g.other as usize, &classes);
            let len = index.len();
            let slots: Vec<u64> = if len <= per_group {
                (0..len).collect()
            } else {
                (0..per_group).map(|_| rng.next_u64() % len).collect()
            };
            out.checked += slots.iter().filter(|&&s| index.is_canonical(s)).count() as u64;
            out.mismatches.extend(check(
                rules,
                &classes,
                opening,
                &no_tables,
                g,
                slots.into_iter(),
            ));
        }
        progress.advance(1);
    }
    progress.finish();
    out
}
