//! The placing solution loaded for probing: a tables directory's, every group's file mapped and
//! checked (header, size and checksum) when it is opened; or some of its groups held in memory,
//! as they are or unpacked when first probed (the opening's solution, `opening`), which answers
//! only the positions of those groups.

use super::packed;
use super::store::{self, Mapped};
use super::{fingerprint, unsupported};
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::groups::{self, Group};
use crate::tables::index::{Classes, PairIndex};
use crate::tables::packed_table::PackedTable;
use crate::tables::tables_error::TablesError;
use crate::tables::values::Wdl;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// A group's values kept compressed and unpacked the first time they are asked for (the
/// opening's solution's groups: its start costs the reading of the file, not the unpacking).
pub trait Unpack: Send + Sync {
    /// The packed values, unpacked on the first call; `None` when they cannot be (damaged).
    fn bytes(&self) -> Option<&[u8]>;
    /// The bytes of values unpacked so far (0 before the first call).
    fn unpacked(&self) -> usize;
}

/// The value of a position of the moving phase for its side to move, when known (the moving
/// tables' probe): what a derived group of the last placement is found from.
pub type Moving<'a> = dyn Fn(&Position) -> Option<Wdl> + 'a;

/// The values of one group: a file mapped, bytes unpacked when first asked for, or a packed
/// table unpacked a block at a time (`tables::pack`).
enum Held {
    Mapped(Mapped),
    Lazy(Box<dyn Unpack>),
    Packed(Arc<PackedTable>),
    /// A group a packed set does not store: each value is found from the groups after it, or
    /// from the moving tables after the last placement.
    Derived,
}

impl Held {
    /// The packed values, when they can be trusted (a mapped file cut while it was read cannot,
    /// nor a group that does not unpack).
    fn bytes(&self) -> Option<Cow<'_, [u8]>> {
        match self {
            Held::Mapped(m) => m.mapping.trusted().then(|| Cow::Borrowed(m.bytes())),
            Held::Lazy(u) => u.bytes().map(Cow::Borrowed),
            Held::Packed(p) => {
                let all = p.unpack_all();
                p.trusted().then_some(Cow::Owned(all))
            }
            Held::Derived => None,
        }
    }

    /// The code of `slot` (`packed::get`), when it can be trusted.
    #[inline]
    fn code(&self, slot: u64) -> Option<u8> {
        match self {
            Held::Packed(p) => {
                let byte = p.byte(slot >> 2)?;
                // A group with a block found damaged is not used at all, as a moving table.
                p.trusted().then_some((byte >> ((slot & 3) * 2)) & 3)
            }
            Held::Mapped(m) => {
                let code = packed::get(m.bytes(), slot);
                m.mapping.trusted().then_some(code)
            }
            Held::Lazy(u) => u.bytes().map(|b| packed::get(b, slot)),
            Held::Derived => None,
        }
    }
}

/// The groups of the placing of one game: every one (a tables directory's, mapped), or some
/// (held in memory, unpacked when first probed).
pub struct Solution {
    groups: HashMap<Group, Held>,
    classes: Classes,
    pieces: u8,
    /// Whether every group of the game is there.
    whole: bool,
    /// The rules, without draw rules, when some group is derived (a packed set's).
    rules: Option<Rules>,
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solution of {} groups", self.groups.len())
    }
}

/// What a tables directory holds of the placing solution of some rules.
pub enum Found {
    /// No placing folder, or an empty one.
    Nothing,
    /// Some groups but not all (a build under way or stopped): how many of how many.
    Partial(usize, usize),
    /// Every group, checked.
    Whole(Solution),
}

impl Solution {
    /// The placing solution for `rules` in the tables directory `tables_dir`: used only when
    /// every group is there; a file that is there and damaged is an error naming it.
    pub fn open(tables_dir: &Path, rules: &Rules) -> Result<Found, TablesError> {
        if unsupported(rules).is_some() {
            return Ok(Found::Nothing);
        }
        let folder = store::folder(tables_dir);
        let all = groups::all(rules);
        let present: Vec<Group> = all
            .iter()
            .copied()
            .filter(|&g| store::path(&folder, g).exists())
            .collect();
        if present.is_empty() {
            return Ok(Found::Nothing);
        }
        if present.len() < all.len() {
            return Ok(Found::Partial(present.len(), all.len()));
        }
        let print = fingerprint(rules);
        let opened: Vec<(Group, Mapped)> = all
            .par_iter()
            .map(|&g| {
                let m = store::open(&folder, print, rules.pieces, g)?;
                m.check()?;
                Ok((g, m))
            })
            .collect::<Result<_, TablesError>>()?;
        Ok(Found::Whole(Solution {
            groups: opened
                .into_iter()
                .map(|(g, m)| (g, Held::Mapped(m)))
                .collect(),
            classes: Classes::new(rules.pieces as usize),
            pieces: rules.pieces,
            whole: true,
            rules: None,
        }))
    }

    /// Some groups of the placing solution of a game of `pieces` a side, each unpacked when
    /// first probed: it answers the positions of those groups only.
    pub fn from_unpackers(pieces: u8, groups: HashMap<Group, Box<dyn Unpack>>) -> Solution {
        let largest = groups
            .keys()
            .map(|g| g.mover.max(g.other))
            .max()
            .unwrap_or(0);
        Solution {
            groups: groups
                .into_iter()
                .map(|(g, u)| (g, Held::Lazy(u)))
                .collect(),
            classes: Classes::new(largest as usize),
            pieces,
            whole: false,
            rules: None,
        }
    }

