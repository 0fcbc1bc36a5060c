//! What a packed set stores: a table whose every value can be found from stored successors is
//! left out (derived when probed), but for those a search probes most (`kept_though_derivable`).
//! Read when a set is packed (`packing`) and when it is opened (`open` checks that what the
//! manifest derives can be).

use crate::rules::Rules;
use crate::tables::groups::{self, Group};
use crate::tables::{Tables, Values};
use std::collections::{HashMap, HashSet};

/// The fewest pieces on the board of a table of one piece apart that is stored though it could
/// be derived (8-9 in the standard game): the moving phase of a game without a removal in the
/// placing begins there and in its mirror, so a search from the late placing probes it more than
/// any other, and a derived position costs a probe of each successor. Storing it (187 MB) made
/// such a search with memory short 1.2 times faster; storing 7-8 as well (176 MB more) gained
/// little and took the set past 2 GB (docs/results.md, 2026-11-29).
const HOT_PIECES: usize = 17;

/// How many pieces fewer the mover of a table must have for it to be stored though it could be
/// derived, in tables of at most `BEHIND_PIECES` pieces: a side far behind (flying, in the
/// standard game, at three pieces) has many moves, and a search from the placing reaches such
/// tables through its lines of captures, each derived position a probe of every successor.
/// They pack small (3-6 to 4-9 and 5-8: 84 MB of the standard game's set; 5-9 and 6-9, 70 MB
/// more, would take it past 2 GB): storing them made a search from the late placing probe the
/// tables 2.5 times less often (every successor of a derived position a probe) and run about
/// 1.1 times faster (docs/results.md, 2026-11-29).
const BEHIND: usize = 3;
/// The most pieces of a table stored because its mover is `BEHIND`.
const BEHIND_PIECES: usize = 13;

/// Whether the moving table `(m, o)` need not be stored: its mover has fewer pieces, so each of
/// its positions' successors lies in a stored table: the mirror `(o, m)` after a step that
/// removes nothing, `(o - 1, m)` after a removal (`(o - k, m)` after `k`, where the rules allow
/// them), or the game is over.
pub fn pair_derivable(tables: &Tables, rules: &Rules, m: usize, o: usize) -> bool {
    // A move removes one piece, or one a mill closed where the rules say so; the successors
    // after each count of removals must be stored, and so not derived themselves.
    let most = rules.most_removals() as usize;
    let stored = |a: usize, b: usize| {
        tables.has(a, b) && !matches!(tables.values(a, b), Some(Values::Derived(..)))
    };
    m < o && stored(o, m) && (1..=most).all(|k| o < 3 + k || (o - k >= m && stored(o - k, m)))
}

/// How a set holds a moving table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TableHeld {
    /// Its values are stored.
    Stored,
    /// Its values are found from its successors when probed.
    Derived,
    /// The set has no such table.
    Absent,
}

/// Whether the placing group `g` can be left out of a set that stores the groups `stored` says
/// and holds the moving tables as `moving` says: every move places a piece (in rules where the
/// placing only places), and each placement leads to a stored group, ends the game, or, after
/// the last placement, leads to a stored moving table when it removes nothing (the other side's
/// set is then that table's mover's, the same for every placement: a derived group of the last
/// placement reads a block or two of that table) and to a stored or derived one when it
/// removes a piece (the removed side's set differs at each removal, a block each either way).
pub fn group_derivable(
    rules: &Rules,
    g: Group,
    stored: &dyn Fn(Group) -> bool,
    moving: &dyn Fn(usize, usize) -> TableHeld,
) -> bool {
    rules.placing_moves == crate::rules::PlacingMoves::PlaceOnly
        && groups::successors(rules, g).into_iter().all(|s| {
            if s.left > 0 {
                return stored(s);
            }
            match moving(s.mover as usize, s.other as usize) {
                TableHeld::Stored => true,
                TableHeld::Derived => s.mover < g.other,
                TableHeld::Absent => false,
            }
        })
}

