//! The protocol's options: the engine's own table, and the rule options of
//! `rules::rule_options::RULE_OPTIONS` (the one table of their names, values, reader and writer). `uci`
//! lists both; `setoption` checks a value against them before anything changes.

use crate::book::Variety;
use crate::rules::notation::Convention;
use crate::rules::rule_options::{self as options, Values, RULE_OPTIONS};
use crate::rules::{Rules, PRESETS};
use crate::search::strength;
use crate::search::{Searcher, SolvedChoice, Strength, Style};
use std::fmt;

/// The type of an option, as `uci` announces it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Check,
    Spin {
        min: u64,
        max: u64,
    },
    Combo(&'static [&'static str]),
    /// Free text, kept as given (case included); `<empty>` or nothing is the empty string.
    Text,
}

pub const MAX_HASH_MB: u64 = 1024;
pub const MAX_THREADS: u64 = crate::search::MAX_THREADS as u64;
pub const MAX_MULTIPV: u64 = 64;
pub const MAX_OVERHEAD_MS: u64 = 5000;

const ENGINE_OPTIONS: [(&str, Kind); 17] = [
    (
        "Hash",
        Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
        },
    ),
    (
        "Threads",
        Kind::Spin {
            min: 1,
            max: MAX_THREADS,
        },
    ),
    (
        "MultiPV",
        Kind::Spin {
            min: 1,
            max: MAX_MULTIPV,
        },
    ),
    (
        "MoveOverhead",
        Kind::Spin {
            min: 0,
            max: MAX_OVERHEAD_MS,
        },
    ),
    ("LearnOverhead", Kind::Check),
    ("Ponder", Kind::Check),
    ("Style", Kind::Combo(&["full", "plain"])),
    ("MoveNotation", Kind::Combo(&["turn", "action"])),
    ("Variant", Kind::Combo(&PRESETS)),
    ("OwnBook", Kind::Check),
    ("BookFile", Kind::Text),
    ("BookVariety", Kind::Combo(&["best", "weighted"])),
    ("TablesPath", Kind::Text),
    ("SolvedPlacing", Kind::Combo(&SolvedChoice::NAMES)),
    ("Level", Kind::Spin { min: 1, max: 20 }),
    ("UCI_LimitStrength", Kind::Check),
    (
        "UCI_Elo",
        Kind::Spin {
            min: strength::ELO_MIN,
            max: strength::ELO_MAX,
        },
    ),
];

impl From<Values> for Kind {
    fn from(values: Values) -> Kind {
        match values {
            Values::Check => Kind::Check,
            Values::Spin { min, max } => Kind::Spin { min, max },
            Values::Choice(words) => Kind::Combo(words),
        }
    }
}

/// Every setting `setoption` can change.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `Hash`: the transposition table's size in MB.
    pub hash_mb: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `MultiPV`: lines reported.
    pub multipv: usize,
    /// `MoveOverhead`: milliseconds kept back from each move's time.
    pub move_overhead: u64,
    /// `LearnOverhead`: what is kept in reserve for each move besides the engine's own time.
    pub overhead: OverheadReserve,
    /// `Ponder`: whether the GUI may ask for pondering.
    pub ponder: bool,
    /// `Style`: how the engine plays.
    pub style: Style,
    /// `MoveNotation`: the notation of moves read and written.
    pub notation: Convention,
    /// The rules in force (`Variant` and the rule options).
    pub rules: Rules,
    /// Play from the opening book when the position is in it.
    pub own_book: bool,
    /// The book file; empty for the default book of the variant in force.
    pub book_file: String,
    /// `BookVariety`: which of the book's moves is played.
    pub book_variety: Variety,
    /// The endgame tables directory; empty: no tables.
    pub tables_path: String,
    /// `SolvedPlacing`: how moves are picked where the placing solution covers the position.
    pub solved_placing: SolvedChoice,
    /// The playing level, 1 to 20 (20: full strength).
    pub level: u8,
    /// Play at `elo` (`UCI_LimitStrength`), whatever the level.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength to play at when `limit_strength`.
    pub elo: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 30,
            overhead: OverheadReserve::Learned,
            ponder: false,
            style: Style::Full,
            notation: Convention::Turn,
            rules: Rules::default(),
            own_book: true,
            book_file: String::new(),
            book_variety: Variety::Best,
            tables_path: String::new(),
            solved_placing: SolvedChoice::Testing,
            level: 20,
            limit_strength: false,
            elo: strength::ELO_MAX,
        }
    }
}

