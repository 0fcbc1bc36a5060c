//! Who plays which game of a match or a tournament, and the check of a recorded game against
//! it: what `--resume` and `moulin replay` hold every kept line to, so that an edited game
//! number, player or result is named instead of counted.
//!
//! Game numbers follow the runner's schedule: the games come in pairs (units) that cycle
//! through the pairings; game `g` (from 1) is in unit `(g - 1) / 2`, of pairing `unit % k` (`k`
//! pairings), and the first game of a pair (odd `g`) gives the pairing's first engine White.

use super::line_error::LineError;
use crate::matches::engines::spec::{self, EngineSpec};
use crate::matches::quoting;
use crate::rules::board::ByColor;
use std::fmt;

/// How the engines of a tournament meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// The first engine plays each of the others.
    Gauntlet,
    /// Every engine plays every other.
    RoundRobin,
}

impl Tournament {
    /// Reads `gauntlet` or `round-robin`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Tournament> {
        match text {
            "gauntlet" => Some(Tournament::Gauntlet),
            "round-robin" => Some(Tournament::RoundRobin),
            _ => None,
        }
    }

    /// The pairings of `n` engines (by index, the pairing's first engine first), in the order
    /// the schedule takes them.
    #[must_use]
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Tournament::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }
}

impl fmt::Display for Tournament {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tournament::Gauntlet => "gauntlet",
            Tournament::RoundRobin => "round-robin",
        })
    }
}

/// The results a record may hold.
pub const RESULTS: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

/// The engines of game `number` (from 1) of a pairing `(first, second)`: who has White and who
/// has Black.
pub fn seats(pairing: (usize, usize), number: usize) -> ByColor<usize> {
    let (first, second) = pairing;
    if number % 2 == 1 {
        ByColor::new(first, second)
    } else {
        ByColor::new(second, first)
    }
}

/// The `key=value` words of a settings line, in order (`None` when a quote is not closed).
#[must_use]
pub fn settings_words(settings: &str) -> Option<Vec<(String, String)>> {
    let words = quoting::split(settings).ok()?;
    Some(
        words
            .iter()
            .filter_map(|w| match quoting::key_value(w) {
                (Some(k), v) => Some((k.to_string(), v.to_string())),
                (None, _) => None,
            })
            .collect(),
    )
}

/// The engines of a match, how they meet, and (when known) how many games each pairing plays.
#[derive(Clone, Debug)]
pub struct Lineup {
    /// The engines' names, in the order of `--engine`.
    pub names: Vec<String>,
    /// The pairings (engine indices, first engine first).
    pub pairings: Vec<(usize, usize)>,
    /// The variant every game is of.
    pub variant: String,
    /// Games by pairing, when known (a resumed match knows it; a records file says it, unless
    /// an older moulin wrote it).
    pub games: Option<usize>,
}

impl Lineup {
    /// The lineup of the engines of a settings line (`engine=`, `each=`, `tournament=`,
    /// `variant=` and `games=` words, as `moulin match` writes them; records written before
    /// `games=` have no count of games). `None` when
    /// the line does not name two engines or more (or a tournament for more than two).
    #[must_use]
    pub fn from_settings(settings: &str) -> Option<Lineup> {
        let pairs = settings_words(settings)?;
        let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        // The specs as the match read them: after the words of its `--each`.
        let each = match value("each") {
            Some(text) => quoting::split(text).ok()?,
            None => Vec::new(),
        };
        let mut specs = pairs
            .iter()
            .filter(|(k, _)| k == "engine")
            .map(|(_, v)| EngineSpec::parse_with(v, &each).ok())
            .collect::<Option<Vec<_>>>()?;
        spec::distinct_names(&mut specs);
        let names: Vec<String> = specs.into_iter().map(|s| s.name).collect();
        let pairings = match value("tournament") {
            Some(t) => Tournament::parse(t)?.pairings(names.len()),
            None if names.len() == 2 => vec![(0, 1)],
            None => return None,
        };
        // A count of games that cannot be read names no match (records before `games=` have
        // none: every number from 1 is theirs).
        let games = match value("games") {
            Some(g) => Some(g.parse().ok()?),
            None => None,
        };
        Some(Lineup {
            names,
            pairings,
            variant: value("variant").map_or_else(|| "nine".to_string(), Clone::clone),
            games,
        })
    }

