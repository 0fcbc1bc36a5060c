//! Game records: one line per game, each played again under moulin's rules to check every move
//! and every result (`Record::check`, and `Record::fits` against the match's `Lineup`), and the
//! file that holds them (`RecordsFile`: written whole line by line, resumed, locked while a
//! match runs). `moulin replay`'s reading of a whole file is in `replay`.
//!
//! A record is a line of `key=value` words (values quoted as in `words` when they hold spaces):
//!
//! ```text
//! game=3 white=new black=old variant=nine start=startpos opening="d6 f4 d2" moves="b4 g4 ..." result=1-0 end=rules reason="white wins: black has no legal move"
//! ```
//!
//! `end` is `rules` (the rules ended the game), `movelimit` (adjudicated a draw), an
//! adjudication (`tables`: the endgame tables' result; `resign` or `score-draw`: the engines'
//! scores, `--resign` and `--draw`), or the forfeit
//! kind (`illegal`, `malformed`, `claim`, `time`, `timeout`, `crash`, `exit`, `spawn`, `flood`);
//! a forfeit also has `loser=white|black`, and `illegal`, `malformed` and `claim` keep the engine's
//! answer in `answer`. Lines starting with `#` are comments; the second line of a match's file,
//! `# settings: ...`, holds what `--resume` checks (the engines and every setting that changes
//! the games).
//!
//! A records file is written line by line: each game is one `write` of its whole line, flushed;
//! a write that fails is cut back, so the file always ends with a complete record.

use super::engine::Score;
use super::line_error::LineError;
use super::lineup::{Lineup, RESULTS};
use super::referee::{End, Note, Played};
use super::stats::Tally;
use super::words;
use super::words::QuoteError;
use crate::input_file::{self, NotRegular, MAX_LINE};
use crate::record::openings::Opening;
use crate::rules::board::Color;
use crate::rules::game::Game;
use crate::rules::Rules;
use crate::text::escaped;
use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What goes wrong with a records file (or a `--pgn` file) as a match opens, resumes or
/// writes it, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// A records file cannot be read.
    #[error("cannot read records {source_name}: {source}")]
    Read {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A records file cannot be written.
    #[error("cannot write records {source_name}: {source}")]
    Write {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
    /// A new records file would replace one.
    #[error(
        "records {source_name} already exist: give --resume to continue that match, or --force \
         to replace them"
    )]
    Exist {
        /// The file, as shown.
        source_name: String,
    },
    /// The records to resume are those of another match.
    #[error("records {source_name} are of another match, so cannot be resumed: {source}")]
    OtherMatch {
        /// The file, as shown.
        source_name: String,
        /// How the settings differ.
        source: SettingsMismatch,
    },
    /// A line of the records to resume cannot be read.
    #[error("records {source_name}, line {line}: {}", escaped(&source.to_string()))]
    ResumeLine {
        /// The file, as shown.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        source: LineError,
    },
    /// Another running match holds the records file.
    #[error(
        "records {source_name} are in use by another running match: wait for it to end or stop \
         it, then run again"
    )]
    InUse {
        /// The file, as shown.
        source_name: String,
    },
    /// A file to resume is not a regular file.
    #[error("records {source_name} is {kind}, not a file of records")]
    NotAFile {
        /// The file, as shown.
        source_name: String,
        /// What it is (`a named pipe`, `a folder`...).
        kind: &'static str,
    },
    /// The records to resume have no settings line.
    #[error(
        "{source_name} is not the records of a moulin match: no '# settings:' line heads it (its \
         first line: {first}); left as it is: name another file, or remove it (or use --force) \
         to start anew"
    )]
    NoSettings {
        /// The file, as shown.
        source_name: String,
        /// Its first line, quoted.
        first: String,
    },
    /// A new file of games (`--pgn`) would replace one.
    #[error("{source_name} already exists: give --resume to add to it, or --force to replace it")]
    FileExists {
        /// The file, as shown.
        source_name: String,
    },
    /// A file of games cannot be written.
    #[error("cannot write {source_name}: {source}")]
    WriteFile {
        /// The file, as shown.
        source_name: String,
        /// The system's error.
        source: io::Error,
    },
}

/// How a records file's settings differ from those of the match that would resume it.
#[derive(Debug, thiserror::Error)]
pub enum SettingsMismatch {
    /// A quote in the settings is not closed.
    #[error(transparent)]
    Quote(#[from] QuoteError),
    /// Settings with other values, or missing (one description each).
    #[error("{}", .0.join("; "))]
    Differ(Vec<String>),
}

/// One game as a record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's number in the match, from 1.
    pub game: usize,
    /// The engine that had White.
    pub white: String,
    /// The engine that had Black.
    pub black: String,
    /// The variant's name.
    pub variant: String,
    /// The opening the game was played from.
    pub opening: Opening,
    /// The moves after the opening, one token per turn.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended: `rules`, `movelimit`, or the forfeit's kind.
    pub end: String,
    /// The side that forfeited, for a forfeit.
    pub loser: Option<Color>,
    /// The engine's answer, for a forfeit on a bad one.
    pub answer: Option<String>,
    /// What happened, in words.
    pub reason: String,
    /// What the engines said of each turn after the opening (score, depth, time), for the PGN
    /// comments; records lines do not keep them.
    pub notes: Vec<Note>,
}

