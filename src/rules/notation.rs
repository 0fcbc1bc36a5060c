//! Reading moves (docs/rules.md, "Notation"). A token is first split into its parts (a syntax error
//! is `Malformed`), then checked once against the position (a rule breach is `Illegal`, with the
//! reason). Both token forms are read everywhere: `d6xb4` (one token per turn) and `d6` `xb4` (the
//! step, then the removal as a token of its own while it is pending).

use crate::rules::board::{Bitboard, Point};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::text::quoted;
use std::fmt;

/// A move token split into its parts, not yet checked against any position.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RawMove {
    /// The point a stepping piece leaves; `None` for a placement or a lone removal.
    pub from: Option<Point>,
    /// `None` for a lone removal (`xb4`).
    pub to: Option<Point>,
    /// The points whose pieces are removed, in the order written.
    pub removals: Vec<Point>,
}

/// Why a legal-looking token cannot be played here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is already over.
    GameOver,
    /// The target point holds a piece.
    Occupied(Point),
    /// No piece stands on the point a step leaves.
    NoPieceThere(Point),
    /// The piece on the point a step leaves is the opponent's.
    NotYourPiece(Point),
    /// The step's target is not next to its start, and the piece cannot fly.
    NotAdjacent(Point, Point),
    /// A piece moved while pieces are still in hand (and the rules let none move then).
    MustPlace,
    /// A placement with nothing left in hand.
    NothingInHand,
    /// A move while removals are pending (this many); only a removal may be played.
    RemovalPending(u8),
    /// A removal with none due.
    NoRemovalDue,
    /// The move closes mills but gives fewer removals than are due (this many).
    RemovalMissing(u8),
    /// More removals than are due (this many).
    TooManyRemovals(u8),
    /// A removal of a point without an opponent piece.
    NotOpponentPiece(Point),
    /// A removal of a piece the rules protect because it stands in a mill.
    Protected(Point),
    /// A move that re-forms the same mill with the same pieces, where the rules forbid it.
    ReformForbidden,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::Occupied(p) => write!(f, "{p} is occupied"),
            Illegal::NoPieceThere(p) => write!(f, "there is no piece on {p}"),
            Illegal::NotYourPiece(p) => write!(f, "the piece on {p} belongs to the opponent"),
            Illegal::NotAdjacent(a, b) => {
                write!(f, "{b} is not adjacent to {a} and the piece cannot fly")
            }
            Illegal::MustPlace => write!(f, "pieces in hand must be placed before any piece moves"),
            Illegal::NothingInHand => write!(f, "no piece is left in hand to place"),
            Illegal::RemovalPending(n) => {
                write!(f, "a removal is pending ({n} to take): play x<point>")
            }
            Illegal::NoRemovalDue => write!(f, "no removal is due"),
            Illegal::RemovalMissing(n) => {
                write!(
                    f,
                    "the move closes mills worth {n} removals; removal missing"
                )
            }
            Illegal::TooManyRemovals(n) => write!(f, "only {n} removal(s) are due"),
            Illegal::NotOpponentPiece(p) => {
                write!(f, "there is no opponent piece on {p} to remove")
            }
            Illegal::Protected(p) => write!(f, "the piece on {p} is protected by a mill"),
            Illegal::ReformForbidden => {
                write!(
                    f,
                    "re-forming the same mill with the same pieces is not allowed"
                )
            }
        }
    }
}

/// A move token that was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The token is not a move at all.
    Malformed {
        /// The token.
        token: String,
        /// What is wrong with it.
        why: String,
    },
    /// The token is a move, but not a legal one here.
    Illegal {
        /// The token.
        token: String,
        /// Why the move cannot be played here.
        why: Illegal,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed { token, why } => {
                write!(f, "malformed move {}: {why}", quoted(token))
            }
            MoveError::Illegal { token, why } => write!(f, "illegal move {}: {why}", quoted(token)),
        }
    }
}

impl std::error::Error for MoveError {}

