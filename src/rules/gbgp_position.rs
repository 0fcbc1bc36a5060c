//! The GBGP position string (the dialect of the Nine Morris 3D GUI): `<side>:w<points>:b<points>:
//! <fullmove>`, such as `w:w:b:1` (the start) or `w:wb4,c4:bd2:2`. It states no pieces in hand:
//! they follow from the number of turns played, since every turn of the placing phase places a
//! piece. Read into a raw `Setup` and checked once by `Setup::position`, as the position string of
//! docs/rules.md, "Position string" is; errors name the field of this string (1 side to move, 2
//! White's points, 3 Black's points, 4 move number).

use crate::rules::board::{Bitboard, ByColor, Color, Point};
use crate::rules::fen::FenError;
use crate::rules::position::Position;
use crate::rules::setup::{Action, Field, Phase, Setup};
use crate::rules::{PlacingMoves, Rules};

/// The start position of every game the GUI plays.
pub const START: &str = "w:w:b:1";

/// The highest move number read (the position keeps it in 16 bits).
const MAX_FULLMOVE: u16 = 30_000;

/// Reads a GBGP position string under `rules`.
pub fn read(text: &str, rules: &Rules) -> Result<Position, FenError> {
    let setup = parse(text, rules)?;
    setup.position(rules).map_err(|e| {
        // The pieces in hand follow from the move number: too many for the points given is
        // said of the points.
        let field = match e.field {
            Field::OnBoard(Color::White) | Field::InHand(Color::White) => 2,
            Field::OnBoard(Color::Black) | Field::InHand(Color::Black) => 3,
            _ => 0,
        };
        FenError::illegal(field, e.message).in_gbgp()
    })
}

/// Reads the fields into a setup, with the pieces in hand derived from the move number.
pub fn parse(text: &str, rules: &Rules) -> Result<Setup, FenError> {
    read_fields(text, rules).map_err(FenError::in_gbgp)
}

/// The work of `parse`: its errors count this string's fields, which `parse` then says.
fn read_fields(text: &str, rules: &Rules) -> Result<Setup, FenError> {
    if rules.placing_moves != PlacingMoves::PlaceOnly {
        return Err(FenError::syntax(
            0,
            "a GBGP position states no pieces in hand, so it needs rules where every placing \
             turn places (not MovingInPlacing)",
        ));
    }
    let fields: Vec<&str> = text.trim().split(':').collect();
    if fields.len() != 4 {
        return Err(FenError::syntax(
            0,
            format!(
                "expected 4 fields separated by ':' (side:w<points>:b<points>:<move>), found {}",
                fields.len()
            ),
        ));
    }
    let side = match fields[0] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::syntax(1, format!("'{other}' is not w or b"))),
    };
    let white = points(fields[1], 'w', 2)?;
    let black = points(fields[2], 'b', 3)?;
    if !(white & black).is_empty() {
        let both = (white & black).iter().next().map_or("?", Point::name);
        return Err(FenError::illegal(
            3,
            format!("{both} holds a White and a Black piece"),
        ));
    }
    let fullmove: u16 = fields[3]
        .parse()
        .ok()
        .filter(|n| (1..=MAX_FULLMOVE).contains(n))
        .ok_or_else(|| {
            FenError::syntax(
                4,
                format!("'{}' is not a move number (1 to {MAX_FULLMOVE})", fields[3]),
            )
        })?;
    let placed = placed(rules, side, fullmove).ok_or_else(|| {
        FenError::illegal(
            4,
            format!(
                "move {fullmove} with {} to move comes before the first turn",
                side.name()
            ),
        )
    })?;
    let pieces = ByColor::new(white, black);
    let in_hand = ByColor::new(
        rules.pieces.saturating_sub(placed.white),
        rules.pieces.saturating_sub(placed.black),
    );
    let placing = in_hand.white + in_hand.black > 0;
    Ok(Setup {
        pieces,
        side,
        phase: if placing {
            Phase::Placing
        } else {
            Phase::Moving
        },
        action: if in_hand[side] > 0 {
            Action::Place
        } else {
            Action::Step
        },
        on_board: ByColor::new(white.count() as u8, black.count() as u8),
        in_hand,
        pending: ByColor::new(0, 0),
        mills: ByColor::new(0, 0),
        no_capture: 0,
        fullmove,
    })
}

/// The pieces each side has placed when `side` is to move at move `fullmove` (as many as turns
/// played, up to the rules' count); `None` before the first turn (Black to move at move 1 when
/// Black moves first is the start; White to move at move 1 then is not a position).
fn placed(rules: &Rules, side: Color, fullmove: u16) -> Option<ByColor<u8>> {
    // The move number goes up after Black's turn, whoever begins.
    let before = 2 * u32::from(fullmove - 1);
    let plies = match (rules.first, side) {
        (Color::White, Color::White) | (Color::Black, Color::Black) => before,
        (Color::White, Color::Black) => before + 1,
        (Color::Black, Color::White) => before.checked_sub(1)?,
    };
    let first = plies.div_ceil(2);
    let second = plies / 2;
    let cap = |n: u32| n.min(u32::from(rules.pieces)) as u8;
    Some(match rules.first {
        Color::White => ByColor::new(cap(first), cap(second)),
        Color::Black => ByColor::new(cap(second), cap(first)),
    })
}