impl Record {
    /// The record of a played game.
    pub fn new(game: usize, white: &str, black: &str, variant: &str, played: &Played) -> Record {
        let (loser, answer) = match &played.end {
            End::Forfeit { loser, answer, .. } => (Some(*loser), answer.clone()),
            _ => (None, None),
        };
        Record {
            game,
            white: white.to_string(),
            black: black.to_string(),
            variant: variant.to_string(),
            opening: played.opening.clone(),
            moves: played.moves.clone(),
            result: played.end.score().to_string(),
            end: played.end.kind().to_string(),
            loser,
            answer,
            reason: played.end.reason(),
            notes: played.notes.clone(),
        }
    }

    /// The game as a PGN-shaped record (`crate::record`): the seven tags (`Event` the match's
    /// title, `Site` the machine's host name, `Round` the game's number), `Variant`, `FEN` for a
    /// set-up start, the time controls (`time_controls`: White's and Black's `TimeControl` tag
    /// values, written as one `TimeControl` tag when they are the same, else as
    /// `WhiteTimeControl` and `BlackTimeControl`), `Termination`; `{book}` after each opening
    /// move and, after each move of an engine, its score, depth and time as cutechess writes
    /// them (`eval_comment`); a last comment says how the game ended.
    pub fn to_pgn(
        &self,
        event: &str,
        date: &str,
        time_controls: [&str; 2],
    ) -> crate::record::Record {
        let moves: Vec<String> = self
            .opening
            .moves
            .iter()
            .chain(&self.moves)
            .cloned()
            .collect();
        let start = self.opening.fen.as_deref();
        let mut r = crate::record::Record::new(&self.variant, start, &moves, &self.result);
        r.set("Event", event);
        r.set("Site", &site());
        r.set("Date", date);
        r.set("Round", &self.game.to_string());
        r.set("White", &self.white);
        r.set("Black", &self.black);
        match time_controls {
            [white, black] if white == black => r.set("TimeControl", white),
            [white, black] => {
                r.set("WhiteTimeControl", white);
                r.set("BlackTimeControl", black);
            }
        }
        let termination = match self.end.as_str() {
            "rules" => "normal",
            "movelimit" | "tables" | "resign" | "score-draw" => "adjudication",
            "time" | "timeout" => "time forfeit",
            _ => "rules infraction",
        };
        r.set("Termination", termination);
        let book = self.opening.moves.len();
        for (i, ply) in r.moves.iter_mut().enumerate() {
            let comment = match i.checked_sub(book) {
                None => Some("book".to_string()),
                Some(k) => self.notes.get(k).map(eval_comment),
            };
            ply.comments.extend(comment);
        }
        match r.moves.last_mut() {
            Some(ply) => ply.comments.push(self.reason.clone()),
            None => r.intro = Some(self.reason.clone()),
        }
        r
    }

    /// The record's line (no line break).
    pub fn to_line(&self) -> String {
        let q = words::quote;
        let mut line = format!(
            "game={} white={} black={} variant={} start={} opening={} moves={} result={} end={}",
            self.game,
            q(&self.white),
            q(&self.black),
            q(&self.variant),
            q(&self.opening.start_text()),
            q(&self.opening.moves.join(" ")),
            q(&self.moves.join(" ")),
            q(&self.result),
            q(&self.end)
        );
        if let Some(l) = self.loser {
            line.push_str(&format!(" loser={}", l.name()));
        }
        if let Some(a) = &self.answer {
            line.push_str(&format!(" answer={}", q(a)));
        }
        line.push_str(&format!(" reason={}", q(&self.reason)));
        line
    }

    /// The points of the engine called `name` in this game (1, ½ or 0), if it played it.
    pub fn points_of(&self, name: &str) -> Option<f64> {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.white == name {
            Some(white)
        } else if self.black == name {
            Some(1.0 - white)
        } else {
            None
        }
    }

    /// The name of the engine that lost by forfeit, if one did.
    pub fn forfeited_by(&self) -> Option<&str> {
        match self.loser? {
            Color::White => Some(&self.white),
            Color::Black => Some(&self.black),
        }
    }

    /// The first engine of the match: it has White in the first game of each pair (odd numbers).
    pub fn first_engine(&self) -> &str {
        if self.game % 2 == 1 {
            &self.white
        } else {
            &self.black
        }
    }

