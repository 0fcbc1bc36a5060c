//! The position: who stands where, what is in hand, whose turn it is, a pending removal, the
//! no-capture count, piece identities for the re-forming rule, and the Zobrist key, kept up to
//! date move by move.
//!
//! This module is also where each rule option is read, once each: `may_move` (moving while
//! placing), `can_fly` (flying), `removable_from` (mill protection), `mills_formed` (re-forming
//! a mill), `removals_due` (double mills), `outcome` (no-capture rule, full board). Move
//! generation (`movegen`) only combines these.

use crate::rules::board::{Bitboard, ByColor, Color, Point, POINTS};
use crate::rules::board_symmetry::transform;
use crate::rules::moves::Move;
use crate::rules::zobrist;
use crate::rules::{Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform, Rules};

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The colour won, for this reason.
    Win(Color, WinReason),
    /// Drawn, for this reason.
    Draw(DrawReason),
}

/// Why a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// The loser had fewer than three pieces (board plus hand) at the start of a turn.
    FewerThanThree,
    /// The loser had no legal move.
    Blocked,
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    /// The same position stood a third time (docs/rules.md, "Draw rules").
    Repetition,
    /// The no-capture limit of plies without a removal was reached.
    NoCapture,
    /// The board was full at the start of a turn, under rules where that is a draw.
    FullBoard,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c, _) => Some(c),
            Outcome::Draw(_) => None,
        }
    }

    /// The result for `side`: 1 won, 0 drawn, -1 lost.
    pub fn value_for(self, side: Color) -> i8 {
        match self.winner() {
            Some(w) if w == side => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(self) -> &'static str {
        match self {
            Outcome::Win(Color::White, _) => "1-0",
            Outcome::Win(Color::Black, _) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// A short human description, such as `black wins: white is blocked`.
    pub fn describe(self) -> String {
        match self {
            Outcome::Win(c, WinReason::FewerThanThree) => {
                format!(
                    "{} wins: {} has fewer than three pieces",
                    c.name(),
                    (!c).name()
                )
            }
            Outcome::Win(c, WinReason::Blocked) => {
                format!("{} wins: {} has no legal move", c.name(), (!c).name())
            }
            Outcome::Draw(DrawReason::Repetition) => "draw by threefold repetition".into(),
            Outcome::Draw(DrawReason::NoCapture) => "draw by the no-capture rule".into(),
            Outcome::Draw(DrawReason::FullBoard) => "draw: the board is full".into(),
        }
    }
}

/// The mills a step would form, as `mills_formed` reads them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Formed {
    /// Lines (by index) that form and earn a removal.
    pub lines: u32,
    /// How many lines form and earn a removal.
    pub count: u8,
    /// The step re-forms a mill with the same pieces where the rules forbid it.
    pub illegal: bool,
}

/// A whole game state. Cheap to copy: the search copies it rather than undoing moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    rules: Rules,
    pieces: ByColor<Bitboard>,
    hand: ByColor<u8>,
    side: Color,
    /// Removals still owed by the side to move in the middle of its turn.
    pending: u8,
    /// Plies of moving since the last removal.
    no_capture: u16,
    fullmove: u16,
    key: u64,
    /// Identity of the piece on each point, unique per colour; only kept under a re-forming rule.
    ids: [u8; POINTS],
    /// Per colour: every (line, three pieces) that has earned its owner a removal, packed by
    /// `pack_spent`, sorted in decreasing order with unused slots (0) last; only kept under a
    /// re-forming rule (docs/rules.md, "Reform"): a mill that has given a removal with exactly
    /// these pieces never does again, even after the line gave a removal with other pieces in
    /// between, so each line may hold several records.
    spent: ByColor<[u16; SPENT_SLOTS]>,
}

/// Room for spent records per colour. A record names three pieces on the board (records that
/// name a removed piece are dropped), and records are only added in a turn that removes: at most
/// 12 standing mills of 12 pieces from a position string, plus at most 3 mills closed in each
/// of at most 10 removing turns (the opponent, with at most 12 pieces, has lost at 2).
const SPENT_SLOTS: usize = 42;

