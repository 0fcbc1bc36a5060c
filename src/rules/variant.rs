//! The rules of the game as data: one `Rules` value holds every option of RULES.md §3, with the
//! named presets. Each option is read in exactly one function of the position module (see the
//! comment on each field), so a variant never means new control flow in the move generator.

use crate::rules::board::{BoardKind, Color};
use std::fmt;

/// When a player with no pieces in hand may fly (move a piece to any empty point).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Flying {
    /// With this many pieces on the board or fewer (3 in the standard game).
    AtMost(u8),
    Never,
}

/// Which opponent pieces may be removed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MillProtection {
    /// Pieces in a mill are safe, unless every opponent piece stands in a mill.
    UnlessAllInMills,
    /// Pieces in a mill are always safe; when all stand in mills, nothing is removed.
    Always,
    /// Any opponent piece may be removed.
    Never,
}

/// How many removals a turn that closes two mills at once earns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MultiMill {
    OneRemoval,
    OnePerMill,
}

/// What re-forming a mill with the very same three pieces does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Reform {
    /// Every mill formed gives a removal.
    Allowed,
    /// The same mill with the same pieces gives no removal again.
    NoRemoval,
    /// Re-forming the same mill with the same pieces is an illegal move.
    Illegal,
}

/// Whether a player with pieces in hand may also move a piece on the board (Lasker morris).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlacingMoves {
    PlaceOnly,
    PlaceOrMove,
}

/// What a full board (no empty point) at the start of a turn means.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FullBoard {
    Draw,
    /// The side to move has no move and loses as blocked.
    Blocked,
}

/// The threefold-repetition draw.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Repetition {
    Threefold,
    Off,
}

/// Every rule option. `Rules::default()` is the standard game (`nine`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Who places first. Read by `Position::start`.
    pub first: Color,
    /// Pieces per player, 3 to 12. Read by `Position::start`.
    pub pieces: u8,
    /// The board shape. Read by `Rules::topology`.
    pub board: BoardKind,
    /// Read by `Position::can_fly`.
    pub flying: Flying,
    /// Read by `Position::removable`.
    pub protection: MillProtection,
    /// Read by `Position::removals_due`.
    pub multi_mill: MultiMill,
    /// Read by `Position::mills_formed`.
    pub reform: Reform,
    /// Plies of moving without a removal that draw (`None`: off). Read by `Position::outcome`.
    pub no_capture: Option<u16>,
    /// Read by `Game::outcome`.
    pub repetition: Repetition,
    /// Read by `Position::may_move`.
    pub placing_moves: PlacingMoves,
    /// Read by `Position::outcome`.
    pub full_board: FullBoard,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::nine()
    }
}

/// The preset names, in the order they are listed to users.
pub const PRESETS: [&str; 6] = [
    "nine",
    "twelve",
    "lasker",
    "morabaraba",
    "no-reform",
    "protected-mills",
];

impl Rules {
    /// The standard game, as solved by the perfect-play databases (draw rules on).
    pub const fn nine() -> Rules {
        Rules {
            first: Color::White,
            pieces: 9,
            board: BoardKind::Standard,
            flying: Flying::AtMost(3),
            protection: MillProtection::UnlessAllInMills,
            multi_mill: MultiMill::OneRemoval,
            reform: Reform::Allowed,
            no_capture: Some(100),
            repetition: Repetition::Threefold,
            placing_moves: PlacingMoves::PlaceOnly,
            full_board: FullBoard::Draw,
        }
    }

    /// A named preset (RULES.md §3).
    pub fn preset(name: &str) -> Option<Rules> {
        let nine = Rules::nine();
        Some(match name.to_ascii_lowercase().as_str() {
            "nine" | "standard" => nine,
            "twelve" => Rules {
                pieces: 12,
                board: BoardKind::Diagonal,
                full_board: FullBoard::Draw,
                ..nine
            },
            "lasker" => Rules {
                pieces: 10,
                placing_moves: PlacingMoves::PlaceOrMove,
                ..nine
            },
            "morabaraba" => Rules {
                pieces: 12,
                board: BoardKind::Diagonal,
                multi_mill: MultiMill::OnePerMill,
                ..nine
            },
            "no-reform" => Rules {
                reform: Reform::NoRemoval,
                ..nine
            },
            "protected-mills" => Rules {
                protection: MillProtection::Always,
                ..nine
            },
            _ => return None,
        })
    }