    /// Reads a record line.
    ///
    /// # Errors
    ///
    /// A word that is not `key=value`, a missing field, or a field that cannot be read.
    pub fn parse(line: &str) -> Result<Record, LineError> {
        let mut fields = HashMap::new();
        for w in words::split(line)? {
            match words::key_value(&w) {
                (Some(k), v) => {
                    fields.insert(k.to_string(), v.to_string());
                }
                (None, _) => return Err(LineError::NotKeyValue { word: w.clone() }),
            }
        }
        let mut take = |k: &str| {
            fields.remove(k).ok_or_else(|| LineError::Missing {
                field: k.to_string(),
            })
        };
        let game = take("game")?;
        let game = game
            .parse()
            .map_err(|_| LineError::GameNumber { text: game.clone() })?;
        let start = take("start")?;
        let opening = Opening {
            fen: (start != "startpos").then_some(start),
            moves: take("opening")?
                .split_whitespace()
                .map(String::from)
                .collect(),
        };
        let loser = match take("loser").ok().as_deref() {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(other) => {
                return Err(LineError::Loser {
                    text: other.to_string(),
                })
            }
        };
        Ok(Record {
            game,
            white: take("white")?,
            black: take("black")?,
            variant: take("variant").unwrap_or_else(|_| "nine".into()),
            opening,
            moves: take("moves")?
                .split_whitespace()
                .map(String::from)
                .collect(),
            result: {
                let result = take("result")?;
                if !RESULTS.contains(&result.as_str()) {
                    return Err(LineError::Result { text: result });
                }
                result
            },
            end: take("end")?,
            loser,
            answer: take("answer").ok(),
            reason: take("reason").unwrap_or_default(),
            notes: Vec::new(),
        })
    }

    /// Plays the record again under the rules and checks that every move is legal and that the
    /// result follows: the rules' own outcome for `end=rules`, a game still going for a forfeit or
    /// an adjudication, the forfeiting side losing, and an `illegal` answer really illegal.
    ///
    /// # Errors
    ///
    /// The first thing that does not follow.
    pub fn check(&self) -> Result<(), LineError> {
        let rules = Rules::preset(&self.variant).ok_or_else(|| LineError::UnknownVariant {
            variant: self.variant.clone(),
        })?;
        let mut game = match &self.opening.fen {
            Some(f) => Game::from_fen(f, rules)?,
            None => Game::new(rules),
        };
        for (i, tok) in self.opening.moves.iter().chain(&self.moves).enumerate() {
            game.play_token(tok)
                .map_err(|source| LineError::Ply { ply: i + 1, source })?;
        }
        let outcome = game.outcome();
        match self.end.as_str() {
            "rules" => {
                let o = outcome.ok_or(LineError::NotOver)?;
                if o.score() != self.result {
                    return Err(LineError::WrongResult {
                        result: self.result.clone(),
                        rules: o.score(),
                        why: o.describe(),
                    });
                }
            }
            "movelimit" | "tables" | "resign" | "score-draw" => {
                if let Some(o) = outcome {
                    return Err(LineError::AdjudicatedOver { why: o.describe() });
                }
                let draw = self.result == "1/2-1/2";
                let fits = match self.end.as_str() {
                    "movelimit" | "score-draw" => draw,
                    "resign" => !draw,
                    _ => true,
                };
                if !fits {
                    return Err(LineError::AdjudicatedResult {
                        end: self.end.clone(),
                        result: self.result.clone(),
                    });
                }
            }
            kind => self.check_forfeit(kind, &game)?,
        }
        Ok(())
    }

    /// Checks the record against the match of `lineup`: its game number is one the match
    /// plays, its players are engines of the match in the seats the schedule gives that game,
    /// its variant is the match's; then plays it again (`check`).
    ///
    /// # Errors
    ///
    /// The first thing that does not fit.
    pub fn fits(&self, lineup: &Lineup) -> Result<(), LineError> {
        if !lineup.exists(self.game) {
            return Err(LineError::NoSuchGame {
                game: self.game,
                games: lineup.numbers(),
            });
        }
        let (white, black) = (lineup.engine(&self.white)?, lineup.engine(&self.black)?);
        if white == black {
            return Err(LineError::PlaysItself {
                name: self.white.clone(),
            });
        }
        let wanted = lineup.seats(self.game);
        if (white, black) != (wanted.white, wanted.black) {
            return Err(LineError::OtherSeats {
                game: self.game,
                white: lineup.names[wanted.white].clone(),
                black: lineup.names[wanted.black].clone(),
            });
        }
        if self.variant != lineup.variant {
            return Err(LineError::OtherVariant {
                variant: self.variant.clone(),
                wanted: lineup.variant.clone(),
            });
        }
        self.check()
    }

