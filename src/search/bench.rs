//! The bench: a fixed-depth search of fixed positions, one thread, 16 MB, with the evaluation
//! the engine plays the standard game with by default (the network that ships, if found). Its
//! node count is a signature of the search: a change that alters it changes what the search
//! does.

use crate::rules::game::Game;
use crate::rules::Rules;
use crate::search::eval::network::{self, Network};
use crate::search::{Control, Limits, Searcher};
use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The network the bench evaluates with: the standard game's, built in (`EvalFile`'s default);
/// none (the hand-written evaluation) if it is not sound, said in the log.
pub fn default_network() -> Option<Arc<Network>> {
    let source = network::chosen("".as_ref(), &Rules::nine())?;
    match Network::load(&source, &Rules::nine()) {
        Ok((net, _)) => Some(Arc::new(net)),
        Err(e) => {
            log::warn!("bench without the network: {e}");
            None
        }
    }
}

/// The deepest a bench may be asked to search every position (`--depth`, `bench depth`): each
/// ply more costs about twice the time, and the positions at 17 already take about a minute on
/// the 2-core development machine, so 20 is several minutes and anything deeper would not end
/// in the time anyone waits.
pub const MAX_DEPTH: u32 = 20;

/// Positions of the standard game (placing, moving, flying; with mills to close and to block),
/// each with its search depth.
pub const POSITIONS: [(&str, u32); 14] = [
    (
        "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
        9,
    ),
    (
        "***O***@/*O**OO**/***@@*** b p p 4 5 3 6 0 0 -1 -1 -1 -1 0 0 4",
        8,
    ),
    (
        "**O*****/***O****/@@O**@*@ w p p 3 5 4 5 0 0 -1 -1 -1 -1 0 0 5",
        8,
    ),
    (
        "**OO**@*/@@O*O@*@/*OOO***@ w p p 7 1 6 1 0 0 -1 -1 -1 -1 0 0 9",
        12,
    ),
    (
        "@@OOO@**/*@O@*O**/*OO@**@O w p p 8 1 7 1 0 0 -1 -1 -1 -1 0 0 9",
        12,
    ),
    (
        "O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10",
        14,
    ),
    (
        "*O@*@*O*/OO@@O**O/O*OO@@@* w m s 9 0 7 0 0 0 -1 -1 -1 -1 0 2 11",
        12,
    ),
    (
        "O*@*O@@O/**@@OOO*/*OO@@*@@ b m s 8 0 9 0 0 0 -1 -1 -1 -1 0 7 13",
        12,
    ),
    (
        "O*O@@**O/@@*O*@O@/O******* w m s 6 0 6 0 0 0 -1 -1 -1 -1 0 11 32",
        11,
    ),
    (
        "OOO*@@*O/@*@@O**@/O***@*O* b m s 7 0 7 0 0 0 -1 -1 -1 -1 0 2 21",
        11,
    ),
    (
        "O@OOOO**/*****O**/****@@** w m s 6 0 3 0 0 0 -1 -1 -1 -1 0 1 24",
        9,
    ),
    (
        "*@@@****/**@OO*O*/@*@*@*** w m s 3 0 7 0 0 0 -1 -1 -1 -1 0 0 23",
        8,
    ),
    (
        "@*@*****/**@O@***/O*@O***@ b m s 3 0 6 0 0 0 -1 -1 -1 -1 0 4 28",
        8,
    ),
    (
        "@@****O*/****@O*@/**@***O* w m s 3 0 5 0 0 0 -1 -1 -1 -1 0 3 34",
        8,
    ),
];

/// The result of searching one bench position; `Display` writes it as one line of `moulin
/// bench` (the protocol's `bench` writes the same).
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Its number in `POSITIONS`, from 1.
    pub number: usize,
    /// The position searched.
    pub fen: &'static str,
    /// The depth it was searched to.
    pub depth: u32,
    /// The positions the search visited.
    pub nodes: u64,
    /// The move the search chose, in turn notation (`-` when none).
    pub best: String,
    /// How long the search took.
    pub time: Duration,
}

impl fmt::Display for BenchLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>2} depth {:>2} nodes {:>10} time {:>6} ms best {:<10} {}",
            self.number,
            self.depth,
            self.nodes,
            self.time.as_millis(),
            self.best,
            self.fen
        )
    }
}

/// The bench's total: `Display` writes the last line of `moulin bench`, `<nodes> nodes <nps>
/// nps`, the node count first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchTotal {
    /// The positions visited in all.
    pub nodes: u64,
    /// The time the searches took in all.
    pub time: Duration,
}

impl BenchTotal {
    /// The total of `lines`.
    pub fn of(lines: &[BenchLine]) -> BenchTotal {
        BenchTotal {
            nodes: lines.iter().map(|l| l.nodes).sum(),
            time: lines.iter().map(|l| l.time).sum(),
        }
    }
}

impl fmt::Display for BenchTotal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nps = self.nodes as f64 / self.time.as_secs_f64().max(1e-9);
        write!(f, "{} nodes {nps:.0} nps", self.nodes)
    }
}

/// Searches every bench position (at `depth` if given, else each position's own depth) with
/// `threads` threads and the evaluation `network` (none: the hand-written one), calling `each`
/// after every position; `each` may end the run early (its caller's output gone), and so may
/// `control`'s `stop` (the position being searched is then cut short and left out); either
/// returns the positions searched so far.
pub fn run(
    depth: Option<u32>,
    threads: usize,
    network: Option<Arc<Network>>,
    control: &Control,
    mut each: impl FnMut(&BenchLine) -> ControlFlow<()>,
) -> Vec<BenchLine> {
    let mut searcher = Searcher::new(16, threads);
    searcher.options.network = network;
    let mut out = Vec::new();
    for (number, (fen, d)) in (1..).zip(POSITIONS) {
        let game = Game::from_fen(fen, Rules::nine()).expect("bench positions are valid");
        searcher.new_game();
        let limits = Limits {
            depth: Some(depth.unwrap_or(d)),
            ..Limits::default()
        };
        // The clock of each search starts anew; a `stop` asked for meanwhile is kept.
        control.restart_clock();
        let started = Instant::now();
        let r = searcher.search(&game, &limits, control, &mut |_| {});
        if control.is_stopped() {
            break;
        }
        let line = BenchLine {
            number,
            fen,
            depth: depth.unwrap_or(d),
            nodes: r.nodes,
            best: r.best.map_or(
                "none".into(),
                super::super::rules::moves::Move::turn_notation,
            ),
            time: started.elapsed(),
        };
        let flow = each(&line);
        out.push(line);
        if flow.is_break() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_not_over() {
        for (fen, _) in POSITIONS {
            let game = Game::from_fen(fen, Rules::nine()).unwrap();
            assert!(game.outcome().is_none(), "{fen}");
        }
    }

    #[test]
    fn the_bench_searches_with_the_network_it_is_given() {
        let control = Control::new();
        let nodes = |net: Option<Arc<Network>>| {
            let lines = run(Some(4), 1, net, &control, |_| ControlFlow::Continue(()));
            assert_eq!(lines.len(), POSITIONS.len());
            BenchTotal::of(&lines).nodes
        };
        let net = Arc::new(network::tests::random_network(3, &Rules::nine()));
        let (without, with) = (nodes(None), nodes(Some(Arc::clone(&net))));
        assert_ne!(without, with, "the network changed no node");
        assert_eq!(nodes(Some(net)), with, "the same network, another count");
    }
}
