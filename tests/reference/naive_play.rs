//! The naive model in play: reading and writing position strings, playing moves, the outcome of
//! a position and of a game, and the naive perft.

use super::board::idx;
use super::naive::{snapshot, NMove, NOutcome, NState, Naive, Reforming, Side};

impl Naive {
    /// Reads a position string (docs/rules.md, "Position string") into the naive state. The
    /// formed-mills mask (field 15) must be 0 unless re-forming is allowed: the naive model does
    /// not share the crate's line numbering.
    pub(crate) fn read_fen(&self, text: &str) -> NState {
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
    pub(crate) fn play(&self, s: &mut NState, m: &NMove) {
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
    pub(crate) fn outcome(&self, s: &NState) -> Option<NOutcome> {
        if s.pending > 0 {
            return None;
        }
        let winner = s.side.other();
        if self.lost_on_material(s) {
            return Some(NOutcome::Wins(winner, "fewer than three"));
        }
        if s.board.iter().all(std::option::Option::is_some) {
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
    pub(crate) fn game_outcome(&self, s: &NState) -> Option<NOutcome> {
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

    /// The position string of docs/rules.md, "Position string", but for field 15 (the formed-mills
    /// mask, taken from `mask`).
    pub(crate) fn fen(&self, s: &NState, mask: &str) -> String {
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
    pub(crate) fn perft(&self, s: &NState, depth: u32, turn: bool) -> u64 {
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
