//! What the tables cover: the most pieces a side, the rules they can serve and the fingerprint
//! of those rules, and where they are kept.

use super::tables_error::TablesError;
use crate::rules::Rules;
use std::fmt::Write;
use std::path::PathBuf;

/// The most pieces a side the tables go to (the standard game's nine).
pub const MAX_PIECES: u8 = 9;

/// The default directory of the tables of a variant: `$XDG_CACHE_HOME/moulin/tables/<variant>`,
/// or `~/.cache/moulin/tables/<variant>`.
pub fn default_dir(variant: &str) -> PathBuf {
    cache_root().join("tables").join(variant)
}

/// Where moulin keeps its large outputs: `$XDG_CACHE_HOME/moulin`, or `~/.cache/moulin`.
pub fn cache_root() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("moulin")
}

/// Why tables cannot serve the rules in force, if they cannot.
pub fn unsupported(rules: &Rules) -> Option<TablesError> {
    (rules.reform != crate::rules::Reform::Allowed).then_some(TablesError::Unsupported)
}

/// The fingerprint of the rules a table is built for: the rule options that change the moving
/// phase (board, flying, mill protection, removals per mill, re-formed mills, full board), by
/// name and value. Pieces per side, who starts, placing and the draw rules do not enter.
pub fn fingerprint(rules: &Rules) -> u64 {
    moving_options(rules)
        .bytes()
        .fold(0x6d6f_756c_696e_7462, |h, b| {
            crate::rng::mix(h ^ u64::from(b))
        })
}

/// The rule options that change a moving position's value, as `Name=value;` each (what
/// `fingerprint` hashes).
pub fn moving_options(rules: &Rules) -> String {
    const MOVING: [&str; 6] = [
        "Diagonals",
        "Flying",
        "MillProtection",
        "DoubleMill",
        "Reform",
        "FullBoard",
    ];
    rules
        .options()
        .into_iter()
        .filter(|(name, _)| MOVING.contains(name))
        .fold(String::new(), |mut text, (name, value)| {
            let _ = write!(text, "{name}={value};");
            text
        })
}
