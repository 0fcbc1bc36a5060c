//! The engine's options, each in one table that says its name, the values it takes, how a
//! value is read and how it is written: the engine's own (`ENGINE_OPTIONS`, whose defaults are
//! `Settings::default()`), and the rule options of `rules::rule_options::RULE_OPTIONS`. The `uci`
//! listing, `setoption` and the getter `Settings::value` all read the tables; `setoption` checks
//! a value against them before anything changes.

use crate::book::Variety;
use crate::rules::notation::Convention;
use crate::rules::rule_options::{self as options, RuleOption, Values, RULE_OPTIONS};
use crate::rules::{Rules, PRESETS};
use crate::search::strength;
use crate::search::{Searcher, SolvedChoice, Strength, Style};
use crate::shipped;
use std::fmt;

/// The type of an option, as `uci` announces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The form of `setoption`, as its errors quote it.
pub const SETOPTION_FORM: &str = "setoption name <id> [value <x>]";
pub const MAX_HASH_MB: u64 = 1024;
pub const MAX_TABLES_CACHE_MB: u64 = 65536;
pub const MAX_THREADS: u64 = crate::search::MAX_THREADS as u64;
pub const MAX_MULTIPV: u64 = 64;
pub const MAX_OVERHEAD_MS: u64 = 5000;

/// One engine option: everything the protocol knows of it, in one place. Its default is its
/// value in `Settings::default()`, written by `write`, as a rule option's is in a preset.
struct EngineOption {
    /// The name, as `uci` lists it and `setoption` takes it (any case, spaces ignored).
    name: &'static str,
    /// The values it takes, as `uci` announces them and `setoption` checks them.
    kind: Kind,
    /// The option's value in the settings, in the form `uci` shows and `read` takes.
    write: fn(&Settings) -> String,
    /// Stores a value already checked against `kind` (a spin's number, a check's `true` or
    /// `false`, a combo's word as listed, a text as given) and says what changed; `None` when
    /// the value cannot be used, and then nothing changed.
    read: fn(&mut Settings, &str) -> Option<Changed>,
}

/// A spin from `min` to `max`.
const fn spin(min: u64, max: u64) -> Kind {
    Kind::Spin { min, max }
}

/// A spin's value, already checked to be a number in its bounds.
fn number(v: &str) -> u64 {
    v.parse().unwrap_or(0)
}

