//! Solving one group of the placing by backward induction: every move of a placing position
//! places a piece, so its value is the best of its successors', which are all in the groups with
//! one placement fewer (already solved), or, after the last placement, in the moving tables.
//!
//! The loop runs over the positions in the order of the *other* side's set (the group indexed as
//! `PairIndex(other, mover)`): a placement that removes nothing leaves that set as it is, and it
//! is the successor's side to move, whose set orders the successor's group (`PairIndex(mover,
//! other)`, as every table is stored). So the successors of a whole class of the other side's
//! sets lie in one class of the next group, a few kilobytes read over and over (the moves that
//! remove a piece jump elsewhere). The solved group is then turned around into the stored order.

use super::groups::{hands, most_removals, Group};
use super::packed::{self, Wdl, NO_POSITION};
use crate::rules::board::Bitboard;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::index::{expand, subsets, Classes, PairIndex};
use crate::tables::{TablesError, Value, Values};
use rayon::prelude::*;

/// Where the values of a group's successors are read.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// The side to move there has fewer than three pieces left: it has lost.
    Lost,
    /// A solved group of the placing, packed (`packed`), in stored order.
    Packed(&'a [u8]),
    /// A moving table.
    Table(&'a Values),
    /// No placement of the group removes this many pieces (the side to move has too few pieces
    /// to close a mill).
    Never,
}

impl Source<'_> {
    /// The value at `slot` for its side to move.
    #[inline]
    fn get(self, slot: u64) -> Wdl {
        match self {
            Source::Lost => -1,
            Source::Never => unreachable!("a placement that closes no mill removed a piece"),
            Source::Packed(p) => packed::get(p, slot) as Wdl - 2,
            Source::Table(t) => match t.get(slot as usize) {
                Value::Win(_) => 1,
                Value::Draw => 0,
                Value::Loss(_) => -1,
            },
        }
    }
}

/// The successors' sources of `group`, by the number of pieces a placement removes (0, 1, 2):
/// `source(g)` gives those of a group `g` of the placing or, when `g.left` is 0, of the moving
/// pair `(g.mover, g.other)`; it is not asked for a side left with fewer than three pieces.
pub fn sources<'a>(
    rules: &Rules,
    group: Group,
    source: &dyn Fn(Group) -> Result<Source<'a>, TablesError>,
) -> Result<Vec<Source<'a>>, TablesError> {
    let most = most_removals(rules).min(group.other);
    let next_hand = hands(group.left - 1).0;
    (0..=most)
        .map(|k| {
            let next = group.after(k);
            if k > 0 && group.mover + 1 < 3 {
                Ok(Source::Never)
            } else if next.mover + next_hand < 3 {
                Ok(Source::Lost)
            } else {
                source(next)
            }
        })
        .collect()
}

/// The values of `group`, packed in stored order (`PairIndex(mover, other)`), from its
/// successors' `sources` (`sources`).
pub fn solve(rules: &Rules, classes: &Classes, group: Group, sources: &[Source]) -> Vec<u8> {
    let (m, o) = (group.mover as usize, group.other as usize);
    let work_index = PairIndex::new(o, m, classes);
    let mut work = vec![NO_POSITION; work_index.len() as usize];
    let solver = Solver {
        rules,
        classes,
        work_index: &work_index,
        next_same: PairIndex::new(o, m + 1, classes),
        sources,
        group,
    };
    let per_class = work_index.per_class() as usize;
    if per_class > 0 {
        work.par_chunks_mut(per_class)
            .enumerate()
            .for_each(|(class, block)| solver.block(class, block));
    }
    turn_around(classes, group, &work_index, &work)
}

/// What the loop over a group reads.
struct Solver<'a> {
    rules: &'a Rules,
    classes: &'a Classes,
    /// The group by the other side's set.
    work_index: &'a PairIndex<'a>,
    /// The successors that remove nothing, in stored order.
    next_same: PairIndex<'a>,
    sources: &'a [Source<'a>],
    group: Group,
}

