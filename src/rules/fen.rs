//! The position string of docs/rules.md, "Position string" (the common open-source mill "FEN"),
//! read and written exactly. Reading is two steps: `parse` splits the text into its fields and
//! reads each one into a raw `Setup` (syntax errors name the field); `Setup::position` then checks
//! the fields together against the rules, once, and makes the `Position` (those errors name the
//! field too, as a different kind).

use crate::rules::board::{Bitboard, ByColor, Color, Point};
use crate::rules::position::Position;
use crate::rules::setup::{Action, Field, Phase, Setup};
use crate::rules::Rules;
use crate::text::quoted;
use std::fmt;

/// What was wrong with a position string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    /// A field does not read (not a number, a wrong letter, a bad count of fields).
    Syntax,
    /// The fields read, but they do not make a position under the rules.
    Illegal,
}

/// Which position string an error is about: each has fields of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The position string of docs/rules.md, "Position string" (17 fields).
    Moulin,
    /// The GBGP position string (`crate::rules::gbgp_position`, 4 fields).
    Gbgp,
}

/// A position string that could not be read: which field, of which kind, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// A syntax error or an illegal position.
    pub kind: FenErrorKind,
    /// The string the error is about, whose fields `field` counts.
    pub form: Form,
    /// The field's number (1 to 17, or 1 to 4 in a GBGP string), or 0 for the string as a
    /// whole.
    pub field: usize,
    /// What was wrong.
    pub message: String,
}

impl FenError {
    pub(crate) fn syntax(field: usize, message: impl Into<String>) -> FenError {
        FenError {
            kind: FenErrorKind::Syntax,
            form: Form::Moulin,
            field,
            message: message.into(),
        }
    }

    pub(crate) fn illegal(field: usize, message: impl Into<String>) -> FenError {
        FenError {
            kind: FenErrorKind::Illegal,
            form: Form::Moulin,
            field,
            message: message.into(),
        }
    }

    /// The same error, about a GBGP string: its field is one of that string's.
    pub(crate) fn in_gbgp(self) -> FenError {
        FenError {
            form: Form::Gbgp,
            ..self
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FenErrorKind::Syntax => "bad position string",
            FenErrorKind::Illegal => "impossible position",
        };
        let names: &[&str] = match self.form {
            Form::Moulin => &FIELD_NAMES,
            Form::Gbgp => &GBGP_FIELD_NAMES,
        };
        match self.field.checked_sub(1).and_then(|i| names.get(i)) {
            Some(name) => write!(f, "{what}, field {} ({name}): {}", self.field, self.message),
            None => write!(f, "{what}: {}", self.message),
        }
    }
}

impl std::error::Error for FenError {}

/// The fields of a GBGP position string (`<side>:w<points>:b<points>:<move>`).
const GBGP_FIELD_NAMES: [&str; 4] = [
    "side to move",
    "White's points",
    "Black's points",
    "move number",
];

const FIELD_NAMES: [&str; 17] = [
    "board",
    "side to move",
    "phase",
    "action",
    "white on board",
    "white in hand",
    "black on board",
    "black in hand",
    "white removals pending",
    "black removals pending",
    "white last mill from",
    "white last mill to",
    "black last mill from",
    "black last mill to",
    "formed mills",
    "no-capture plies",
    "move number",
];

/// The start position string of the standard game.
pub const START: &str = "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1";

/// Writes the position string of `pos`.
pub fn write(pos: &Position) -> String {
    let mut board = String::with_capacity(26);
    for pt in Point::all() {
        if pt.index() > 0 && pt.index() % 8 == 0 {
            board.push('/');
        }
        board.push(match pos.color_at(pt) {
            Some(c) => c.symbol(),
            None => '*',
        });
    }
    let side = pos.side_to_move();
    let phase = if pos.outcome().is_some() {
        'o'
    } else if pos.is_placing() {
        'p'
    } else {
        'm'
    };
    let action = if pos.pending_removals() > 0 {
        'r'
    } else if pos.in_hand(side) > 0 {
        'p'
    } else {
        's'
    };
    let pending = |c: Color| {
        if c == side {
            pos.pending_removals()
        } else {
            0
        }
    };
    let mills = u64::from(pos.standing_spent(Color::White))
        | u64::from(pos.standing_spent(Color::Black)) << 32;
    format!(
        "{board} {} {phase} {action} {} {} {} {} {} {} -1 -1 -1 -1 {mills} {} {}",
        if side == Color::White { 'w' } else { 'b' },
        pos.on_board(Color::White),
        pos.in_hand(Color::White),
        pos.on_board(Color::Black),
        pos.in_hand(Color::Black),
        pending(Color::White),
        pending(Color::Black),
        pos.no_capture_plies(),
        pos.fullmove(),
    )
}

/// The field number of a setup's fact.
fn field_number(field: Field) -> usize {
    let side = |c: Color| usize::from(c != Color::White);
    match field {
        Field::Board => 1,
        Field::Phase => 3,
        Field::Action => 4,
        Field::OnBoard(c) => 5 + 2 * side(c),
        Field::InHand(c) => 6 + 2 * side(c),
        Field::Pending(c) => 9 + side(c),
        Field::Mills => 15,
    }
}