/// The placing groups a set stores, of `all` (every group of the game under `rules`), each
/// `bytes(g)` packed: the fewest bytes such that every group left out is derivable
/// (`group_derivable`) from those stored and the moving tables as `moving` holds them. A group
/// left out needs every group after it stored, so the groups stored are a vertex cover of the
/// graph of a group and the groups after it, whose edges join a count of placements left to the
/// next: a graph of two sides (the odd counts and the even ones), whose cover of least weight is
/// a cut of least capacity (König's theorem), found by a maximum flow. A group of the last placement that
/// cannot be derived (a placement that removes nothing would lead to a derived moving table) is
/// stored. Where the placing moves pieces too, every group is stored.
pub fn stored_groups(
    rules: &Rules,
    all: &[Group],
    bytes: &dyn Fn(Group) -> u64,
    moving: &dyn Fn(usize, usize) -> TableHeld,
) -> HashSet<Group> {
    if rules.placing_moves != crate::rules::PlacingMoves::PlaceOnly {
        return all.iter().copied().collect();
    }
    let known: HashSet<Group> = all.iter().copied().collect();
    let forced: HashSet<Group> = all
        .iter()
        .copied()
        .filter(|&g| !group_derivable(rules, g, &|s| known.contains(&s), moving))
        .collect();
    // Nodes 0 and 1 are the source and the sink; group `i` of `all` is node `i + 2`. The edges
    // are made in the order of `all`, so the same groups give the same cut (a resumed pack
    // stores what the stopped one did).
    let mut net = Network::new(all.len() + 2);
    let node: HashMap<Group, usize> = all.iter().enumerate().map(|(i, &g)| (g, i + 2)).collect();
    for (i, &g) in all.iter().enumerate() {
        let n = i + 2;
        let weight = if forced.contains(&g) { 0 } else { bytes(g) };
        if g.left % 2 == 1 {
            net.edge(0, n, weight);
        } else {
            net.edge(n, 1, weight);
        }
        if forced.contains(&g) {
            continue;
        }
        for s in groups::successors(rules, g) {
            let Some(&m) = node.get(&s).filter(|_| !forced.contains(&s)) else {
                continue;
            };
            let (odd, even) = if g.left % 2 == 1 { (n, m) } else { (m, n) };
            net.edge(odd, even, u64::MAX);
        }
    }
    let source_side = net.cut(0, 1);
    all.iter()
        .copied()
        .filter(|g| {
            let side = source_side[node[g]];
            forced.contains(g) || (g.left % 2 == 1 && !side) || (g.left % 2 == 0 && side)
        })
        .collect()
}

/// A flow network of edges with capacities, for `stored_groups`' cut.
struct Network {
    /// Each edge's end and capacity left; edge `e ^ 1` is its reverse.
    edges: Vec<(usize, u64)>,
    /// The edges leaving each node.
    out: Vec<Vec<usize>>,
}

impl Network {
    fn new(nodes: usize) -> Network {
        Network {
            edges: Vec::new(),
            out: vec![Vec::new(); nodes],
        }
    }

    fn edge(&mut self, from: usize, to: usize, capacity: u64) {
        self.out[from].push(self.edges.len());
        self.edges.push((to, capacity));
        self.out[to].push(self.edges.len());
        self.edges.push((from, 0));
    }