/// Splits a token such as `d6`, `d6-d5`, `d6xb4`, `d6-d5xb4xf2` or `xb4` into its parts.
fn parse_raw(token: &str) -> Result<RawMove, MoveError> {
    let malformed = |why: String| MoveError::Malformed {
        token: token.to_string(),
        why,
    };
    let point = |s: &str| {
        Point::parse(s).ok_or_else(|| {
            malformed(if s.is_empty() {
                "a point is missing".into()
            } else {
                format!("{} is not a point", quoted(s))
            })
        })
    };
    if token.is_empty() {
        return Err(malformed("empty move".into()));
    }
    if !token.is_ascii() {
        return Err(malformed(
            "moves are written in ASCII, like d6, d6-d5 or d6xb4".into(),
        ));
    }
    let lower = token.to_ascii_lowercase();
    let mut parts = lower.split('x');
    let step = parts.next().unwrap_or("");
    let removals = parts.map(point).collect::<Result<Vec<_>, _>>()?;
    if removals.len() > 3 {
        return Err(malformed("a turn removes at most three pieces".into()));
    }
    let (from, to) = if step.is_empty() {
        if removals.is_empty() {
            return Err(malformed("empty move".into()));
        }
        (None, None)
    } else if let Some((a, b)) = step.split_once('-') {
        (Some(point(a)?), Some(point(b)?))
    } else {
        (None, Some(point(step)?))
    };
    Ok(RawMove { from, to, removals })
}

/// Reads one token as a move of `pos`: a whole turn, a step whose removal will be given by the
/// next token, or a lone removal while one is pending.
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let raw = parse_raw(token)?;
    check(pos, &raw).map_err(|why| MoveError::Illegal {
        token: token.to_string(),
        why,
    })
}

/// Checks raw parts against the position, once, and makes the move.
fn check(pos: &Position, raw: &RawMove) -> Result<Move, Illegal> {
    if pos.outcome().is_some() {
        return Err(Illegal::GameOver);
    }
    let us = pos.side_to_move();
    let pending = pos.pending_removals();
    let Some(to) = raw.to else {
        if pending == 0 {
            return Err(Illegal::NoRemovalDue);
        }
        if raw.removals.len() > pending as usize {
            return Err(Illegal::TooManyRemovals(pending));
        }
        let mut mv = Move::NULL;
        // Removals still owed after these follow as tokens of their own (`d6 xb4 xf2`), so
        // fewer than pending is no error here.
        check_removals(pos, &raw.removals, raw.removals.len() as u8)?;
        for &r in &raw.removals {
            mv = if mv.is_null() {
                Move::removal(r)
            } else {
                mv.with_removal(r)
            };
        }
        return Ok(mv);
    };
    if pending > 0 {
        return Err(Illegal::RemovalPending(pending));
    }
    if pos.occupied().has(to) {
        return Err(Illegal::Occupied(to));
    }
    let step = match raw.from {
        None => {
            if pos.in_hand(us) == 0 {
                return Err(Illegal::NothingInHand);
            }
            Move::place(to)
        }
        Some(from) => {
            match pos.color_at(from) {
                None => return Err(Illegal::NoPieceThere(from)),
                Some(c) if c != us => return Err(Illegal::NotYourPiece(from)),
                _ => {}
            }
            if !pos.may_move() {
                return Err(Illegal::MustPlace);
            }
            if !pos.targets(from).has(to) {
                return Err(Illegal::NotAdjacent(from, to));
            }
            Move::step(from, to)
        }
    };
    let formed = pos.mills_formed(raw.from, to);
    if formed.illegal {
        return Err(Illegal::ReformForbidden);
    }
    let due = if pos.removable().is_empty() {
        0
    } else {
        pos.removals_due(formed.count)
    };
    if raw.removals.is_empty() {
        // The two-token form: the removal follows as its own token.
        return Ok(step);
    }
    if due == 0 {
        return Err(Illegal::NoRemovalDue);
    }
    if raw.removals.len() > due as usize {
        return Err(Illegal::TooManyRemovals(due));
    }
    check_removals(pos, &raw.removals, due)?;
    Ok(raw.removals.iter().fold(step, |m, &r| m.with_removal(r)))
}

/// Checks that `removals`, taken in the order given or in some other order (turns that differ
/// only in the order of their removals are the same move), are legal, and that no further
/// removal of the `due` is still possible after them. The error is that of the order given.
fn check_removals(pos: &Position, removals: &[Point], due: u8) -> Result<(), Illegal> {
    let theirs = pos.pieces(!pos.side_to_move());
    let mut first_try = None;
    for order in orders(removals.len()) {
        let result = removal_sequence(pos, theirs, order.iter().map(|&i| removals[i]), due);
        if result.is_ok() {
            return result;
        }
        first_try.get_or_insert(result);
    }
    first_try.unwrap_or(Ok(()))
}