/// Reads `w<points>` or `b<points>`: points comma-separated, none twice.
fn points(field: &str, letter: char, number: usize) -> Result<Bitboard, FenError> {
    let Some(list) = field.strip_prefix(letter) else {
        return Err(FenError::syntax(
            number,
            format!("'{field}' does not start with '{letter}'"),
        ));
    };
    let mut set = Bitboard::EMPTY;
    if list.is_empty() {
        return Ok(set);
    }
    for name in list.split(',') {
        let pt = Point::parse(name).ok_or_else(|| {
            FenError::syntax(number, format!("'{name}' is not a point (a1 to g7)"))
        })?;
        if set.has(pt) {
            return Err(FenError::syntax(number, format!("{name} is given twice")));
        }
        set = set.with(pt);
    }
    Ok(set)
}

/// Writes the GBGP position string of `pos`. A removal still to make (inside a turn) has no
/// form in it: the string is then the board as it stands.
pub fn write(pos: &Position) -> String {
    // In the order of the names (a1, a4, a7, b2, ...), as people list them.
    let list = |c: Color| {
        let mut names: Vec<&str> = pos.pieces(c).iter().map(Point::name).collect();
        names.sort_unstable();
        names.join(",")
    };
    let side = match pos.side_to_move() {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!(
        "{side}:w{}:b{}:{}",
        list(Color::White),
        list(Color::Black),
        pos.fullmove()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::game::Game;
    use crate::rules::movegen;
    use crate::rules::notation::Convention;

    #[test]
    fn the_examples_of_the_specification_read_and_write_back() {
        let rules = Rules::nine();
        let mut game = Game::new(rules);
        assert_eq!(write(game.position()), START);
        assert_eq!(read(START, &rules).unwrap().key(), game.position().key());
        for (mv, after) in [
            ("b4", "b:wb4:b:1"),
            ("d2", "w:wb4:bd2:2"),
            ("c4", "b:wb4,c4:bd2:2"),
        ] {
            game.play_tokens([mv]).unwrap();
            assert_eq!(write(game.position()), after);
            // The same position (the pieces' identities aside, which no string states).
            assert_eq!(read(after, &rules).unwrap().key(), game.position().key());
        }
        // (The specification writes this one with `w`, which no game reaches: White has placed
        // one piece when White is to move at move 2.)
        assert!(read("w:wb4,c4:bd2:2", &rules).is_err());
        let pos = read("b:wb4,c4:bd2:2", &rules).unwrap();
        assert_eq!(pos.in_hand(Color::White), 7);
        assert_eq!(pos.in_hand(Color::Black), 8);
    }

    #[test]
    fn random_games_read_back_from_their_strings() {
        for rules in [Rules::nine(), Rules::preset("twelve").unwrap()] {
            let mut rng = Rng::new(7);
            for _ in 0..200 {
                let mut game = Game::new(rules);
                for _ in 0..rng.below(60) {
                    let moves = movegen::legal_moves(game.position(), Convention::Turn);
                    if moves.is_empty() || game.outcome().is_some() {
                        break;
                    }
                    game.play(moves[rng.below(moves.len())]);
                }
                let pos = *game.position();
                let back = read(&write(&pos), &rules).unwrap();
                // The string keeps no count of quiet plies and no spent mills.
                assert_eq!(back.pieces(Color::White), pos.pieces(Color::White));
                assert_eq!(back.pieces(Color::Black), pos.pieces(Color::Black));
                assert_eq!(back.side_to_move(), pos.side_to_move());
                assert_eq!(back.in_hand(Color::White), pos.in_hand(Color::White));
                assert_eq!(back.in_hand(Color::Black), pos.in_hand(Color::Black));
                assert_eq!(back.fullmove(), pos.fullmove());
            }
        }
    }

    #[test]
    fn bad_strings_name_their_field() {
        let rules = Rules::nine();
        let field = |text: &str| read(text, &rules).unwrap_err().field;
        assert_eq!(field("w:w:b"), 0);
        assert_eq!(field("x:w:b:1"), 1);
        assert_eq!(field("w:a1:b:1"), 2);
        assert_eq!(field("w:wz9:b:1"), 2);
        assert_eq!(field("w:wa1,a1:b:2"), 2);
        assert_eq!(field("w:wa1:ba1:2"), 3);
        assert_eq!(field("w:w:b:0"), 4);
        assert_eq!(field("w:w:b:x"), 4);
        // Two White pieces at move 1: more than White has placed.
        assert_eq!(field("w:wa1,a4:b:1"), 2);
        // Named as this string's fields, not those of docs/rules.md, "Position string".
        let shown = |text: &str| read(text, &rules).unwrap_err().to_string();
        assert!(shown("x:w:b:1").contains("field 1 (side to move)"));
        assert!(shown("w:wa1:ba1:2").contains("field 3 (Black's points)"));
        assert!(shown("w:w:b:x").contains("field 4 (move number)"));
        assert!(!shown("w:w:b").contains(", field "));
        let lasker = Rules::preset("lasker").unwrap();
        assert!(read(START, &lasker).is_err());
    }
}