    /// Checks a forfeit of kind `kind` in `game`, the game after the record's moves.
    fn check_forfeit(&self, kind: &str, game: &Game) -> Result<(), LineError> {
        let decisive = |loser: Color| match loser {
            Color::White => "0-1",
            Color::Black => "1-0",
        };
        let loser = self.loser.ok_or_else(|| LineError::NoLoser {
            kind: kind.to_string(),
        })?;
        if let Some(o) = game.outcome() {
            return Err(LineError::ForfeitOver {
                kind: kind.to_string(),
                why: o.describe(),
            });
        }
        if self.result != decisive(loser) {
            return Err(LineError::ForfeitResult {
                loser: loser.name(),
                result: self.result.clone(),
            });
        }
        let on_move = matches!(kind, "illegal" | "malformed" | "claim" | "time");
        if on_move && game.position().side_to_move() != loser {
            return Err(LineError::NotToMove {
                kind: kind.to_string(),
                loser: loser.name(),
            });
        }
        if matches!(kind, "illegal" | "malformed") {
            let answer = self.answer.as_deref().ok_or_else(|| LineError::NoAnswer {
                kind: kind.to_string(),
            })?;
            let mut copy = game.clone();
            if copy.play_tokens(answer.split_whitespace()).is_ok() {
                return Err(LineError::LegalAnswer {
                    answer: answer.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// What a set of games adds up to, from the first engine's view: the tally (games and complete
/// pairs), how the games ended, and the forfeits of each engine.
#[derive(Clone, Debug, Default)]
pub struct Recap {
    /// The games and the complete pairs, from the first engine's view.
    pub tally: Tally,
    /// How the games ended, by kind.
    pub ends: BTreeMap<String, u32>,
    /// Forfeits of the first and the second engine.
    pub forfeits: [u32; 2],
    /// The first engine's points in pairs of which one game is in, by pair.
    halves: HashMap<usize, f64>,
}

impl Recap {
    /// The same results from the other engine's view.
    pub fn flip(&mut self) {
        let t = &mut self.tally;
        std::mem::swap(&mut t.wins, &mut t.losses);
        t.pairs.reverse();
        self.forfeits.swap(0, 1);
        for points in self.halves.values_mut() {
            *points = 1.0 - *points;
        }
    }

    /// Adds the record of a game between `names` (first engine first). Returns whether it
    /// completed a pair.
    pub fn add(&mut self, record: &Record, names: [&str; 2]) -> bool {
        let points = record.points_of(names[0]).unwrap_or(0.5);
        self.tally.add_game(points);
        *self.ends.entry(record.end.clone()).or_default() += 1;
        if let Some(loser) = record.forfeited_by() {
            self.forfeits[usize::from(loser != names[0])] += 1;
        }
        let pair = (record.game.max(1) - 1) / 2;
        if let Some(other) = self.halves.remove(&pair) {
            self.tally.add_pair(points + other);
            true
        } else {
            self.halves.insert(pair, points);
            false
        }
    }
}

/// Calls `each` with the number (from 1), the text (decoded lossily, without its line break) and
/// whether it is complete (ends with a line break) of every line of the records `input` read
/// from `source`; stops at the first error (a line longer than `MAX_LINE` is one). Returns the
/// length of the complete lines and that of a last line cut short.
pub(super) fn each_line<E: From<RecordsError>>(
    mut input: impl BufRead,
    source: &str,
    mut each: impl FnMut(usize, &str, bool) -> Result<(), E>,
) -> Result<(u64, usize), E> {
    let mut bytes = Vec::new();
    let (mut whole, mut number) = (0u64, 0);
    loop {
        bytes.clear();
        let n =
            input_file::read_line(&mut input, &mut bytes, MAX_LINE, number + 1).map_err(|e| {
                E::from(RecordsError::Read {
                    source_name: source.to_string(),
                    source: e,
                })
            })?;
        if n == 0 {
            return Ok((whole, 0));
        }
        number += 1;
        let complete = bytes.last() == Some(&b'\n');
        each(number, String::from_utf8_lossy(&bytes).trim(), complete)?;
        if !complete {
            return Ok((whole, n));
        }
        whole += n as u64;
    }
}

/// `file` (at `path`) once this process holds its lock (`flock`, released when the file is
/// closed or the process dies): two matches never write one file.
fn locked(file: File, path: &Path) -> Result<File, RecordsError> {
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(RecordsError::InUse {
            source_name: path.display().to_string(),
        }),
        Err(TryLockError::Error(e)) => Err(RecordsError::Write {
            source_name: path.display().to_string(),
            source: e,
        }),
    }
}

/// Opens a records file to read (and, with `write`, to write), without waiting on a named
/// pipe, and refuses anything but a regular file (a pipe, a device, a folder), naming it.
pub(super) fn open_regular(path: &Path, write: bool) -> Result<File, RecordsError> {
    let source_name = path.display().to_string();
    input_file::open_regular_with(OpenOptions::new().read(true).write(write), path).map_err(|e| {
        match NotRegular::kind_in(&e) {
            Some(kind) => RecordsError::NotAFile { source_name, kind },
            None => RecordsError::Read {
                source_name,
                source: e,
            },
        }
    })
}

/// The prefix of a records file's settings line.
pub const SETTINGS: &str = "# settings: ";

/// The prefix of the line a resumed match writes when it plays another count of games than
/// the records' last count (`games=` of the settings line, or the last such line): the games
/// by pairing, from there on.
pub const GAMES: &str = "# games: ";

/// Reads a header line of records into `lineup`: the settings line makes it (`None` when it
/// names no match), a `# games:` line sets its count of games (or unsets the lineup, when the
/// count cannot be read). False for any other line.
pub(super) fn read_header(line: &str, lineup: &mut Option<Lineup>) -> bool {
    if let Some(settings) = line.strip_prefix(SETTINGS) {
        *lineup = Lineup::from_settings(settings);
    } else if let Some(games) = line.strip_prefix(GAMES) {
        // A count that cannot be read leaves no match to check the records against.
        match (lineup.as_mut(), games.parse()) {
            (Some(l), Ok(games)) => l.games = Some(games),
            _ => *lineup = None,
        }
    } else {
        return false;
    }
    true
}

/// A records file open for writing, that always ends with a complete record.
pub struct RecordsFile {
    file: File,
    path: PathBuf,
    /// The length of what was written whole.
    len: u64,
}

impl RecordsFile {
    /// Starts a new file (replacing one only when `force`) with the header lines: a title, and
    /// `settings` (`key=value` words) for `--resume` to check.
    ///
    /// # Errors
    ///
    /// A file that exists (without `force`), or that cannot be written.
    pub fn create(
        path: &Path,
        force: bool,
        title: &str,
        settings: &str,
    ) -> Result<RecordsFile, RecordsError> {
        let mut options = OpenOptions::new();
        options.write(true);
        if force {
            // Cut only once locked: another match may be writing it.
            options.create(true);
        } else {
            options.create_new(true);
        }
        let source_name = path.display().to_string();
        let file = options.open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => RecordsError::Exist {
                source_name: source_name.clone(),
            },
            _ => RecordsError::Write {
                source_name: source_name.clone(),
                source: e,
            },
        })?;
        let file = locked(file, path)?;
        file.set_len(0).map_err(|e| RecordsError::Write {
            source_name,
            source: e,
        })?;
        let mut out = RecordsFile {
            file,
            path: path.to_path_buf(),
            len: 0,
        };
        out.append(&format!("# {title}\n{SETTINGS}{settings}\n"))?;
        Ok(out)
    }

    /// Opens an existing file to continue its match: checks its settings line against
    /// `settings` and every record against `lineup` (`Record::fits`: the game one the match
    /// plays, its engines in their seats, every move legal, the result a result) and against
    /// the others (no game twice), then gives each to `each`. A last line without its line
    /// break is kept when it is a whole record that fits (an editor dropped the break; the break
    /// is written back), and otherwise dropped as cut short by a kill or a full disk. A missing
    /// or empty file is started as by `create`; a file with anything else in it is never
    /// replaced.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or written, that is not a regular file, that is of another
    /// match or not of a match at all (no settings line before its first record), or a record
    /// that cannot be read or does not fit (with its line).
    pub fn resume(
        path: &Path,
        title: &str,
        settings: &str,
        lineup: &Lineup,
        mut each: impl FnMut(&Record),
    ) -> Result<RecordsFile, RecordsError> {
        let shown = path.display();
        let source_name = shown.to_string();
        let file = match open_regular(path, true).and_then(|f| locked(f, path)) {
            Ok(f) => f,
            Err(RecordsError::Read { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                log::info!("records {shown} do not exist yet: a new match");
                return RecordsFile::create(path, false, title, settings);
            }
            Err(e) => return Err(e),
        };
        let mut first_line = None;
        let mut checked = false;
        // The count of games the records last stated.
        let mut stated = None;
        // The match each line is held to: the count of games the records stated up to that
        // line (as `replay` reads them), else this match's.
        let mut held = lineup.clone();
        let mut seen: HashMap<usize, usize> = HashMap::new();
        let mut last_kept = false;
        let (whole, cut) = each_line(
            BufReader::new(&file),
            &source_name,
            |line_no, line, complete| {
                // An editor's byte order mark leaves them records, as `replay` reads them.
                let line = line.trim_start_matches('\u{feff}');
                first_line.get_or_insert_with(|| crate::text::quoted(line));
                let at = |source| RecordsError::ResumeLine {
                    source_name: source_name.clone(),
                    line: line_no,
                    source,
                };
                if let Some(found) = line.strip_prefix(SETTINGS).filter(|_| complete) {
                    check_settings(found, settings).map_err(|e| RecordsError::OtherMatch {
                        source_name: source_name.clone(),
                        source: e,
                    })?;
                    checked = true;
                    stated = setting(found, "games").and_then(|g| g.parse::<usize>().ok());
                    held.games = stated.or(lineup.games);
                } else if let Some(games) = line.strip_prefix(GAMES).filter(|_| complete) {
                    stated = games.parse().ok();
                    held.games = stated.or(lineup.games);
                } else if line.is_empty() || line.starts_with('#') {
                } else if !checked {
                    if complete {
                        return Err(RecordsError::NoSettings {
                            source_name: source_name.clone(),
                            first: first_line.clone().unwrap_or_default(),
                        });
                    }
                } else {
                    // A last line without its break is a record whole but for it when it
                    // reads to its last field (`reason`, written last); else a kill cut it.
                    let whole_record = Record::parse(line).is_ok() && line.contains(" reason=");
                    if !complete && !whole_record {
                        log::warn!(
                            "records {shown}, line {line_no}: cut short ({} bytes); dropped, its \
                             game is played again",
                            line.len()
                        );
                        return Ok(());
                    }
                    let record = Record::parse(line)
                        .and_then(|r| r.fits(&held).map(|()| r))
                        .map_err(at)?;
                    if let Some(first) = seen.insert(record.game, line_no) {
                        return Err(at(LineError::Twice {
                            game: record.game,
                            first,
                        }));
                    }
                    last_kept = !complete;
                    each(&record);
                }
                Ok(())
            },
        )?;
        if whole == 0 && cut == 0 {
            log::info!("records {shown} are empty: a new match");
            drop(file);
            return RecordsFile::create(path, true, title, settings);
        }
        if !checked {
            return Err(RecordsError::NoSettings {
                source_name,
                first: first_line.unwrap_or_default(),
            });
        }
        let kept = if last_kept { cut as u64 } else { 0 };
        let mut out = RecordsFile::continued(file, path, whole, cut > 0, kept)?;
        if let Some(games) = lineup.games.filter(|&g| stated != Some(g)) {
            out.append(&format!("{GAMES}{games}\n"))?;
        }
        Ok(out)
    }

    /// The records `file` at `path` to write on after its `whole` bytes of complete lines: a
    /// last line cut short (`cut`) is cut off, unless `kept` (its length) because it is a whole
    /// record, whose line break is then written back.
    fn continued(
        mut file: File,
        path: &Path,
        whole: u64,
        cut: bool,
        kept: u64,
    ) -> Result<RecordsFile, RecordsError> {
        let cannot_write = |e| RecordsError::Write {
            source_name: path.display().to_string(),
            source: e,
        };
        if cut && kept == 0 {
            file.set_len(whole).map_err(cannot_write)?;
        }
        file.seek(SeekFrom::End(0)).map_err(cannot_write)?;
        let mut out = RecordsFile {
            file,
            path: path.to_path_buf(),
            len: whole + kept,
        };
        if kept > 0 {
            log::info!(
                "records {}: the last game's line break was missing; written back",
                path.display()
            );
            out.append("\n")?;
        }
        Ok(out)
    }

    /// Opens a file of records written as they come, with no header: a new file, or one
    /// replaced (`force`) or continued (`append`).
    ///
    /// # Errors
    ///
    /// A file that exists (neither `force` nor `append`), or that cannot be written.
    pub fn open_plain(path: &Path, force: bool, append: bool) -> Result<RecordsFile, RecordsError> {
        let mut options = OpenOptions::new();
        if append {
            options.append(true).create(true);
        } else if force {
            // Cut only once locked: another match may be writing it.
            options.write(true).create(true);
        } else {
            options.write(true).create_new(true);
        }
        let source_name = path.display().to_string();
        let cannot = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::AlreadyExists => RecordsError::FileExists {
                source_name: source_name.clone(),
            },
            _ => RecordsError::WriteFile {
                source_name: source_name.clone(),
                source: e,
            },
        };
        let file = locked(options.open(path).map_err(cannot)?, path)?;
        if force && !append {
            file.set_len(0).map_err(cannot)?;
        }
        let len = file.metadata().map_or(0, |m| m.len());
        Ok(RecordsFile {
            file,
            path: path.to_path_buf(),
            len,
        })
    }

    /// Appends `text` whole and flushes it; on failure cuts the file back to what was whole and
    /// says why.
    ///
    /// # Errors
    ///
    /// A write that fails.
    pub fn append(&mut self, text: &str) -> Result<(), RecordsError> {
        match self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
        {
            Ok(()) => {
                self.len += text.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                let _ = self.file.seek(SeekFrom::Start(self.len));
                Err(RecordsError::Write {
                    source_name: self.path.display().to_string(),
                    source: e,
                })
            }
        }
    }
}

/// Checks a records file's settings against the match's: the same keys with the same values.
fn check_settings(found: &str, wanted: &str) -> Result<(), SettingsMismatch> {
    // Each key with its values in order (`engine` has several), so that a setting one side
    // has and the other lacks does not shift the comparison of the rest.
    // The count of games is not compared: a resumed match may play more (or fewer) games.
    let map = |text: &str| -> Result<Vec<(String, Vec<String>)>, SettingsMismatch> {
        let mut keys: Vec<(String, Vec<String>)> = Vec::new();
        for w in words::split(text)? {
            let (k, v) = match words::key_value(&w) {
                (Some("games"), _) => continue,
                (Some(k), v) => (k.to_string(), v.to_string()),
                (None, v) => (String::new(), v.to_string()),
            };
            match keys.iter_mut().find(|(key, _)| *key == k) {
                Some((_, values)) => values.push(v),
                None => keys.push((k, vec![v])),
            }
        }
        Ok(keys)
    };
    let (found, wanted) = (map(found)?, map(wanted)?);
    let values_of = |keys: &[(String, Vec<String>)], k: &str| {
        keys.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.join("', '"))
    };
    let mut differ: Vec<String> = Vec::new();
    for (k, values) in &wanted {
        let v = values.join("', '");
        match values_of(&found, k) {
            Some(was) if was == v => {}
            Some(was) => differ.push(format!("{k} is '{v}', the records have '{was}'")),
            None => differ.push(format!("{k} '{v}' is not in the records")),
        }
    }
    for (k, values) in &found {
        if values_of(&wanted, k).is_none() {
            let was = values.join("', '");
            differ.push(format!("the records have {k} '{was}', this match has none"));
        }
    }
    if differ.is_empty() {
        Ok(())
    } else {
        Err(SettingsMismatch::Differ(differ))
    }
}

/// The value of `key` in a settings line.
pub fn setting<'a>(settings: &'a str, key: &str) -> Option<&'a str> {
    settings
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// The settings line of a records file, if it has one (`None` when it cannot be read, or is not
/// a regular file). Only the first 64 KB are read: the header lines come first.
pub fn settings_of(path: &Path) -> Option<String> {
    let mut text = Vec::new();
    open_regular(path, false)
        .ok()?
        .take(1 << 16)
        .read_to_end(&mut text)
        .ok()?;
    String::from_utf8_lossy(&text)
        .lines()
        .find_map(|l| l.strip_prefix(SETTINGS))
        .map(String::from)
}

/// A move's comment as cutechess writes it: `+0.35/12 0.51s`. The score (centi-pieces, shown in
/// pieces as cutechess shows pawns, from the mover's view) and `/depth` come when the engine gave
/// a depth; a mate in `n` of the mover's own turns is `+M<2n-1>` (plies to the mate), being mated
/// in `n` is `-M<2n>`. The time has 3 decimals under 0.1 s, 2 under 1 s, 1 under 10 s, none
/// beyond, and is `0s` when nothing was measured.
pub fn eval_comment(note: &Note) -> String {
    let mut out = String::new();
    if let Some(depth) = note.depth.filter(|&d| d > 0) {
        match note.score {
            Some(Score::Cp(cp)) => {
                let sign = if cp > 0 { "+" } else { "" };
                out.push_str(&format!("{sign}{:.2}", f64::from(cp) / 100.0));
            }
            Some(Score::Mate(n)) if n > 0 => {
                out.push_str(&format!("+M{}", 2 * i64::from(n) - 1));
            }
            Some(Score::Mate(n)) if n < 0 => out.push_str(&format!("-M{}", -2 * i64::from(n))),
            Some(Score::Mate(_)) => out.push_str("0.00"),
            None => {}
        }
        out.push_str(&format!("/{depth} "));
    }
    let ms = note.time.as_millis();
    if ms == 0 {
        out.push_str("0s");
        return out;
    }
    let decimals = match ms {
        0..100 => 3,
        100..1000 => 2,
        1000..10_000 => 1,
        _ => 0,
    };
    // Whole milliseconds, as cutechess counts them.
    let secs = f64::from(u32::try_from(ms).unwrap_or(u32::MAX)) / 1000.0;
    out.push_str(&format!("{secs:.decimals$}s"));
    out
}

/// The machine's host name, as PGN's `Site` (`?`, PGN's unknown, when it cannot be read).
fn site() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its whole length, which is passed.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match std::str::from_utf8(&buf[..end]) {
        Ok(name) if ok && !name.is_empty() => name.to_string(),
        _ => "?".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Outcome, WinReason};
    use std::time::Duration;