/// Every engine option, in the order `uci` lists them (before the rule options).
static ENGINE_OPTIONS: [EngineOption; 20] = [
    EngineOption {
        name: "Hash",
        kind: spin(1, MAX_HASH_MB),
        write: |s| s.hash_mb.to_string(),
        read: |s, v| {
            s.hash_mb = number(v) as usize;
            Some(Changed::Hash)
        },
    },
    EngineOption {
        name: "Threads",
        kind: spin(1, MAX_THREADS),
        write: |s| s.threads.to_string(),
        read: |s, v| {
            s.threads = number(v) as usize;
            Some(Changed::Threads)
        },
    },
    EngineOption {
        name: "MultiPV",
        kind: spin(1, MAX_MULTIPV),
        write: |s| s.multipv.to_string(),
        read: |s, v| {
            s.multipv = number(v) as usize;
            Some(Changed::Search)
        },
    },
    EngineOption {
        name: "MoveOverhead",
        kind: spin(0, MAX_OVERHEAD_MS),
        write: |s| s.move_overhead.to_string(),
        read: |s, v| {
            s.move_overhead = number(v);
            Some(Changed::Search)
        },
    },
    EngineOption {
        name: "LearnOverhead",
        kind: Kind::Check,
        write: |s| (s.overhead == OverheadReserve::Learned).to_string(),
        read: |s, v| {
            s.overhead = if v == "true" {
                OverheadReserve::Learned
            } else {
                OverheadReserve::Fixed
            };
            Some(Changed::Protocol)
        },
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check,
        write: |s| s.ponder.to_string(),
        read: |s, v| {
            s.ponder = v == "true";
            Some(Changed::Protocol)
        },
    },
    EngineOption {
        name: "Style",
        kind: Kind::Combo(&["full", "plain"]),
        write: |s| {
            match s.style {
                Style::Full => "full",
                Style::Plain => "plain",
            }
            .into()
        },
        read: |s, v| {
            s.style = if v == "plain" {
                Style::Plain
            } else {
                Style::Full
            };
            Some(Changed::Search)
        },
    },
    EngineOption {
        name: "MoveNotation",
        kind: Kind::Combo(&["turn", "action"]),
        write: |s| s.notation.name().into(),
        read: |s, v| {
            s.notation = Convention::parse(v)?;
            Some(Changed::Protocol)
        },
    },
    EngineOption {
        name: "Variant",
        kind: Kind::Combo(&PRESETS),
        write: |s| s.rules.preset_name().unwrap_or("custom").into(),
        read: |s, v| {
            s.rules = Rules::preset(v)?;
            Some(Changed::Rules)
        },
    },
    EngineOption {
        name: "OwnBook",
        kind: Kind::Check,
        write: |s| s.own_book.to_string(),
        read: |s, v| {
            s.own_book = v == "true";
            Some(Changed::Book)
        },
    },
    EngineOption {
        name: "BookFile",
        kind: Kind::Text,
        write: |s| s.book_file.clone(),
        read: |s, v| {
            s.book_file = v.to_string();
            Some(Changed::Book)
        },
    },
    EngineOption {
        name: "BookVariety",
        kind: Kind::Combo(&["best", "weighted"]),
        write: |s| {
            match s.book_variety {
                Variety::Best => "best",
                Variety::Weighted => "weighted",
            }
            .into()
        },
        read: |s, v| {
            s.book_variety = if v == "weighted" {
                Variety::Weighted
            } else {
                Variety::Best
            };
            Some(Changed::Protocol)
        },
    },
    EngineOption {
        name: "TablesPath",
        kind: Kind::Text,
        write: |s| s.tables_path.clone(),
        read: |s, v| {
            s.tables_path = v.to_string();
            Some(Changed::Tables)
        },
    },
    EngineOption {
        name: "TablesCache",
        kind: spin(1, MAX_TABLES_CACHE_MB),
        write: |s| s.tables_cache_mb.to_string(),
        read: |s, v| {
            s.tables_cache_mb = number(v) as usize;
            Some(Changed::TablesCache)
        },
    },
    EngineOption {
        name: "OpeningSolution",
        kind: Kind::Text,
        write: |s| s.opening_solution.clone(),
        read: |s, v| {
            s.opening_solution = v.to_string();
            Some(Changed::Tables)
        },
    },
    EngineOption {
        name: "EvalFile",
        kind: Kind::Text,
        write: |s| s.eval_file.clone(),
        read: |s, v| {
            s.eval_file = v.to_string();
            Some(Changed::Network)
        },
    },
    EngineOption {
        name: "SolvedPlacing",
        kind: Kind::Combo(&SolvedChoice::NAMES),
        write: |s| s.solved_placing.name().into(),
        read: |s, v| {
            s.solved_placing = SolvedChoice::from_name(v).unwrap_or(SolvedChoice::Testing);
            Some(Changed::Search)
        },
    },
    EngineOption {
        name: "Level",
        kind: spin(1, 20),
        write: |s| s.level.to_string(),
        read: |s, v| {
            s.level = number(v) as u8;
            Some(Changed::Search)
        },
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        write: |s| s.limit_strength.to_string(),
        read: |s, v| {
            s.limit_strength = v == "true";
            Some(Changed::Search)
        },
    },
    EngineOption {
        name: "UCI_Elo",
        kind: spin(strength::ELO_MIN, strength::ELO_MAX),
        write: |s| s.elo.to_string(),
        read: |s, v| {
            s.elo = number(v);
            Some(Changed::Search)
        },
    },
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
    /// The book file; `built-in` (or empty) for the default book of the variant in force,
    /// built in; `none` for none.
    pub book_file: String,
    /// `BookVariety`: which of the book's moves is played.
    pub book_variety: Variety,
    /// The endgame tables directory; `installed` (or empty): the packed set installed for the
    /// rules in force, if any; `none` for none.
    pub tables_path: String,
    /// `TablesCache`: MB of a packed set's blocks kept unpacked.
    pub tables_cache_mb: usize,
    /// `OpeningSolution`: the opening's solution file (the placing solution's first plies);
    /// `built-in` (or empty) for the one built in for the variant in force, `none` for none.
    pub opening_solution: String,
    /// `EvalFile`: the network evaluation's file; `built-in` (or empty) for the one built in
    /// for the variant in force (`book/<variant>.nnue` when compiled), `none` for none.
    pub eval_file: String,
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
            book_file: shipped::BUILT_IN.into(),
            book_variety: Variety::Best,
            tables_path: crate::tables::pack::INSTALLED.into(),
            tables_cache_mb: crate::tables::block_cache::default_bytes() >> 20,
            opening_solution: shipped::BUILT_IN.into(),
            eval_file: shipped::BUILT_IN.into(),
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
    /// `TablesPath` or `OpeningSolution`: the endgame tables and the opening's solution are
    /// loaded again.
    Tables,
    /// `EvalFile`: the network is read again.
    Network,
    /// `TablesCache`: the packed set's cache of unpacked blocks takes its new size.
    TablesCache,
}

/// A `setoption` that was refused; the option keeps its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// No option has this name, but its first words name one: the word `value` was left out
    /// (`setoption name Hash 32`).
    NoValueWord {
        /// The name as given.
        name: String,
        /// The option its first words name.
        option: &'static str,
        /// The words after them.
        value: String,
    },
    /// The option needs a value and none was given.
    MissingValue(&'static str),
    /// The value is not one the option takes.
    BadValue {
        /// The option.
        option: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: Expected,
    },
}

