//! Retrograde analysis of one group of pairs: `(a, b)` with `(b, a)` (a move that removes nothing
//! goes from one to the other; the pair with `a = b` is a group of its own).
//!
//! The method is Gasser's (1996): every position starts with the count of its successors still
//! unproven. A move that removes pieces leaves the group, so its value is already known from a
//! smaller pair (or the game ends); these are settled first. Then the proven positions are taken
//! level by level, in order of distance: each predecessor of a loss becomes a win one ply
//! further, and a predecessor whose every successor is a win (and which has no drawing or winning
//! removal) becomes a loss one ply further than its longest one. What is never proven is a draw.
//! Predecessors are made by unmoving: a piece of the side that just moved goes back along a step
//! it could have made without removing anything.

use super::index::{Classes, PairIndex};
use super::tables_error::TablesError;
use super::values::{Value, MAX_DISTANCE};
use crate::rules::board::{Bitboard, ByColor, Color};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::{MultiMill, Reform, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicU8, Ordering};

/// Bit of a count byte: the position has a removal that leads to a draw, so it is never lost.
const DRAW_EXIT: u8 = 0x80;

/// The moving-phase position where `mover` (to move, as White) holds `ours` and the other side
/// `theirs`, with nothing in hand and no removal pending.
pub fn position(rules: &Rules, ours: u32, theirs: u32) -> Position {
    Position::from_parts(
        *rules,
        ByColor::new(Bitboard(ours), Bitboard(theirs)),
        ByColor::new(0, 0),
        Color::White,
        0,
        0,
        1,
        ByColor::new(0, 0),
    )
}

/// How one move of a position ends.
pub enum Successor {
    /// It removes pieces: the value of the result for the other side (a win when the other side
    /// is left with fewer than three pieces).
    Exit(Value),
    /// It removes nothing: the result, with the other side to move, in the group.
    Stay {
        /// The pieces of the side to move after the move (the side that did not move).
        ours: u32,
        /// The pieces of the other side (the side that moved).
        theirs: u32,
    },
}

/// How many mills the mover, holding `ours` without the piece that left, closes by arriving at
/// point `to`.
#[inline]
fn mills_closed(rules: &Rules, ours: u32, to: usize) -> usize {
    rules.topology().partners[to]
        .iter()
        .filter(|p| p.0 & ours == p.0)
        .count()
}

/// Whether a step closing `mills` mills earns one removal at most, whatever the history: then
/// its removals are made here on the sets; otherwise (two removals, or rules that look at
/// the mills formed before) the move generator makes them.
#[inline]
fn removes_once(rules: &Rules, mills: usize) -> bool {
    rules.reform == Reform::Allowed && (mills <= 1 || rules.multi_mill == MultiMill::OneRemoval)
}

/// Every move of the position `(ours, theirs)` with its successor; `exit` gives the value of a
/// position of a smaller pair for its side to move (`None`: that table is missing). The steps
/// that earn one removal at most are made here on the sets; the others come from the move
/// generator (`successors_by_movegen`).
pub fn successors(
    rules: &Rules,
    ours: u32,
    theirs: u32,
    exit: &dyn Fn(u32, u32) -> Option<Value>,
    out: &mut Vec<Successor>,
) -> Result<(), TablesError> {
    out.clear();
    let topology = rules.topology();
    let empty = !(ours | theirs) & Bitboard::ALL.0;
    let flies = Position::flies(rules, ours.count_ones(), 0);
    let mut rest_by_movegen = false;
    // Which of the other side's pieces a mill may remove (the same for every step).
    let mut removable = None;
    for x in Bitboard(ours) {
        let rest = ours & !(1 << x.index());
        let targets = if flies {
            empty
        } else {
            topology.adjacent[x.index()].0 & empty
        };
        for y in Bitboard(targets) {
            let moved = rest | 1 << y.index();
            let mills = mills_closed(rules, rest, y.index());
            if mills > 0 && !removes_once(rules, mills) {
                rest_by_movegen = true;
                continue;
            }
            let removable = *removable
                .get_or_insert_with(|| Position::removable_under(rules, Bitboard(theirs)).0);
            if mills == 0 || removable == 0 {
                // Nothing removed (no mill, or a mill with nothing removable).
                out.push(Successor::Stay {
                    ours: theirs,
                    theirs: moved,
                });
                continue;
            }
            for r in Bitboard(removable) {
                let left = theirs & !(1 << r.index());
                out.push(Successor::Exit(exit_value(left, moved, exit)?));
            }
        }
    }
    if rest_by_movegen {
        successors_by_movegen(rules, ours, theirs, exit, out, |rest, to| {
            let mills = mills_closed(rules, rest, to);
            mills > 0 && !removes_once(rules, mills)
        })?;
    }
    Ok(())
}

