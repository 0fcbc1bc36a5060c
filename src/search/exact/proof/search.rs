//! The proof's search: whether a placing position is worth at least a bar for the side to
//! move (`Prover::at_least`), by alpha-beta with a null window over the placements left, the
//! moving tables' values where the placing ends. A test of a bar searches a tree of or-nodes
//! (the side that must reach its bar needs one turn that does) and and-nodes (the other side's
//! every turn refuted), much smaller than the tree of a position's exact value; the value is
//! then two such tests (a draw at least? a win?).
//!
//! What makes the proof of the start a few seconds (docs/results.md, 2026-11-26): the turns
//! tried in the order `Turns` ranks them (a mill closed first, then an opponent's mill blocked,
//! then the points with more neighbours, as in the published re-solves); the memory, keyed by
//! the position folded under the board's symmetries; and, far enough from the end, a look at
//! every child in the memory before any is searched (an enhanced transposition cut-off).

use super::node::{Node, Turns, MAX_TURNS};
use super::proof_memory::{Folded, ProofMemory};
use crate::rules::Rules;
use crate::search::exact::{wdl, Wdl};
use crate::tables::Tables;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// The placements left from which the memory is asked: nearer the end a subtree is a few table
/// probes, cheaper than folding the position under the symmetries (with the memory from 1
/// placement left, 26% fewer positions on the start's proof but 10% more time; from 3, 60%
/// more positions, as much time).
const MEMORY_FROM: u8 = 2;

/// The placements left from which every child is looked up in the memory before any is
/// searched: from 4, the start's proof visits 46% fewer positions and takes 36% less time than
/// without; from 3 or 6, about as long.
const CUT_OFF_FROM: u8 = 4;

/// The placements left from which the threads share out the children of a node (`Busy`); below,
/// a subtree is too small to be worth telling the others (from 6, the busiest of two threads
/// visits 49% of the positions one thread would; from 8, 57%).
const SHARE_FROM: u8 = 6;

/// What the threads of a proof share.
pub(super) struct Shared<'a> {
    pub(super) tables: &'a Tables,
    pub(super) rules: Rules,
    pub(super) memory: &'a ProofMemory,
    /// The positions some thread is searching, when there are several threads.
    pub(super) busy: Option<Busy>,
    /// Set when a thread has answered the test, or a table failed: every search then ends,
    /// and nothing more is stored.
    pub(super) stop: AtomicBool,
    /// Set when a table did not answer (a file changed under the proof).
    pub(super) failed: AtomicBool,
}

/// The positions the threads are searching, counted by a hash of their folded form. A thread
/// that meets a child another one is searching leaves it for later and goes on with the next
/// (as in ABDADA, Weill 1996): by then, its value is mostly in the memory. Two positions may
/// share a count: one is then thought busy while it is not, which costs time, not truth.
pub(super) struct Busy {
    counts: Vec<AtomicU8>,
}

impl Busy {
    /// No position searched yet.
    pub(super) fn new() -> Busy {
        Busy {
            counts: (0..1 << 16).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    fn count(&self, f: Folded) -> &AtomicU8 {
        &self.counts[f.hash() as usize & (self.counts.len() - 1)]
    }
}

/// One thread of a proof.
pub(super) struct Prover<'a> {
    shared: &'a Shared<'a>,
    /// Positions visited.
    pub(super) nodes: u64,
}

impl<'a> Prover<'a> {
    /// A thread of the proof of `shared`.
    pub(super) fn new(shared: &'a Shared<'a>) -> Prover<'a> {
        Prover { shared, nodes: 0 }
    }

