//! What the games of a match or a tournament add up to: the engines, the pairings they play (one
//! for a match; the first engine against each other one for a gauntlet, every pair for a
//! round-robin), and each pairing's results from its first engine's view. A game counts for the
//! pairing of the two engines its record names, whichever had White.

use super::game_line::{Recap, Record};
use super::lineup::{self, Lineup, Tournament};
use super::records_file::{self, RecordsError};
use crate::matches::numbers::ratings::{Scores, MAX_ANCHOR_ELO};
use std::collections::BTreeMap;
use std::io::BufReader;
use std::path::Path;

/// The results of a match or a tournament, by pairing.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    /// The engines' names, in the order of `--engine`.
    pub names: Vec<String>,
    /// The pairings (engine indices, first engine first).
    pub pairings: Vec<(usize, usize)>,
    /// Each pairing's results, from its first engine's view.
    pub recaps: Vec<Recap>,
}

impl Standings {
    /// No games yet between the engines `names`, playing `pairings`.
    #[must_use]
    pub fn new(names: Vec<String>, pairings: Vec<(usize, usize)>) -> Standings {
        let recaps = vec![Recap::default(); pairings.len()];
        Standings {
            names,
            pairings,
            recaps,
        }
    }

    /// The pairing of the engines called `a` and `b` (in either order), if there is one.
    #[must_use]
    pub fn pairing_of(&self, a: &str, b: &str) -> Option<usize> {
        self.pairings.iter().position(|&(i, j)| {
            let (x, y) = (self.names[i].as_str(), self.names[j].as_str());
            (x, y) == (a, b) || (y, x) == (a, b)
        })
    }

    /// Adds the record of a game to its pairing's results. Returns the pairing and whether the
    /// game completed a pair; `None` (and nothing added) when no pairing has its two engines.
    pub fn add(&mut self, record: &Record) -> Option<(usize, bool)> {
        let k = self.pairing_of(&record.white, &record.black)?;
        let (i, j) = self.pairings[k];
        let names = [self.names[i].as_str(), self.names[j].as_str()];
        Some((k, self.recaps[k].add(record, names)))
    }

    /// The games added.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.recaps.iter().map(|r| r.tally.games()).sum()
    }

    /// How the games ended, by kind.
    #[must_use]
    pub fn ends(&self) -> BTreeMap<String, u32> {
        let mut ends = BTreeMap::new();
        for (kind, n) in self.recaps.iter().flat_map(|r| &r.ends) {
            *ends.entry(kind.clone()).or_default() += n;
        }
        ends
    }

    /// Each engine's forfeits.
    #[must_use]
    pub fn forfeits(&self) -> Vec<u32> {
        let mut out = vec![0; self.names.len()];
        for (&(i, j), r) in self.pairings.iter().zip(&self.recaps) {
            out[i] += r.forfeits[0];
            out[j] += r.forfeits[1];
        }
        out
    }

    /// The games and points between every two engines.
    #[must_use]
    pub fn scores(&self) -> Scores {
        let mut s = Scores::new(self.names.len());
        for (&(i, j), r) in self.pairings.iter().zip(&self.recaps) {
            let t = &r.tally;
            let points = f64::from(t.wins) + 0.5 * f64::from(t.draws);
            s.add_games(i, j, f64::from(t.games()), points);
        }
        s
    }
}

/// A tournament's records read back: the kind, the anchor, and the standings.
#[derive(Debug)]
pub struct TournamentRecords {
    /// How the engines met.
    pub tournament: Tournament,
    /// The engine the ratings are anchored on (an index into the names).
    pub anchor: usize,
    /// Its rating.
    pub anchor_elo: f64,
    /// The results of the games of the file.
    pub standings: Standings,
}