/// The value, for the side that moved, of the move that leaves the other side `left` after a
/// removal and the mover `moved`: one ply, the distance beyond it not counted.
fn exit_value(
    left: u32,
    moved: u32,
    exit: &dyn Fn(u32, u32) -> Option<Value>,
) -> Result<Value, TablesError> {
    if left.count_ones() < 3 {
        return Ok(Value::Loss(0));
    }
    let v = exit(left, moved).ok_or_else(|| TablesError::Missing {
        mover: left.count_ones() as usize,
        other: moved.count_ones() as usize,
    })?;
    Ok(v.at_once())
}

/// The successors of the steps of `(ours, theirs)` that `made_here` picks (by the mover's set
/// without the piece that left and the point it reaches), made by the move generator, appended
/// to `out`.
fn successors_by_movegen(
    rules: &Rules,
    ours: u32,
    theirs: u32,
    exit: &dyn Fn(u32, u32) -> Option<Value>,
    out: &mut Vec<Successor>,
    made_here: impl Fn(u32, usize) -> bool,
) -> Result<(), TablesError> {
    let pos = position(rules, ours, theirs);
    let mut moves: Vec<Move> = Vec::with_capacity(64);
    movegen::generate(&pos, Convention::Turn, &mut moves);
    for mv in moves {
        let (Some(from), Some(to)) = (mv.from(), mv.to()) else {
            continue;
        };
        if !made_here(ours & !(1 << from.index()), to.index()) {
            continue;
        }
        let mut child = pos;
        child.play(mv);
        let (next_ours, next_theirs) = (child.pieces(Color::Black).0, child.pieces(Color::White).0);
        if mv.removal_count() == 0 {
            // A mill closed with nothing removable.
            out.push(Successor::Stay {
                ours: next_ours,
                theirs: next_theirs,
            });
        } else {
            out.push(Successor::Exit(exit_value(next_ours, next_theirs, exit)?));
        }
    }
    Ok(())
}

/// The value a position has given the values of its successors (`None` for a successor in the
/// group whose value is not known): the rule the solver applies and `verify` checks.
pub fn value_from(successors: impl Iterator<Item = Option<Value>>) -> Option<Value> {
    let mut best_win: Option<u16> = None;
    let mut longest_loss = 0u16;
    let mut any = false;
    let mut all_lost = true;
    for s in successors {
        any = true;
        match s {
            // The successor's value is for the other side.
            Some(Value::Loss(d)) => {
                best_win = Some(best_win.map_or(d + 1, |w| w.min(d + 1)));
                all_lost = false;
            }
            Some(Value::Win(d)) => longest_loss = longest_loss.max(d + 1),
            Some(Value::Draw) | None => all_lost = false,
        }
    }
    if let Some(w) = best_win {
        Some(Value::Win(w))
    } else if !any {
        Some(Value::Loss(0))
    } else if all_lost {
        Some(Value::Loss(longest_loss))
    } else {
        None
    }
}

/// The pairs of the group of `(a, b)`: the pair and its mirror, or the pair alone when `a = b`.
pub fn group(a: usize, b: usize) -> Vec<(usize, usize)> {
    if a == b {
        vec![(a, b)]
    } else {
        vec![(a, b), (b, a)]
    }
}

/// One table of the group being solved.
struct Work<'c> {
    index: PairIndex<'c>,
    values: Vec<AtomicU16>,
    /// Successor classes in the group not yet proven wins for the other side, with `DRAW_EXIT`.
    counts: Vec<AtomicU8>,
}

/// A position proven at the current level, packed: the table of the group in the top bit, the
/// slot below (8 bytes a position, where a pair of fields took 16).
type Proven = u64;

const TABLE_BIT: u32 = 63;

fn pack(t: usize, slot: u64) -> Proven {
    (t as u64) << TABLE_BIT | slot
}

fn unpack(p: Proven) -> (usize, u64) {
    ((p >> TABLE_BIT) as usize, p & !(1 << TABLE_BIT))
}