/// The orders in which `n` removals (at most three) can be taken, the order given first.
fn orders(n: usize) -> impl Iterator<Item = &'static [usize]> {
    const ORDERS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let n = if n <= 3 { n } else { 0 };
    ORDERS
        .iter()
        .filter(move |order| order[..n].iter().all(|&i| i < n))
        .map(move |order| &order[..n])
}

/// The removals of `mv`, a move of `pos`, in an order in which each one is legal when it is taken
/// (docs/rules.md, "Double removals"). A move keeps its removals in point order, which is not
/// always such an order: with one removal per mill closed, a piece that stands in a mill may
/// become removable only once the last piece outside a mill is gone. Written as tokens of their
/// own (`d6 xb4 xf2`), the removals must come in this order to be read back one at a time.
fn removal_order(pos: &Position, mv: Move) -> Vec<Point> {
    let removals: Vec<Point> = mv.removals().collect();
    let theirs = pos.pieces(!pos.side_to_move());
    orders(removals.len())
        .map(|order| order.iter().map(|&i| removals[i]).collect::<Vec<_>>())
        .find(|seq| removal_sequence(pos, theirs, seq.iter().copied(), 0).is_ok())
        .unwrap_or(removals)
}

fn removal_sequence(
    pos: &Position,
    mut theirs: Bitboard,
    removals: impl Iterator<Item = Point>,
    due: u8,
) -> Result<(), Illegal> {
    let mut taken = 0;
    for r in removals {
        if !theirs.has(r) {
            return Err(Illegal::NotOpponentPiece(r));
        }
        if !pos.removable_from(theirs).has(r) {
            return Err(Illegal::Protected(r));
        }
        theirs = theirs.without(r);
        taken += 1;
    }
    if taken < due && !pos.removable_from(theirs).is_empty() {
        return Err(Illegal::RemovalMissing(due));
    }
    Ok(())
}

/// What one move is: a whole turn, or a single action (docs/rules.md, "Perft").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Convention {
    /// A step and its removals are one move.
    Turn,
    /// A removal is a move of its own, played by the same side.
    Action,
}

impl Convention {
    /// Reads `turn` or `action` (any case).
    pub fn parse(s: &str) -> Option<Convention> {
        match s.to_ascii_lowercase().as_str() {
            "turn" => Some(Convention::Turn),
            "action" => Some(Convention::Action),
            _ => None,
        }
    }

    /// `turn` or `action`.
    pub fn name(self) -> &'static str {
        match self {
            Convention::Turn => "turn",
            Convention::Action => "action",
        }
    }
}

/// Writing moves (docs/rules.md, "Notation").
impl Move {
    /// The turn form of docs/rules.md, "Notation": `d6`, `d6-d5`, `d6xb4`, `d6-d5xb4xf2`, or `xb4`
    /// for a lone removal.
    pub fn turn_notation(self) -> String {
        let mut s = self.step_notation();
        for r in self.removals() {
            s.push('x');
            s.push_str(r.name());
        }
        s
    }

    /// The step alone, without removals: `d6` or `d6-d5` (empty for a lone removal).
    pub fn step_notation(self) -> String {
        let mut s = String::new();
        if let Some(from) = self.from() {
            s.push_str(from.name());
            s.push('-');
        }
        if let Some(to) = self.to() {
            s.push_str(to.name());
        }
        s
    }

    /// The move written in convention `conv`: one token (`turn_notation`), or the step and its
    /// removals as tokens separated by spaces (`action_tokens`).
    pub fn written(self, conv: Convention) -> String {
        match conv {
            Convention::Turn => self.turn_notation(),
            Convention::Action => self.action_tokens().join(" "),
        }
    }

    /// The two-token form: the step, then one token `xNN` per removal, in point order. With
    /// two removals or more, that order may not be one in which they can be read back one at a
    /// time: `action_tokens_at` writes them in one that is.
    pub fn action_tokens(self) -> Vec<String> {
        self.tokens(self.removals())
    }

    /// The two-token form of this move of `pos`: the step, then one token `xNN` per removal,
    /// in an order in which each removal is legal when it is read (`removal_order`).
    pub fn action_tokens_at(self, pos: &Position) -> Vec<String> {
        self.tokens(removal_order(pos, self))
    }

    /// The step (if any), then `removals` as tokens `xNN`.
    fn tokens(self, removals: impl IntoIterator<Item = Point>) -> Vec<String> {
        let mut out = Vec::new();
        if self.to().is_some() {
            out.push(self.step_notation());
        }
        out.extend(removals.into_iter().map(|r| format!("x{}", r.name())));
        out
    }

