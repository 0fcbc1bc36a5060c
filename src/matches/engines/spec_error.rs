//! What is wrong with an engine spec (`SpecError`): the spec as given, the offending word or
//! key (`SpecProblem`), and whether it came from `--each`.

use super::time_control::TimeControlError;
use crate::matches::quoting::QuoteError;
use crate::text::quoted;
use std::fmt;

/// The keys a spec may have, for error messages.
pub(super) const KEYS: &str =
    "keys: cmd, arg, name, dir, notation, rules, option.<Name>, tc, st, movetime, nodes, depth, proto";

/// A spec that could not be read, with the offending word.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine spec {}: {problem}{place}", quoted(.spec))]
pub struct SpecError {
    /// The spec, as given.
    pub spec: String,
    /// What is wrong with it.
    pub problem: SpecProblem,
    /// Where the offending word is: in the spec, or in `--each`.
    pub place: Place,
}

impl SpecError {
    /// What is wrong, with where, as the message says it after the spec.
    #[must_use]
    pub fn message(&self) -> String {
        format!("{}{}", self.problem, self.place)
    }
}

/// Where the offending word of a spec is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the spec itself.
    Spec,
    /// A word of `--each`, read with the spec.
    FromEach,
    /// `--each`'s words among themselves (a key given twice there).
    InEach,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Spec => Ok(()),
            Place::FromEach => write!(f, " (from --each)"),
            Place::InEach => write!(f, " (in --each)"),
        }
    }
}

/// What is wrong with a spec's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecProblem {
    /// A quote is not closed.
    #[error(transparent)]
    Quote(#[from] QuoteError),
    /// No word at all.
    #[error("empty spec: give cmd=<program> at least")]
    Empty,
    /// Words but no command line.
    #[error("no command: give cmd=<program>")]
    NoCommand,
    /// A word that holds a control character (`what` names the word, the key or the value).
    #[error(
        "{what} holds the control character {}: a spec's names and values are printable text \
         (an engine reads a line break as the end of a command, records keep one line)",
        quoted(&.character.to_string())
    )]
    ControlCharacter {
        /// The part that holds it, in words (`the value of cmd, 'x',`).
        what: String,
        /// The character.
        character: char,
    },
    /// More than one of `tc`, `st` and `movetime`.
    #[error("give one time control: one of tc, st and movetime")]
    TwoTimes,
    /// A key given twice.
    #[error("{key} given twice")]
    Twice {
        /// The key.
        key: String,
    },
    /// A word that is not `key=value`.
    #[error("'{word}' is not key=value ({KEYS})")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A key no spec has.
    #[error("unknown key '{key}' ({KEYS})")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A cutechess-cli key whose meaning moulin has elsewhere.
    #[error("{key}= is cutechess-cli's: {instead}")]
    Cutechess {
        /// The key.
        key: String,
        /// moulin's way.
        instead: &'static str,
    },
    /// `name=` with nothing but blanks.
    #[error("empty name")]
    EmptyName,
    /// A `notation=` value that is no notation.
    #[error("notation '{value}': expected turn or action")]
    Notation {
        /// The value.
        value: String,
    },
    /// A `rules=` value that is no way to tell the rules.
    #[error("rules '{value}': expected variant, options, both or none")]
    RulesBy {
        /// The value.
        value: String,
    },
    /// A `proto=` value that is no protocol.
    #[error("proto '{value}': expected uci or gbgp")]
    Proto {
        /// The value.
        value: String,
    },
    /// `proto=gbgp` with `notation=action`.
    #[error("proto=gbgp speaks the turn notation only: leave out notation=action")]
    GbgpNotation,
    /// `proto=gbgp` with a `rules` key.
    #[error(
        "proto=gbgp is told the rules by its option TwelveMensMorris: leave out the rules key"
    )]
    GbgpRules,
    /// A time key whose value is no time control.
    #[error("{key}={}: {source}", quoted(.value))]
    Time {
        /// `tc` or `st`.
        key: String,
        /// The value.
        value: String,
        /// Why (boxed: it is rare, and the spec's error stays small).
        source: Box<TimeControlError>,
    },
    /// A count (`nodes`, `depth`, `movetime`) that is not a whole number of at least 1.
    #[error("{key} {}: expected a whole number of at least 1", quoted(.value))]
    Count {
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// An option name with the word `value` in it.
    #[error(
        "the option name {} holds the word 'value', which ends an option's name in \
         `setoption`: the engine would set another option",
        quoted(.name)
    )]
    OptionName {
        /// The option's name.
        name: String,
    },
    /// A key that bounds a match's searches, given to a command that sets each search itself.
    #[error(
        "tc, st, movetime, nodes and depth bound the searches of moulin match; {command} sets \
         each search itself (see its --help)"
    )]
    Bounded {
        /// The command (`moulin openings`).
        command: String,
    },
}