    /// The value of a position where the placing is over, for the side to move.
    #[inline]
    fn leaf(&mut self, node: Node) -> Wdl {
        if node.lost() {
            return -1;
        }
        if let Some(v) = self.shared.tables.value(node.ours, node.theirs) {
            wdl(v)
        } else {
            self.shared.failed.store(true, Ordering::Relaxed);
            self.shared.stop.store(true, Ordering::Relaxed);
            0
        }
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Whether `node` is worth at least `bar` (0 or 1) to the side to move. Meaningless once
    /// `stop` is set.
    pub(super) fn at_least(&mut self, node: Node, bar: Wdl) -> bool {
        self.nodes += 1;
        if node.left == 0 {
            return self.leaf(node) >= bar;
        }
        if node.lost() {
            return false;
        }
        if node.left < MEMORY_FROM {
            return self.search(node, bar, None);
        }
        let folded = Folded::of(node);
        match &self.shared.busy {
            Some(busy) if node.left >= SHARE_FROM => {
                busy.count(folded).fetch_add(1, Ordering::Relaxed);
                let holds = self.search(node, bar, Some(folded));
                busy.count(folded).fetch_sub(1, Ordering::Relaxed);
                holds
            }
            _ => self.search(node, bar, Some(folded)),
        }
    }

    /// `at_least` past the leaves: the memory, then the turns.
    fn search(&mut self, node: Node, bar: Wdl, folded: Option<Folded>) -> bool {
        let memory = self.shared.memory;
        let mut best = None;
        if let Some(known) = folded.and_then(|f| memory.get(f)) {
            if known.lower >= bar {
                return true;
            }
            if known.upper < bar {
                return false;
            }
            best = known.best;
        }
        let mut turns = Turns::of(node, &self.shared.rules, best);
        let holds = if node.left >= CUT_OFF_FROM && self.cut_off(node, bar, &mut turns) {
            Some(0)
        } else {
            self.try_turns(node, bar, &mut turns)
        };
        if self.stopped() {
            return false;
        }
        if let Some(f) = folded {
            match holds {
                Some(k) => memory.store(f, bar, 1, Some(turns.get(k).to)),
                None => memory.store(f, -1, bar - 1, None),
            }
        }
        holds.is_some()
    }

    /// The enhanced transposition cut-off: the first turn whose child the memory already holds
    /// refuted (below `1 - bar` for the other side), brought first: whether there is one.
    fn cut_off(&self, node: Node, bar: Wdl, turns: &mut Turns) -> bool {
        for k in 0..turns.len() {
            let child = node.after(turns.pick(k));
            if let Some(known) = self.shared.memory.get(Folded::of(child)) {
                if known.upper < 1 - bar {
                    turns.swap(0, k);
                    return true;
                }
            }
        }
        false
    }

    /// The turns tried in their order: the index of the first that keeps `bar`, if one does
    /// (`None` too when the proof is stopped).
    /// With several threads, a child another thread is searching waits for a second pass
    /// (not the first child: the one most likely to keep the bar is searched at once).
    fn try_turns(&mut self, node: Node, bar: Wdl, turns: &mut Turns) -> Option<usize> {
        let share = self.shared.busy.as_ref().filter(|_| node.left > SHARE_FROM);
        let mut later = [0u8; MAX_TURNS];
        let mut deferred = 0;
        for k in 0..turns.len() {
            let child = node.after(turns.pick(k));
            if let Some(busy) = share.filter(|_| k > 0) {
                if busy.count(Folded::of(child)).load(Ordering::Relaxed) > 0 {
                    later[deferred] = k as u8;
                    deferred += 1;
                    continue;
                }
            }
            if self.keeps(child, bar)? {
                return Some(k);
            }
        }
        for &k in &later[..deferred] {
            if self.keeps(node.after(turns.get(k.into())), bar)? {
                return Some(k.into());
            }
        }
        None
    }

    /// Whether the turn to `child` keeps `bar`: the other side, to move there, is held below
    /// `1 - bar`. `None` once the proof is stopped.
    #[inline]
    fn keeps(&mut self, child: Node, bar: Wdl) -> Option<bool> {
        let refuted = !self.at_least(child, 1 - bar);
        (!self.stopped()).then_some(refuted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::exact::testing::{start_of_four, tables};
    use crate::search::exact::{Memory, Solver};

    #[test]
    fn children_another_thread_is_searching_are_searched_after_the_others() {
        // A game of four pieces a side from the start (8 placements left), every child of
        // the root and of its first child marked busy as if another thread were in them: the
        // one thread defers them all but the first, and proves the same values.
        let tables = tables();
        let start = start_of_four();
        let never = |_: u64| false;
        let truth = Solver::new(tables, &mut Memory::new(1 << 16), &never)
            .value(&start)
            .unwrap();
        let root = Node::of(&start).unwrap();
        for bar in [0, 1] {
            let memory = ProofMemory::new(1 << 16);
            let shared = Shared {
                tables,
                rules: *start.rules(),
                memory: &memory,
                busy: Some(Busy::new()),
                stop: AtomicBool::new(false),
                failed: AtomicBool::new(false),
            };
            let busy = shared.busy.as_ref().unwrap();
            let mut marked = 0;
            let first = node_turns(root).first().map(|&t| root.after(t)).unwrap();
            for parent in [root, first] {
                for turn in node_turns(parent) {
                    busy.count(Folded::of(parent.after(turn)))
                        .fetch_add(1, Ordering::Relaxed);
                    marked += 1;
                }
            }
            assert!(marked > 40);
            let mut prover = Prover::new(&shared);
            assert_eq!(prover.at_least(root, bar), truth >= bar, "bar {bar}");
            assert!(!shared.failed.load(Ordering::Relaxed));
        }
    }

    /// The turns of `node` in their order.
    fn node_turns(node: Node) -> Vec<super::super::node::Turn> {
        let rules = crate::Rules::nine();
        let mut turns = Turns::of(node, &rules, None);
        (0..turns.len()).map(|k| turns.pick(k)).collect()
    }
}
