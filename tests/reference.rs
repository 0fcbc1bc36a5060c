//! An independent check of the move generator: a naive reference implementation of every rule
//! of RULES.md (written from the rule text, with plain arrays, its own point order and its own
//! hand-written neighbour and mill lists), played in parallel with the crate over thousands of
//! seeded random games per rule set. At every position the two must agree on the legal moves in
//! both conventions, the move counts, the outcome (position and game), and the crate's Zobrist
//! key and position string must be self-consistent.
//!
//! The only things taken from the crate are `Rules` (mapped field by field to the naive rules),
//! the position/game to drive, and the results compared. The naive model tracks piece identities
//! itself, so the re-forming rules are modelled independently too.

use moulin::rng::Rng;
use moulin::rules::fen;
use moulin::rules::movegen;
use moulin::rules::notation;
use moulin::rules::notation::Convention;
use moulin::rules::position::{DrawReason, Outcome, WinReason};
use moulin::rules::{self, Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform};
use moulin::{Color, Game, Move, Rules};
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------------
// The board, from RULES.md §1, in the naive model's own order (rows top to bottom).

const NAMES: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

const EDGES: [(&str, &str); 32] = [
    // Outer square.
    ("a7", "d7"),
    ("d7", "g7"),
    ("g7", "g4"),
    ("g4", "g1"),
    ("g1", "d1"),
    ("d1", "a1"),
    ("a1", "a4"),
    ("a4", "a7"),
    // Middle square.
    ("b6", "d6"),
    ("d6", "f6"),
    ("f6", "f4"),
    ("f4", "f2"),
    ("f2", "d2"),
    ("d2", "b2"),
    ("b2", "b4"),
    ("b4", "b6"),
    // Inner square.
    ("c5", "d5"),
    ("d5", "e5"),
    ("e5", "e4"),
    ("e4", "e3"),
    ("e3", "d3"),
    ("d3", "c3"),
    ("c3", "c4"),
    ("c4", "c5"),
    // Spokes.
    ("d7", "d6"),
    ("d6", "d5"),
    ("g4", "f4"),
    ("f4", "e4"),
    ("d1", "d2"),
    ("d2", "d3"),
    ("a4", "b4"),
    ("b4", "c4"),
];

const DIAGONAL_EDGES: [(&str, &str); 8] = [
    ("a7", "b6"),
    ("b6", "c5"),
    ("g7", "f6"),
    ("f6", "e5"),
    ("g1", "f2"),
    ("f2", "e3"),
    ("a1", "b2"),
    ("b2", "c3"),
];

const MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["g7", "g4", "g1"],
    ["g1", "d1", "a1"],
    ["a1", "a4", "a7"],
    ["b6", "d6", "f6"],
    ["f6", "f4", "f2"],
    ["f2", "d2", "b2"],
    ["b2", "b4", "b6"],
    ["c5", "d5", "e5"],
    ["e5", "e4", "e3"],
    ["e3", "d3", "c3"],
    ["c3", "c4", "c5"],
    ["d7", "d6", "d5"],
    ["g4", "f4", "e4"],
    ["d1", "d2", "d3"],
    ["a4", "b4", "c4"],
];

const DIAGONAL_MILLS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["g1", "f2", "e3"],
    ["a1", "b2", "c3"],
];

fn idx(name: &str) -> usize {
    NAMES
        .iter()
        .position(|&n| n == name)
        .unwrap_or_else(|| panic!("unknown point {name}"))
}

/// Neighbour lists and mill lists of one board shape.
struct Board {
    neighbours: Vec<Vec<usize>>,
    mills: Vec<[usize; 3]>,
}

impl Board {
    fn new(diagonals: bool) -> Board {
        let mut neighbours = vec![Vec::new(); 24];
        let mut edges: Vec<(&str, &str)> = EDGES.to_vec();
        let mut mills: Vec<[&str; 3]> = MILLS.to_vec();
        if diagonals {
            edges.extend_from_slice(&DIAGONAL_EDGES);
            mills.extend_from_slice(&DIAGONAL_MILLS);
        }
        for (a, b) in edges {
            neighbours[idx(a)].push(idx(b));
            neighbours[idx(b)].push(idx(a));
        }
        let mills = mills
            .iter()
            .map(|m| [idx(m[0]), idx(m[1]), idx(m[2])])
            .collect();
        Board { neighbours, mills }
    }
}