    fn record(moves: &str, end: End) -> Record {
        let played = Played {
            opening: Opening::parse("d7 a1", &Rules::nine()).unwrap(),
            moves: moves.split_whitespace().map(String::from).collect(),
            end,
            overhead: crate::matches::referee::Overhead::default(),
            notes: Vec::new(),
        };
        Record::new(1, "a b", "c\"d", "nine", &played)
    }

    #[test]
    fn a_recap_flips_to_the_other_engines_view() {
        let mut recap = Recap::default();
        let names = ["a b", "c\"d"];
        let win = |number, white| {
            let loser = if white { Color::Black } else { Color::White };
            let mut r = record("g7", End::Rules(Outcome::Win(!loser, WinReason::Blocked)));
            r.game = number;
            if !white {
                std::mem::swap(&mut r.white, &mut r.black);
            }
            r
        };
        // "a b" wins game 1 with White, "c\"d" wins game 2 (White), game 3 is half a pair.
        recap.add(&win(1, true), names);
        recap.add(&win(2, true), names);
        recap.add(&win(3, true), names);
        let mut flipped = recap.clone();
        flipped.flip();
        assert_eq!(
            (flipped.tally.wins, flipped.tally.losses),
            (recap.tally.losses, recap.tally.wins)
        );
        let mut pairs = recap.tally.pairs;
        pairs.reverse();
        assert_eq!(flipped.tally.pairs, pairs);
        flipped.flip();
        assert_eq!(flipped.tally, recap.tally);
        assert_eq!(flipped.halves, recap.halves);
    }