/// What an option's value must be: what its type takes, or what its rule refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected(Takes);

impl Expected {
    /// `true` or `false`.
    pub const TRUE_OR_FALSE: Expected = Expected(Takes::Kind(Kind::Check));
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Takes {
    Kind(Kind),
    Rule(Box<crate::rules::RuleError>),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Takes::Kind(kind) => f.write_str(&describe(*kind)),
            Takes::Rule(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |text: &str| crate::text::printable(text, 40);
        match self {
            OptionError::Unknown(name) => {
                write!(f, "unknown option '{}' (see the uci command)", shown(name))
            }
            OptionError::NoValueWord {
                name,
                option,
                value,
            } => write!(
                f,
                "unknown option '{}' (the form is '{}'); did you mean 'setoption name {option} \
                 value {}'?",
                shown(name),
                SETOPTION_FORM,
                shown(value)
            ),
            OptionError::MissingValue(name) => write!(
                f,
                "setoption {name}: missing value (the form is '{SETOPTION_FORM}')"
            ),
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
            let shown = Some(default).filter(|d| !d.is_empty()).unwrap_or("<empty>");
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

/// An option found by name: one of the engine's, or a rule option.
#[derive(Clone, Copy)]
enum Found {
    Engine(&'static EngineOption),
    Rule(&'static RuleOption),
}

impl Found {
    /// Finds an option by name: case does not matter, nor do spaces (`Move Overhead`).
    fn by_name(name: &str) -> Option<Found> {
        let wanted: String = name.chars().filter(|c| !c.is_whitespace()).collect();
        ENGINE_OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(&wanted))
            .map(Found::Engine)
            .or_else(|| options::find(&wanted).map(Found::Rule))
    }

    fn name(self) -> &'static str {
        match self {
            Found::Engine(o) => o.name,
            Found::Rule(o) => o.name,
        }
    }

    fn kind(self) -> Kind {
        match self {
            Found::Engine(o) => o.kind,
            Found::Rule(o) => o.values.into(),
        }
    }
}

fn check_value(name: &'static str, kind: Kind, value: &str) -> Result<String, OptionError> {
    let bad = || OptionError::BadValue {
        option: name,
        value: value.to_string(),
        expected: Expected(Takes::Kind(kind)),
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
        let engine = ENGINE_OPTIONS
            .iter()
            .map(|o| option_line(o.name, o.kind, &(o.write)(&d)));
        let rules = RULE_OPTIONS
            .iter()
            .map(|o| option_line(o.name, o.values.into(), &o.get(&d.rules)));
        engine.chain(rules).collect()
    }

    /// The current value of an option (by its canonical name), as `uci` would show it.
    pub fn value(&self, name: &str) -> String {
        match ENGINE_OPTIONS.iter().find(|o| o.name == name) {
            Some(o) => (o.write)(self),
            None => options::find(name)
                .map(|o| o.get(&self.rules))
                .unwrap_or_default(),
        }
    }

    /// Sets one option. The value is checked first: on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        let found = Found::by_name(name).ok_or_else(|| unknown(name, value))?;
        let (name, kind) = (found.name(), found.kind());
        // A string option may be set to nothing.
        let value = match (value, kind) {
            (None, Kind::Text) => "",
            (v, _) => v.ok_or(OptionError::MissingValue(name))?,
        };
        let v = check_value(name, kind, value)?;
        match found {
            Found::Engine(o) => {
                let mut changed = self.clone();
                let what = (o.read)(&mut changed, &v).ok_or_else(|| OptionError::BadValue {
                    option: name,
                    value: value.into(),
                    expected: Expected(Takes::Kind(kind)),
                })?;
                *self = changed;
                Ok(what)
            }
            Found::Rule(o) => {
                let mut rules = self.rules;
                o.set(&mut rules, &v).map_err(|e| OptionError::BadValue {
                    option: name,
                    value: value.into(),
                    expected: Expected(Takes::Rule(Box::new(e))),
                })?;
                self.rules = rules;
                Ok(Changed::Rules)
            }
        }
    }
}

/// The error of a name no option has: `NoValueWord` when no value came and its first words
/// name one.
fn unknown(name: &str, value: Option<&str>) -> OptionError {
    let words: Vec<&str> = name.split_whitespace().collect();
    let guesses = if value.is_none() {
        1..words.len()
    } else {
        0..0
    };
    guesses
        .rev()
        .find_map(|n| {
            let found = Found::by_name(&words[..n].join(" "))?;
            Some(OptionError::NoValueWord {
                name: name.into(),
                option: found.name(),
                value: words[n..].join(" "),
            })
        })
        .unwrap_or_else(|| OptionError::Unknown(name.into()))
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
#[path = "options_tests.rs"]
mod tests;