/// `LearnOverhead`: what is kept in reserve for each move besides the engine's own time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverheadReserve {
    /// `MoveOverhead` and what the GUI was seen to charge per move beyond the engine's own time
    /// (`true`, the default).
    Learned,
    /// `MoveOverhead` alone (`false`).
    Fixed,
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Changed {
    /// `Hash`: the table is made again.
    Hash,
    /// `Threads`: the searcher is made again.
    Threads,
    /// `MultiPV`, `MoveOverhead` or Style: copied into the searcher's options.
    Search,
    /// Ponder or `MoveNotation`: nothing more to do.
    Protocol,
    /// The rules: the position goes back to the start of the new rules (and the default book
    /// follows the variant).
    Rules,
    /// `OwnBook` or `BookFile`: the book is loaded again.
    Book,
    /// `TablesPath`: the endgame tables are loaded again.
    Tables,
}

/// A `setoption` that was refused; the option keeps its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The option needs a value and none was given.
    MissingValue(&'static str),
    /// The value is not one the option takes.
    BadValue {
        /// The option.
        option: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::command::shown;
        match self {
            OptionError::Unknown(name) => {
                write!(f, "unknown option '{}' (see the uci command)", shown(name))
            }
            OptionError::MissingValue(name) => write!(f, "setoption {name}: missing value"),
            OptionError::BadValue {
                option,
                value,
                expected,
            } => write!(
                f,
                "setoption {option}: bad value '{}' (expected {expected})",
                shown(value)
            ),
        }
    }
}

impl std::error::Error for OptionError {}

fn describe(kind: Kind) -> String {
    match kind {
        Kind::Check => "true or false".into(),
        Kind::Spin { min, max } => format!("a whole number from {min} to {max}"),
        Kind::Combo(vars) => format!("one of {}", vars.join(", ")),
        Kind::Text => "any text".into(),
    }
}