    #[test]
    fn adjudicated_results_must_fit_their_kind() {
        use crate::matches::adjudicate::Verdict;
        let verdict = |winner, kind| {
            End::Adjudicated(Verdict {
                winner,
                kind,
                reason: "x".into(),
            })
        };
        for (winner, kind, fits) in [
            (Some(Color::White), "resign", true),
            (None, "resign", false),
            (None, "score-draw", true),
            (Some(Color::Black), "score-draw", false),
            (Some(Color::Black), "tables", true),
            (None, "tables", true),
        ] {
            let r = record("g7", verdict(winner, kind));
            let back = Record::parse(&r.to_line()).unwrap();
            assert_eq!(back, r);
            assert_eq!(back.check().is_ok(), fits, "{kind} {winner:?}");
        }
    }

    #[test]
    fn lines_round_trip() {
        let r = record(
            "g7 d1 a7xa1",
            End::Forfeit {
                loser: Color::Black,
                kind: "illegal".into(),
                reason: "played d7".into(),
                answer: Some("d7".into()),
                at_start: false,
            },
        );
        let back = Record::parse(&r.to_line()).unwrap();
        assert_eq!(back, r);
        back.check().unwrap();
    }

    #[test]
    fn replay_catches_lies() {
        // A legal move called illegal.
        let r = record(
            "g7",
            End::Forfeit {
                loser: Color::Black,
                kind: "illegal".into(),
                reason: String::new(),
                answer: Some("d1".into()),
                at_start: false,
            },
        );
        assert!(r.check().unwrap_err().to_string().contains("legal here"));
        // An illegal move in the list.
        let r = record("g7 g7", End::MoveLimit(2));
        assert!(r.check().unwrap_err().to_string().contains("ply 4"));
        // A rules ending where the game goes on.
        let r = record(
            "g7",
            End::Rules(Outcome::Win(Color::White, WinReason::Blocked)),
        );
        assert!(r.check().unwrap_err().to_string().contains("not over"));
        // A time loss by the side not to move.
        let r = record(
            "g7",
            End::Forfeit {
                loser: Color::White,
                kind: "time".into(),
                reason: String::new(),
                answer: None,
                at_start: false,
            },
        );
        assert!(r.check().unwrap_err().to_string().contains("not to move"));
    }