/// The settings of a tournament's records line: the kind, the engines' names (as `--engine`
/// gives them, with their repeats numbered), the anchor and its rating. `None` for a match's
/// settings, or settings that do not say these.
#[must_use]
pub fn tournament_settings(settings: &str) -> Option<(Tournament, Vec<String>, usize, f64)> {
    let pairs = lineup::settings_words(settings)?;
    let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let tournament = Tournament::parse(value("tournament")?)?;
    let names = Lineup::from_settings(settings)?.names;
    let anchor = names.iter().position(|n| Some(n) == value("anchor"))?;
    // Within the bound `moulin match` keeps (an edited file's `1e308` is no rating).
    let anchor_elo = value("anchor-elo")?
        .parse()
        .ok()
        .filter(|e: &f64| e.abs() <= MAX_ANCHOR_ELO)?;
    Some((tournament, names, anchor, anchor_elo))
}

/// The records of the tournament in the file at `path`, added up; `None` when the file is a
/// match's (or has no settings line).
///
/// # Errors
///
/// A file that cannot be read. Records that cannot be read or do not fit the tournament (see
/// `Record::fits`), and a game's second record, are left out (`moulin replay` names them).
pub fn tournament_of_records(path: &Path) -> Result<Option<TournamentRecords>, RecordsError> {
    let Some(settings) = records_file::settings_of(path) else {
        return Ok(None);
    };
    let Some((tournament, names, anchor, anchor_elo)) = tournament_settings(&settings) else {
        return Ok(None);
    };
    let source = path.display().to_string();
    let file = records_file::open_regular(path, false)?;
    let mut lineup = None;
    let mut seen = std::collections::HashSet::new();
    let pairings = tournament.pairings(names.len());
    let mut standings = Standings::new(names, pairings);
    records_file::each_line::<RecordsError>(BufReader::new(file), &source, |_, line, _| {
        let header = records_file::read_header(line, &mut lineup);
        if !header && !line.is_empty() && !line.starts_with('#') {
            let record = Record::parse(line).ok().filter(|r| {
                lineup.as_ref().is_some_and(|l| r.fits(l).is_ok()) && seen.insert(r.game)
            });
            if let Some(record) = record {
                standings.add(&record);
            }
        }
        Ok(())
    })?;
    Ok(Some(TournamentRecords {
        tournament,
        anchor,
        anchor_elo,
        standings,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_each_kind() {
        assert_eq!(
            Tournament::Gauntlet.pairings(4),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(
            Tournament::RoundRobin.pairings(4),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
    }

    #[test]
    fn games_count_for_the_engines_their_records_name() {
        let names = ["a", "b", "c"].map(String::from).to_vec();
        let mut s = Standings::new(names, Tournament::RoundRobin.pairings(3));
        let line = |n: usize, w: &str, b: &str, result: &str| {
            Record::parse(&format!(
                "game={n} white={w} black={b} start=startpos opening=\"\" moves=\"\" result={result} end=rules"
            ))
            .unwrap()
        };
        // Pairing a-c is the second: games 3 and 4, c White in game 4.
        assert_eq!(s.add(&line(3, "a", "c", "1/2-1/2")), Some((1, false)));
        assert_eq!(s.add(&line(4, "c", "a", "1-0")), Some((1, true)));
        assert_eq!(s.add(&line(5, "b", "c", "0-1")), Some((2, false)));
        assert_eq!(s.add(&line(7, "a", "x", "1-0")), None);
        let t = &s.recaps[1].tally;
        assert_eq!((t.wins, t.draws, t.losses), (0, 1, 1));
        assert_eq!(t.pairs, [0, 1, 0, 0, 0]);
        let scores = s.scores();
        assert_eq!(scores.between(2, 0), (2.0, 1.5));
        assert_eq!(scores.between(1, 2), (1.0, 0.0));
        assert_eq!(s.games(), 3);
    }

    #[test]
    fn settings_name_the_engines_and_the_anchor() {
        let s = "engine=\"name=a cmd=x\" engine=y engine=y tournament=round-robin anchor=y-2 anchor-elo=1500 variant=nine";
        let (t, names, anchor, elo) = tournament_settings(s).unwrap();
        assert_eq!(t, Tournament::RoundRobin);
        assert_eq!(names, ["a", "y", "y-2"]);
        assert_eq!((anchor, elo), (2, 1500.0));
        assert!(tournament_settings("engine=a engine=b variant=nine").is_none());
    }
}