    /// This move of `pos` written in convention `conv`, so that it reads back from `pos` (the
    /// action form with `action_tokens_at`).
    pub fn written_at(self, pos: &Position, conv: Convention) -> String {
        match conv {
            Convention::Turn => self.turn_notation(),
            Convention::Action => self.action_tokens_at(pos).join(" "),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("none")
        } else {
            f.write_str(&self.turn_notation())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn raw_forms() {
        let p = |s| Point::parse(s).unwrap();
        assert_eq!(
            parse_raw("d6-d5xb4").unwrap(),
            RawMove {
                from: Some(p("d6")),
                to: Some(p("d5")),
                removals: vec![p("b4")]
            }
        );
        assert_eq!(parse_raw("XB4").unwrap().removals, vec![p("b4")]);
        for bad in [
            "",
            "d4",
            "d6-",
            "-d6",
            "d6xx",
            "d6xb4xf2xa1xa4",
            "é",
            "d6--d5",
        ] {
            assert!(
                matches!(parse_raw(bad), Err(MoveError::Malformed { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn illegal_reasons() {
        let pos = Position::start(Rules::nine());
        let e = parse_move(&pos, "d6-d5").unwrap_err();
        assert!(
            matches!(
                e,
                MoveError::Illegal {
                    why: Illegal::NoPieceThere(_),
                    ..
                }
            ),
            "{e}"
        );
        let e = parse_move(&pos, "xd6").unwrap_err();
        assert!(
            matches!(
                e,
                MoveError::Illegal {
                    why: Illegal::NoRemovalDue,
                    ..
                }
            ),
            "{e}"
        );
        let e = parse_move(&pos, "d6xd7").unwrap_err();
        assert!(
            matches!(
                e,
                MoveError::Illegal {
                    why: Illegal::NoRemovalDue,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(parse_move(&pos, "d6").unwrap().to_string(), "d6");
    }

    #[test]
    fn two_removals_one_token_at_a_time() {
        // Morabaraba (one removal per mill closed): a7 closes a7-d7-g7 and a7-b6-c5 at once.
        let mut game = crate::Game::new(Rules::preset("morabaraba").unwrap());
        game.play_tokens("d7 b2 g7 f4 b6 d3 c5 e4".split(' '))
            .unwrap();
        let mut split = game.clone();
        split.play_tokens(["a7", "xb2", "xf4"]).unwrap();
        let mut whole = game.clone();
        whole.play_tokens(["a7xb2xf4"]).unwrap();
        assert_eq!(split.position(), whole.position());
        let mut missing = game.clone();
        assert!(missing.play_tokens(["a7xb2"]).is_err());
    }

    #[test]
    fn removals_are_written_in_an_order_that_reads_back() {
        // Black: b4 outside any mill, the rest in mills (c3-d3-e3, e3-e4-e5). White's a7 closes
        // two (morabaraba): b4 must go first, then e3 may; point order (e3 first) is illegal.
        let mut game = crate::Game::new(Rules::preset("morabaraba").unwrap());
        game.play_tokens("d7 c3 g7 d3 f2 e3xf2 f4 e4 b6 e5xf4 c5 b4".split(' '))
            .unwrap();
        let whole = parse_move(game.position(), "a7xe3xb4").unwrap();
        assert_eq!(whole.action_tokens(), ["a7", "xe3", "xb4"]);
        let mut point_order = game.clone();
        let e = point_order.play_tokens(["a7", "xe3", "xb4"]).unwrap_err();
        assert_eq!(e.0, 1, "{}", e.1);
        assert_eq!(
            whole.written_at(game.position(), Convention::Action),
            "a7 xb4 xe3"
        );
        assert_eq!(
            whole.written_at(game.position(), Convention::Turn),
            "a7xe3xb4"
        );
        let mut split = game.clone();
        let tokens = whole.action_tokens_at(game.position());
        split
            .play_tokens(tokens.iter().map(String::as_str))
            .unwrap();
        // A lone double removal, from the position where both are pending.
        let mut pending = game.clone();
        pending.play_tokens(["a7"]).unwrap();
        let lone = parse_move(pending.position(), "xe3xb4").unwrap();
        assert_eq!(lone.action_tokens_at(pending.position()), ["xb4", "xe3"]);
    }
}
