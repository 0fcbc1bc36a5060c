//! The tables of one directory, loaded for the rules in force: probing a position, the files
//! watched for a change since they were read.

use super::block_cache::BlockCache;
use super::file;
use super::index::{Classes, PairIndex};
use super::mapped;
use super::memo::Memo;
use super::placing::solution::{Found, Solution};
use super::retrograde::{self, Successor};
use super::scope::{fingerprint, unsupported};
use super::tables_error::TablesError;
use super::values::{Value, Values, Wdl};
use crate::rules::position::Position;
use crate::rules::Rules;
use rayon::prelude::*;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A table file that changed since it was read.
#[derive(Debug)]
pub struct TableChange {
    /// The mover's pieces.
    pub mover: usize,
    /// The other side's pieces.
    pub other: usize,
    /// The file.
    pub path: PathBuf,
    /// How it changed.
    pub change: mapped::Change,
}

/// The tables of one directory, loaded for the rules in force.
#[derive(Clone)]
pub struct Tables {
    /// The fingerprint of the rules the tables were made for.
    print: u64,
    /// The rules' moving phase (the rules the tables were opened for, without draw rules): a
    /// derived table's values are found from their successors under them.
    rules: Rules,
    classes: Classes,
    /// Value bytes by [mover's pieces][other side's pieces].
    pairs: Vec<Vec<Option<Values>>>,
    /// The most pieces a side of any table loaded.
    largest: usize,
    /// By pieces on the board: the longest distance of the tables with at most that many.
    longest_by_pieces: Vec<u16>,
    /// The placing solution of the directory, when it is there whole.
    placing: Option<Arc<Solution>>,
    /// The values of derived positions (a packed set's tables not stored) found already;
    /// replaced whenever a table is put in or taken out.
    memo: Arc<Memo>,
    /// The unpacked blocks of its packed tables, shared with each of them.
    cache: Arc<BlockCache>,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tables {:?}", self.pairs())
    }
}

impl Tables {
    /// Loads the built tables of `dir`: every table made for `rules` (`open_built_moving`), with
    /// the placing solution of the directory when it is there whole for `rules` (its `placing`
    /// folder, every file checked). A placing solution that is there in part is left aside with
    /// a warning, and so is one with a damaged file (the error names it): the moving tables
    /// serve without it. (`Tables::open` opens a packed set as well.)
    pub fn open_built(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
        let mut tables = Tables::open_built_moving(dir, rules)?;
        match Solution::open(dir, rules) {
            Ok(Found::Whole(solution)) => tables.placing = Some(Arc::new(solution)),
            Ok(Found::Nothing) => {}
            Ok(Found::Partial(have, all)) => log::warn!(
                "{}: the placing solution has {have} of its {all} groups: not used until it is \
                 built whole (moulin tables build --placing)",
                dir.display()
            ),
            Err(e) => log::error!("the placing solution is not used: {e}"),
        }
        Ok(tables)
    }

    /// Loads every built moving table in `dir` made for `rules`. A table made for other rules,
    /// or one whose checksum fails, is an error naming the file; a directory without tables is
    /// an error.
    pub fn open_built_moving(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
        if let Some(why) = unsupported(rules) {
            return Err(why);
        }
        let print = fingerprint(rules);
        let files = file::list(dir)?;
        if files.is_empty() {
            return Err(TablesError::NoTables {
                dir: dir.to_path_buf(),
            });
        }
        let largest = files.iter().map(|&(m, o, _)| m.max(o)).max().unwrap_or(3);
        let mut tables = Tables::empty(rules, largest);
        // Each file is read once to check it, the largest first, on every thread.
        let mut files = files;
        files.sort_by_cached_key(|(_, _, path)| {
            std::cmp::Reverse(std::fs::metadata(path).map_or(0, |m| m.len()))
        });
        let cache = Arc::clone(tables.block_cache());
        let read: Vec<(usize, usize, Values)> = files
            .par_iter()
            .map(|(m, o, path)| file::read_listed(path, print, *m, *o, &cache).map(|v| (*m, *o, v)))
            .collect::<Result<_, TablesError>>()?;
        for (mover, other, values) in read {
            tables.insert(mover, other, values);
        }
        Ok(tables)
    }

    /// No tables yet, for pairs of up to `largest` pieces a side under `rules`.
    pub fn empty(rules: &Rules, largest: usize) -> Tables {
        Tables {
            print: fingerprint(rules),
            rules: rules.without_draw_rules(),
            classes: Classes::new(largest),
            pairs: vec![vec![None; largest + 1]; largest + 1],
            largest,
            longest_by_pieces: vec![0; 2 * largest + 1],
            placing: None,
            memo: Arc::default(),
            cache: Arc::default(),
        }
    }