impl Solver<'_> {
    /// Solves the positions of one class of the other side's sets.
    fn block(&self, class: usize, block: &mut [u8]) {
        let (rep, fixed) = self.work_index.class(class);
        let free = !rep & Bitboard::ALL.0;
        let base = class as u64 * self.work_index.per_class();
        let m = self.group.mover as usize;
        for (r, packed_set) in subsets(24 - self.group.other as usize, m).enumerate() {
            let ours = expand(packed_set, free);
            if fixed != 1
                && self.work_index.slot_in_class(class, rep, fixed, ours) != base + r as u64
            {
                // A spare slot: the position is stored in another slot of the class.
                continue;
            }
            block[r] = packed::code(self.value(class, rep, fixed, ours));
        }
    }

    /// The value of the position where the side to move holds `ours` and the other side `theirs`,
    /// the representative of its class `class` (fixed by the symmetries `fixed`).
    #[inline]
    fn value(&self, class: usize, theirs: u32, fixed: u16, ours: u32) -> Wdl {
        let topology = self.rules.topology();
        let empty = !(ours | theirs) & Bitboard::ALL.0;
        let mut best: Wdl = -1;
        let mut closing = 0u32;
        for q in Bitboard(empty) {
            let placed = ours | 1 << q.index();
            if topology.partners[q.index()]
                .iter()
                .any(|p| p.0 & ours == p.0)
            {
                closing |= 1 << q.index();
                continue;
            }
            let slot = self.next_same.slot_in_class(class, theirs, fixed, placed);
            best = best.max(-self.sources[0].get(slot));
            if best == 1 {
                return 1;
            }
        }
        for q in Bitboard(closing) {
            best = best.max(self.best_removal(theirs, ours | 1 << q.index(), q.index()));
            if best == 1 {
                return 1;
            }
        }
        best
    }

    /// The best value of placing on `to` (giving `ours`), which closes a mill, over the removals
    /// the mill earns.
    fn best_removal(&self, theirs: u32, ours: u32, to: usize) -> Wdl {
        let mills = self.rules.topology().partners[to]
            .iter()
            .filter(|p| p.0 & ours == p.0)
            .count() as u8;
        self.remove(theirs, ours, 0, mills.min(most_removals(self.rules)))
    }

    /// The best value over the ways to remove `due - removed` more of `theirs` (fewer when none
    /// is left to remove).
    fn remove(&self, theirs: u32, ours: u32, removed: u8, due: u8) -> Wdl {
        let removable = Position::removable_under(self.rules, Bitboard(theirs)).0;
        if removed == due || removable == 0 {
            return -self.successor(theirs, ours, removed);
        }
        let mut best: Wdl = -1;
        for r in Bitboard(removable) {
            best = best.max(self.remove(theirs & !(1 << r.index()), ours, removed + 1, due));
            if best == 1 {
                break;
            }
        }
        best
    }

    /// The value for its side to move (the other side, holding `theirs`) of the successor where
    /// `removed` of its pieces were removed and the side that moved holds `ours`.
    fn successor(&self, theirs: u32, ours: u32, removed: u8) -> Wdl {
        let source = self.sources[removed as usize];
        if let Source::Lost = source {
            return -1;
        }
        let index = PairIndex::new(
            theirs.count_ones() as usize,
            ours.count_ones() as usize,
            self.classes,
        );
        source.get(index.slot(theirs, ours))
    }
}

/// The work array (by the other side's set) in stored order, packed: each stored slot reads its
/// position's slot in the work array; the spare slots hold `NO_POSITION`.
fn turn_around(classes: &Classes, group: Group, work_index: &PairIndex, work: &[u8]) -> Vec<u8> {
    let store = PairIndex::new(group.mover as usize, group.other as usize, classes);
    let slots = store.len();
    let code = |slot: u64| -> u8 {
        if slot >= slots || !store.is_canonical(slot) {
            return NO_POSITION;
        }
        let (ours, theirs) = store.position(slot);
        work[work_index.slot(theirs, ours) as usize]
    };
    (0..packed::bytes_for(slots) as u64)
        .into_par_iter()
        .map(|b| (0..4).fold(0u8, |byte, i| byte | code(4 * b + i) << (2 * i)))
        .collect()
}
