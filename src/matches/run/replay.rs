//! `moulin replay`'s checks: every record of a match's results file (or every game of a file of
//! PGN-shaped records) played again under moulin's rules, every move and every result checked;
//! the games of either kind of file as the trainer reads them; and the games lost from openings
//! labelled drawn.

use super::game_line::{Recap, Record};
use super::line_error::LineError;
use super::lineup::Lineup;
use super::records_file::{each_line, read_header, RecordsError};
use super::standings::Standings;
use crate::box_error::BoxError;
use crate::record::{openings, RecordError};
use crate::rules::game::Game;
use crate::rules::Rules;
use crate::text::{escaped, printable, MAX_SHOWN};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// What stops a replay, or a reading of games for the trainer, naming the file (and the line).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A records file that cannot be opened or read.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// A results line of a file cannot be read, or does not replay.
    #[error("{source_name}:{line}: {}", escaped(&source.to_string()))]
    Line {
        /// The file, as shown.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        source: LineError,
    },
    /// A results line read by `replay --drawn` cannot be read.
    #[error(
        "{source_name}:{line}: {} (--drawn reads match records, not PGN)",
        escaped(&source.to_string())
    )]
    DrawnLine {
        /// The file, as shown.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        source: LineError,
    },
    /// A file of games cannot be read.
    #[error("cannot read {source_name}: {source}")]
    Read {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A file of PGN-shaped records cannot be read.
    #[error("{source_name}: {source}")]
    Pgn {
        /// The file, as shown.
        source_name: String,
        /// Where and what.
        source: RecordError,
    },
    /// A game of a file of PGN-shaped records cannot be set up.
    #[error("{source_name}, game {game}: {source}")]
    PgnGame {
        /// The file, as shown.
        source_name: String,
        /// The game's number in the file, from 1.
        game: usize,
        /// Why.
        source: BoxError,
    },
    /// A PGN-shaped record whose moves cannot be played.
    #[error("{source}")]
    PgnMoves {
        /// Why.
        source: BoxError,
    },
    /// Some records do not replay.
    #[error("{failed} of {games} records failed")]
    RecordsFailed {
        /// The records that failed.
        failed: usize,
        /// The records read.
        games: usize,
    },
    /// Some PGN-shaped games do not replay.
    #[error("{failed} of {games} games failed")]
    GamesFailed {
        /// The games that failed.
        failed: usize,
        /// The games read.
        games: usize,
    },
    /// An openings file cannot be read, or one of its openings played.
    #[error("{source}")]
    Openings {
        /// Why (naming the file and the line).
        source: BoxError,
    },
}

/// A record that failed its replay.
#[derive(Debug)]
pub struct Failure {
    /// The line it is on, from 1.
    pub line: usize,
    /// Its game number, when the record could be read.
    pub game: Option<usize>,
    /// What is wrong.
    pub error: LineError,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The error may quote a field of the record (a name, a variant): never raw.
        let error = escaped(&self.error.to_string());
        match self.game {
            Some(game) => write!(f, "game {game}: {error}"),
            None => write!(f, "{error}"),
        }
    }
}

/// What a replay of match records found.
#[derive(Debug, Default)]
pub struct Replay {
    /// The records read.
    pub games: usize,
    /// The moves of the records that replayed (without their openings).
    pub plies: usize,
    /// Every record that failed.
    pub errors: Vec<Failure>,
    /// The results of the records that could be read.
    pub recap: Recap,
    /// The engines' names (first first), from the first record read.
    pub names: Option<[String; 2]>,
}

