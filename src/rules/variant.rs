//! The rules of the game as data: one `Rules` value holds every option of docs/rules.md,
//! "Rule options", with the named presets. Each option is read in exactly one function of the
//! position module (see the comment on each field), so a variant never means new control flow in
//! the move generator.

use crate::rules::board::{BoardKind, Color};
use std::fmt;

/// When a player with no pieces in hand may fly (move a piece to any empty point).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Flying {
    /// With this many pieces on the board or fewer (3 in the standard game).
    AtMost(u8),
    /// Nobody flies.
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
    /// One removal, however many mills the turn closes.
    OneRemoval,
    /// One removal per mill closed.
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
    /// Pieces in hand must be placed before any piece moves.
    PlaceOnly,
    /// A player with pieces in hand may place one or move one (Lasker).
    PlaceOrMove,
}

/// What a full board (no empty point) at the start of a turn means.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FullBoard {
    /// The game is a draw.
    Draw,
    /// The side to move has no move and loses as blocked.
    Blocked,
}

/// The threefold-repetition draw.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Repetition {
    /// The third time the same position stands, the game is a draw.
    Threefold,
    /// Repetitions do not end the game.
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

    /// A named preset (docs/rules.md, "Presets").
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

    /// The rules of a preset name (as `preset`), or an error that lists the presets: the one
    /// reader of a `--variant` flag or a spec's variant.
    pub fn named(name: &str) -> Result<Rules, RuleError> {
        Rules::preset(name).ok_or_else(|| RuleError::UnknownPreset(name.to_string()))
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

    /// The most pieces one turn removes: one, or one per mill closed at once where each mill
    /// earns a removal (as many as the lines through a point: two on the standard board, three
    /// at a corner of the board with diagonals).
    pub fn most_removals(&self) -> u8 {
        match self.multi_mill {
            MultiMill::OneRemoval => 1,
            MultiMill::OnePerMill => self.topology().most_lines_at_a_point(),
        }
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

/// A rule option that could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// No preset has this name.
    UnknownPreset(String),
    /// No rule option has this name.
    UnknownOption(String),
    /// The option does not take this value.
    BadValue {
        /// The option's name.
        option: String,
        /// The value given.
        value: String,
        /// What the option takes, in words.
        expected: String,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownPreset(name) => write!(
                f,
                "unknown variant {} (expected one of {})",
                crate::text::quoted(name),
                PRESETS.join(", ")
            ),
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
    fn a_turn_removes_one_piece_or_one_a_mill_up_to_the_lines_through_a_point() {
        let removals = |name| Rules::preset(name).unwrap().most_removals();
        assert_eq!(removals("nine"), 1);
        assert_eq!(removals("twelve"), 1);
        // b6 lies on three mills of the board with diagonals: three removals at once.
        assert_eq!(removals("morabaraba"), 3);
        let per_mill_standard = Rules {
            multi_mill: MultiMill::OnePerMill,
            ..Rules::nine()
        };
        assert_eq!(per_mill_standard.most_removals(), 2);
    }

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