    /// Whether game `number` (from 1) is one the match plays: every number from 1 when the
    /// count of games is not known.
    #[must_use]
    pub fn exists(&self, number: usize) -> bool {
        let Some(games) = self.games else {
            return number >= 1;
        };
        let k = self.pairings.len();
        let units = games.div_ceil(2).saturating_mul(k);
        let unit = number.wrapping_sub(1) / 2;
        // The second game of the last pair is left out when the pairing's games are odd.
        number >= 1 && unit < units && (number % 2 == 1 || 2 * (unit / k) + 2 <= games)
    }

    /// How many games the match plays and the highest number among them, when known: a
    /// pairing's odd count of games leaves the second game of its last pair out, so the
    /// numbers skip.
    #[must_use]
    pub fn numbers(&self) -> Option<(usize, usize)> {
        let games = self.games?;
        let k = self.pairings.len();
        let top = games.div_ceil(2).saturating_mul(k).saturating_mul(2);
        let last = (top.saturating_sub(1)..=top)
            .rev()
            .find(|&n| self.exists(n))?;
        Some((games.saturating_mul(k), last))
    }

    /// The engine index of `name`.
    ///
    /// # Errors
    ///
    /// A name that is not an engine of the match.
    pub fn engine(&self, name: &str) -> Result<usize, LineError> {
        self.names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| LineError::NotAnEngine {
                name: name.to_string(),
                engines: self.names.join(", "),
            })
    }

    /// The engines of game `number` (from 1, a game the match plays): who has White and who has
    /// Black.
    #[must_use]
    pub fn seats(&self, number: usize) -> ByColor<usize> {
        let k = self.pairings.len();
        seats(self.pairings[number.saturating_sub(1) / 2 % k], number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lineup(settings: &str) -> Lineup {
        Lineup::from_settings(settings).unwrap()
    }

    #[test]
    fn game_numbers_follow_the_schedule() {
        let mut l = lineup("engine=\"name=a cmd=x\" engine=\"name=b cmd=y\" variant=nine");
        assert_eq!(l.pairings, vec![(0, 1)]);
        l.games = Some(3);
        let exists: Vec<usize> = (0..6).filter(|&g| l.exists(g)).collect();
        assert_eq!(exists, vec![1, 2, 3]);
        l.games = None;
        assert!(l.exists(999_999_999) && !l.exists(0));
        assert_eq!(seats((0, 1), 1), ByColor::new(0, 1));
        assert_eq!(seats((0, 1), 2), ByColor::new(1, 0));
    }

    #[test]
    fn a_round_robin_cycles_through_its_pairings() {
        let mut l = lineup(
            "engine=\"name=a cmd=x\" engine=\"name=b cmd=x\" engine=\"name=c cmd=x\" \
             tournament=round-robin variant=nine",
        );
        assert_eq!(l.pairings.len(), 3);
        l.games = Some(2);
        // Three pairings, one pair each: games 1 to 6.
        let exists: Vec<usize> = (0..9).filter(|&g| l.exists(g)).collect();
        assert_eq!(exists, vec![1, 2, 3, 4, 5, 6]);
        // Game 3 is the first game of the second pairing.
        let p = l.pairings[1];
        assert_eq!(seats(p, 3).white, p.0);
    }

    #[test]
    fn repeated_names_are_numbered_as_the_match_numbers_them() {
        let l = lineup("engine=\"cmd=./moulin\" engine=\"cmd=./moulin\"");
        assert_eq!(l.names, vec!["moulin", "moulin-2"]);
        assert!(Lineup::from_settings("engine=\"cmd=./moulin\"").is_none());
    }
}