// ---------------------------------------------------------------------------------------------
// The naive rules (RULES.md §2-3).

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    W,
    B,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::W => Side::B,
            Side::B => Side::W,
        }
    }
    fn i(self) -> usize {
        match self {
            Side::W => 0,
            Side::B => 1,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Protect {
    UnlessAll,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reforming {
    Allowed,
    NoRemoval,
    Illegal,
}

#[derive(Clone, Copy, Debug)]
struct NRules {
    first: Side,
    pieces: u8,
    diagonals: bool,
    /// Fly with this many pieces on the board or fewer; `None`: never.
    fly_at: Option<u8>,
    protect: Protect,
    per_mill: bool,
    reform: Reforming,
    no_capture: Option<u32>,
    repetition: bool,
    move_while_placing: bool,
    full_board_draws: bool,
}

/// Reads the crate's rule options into the naive rules.
fn naive_rules(r: &Rules) -> NRules {
    NRules {
        first: match r.first {
            Color::White => Side::W,
            Color::Black => Side::B,
        },
        pieces: r.pieces,
        diagonals: r.board == moulin::BoardKind::Diagonal,
        fly_at: match r.flying {
            Flying::AtMost(n) => Some(n),
            Flying::Never => None,
        },
        protect: match r.protection {
            MillProtection::UnlessAllInMills => Protect::UnlessAll,
            MillProtection::Always => Protect::Always,
            MillProtection::Never => Protect::Never,
        },
        per_mill: r.multi_mill == MultiMill::OnePerMill,
        reform: match r.reform {
            Reform::Allowed => Reforming::Allowed,
            Reform::NoRemoval => Reforming::NoRemoval,
            Reform::Illegal => Reforming::Illegal,
        },
        no_capture: r.no_capture.map(u32::from),
        repetition: r.repetition == rules::Repetition::Threefold,
        move_while_placing: r.placing_moves == PlacingMoves::PlaceOrMove,
        full_board_draws: r.full_board == FullBoard::Draw,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum NOutcome {
    Wins(Side, &'static str),
    Draw(&'static str),
}

fn crate_outcome(o: Option<Outcome>) -> Option<NOutcome> {
    let side = |c: Color| match c {
        Color::White => Side::W,
        Color::Black => Side::B,
    };
    o.map(|o| match o {
        Outcome::Win(c, WinReason::FewerThanThree) => NOutcome::Wins(side(c), "fewer than three"),
        Outcome::Win(c, WinReason::Blocked) => NOutcome::Wins(side(c), "blocked"),
        Outcome::Draw(DrawReason::Repetition) => NOutcome::Draw("repetition"),
        Outcome::Draw(DrawReason::NoCapture) => NOutcome::Draw("no capture"),
        Outcome::Draw(DrawReason::FullBoard) => NOutcome::Draw("full board"),
    })
}

/// A naive move: a placement (`from` none), a step, or a lone removal (`to` none).
#[derive(Clone, Debug, PartialEq, Eq)]
struct NMove {
    from: Option<usize>,
    to: Option<usize>,
    removals: Vec<usize>,
}

impl NMove {
    fn step_text(&self) -> String {
        let mut s = String::new();
        if let Some(f) = self.from {
            s.push_str(NAMES[f]);
            s.push('-');
        }
        if let Some(t) = self.to {
            s.push_str(NAMES[t]);
        }
        s
    }

    fn text(&self) -> String {
        let mut s = self.step_text();
        let mut rem: Vec<&str> = self.removals.iter().map(|&r| NAMES[r]).collect();
        rem.sort_unstable();
        for r in rem {
            s.push('x');
            s.push_str(r);
        }
        s
    }
}

/// The same canonical text for a crate move: removals sorted by name.
fn crate_text(m: Move) -> String {
    let t = m.turn_notation();
    let mut parts = t.split('x');
    let step = parts.next().unwrap_or("").to_string();
    let mut rem: Vec<&str> = parts.collect();
    rem.sort_unstable();
    let mut s = step;
    for r in rem {
        s.push('x');
        s.push_str(r);
    }
    s
}

/// A piece: its side and its identity (unique over the whole game, never reused).
type Piece = (Side, u32);

#[derive(Clone)]
struct NState {
    board: [Option<Piece>; 24],
    hand: [u8; 2],
    next_id: u32,
    side: Side,
    pending: u8,
    no_capture: u32,
    fullmove: u32,
    /// Every (side, mill, sorted piece ids) that has ever given its owner a removal.
    spent: Vec<(Side, usize, [u32; 3])>,
    /// Positions (board colours, side, hands) at the start of each turn, for repetition.
    history: Vec<([Option<Side>; 24], Side, [u8; 2])>,
}

/// What a step does: the mills it closes that earn a removal, and the removals due.
struct StepEffect {
    fresh: Vec<usize>,
    due: usize,
}

struct Naive {
    r: NRules,
    b: Board,
}

impl Naive {
    fn new(rules: &Rules) -> Naive {
        let r = naive_rules(rules);
        Naive {
            b: Board::new(r.diagonals),
            r,
        }
    }

    fn start(&self) -> NState {
        let mut s = NState {
            board: [None; 24],
            hand: [self.r.pieces; 2],
            next_id: 0,
            side: self.r.first,
            pending: 0,
            no_capture: 0,
            fullmove: 1,
            spent: Vec::new(),
            history: Vec::new(),
        };
        s.history.push(snapshot(&s));
        s
    }

    /// Reads a position string (RULES.md §5) into the naive state. The formed-mills mask (field
    /// 15) must be 0 unless re-forming is allowed: the naive model does not share the crate's
    /// line numbering.
    fn read_fen(&self, text: &str) -> NState {
        let f: Vec<&str> = text.split_whitespace().collect();
        let rings = [
            ["d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"],
            ["d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"],
            ["d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"],
        ];
        let mut s = self.start();
        s.history.clear();
        for (ring, cells) in rings.iter().zip(f[0].split('/')) {
            for (name, ch) in ring.iter().zip(cells.chars()) {
                let side = match ch {
                    'O' => Side::W,
                    '@' => Side::B,
                    _ => continue,
                };
                s.board[idx(name)] = Some((side, s.next_id));
                s.next_id += 1;
            }
        }
        s.side = if f[1] == "w" { Side::W } else { Side::B };
        s.hand = [f[5].parse().unwrap(), f[7].parse().unwrap()];
        s.pending = f[8].parse::<u8>().unwrap() + f[9].parse::<u8>().unwrap();
        assert!(
            f[14] == "0" || self.r.reform == Reforming::Allowed,
            "naive reader: mask {}",
            f[14]
        );
        s.no_capture = f[15].parse().unwrap();
        s.fullmove = f[16].parse().unwrap();
        if s.pending == 0 {
            s.history.push(snapshot(&s));
        }
        s
    }

    fn on_board(&self, s: &NState, side: Side) -> usize {
        s.board
            .iter()
            .filter(|c| matches!(c, Some((x, _)) if *x == side))
            .count()
    }

    fn color(board: &[Option<Piece>; 24], p: usize) -> Option<Side> {
        board[p].map(|(c, _)| c)
    }

    /// Whether the piece on `p` stands in a mill of its own colour.
    fn in_mill(&self, board: &[Option<Piece>; 24], p: usize) -> bool {
        let Some(c) = Naive::color(board, p) else {
            return false;
        };
        self.b
            .mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| Naive::color(board, q) == Some(c)))
    }

    /// The pieces of `victim` that may be removed now (mill protection).
    fn removable(&self, board: &[Option<Piece>; 24], victim: Side) -> Vec<usize> {
        let theirs: Vec<usize> = (0..24)
            .filter(|&p| Naive::color(board, p) == Some(victim))
            .collect();
        let free: Vec<usize> = theirs
            .iter()
            .copied()
            .filter(|&p| !self.in_mill(board, p))
            .collect();
        match self.r.protect {
            Protect::Never => theirs,
            Protect::Always => free,
            Protect::UnlessAll => {
                if free.is_empty() {
                    theirs
                } else {
                    free
                }
            }
        }
    }

    /// All sets of up to `due` removals, each legal when taken, deduplicated.
    fn removal_sets(
        &self,
        board: &[Option<Piece>; 24],
        victim: Side,
        due: usize,
    ) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        fn rec(
            n: &Naive,
            board: &mut [Option<Piece>; 24],
            victim: Side,
            left: usize,
            taken: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            let can = if left == 0 {
                Vec::new()
            } else {
                n.removable(board, victim)
            };
            if can.is_empty() {
                let mut set = taken.clone();
                set.sort_unstable();
                if !out.contains(&set) {
                    out.push(set);
                }
                return;
            }
            for p in can {
                let keep = board[p].take();
                taken.push(p);
                rec(n, board, victim, left - 1, taken, out);
                taken.pop();
                board[p] = keep;
            }
        }
        let mut b = *board;
        rec(self, &mut b, victim, due, &mut Vec::new(), &mut out);
        out
    }

    fn can_fly(&self, s: &NState) -> bool {
        match self.r.fly_at {
            Some(n) => s.hand[s.side.i()] == 0 && self.on_board(s, s.side) <= n as usize,
            None => false,
        }
    }

    /// Every (from, to) step the side to move may try, before the re-forming rule.
    fn steps(&self, s: &NState) -> Vec<(Option<usize>, usize)> {
        let us = s.side;
        let mut out = Vec::new();
        let empty: Vec<usize> = (0..24).filter(|&p| s.board[p].is_none()).collect();
        if s.hand[us.i()] > 0 {
            for &to in &empty {
                out.push((None, to));
            }
        }
        if s.hand[us.i()] == 0 || self.r.move_while_placing {
            let fly = self.can_fly(s);
            for from in 0..24 {
                if Naive::color(&s.board, from) != Some(us) {
                    continue;
                }
                for &to in &empty {
                    if fly || self.b.neighbours[from].contains(&to) {
                        out.push((Some(from), to));
                    }
                }
            }
        }
        out
    }

    /// The board after a step, and the piece that arrived.
    fn stepped(&self, s: &NState, from: Option<usize>, to: usize) -> [Option<Piece>; 24] {
        let mut b = s.board;
        let piece = match from {
            Some(f) => b[f].take().expect("a piece to move"),
            None => (s.side, s.next_id),
        };
        b[to] = Some(piece);
        b
    }

    /// The effect of a step, or `None` when re-forming makes it illegal.
    fn effect(&self, s: &NState, from: Option<usize>, to: usize) -> Option<StepEffect> {
        let b = self.stepped(s, from, to);
        let mut fresh = Vec::new();
        for (mi, m) in self.b.mills.iter().enumerate() {
            if !m.contains(&to) || !m.iter().all(|&q| Naive::color(&b, q) == Some(s.side)) {
                continue;
            }
            let mut ids = [0u32; 3];
            for (k, &q) in m.iter().enumerate() {
                ids[k] = b[q].unwrap().1;
            }
            ids.sort_unstable();
            let same = s.spent.contains(&(s.side, mi, ids));
            match (self.r.reform, same) {
                (Reforming::Illegal, true) => return None,
                (Reforming::NoRemoval, true) => {}
                _ => fresh.push(mi),
            }
        }
        let due = if self.r.per_mill {
            fresh.len()
        } else {
            fresh.len().min(1)
        };
        Some(StepEffect { fresh, due })
    }

    fn lost_on_material(&self, s: &NState) -> bool {
        s.pending == 0 && self.on_board(s, s.side) + (s.hand[s.side.i()] as usize) < 3
    }

    /// The legal moves; `turn`: a step with its removals is one move.
    fn moves(&self, s: &NState, turn: bool) -> Vec<NMove> {
        if s.pending > 0 {
            return self
                .removable(&s.board, s.side.other())
                .into_iter()
                .map(|r| NMove {
                    from: None,
                    to: None,
                    removals: vec![r],
                })
                .collect();
        }
        if self.lost_on_material(s) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (from, to) in self.steps(s) {
            let Some(e) = self.effect(s, from, to) else {
                continue;
            };
            let step = NMove {
                from,
                to: Some(to),
                removals: Vec::new(),
            };
            if !turn || e.due == 0 {
                out.push(step);
                continue;
            }
            let b = self.stepped(s, from, to);
            for set in self.removal_sets(&b, s.side.other(), e.due) {
                out.push(NMove {
                    removals: set,
                    ..step.clone()
                });
            }
        }
        out
    }

    fn end_turn(&self, s: &mut NState, removed: bool, moved: bool) {
        if removed {
            s.no_capture = 0;
        } else if moved {
            s.no_capture += 1;
        }
        if s.side == Side::B {
            s.fullmove += 1;
        }
        s.side = s.side.other();
        s.history.push(snapshot(s));
    }

    fn remove(&self, s: &mut NState, p: usize) {
        assert_eq!(Naive::color(&s.board, p), Some(s.side.other()));
        s.board[p] = None;
    }

    /// Plays a move of `moves` (either convention).
    fn play(&self, s: &mut NState, m: &NMove) {
        let Some(to) = m.to else {
            for &r in &m.removals {
                self.remove(s, r);
                s.pending -= 1;
            }
            if s.pending > 0 && self.removable(&s.board, s.side.other()).is_empty() {
                s.pending = 0;
            }
            if s.pending == 0 {
                self.end_turn(s, true, false);
            }
            return;
        };
        let e = self.effect(s, m.from, to).expect("a legal step");
        s.board = self.stepped(s, m.from, to);
        if m.from.is_none() {
            s.hand[s.side.i()] -= 1;
            s.next_id += 1;
        }
        let mut due = e.due;
        if self.removable(&s.board, s.side.other()).is_empty() {
            due = 0;
        }
        if due > 0 {
            for &mi in &e.fresh {
                let mut ids = [0u32; 3];
                for (k, &q) in self.b.mills[mi].iter().enumerate() {
                    ids[k] = s.board[q].unwrap().1;
                }
                ids.sort_unstable();
                s.spent.push((s.side, mi, ids));
            }
        }
        if !m.removals.is_empty() {
            for &r in &m.removals {
                self.remove(s, r);
            }
            self.end_turn(s, true, m.from.is_some());
        } else if due > 0 {
            s.pending = due as u8;
        } else {
            self.end_turn(s, false, m.from.is_some());
        }
    }

    /// The outcome of the position alone (no repetition).
    fn outcome(&self, s: &NState) -> Option<NOutcome> {
        if s.pending > 0 {
            return None;
        }
        let winner = s.side.other();
        if self.lost_on_material(s) {
            return Some(NOutcome::Wins(winner, "fewer than three"));
        }
        if s.board.iter().all(|c| c.is_some()) {
            return Some(if self.r.full_board_draws {
                NOutcome::Draw("full board")
            } else {
                NOutcome::Wins(winner, "blocked")
            });
        }
        if let Some(n) = self.r.no_capture {
            if s.no_capture >= n {
                return Some(NOutcome::Draw("no capture"));
            }
        }
        if self.moves(s, false).is_empty() {
            return Some(NOutcome::Wins(winner, "blocked"));
        }
        None
    }

    /// The outcome with the game's history (threefold repetition).
    fn game_outcome(&self, s: &NState) -> Option<NOutcome> {
        if let Some(o) = self.outcome(s) {
            return Some(o);
        }
        if self.r.repetition && s.pending == 0 {
            let now = snapshot(s);
            if s.history.iter().filter(|&&h| h == now).count() >= 3 {
                return Some(NOutcome::Draw("repetition"));
            }
        }
        None
    }

    /// The position string of RULES.md §5, but for field 15 (the formed-mills mask, taken from
    /// `mask`).
    fn fen(&self, s: &NState, mask: &str) -> String {
        let rings = [
            ["d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"],
            ["d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"],
            ["d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"],
        ];
        let board: Vec<String> = rings
            .iter()
            .map(|ring| {
                ring.iter()
                    .map(|n| match Naive::color(&s.board, idx(n)) {
                        Some(Side::W) => 'O',
                        Some(Side::B) => '@',
                        None => '*',
                    })
                    .collect()
            })
            .collect();
        let phase = if self.outcome(s).is_some() {
            'o'
        } else if s.hand[0] + s.hand[1] > 0 {
            'p'
        } else {
            'm'
        };
        let action = if s.pending > 0 {
            'r'
        } else if s.hand[s.side.i()] > 0 {
            'p'
        } else {
            's'
        };
        let pend = |side: Side| if side == s.side { s.pending } else { 0 };
        format!(
            "{} {} {phase} {action} {} {} {} {} {} {} -1 -1 -1 -1 {mask} {} {}",
            board.join("/"),
            if s.side == Side::W { 'w' } else { 'b' },
            self.on_board(s, Side::W),
            s.hand[0],
            self.on_board(s, Side::B),
            s.hand[1],
            pend(Side::W),
            pend(Side::B),
            s.no_capture,
            s.fullmove
        )
    }

    /// Naive perft: draw rules ignored, a finished game has no moves.
    fn perft(&self, s: &NState, depth: u32, turn: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(s, turn);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for m in &moves {
            let mut child = s.clone();
            child.history.clear();
            self.play(&mut child, m);
            total += self.perft(&child, depth - 1, turn);
        }
        total
    }
}

fn snapshot(s: &NState) -> ([Option<Side>; 24], Side, [u8; 2]) {
    let mut b = [None; 24];
    for (p, c) in s.board.iter().enumerate() {
        b[p] = c.map(|(side, _)| side);
    }
    (b, s.side, s.hand)
}

// ---------------------------------------------------------------------------------------------
// The random games.

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    positions: usize,
    pending: usize,
    flying: usize,
    moving: usize,
    outcomes: HashMap<String, usize>,
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_unstable();
    v
}

/// Compares the crate and the naive model at one position; panics with the position string and
/// the moves played on any disagreement.
fn compare(n: &Naive, game: &Game, s: &NState, played: &[String]) {
    let pos = game.position();
    let ctx = || format!("{} after {}", fen::write(pos), played.join(" "));
    for (conv, turn) in [(Convention::Turn, true), (Convention::Action, false)] {
        let ours = sorted(n.moves(s, turn).iter().map(NMove::text).collect());
        let list = movegen::legal_moves(pos, conv);
        let theirs = sorted(list.iter().map(|&m| crate_text(m)).collect());
        if ours != theirs {
            let extra: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
            let missing: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
            panic!(
                "{conv:?} moves differ at {}\ncrate only: {extra:?}\nnaive only: {missing:?}",
                ctx()
            );
        }
        let mut dedup = theirs.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), theirs.len(), "duplicate moves at {}", ctx());
        assert_eq!(
            movegen::count(pos, conv),
            list.len() as u64,
            "{conv:?} count at {}",
            ctx()
        );
    }
    assert_eq!(
        crate_outcome(pos.outcome()),
        n.outcome(s),
        "position outcome at {}",
        ctx()
    );
    assert_eq!(
        crate_outcome(game.outcome()),
        n.game_outcome(s),
        "game outcome at {}",
        ctx()
    );
    assert_eq!(pos.key(), pos.compute_key(), "incremental key at {}", ctx());
    let text = fen::write(pos);
    let back = fen::read(&text, pos.rules())
        .unwrap_or_else(|e| panic!("cannot read back {text}: {e} ({})", ctx()));
    assert_eq!(fen::write(&back), text, "position string round trip");
    let mask = text.split(' ').nth(14).unwrap();
    assert_eq!(n.fen(s, mask), text, "position string fields at {}", ctx());
    if pos.rules().reform == Reform::Allowed {
        // Nothing is lost in the string: the read-back position has the same moves.
        let a = sorted(
            movegen::legal_moves(&back, Convention::Turn)
                .into_iter()
                .map(crate_text)
                .collect(),
        );
        let b = sorted(
            movegen::legal_moves(pos, Convention::Turn)
                .into_iter()
                .map(crate_text)
                .collect(),
        );
        assert_eq!(a, b, "moves after reading back {text}");
    }
}

/// Plays `games` random games under `rules` from the empty board, comparing at every position.
fn random_games(rules: Rules, games: usize, seed: u64) -> Tally {
    let n = Naive::new(&rules);
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for g in 0..games {
        let mut game = Game::new(rules);
        let mut s = n.start();
        let mut played = Vec::new();
        // Half the games are played action by action, so that removals stand pending.
        let turn = g % 2 == 0;
        let conv = if turn {
            Convention::Turn
        } else {
            Convention::Action
        };
        // How eager this game is to close mills: some games reach flying, some stay crowded.
        let eager = rng.below(4);
        for _ply in 0..300 {
            compare(&n, &game, &s, &played);
            tally.positions += 1;
            if s.pending > 0 {
                tally.pending += 1;
            } else if s.hand[s.side.i()] == 0 {
                if n.can_fly(&s) {
                    tally.flying += 1;
                } else {
                    tally.moving += 1;
                }
            }
            if let Some(o) = n.game_outcome(&s) {
                *tally.outcomes.entry(format!("{o:?}")).or_default() += 1;
                break;
            }
            let moves = n.moves(&s, turn);
            let closing: Vec<&NMove> = moves
                .iter()
                .filter(|m| {
                    !m.removals.is_empty()
                        || m.to
                            .is_some_and(|to| n.effect(&s, m.from, to).is_some_and(|e| e.due > 0))
                })
                .collect();
            let chosen = if !closing.is_empty() && rng.below(4) < eager {
                closing[rng.below(closing.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            let text = chosen.text();
            let mv = movegen::legal_moves(game.position(), conv)
                .into_iter()
                .find(|&m| crate_text(m) == text)
                .expect("the move lists agree");
            // The notation reads the move back (removals in either order).
            let token = if turn {
                mv.turn_notation()
            } else {
                mv.action_tokens().join(" ")
            };
            assert_eq!(
                notation::parse_move(game.position(), &token),
                Ok(mv),
                "{token} at {}",
                fen::write(game.position())
            );
            if chosen.removals.len() > 1 {
                let mut rev = chosen.clone();
                rev.removals.reverse();
                let mut t = rev.step_text();
                for &r in &rev.removals {
                    t = t + "x" + NAMES[r];
                }
                assert_eq!(notation::parse_move(game.position(), &t), Ok(mv), "{t}");
            }
            game.play(mv);
            n.play(&mut s, &chosen);
            played.push(token);
        }
        tally.games += 1;
    }
    tally
}

fn run(name: &str, rules: Rules, games: usize, seed: u64) {
    let t = std::time::Instant::now();
    let tally = random_games(rules, games, seed);
    eprintln!(
        "{name}: {} games, {} positions ({} moving, {} flying, {} pending), outcomes {:?}, {:.1} s",
        tally.games,
        tally.positions,
        tally.moving,
        tally.flying,
        tally.pending,
        tally.outcomes,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(tally.games, games);
    assert!(tally.moving > 0 && tally.pending > 0, "{name}: {tally:?}");
}

fn games() -> usize {
    std::env::var("REFERENCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

fn preset(name: &str) -> Rules {
    Rules::preset(name).unwrap()
}

#[test]
fn preset_nine() {
    run("nine", preset("nine"), games(), 1);
}

#[test]
fn preset_twelve() {
    run("twelve", preset("twelve"), games(), 2);
}

#[test]
fn preset_lasker() {
    run("lasker", preset("lasker"), games(), 3);
}

#[test]
fn preset_morabaraba() {
    run("morabaraba", preset("morabaraba"), games(), 4);
}

#[test]
fn preset_no_reform() {
    run("no-reform", preset("no-reform"), games(), 5);
}

#[test]
fn preset_protected_mills() {
    run("protected-mills", preset("protected-mills"), games(), 6);
}

#[test]
fn every_preset_is_covered() {
    assert_eq!(
        rules::PRESETS,
        [
            "nine",
            "twelve",
            "lasker",
            "morabaraba",
            "no-reform",
            "protected-mills"
        ]
    );
}

#[test]
fn flying_never_black_first() {
    let r = Rules {
        flying: Flying::Never,
        first: Color::Black,
        ..Rules::nine()
    };
    run("flying never, black first", r, games(), 7);
}

#[test]
fn flying_at_four_protection_never() {
    let r = Rules {
        flying: Flying::AtMost(4),
        protection: MillProtection::Never,
        ..Rules::nine()
    };
    run("flying at 4, protection never", r, games(), 8);
}

#[test]
fn per_mill_reform_illegal() {
    let r = Rules {
        multi_mill: MultiMill::OnePerMill,
        reform: Reform::Illegal,
        ..Rules::nine()
    };
    run("per-mill, reform illegal", r, games(), 9);
}

#[test]
fn diagonal_per_mill_no_removal_always_protected() {
    let r = Rules {
        reform: Reform::NoRemoval,
        protection: MillProtection::Always,
        full_board: FullBoard::Blocked,
        ..preset("morabaraba")
    };
    run(
        "morabaraba, no-removal, always protected, full board blocks",
        r,
        games(),
        10,
    );
}

#[test]
fn few_pieces_short_draw_rules() {
    // Five pieces each and a short no-capture rule: games reach flying, repetition and the
    // no-capture draw quickly.
    let r = Rules {
        pieces: 5,
        no_capture: Some(12),
        reform: Reform::NoRemoval,
        ..Rules::nine()
    };
    run("5 pieces, no-capture 12, no-removal", r, games(), 11);
}

#[test]
fn lasker_twelve_reform_illegal() {
    let r = Rules {
        pieces: 12,
        placing_moves: PlacingMoves::PlaceOrMove,
        reform: Reform::Illegal,
        multi_mill: MultiMill::OnePerMill,
        ..preset("twelve")
    };
    run(
        "12 pieces, diagonals, moving while placing, reform illegal, per mill",
        r,
        games(),
        12,
    );
}

// ---------------------------------------------------------------------------------------------
// Naive perft against the figures of RULES.md §6 and the data file.

#[test]
fn naive_perft_agrees_with_rules_md() {
    let n = Naive::new(&Rules::nine());
    let s = n.start();
    let turn = [24, 552, 12144, 255024];
    for (d, &want) in turn.iter().enumerate() {
        assert_eq!(n.perft(&s, d as u32 + 1, true), want, "turn {}", d + 1);
        assert_eq!(n.perft(&s, d as u32 + 1, false), want, "action {}", d + 1);
    }
}

/// Plays one token (either form of RULES.md §4) in the naive model: a step alone or a lone
/// removal is an action; a step with its removals is a whole turn.
fn naive_token(n: &Naive, s: &mut NState, token: &str) {
    let mut parts = token.split('x');
    let step = parts.next().unwrap().to_string();
    let mut rem: Vec<&str> = parts.collect();
    rem.sort_unstable();
    let want = rem.iter().fold(step, |t, r| t + "x" + r);
    let m = n
        .moves(s, false)
        .into_iter()
        .chain(n.moves(s, true))
        .find(|m| m.text() == want)
        .unwrap_or_else(|| panic!("naive: no move {token}"));
    n.play(s, &m);
}

/// The figures of tests/data/perft.txt (format in its header): (id, variant, fen, moves,
/// convention is turn, depth, nodes).
type Figure = (String, String, String, Vec<String>, bool, u32, u64);

fn data_figures() -> Vec<Figure> {
    let mut out = Vec::new();
    let (mut id, mut variant, mut fen_text, mut moves) =
        (String::new(), String::new(), String::new(), Vec::new());
    for line in include_str!("data/perft.txt").lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap();
        match key {
            "id" => {
                id = rest.to_string();
                fen_text = "start".into();
                moves = Vec::new();
            }
            "variant" => variant = rest.to_string(),
            "fen" => fen_text = rest.to_string(),
            "moves" => moves = rest.split_whitespace().map(String::from).collect(),
            _ => {
                let f: Vec<&str> = rest.split_whitespace().collect();
                out.push((
                    id.clone(),
                    variant.clone(),
                    fen_text.clone(),
                    moves.clone(),
                    key == "turn",
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                ));
            }
        }
    }
    out
}

/// Runs the naive perft on every figure of the data file up to `limit` nodes.
fn naive_data_file(limit: u64) -> usize {
    let mut checked = 0;
    for (id, variant, fen_text, moves, turn, depth, nodes) in data_figures() {
        if nodes > limit {
            continue;
        }
        let n = Naive::new(&preset(&variant));
        let mut s = if fen_text == "start" {
            n.start()
        } else {
            n.read_fen(&fen_text)
        };
        for t in &moves {
            naive_token(&n, &mut s, t);
        }
        let conv = if turn { "turn" } else { "action" };
        assert_eq!(n.perft(&s, depth, turn), nodes, "{id} {conv} {depth}");
        checked += 1;
    }
    checked
}

#[test]
fn naive_perft_agrees_with_data_file() {
    let t = std::time::Instant::now();
    let checked = naive_data_file(1_000_000);
    eprintln!(
        "{checked} figures agreed by the naive perft in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(checked > 200);
}

/// Every figure, the slow ones too (minutes).
#[test]
#[ignore]
fn naive_perft_agrees_with_data_file_all() {
    let checked = naive_data_file(u64::MAX);
    assert_eq!(checked, data_figures().len());
}
