//! The rule options by name: one table that says, for each option of `Rules`, its name, the
//! values it takes, how a value is read and how it is written. The protocol's `uci` listing and
//! `setoption`, the match runner (which tells other engines the rules) and the `d` display all
//! read this table; a preset's defaults are the values written from that preset.

use crate::rules::board::{BoardKind, Color};
use crate::rules::variant::{
    Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform, Repetition, RuleError,
    Rules,
};

/// The values a rule option takes, as a protocol announces them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// `true` or `false`.
    Check,
    /// A whole number in `min..=max`.
    Spin {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
}

impl Values {
    /// What a value must be, in words, for error messages.
    pub fn expected(self) -> String {
        match self {
            Values::Check => "true or false".into(),
            Values::Spin { min, max } => format!("a whole number from {min} to {max}"),
            Values::Choice(words) => format!("one of {}", words.join(", ")),
        }
    }
}

/// One rule option.
pub struct RuleOption {
    /// The name, as `setoption` and the command line give it (any case).
    pub name: &'static str,
    /// The values it takes.
    pub values: Values,
    /// Reads a value (trimmed, in lower case) into the rules; `false` when it is not a value of
    /// the option, and then the rules are unchanged.
    read: fn(&mut Rules, &str) -> bool,
    /// The option's value in the rules, in the form `read` takes and `values` lists.
    write: fn(&Rules) -> String,
}

impl RuleOption {
    /// Sets the option in `rules`; on error nothing changes.
    pub fn set(&self, rules: &mut Rules, value: &str) -> Result<(), RuleError> {
        let v = value.trim().to_ascii_lowercase();
        let mut changed = *rules;
        if (self.read)(&mut changed, &v) {
            *rules = changed;
            Ok(())
        } else {
            Err(RuleError::BadValue {
                option: self.name.to_string(),
                value: value.to_string(),
                expected: self.values.expected(),
            })
        }
    }

    /// The option's value in `rules`.
    pub fn get(&self, rules: &Rules) -> String {
        (self.write)(rules)
    }
}

/// The option of this name: case does not matter, nor do spaces.
pub fn find(name: &str) -> Option<&'static RuleOption> {
    let wanted: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    RULE_OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(&wanted))
}

/// The rules' options by name, through the table.
impl Rules {
    /// Sets one option by its name (`RULE_OPTIONS`). On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        find(name)
            .ok_or_else(|| RuleError::UnknownOption(name.to_string()))?
            .set(self, value)
    }

    /// Every option with its current value, in the form `set` reads.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        RULE_OPTIONS.iter().map(|o| (o.name, o.get(self))).collect()
    }
}