/// Replays every record of `input`, read from `source`. Once the settings line is read, every
/// record is also held to the match it names (`Record::fits`: its game number, its engines in
/// their seats, its variant); in any file, no game number may come twice.
///
/// # Errors
///
/// Input that cannot be read.
pub fn replay(input: impl BufRead, source: &str) -> Result<Replay, ReplayError> {
    let mut out = Replay::default();
    // Before any header line, records are checked without a match (an older moulin's, or made
    // by hand); after one, against the match it names, or failed when it names none.
    let (mut lineup, mut headed) = (None, false);
    let mut seen = HashMap::new();
    each_line::<ReplayError>(input, source, |number, line, _| {
        if read_header(line, &mut lineup) {
            headed = true;
        } else if !line.is_empty() && !line.starts_with('#') {
            out.add(number, line, (headed, lineup.as_ref()), &mut seen);
        }
        Ok(())
    })?;
    Ok(out)
}

impl Replay {
    /// Reads and checks the record on line `number` (once a header line was read, `headed`,
    /// against the match of `lineup`, failing when it names none; and against the game numbers
    /// `seen` so far, with their lines), and adds up its result when it replays.
    fn add(
        &mut self,
        number: usize,
        line: &str,
        (headed, lineup): (bool, Option<&Lineup>),
        seen: &mut HashMap<usize, usize>,
    ) {
        self.games += 1;
        let (game, fits) = match Record::parse(line) {
            Err(error) => (None, Err(error)),
            Ok(record) => {
                let game = record.game;
                let fits = match (headed, lineup) {
                    (true, Some(l)) => record.fits(l),
                    (true, None) => Err(LineError::NoMatch),
                    (false, _) => record.check(),
                };
                let fits = fits.and_then(|()| match seen.insert(record.game, number) {
                    Some(first) => Err(LineError::Twice {
                        game: record.game,
                        first,
                    }),
                    None => Ok(record),
                });
                (Some(game), fits)
            }
        };
        match fits {
            Ok(record) => {
                self.plies += record.moves.len();
                add_result(&mut self.recap, &mut self.names, &record);
            }
            Err(error) => self.errors.push(Failure {
                line: number,
                game,
                error,
            }),
        }
    }

    /// Whether every record replayed.
    ///
    /// # Errors
    ///
    /// How many failed, when any did.
    pub fn verdict(&self) -> Result<(), ReplayError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(ReplayError::RecordsFailed {
                failed: self.errors.len(),
                games: self.games,
            })
        }
    }
}

/// Adds the result of `record` to `recap`, from the view of the match's first engine: `names`,
/// the engines of the match (first first), taken from the first record added.
fn add_result(recap: &mut Recap, names: &mut Option<[String; 2]>, record: &Record) {
    let names = names.get_or_insert_with(|| {
        let first = record.first_engine().to_string();
        let second = if record.white == first {
            record.black.clone()
        } else {
            record.white.clone()
        };
        [first, second]
    });
    recap.add(record, [&names[0], &names[1]]);
}

/// What a replay of PGN-shaped records found.
#[derive(Debug, Default)]
pub struct PgnReplay {
    /// The games read.
    pub games: usize,
    /// Their moves.
    pub plies: usize,
    /// One line for each game whose result does not follow (`game N[, round R]: why`).
    pub failed: Vec<String>,
    /// The results of the games, as for match records (game numbers from the `Round` tags),
    /// while they name two engines.
    pub recap: Recap,
    /// The engines' names (first first), from the first game read.
    pub names: Option<[String; 2]>,
    /// The results of every pair of engines the games name, as read (the order of the file),
    /// for the summary of games of more than two engines (`PgnReplay::standings`); the memory
    /// is that of the pairs, not of the games.
    met: Standings,
    /// For each engine of `met`, where it first played: twice the lowest game number it played
    /// in, plus one if it had Black there.
    first_game: Vec<usize>,
    /// For each pairing of `met`, the lowest game number of its games and the engine that had
    /// White in it.
    first_of_pairing: Vec<(usize, usize)>,
}