/// The positions to take at one distance.
enum Level {
    /// Every position whose value has this distance, found by a pass over the group's values:
    /// the first two levels (most of a group can be settled by its removals) and any level whose
    /// list would be too long to keep.
    Scan,
    /// The positions proven at the previous level, in the pieces the threads found them.
    Listed(Vec<Vec<Proven>>),
}

/// The longest list of a level, as a share of the group's slots: 1/16, half a byte a slot.
/// Beyond it the level is found by a pass over the values instead (a pass reads 2 bytes a slot,
/// far less than taking the positions costs).
const LIST_SHARE: u64 = 16;

/// Slots a thread takes at a time in a pass over a table.
const CHUNK: u64 = 4096;

/// A group's state between two levels of its proof, kept so that a stopped build resumes there:
/// every value proven so far and every count of unproven successors. The positions of the next
/// level are found again by a pass (a value of distance d + 1 is made only while level d is
/// taken, so the pass finds the list the proof would have kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The level to take next (0: the group was settled, no level taken yet).
    pub level: u16,
    /// Each table's value codes and counts, by slot, in the group's order.
    pub tables: Vec<(Vec<u16>, Vec<u8>)>,
}

/// Where a group's solving keeps its state between levels (`Saved`).
pub trait Checkpoints: Sync {
    /// The state kept for this group, if one is there and sound.
    fn load(&self) -> Option<Saved>;
    /// Whether to keep the state now.
    fn due(&self) -> bool;
    /// Keeps the state before `level` is taken: each table's codes and counts.
    fn save(&self, level: u16, tables: &[(&[AtomicU16], &[AtomicU8])]) -> Result<(), TablesError>;
}

/// No checkpoints: a group is solved from its start and nothing is kept.
pub struct Unkept;

impl Checkpoints for Unkept {
    fn load(&self) -> Option<Saved> {
        None
    }
    fn due(&self) -> bool {
        false
    }
    fn save(&self, _: u16, _: &[(&[AtomicU16], &[AtomicU8])]) -> Result<(), TablesError> {
        Ok(())
    }
}