/// `true`/`false` in the forms people type.
fn boolean(v: &str) -> Option<bool> {
    match v {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A number in `lo..=hi`.
fn number<T: std::str::FromStr + PartialOrd + Copy>(v: &str, lo: T, hi: T) -> Option<T> {
    v.parse::<T>().ok().filter(|n| *n >= lo && *n <= hi)
}

/// Stores `value` in `field` when it is `Some`.
fn store<T>(field: &mut T, value: Option<T>) -> bool {
    value.map(|v| *field = v).is_some()
}

/// Every rule option, in the order they are listed to users.
pub static RULE_OPTIONS: [RuleOption; 11] = [
    RuleOption {
        name: "FirstPlayer",
        values: Values::Choice(&["white", "black"]),
        read: |r, v| {
            let c = match v {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                _ => None,
            };
            store(&mut r.first, c)
        },
        write: |r| r.first.name().to_string(),
    },
    RuleOption {
        name: "Pieces",
        values: Values::Spin { min: 3, max: 12 },
        read: |r, v| store(&mut r.pieces, number(v, 3, 12)),
        write: |r| r.pieces.to_string(),
    },
    RuleOption {
        name: "Diagonals",
        values: Values::Check,
        read: |r, v| {
            let board = boolean(v).map(|d| {
                if d {
                    BoardKind::Diagonal
                } else {
                    BoardKind::Standard
                }
            });
            store(&mut r.board, board)
        },
        write: |r| (r.board == BoardKind::Diagonal).to_string(),
    },
    RuleOption {
        name: "Flying",
        values: Values::Choice(&["3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "never"]),
        read: |r, v| {
            let flying = match v {
                "never" | "off" | "0" => Some(Flying::Never),
                _ => number(v, 3, 12).map(Flying::AtMost),
            };
            store(&mut r.flying, flying)
        },
        write: |r| match r.flying {
            Flying::AtMost(n) => n.to_string(),
            Flying::Never => "never".into(),
        },
    },
    RuleOption {
        name: "MillProtection",
        values: Values::Choice(&["unless-all", "always", "never"]),
        read: |r, v| {
            let p = match v {
                "unless-all" => Some(MillProtection::UnlessAllInMills),
                "always" => Some(MillProtection::Always),
                "never" => Some(MillProtection::Never),
                _ => None,
            };
            store(&mut r.protection, p)
        },
        write: |r| {
            match r.protection {
                MillProtection::UnlessAllInMills => "unless-all",
                MillProtection::Always => "always",
                MillProtection::Never => "never",
            }
            .into()
        },
    },
    RuleOption {
        name: "DoubleMill",
        values: Values::Choice(&["one", "per-mill"]),
        read: |r, v| {
            let m = match v {
                "one" => Some(MultiMill::OneRemoval),
                "per-mill" => Some(MultiMill::OnePerMill),
                _ => None,
            };
            store(&mut r.multi_mill, m)
        },
        write: |r| {
            match r.multi_mill {
                MultiMill::OneRemoval => "one",
                MultiMill::OnePerMill => "per-mill",
            }
            .into()
        },
    },
    RuleOption {
        name: "Reform",
        values: Values::Choice(&["allowed", "no-removal", "illegal"]),
        read: |r, v| {
            let m = match v {
                "allowed" => Some(Reform::Allowed),
                "no-removal" => Some(Reform::NoRemoval),
                "illegal" => Some(Reform::Illegal),
                _ => None,
            };
            store(&mut r.reform, m)
        },
        write: |r| {
            match r.reform {
                Reform::Allowed => "allowed",
                Reform::NoRemoval => "no-removal",
                Reform::Illegal => "illegal",
            }
            .into()
        },
    },
    RuleOption {
        // Off is 0 (also read as `off`), so that the value is always a number.
        name: "NoCapture",
        values: Values::Spin { min: 0, max: 10000 },
        read: |r, v| {
            let n = match v {
                "off" | "0" => Some(None),
                _ => number(v, 1, 10000).map(Some),
            };
            store(&mut r.no_capture, n)
        },
        write: |r| r.no_capture.map_or(0, |n| n).to_string(),
    },
    RuleOption {
        name: "Repetition",
        values: Values::Choice(&["threefold", "off"]),
        read: |r, v| {
            let m = match v {
                "threefold" | "true" | "on" => Some(Repetition::Threefold),
                "off" | "false" => Some(Repetition::Off),
                _ => None,
            };
            store(&mut r.repetition, m)
        },
        write: |r| {
            match r.repetition {
                Repetition::Threefold => "threefold",
                Repetition::Off => "off",
            }
            .into()
        },
    },
    RuleOption {
        name: "MovingInPlacing",
        values: Values::Check,
        read: |r, v| {
            let m = boolean(v).map(|b| {
                if b {
                    PlacingMoves::PlaceOrMove
                } else {
                    PlacingMoves::PlaceOnly
                }
            });
            store(&mut r.placing_moves, m)
        },
        write: |r| (r.placing_moves == PlacingMoves::PlaceOrMove).to_string(),
    },
    RuleOption {
        name: "FullBoard",
        values: Values::Choice(&["draw", "blocked"]),
        read: |r, v| {
            let m = match v {
                "draw" => Some(FullBoard::Draw),
                "blocked" => Some(FullBoard::Blocked),
                _ => None,
            };
            store(&mut r.full_board, m)
        },
        write: |r| {
            match r.full_board {
                FullBoard::Draw => "draw",
                FullBoard::Blocked => "blocked",
            }
            .into()
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;

    #[test]
    fn every_value_listed_is_read_and_written_back() {
        for o in &RULE_OPTIONS {
            let listed: Vec<String> = match o.values {
                Values::Check => vec!["true".into(), "false".into()],
                Values::Spin { min, max } => vec![min.to_string(), max.to_string()],
                Values::Choice(words) => {
                    words.iter().map(std::string::ToString::to_string).collect()
                }
            };
            for v in listed {
                let mut r = Rules::nine();
                o.set(&mut r, &v).unwrap();
                assert_eq!(o.get(&r), v, "{}", o.name);
            }
        }
    }

    #[test]
    fn presets_are_written_and_read_back() {
        for name in PRESETS {
            let preset = Rules::preset(name).unwrap();
            let mut r = Rules::nine();
            for o in &RULE_OPTIONS {
                o.set(&mut r, &o.get(&preset)).unwrap();
            }
            assert_eq!(r, preset, "{name}");
        }
        assert_eq!(find("no capture").map(|o| o.name), Some("NoCapture"));
        assert!(find("Colour").is_none());
    }
}