/// One `option name ...` line.
fn option_line(name: &str, kind: Kind, default: &str) -> String {
    match kind {
        Kind::Check => format!("option name {name} type check default {default}"),
        Kind::Spin { min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Text => {
            let shown = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {name} type string default {shown}")
        }
        Kind::Combo(vars) => {
            let mut s = format!("option name {name} type combo default {default}");
            for v in vars {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
    }
}

/// Finds an option by name: case does not matter, nor do spaces (`Move Overhead`).
fn canonical(name: &str) -> Option<(&'static str, Kind)> {
    let wanted: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    ENGINE_OPTIONS
        .iter()
        .find(|(n, _)| n.to_ascii_lowercase() == wanted)
        .copied()
        .or_else(|| options::find(&wanted).map(|o| (o.name, Kind::from(o.values))))
}

fn check_value(name: &'static str, kind: Kind, value: &str) -> Result<String, OptionError> {
    let bad = || OptionError::BadValue {
        option: name,
        value: value.to_string(),
        expected: describe(kind),
    };
    let v = value.trim().to_ascii_lowercase();
    match kind {
        // Text keeps its case (a file name); `<empty>` is UCI's empty string.
        Kind::Text => Ok(match value.trim() {
            "<empty>" => String::new(),
            text => text.to_string(),
        }),
        Kind::Check => match v.as_str() {
            "true" | "false" => Ok(v),
            _ => Err(bad()),
        },
        Kind::Spin { min, max } => {
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let n = v.bytes().fold(0u64, |n, b| {
                n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
            });
            if (min..=max).contains(&n) {
                Ok(n.to_string())
            } else {
                Err(bad())
            }
        }
        Kind::Combo(vars) => vars
            .iter()
            .find(|var| var.eq_ignore_ascii_case(&v))
            .map(std::string::ToString::to_string)
            .ok_or_else(bad),
    }
}

impl Settings {
    /// The `option` lines of the `uci` reply, with the defaults the engine starts with.
    pub fn uci_lines() -> Vec<String> {
        let d = Settings::default();
        let mut lines: Vec<String> = ENGINE_OPTIONS
            .iter()
            .map(|&(name, kind)| option_line(name, kind, &d.value(name)))
            .collect();
        for o in &RULE_OPTIONS {
            lines.push(option_line(o.name, o.values.into(), &o.get(&d.rules)));
        }
        lines
    }

    /// The current value of an option (by its canonical name), as `uci` would show it.
    pub fn value(&self, name: &str) -> String {
        match name {
            "Hash" => self.hash_mb.to_string(),
            "Threads" => self.threads.to_string(),
            "MultiPV" => self.multipv.to_string(),
            "MoveOverhead" => self.move_overhead.to_string(),
            "LearnOverhead" => (self.overhead == OverheadReserve::Learned).to_string(),
            "Ponder" => self.ponder.to_string(),
            "Style" => match self.style {
                Style::Full => "full".into(),
                Style::Plain => "plain".into(),
            },
            "MoveNotation" => match self.notation {
                Convention::Turn => "turn".into(),
                Convention::Action => "action".into(),
            },
            "Variant" => self.rules.preset_name().unwrap_or("custom").into(),
            "OwnBook" => self.own_book.to_string(),
            "BookFile" => self.book_file.clone(),
            "TablesPath" => self.tables_path.clone(),
            "SolvedPlacing" => self.solved_placing.name().into(),
            "Level" => self.level.to_string(),
            "UCI_LimitStrength" => self.limit_strength.to_string(),
            "UCI_Elo" => self.elo.to_string(),
            "BookVariety" => match self.book_variety {
                Variety::Best => "best".into(),
                Variety::Weighted => "weighted".into(),
            },
            _ => options::find(name)
                .map(|o| o.get(&self.rules))
                .unwrap_or_default(),
        }
    }

    /// Sets a check option that only the protocol reads: `Ponder` or `LearnOverhead`.
    fn set_protocol_check(&mut self, name: &str, on: bool) {
        if name == "Ponder" {
            self.ponder = on;
        } else {
            self.overhead = if on {
                OverheadReserve::Learned
            } else {
                OverheadReserve::Fixed
            };
        }
    }

    /// Sets one option. The value is checked first: on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        let (name, kind) = canonical(name).ok_or_else(|| OptionError::Unknown(name.into()))?;
        // A string option may be set to nothing.
        let value = match (value, kind) {
            (None, Kind::Text) => "",
            (v, _) => v.ok_or(OptionError::MissingValue(name))?,
        };
        let v = check_value(name, kind, value)?;
        let number = || v.parse::<u64>().unwrap_or(0);
        Ok(match name {
            "Hash" => {
                self.hash_mb = number() as usize;
                Changed::Hash
            }
            "Threads" => {
                self.threads = number() as usize;
                Changed::Threads
            }
            "MultiPV" => {
                self.multipv = number() as usize;
                Changed::Search
            }
            "MoveOverhead" => {
                self.move_overhead = number();
                Changed::Search
            }
            "Level" => {
                self.level = number() as u8;
                Changed::Search
            }
            "UCI_LimitStrength" => {
                self.limit_strength = v == "true";
                Changed::Search
            }
            "UCI_Elo" => {
                self.elo = number();
                Changed::Search
            }
            "Style" => {
                self.style = if v == "plain" {
                    Style::Plain
                } else {
                    Style::Full
                };
                Changed::Search
            }
            "Ponder" | "LearnOverhead" => {
                self.set_protocol_check(name, v == "true");
                Changed::Protocol
            }
            "MoveNotation" => {
                self.notation = if v == "action" {
                    Convention::Action
                } else {
                    Convention::Turn
                };
                Changed::Protocol
            }
            "OwnBook" => {
                self.own_book = v == "true";
                Changed::Book
            }
            "BookFile" => {
                self.book_file = v;
                Changed::Book
            }
            "TablesPath" => {
                self.tables_path = v;
                Changed::Tables
            }
            "SolvedPlacing" => {
                self.solved_placing = SolvedChoice::from_name(&v).unwrap_or(SolvedChoice::Testing);
                Changed::Search
            }
            "BookVariety" => {
                self.book_variety = if v == "weighted" {
                    Variety::Weighted
                } else {
                    Variety::Best
                };
                Changed::Protocol
            }
            "Variant" => {
                self.rules = Rules::preset(&v).ok_or_else(|| OptionError::BadValue {
                    option: name,
                    value: value.into(),
                    expected: describe(kind),
                })?;
                Changed::Rules
            }
            _ => {
                let mut rules = self.rules;
                rules.set(name, &v).map_err(|e| OptionError::BadValue {
                    option: name,
                    value: value.into(),
                    expected: e.to_string(),
                })?;
                self.rules = rules;
                Changed::Rules
            }
        })
    }
}

/// The searcher the settings describe.
impl Settings {
    /// A searcher with the settings' hash size, threads, strength and style.
    #[must_use]
    pub fn new_searcher(&self) -> Searcher {
        let mut s = Searcher::new(self.hash_mb, self.threads);
        self.apply_to(&mut s);
        s
    }

    /// Copies the search options into `searcher`.
    pub fn apply_to(&self, searcher: &mut Searcher) {
        searcher.options.multipv = self.multipv;
        searcher.options.move_overhead = self.move_overhead;
        searcher.options.style = self.style;
        searcher.options.solved_placing = self.solved_placing;
        searcher.options.strength = self.strength();
    }

    /// The playing strength in force: `None` for the full engine. `UCI_LimitStrength` plays
    /// at `UCI_Elo` (a level between two calibrated ones); otherwise `Level` holds.
    pub fn strength(&self) -> Option<Strength> {
        if self.limit_strength {
            Strength::level(strength::level_of_elo(
                self.elo as f64,
                &strength::CALIBRATION,
            ))
        } else {
            Strength::level(f64::from(self.level))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_elo_holds_only_with_uci_limit_strength() {
        let mut s = Settings::default();
        assert_eq!(s.strength(), None);
        s.set("Level", Some("7")).unwrap();
        assert_eq!(s.strength().map(Strength::value), Some(7.0));
        s.set("UCI_Elo", Some(&strength::ELO_MIN.to_string()))
            .unwrap();
        s.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(s.strength().map(Strength::value), Some(1.0));
        s.set("UCI_Elo", Some(&strength::ELO_MAX.to_string()))
            .unwrap();
        assert_eq!(s.strength(), None);
        assert!(s.set("UCI_Elo", Some("0")).is_err());
    }

    #[test]
    fn every_rule_option_is_listed_and_round_trips() {
        let lines = Settings::uci_lines();
        for o in &RULE_OPTIONS {
            let listed = format!("option name {} ", o.name);
            assert!(lines.iter().any(|l| l.starts_with(&listed)), "{}", o.name);
        }
        for preset in PRESETS {
            let rules = Rules::preset(preset).unwrap();
            let mut s = Settings::default();
            for (name, value) in rules.options() {
                s.set(name, Some(&value)).unwrap();
            }
            assert_eq!(s.rules, rules, "{preset}");
            assert_eq!(s.value("Variant"), preset);
        }
    }

    #[test]
    fn names_ignore_case_and_spaces() {
        let mut s = Settings::default();
        assert_eq!(s.set("move overhead", Some("50")), Ok(Changed::Search));
        assert_eq!(s.move_overhead, 50);
        assert_eq!(s.set("HASH", Some("64")), Ok(Changed::Hash));
        assert_eq!(s.hash_mb, 64);
        s.set("variant", Some("Lasker")).unwrap();
        assert_eq!(s.rules, Rules::preset("lasker").unwrap());
    }

    #[test]
    fn book_options() {
        let mut s = Settings::default();
        assert_eq!(
            s.set("BookFile", Some("/Some/Path.book")),
            Ok(Changed::Book)
        );
        assert_eq!(s.book_file, "/Some/Path.book");
        assert_eq!(s.set("bookfile", Some("<empty>")), Ok(Changed::Book));
        assert_eq!(s.book_file, "");
        assert_eq!(s.set("OwnBook", Some("false")), Ok(Changed::Book));
        assert!(!s.own_book);
        assert_eq!(
            s.set("BookVariety", Some("Weighted")),
            Ok(Changed::Protocol)
        );
        assert_eq!(s.book_variety, Variety::Weighted);
        assert!(s.set("BookVariety", Some("random")).is_err());
    }

    #[test]
    fn refused_values_change_nothing() {
        let mut s = Settings::default();
        let before = s.clone();
        for (name, value) in [
            ("Hash", Some("1000000000000")),
            ("Hash", Some("0")),
            ("Hash", Some("-3")),
            ("Threads", Some("x")),
            ("Ponder", Some("maybe")),
            ("Pieces", Some("13")),
            ("Flying", Some("2")),
            ("Variant", Some("chess")),
            ("Colour", Some("red")),
            ("Hash", None),
        ] {
            assert!(s.set(name, value).is_err(), "{name} {value:?}");
            assert_eq!(s, before);
        }
    }

    #[test]
    fn uci_lines_name_every_option() {
        let lines = Settings::uci_lines();
        assert_eq!(lines.len(), ENGINE_OPTIONS.len() + RULE_OPTIONS.len());
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1024".into()));
        assert!(
            lines.contains(&"option name NoCapture type spin default 100 min 0 max 10000".into())
        );
        assert!(lines.contains(&"option name Diagonals type check default false".into()));
        assert!(lines.contains(&"option name OwnBook type check default true".into()));
        assert!(lines.contains(&"option name BookFile type string default <empty>".into()));
        assert!(lines.contains(
            &"option name BookVariety type combo default best var best var weighted".into()
        ));
    }
}