    /// The cache of unpacked blocks its packed tables keep (`TablesCache`): a packed table
    /// opened for these tables is opened with it.
    pub fn block_cache(&self) -> &Arc<BlockCache> {
        &self.cache
    }

    /// Keeps at most `bytes` bytes of its packed tables' blocks from now on (`TablesCache`): the
    /// bytes kept at most, fewer where they do not fit in the memory the process may use
    /// (`BlockCache::set_capacity_bytes`).
    pub fn set_cache_bytes(&self, bytes: usize) -> usize {
        self.cache.set_capacity_bytes(bytes)
    }

    /// The placing solution, when it is loaded: a directory's, whole, or an opening's, which
    /// answers the first plies only (`placing::opening`).
    pub fn placing(&self) -> Option<&Solution> {
        self.placing.as_deref()
    }

    /// No moving tables, and the opening's solution `opening` (some groups of the placing
    /// solution of a game under `rules`) as the placing part: the tables of an engine without
    /// any built, exact in the first plies.
    pub fn of_opening(rules: &Rules, opening: Arc<Solution>) -> Tables {
        let mut tables = Tables::empty(rules, 3);
        tables.placing = Some(opening);
        tables
    }

    /// The placing solution, shared, when it is loaded.
    pub fn placing_shared(&self) -> Option<Arc<Solution>> {
        self.placing.clone()
    }

    /// `solution` as the placing part (a packed set's, whole).
    pub fn set_placing(&mut self, solution: Arc<Solution>) {
        self.placing = Some(solution);
    }

    /// The placing part dropped: the moving tables alone.
    pub fn drop_placing(&mut self) {
        self.placing = None;
    }

    /// The opening's solution `opening` as the placing part, unless a whole placing solution is
    /// loaded (it wins: it holds every group the opening's does).
    pub fn attach_opening(&mut self, opening: Arc<Solution>) {
        if !self.placing_is_whole() {
            self.placing = Some(opening);
        }
    }

    /// Whether the placing solution loaded is whole (a tables directory's): every placing
    /// position's value is known, not only the first plies'.
    pub fn placing_is_whole(&self) -> bool {
        self.placing.as_ref().is_some_and(|s| s.is_whole())
    }

    /// Whether any moving table is loaded: tables made of an opening's solution alone have none,
    /// and serve neither the moving phase nor the exact solver's leaves.
    pub fn has_moving(&self) -> bool {
        self.pairs.iter().flatten().any(Option::is_some)
    }

    /// The value (win 1, draw 0, loss -1) of a placing position for its side to move, when the
    /// placing solution holds it for the position's rules (`placing::solution::Solution::value`;
    /// a group of the last placement that a packed set derives is found from these tables).
    #[inline]
    pub fn placing_value(&self, pos: &Position) -> Option<Wdl> {
        let moving = |p: &Position| self.probe(p).map(Value::wdl);
        self.placing.as_ref()?.value_with(pos, &moving)
    }

    /// Adds the values of pair `(mover, other)`.
    pub fn insert(&mut self, mover: usize, other: usize, values: Values) {
        let longest = values.longest();
        for l in &mut self.longest_by_pieces[mover + other..] {
            *l = (*l).max(longest);
        }
        self.pairs[mover][other] = Some(values);
        self.memo = Arc::default();
    }

    /// Drops the values of pair `(mover, other)`.
    pub fn remove(&mut self, mover: usize, other: usize) {
        if !self.has(mover, other) {
            return;
        }
        self.pairs[mover][other] = None;
        self.memo = Arc::default();
        self.longest_by_pieces.fill(0);
        for (m, o) in self.pairs() {
            let longest = self.pairs[m][o].as_ref().map_or(0, Values::longest);
            for l in &mut self.longest_by_pieces[m + o..] {
                *l = (*l).max(longest);
            }
        }
    }

    /// The table files that changed since they were read (`mapped::Change`): a file cut,
    /// replaced or written over in place must not be probed. One `stat` a file.
    pub fn changes(&self) -> Vec<TableChange> {
        let mut out = Vec::new();
        for (mover, other) in self.pairs() {
            let Some(mapping) = self.values(mover, other).and_then(Values::mapping) else {
                continue;
            };
            if let Some(change) = mapping.change() {
                out.push(TableChange {
                    mover,
                    other,
                    path: mapping.path().to_path_buf(),
                    change,
                });
            }
        }
        out
    }

    /// The table of a changed file read again, and checked, for the same rules.
    pub fn read_again(&self, changed: &TableChange) -> Result<Values, TablesError> {
        // The table was dropped before it is read again: its file's name says its kind.
        file::read_listed(
            &changed.path,
            self.print,
            changed.mover,
            changed.other,
            &self.cache,
        )
    }

    /// Whether pair `(mover, other)` is loaded.
    pub fn has(&self, mover: usize, other: usize) -> bool {
        mover <= self.largest && other <= self.largest && self.pairs[mover][other].is_some()
    }