    #[test]
    fn recap_pairs_games_in_any_order() {
        let mut r = record("g7", End::MoveLimit(1));
        let mut recap = Recap::default();
        // Game 2 (the first engine "c\"d" has White), then game 1: one pair of two draws.
        r.game = 2;
        assert!(!recap.add(&r, ["c\"d", "a b"]));
        r.game = 1;
        r.result = "0-1".into();
        assert!(recap.add(&r, ["c\"d", "a b"]));
        assert_eq!((recap.tally.wins, recap.tally.draws), (1, 1));
        assert_eq!(recap.tally.pairs, [0, 0, 0, 1, 0]);
        assert_eq!(r.first_engine(), "a b");
    }

    #[test]
    fn comments_as_cutechess_writes_them() {
        let note = |score, depth, ms| Note {
            score,
            depth,
            time: Duration::from_millis(ms),
        };
        for (n, text) in [
            (note(Some(Score::Cp(35)), Some(12), 510), "+0.35/12 0.51s"),
            (note(Some(Score::Cp(-120)), Some(3), 51), "-1.20/3 0.051s"),
            (note(Some(Score::Cp(0)), Some(5), 1_234), "0.00/5 1.2s"),
            (note(Some(Score::Mate(3)), Some(9), 12_345), "+M5/9 12s"),
            (note(Some(Score::Mate(-2)), Some(9), 0), "-M4/9 0s"),
            (note(Some(Score::Cp(7)), None, 99), "0.099s"),
            (note(None, None, 0), "0s"),
        ] {
            assert_eq!(eval_comment(&n), text, "{n:?}");
        }
    }