const fn choose(n: u16, k: u16) -> u16 {
    match k {
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        _ => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
    }
}

/// A spent record in 16 bits, to keep positions small (they are copied at every node): bit 15
/// set, the line in bits 8..13, and the rank of the piece ids `a < b < c` of `record` among the
/// 220 triples of ids 0..12, `C(a,1) + C(b,2) + C(c,3)` (the combinatorial number system).
fn pack_spent(line: usize, record: u16) -> u16 {
    let (a, b, c) = (record >> 8 & 15, record >> 4 & 15, record & 15);
    1 << 15 | (line as u16) << 8 | (choose(a, 1) + choose(b, 2) + choose(c, 3))
}

/// The line and the record (`Position::record`'s form) of a packed spent entry.
fn unpack_spent(entry: u16) -> (usize, u16) {
    let mut rank = entry & 0xff;
    let mut ids = [0u16; 3];
    for (k, id) in [(3u16, 2usize), (2, 1), (1, 0)] {
        let mut n = k - 1;
        while choose(n + 1, k) <= rank {
            n += 1;
        }
        rank -= choose(n, k);
        ids[id] = n;
    }
    let record = 0x8000 | ids[0] << 8 | ids[1] << 4 | ids[2];
    ((entry >> 8 & 31) as usize, record)
}

impl Position {
    /// The empty board with every piece in hand.
    pub fn start(rules: Rules) -> Position {
        let mut pos = Position {
            rules,
            pieces: ByColor::default(),
            hand: ByColor::new(rules.pieces, rules.pieces),
            side: rules.first,
            pending: 0,
            no_capture: 0,
            fullmove: 1,
            key: 0,
            ids: [0; POINTS],
            spent: ByColor::new([0; SPENT_SLOTS], [0; SPENT_SLOTS]),
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Builds a position from its parts, assigning fresh piece identities; used by the position
    /// string reader, which has checked every value. `standing_spent` holds, per colour, the lines
    /// whose standing mill has already earned its removal.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        rules: Rules,
        pieces: ByColor<Bitboard>,
        hand: ByColor<u8>,
        side: Color,
        pending: u8,
        no_capture: u16,
        fullmove: u16,
        standing_spent: ByColor<u32>,
    ) -> Position {
        let mut pos = Position {
            rules,
            pieces,
            hand,
            side,
            pending,
            no_capture,
            fullmove,
            key: 0,
            ids: [0; POINTS],
            spent: ByColor::new([0; SPENT_SLOTS], [0; SPENT_SLOTS]),
        };
        if pos.tracks_identity() {
            for c in Color::BOTH {
                for (id, pt) in pieces[c].iter().enumerate() {
                    pos.ids[pt.index()] = id as u8;
                }
                let t = rules.topology();
                for line in 0..t.line_count {
                    if standing_spent[c] & 1 << line != 0 {
                        let rec = pos.record(t.lines[line], None);
                        pos.add_spent(c, line, rec);
                    }
                }
            }
        }
        pos.key = pos.compute_key();
        pos
    }

    /// The image of this position under symmetry `s` of the board (`board_symmetry::transform`): the
    /// same hands, side, pending removals and counters. Piece identities are numbered afresh and
    /// only the standing mills keep their spent records, which is exact while no piece has moved
    /// (the placing phase) and whenever mills may be re-formed freely.
    pub fn transformed(&self, s: usize) -> Position {
        let t = self.rules.topology();
        let map_lines = |spent: u32| {
            let mut out = 0;
            for line in 0..t.line_count {
                if spent & 1 << line != 0 {
                    let image = transform(s, t.lines[line]);
                    if let Some(j) = t.lines[..t.line_count].iter().position(|&l| l == image) {
                        out |= 1 << j;
                    }
                }
            }
            out
        };
        Position::from_parts(
            self.rules,
            ByColor::new(
                transform(s, self.pieces.white),
                transform(s, self.pieces.black),
            ),
            self.hand,
            self.side,
            self.pending,
            self.no_capture,
            self.fullmove,
            ByColor::new(
                map_lines(self.standing_spent(Color::White)),
                map_lines(self.standing_spent(Color::Black)),
            ),
        )
    }

    /// The rules the position is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The points a colour's pieces stand on.
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.pieces[c]
    }