    /// Drops every pair not in `keep`.
    pub fn retain(&mut self, keep: &[(usize, usize)]) {
        for (m, row) in self.pairs.iter_mut().enumerate() {
            for (o, t) in row.iter_mut().enumerate() {
                if !keep.contains(&(m, o)) {
                    *t = None;
                }
            }
        }
    }

    /// The index of the sets of up to `largest` pieces.
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The values of a pair.
    pub fn values(&self, mover: usize, other: usize) -> Option<&Values> {
        self.pairs.get(mover)?.get(other)?.as_ref()
    }

    /// The pairs loaded, as (mover, other).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (m, row) in self.pairs.iter().enumerate() {
            for (o, t) in row.iter().enumerate() {
                if t.is_some() {
                    out.push((m, o));
                }
            }
        }
        out
    }

    /// The value of the position where the side to move holds `ours` and the other `theirs`, if
    /// a table covers it.
    #[inline]
    pub fn value(&self, ours: u32, theirs: u32) -> Option<Value> {
        let (m, o) = (ours.count_ones() as usize, theirs.count_ones() as usize);
        if m > self.largest || o > self.largest {
            return None;
        }
        let values = self.pairs[m][o].as_ref()?;
        if let Values::Derived(..) = values {
            return self.derived(ours, theirs);
        }
        let index = PairIndex::new(m, o, &self.classes);
        let value = values.get(index.slot(ours, theirs) as usize);
        // A page cut from the file during the read gave a zero, not the value; a file found
        // changed is not read from.
        values.trusted().then_some(value)
    }

    /// The value of a position of a table a packed set does not store, from its successors
    /// (every one in a stored table: the set stores the mirror pair and the pairs its removals
    /// lead to); `None` when one of them is not known.
    fn derived(&self, ours: u32, theirs: u32) -> Option<Value> {
        if let Some(v) = self.memo.get(ours, theirs) {
            return Some(v);
        }
        let exit = |o: u32, t: u32| self.value(o, t);
        let mut next = Vec::with_capacity(64);
        retrograde::successors(&self.rules, ours, theirs, &exit, &mut next).ok()?;
        let mut values = Vec::with_capacity(next.len());
        for s in &next {
            values.push(match *s {
                Successor::Exit(v) => Some(v),
                Successor::Stay { ours, theirs } => match self.value(ours, theirs)? {
                    Value::Draw => None,
                    v => Some(v),
                },
            });
        }
        let value = retrograde::value_from(values.into_iter()).unwrap_or(Value::Draw);
        self.memo.put(ours, theirs, value);
        Some(value)
    }

    /// Whether the tables hold the values of a game under `rules` (the same moving phase: the
    /// pieces per side, who starts, placing and the draw rules do not matter).
    pub fn serves(&self, rules: &Rules) -> bool {
        unsupported(rules).is_none() && fingerprint(rules) == self.print
    }

    /// The value of a position of the game without draw rules, if the tables cover it: the
    /// moving phase (nothing in hand), no removal pending. The caller checks `serves` once for
    /// the game's rules.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.is_placing() || pos.pending_removals() > 0 {
            return None;
        }
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.pieces(us).0, pos.pieces(!us).0);
        if ours.count_ones() as usize > self.largest || theirs.count_ones() as usize > self.largest
        {
            return None;
        }
        self.value(ours, theirs)
    }

    /// The value of a position under the game's draw rules, when the tables decide it.
    ///
    /// Tables know no draw rules; the no-capture rule (a draw after N plies without a removal) is
    /// applied to their distances:
    /// - a draw stays a draw (the rule can only end a game as a draw);
    /// - a win or a loss whose next removal is further away than the plies the rule has left is
    ///   a draw: the losing side holds out until the rule ends the game;
    /// - a win or a loss whose next removal comes within the plies left is exact when every
    ///   later phase fits in the rule too: when no table of fewer pieces has a distance over N
    ///   (each removal starts a fresh count of N). Otherwise the tables do not decide it
    ///   (`None`), and the search judges it.
    ///
    /// Repetition needs no adjustment for the winning side: it plays the shortest win, whose
    /// every move shortens the distance, so no position repeats before its removal.
    pub fn probe_in_game(&self, pos: &Position) -> Option<Value> {
        let v = self.probe(pos)?;
        let Some(left) = pos.plies_before_draw() else {
            return Some(v);
        };
        if v == Value::Draw || v.distance() > left {
            return Some(Value::Draw);
        }
        let limit = left + pos.no_capture_plies();
        // The phases after the removal have fewer pieces.
        let fewer = (pos.occupied().count() as usize - 1).min(2 * self.largest);
        (self.longest_by_pieces[fewer] <= limit).then_some(v)
    }
}