/// Reads a position string under `rules`: `parse`, then `Setup::position`. Trailing
/// `name:value` markers (such as `ids:nodes`) are accepted and ignored.
pub fn read(text: &str, rules: &Rules) -> Result<Position, FenError> {
    parse(text)?
        .position(rules)
        .map_err(|e| FenError::illegal(field_number(e.field), e.message))
}

/// The most pieces a side has under any rules (`Pieces` is 3 to 12).
const MOST_PIECES: i64 = 12;

/// Reads each field of a position string into a raw setup, checking syntax and ranges only.
pub fn parse(text: &str) -> Result<Setup, FenError> {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    while fields.len() > 17 && fields.last().is_some_and(|f| f.contains(':')) {
        fields.pop();
    }
    if fields.len() != 17 {
        return Err(FenError::syntax(
            0,
            format!("expected 17 space-separated fields, found {}", fields.len()),
        ));
    }
    let f = |i: usize| fields[i - 1];
    let number = |i: usize, lo: i64, hi: i64| -> Result<i64, FenError> {
        let v: i64 = f(i)
            .parse()
            .map_err(|_| FenError::syntax(i, format!("{} is not a number", quoted(f(i)))))?;
        if v < lo || v > hi {
            return Err(FenError::syntax(i, format!("{v} is outside {lo}..={hi}")));
        }
        Ok(v)
    };
    let pieces = parse_board(f(1))?;
    let side = match f(2) {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::syntax(
                2,
                format!("{} is not w or b", quoted(other)),
            ))
        }
    };
    let phase = match f(3) {
        "p" => Phase::Placing,
        "m" => Phase::Moving,
        "o" => Phase::Over,
        other => {
            return Err(FenError::syntax(
                3,
                format!("{} is not p, m or o", quoted(other)),
            ))
        }
    };
    let action = match f(4) {
        "p" => Action::Place,
        "s" => Action::Step,
        "r" => Action::Remove,
        other => {
            return Err(FenError::syntax(
                4,
                format!("{} is not p, s or r", quoted(other)),
            ))
        }
    };
    let counts = [
        number(5, 0, 24)? as u8,
        number(6, 0, MOST_PIECES)? as u8,
        number(7, 0, 24)? as u8,
        number(8, 0, MOST_PIECES)? as u8,
    ];
    let pending = [number(9, 0, 3)? as u8, number(10, 0, 3)? as u8];
    for i in 11..=14 {
        number(i, -1, 23)?;
    }
    let mills: u64 = f(15)
        .parse()
        .map_err(|_| FenError::syntax(15, format!("{} is not a number", quoted(f(15)))))?;
    Ok(Setup {
        pieces,
        side,
        phase,
        action,
        on_board: ByColor::new(counts[0], counts[2]),
        in_hand: ByColor::new(counts[1], counts[3]),
        pending: ByColor::new(pending[0], pending[1]),
        mills: ByColor::new(mills as u32, (mills >> 32) as u32),
        no_capture: number(16, 0, i64::from(u16::MAX))? as u16,
        fullmove: number(17, 1, i64::from(u16::MAX))? as u16,
    })
}

/// Field 1: three rings of eight cells, `O` white, `@` black, `*` empty.
fn parse_board(text: &str) -> Result<ByColor<Bitboard>, FenError> {
    let rings: Vec<&str> = text.split('/').collect();
    if rings.len() != 3 {
        return Err(FenError::syntax(
            1,
            format!("expected 3 rings separated by '/', found {}", rings.len()),
        ));
    }
    let mut pieces = ByColor::new(Bitboard::EMPTY, Bitboard::EMPTY);
    for (r, ring) in rings.iter().enumerate() {
        let cells = ring.chars().count();
        if cells != 8 {
            return Err(FenError::syntax(
                1,
                format!("ring {} has {cells} cells, expected 8", r + 1),
            ));
        }
        for (k, ch) in ring.chars().enumerate() {
            let pt = Point::new(8 * r + k).expect("three rings of eight");
            match ch {
                'O' => pieces.white = pieces.white.with(pt),
                '@' => pieces.black = pieces.black.with(pt),
                '*' => {}
                other => {
                    return Err(FenError::syntax(
                        1,
                        format!("{} at {pt} is not O, @ or *", quoted(&other.to_string())),
                    ));
                }
            }
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_string() {
        assert_eq!(write(&Position::start(Rules::nine())), START);
        let pos = read(START, &Rules::nine()).unwrap();
        assert_eq!(pos, Position::start(Rules::nine()));
    }

    #[test]
    fn errors_name_the_field() {
        let r = Rules::nine();
        let e = read(
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 0);
        let e = read(
            "********/********/******* w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 1);
        let e = read(
            "********/********/******** x p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 2);
        let e = read(
            "********/********/******** w p p 1 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 5);
        let e = read(
            "********/********/******** w p p 0 10 0 9 0 0 -1 -1 -1 -1 0 0 1",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 6);
        assert_eq!(e.kind, FenErrorKind::Illegal);
        assert!(
            e.to_string().starts_with("impossible position, field 6"),
            "{e}"
        );
        let e = read(
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 99 0 0 1",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 14);
        assert_eq!(e.kind, FenErrorKind::Syntax);
        let e = read(
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 0",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 17);
        assert!(e.to_string().contains("move number"), "{e}");
        assert!(read(
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
            &r
        )
        .is_ok());
    }
}
