//! The book as a graph of positions from the start: its entries by key (`Entries`), its main
//! lines walked by drop-out priority (`frontier`, the positions `book expand` searches next and
//! `book check --exits` compares), the positions its moves reach (`reachable_keys`,
//! `retain_reachable`), and the whole book written sorted (`write`).

use super::book_error::BookError;
use super::book_move::{ply_of, score_value, BookMove};
use super::format::{self, Header};
use super::settings::MAX_FILE_BYTES;
use crate::durable;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

/// ω of drop-out expansion unless told otherwise.
pub const DEFAULT_PLY_COST: i32 = 4;

/// The book's entries by key.
pub type Entries = FxHashMap<u64, (Position, Vec<BookMove>)>;

/// A book's lines as entries by key.
pub fn entries(lines: Vec<format::Line>) -> Entries {
    lines
        .into_iter()
        .map(|l| (fold(&l.pos).key, (l.pos, l.moves)))
        .collect()
}

/// One frontier position: its priority, ply and the position, and the book's score of the move
/// that leads to it on its line of lowest priority (for the side that played it).
#[derive(Clone, Copy, Debug)]
pub struct Frontier {
    /// The priority: `ply_cost` a ply from the start plus the drops on the way.
    pub priority: i32,
    /// Plies from the start.
    pub ply: u32,
    /// The position, in its canonical form.
    pub pos: Position,
    /// The book's score of the move that leads here, for the side that played it.
    pub reached_by: i32,
}

/// The main-line graph walked from the start by priority (Dijkstra): the frontier positions,
/// lowest priority first, and the ply at which each entry is first reached.
#[allow(clippy::implicit_hasher)] // the book's key sets are all FxHashSet (callers pass Default)
pub fn frontier(
    start: &Position,
    entries: &Entries,
    left_out: &FxHashSet<u64>,
    ply_cost: i32,
    max_ply: u32,
) -> (Vec<Frontier>, FxHashMap<u64, u32>) {
    let mut best: FxHashMap<u64, i32> = FxHashMap::default();
    let mut reached: FxHashMap<u64, u32> = FxHashMap::default();
    let mut out = Vec::new();
    let mut heap = BinaryHeap::new();
    let root = fold(start).key;
    best.insert(root, 0);
    heap.push(Reverse((0i32, 0u32, root, PosKey(*start, 0))));
    while let Some(Reverse((priority, ply, key, PosKey(pos, reached_by)))) = heap.pop() {
        if best.get(&key).is_some_and(|&p| p < priority) || reached.contains_key(&key) {
            continue;
        }
        reached.insert(key, ply);
        let Some((book_pos, moves)) = entries.get(&key) else {
            if !left_out.contains(&key) && ply <= max_ply {
                out.push(Frontier {
                    priority,
                    ply,
                    pos,
                    reached_by,
                });
            }
            continue;
        };
        let top = moves.first().map_or(0, |m| score_value(m.score));
        for m in moves {
            let mut child = *book_pos;
            child.play(m.mv);
            if child.outcome().is_some() {
                continue;
            }
            let f = fold(&child);
            let p = priority + ply_cost + (top - score_value(m.score)).max(0);
            if best.get(&f.key).is_none_or(|&q| p < q) {
                best.insert(f.key, p);
                heap.push(Reverse((
                    p,
                    ply + 1,
                    f.key,
                    PosKey(child.transformed(f.symmetry), score_value(m.score)),
                )));
            }
        }
    }
    out.sort_by_key(|f| (f.priority, f.ply, fold(&f.pos).key));
    reached.retain(|k, _| entries.contains_key(k));
    (out, reached)
}

/// A position in the heap and the score of the move that led to it, ordered by nothing (the key
/// before it decides).
#[derive(Clone, Copy, Debug)]
struct PosKey(Position, i32);

impl PartialEq for PosKey {
    fn eq(&self, _: &PosKey) -> bool {
        true
    }
}
impl Eq for PosKey {}
impl PartialOrd for PosKey {
    fn partial_cmp(&self, other: &PosKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PosKey {
    fn cmp(&self, _: &PosKey) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

/// The principal line: from the start, the first (best) book move of each entry, as long as
/// there is one; its length in plies.
pub fn principal_length(start: &Position, entries: &Entries) -> u32 {
    let mut pos = *start;
    let mut n = 0;
    let mut seen = FxHashSet::default();
    while let Some((p, moves)) = entries.get(&fold(&pos).key) {
        if !seen.insert(fold(&pos).key) {
            break;
        }
        let Some(m) = moves.first() else { break };
        pos = *p;
        pos.play(m.mv);
        n += 1;
        if pos.outcome().is_some() {
            break;
        }
    }
    n
}

/// The keys of the positions a book reaches: the start, a position one ply from it (the first
/// move of the second player's tree), a position whose moves are all proven (`book cover`: its
/// lines start where a match opening ends), or a reply to a book move of one of `entries`.
pub(super) fn reachable_keys<'a>(
    start: &Position,
    entries: impl Iterator<Item = (&'a Position, &'a [BookMove])>,
) -> FxHashSet<u64> {
    let mut reachable = FxHashSet::default();
    reachable.insert(fold(start).key);
    for mv in movegen::legal_moves(start, Convention::Turn) {
        let mut p = *start;
        p.play(mv);
        reachable.insert(fold(&p).key);
    }
    for (pos, moves) in entries {
        if is_proven(moves) {
            reachable.insert(fold(pos).key);
        }
        for m in moves {
            let mut child = *pos;
            child.play(m.mv);
            if child.outcome().is_some() {
                continue;
            }
            for reply in movegen::legal_moves(&child, Convention::Turn) {
                let mut p = child;
                p.play(reply);
                reachable.insert(fold(&p).key);
            }
        }
    }
    reachable
}

/// Keeps of `lines` the positions `reachable_keys` reaches from `start`, again until none is
/// dropped (a position dropped may have been the only way to others); returns how many went.
pub(super) fn retain_reachable(
    lines: &mut Vec<(Position, Vec<BookMove>)>,
    start: &Position,
) -> usize {
    let total = lines.len();
    loop {
        let reachable = reachable_keys(
            start,
            lines.iter().map(|(pos, moves)| (pos, moves.as_slice())),
        );
        let before = lines.len();
        lines.retain(|(pos, _)| reachable.contains(&fold(pos).key));
        if lines.len() == before {
            return total - lines.len();
        }
    }
}

/// Whether every move of a position is proven by the exact solver (`book cover`): such a line
/// is not a search's, so a fresh search has nothing to compare with it.
pub(super) fn is_proven(moves: &[BookMove]) -> bool {
    !moves.is_empty() && moves.iter().all(|m| m.exact.is_some())
}

/// Writes the book whole, sorted by pieces placed and key, as `book build` does.
pub fn write(path: &Path, header: &Header, entries: Entries) -> Result<(), BookError> {
    let mut book: Vec<(Position, Vec<BookMove>)> = entries.into_values().collect();
    sort_lines(&mut book);
    let text = format::write(header, &book);
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(BookError::TooLarge {
            bytes: text.len(),
            max: MAX_FILE_BYTES,
        });
    }
    Ok(durable::write_atomic(path, text.as_bytes())?)
}

/// Sorts a book's lines as they are written: by pieces placed, then key.
pub(super) fn sort_lines(book: &mut [(Position, Vec<BookMove>)]) {
    book.sort_by_cached_key(|(pos, _)| (ply_of(pos), fold(pos).key));
}