impl PgnReplay {
    /// Adds the result of game `number` (from 1, in the file) of `r` to the results.
    fn add_result(&mut self, number: usize, r: &crate::record::Record) {
        let name = |tag| r.tag(tag).unwrap_or("?").to_string();
        let (white, black) = (name("White"), name("Black"));
        // The match writes each game's number as its round; another tool's rounds may be
        // anything, and the game's place in the file stands in for them.
        let game = r
            .tag("Round")
            .and_then(|t| t.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or(number);
        let record = Record {
            game,
            white,
            black,
            variant: r.tag("Variant").unwrap_or("nine").to_string(),
            opening: openings::Opening::startpos(),
            moves: Vec::new(),
            result: r.result.clone(),
            end: r.tag("Termination").unwrap_or("normal").to_string(),
            loser: None,
            answer: None,
            reason: String::new(),
            notes: Vec::new(),
        };
        self.meet(&record);
        if self.engines().len() <= 2 {
            add_result(&mut self.recap, &mut self.names, &record);
        }
    }
}

impl PgnReplay {
    /// Every engine the games name (`White` and `Black`), in the order met: more than two, and
    /// the games are not one match, so `recap` stops being added to.
    #[must_use]
    pub fn engines(&self) -> &[String] {
        &self.met.names
    }

    /// Adds a game's result to those of its pair of engines (`met`), noting where each engine
    /// and each pairing first played.
    fn meet(&mut self, record: &Record) {
        let st = &mut self.met;
        let mut index = |name: &str| {
            if let Some(i) = st.names.iter().position(|n| n == name) {
                return i;
            }
            st.names.push(name.to_string());
            self.first_game.push(usize::MAX);
            st.names.len() - 1
        };
        let (w, b) = (index(&record.white), index(&record.black));
        // White before Black in a game, as the games meet the engines.
        for (e, side) in [(w, 0), (b, 1)] {
            let key = record.game.saturating_mul(2).saturating_add(side);
            self.first_game[e] = self.first_game[e].min(key);
        }
        if st.pairing_of(&record.white, &record.black).is_none() {
            st.pairings.push((w, b));
            st.recaps.push(Recap::default());
            self.first_of_pairing.push((usize::MAX, w));
        }
        let k = st
            .pairing_of(&record.white, &record.black)
            .unwrap_or(st.pairings.len() - 1);
        if record.game < self.first_of_pairing[k].0 {
            self.first_of_pairing[k] = (record.game, w);
        }
        st.add(record);
    }

    /// The results of every pair of engines the games name (a tournament's), in the order of
    /// the games' numbers, whatever the order of the file: the engines as the games meet them,
    /// each pairing when first played, from the view of the engine that had White in its first
    /// game; so that the PGN of a tournament gives its own order of engines and pairings.
    #[must_use]
    pub fn standings(&self) -> Standings {
        let met = &self.met;
        let mut engines: Vec<usize> = (0..met.names.len()).collect();
        engines.sort_by_key(|&e| self.first_game[e]);
        let place = |e: usize| engines.iter().position(|&x| x == e).unwrap_or(e);
        let mut pairings: Vec<usize> = (0..met.pairings.len()).collect();
        pairings.sort_by_key(|&k| self.first_of_pairing[k].0);
        let mut st = Standings {
            names: engines.iter().map(|&e| met.names[e].clone()).collect(),
            ..Standings::default()
        };
        for k in pairings {
            let (i, j) = met.pairings[k];
            let mut recap = met.recaps[k].clone();
            let first = self.first_of_pairing[k].1;
            let (a, b) = if first == i { (i, j) } else { (j, i) };
            if first != i {
                recap.flip();
            }
            st.pairings.push((place(a), place(b)));
            st.recaps.push(recap);
        }
        st
    }