    #[test]
    fn pgn_tags_and_comments() {
        let mut r = record("g7 d1", End::MoveLimit(2));
        r.notes = vec![Note {
            score: Some(Score::Cp(100)),
            depth: Some(4),
            time: Duration::from_millis(5),
        }];
        let pgn = r.to_pgn("e", "d", ["1+0.1", "1+0.1"]);
        assert_eq!(pgn.tag("TimeControl"), Some("1+0.1"));
        assert_eq!(pgn.tag("WhiteTimeControl"), None);
        let comments: Vec<&[String]> = pgn.moves.iter().map(|p| &p.comments[..]).collect();
        assert_eq!(
            comments[..3],
            [
                &["book".to_string()][..],
                &["book".into()],
                &["+1.00/4 0.005s".into()]
            ]
        );
        // The last move has no note (its turn was not complete), only how the game ended.
        assert_eq!(comments[3], [r.reason.clone()]);
        let pgn = r.to_pgn("e", "d", ["1+0.1", "0.05/move"]);
        assert_eq!(pgn.tag("TimeControl"), None);
        assert_eq!(pgn.tag("WhiteTimeControl"), Some("1+0.1"));
        assert_eq!(pgn.tag("BlackTimeControl"), Some("0.05/move"));
    }

    #[test]
    fn settings_must_match() {
        assert!(check_settings("a=1 b=\"x y\"", "a=1 b=\"x y\"").is_ok());
        let e = check_settings("a=1 b=2", "a=1 b=3").unwrap_err();
        assert_eq!(e.to_string(), "b is '3', the records have '2'");
        assert!(check_settings("a=1", "a=1 b=3").is_err());
        // A setting one side lacks is named alone: the rest still compare by key.
        let e = check_settings("e=x each=m v=nine tc=1", "e=x v=nine tc=1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the records have each 'm', this match has none"
        );
        let e = check_settings("e=x e=y v=1", "e=x e=z v=1").unwrap_err();
        assert_eq!(e.to_string(), "e is 'x', 'z', the records have 'x', 'y'");
        assert_eq!(setting("x=1 seed=42", "seed"), Some("42"));
    }
}