    /// The whole placing solution of a game under `rules` from a packed set: the groups it
    /// stores (`stored`), each probed a block at a time, and those it does not (`derived`), each
    /// value found from the groups after it, which the set stores (or from the moving tables,
    /// `value_with`).
    pub fn from_packed_set(
        rules: &Rules,
        stored: HashMap<Group, Arc<PackedTable>>,
        derived: &[Group],
    ) -> Solution {
        let mut groups: HashMap<Group, Held> = stored
            .into_iter()
            .map(|(g, p)| (g, Held::Packed(p)))
            .collect();
        groups.extend(derived.iter().map(|&g| (g, Held::Derived)));
        Solution {
            groups,
            classes: Classes::new(rules.pieces as usize),
            pieces: rules.pieces,
            whole: true,
            rules: Some(rules.without_draw_rules()),
        }
    }

    /// Whether every group of the game is there (a tables directory's solution), or only some
    /// (the opening's).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// The pieces a side of the game it solves.
    pub fn pieces(&self) -> u8 {
        self.pieces
    }

    /// The packed values of `group`, when it is there and can be trusted (a packed set's
    /// group unpacked whole).
    pub fn group_bytes(&self, group: Group) -> Option<Cow<'_, [u8]>> {
        self.groups.get(&group)?.bytes()
    }

    /// The groups it holds, in no order.
    pub fn groups(&self) -> impl Iterator<Item = Group> + '_ {
        self.groups.keys().copied()
    }

    /// The bytes of values it holds in memory (none for mapped files; a group unpacked when
    /// probed, once it was).
    pub fn bytes_in_memory(&self) -> usize {
        self.groups
            .values()
            .map(|h| match h {
                Held::Mapped(_) | Held::Packed(_) | Held::Derived => 0,
                Held::Lazy(u) => u.unpacked(),
            })
            .sum()
    }

    /// The value of a placing position for its side to move, when the solution holds it: a
    /// game of its pieces a side, the sides' hands as in a game where they place in turn, no
    /// removal pending. A game that is over is not asked here. A position of a group of the last
    /// placement that a packed set derives is not known here (`value_with` knows it).
    pub fn value(&self, pos: &Position) -> Option<Wdl> {
        self.value_with(pos, &|_| None)
    }

    /// `value`, the positions after the last placement valued by `moving` (the moving tables'
    /// value for the side to move there), as a group of the last placement that a packed set
    /// derives needs.
    pub fn value_with(&self, pos: &Position, moving: &Moving) -> Option<Wdl> {
        let us = pos.side_to_move();
        if pos.pending_removals() > 0
            || !pos.is_placing()
            || pos.rules().pieces != self.pieces
            || unsupported(pos.rules()).is_some()
        {
            return None;
        }
        let left = pos.placements_left() as u8;
        if (pos.in_hand(us), pos.in_hand(!us)) != groups::hands(left) {
            return None;
        }
        let (ours, theirs) = (pos.pieces(us).0, pos.pieces(!us).0);
        self.value_of_with(left, ours, theirs, moving)
    }

    /// The value of the position with `left` placements left where the side to move holds
    /// `ours` and the other side `theirs` (`None` outside the groups), the positions after the
    /// last placement valued by `moving` (a derived group of the last placement needs them).
    pub fn value_of_with(&self, left: u8, ours: u32, theirs: u32, moving: &Moving) -> Option<Wdl> {
        let group = Group {
            left,
            mover: ours.count_ones() as u8,
            other: theirs.count_ones() as u8,
        };
        let held = self.groups.get(&group)?;
        if let Held::Derived = held {
            return self.derived(group, ours, theirs, moving);
        }
        let index = PairIndex::new(group.mover as usize, group.other as usize, &self.classes);
        packed::value(held.code(index.slot(ours, theirs))?)
    }

    /// The value of a position of a group the packed set does not store: the best of its
    /// placements, each of which leads to a group after it (stored), to the moving phase after
    /// the last placement (valued by `moving`), or ends the game; `None` when one of them is
    /// not known.
    fn derived(&self, group: Group, ours: u32, theirs: u32, moving: &Moving) -> Option<Wdl> {
        let rules = self.rules.as_ref()?;
        let pos = crate::tables::groups::position(rules, group, ours, theirs);
        let mut moves = Vec::with_capacity(64);
        crate::rules::movegen::generate(&pos, crate::rules::notation::Convention::Turn, &mut moves);
        let mut best: Option<Wdl> = None;
        for mv in moves {
            let mut child = pos;
            child.play(mv);
            let theirs = match child.quick_outcome() {
                Some(o) => o.value_for(child.side_to_move()),
                None if child.is_placing() && child.placements_left() < u32::from(group.left) => {
                    self.value_with(&child, moving)?
                }
                None if !child.is_placing() && group.left == 1 => moving(&child)?,
                None => return None,
            };
            best = Some(best.map_or(-theirs, |b| b.max(-theirs)));
        }
        best
    }
}
