//! The naive rules (docs/rules.md, "Standard game" and "Variants") and the legal moves they allow,
//! written from the rule text alone: nothing of the crate's rules code but the options read into
//! the naive rules.

use super::board::{Board, NAMES};
use moulin::rules::{self, Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform};
use moulin::{Color, Rules};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Side {
    W,
    B,
}

impl Side {
    pub(crate) fn other(self) -> Side {
        match self {
            Side::W => Side::B,
            Side::B => Side::W,
        }
    }
    pub(crate) fn i(self) -> usize {
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
pub(crate) enum Reforming {
    Allowed,
    NoRemoval,
    Illegal,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct NRules {
    first: Side,
    pieces: u8,
    diagonals: bool,
    /// Fly with this many pieces on the board or fewer; `None`: never.
    fly_at: Option<u8>,
    protect: Protect,
    per_mill: bool,
    pub(crate) reform: Reforming,
    pub(crate) no_capture: Option<u32>,
    pub(crate) repetition: bool,
    move_while_placing: bool,
    pub(crate) full_board_draws: bool,
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
pub(crate) enum NOutcome {
    Wins(Side, &'static str),
    Draw(&'static str),
}
/// A naive move: a placement (`from` none), a step, or a lone removal (`to` none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NMove {
    pub(crate) from: Option<usize>,
    pub(crate) to: Option<usize>,
    pub(crate) removals: Vec<usize>,
}

impl NMove {
    pub(crate) fn step_text(&self) -> String {
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

    pub(crate) fn text(&self) -> String {
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
/// A piece: its side and its identity (unique over the whole game, never reused).
type Piece = (Side, u32);

#[derive(Clone)]
pub(crate) struct NState {
    pub(crate) board: [Option<Piece>; 24],
    pub(crate) hand: [u8; 2],
    pub(crate) next_id: u32,
    pub(crate) side: Side,
    pub(crate) pending: u8,
    pub(crate) no_capture: u32,
    pub(crate) fullmove: u32,
    /// Every (side, mill, sorted piece ids) that has ever given its owner a removal.
    pub(crate) spent: Vec<(Side, usize, [u32; 3])>,
    /// Positions (board colours, side, hands) at the start of each turn, for repetition.
    pub(crate) history: Vec<([Option<Side>; 24], Side, [u8; 2])>,
}

pub(crate) fn snapshot(s: &NState) -> ([Option<Side>; 24], Side, [u8; 2]) {
    let mut b = [None; 24];
    for (p, c) in s.board.iter().enumerate() {
        b[p] = c.map(|(side, _)| side);
    }
    (b, s.side, s.hand)
}

/// What a step does: the mills it closes that earn a removal, and the removals due.
pub(crate) struct StepEffect {
    pub(crate) fresh: Vec<usize>,
    pub(crate) due: usize,
}

pub(crate) struct Naive {
    pub(crate) r: NRules,
    pub(crate) b: Board,
}

impl Naive {
    pub(crate) fn new(rules: &Rules) -> Naive {
        let r = naive_rules(rules);
        Naive {
            b: Board::new(r.diagonals),
            r,
        }
    }

    pub(crate) fn start(&self) -> NState {
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
    pub(crate) fn on_board(&self, s: &NState, side: Side) -> usize {
        s.board
            .iter()
            .filter(|c| matches!(c, Some((x, _)) if *x == side))
            .count()
    }

    pub(crate) fn color(board: &[Option<Piece>; 24], p: usize) -> Option<Side> {
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
    pub(crate) fn removable(&self, board: &[Option<Piece>; 24], victim: Side) -> Vec<usize> {
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
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut b = *board;
        rec(self, &mut b, victim, due, &mut Vec::new(), &mut out);
        out
    }

    pub(crate) fn can_fly(&self, s: &NState) -> bool {
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
    pub(crate) fn stepped(
        &self,
        s: &NState,
        from: Option<usize>,
        to: usize,
    ) -> [Option<Piece>; 24] {
        let mut b = s.board;
        let piece = match from {
            Some(f) => b[f].take().expect("a piece to move"),
            None => (s.side, s.next_id),
        };
        b[to] = Some(piece);
        b
    }

    /// The effect of a step, or `None` when re-forming makes it illegal.
    pub(crate) fn effect(&self, s: &NState, from: Option<usize>, to: usize) -> Option<StepEffect> {
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

    pub(crate) fn lost_on_material(&self, s: &NState) -> bool {
        s.pending == 0 && self.on_board(s, s.side) + (s.hand[s.side.i()] as usize) < 3
    }

    /// The legal moves; `turn`: a step with its removals is one move.
    pub(crate) fn moves(&self, s: &NState, turn: bool) -> Vec<NMove> {
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
}