    /// Whether every game replayed.
    ///
    /// # Errors
    ///
    /// How many failed, when any did.
    pub fn verdict(&self) -> Result<(), ReplayError> {
        if self.failed.is_empty() {
            Ok(())
        } else {
            Err(ReplayError::GamesFailed {
                failed: self.failed.len(),
                games: self.games,
            })
        }
    }
}

/// What the replay of a file found: of match records, or of PGN-shaped records.
#[derive(Debug)]
pub enum Replayed {
    /// A file of match records.
    Records(Replay),
    /// A file of PGN-shaped records.
    Pgn(PgnReplay),
}

/// Whether a file holds PGN-shaped records rather than match records, by its first bytes
/// (`head`): match records start with a `#` line or a `key=value` word (after blanks and a UTF-8
/// byte order mark); anything else is read as PGN, whose reader names what is wrong in it.
fn holds_pgn(head: &[u8]) -> bool {
    let text = head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(head)
        .trim_ascii_start();
    let key = text
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    !(text.starts_with(b"#") || key > 0 && text.get(key) == Some(&b'='))
}

/// The file at `path`, buffered and past a UTF-8 byte order mark (which an editor may put at
/// the start of either format), and whether it holds PGN-shaped records (`holds_pgn`).
fn open_records(path: &Path) -> std::io::Result<(BufReader<File>, bool)> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let mut input = BufReader::with_capacity(1 << 16, crate::input_file::open_regular(path)?);
    let head = input.fill_buf()?;
    let pgn = holds_pgn(head);
    if head.starts_with(BOM) {
        input.consume(BOM.len());
    }
    Ok((input, pgn))
}

/// One game read by `games_of_file`: its start, its moves as written, and its result (`1-0`,
/// `0-1`, `1/2-1/2`, or `*` when unknown).
pub type GameRead = (Game, Vec<String>, String);

/// The games of a file of either format (match records, one per line, or PGN-shaped records).
///
/// # Errors
///
/// An unreadable file or record, naming the file (and the line, for match records).
pub fn games_of_file(path: &Path) -> Result<Vec<GameRead>, ReplayError> {
    let source = path.display().to_string();
    let cannot_read = |e| ReplayError::Read {
        source_name: source.clone(),
        source: e,
    };
    let (input, pgn) = open_records(path).map_err(cannot_read)?;
    if pgn {
        return crate::record::games(input)
            .enumerate()
            .map(|(i, r)| {
                let r = r.map_err(|e| ReplayError::Pgn {
                    source_name: source.clone(),
                    source: e,
                })?;
                let start = r.start().map_err(|e| ReplayError::PgnGame {
                    source_name: source.clone(),
                    game: i + 1,
                    source: e.into(),
                })?;
                Ok((start, r.move_texts(), r.result.clone()))
            })
            .collect();
    }
    let mut games = Vec::new();
    each_line::<ReplayError>(input, &source, |n, line, _| {
        if !line.is_empty() && !line.starts_with('#') {
            let game = game_of_line(line).map_err(|e| ReplayError::Line {
                source_name: source.clone(),
                line: n,
                source: e,
            })?;
            games.push(game);
        }
        Ok(())
    })?;
    Ok(games)
}

/// The game of one line of match records.
fn game_of_line(line: &str) -> Result<GameRead, LineError> {
    let r = Record::parse(line)?;
    let rules = Rules::preset(&r.variant).ok_or_else(|| LineError::UnknownVariant {
        variant: r.variant.clone(),
    })?;
    let start = match &r.opening.fen {
        Some(f) => Game::from_fen(f, rules)?,
        None => Game::new(rules),
    };
    let moves = r.opening.moves.into_iter().chain(r.moves).collect();
    // Only a result the rules gave on the board is the game's value: a forfeit or an
    // adjudication counts as no result.
    let result = if r.end == "rules" {
        r.result
    } else {
        "*".into()
    };
    Ok((start, moves, result))
}

/// Replays a file of either kind: match records (every record checked), or PGN-shaped records.
///
/// # Errors
///
/// A file that cannot be read, or PGN-shaped records that cannot be (the first problem, with
/// its line and column).
pub fn replay_file(path: &Path) -> Result<Replayed, ReplayError> {
    let source = path.display().to_string();
    let (input, pgn) = open_records(path).map_err(|e| RecordsError::Read {
        source_name: source.clone(),
        source: e,
    })?;
    if pgn {
        return replay_pgn(input, &source).map(Replayed::Pgn);
    }
    replay(input, &source).map(Replayed::Records)
}