    /// The points holding a piece of either colour.
    pub fn occupied(&self) -> Bitboard {
        self.pieces.white | self.pieces.black
    }

    /// The points without a piece.
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// The pieces a colour still has to place.
    pub fn in_hand(&self, c: Color) -> u8 {
        self.hand[c]
    }

    /// The pieces a colour has on the board.
    pub fn on_board(&self, c: Color) -> u32 {
        self.pieces[c].count()
    }

    /// Removals the side to move still owes in the middle of its turn.
    pub fn pending_removals(&self) -> u8 {
        self.pending
    }

    /// Plies of moving since the last removal.
    pub fn no_capture_plies(&self) -> u16 {
        self.no_capture
    }

    /// The move number (starting at 1, increased after Black's turn).
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key: board, side to move, hands, pending removals and spent mills (not the
    /// counters).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The pieces still in hand, both sides together: the placements left.
    pub fn placements_left(&self) -> u32 {
        u32::from(self.hand.white + self.hand.black)
    }

    /// Whether anyone still has pieces in hand (the placing phase).
    pub fn is_placing(&self) -> bool {
        self.hand.white + self.hand.black > 0
    }

    /// The colour of the piece on `pt`, if any.
    pub fn color_at(&self, pt: Point) -> Option<Color> {
        Color::BOTH.into_iter().find(|&c| self.pieces[c].has(pt))
    }

    /// Lines (bit per line index) whose standing mill of colour `c` has already earned its
    /// removal with the pieces standing on it now.
    pub fn standing_spent(&self, c: Color) -> u32 {
        let t = self.rules.topology();
        let mut out = 0;
        if self.tracks_identity() {
            for line in 0..t.line_count {
                let l = t.lines[line];
                if l.is_subset(self.pieces[c]) && self.is_spent(c, line, self.record(l, None)) {
                    out |= 1 << line;
                }
            }
        }
        out
    }

    // ---- The rule readers: each option of `Rules` is read in exactly one of these. ----

    /// Whether the side to move may move a piece on the board.
    #[inline]
    pub fn may_move(&self) -> bool {
        self.may_move_as(self.side)
    }

    /// Whether `c`, on its turn, may move a piece on the board (reads `placing_moves`).
    #[inline]
    fn may_move_as(&self, c: Color) -> bool {
        self.hand[c] == 0 || self.rules.placing_moves == PlacingMoves::PlaceOrMove
    }

    /// Whether `c` flies.
    #[inline]
    pub fn can_fly(&self, c: Color) -> bool {
        Position::flies(&self.rules, self.pieces[c].count(), self.hand[c])
    }

    /// Whether a side with `on_board` pieces on the board and `in_hand` in hand flies under
    /// `rules` (reads `flying`).
    #[inline]
    pub fn flies(rules: &Rules, on_board: u32, in_hand: u8) -> bool {
        match rules.flying {
            Flying::AtMost(n) => in_hand == 0 && on_board <= u32::from(n),
            Flying::Never => false,
        }
    }

    /// Which of `theirs` may be removed.
    #[inline]
    pub fn removable_from(&self, theirs: Bitboard) -> Bitboard {
        Position::removable_under(&self.rules, theirs)
    }

    /// Which of `theirs` may be removed under `rules` (reads `protection`).
    #[inline]
    pub fn removable_under(rules: &Rules, theirs: Bitboard) -> Bitboard {
        let safe = rules.topology().in_mills(theirs);
        match rules.protection {
            MillProtection::UnlessAllInMills => {
                let free = theirs & !safe;
                if free.is_empty() {
                    theirs
                } else {
                    free
                }
            }
            MillProtection::Always => theirs & !safe,
            MillProtection::Never => theirs,
        }
    }

    /// How many removals `mills` mills formed at once earn (reads `multi_mill`).
    #[inline]
    pub fn removals_due(&self, mills: u8) -> u8 {
        match self.rules.multi_mill {
            MultiMill::OneRemoval => mills.min(1),
            MultiMill::OnePerMill => mills,
        }
    }

    /// The mills the side to move forms by bringing a piece to `to` (from `from`, or from the hand)
    /// (reads `reform`).
    #[inline]
    pub fn mills_formed(&self, from: Option<Point>, to: Point) -> Formed {
        let t = self.rules.topology();
        let mut ours = self.pieces[self.side];
        if let Some(f) = from {
            ours = ours.without(f);
        }
        let mut formed = Formed::default();
        for i in 0..3 {
            if t.partners[to.index()][i].is_subset(ours) {
                let line = t.lines_at[to.index()][i] as usize;
                let same = self.rules.reform != Reform::Allowed
                    && self.is_spent(
                        self.side,
                        line,
                        self.record(t.partners[to.index()][i], Some(self.mover_id(from))),
                    );
                match (self.rules.reform, same) {
                    (Reform::Illegal, true) => formed.illegal = true,
                    (Reform::NoRemoval, true) => {}
                    _ => {
                        formed.lines |= 1 << line;
                        formed.count += 1;
                    }
                }
            }
        }
        formed
    }

    /// The outcome of the position on its own, without the game's history (so without
    /// repetition); `None` while the game goes on or in the middle of a turn (reads `no_capture`
    /// and `full_board`).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.quick_outcome() {
            return Some(o);
        }
        if self.pending == 0 && !self.has_legal_move() {
            return Some(Outcome::Win(!self.side, WinReason::Blocked));
        }
        None
    }

    /// `outcome` without the blocked check, which needs move generation: the search finds
    /// blocked positions by generating no move.
    #[inline]
    pub fn quick_outcome(&self) -> Option<Outcome> {
        if self.pending > 0 {
            return None;
        }
        let us = self.side;
        if self.lost_on_material() {
            return Some(Outcome::Win(!us, WinReason::FewerThanThree));
        }
        if self.empty().is_empty() {
            return Some(match self.rules.full_board {
                FullBoard::Draw => Outcome::Draw(DrawReason::FullBoard),
                FullBoard::Blocked => Outcome::Win(!us, WinReason::Blocked),
            });
        }
        if self.plies_before_draw() == Some(0) {
            return Some(Outcome::Draw(DrawReason::NoCapture));
        }
        None
    }

    /// How many more plies without a removal the no-capture rule allows before the game is
    /// drawn (`None`: no such rule) (reads `no_capture`).
    #[inline]
    pub fn plies_before_draw(&self) -> Option<u16> {
        self.rules
            .no_capture
            .map(|limit| limit.saturating_sub(self.no_capture))
    }

    // ---- Derived facts. ----

    /// Which opponent pieces the side to move may remove now.
    #[inline]
    pub fn removable(&self) -> Bitboard {
        self.removable_from(self.pieces[!self.side])
    }

    /// Whether the side to move has fewer than three pieces (board plus hand) at a turn's start.
    #[inline]
    pub fn lost_on_material(&self) -> bool {
        self.pending == 0 && self.pieces[self.side].count() + u32::from(self.hand[self.side]) < 3
    }

    /// Where a piece of the side to move on `from` may go.
    #[inline]
    pub fn targets(&self, from: Point) -> Bitboard {
        self.targets_as(self.side, from)
    }

    /// Where a piece of `c` on `from` may go on `c`'s turn.
    #[inline]
    fn targets_as(&self, c: Color, from: Point) -> Bitboard {
        if self.can_fly(c) {
            self.empty()
        } else {
            self.rules.topology().adjacent[from.index()] & self.empty()
        }
    }

    /// Calls `f(from, to)` for every placement (`from == None`) and every step the side to move
    /// may try, before the re-forming rule and removals are considered. Stops when `f` returns
    /// false.
    #[inline]
    pub fn for_each_step(&self, mut f: impl FnMut(Option<Point>, Point) -> bool) {
        let us = self.side;
        let empty = self.empty();
        if self.hand[us] > 0 {
            for to in empty {
                if !f(None, to) {
                    return;
                }
            }
        }
        if self.may_move() {
            for from in self.pieces[us] {
                for to in self.targets(from) {
                    if !f(Some(from), to) {
                        return;
                    }
                }
            }
        }
    }

    /// The empty points where `c`, on its next turn, could bring a piece to close a mill: from
    /// the hand, or by a step or a flight of a piece not on that line (the re-forming rule is not
    /// consulted, so a point may be counted that the rule would refuse).
    pub fn mill_threats(&self, c: Color) -> Bitboard {
        let t = self.rules.topology();
        let ours = self.pieces[c];
        let empty = self.empty();
        let mut out = Bitboard::EMPTY;
        if self.hand[c] > 0 {
            out |= t.completing_points(ours, empty);
        }
        if self.may_move_as(c) {
            for from in ours {
                out |= t.completing_points(ours.without(from), self.targets_as(c, from));
            }
        }
        out
    }

    /// Whether the side to move has any legal move (ignoring the game's end).
    pub fn has_legal_move(&self) -> bool {
        if self.pending > 0 {
            return !self.removable().is_empty();
        }
        let mut found = false;
        self.for_each_step(|from, to| {
            found = !self.mills_formed(from, to).illegal;
            !found
        });
        found
    }

    fn tracks_identity(&self) -> bool {
        self.rules.reform != Reform::Allowed
    }

    /// The id the piece arriving from `from` (or from the hand) carries.
    fn mover_id(&self, from: Option<Point>) -> u8 {
        match from {
            Some(f) => self.ids[f.index()],
            None => self.rules.pieces - self.hand[self.side],
        }
    }

    /// The record of the pieces on `points`, plus the arriving piece `extra` if given.
    fn record(&self, points: Bitboard, extra: Option<u8>) -> u16 {
        let mut ids = [0u8; 3];
        let mut n = 0;
        for pt in points {
            ids[n] = self.ids[pt.index()];
            n += 1;
        }
        if let Some(e) = extra {
            ids[n] = e;
        }
        ids.sort_unstable();
        0x8000 | u16::from(ids[0]) << 8 | u16::from(ids[1]) << 4 | u16::from(ids[2])
    }

    // ---- Making moves. ----

    /// Plays a legal move: a whole turn, a step whose removal is left pending (two-token form),
    /// or a lone removal when one is pending. The move must come from `movegen` or from
    /// `notation::parse_move` for this position.
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        if mv.is_removal_only() {
            for r in mv.removals() {
                self.remove(r);
                self.set_pending(self.pending.saturating_sub(1));
            }
            if self.pending > 0 && self.removable().is_empty() {
                self.set_pending(0);
            }
            if self.pending == 0 {
                self.finish_turn(true, false);
            }
            return;
        }
        let Some(to) = mv.to() else { return };
        let from = mv.from();
        let formed = self.mills_formed(from, to);
        let id = self.mover_id(from);
        if let Some(f) = from {
            self.pieces[us] = self.pieces[us].without(f).with(to);
            self.key ^= zobrist::PIECE[24 * us.index() + f.index()];
            self.ids[to.index()] = self.ids[f.index()];
        } else {
            self.pieces[us] = self.pieces[us].with(to);
            let h = self.hand[us];
            self.key ^= zobrist::HAND[13 * us.index() + h as usize]
                ^ zobrist::HAND[13 * us.index() + h as usize - 1];
            self.hand[us] = h - 1;
            self.ids[to.index()] = id;
        }
        self.key ^= zobrist::PIECE[24 * us.index() + to.index()];
        let mut due = self.removals_due(formed.count);
        if due > 0 && self.removable().is_empty() {
            due = 0;
        }
        if due > 0 && self.tracks_identity() {
            let t = self.rules.topology();
            for line in 0..t.line_count {
                if formed.lines & 1 << line != 0 {
                    let rec = self.record(t.lines[line], None);
                    self.add_spent(us, line, rec);
                }
            }
        }
        if mv.removal_count() > 0 {
            for r in mv.removals() {
                self.remove(r);
            }
            self.finish_turn(true, from.is_some());
        } else if due > 0 {
            self.set_pending(due);
        } else {
            self.finish_turn(false, from.is_some());
        }
    }

    fn set_pending(&mut self, n: u8) {
        self.key ^= zobrist::PENDING[self.pending as usize] ^ zobrist::PENDING[n as usize];
        self.pending = n;
    }

    /// Whether `line` has earned `c` a removal with the pieces of record `rec`.
    fn is_spent(&self, c: Color, line: usize, rec: u16) -> bool {
        let entry = pack_spent(line, rec);
        self.spent[c]
            .iter()
            .take_while(|&&e| e != 0)
            .any(|&e| e == entry)
    }

    /// Records that `line` has earned `c` a removal with the pieces of record `rec`.
    fn add_spent(&mut self, c: Color, line: usize, rec: u16) {
        if self.is_spent(c, line, rec) {
            return;
        }
        let list = &mut self.spent[c];
        // The last slot stays free: see SPENT_SLOTS for why the list cannot fill.
        debug_assert!(list[SPENT_SLOTS - 1] == 0, "spent mills overflow");
        list[SPENT_SLOTS - 1] = pack_spent(line, rec);
        list.sort_unstable_by(|a, b| b.cmp(a));
        self.key ^= zobrist::spent(c.index(), line, rec);
    }

    /// Takes the opponent's piece on `at` off the board.
    fn remove(&mut self, at: Point) {
        let them = !self.side;
        self.pieces[them] = self.pieces[them].without(at);
        self.key ^= zobrist::PIECE[24 * them.index() + at.index()];
        if self.tracks_identity() {
            // A record that names the removed piece can never match again: drop it, so that
            // equal futures have equal keys.
            let id = u16::from(self.ids[at.index()]);
            let mut dropped = false;
            for k in 0..SPENT_SLOTS {
                let e = self.spent[them][k];
                if e == 0 {
                    break;
                }
                let (line, rec) = unpack_spent(e);
                if rec >> 8 & 15 == id || rec >> 4 & 15 == id || rec & 15 == id {
                    self.key ^= zobrist::spent(them.index(), line, rec);
                    self.spent[them][k] = 0;
                    dropped = true;
                }
            }
            if dropped {
                self.spent[them].sort_unstable_by(|a, b| b.cmp(a));
            }
        }
    }

    fn finish_turn(&mut self, removed: bool, moved: bool) {
        if removed {
            self.no_capture = 0;
        } else if moved {
            self.no_capture = self.no_capture.saturating_add(1);
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !self.side;
        self.key ^= zobrist::SIDE;
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for c in Color::BOTH {
            for pt in self.pieces[c] {
                k ^= zobrist::PIECE[24 * c.index() + pt.index()];
            }
            k ^= zobrist::HAND[13 * c.index() + self.hand[c] as usize];
            for &e in self.spent[c].iter().take_while(|&&e| e != 0) {
                let (line, rec) = unpack_spent(e);
                k ^= zobrist::spent(c.index(), line, rec);
            }
        }
        if self.side == Color::Black {
            k ^= zobrist::SIDE;
        }
        k ^ zobrist::PENDING[self.pending as usize]
    }
}

#[cfg(test)]
mod spent_tests {
    use super::*;

    #[test]
    fn spent_entries_pack_every_triple_and_line() {
        let mut seen = std::collections::HashSet::new();
        for line in 0..20 {
            for a in 0..12u16 {
                for b in a + 1..12 {
                    for c in b + 1..12 {
                        let rec = 0x8000 | a << 8 | b << 4 | c;
                        let e = pack_spent(line, rec);
                        assert!(e >= 1 << 15);
                        assert_eq!(unpack_spent(e), (line, rec));
                        assert!(seen.insert(e));
                    }
                }
            }
        }
        assert_eq!(seen.len(), 20 * 220);
    }
}
