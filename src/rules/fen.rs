//! The position string of RULES.md §5 (the common open-source mill "FEN"), read and written
//! exactly. Reading is two steps: the text is split into its fields and each field is parsed
//! (errors name the field), then the fields are checked together against the rules.

use crate::rules::board::{Bitboard, ByColor, Color, Point};
use crate::rules::position::Position;
use crate::rules::Rules;
use std::fmt;

/// A position string that could not be read: which field, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The field's number (1 to 17), or 0 for the string as a whole.
    pub field: usize,
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field == 0 {
            write!(f, "bad position string: {}", self.message)
        } else {
            write!(
                f,
                "bad position string, field {} ({}): {}",
                self.field,
                FIELD_NAMES[self.field - 1],
                self.message
            )
        }
    }
}

impl std::error::Error for FenError {}

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

fn err(field: usize, message: impl Into<String>) -> FenError {
    FenError {
        field,
        message: message.into(),
    }
}

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
            Some(Color::White) => 'O',
            Some(Color::Black) => '@',
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
    let mills =
        pos.standing_spent(Color::White) as u64 | (pos.standing_spent(Color::Black) as u64) << 32;
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

/// Reads a position string under `rules`. Trailing `name:value` markers (such as `ids:nodes`)
/// are accepted and ignored.
pub fn read(text: &str, rules: &Rules) -> Result<Position, FenError> {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    while fields.len() > 17 && fields.last().is_some_and(|f| f.contains(':')) {
        fields.pop();
    }
    if fields.len() != 17 {
        return Err(err(
            0,
            format!("expected 17 space-separated fields, found {}", fields.len()),
        ));
    }
    let f = |i: usize| fields[i - 1];
    let number = |i: usize, lo: i64, hi: i64| -> Result<i64, FenError> {
        let v: i64 = f(i)
            .parse()
            .map_err(|_| err(i, format!("'{}' is not a number", f(i))))?;
        if v < lo || v > hi {
            return Err(err(i, format!("{v} is outside {lo}..={hi}")));
        }
        Ok(v)
    };

    // Field 1: the board.
    let rings: Vec<&str> = f(1).split('/').collect();
    if rings.len() != 3 {
        return Err(err(
            1,
            format!("expected 3 rings separated by '/', found {}", rings.len()),
        ));
    }
    let mut pieces = ByColor::new(Bitboard::EMPTY, Bitboard::EMPTY);
    for (r, ring) in rings.iter().enumerate() {
        if ring.chars().count() != 8 {
            return Err(err(
                1,
                format!(
                    "ring {} has {} cells, expected 8",
                    r + 1,
                    ring.chars().count()
                ),
            ));
        }
        for (k, ch) in ring.chars().enumerate() {
            let pt = Point::new(8 * r + k).expect("three rings of eight");
            match ch {
                'O' => pieces.white = pieces.white.with(pt),
                '@' => pieces.black = pieces.black.with(pt),
                '*' => {}
                other => {
                    return Err(err(1, format!("'{other}' at {pt} is not O, @ or *")));
                }
            }
        }
    }
    // Field 2: side to move.
    let side = match f(2) {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(err(2, format!("'{other}' is not w or b"))),
    };
    // Fields 3 and 4: phase and action, checked against the rest below.
    let phase = match f(3) {
        "p" | "m" | "o" => f(3),
        other => return Err(err(3, format!("'{other}' is not p, m or o"))),
    };
    let action = match f(4) {
        "p" | "s" | "r" => f(4),
        other => return Err(err(4, format!("'{other}' is not p, s or r"))),
    };
    let max = rules.pieces as i64;
    let counts = [
        number(5, 0, 24)?,
        number(6, 0, max)?,
        number(7, 0, 24)?,
        number(8, 0, max)?,
    ];
    let pending = [number(9, 0, 3)?, number(10, 0, 3)?];
    for i in 11..=14 {
        number(i, -1, 23)?;
    }
    let mills: u64 = f(15)
        .parse()
        .map_err(|_| err(15, format!("'{}' is not a number", f(15))))?;
    let no_capture = number(16, 0, u16::MAX as i64)? as u16;
    let fullmove = number(17, 1, u16::MAX as i64)? as u16;

    // The fields together.
    let hand = ByColor::new(counts[1] as u8, counts[3] as u8);
    for (c, field) in [(Color::White, 5), (Color::Black, 7)] {
        let n = pieces[c].count() as i64;
        if n != counts[field - 5] {
            return Err(err(
                field,
                format!(
                    "says {} but the board has {n} {} pieces",
                    counts[field - 5],
                    c.name()
                ),
            ));
        }
        if n + hand[c] as i64 > max {
            return Err(err(
                field + 1,
                format!(
                    "{} on board plus {} in hand exceeds the rules' {max} pieces",
                    n, hand[c]
                ),
            ));
        }
    }
    let (ours, theirs) = if side == Color::White { (0, 1) } else { (1, 0) };
    if pending[theirs] != 0 {
        return Err(err(
            9 + theirs,
            "only the side to move can have a removal pending",
        ));
    }
    if (pending[ours] > 0) != (action == "r") {
        return Err(err(
            4,
            format!(
                "action '{action}' disagrees with {} removals pending",
                pending[ours]
            ),
        ));
    }
    if pending[ours] > 1 && rules.multi_mill == crate::rules::MultiMill::OneRemoval {
        return Err(err(
            9 + ours,
            "several removals pending, but the rules give one per turn",
        ));
    }
    let placing = hand.white + hand.black > 0;
    if (phase == "p" && !placing) || (phase == "m" && placing) {
        return Err(err(
            3,
            format!("phase '{phase}' disagrees with the pieces in hand"),
        ));
    }
    if action == "p" && hand[side] == 0 {
        return Err(err(
            4,
            "action 'p' (place) but the side to move has no piece in hand",
        ));
    }
    let t = rules.topology();
    let mut standing = ByColor::new(0u32, 0u32);
    for (c, shift) in [(Color::White, 0), (Color::Black, 32)] {
        let m = (mills >> shift) as u32;
        for line in 0..32 {
            if m & 1 << line != 0 {
                if rules.reform == crate::rules::Reform::Allowed {
                    // Other engines may record formed mills under rules that ignore them.
                    continue;
                }
                if line >= t.line_count || !t.lines[line].is_subset(pieces[c]) {
                    return Err(err(
                        15,
                        format!("mill {line} of {} is not standing on the board", c.name()),
                    ));
                }
                standing[c] |= 1 << line;
            }
        }
    }
    let pos = Position::from_parts(
        *rules,
        pieces,
        hand,
        side,
        pending[ours] as u8,
        no_capture,
        fullmove,
        standing,
    );
    if pos.pending_removals() > 0 && pos.removable().is_empty() {
        return Err(err(4, "a removal is pending but no piece can be removed"));
    }
    Ok(pos)
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
        let e = read(
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 99 0 0 1",
            &r,
        )
        .unwrap_err();
        assert_eq!(e.field, 14);
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