/// Replays PGN-shaped records: every game read (every move checked; the first problem of the
/// file is an error with its line and column), and each result checked against the rules: the
/// rules' own result when the game ended on the board, and otherwise `*` or a `Termination`
/// that says why it ended early.
///
/// # Errors
///
/// Records that cannot be read, or a game whose moves cannot be played.
pub fn replay_pgn(input: impl BufRead, source: &str) -> Result<PgnReplay, ReplayError> {
    let mut out = PgnReplay::default();
    for (i, r) in crate::record::games(input).enumerate() {
        let r = r.map_err(|e| ReplayError::Pgn {
            source_name: source.to_string(),
            source: e,
        })?;
        out.games += 1;
        out.add_result(i + 1, &r);
        let (game, _) = r
            .game()
            .map_err(|e| ReplayError::PgnMoves { source: e.into() })?;
        out.plies += r.moves.len();
        let over = game.outcome();
        let termination = r.tag("Termination").unwrap_or("normal");
        let problem = match over {
            Some(o) if o.score() != r.result => Some(format!(
                "the game is over ({}), but the result is {}",
                o.describe(),
                r.result
            )),
            None if r.result != "*" && termination == "normal" => Some(format!(
                "the result is {} but the game goes on (and no Termination says why it ended)",
                r.result
            )),
            _ => None,
        };
        if let Some(p) = problem {
            let name = r.tag("Round").map_or(String::new(), |n| {
                format!(", round {}", printable(n, MAX_SHOWN))
            });
            out.failed.push(format!("game {}{name}: {p}", i + 1));
        }
    }
    Ok(out)
}

