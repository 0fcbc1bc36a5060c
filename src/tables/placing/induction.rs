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

use super::packed::{self, NO_POSITION};
use crate::rules::board::Bitboard;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::groups::{hands, Group};
use crate::tables::index::{binomial, expand, subsets, Classes, PairIndex};
use crate::tables::tables_error::TablesError;
use crate::tables::values::{Values, Wdl};
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
            Source::Table(t) => t.get(slot as usize).wdl(),
        }
    }
}

/// The successors' sources of `group`, by the number of pieces a placement removes (0 to `Rules::most_removals`):
/// `source(g)` gives those of a group `g` of the placing or, when `g.left` is 0, of the moving
/// pair `(g.mover, g.other)`; it is not asked for a side left with fewer than three pieces.
pub fn sources<'a>(
    rules: &Rules,
    group: Group,
    source: &dyn Fn(Group) -> Result<Source<'a>, TablesError>,
) -> Result<Vec<Source<'a>>, TablesError> {
    let most = rules.most_removals().min(group.other);
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

/// A class of the other side's sets, as the loop over its positions sees it.
struct Block {
    class: usize,
    /// The other side's set: the class's representative.
    theirs: u32,
    /// The symmetries that fix it.
    fixed: u16,
    /// The free points (not `theirs`), in increasing order: the points of the sets as ranked
    /// among the free points ("squeezed").
    points: [u8; 24],
    /// The first slot of the class in the next group's stored order.
    next_base: u64,
    /// Which of the other side's pieces a mill may remove (the same for every position of the
    /// class).
    removable: u32,
}

/// The ranks among the free points of a squeezed set with one point added, for any point, in a
/// few operations: `rank(S + p) = sum over the members below p of C(e_i, i + 1), plus C(p, k +
/// 1), plus the sum over the members above of C(e_i, i + 2)`, `k` members being below `p`.
struct Insertion {
    below: [u64; 25],
    above: [u64; 25],
}

impl Insertion {
    fn of(squeezed: u32) -> Insertion {
        let mut members = [0usize; 24];
        let mut n = 0;
        for p in Bitboard(squeezed) {
            members[n] = p.index();
            n += 1;
        }
        let mut below = [0u64; 25];
        let mut above = [0u64; 25];
        for i in 0..n {
            below[i + 1] = below[i] + binomial(members[i], i + 1);
        }
        for i in (0..n).rev() {
            above[i] = above[i + 1] + binomial(members[i], i + 2);
        }
        Insertion { below, above }
    }

    /// The rank of `squeezed` (the set this was made of) with point `p` added.
    #[inline]
    fn rank_with(&self, squeezed: u32, p: usize) -> u64 {
        let k = (squeezed & ((1u32 << p) - 1)).count_ones() as usize;
        self.below[k] + binomial(p, k + 1) + self.above[k]
    }
}

impl Solver<'_> {
    /// Solves the positions of one class of the other side's sets.
    fn block(&self, class: usize, block: &mut [u8]) {
        let (rep, fixed) = self.work_index.class(class);
        let free = !rep & Bitboard::ALL.0;
        let mut points = [0u8; 24];
        for (i, p) in Bitboard(free).into_iter().enumerate() {
            points[i] = p.index() as u8;
        }
        let b = Block {
            class,
            theirs: rep,
            fixed,
            points,
            next_base: class as u64 * self.next_same.per_class(),
            removable: Position::removable_under(self.rules, Bitboard(rep)).0,
        };
        let base = class as u64 * self.work_index.per_class();
        let m = self.group.mover as usize;
        for (r, squeezed) in subsets(24 - self.group.other as usize, m).enumerate() {
            let ours = expand(squeezed, free);
            if fixed != 1
                && self.work_index.slot_in_class(class, rep, fixed, ours) != base + r as u64
            {
                // A spare slot: the position is stored in another slot of the class.
                continue;
            }
            block[r] = packed::code(self.value(&b, ours, squeezed));
        }
    }

    /// The value of the position where the side to move holds `ours` (`squeezed` among the free
    /// points) and the other side the block's representative.
    #[inline]
    fn value(&self, b: &Block, ours: u32, squeezed: u32) -> Wdl {
        let topology = self.rules.topology();
        let free_points = 24 - self.group.other as usize;
        let empty = !squeezed & ((1u32 << free_points) - 1);
        // Without symmetries fixing the other side's set, the rank of a successor comes from the
        // squeezed set; with some, through the least image (`slot_in_class`).
        let insertion = (b.fixed == 1).then(|| Insertion::of(squeezed));
        let mut best: Wdl = -1;
        let mut closing = 0u32;
        for p in Bitboard(empty) {
            let q = b.points[p.index()] as usize;
            if topology.partners[q].iter().any(|l| l.0 & ours == l.0) {
                closing |= 1 << q;
                continue;
            }
            let slot = match &insertion {
                Some(ins) => b.next_base + ins.rank_with(squeezed, p.index()),
                None => self
                    .next_same
                    .slot_in_class(b.class, b.theirs, b.fixed, ours | 1 << q),
            };
            best = best.max(-self.sources[0].get(slot));
            if best == 1 {
                return 1;
            }
        }
        for q in Bitboard(closing) {
            best = best.max(self.best_removal(b, ours | 1 << q.index(), q.index()));
            if best == 1 {
                return 1;
            }
        }
        best
    }

    /// The best value of placing on `to` (giving `ours`), which closes a mill, over the removals
    /// the mill earns.
    fn best_removal(&self, b: &Block, ours: u32, to: usize) -> Wdl {
        let mills = self.rules.topology().partners[to]
            .iter()
            .filter(|p| p.0 & ours == p.0)
            .count() as u8;
        let due = mills.min(self.rules.most_removals());
        self.remove(b.theirs, ours, 0, due, b.removable)
    }

    /// The best value over the ways to remove `due - removed` more of `theirs` (fewer when none
    /// is left to remove), `removable` of them removable (read only while one is due).
    fn remove(&self, theirs: u32, ours: u32, removed: u8, due: u8, removable: u32) -> Wdl {
        if removed == due || removable == 0 {
            return -self.successor(theirs, ours, removed);
        }
        let mut best: Wdl = -1;
        for r in Bitboard(removable) {
            let left = theirs & !(1 << r.index());
            let next = if removed + 1 < due {
                Position::removable_under(self.rules, Bitboard(left)).0
            } else {
                0
            };
            best = best.max(self.remove(left, ours, removed + 1, due, next));
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

/// The work array (by the other side's set) in stored order, packed: class by class of the
/// stored order, each position reads its slot in the work array; the spare slots hold
/// `NO_POSITION`.
fn turn_around(classes: &Classes, group: Group, work_index: &PairIndex, work: &[u8]) -> Vec<u8> {
    let (m, o) = (group.mover as usize, group.other as usize);
    let store = PairIndex::new(m, o, classes);
    let per_class = store.per_class() as usize;
    let mut codes = vec![NO_POSITION; store.len() as usize];
    if per_class > 0 {
        codes
            .par_chunks_mut(per_class)
            .enumerate()
            .for_each(|(class, block)| {
                let (ours, fixed) = store.class(class);
                let free = !ours & Bitboard::ALL.0;
                let base = (class * per_class) as u64;
                for (r, squeezed) in subsets(24 - m, o).enumerate() {
                    let theirs = expand(squeezed, free);
                    if fixed == 1
                        || store.slot_in_class(class, ours, fixed, theirs) == base + r as u64
                    {
                        block[r] = work[work_index.slot(theirs, ours) as usize];
                    }
                }
            });
    }
    codes.par_chunks(4).map(packed::pack_one).collect()
}
