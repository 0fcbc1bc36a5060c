//! A raw setup: the facts a position string states, each read but not yet checked against the
//! others or against the rules. `Setup::position` is the one checked conversion into a
//! `Position`; its errors name the fact that is wrong. (Parse, then validate: `fen` reads the
//! text into a `Setup`, this module decides whether it is a position.)

use crate::rules::board::{Bitboard, ByColor, Color};
use crate::rules::position::Position;
use crate::rules::{MultiMill, Reform, Rules};
use std::fmt;

/// The phase a setup states.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Pieces are still to be placed.
    Placing,
    /// Every piece is placed; pieces step (or fly).
    Moving,
    /// The game is over.
    Over,
}

/// What the side to move is to do, as a setup states it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// Place a piece from the hand.
    Place,
    /// Step (or fly) a piece on the board.
    Step,
    /// Remove an opponent piece (a removal is pending).
    Remove,
}

/// The facts of a setup, to name the one that is wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    /// The pieces on the board.
    Board,
    /// The phase.
    Phase,
    /// The action of the side to move.
    Action,
    /// The count of a side's pieces on the board.
    OnBoard(Color),
    /// The count of a side's pieces in hand.
    InHand(Color),
    /// The removals a side has pending.
    Pending(Color),
    /// The recorded mills.
    Mills,
}

/// Why a setup is not a position under the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The fact that is wrong.
    pub field: Field,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.field, self.message)
    }
}

impl std::error::Error for SetupError {}

fn err(field: Field, message: impl Into<String>) -> SetupError {
    SetupError {
        field,
        message: message.into(),
    }
}

/// A position as stated, unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The points each side's pieces stand on.
    pub pieces: ByColor<Bitboard>,
    /// The side to move.
    pub side: Color,
    /// The phase stated.
    pub phase: Phase,
    /// What the side to move is to do.
    pub action: Action,
    /// The pieces each side has on the board, as stated.
    pub on_board: ByColor<u8>,
    /// The pieces each side has in hand.
    pub in_hand: ByColor<u8>,
    /// The removals each side has pending.
    pub pending: ByColor<u8>,
    /// The formed mills recorded for each side, by line number.
    pub mills: ByColor<u32>,
    /// Plies since the last removal (for the no-capture rule).
    pub no_capture: u16,
    /// The move number, from 1.
    pub fullmove: u16,
}

impl Setup {
    /// Checks the facts together under `rules` and makes the position.
    pub fn position(&self, rules: &Rules) -> Result<Position, SetupError> {
        self.check_counts(rules)?;
        self.check_turn(rules)?;
        let standing = self.standing_mills(rules)?;
        let pos = Position::from_parts(
            *rules,
            self.pieces,
            self.in_hand,
            self.side,
            self.pending[self.side],
            self.no_capture,
            self.fullmove,
            standing,
        );
        if pos.pending_removals() > 0 && pos.removable().is_empty() {
            return Err(err(
                Field::Action,
                "a removal is pending but no piece can be removed",
            ));
        }
        Ok(pos)
    }

    /// The pieces on the board agree with the counts, and no side has more than the rules give.
    fn check_counts(&self, rules: &Rules) -> Result<(), SetupError> {
        let max = rules.pieces;
        for c in [Color::White, Color::Black] {
            let n = self.pieces[c].count() as u8;
            if n != self.on_board[c] {
                return Err(err(
                    Field::OnBoard(c),
                    format!(
                        "says {} but the board has {n} {} pieces",
                        self.on_board[c],
                        c.name()
                    ),
                ));
            }
            if n + self.in_hand[c] > max {
                return Err(err(
                    Field::InHand(c),
                    format!(
                        "{n} on board plus {} in hand exceeds the rules' {max} pieces",
                        self.in_hand[c]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The side, phase, action and pending removals agree with each other and with the rules.
    fn check_turn(&self, rules: &Rules) -> Result<(), SetupError> {
        let (us, them) = (self.side, !self.side);
        if self.pending[them] != 0 {
            return Err(err(
                Field::Pending(them),
                "only the side to move can have a removal pending",
            ));
        }
        let pending = self.pending[us];
        if (pending > 0) != (self.action == Action::Remove) {
            return Err(err(
                Field::Action,
                format!(
                    "action '{}' disagrees with {pending} removals pending",
                    action_letter(self.action)
                ),
            ));
        }
        if pending > 1 && rules.multi_mill == MultiMill::OneRemoval {
            return Err(err(
                Field::Pending(us),
                "several removals pending, but the rules give one per turn",
            ));
        }
        let placing = self.in_hand.white + self.in_hand.black > 0;
        if (self.phase == Phase::Placing && !placing) || (self.phase == Phase::Moving && placing) {
            return Err(err(
                Field::Phase,
                format!(
                    "phase '{}' disagrees with the pieces in hand",
                    phase_letter(self.phase)
                ),
            ));
        }
        if self.action == Action::Place && self.in_hand[us] == 0 {
            return Err(err(
                Field::Action,
                "action 'p' (place) but the side to move has no piece in hand",
            ));
        }
        Ok(())
    }

    /// The mills recorded as formed, each checked to stand on the board (under rules that let a
    /// mill form again, recorded mills do not matter and are dropped).
    fn standing_mills(&self, rules: &Rules) -> Result<ByColor<u32>, SetupError> {
        let t = rules.topology();
        let mut standing = ByColor::new(0u32, 0u32);
        for c in [Color::White, Color::Black] {
            let m = self.mills[c];
            for line in 0..32 {
                if m & 1 << line != 0 {
                    if rules.reform == Reform::Allowed {
                        // Other engines may record formed mills under rules that ignore them.
                        continue;
                    }
                    if line >= t.line_count || !t.lines[line].is_subset(self.pieces[c]) {
                        return Err(err(
                            Field::Mills,
                            format!("mill {line} of {} is not standing on the board", c.name()),
                        ));
                    }
                    standing[c] |= 1 << line;
                }
            }
        }
        Ok(standing)
    }
}

/// The letter of a phase in the position string.
fn phase_letter(p: Phase) -> char {
    match p {
        Phase::Placing => 'p',
        Phase::Moving => 'm',
        Phase::Over => 'o',
    }
}

/// The letter of an action in the position string.
fn action_letter(a: Action) -> char {
    match a {
        Action::Place => 'p',
        Action::Step => 's',
        Action::Remove => 'r',
    }
}