    /// The nodes on the source's side of a cut of least capacity between `source` and `sink`
    /// (Edmonds-Karp: shortest augmenting paths until none is left, then what the source still
    /// reaches).
    fn cut(&mut self, source: usize, sink: usize) -> Vec<bool> {
        loop {
            let mut via = vec![usize::MAX; self.out.len()];
            let mut reached = vec![false; self.out.len()];
            reached[source] = true;
            let mut queue = std::collections::VecDeque::from([source]);
            while let Some(n) = queue.pop_front() {
                for &e in &self.out[n] {
                    let (to, left) = self.edges[e];
                    if left > 0 && !reached[to] {
                        reached[to] = true;
                        via[to] = e;
                        queue.push_back(to);
                    }
                }
            }
            if !reached[sink] {
                return reached;
            }
            let mut flow = u64::MAX;
            let mut n = sink;
            while n != source {
                let e = via[n];
                flow = flow.min(self.edges[e].1);
                n = self.edges[e ^ 1].0;
            }
            let mut n = sink;
            while n != source {
                let e = via[n];
                self.edges[e].1 -= flow;
                self.edges[e ^ 1].1 = self.edges[e ^ 1].1.saturating_add(flow);
                n = self.edges[e ^ 1].0;
            }
        }
    }
}

/// Whether the moving table `(m, o)` is stored though it could be derived: the table the moving
/// phase mostly begins in (`HOT_PIECES`) or one whose mover is far behind (`BEHIND`).
pub fn kept_though_derivable(m: usize, o: usize) -> bool {
    (o == m + 1 && m + o >= HOT_PIECES) || (o >= m + BEHIND && m + o <= BEHIND_PIECES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Whether every group of `all` not in `stored` is derivable from those in it.
    fn valid(
        rules: &Rules,
        all: &[Group],
        stored: &HashSet<Group>,
        moving: &dyn Fn(usize, usize) -> TableHeld,
    ) -> bool {
        all.iter().all(|&g| {
            stored.contains(&g) || group_derivable(rules, g, &|s| stored.contains(&s), moving)
        })
    }

    #[test]
    fn the_groups_stored_are_the_fewest_bytes_that_derive_the_rest() {
        // Every choice of the groups of a small game tried, under weights drawn at random and
        // moving tables stored or not: the cut's choice is derivable and as light as the best.
        let rules = Rules {
            pieces: 4,
            ..Rules::nine()
        };
        let all = groups::all(&rules);
        assert!(all.len() <= 20, "{} groups", all.len());
        let mut rng = Rng::new(7);
        for round in 0..20 {
            let weights: HashMap<Group, u64> = all
                .iter()
                .map(|&g| (g, 1 + rng.below(1000) as u64))
                .collect();
            // Half the rounds with every moving table stored, half with those of a mover
            // behind left out.
            let moving = |m: usize, o: usize| {
                if round % 2 == 0 || m >= o {
                    TableHeld::Stored
                } else {
                    TableHeld::Derived
                }
            };
            let chosen = stored_groups(&rules, &all, &|g| weights[&g], &moving);
            assert!(valid(&rules, &all, &chosen, &moving), "round {round}");
            let weight = |s: &HashSet<Group>| s.iter().map(|g| weights[g]).sum::<u64>();
            let best = (0u32..1 << all.len())
                .map(|bits| {
                    (0..all.len())
                        .filter(|i| bits >> i & 1 == 1)
                        .map(|i| all[i])
                        .collect::<HashSet<Group>>()
                })
                .filter(|s| valid(&rules, &all, s, &moving))
                .map(|s| weight(&s))
                .min()
                .unwrap();
            assert_eq!(weight(&chosen), best, "round {round}");
        }
        // Under weights that tie everywhere, the same choice each time (a resumed pack stores
        // what the stopped one did).
        let even = |_| 1;
        let stored = |_: usize, _: usize| TableHeld::Stored;
        let first = stored_groups(&rules, &all, &even, &stored);
        assert!((0..10).all(|_| stored_groups(&rules, &all, &even, &stored) == first));
        // Where the placing moves pieces too, every group is stored.
        let lasker = Rules {
            placing_moves: crate::rules::PlacingMoves::PlaceOrMove,
            ..rules
        };
        assert_eq!(
            stored_groups(&lasker, &all, &|_| 1, &|_, _| TableHeld::Stored).len(),
            all.len()
        );
    }
}