/// The report of `replay --drawn`: how many games began with an opening of the file `drawn`,
/// and each of them that an engine lost (game number, loser, opening, result).
/// Match records only, read a line at a time (`source` names them in errors); an opening counts
/// as the position it reaches, so the same position reached by another order of moves counts
/// too.
///
/// # Errors
///
/// A record that cannot be read (or a line longer than `input_file::MAX_LINE`), records of more
/// than one variant, or an openings file that cannot be read.
pub fn losses_from_drawn(
    records: impl BufRead,
    source: &str,
    drawn: &Path,
) -> Result<String, ReplayError> {
    let mut classes: Option<(Rules, rustc_hash::FxHashSet<u64>)> = None;
    let (mut from_drawn, mut lost) = (0, Vec::new());
    for line in crate::input_file::lines(records, crate::input_file::MAX_LINE) {
        let (n, line) = line.map_err(|e| RecordsError::Read {
            source_name: source.to_string(),
            source: e,
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: LineError| ReplayError::DrawnLine {
            source_name: source.to_string(),
            line: n,
            source: e,
        };
        let r = Record::parse(line).map_err(at)?;
        let rules = Rules::named(&r.variant).map_err(|e| at(e.into()))?;
        if classes.is_none() {
            classes = Some((rules, drawn_classes(drawn, &rules)?));
        }
        let Some((of_rules, keys)) = &classes else {
            continue;
        };
        if *of_rules != rules {
            return Err(at(LineError::MixedVariants {
                variant: r.variant.clone(),
            }));
        }
        let start = r
            .opening
            .game(&rules)
            .map_err(|e| at(LineError::Opening { source: e.into() }))?;
        if !keys.contains(&crate::rules::symmetry::fold(start.position()).key) {
            continue;
        }
        from_drawn += 1;
        let loser = match r.result.as_str() {
            "1-0" => &r.black,
            "0-1" => &r.white,
            _ => continue,
        };
        lost.push((
            loser.clone(),
            format!(
                "  game {}: {loser} lost ({} - {}, {}) from \"{}\"\n",
                r.game,
                r.white,
                r.black,
                r.result,
                r.opening.to_line()
            ),
        ));
    }
    Ok(drawn_report(drawn, from_drawn, &lost))
}

/// The keys of the positions the openings of the file `drawn` reach, folded under the board's
/// symmetries.
fn drawn_classes(drawn: &Path, rules: &Rules) -> Result<rustc_hash::FxHashSet<u64>, ReplayError> {
    let mut keys = rustc_hash::FxHashSet::default();
    let book = openings::read_book_file(drawn, rules)
        .map_err(|e| ReplayError::Openings { source: e.into() })?;
    for o in book {
        let game = o
            .game(rules)
            .map_err(|e| ReplayError::Openings { source: e.into() })?;
        keys.insert(crate::rules::symmetry::fold(game.position()).key);
    }
    Ok(keys)
}

/// The text of `replay --drawn`'s report: the count, then each game lost (`(loser, line)`).
fn drawn_report(drawn: &Path, from_drawn: usize, lost: &[(String, String)]) -> String {
    let mut by: Vec<(&str, usize)> = Vec::new();
    for (name, _) in lost {
        match by.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 += 1,
            None => by.push((name, 1)),
        }
    }
    let tally: Vec<String> = by.iter().map(|(n, k)| format!("{n} {k}")).collect();
    let mut out = format!(
        "{from_drawn} games from openings labelled drawn in {}; {} lost{}\n",
        drawn.display(),
        lost.len(),
        if lost.is_empty() {
            String::new()
        } else {
            format!(" (by {}):", tally.join(", "))
        }
    );
    out.extend(lost.iter().map(|(_, l)| l.as_str()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::games::referee::{End, Played};
    use crate::record::openings::Opening;

    #[test]
    fn replay_counts_the_records_that_fail() {
        let played = Played {
            opening: Opening::parse("d7 a1", &Rules::nine()).unwrap(),
            moves: vec!["g7".into()],
            end: End::MoveLimit(1),
            overhead: crate::matches::games::referee::Overhead::default(),
            notes: Vec::new(),
        };
        let record = Record::new(1, "a b", "c\"d", "nine", &played);
        let text = format!("# header\n{}\nnot a record\n", record.to_line());
        let rep = replay(text.as_bytes(), "t").unwrap();
        assert_eq!(rep.games, 2);
        assert_eq!(rep.errors.len(), 1);
        assert_eq!(rep.errors[0].line, 3);
    }

    #[test]
    fn losses_from_drawn_openings_are_listed_by_loser_up_to_symmetry() {
        let dir = std::env::temp_dir().join(format!("moulin-drawn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let drawn = dir.join("drawn.txt");
        // `d6 d2 b4` is `d2 d6 b4` mirrored: the records' opening is in the file.
        std::fs::write(&drawn, "# labelled drawn\nd6 d2 b4  # cp 3\n").unwrap();
        let records = "# moulin match: a vs b\n\
            game=1 white=a black=b variant=nine start=startpos opening=\"d2 d6 b4\" moves=\"\" result=0-1 end=rules reason=x\n\
            game=2 white=b black=a variant=nine start=startpos opening=\"d2 d6 b4\" moves=\"\" result=1/2-1/2 end=rules reason=x\n\
            game=3 white=a black=b variant=nine start=startpos opening=\"a1 a4 a7\" moves=\"\" result=1-0 end=rules reason=x\n";
        let report = losses_from_drawn(records.as_bytes(), "r", &drawn).unwrap();
        assert!(
            report.starts_with("2 games from openings labelled drawn in "),
            "{report}"
        );
        assert!(report.contains("1 lost (by a 1):"), "{report}");
        assert!(report.contains("game 1: a lost (a - b, 0-1) from \"d2 d6 b4\""));
        assert!(!report.contains("game 3"), "{report}");
        std::fs::write(&drawn, "d2 d2\n").unwrap();
        let err = losses_from_drawn(records.as_bytes(), "r", &drawn)
            .unwrap_err()
            .to_string();
        assert!(err.contains("drawn.txt, line 1"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