/// Solves the group of `(a, b)`: the tables `(a, b)` and, when `a != b`, `(b, a)`, as value
/// codes (`Value::code`) by slot. `exit` gives values of the smaller pairs; `progress` is called with the number
/// of positions done.
///
/// Memory: 3 bytes a slot (the value being solved and the count of unproven successors), and
/// at most half a byte a slot more for the positions of a level (`LIST_SHARE`).
pub fn solve_group(
    rules: &Rules,
    classes: &Classes,
    a: usize,
    b: usize,
    exit: &(dyn Fn(u32, u32) -> Option<Value> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Vec<u16>>, TablesError> {
    solve_group_listing(rules, classes, (a, b), exit, progress, LIST_SHARE, &Unkept)
}

/// `solve_group`, its state kept between levels in `kept` (at most when `kept` says it is due)
/// and resumed from the state kept there, if any.
pub fn solve_group_kept(
    rules: &Rules,
    classes: &Classes,
    (a, b): (usize, usize),
    exit: &(dyn Fn(u32, u32) -> Option<Value> + Sync),
    progress: &(dyn Fn(u64) + Sync),
    kept: &dyn Checkpoints,
) -> Result<Vec<Vec<u16>>, TablesError> {
    solve_group_listing(rules, classes, (a, b), exit, progress, LIST_SHARE, kept)
}

/// `solve_group_kept`, with a level listed while it holds at most one slot in `share`.
fn solve_group_listing(
    rules: &Rules,
    classes: &Classes,
    (a, b): (usize, usize),
    exit: &(dyn Fn(u32, u32) -> Option<Value> + Sync),
    progress: &(dyn Fn(u64) + Sync),
    share: u64,
    kept: &dyn Checkpoints,
) -> Result<Vec<Vec<u16>>, TablesError> {
    let pairs = group(a, b);
    let work: Vec<Work> = pairs
        .iter()
        .map(|&(m, o)| {
            let index = PairIndex::new(m, o, classes);
            let n = index.len() as usize;
            Work {
                index,
                values: (0..n).map(|_| AtomicU16::new(0)).collect(),
                counts: (0..n).map(|_| AtomicU8::new(0)).collect(),
            }
        })
        .collect();
    let fits = |s: &Saved| {
        s.tables.len() == work.len()
            && s.tables
                .iter()
                .zip(&work)
                .all(|((v, c), w)| v.len() == w.values.len() && c.len() == w.counts.len())
    };
    let start = if let Some(saved) = kept.load().filter(fits) {
        for ((values, counts), w) in saved.tables.into_iter().zip(&work) {
            for (to, v) in w.values.iter().zip(values) {
                to.store(v, Ordering::Relaxed);
            }
            for (to, c) in w.counts.iter().zip(counts) {
                to.store(c, Ordering::Relaxed);
            }
        }
        // What the stopped build had settled counts as done.
        progress(work.iter().map(|w| w.index.len()).sum());
        saved.level
    } else {
        for t in 0..work.len() {
            settle(rules, &work, t, exit, progress)?;
        }
        0
    };
    prove(rules, &work, share, progress, start, kept)?;
    Ok(work
        .into_iter()
        .map(|w| w.values.into_iter().map(AtomicU16::into_inner).collect())
        .collect())
}

/// The table a move of table `t` of the group leads to.
fn other_table(work: &[Work], t: usize) -> usize {
    if work.len() == 1 {
        0
    } else {
        1 - t
    }
}

/// The slots of a table of `n`, in pieces of `CHUNK`.
fn ranges(n: u64) -> impl Iterator<Item = std::ops::Range<u64>> {
    (0..n.div_ceil(CHUNK)).map(move |c| c * CHUNK..(c * CHUNK + CHUNK).min(n))
}

/// The slots of every table of the group, in pieces of `CHUNK`: (table, first, end).
fn chunks(work: &[Work]) -> Vec<(usize, u64, u64)> {
    work.iter()
        .enumerate()
        .flat_map(|(t, w)| ranges(w.index.len()).map(move |r| (t, r.start, r.end)))
        .collect()
}

/// Settles the positions of table `t` that its removals decide (or that have no move), at
/// distance 0 or 1, and counts the successor classes of the others in the group.
fn settle(
    rules: &Rules,
    work: &[Work],
    t: usize,
    exit: &(dyn Fn(u32, u32) -> Option<Value> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), TablesError> {
    let w = &work[t];
    let next = &work[other_table(work, t)].index;
    ranges(w.index.len())
        .collect::<Vec<_>>()
        .into_par_iter()
        .map_init(
            || (Vec::with_capacity(64), Vec::with_capacity(64)),
            |(succ, stays), chunk| {
                for (slot, ours, theirs) in w.index.positions(chunk.clone()) {
                    if !w.index.is_canonical_position(slot, ours, theirs) {
                        continue;
                    }
                    successors(rules, ours, theirs, exit, succ)?;
                    stays.clear();
                    let mut win = false;
                    let mut draw = false;
                    // Every move that removes nothing leaves the other side's set as it is, and
                    // that side moves next: its set is placed in the index once.
                    let mover = next.mover_set(theirs);
                    for s in succ.iter() {
                        match *s {
                            Successor::Exit(Value::Loss(_)) => win = true,
                            Successor::Exit(Value::Draw) => draw = true,
                            Successor::Exit(Value::Win(_)) => {}
                            Successor::Stay {
                                ours: next_mover,
                                theirs: moved,
                            } => {
                                debug_assert_eq!(next_mover, theirs);
                                stays.push(next.slot_with(&mover, moved));
                            }
                        }
                    }
                    // Two moves reach one position up to symmetry only through a symmetry that
                    // fixes the set that did not move.
                    if !mover.is_asymmetric() {
                        stays.sort_unstable();
                        stays.dedup();
                    }
                    let value = if win {
                        Some(Value::Win(1))
                    } else if succ.is_empty() {
                        Some(Value::Loss(0))
                    } else if stays.is_empty() && !draw {
                        Some(Value::Loss(1))
                    } else {
                        None
                    };
                    if let Some(v) = value {
                        w.values[slot as usize].store(v.code(), Ordering::Relaxed);
                    } else {
                        // At most 3 pieces flying to 21 points, or 9 pieces with 4 steps.
                        debug_assert!(stays.len() < DRAW_EXIT as usize);
                        let c = stays.len() as u8 | if draw { DRAW_EXIT } else { 0 };
                        w.counts[slot as usize].store(c, Ordering::Relaxed);
                    }
                }
                progress(chunk.end - chunk.start);
                Ok(())
            },
        )
        .collect()
}

/// Proves the group level by level, from the shortest distance: each predecessor of a loss
/// is a win one ply further; a predecessor whose successors are all proven wins is a loss one
/// ply further than the last.
fn prove(
    rules: &Rules,
    work: &[Work],
    share: u64,
    progress: &(dyn Fn(u64) + Sync),
    start: u16,
    kept: &dyn Checkpoints,
) -> Result<(), TablesError> {
    let slots: u64 = work.iter().map(|w| w.index.len()).sum();
    let most_listed = slots / share;
    let pieces = chunks(work);
    // Levels 0 and 1 are what `settle` proved: found by passes; so is a resumed level.
    let mut current = Level::Scan;
    let mut level: u16 = start;
    loop {
        if level >= MAX_DISTANCE {
            return Err(TablesError::TooLong { max: MAX_DISTANCE });
        }
        if kept.due() {
            let tables: Vec<(&[AtomicU16], &[AtomicU8])> = work
                .iter()
                .map(|w| (&w.values[..], &w.counts[..]))
                .collect();
            kept.save(level, &tables)?;
        }
        let listed = AtomicU64::new(0);
        let overflow = AtomicBool::new(false);
        // Keeps a thread's finds while the level's list stays short enough.
        let keep = |mut found: Vec<Proven>| {
            progress(0);
            if found.is_empty() || overflow.load(Ordering::Relaxed) {
                return Vec::new();
            }
            if listed.fetch_add(found.len() as u64, Ordering::Relaxed) + found.len() as u64
                > most_listed
            {
                overflow.store(true, Ordering::Relaxed);
                return Vec::new();
            }
            found.shrink_to_fit();
            found
        };
        let began = std::time::Instant::now();
        let scanned = matches!(current, Level::Scan);
        let found: Vec<Vec<Proven>> = match current {
            Level::Scan => pieces
                .par_iter()
                .map_init(
                    || Vec::with_capacity(128),
                    |preds, &(t, first, end)| {
                        let values = &work[t].values;
                        let mut found = Vec::new();
                        for slot in first..end {
                            let code = values[slot as usize].load(Ordering::Relaxed);
                            if code != 0 && Value::from_code(code).distance() == level {
                                take(rules, work, t, slot, preds, &mut found);
                            }
                        }
                        keep(found)
                    },
                )
                .filter(|f| !f.is_empty())
                .collect(),
            Level::Listed(lists) => lists
                .par_iter()
                .flat_map(|list| list.par_chunks(1024))
                .map_init(
                    || Vec::with_capacity(128),
                    |preds, chunk| {
                        let mut found = Vec::new();
                        for &p in chunk {
                            let (t, slot) = unpack(p);
                            take(rules, work, t, slot, preds, &mut found);
                        }
                        keep(found)
                    },
                )
                .filter(|f| !f.is_empty())
                .collect(),
        };
        log::debug!(
            "level {level}: {} by a {} in {:.3} s",
            found.iter().map(Vec::len).sum::<usize>(),
            if scanned { "pass" } else { "list" },
            began.elapsed().as_secs_f64()
        );
        level += 1;
        current = if level == 1 || overflow.into_inner() {
            Level::Scan
        } else if found.is_empty() {
            return Ok(());
        } else {
            Level::Listed(found)
        };
    }
}

/// Takes the proven position `slot` of table `t`: proves the predecessors it decides, one ply
/// further, and adds them to `found`.
fn take(
    rules: &Rules,
    work: &[Work],
    t: usize,
    slot: u64,
    preds: &mut Vec<u64>,
    found: &mut Vec<Proven>,
) {
    let w = &work[t];
    let pt = other_table(work, t);
    let p = &work[pt];
    let v = Value::from_code(w.values[slot as usize].load(Ordering::Relaxed));
    let (ours, theirs) = w.index.position(slot);
    predecessors(rules, &p.index, ours, theirs, preds);
    // Every predecessor's value (and count) read first: loads the processor makes side by side,
    // where each locked update below would wait for its own miss of the cache in turn.
    let mut seen = 0u16;
    for &ps in preds.iter() {
        seen |= p.values[ps as usize].load(Ordering::Relaxed);
        if matches!(v, Value::Win(_)) {
            seen |= u16::from(p.counts[ps as usize].load(Ordering::Relaxed));
        }
    }
    std::hint::black_box(seen);
    for &ps in preds.iter() {
        let i = ps as usize;
        match v {
            Value::Loss(d) => {
                let win = Value::Win(d + 1).code();
                if p.values[i].load(Ordering::Relaxed) == 0
                    && p.values[i]
                        .compare_exchange(0, win, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                {
                    found.push(pack(pt, ps));
                }
            }
            Value::Win(d) => {
                if p.values[i].load(Ordering::Relaxed) != 0 {
                    continue;
                }
                let left = p.counts[i].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
                    (c & DRAW_EXIT == 0 && c > 0).then(|| c - 1)
                });
                if left == Ok(1) {
                    let loss = Value::Loss(d + 1).code();
                    if p.values[i]
                        .compare_exchange(0, loss, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                    {
                        found.push(pack(pt, ps));
                    }
                }
            }
            Value::Draw => {}
        }
    }
}

/// The slots (in `index`, the table of the side that just moved) of the positions from which the
/// other side reached `(ours, theirs)` by a move that removed nothing, each once.
fn predecessors(rules: &Rules, index: &PairIndex, ours: u32, theirs: u32, out: &mut Vec<u64>) {
    out.clear();
    // `theirs` just moved.
    let topology = rules.topology();
    let empty = Bitboard(!(ours | theirs) & Bitboard::ALL.0);
    let flies = Position::flies(rules, theirs.count_ones(), 0);
    let capture_possible = !Position::removable_under(rules, Bitboard(ours)).is_empty();
    for y in Bitboard(theirs) {
        let rest = theirs & !(1 << y.index());
        let formed = mills_closed(rules, rest, y.index()) > 0;
        // A step that closes a mill removes a piece whenever one can be removed.
        if formed && capture_possible {
            continue;
        }
        let sources = if flies {
            empty
        } else {
            topology.adjacent[y.index()] & empty
        };
        for x in sources {
            out.push(index.slot(rest | 1 << x.index(), ours));
        }
    }
    out.sort_unstable();
    out.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;
    use crate::tables::table_set::Tables;
    use crate::tables::values::Values;

    /// The successors made on the sets equal those the move generator makes, move for move,
    /// under every preset's rules: on random positions of 3 to 12 pieces a side, with a stand-in
    /// for the smaller tables' values.
    #[test]
    fn successors_made_on_the_sets_equal_the_move_generators() {
        let exit = |a: u32, b: u32| {
            let h = (u64::from(a) << 24 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60;
            Some(match h % 3 {
                0 => Value::Draw,
                1 => Value::Win(h as u16),
                _ => Value::Loss(h as u16),
            })
        };
        let key = |s: &Successor| match *s {
            Successor::Stay { ours, theirs } => (0, ours, theirs),
            Successor::Exit(v) => (1, u32::from(v.code()), 0),
        };
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        for name in PRESETS {
            let rules = Rules::preset(name).expect("a preset");
            let mut closing = 0;
            for _ in 0..20_000 {
                let (a, b) = (3 + next() % 10, 3 + next() % 10);
                let mut points: Vec<u32> = (0..24).collect();
                for i in 0..(a + b) as usize {
                    let j = i + (next() % (24 - i as u64)) as usize;
                    points.swap(i, j);
                }
                let ours = points[..a as usize].iter().fold(0, |s, p| s | 1 << p);
                let theirs = points[a as usize..(a + b) as usize]
                    .iter()
                    .fold(0, |s, p| s | 1 << p);
                successors(&rules, ours, theirs, &exit, &mut fast).expect("every exit known");
                slow.clear();
                successors_by_movegen(&rules, ours, theirs, &exit, &mut slow, |_, _| true)
                    .expect("every exit known");
                let mut f: Vec<_> = fast.iter().map(key).collect();
                let mut s: Vec<_> = slow.iter().map(key).collect();
                f.sort_unstable();
                s.sort_unstable();
                assert_eq!(f, s, "{name}: {ours:#x} against {theirs:#x}");
                closing += usize::from(fast.iter().any(|s| matches!(s, Successor::Exit(_))));
            }
            assert!(closing > 1000, "{name}: {closing} positions with a removal");
        }
    }

    /// A level taken from its list, and found by a pass over the values, prove the same values:
    /// solved with every level listed, with every level found by a pass, and as the build does.
    #[test]
    fn listed_and_scanned_levels_prove_the_same_values() {
        let rules = Rules::preset("nine").unwrap().without_draw_rules();
        // The pairs up to 3 against 4, group by group, as the build solves them (4 against 4
        // proves nothing more and would triple the test's time).
        let mut tables = Tables::empty(&rules, 4);
        for (a, b) in [(3, 3), (3, 4)] {
            let solved = {
                let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
                solve_group(&rules, tables.classes(), a, b, &exit, &|_| {}).unwrap()
            };
            for (&(m, o), codes) in group(a, b).iter().zip(solved) {
                tables.insert(m, o, Values::from_codes(codes));
            }
        }
        let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
        for (a, b) in [(3, 3), (3, 4)] {
            let solve = |share| {
                let (classes, none) = (tables.classes(), &Unkept);
                solve_group_listing(&rules, classes, (a, b), &exit, &|_| {}, share, none).unwrap()
            };
            let listed = solve(1);
            let scanned = solve(u64::MAX);
            assert_eq!(listed, scanned, "{a}-{b}");
            for (&(m, o), codes) in group(a, b).iter().zip(listed) {
                let built = tables.values(m, o).unwrap();
                // Long enough to take levels from lists.
                assert!(built.longest() > 5, "{m}-{o}: {}", built.longest());
                assert_eq!(&Values::from_codes(codes), built, "{m}-{o}");
            }
        }
    }

    /// Keeps every state it is given, and gives back the one of `resume_at`, if it has it.
    struct EveryLevel {
        kept: std::sync::Mutex<Vec<Saved>>,
        resume_at: Option<u16>,
    }

    impl Checkpoints for EveryLevel {
        fn load(&self) -> Option<Saved> {
            let kept = self.kept.lock().unwrap();
            kept.iter()
                .find(|s| Some(s.level) == self.resume_at)
                .cloned()
        }
        fn due(&self) -> bool {
            true
        }
        fn save(
            &self,
            level: u16,
            tables: &[(&[AtomicU16], &[AtomicU8])],
        ) -> Result<(), TablesError> {
            let read = |(v, c): &(&[AtomicU16], &[AtomicU8])| {
                let values = v.iter().map(|x| x.load(Ordering::Relaxed)).collect();
                let counts = c.iter().map(|x| x.load(Ordering::Relaxed)).collect();
                (values, counts)
            };
            let saved = Saved {
                level,
                tables: tables.iter().map(read).collect(),
            };
            self.kept.lock().unwrap().push(saved);
            Ok(())
        }
    }

    /// A group stopped between any two levels and resumed from the state kept there proves
    /// the same values as solved in one go.
    #[test]
    fn a_group_resumed_from_any_level_proves_the_same_values() {
        let rules = Rules::preset("nine").unwrap().without_draw_rules();
        let mut tables = Tables::empty(&rules, 4);
        let three = {
            let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
            solve_group(&rules, tables.classes(), 3, 3, &exit, &|_| {}).unwrap()
        };
        tables.insert(3, 3, Values::from_codes(three.into_iter().next().unwrap()));
        let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
        let classes = tables.classes();
        let all = EveryLevel {
            kept: std::sync::Mutex::new(Vec::new()),
            resume_at: None,
        };
        let whole = solve_group_kept(&rules, classes, (3, 4), &exit, &|_| {}, &all).unwrap();
        let kept = all.kept.into_inner().unwrap();
        assert!(kept.len() > 5, "{} levels kept", kept.len());
        assert_eq!(kept[0].level, 0);
        for saved in &kept {
            let resumed_at = EveryLevel {
                kept: std::sync::Mutex::new(vec![saved.clone()]),
                resume_at: Some(saved.level),
            };
            let settled = std::sync::atomic::AtomicU64::new(0);
            let count = |n: u64| {
                settled.fetch_add(n, Ordering::Relaxed);
            };
            let again = solve_group_kept(&rules, classes, (3, 4), &exit, &count, &resumed_at);
            assert_eq!(again.unwrap(), whole, "resumed at level {}", saved.level);
            // It took up the proof at the level kept (its first state kept is that level's).
            let after = resumed_at.kept.into_inner().unwrap();
            assert_eq!(after[1].level, saved.level);
            // The settled positions count as done at once.
            let slots: u64 = saved.tables.iter().map(|(v, _)| v.len() as u64).sum();
            assert_eq!(settled.into_inner(), slots, "level {}", saved.level);
        }
    }
}