    /// The name of the preset these rules equal, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS
            .iter()
            .copied()
            .find(|n| Rules::preset(n).as_ref() == Some(self))
    }

    /// The board tables of these rules.
    #[inline]
    pub fn topology(&self) -> &'static crate::rules::board::Topology {
        self.board.topology()
    }

    /// Sets one option by its name, as the protocol's `setoption` and the command line name them.
    /// On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let v = value.trim().to_ascii_lowercase();
        let bad = |expected: &str| RuleError::BadValue {
            option: name.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        match name.to_ascii_lowercase().as_str() {
            "firstplayer" => {
                self.first = match v.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => return Err(bad("white or black")),
                }
            }
            "pieces" => {
                self.pieces = match v.parse::<u8>() {
                    Ok(n @ 3..=12) => n,
                    _ => return Err(bad("a number from 3 to 12")),
                }
            }
            "diagonals" => {
                self.board = if parse_bool(&v).ok_or_else(|| bad("true or false"))? {
                    BoardKind::Diagonal
                } else {
                    BoardKind::Standard
                }
            }
            "flying" => {
                self.flying = match v.as_str() {
                    "never" | "off" | "0" => Flying::Never,
                    _ => match v.parse::<u8>() {
                        Ok(n @ 3..=12) => Flying::AtMost(n),
                        _ => return Err(bad("never, or a number of pieces from 3 to 12")),
                    },
                }
            }
            "millprotection" => {
                self.protection = match v.as_str() {
                    "unless-all" => MillProtection::UnlessAllInMills,
                    "always" => MillProtection::Always,
                    "never" => MillProtection::Never,
                    _ => return Err(bad("unless-all, always or never")),
                }
            }
            "doublemill" => {
                self.multi_mill = match v.as_str() {
                    "one" => MultiMill::OneRemoval,
                    "per-mill" => MultiMill::OnePerMill,
                    _ => return Err(bad("one or per-mill")),
                }
            }
            "reform" => {
                self.reform = match v.as_str() {
                    "allowed" => Reform::Allowed,
                    "no-removal" => Reform::NoRemoval,
                    "illegal" => Reform::Illegal,
                    _ => return Err(bad("allowed, no-removal or illegal")),
                }
            }
            "nocapture" => {
                self.no_capture = match v.as_str() {
                    "off" | "0" => None,
                    _ => match v.parse::<u16>() {
                        Ok(n @ 1..=10000) => Some(n),
                        _ => return Err(bad("off, or a number of plies from 1 to 10000")),
                    },
                }
            }
            "repetition" => {
                self.repetition = match v.as_str() {
                    "threefold" | "true" | "on" => Repetition::Threefold,
                    "off" | "false" => Repetition::Off,
                    _ => return Err(bad("threefold or off")),
                }
            }
            "movinginplacing" => {
                self.placing_moves = if parse_bool(&v).ok_or_else(|| bad("true or false"))? {
                    PlacingMoves::PlaceOrMove
                } else {
                    PlacingMoves::PlaceOnly
                }
            }
            "fullboard" => {
                self.full_board = match v.as_str() {
                    "draw" => FullBoard::Draw,
                    "blocked" => FullBoard::Blocked,
                    _ => return Err(bad("draw or blocked")),
                }
            }
            _ => return Err(RuleError::UnknownOption(name.to_string())),
        }
        Ok(())
    }

    /// Every option with its current value, as `set` reads them.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        vec![
            ("FirstPlayer", self.first.name().to_string()),
            ("Pieces", self.pieces.to_string()),
            ("Diagonals", (self.board == BoardKind::Diagonal).to_string()),
            (
                "Flying",
                match self.flying {
                    Flying::AtMost(n) => n.to_string(),
                    Flying::Never => "never".into(),
                },
            ),
            (
                "MillProtection",
                match self.protection {
                    MillProtection::UnlessAllInMills => "unless-all",
                    MillProtection::Always => "always",
                    MillProtection::Never => "never",
                }
                .into(),
            ),
            (
                "DoubleMill",
                match self.multi_mill {
                    MultiMill::OneRemoval => "one",
                    MultiMill::OnePerMill => "per-mill",
                }
                .into(),
            ),
            (
                "Reform",
                match self.reform {
                    Reform::Allowed => "allowed",
                    Reform::NoRemoval => "no-removal",
                    Reform::Illegal => "illegal",
                }
                .into(),
            ),
            (
                "NoCapture",
                self.no_capture.map_or("off".into(), |n| n.to_string()),
            ),
            (
                "Repetition",
                match self.repetition {
                    Repetition::Threefold => "threefold",
                    Repetition::Off => "off",
                }
                .into(),
            ),
            (
                "MovingInPlacing",
                (self.placing_moves == PlacingMoves::PlaceOrMove).to_string(),
            ),
            (
                "FullBoard",
                match self.full_board {
                    FullBoard::Draw => "draw",
                    FullBoard::Blocked => "blocked",
                }
                .into(),
            ),
        ]
    }

    /// These rules with both draw rules (repetition, no-capture) switched off, as the perfect-play
    /// databases and perft use them.
    pub fn without_draw_rules(self) -> Rules {
        Rules {
            no_capture: None,
            repetition: Repetition::Off,
            ..self
        }
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A rule option that could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    UnknownOption(String),
    BadValue {
        option: String,
        value: String,
        expected: String,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownOption(o) => write!(f, "unknown rule option '{o}'"),
            RuleError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "bad value '{value}' for {option}: expected {expected}"),
        }
    }
}

impl std::error::Error for RuleError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_distinct_and_named() {
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            assert_eq!(r.preset_name(), Some(name));
        }
        assert_eq!(Rules::default(), Rules::preset("nine").unwrap());
        assert!(Rules::preset("chess").is_none());
    }

    #[test]
    fn options_round_trip_through_set() {
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            let mut s = Rules::nine();
            for (opt, val) in r.options() {
                s.set(opt, &val).unwrap();
            }
            assert_eq!(s, r, "{name}");
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut r = Rules::nine();
        assert!(r.set("Pieces", "13").is_err());
        assert!(r.set("Flying", "sometimes").is_err());
        assert!(r.set("Colour", "red").is_err());
        assert_eq!(r, Rules::nine());
        r.set("pieces", "10").unwrap();
        assert_eq!(r.pieces, 10);
    }
}
