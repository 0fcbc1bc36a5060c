//! Endgame tables: the exact value of every moving-phase position with 3 to N pieces a side,
//! computed here by retrograde analysis for the rules in force, stored a byte per position up to
//! the board's symmetries, and probed by the engine.
//!
//! - `index`: where a position lives in its pair's table (16 symmetries folded);
//! - `retrograde`: retrograde analysis of one group of pairs;
//! - `file`: the table file (a header with the rules' fingerprint and a checksum, then the
//!   values), written atomically; `mapped`: a file's values mapped into memory, and what the
//!   file was then, to notice a change; `faults`: a page cut from a mapped file while it is
//!   read costs its table, not the process (SIGBUS caught);
//! - `schedule`: the order of the groups and what each needs, solving a group into the tables
//!   (in memory, or into a directory, as `moulin tables build` does), and the cost estimates of
//!   a cluster build;
//! - `tally`: the count of a table's values; `consistency`: a table's values checked against
//!   their successors;
//! - `perfect_play`: the value-keeping move of a covered position; `sample`: positions drawn
//!   from the tables, to measure play;
//! - this file: values, `Tables` (the tables of one directory loaded for probing, and which of
//!   their files changed since), where the tables live, and `TablesError`.
//!
//! A value is for the side to move, with the distance in plies to the next removal or the end
//! of the game (DTC), under the rules without draw rules (a game nobody can force to a win is a
//! draw). Positions with a removal pending are not stored: a move is a whole turn (a step with
//! its removals), so they are resolved through their removals.

pub mod consistency;
pub mod faults;
pub mod file;
pub mod index;
pub mod mapped;
pub mod perfect_play;
pub mod retrograde;
pub mod sample;
pub mod schedule;
pub mod tally;

use crate::rules::position::Position;
use crate::rules::Rules;
use index::{Classes, PairIndex};
use mapped::Mapping;
use rayon::prelude::*;
use std::borrow::Cow;
use std::fmt::{self, Write};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// What goes wrong with endgame tables: rules they cannot serve, a directory or a file that
/// cannot be read, a file that is damaged or made for other rules, a table missing.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// The rules make a position's value depend on its history (`unsupported`).
    #[error(
        "endgame tables need rules where a re-formed mill is an ordinary mill (Reform allowed): \
         under the others a position's value depends on its history"
    )]
    Unsupported,
    /// The tables directory cannot be listed.
    #[error("cannot read the tables directory {}: {source}", dir.display())]
    ReadDir {
        /// The directory.
        dir: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A directory holds no table.
    #[error("no endgame tables in {}", dir.display())]
    NoTables {
        /// The directory.
        dir: PathBuf,
    },
    /// A table file cannot be opened, or its size read.
    #[error("{}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A table file's header cannot be read.
    #[error("{}: cannot read a table header: {source}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A file does not start as a table file does.
    #[error("{}: not a moulin table file", path.display())]
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// A table made for rules with another fingerprint (`fingerprint`).
    #[error(
        "{}: made for other rules (fingerprint {found:016x}, the rules in force have \
         {expected:016x}): build tables for these rules in another directory",
        path.display()
    )]
    Fingerprint {
        /// The file.
        path: PathBuf,
        /// The fingerprint in its header.
        found: u64,
        /// The fingerprint of the rules in force.
        expected: u64,
    },
    /// A file whose header names another pair than its name.
    #[error("{}: holds pair {held_mover}-{held_other}, its name says {mover}-{other}", path.display())]
    WrongPair {
        /// The file.
        path: PathBuf,
        /// The mover's pieces in the header.
        held_mover: usize,
        /// The other side's pieces in the header.
        held_other: usize,
        /// The mover's pieces in the file's name.
        mover: usize,
        /// The other side's pieces in the file's name.
        other: usize,
    },
    /// A file that is not a regular file (a named pipe, a folder, a device...).
    #[error("{}: {kind}, not a regular file: not a table", path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is, in words.
        kind: &'static str,
    },
    /// A header whose count of values cannot be the pair's.
    #[error(
        "{}: the header says {slots} values; a {mover}-{other} table has {expected}: the file is \
         damaged; delete it and build it again",
        path.display()
    )]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// The values the header counts.
        slots: u64,
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
        /// The values a table of the pair has.
        expected: u64,
    },
    /// A header whose width byte (bytes per value) is neither 1 nor 2.
    #[error(
        "{}: the header's width byte is {width}; a table has 1 or 2 bytes a value: the header \
         is damaged; delete the file and build it again",
        path.display()
    )]
    BadWidth {
        /// The file.
        path: PathBuf,
        /// The bytes per value the header says.
        width: u8,
    },
    /// A header whose width byte disagrees with the file, which holds its values at the other
    /// width.
    #[error(
        "{}: the header's width byte is {width}, but the file's {bytes} bytes of values are \
         {slots} values of width {}: the header is damaged; delete the file and build it again",
        path.display(),
        3 - width
    )]
    WidthMismatch {
        /// The file.
        path: PathBuf,
        /// The bytes per value the header says.
        width: u8,
        /// The bytes of values in the file.
        bytes: usize,
        /// The values the header counts.
        slots: u64,
    },
    /// A file that ends at or before the end of its header.
    #[error(
        "{}: {len} bytes, no values after the {start}-byte header: the file is cut; build it again",
        path.display()
    )]
    NoValues {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        len: usize,
        /// The header's length in bytes.
        start: usize,
    },
    /// The system refuses to map a file into memory.
    #[error("{}: cannot map the table into memory: {source}", path.display())]
    Map {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A file with fewer bytes of values than its header says.
    #[error(
        "{}: {bytes} bytes of values where the header says {slots} values of {width}: the file \
         is cut; build it again",
        path.display()
    )]
    Cut {
        /// The file.
        path: PathBuf,
        /// The bytes of values in the file.
        bytes: usize,
        /// The values the header counts.
        slots: u64,
        /// The bytes per value the header says.
        width: u8,
    },
    /// A file with more bytes of values than its header says.
    #[error(
        "{}: {bytes} bytes of values where the header says {slots} values of {width}: the file \
         has bytes past its values, it is damaged; delete it and build it again",
        path.display()
    )]
    Overlong {
        /// The file.
        path: PathBuf,
        /// The bytes of values in the file.
        bytes: usize,
        /// The values the header counts.
        slots: u64,
        /// The bytes per value the header says.
        width: u8,
    },
    /// A file whose values do not give the checksum of its header.
    #[error(
        "{}: checksum mismatch: the file is damaged; delete it and build it again",
        path.display()
    )]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// A table file cannot be written.
    #[error(transparent)]
    Write(#[from] crate::durable::DurableError),
    /// A removal leads to a pair whose table is not loaded.
    #[error("the table {mover}-{other} is needed first")]
    Missing {
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
    },
    /// A build needs a pair whose table is not in the directory.
    #[error("the table {mover}-{other} is needed first (build it, or build with --pieces)")]
    NotBuilt {
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
    },
    /// A distance too long for a table's codes.
    #[error("a distance of more than {MAX_DISTANCE} plies: a table cannot hold it")]
    TooLong,
}

/// A table file that changed since it was read.
#[derive(Debug)]
pub struct TableChange {
    /// The mover's pieces.
    pub mover: usize,
    /// The other side's pieces.
    pub other: usize,
    /// The file.
    pub path: PathBuf,
    /// How it changed.
    pub change: mapped::Change,
}

/// The value of a position for its side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// Won: the next removal (or the end) comes within this many plies.
    Win(u16),
    /// Lost, the next removal (or the end) this many plies away at most.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The same result with no distance left (the value of a removal's result, whose own
    /// distance is not counted).
    pub fn at_once(self) -> Value {
        match self {
            Value::Win(_) => Value::Win(0),
            Value::Loss(_) => Value::Loss(0),
            Value::Draw => Value::Draw,
        }
    }

    /// The distance in plies (0 for a draw).
    pub fn distance(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }

    /// The stored code: 0 a draw, 1 to 32767 a win in that many plies, 32768 + d a loss in d.
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => d.min(MAX_DISTANCE),
            Value::Loss(d) => 0x8000 + d.min(MAX_DISTANCE),
        }
    }

    /// The value of a stored code (`Value::code`).
    pub fn from_code(c: u16) -> Value {
        match c {
            0 => Value::Draw,
            1..=0x7fff => Value::Win(c),
            _ => Value::Loss(c - 0x8000),
        }
    }

    /// The code in a byte, when the distance is at most 127 plies: 0 a draw, 1 to 127 a win,
    /// 128 + d a loss.
    fn byte(self) -> Option<u8> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d <= 127 => Some(d as u8),
            Value::Loss(d) if d <= 127 => Some(128 + d as u8),
            _ => None,
        }
    }

    fn from_byte(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            1..=127 => Value::Win(u16::from(b)),
            _ => Value::Loss(u16::from(b) - 128),
        }
    }
}

/// The longest distance a table holds.
pub const MAX_DISTANCE: u16 = 0x7fff;

/// A table's values by slot: a byte each when every distance is at most 127 plies, two bytes
/// otherwise; in memory, or mapped from the table's file (as the engine and later builds read
/// them).
#[derive(Clone, Debug)]
pub enum Values {
    /// A byte a value (`Value::byte`), in memory.
    Narrow(Vec<u8>),
    /// A code a value (`Value::code`), in memory.
    Wide(Vec<u16>),
    /// A file's values, their width in bytes (2: little-endian codes) and the longest distance
    /// they hold (found when the file was read and checked).
    Mapped(Arc<Mapping>, u8, u16),
}

/// The code stored in the first two bytes of `bytes`, little-endian (a wide table's value in its
/// file).
#[inline]
fn wide_code(bytes: &[u8]) -> u16 {
    u16::from_le_bytes([bytes[0], bytes[1]])
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.width() == other.width() && self.to_bytes() == other.to_bytes()
    }
}

impl Eq for Values {}

impl Values {
    /// The values of `codes` (`Value::code`), in a byte each when they fit.
    pub fn from_codes(codes: Vec<u16>) -> Values {
        let narrow: Option<Vec<u8>> = codes.iter().map(|&c| Value::from_code(c).byte()).collect();
        match narrow {
            Some(bytes) => Values::Narrow(bytes),
            None => Values::Wide(codes),
        }
    }

    /// The number of values (slots).
    pub fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
            Values::Mapped(m, w, _) => m.bytes().len() / *w as usize,
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The longest distance held.
    pub fn longest(&self) -> u16 {
        match self {
            Values::Narrow(v) => v.iter().map(|&b| Value::from_byte(b).distance()).max(),
            Values::Wide(v) => v.iter().map(|&c| Value::from_code(c).distance()).max(),
            Values::Mapped(_, _, longest) => Some(*longest),
        }
        .unwrap_or(0)
    }

    /// Bytes per value: 1 or 2.
    pub fn width(&self) -> u8 {
        match self {
            Values::Narrow(_) => 1,
            Values::Wide(_) => 2,
            Values::Mapped(_, w, _) => *w,
        }
    }

    /// The value in `slot`.
    #[inline]
    pub fn get(&self, slot: usize) -> Value {
        match self {
            Values::Narrow(v) => Value::from_byte(v[slot]),
            Values::Wide(v) => Value::from_code(v[slot]),
            Values::Mapped(m, 1, _) => Value::from_byte(m.bytes()[slot]),
            Values::Mapped(m, _, _) => Value::from_code(wide_code(&m.bytes()[2 * slot..])),
        }
    }

    /// The file the values are mapped from, if they are.
    pub fn mapping(&self) -> Option<&Mapping> {
        match self {
            Values::Mapped(m, _, _) => Some(m),
            Values::Narrow(_) | Values::Wide(_) => None,
        }
    }

    /// Whether the values read so far are the file's as it was checked (`Mapping::trusted`;
    /// values in memory always are). Asked after a read, it says whether that read is good.
    #[inline]
    pub fn trusted(&self) -> bool {
        self.mapping().is_none_or(Mapping::trusted)
    }

    /// Changes one value (widening the table if it must).
    pub fn set(&mut self, slot: usize, value: Value) {
        if let Values::Mapped(m, w, _) = self {
            *self = Values::from_bytes(m.bytes().to_vec(), *w);
        }
        match (&mut *self, value.byte()) {
            (Values::Narrow(v), Some(b)) => v[slot] = b,
            (Values::Wide(v), _) => v[slot] = value.code(),
            (Values::Narrow(v), None) => {
                let mut codes: Vec<u16> = v.iter().map(|&b| Value::from_byte(b).code()).collect();
                codes[slot] = value.code();
                *self = Values::Wide(codes);
            }
            (Values::Mapped(..), _) => unreachable!("copied into memory above"),
        }
    }

    /// The values as stored in a file: the bytes, or each code in two bytes, little-endian
    /// (borrowed, but for a wide table in memory).
    pub fn to_bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Values::Narrow(v) => Cow::Borrowed(v),
            Values::Wide(v) => Cow::Owned(v.iter().flat_map(|c| c.to_le_bytes()).collect()),
            Values::Mapped(m, _, _) => Cow::Borrowed(m.bytes()),
        }
    }

    /// The inverse of `to_bytes`.
    fn from_bytes(bytes: Vec<u8>, width: u8) -> Values {
        if width == 2 {
            Values::Wide(bytes.chunks_exact(2).map(wide_code).collect())
        } else {
            Values::Narrow(bytes)
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(_) => f.write_str("win"),
            Value::Loss(_) => f.write_str("loss"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// Why tables cannot serve the rules in force, if they cannot.
pub fn unsupported(rules: &Rules) -> Option<TablesError> {
    (rules.reform != crate::rules::Reform::Allowed).then_some(TablesError::Unsupported)
}

/// The fingerprint of the rules a table is built for: the rule options that change the moving
/// phase (board, flying, mill protection, removals per mill, re-formed mills, full board), by
/// name and value. Pieces per side, who starts, placing and the draw rules do not enter.
pub fn fingerprint(rules: &Rules) -> u64 {
    const MOVING: [&str; 6] = [
        "Diagonals",
        "Flying",
        "MillProtection",
        "DoubleMill",
        "Reform",
        "FullBoard",
    ];
    let text = rules
        .options()
        .into_iter()
        .filter(|(name, _)| MOVING.contains(name))
        .fold(String::new(), |mut text, (name, value)| {
            let _ = write!(text, "{name}={value};");
            text
        });
    text.bytes().fold(0x6d6f_756c_696e_7462, |h, b| {
        crate::rng::mix(h ^ u64::from(b))
    })
}

/// The tables of one directory, loaded for the rules in force.
#[derive(Clone)]
pub struct Tables {
    /// The fingerprint of the rules the tables were made for.
    print: u64,
    classes: Classes,
    /// Value bytes by [mover's pieces][other side's pieces].
    pairs: Vec<Vec<Option<Values>>>,
    /// The most pieces a side of any table loaded.
    largest: usize,
    /// By pieces on the board: the longest distance of the tables with at most that many.
    longest_by_pieces: Vec<u16>,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tables {:?}", self.pairs())
    }
}

impl Tables {
    /// Loads every table in `dir` made for `rules`. A table made for other rules, or one whose
    /// checksum fails, is an error naming the file; a directory without tables is an error.
    pub fn open(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
        if let Some(why) = unsupported(rules) {
            return Err(why);
        }
        let print = fingerprint(rules);
        let files = file::list(dir)?;
        if files.is_empty() {
            return Err(TablesError::NoTables {
                dir: dir.to_path_buf(),
            });
        }
        let largest = files.iter().map(|&(m, o, _)| m.max(o)).max().unwrap_or(3);
        let mut tables = Tables::empty(rules, largest);
        // Each file is read once to check it, the largest first, on every thread.
        let mut files = files;
        files.sort_by_cached_key(|(_, _, path)| {
            std::cmp::Reverse(std::fs::metadata(path).map_or(0, |m| m.len()))
        });
        let read: Vec<(usize, usize, Values)> = files
            .par_iter()
            .map(|(m, o, path)| file::read(path, print, *m, *o).map(|v| (*m, *o, v)))
            .collect::<Result<_, TablesError>>()?;
        for (mover, other, values) in read {
            tables.insert(mover, other, values);
        }
        Ok(tables)
    }

    /// No tables yet, for pairs of up to `largest` pieces a side under `rules`.
    pub fn empty(rules: &Rules, largest: usize) -> Tables {
        Tables {
            print: fingerprint(rules),
            classes: Classes::new(largest),
            pairs: vec![vec![None; largest + 1]; largest + 1],
            largest,
            longest_by_pieces: vec![0; 2 * largest + 1],
        }
    }

    /// Adds the values of pair `(mover, other)`.
    pub fn insert(&mut self, mover: usize, other: usize, values: Values) {
        let longest = values.longest();
        for l in &mut self.longest_by_pieces[mover + other..] {
            *l = (*l).max(longest);
        }
        self.pairs[mover][other] = Some(values);
    }

    /// Drops the values of pair `(mover, other)`.
    pub fn remove(&mut self, mover: usize, other: usize) {
        if !self.has(mover, other) {
            return;
        }
        self.pairs[mover][other] = None;
        self.longest_by_pieces.fill(0);
        for (m, o) in self.pairs() {
            let longest = self.pairs[m][o].as_ref().map_or(0, Values::longest);
            for l in &mut self.longest_by_pieces[m + o..] {
                *l = (*l).max(longest);
            }
        }
    }

    /// The table files that changed since they were read (`mapped::Change`): a file cut,
    /// replaced or written over in place must not be probed. One `stat` a file.
    pub fn changes(&self) -> Vec<TableChange> {
        let mut out = Vec::new();
        for (mover, other) in self.pairs() {
            let Some(mapping) = self.values(mover, other).and_then(Values::mapping) else {
                continue;
            };
            if let Some(change) = mapping.change() {
                out.push(TableChange {
                    mover,
                    other,
                    path: mapping.path().to_path_buf(),
                    change,
                });
            }
        }
        out
    }

    /// The table of a changed file read again, and checked, for the same rules.
    pub fn read_again(&self, changed: &TableChange) -> Result<Values, TablesError> {
        file::read(&changed.path, self.print, changed.mover, changed.other)
    }

    /// Whether pair `(mover, other)` is loaded.
    pub fn has(&self, mover: usize, other: usize) -> bool {
        mover <= self.largest && other <= self.largest && self.pairs[mover][other].is_some()
    }

    /// Drops every pair not in `keep`.
    pub fn retain(&mut self, keep: &[(usize, usize)]) {
        for (m, row) in self.pairs.iter_mut().enumerate() {
            for (o, t) in row.iter_mut().enumerate() {
                if !keep.contains(&(m, o)) {
                    *t = None;
                }
            }
        }
    }

    /// The index of the sets of up to `largest` pieces.
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The values of a pair.
    pub fn values(&self, mover: usize, other: usize) -> Option<&Values> {
        self.pairs.get(mover)?.get(other)?.as_ref()
    }

    /// The pairs loaded, as (mover, other).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (m, row) in self.pairs.iter().enumerate() {
            for (o, t) in row.iter().enumerate() {
                if t.is_some() {
                    out.push((m, o));
                }
            }
        }
        out
    }

    /// The value of the position where the side to move holds `ours` and the other `theirs`, if
    /// a table covers it.
    #[inline]
    pub fn value(&self, ours: u32, theirs: u32) -> Option<Value> {
        let (m, o) = (ours.count_ones() as usize, theirs.count_ones() as usize);
        if m > self.largest || o > self.largest {
            return None;
        }
        let values = self.pairs[m][o].as_ref()?;
        let index = PairIndex::new(m, o, &self.classes);
        let value = values.get(index.slot(ours, theirs) as usize);
        // A page cut from the file during the read gave a zero, not the value; a file found
        // changed is not read from.
        values.trusted().then_some(value)
    }

    /// Whether the tables hold the values of a game under `rules` (the same moving phase: the
    /// pieces per side, who starts, placing and the draw rules do not matter).
    pub fn serves(&self, rules: &Rules) -> bool {
        unsupported(rules).is_none() && fingerprint(rules) == self.print
    }

    /// The value of a position of the game without draw rules, if the tables cover it: the
    /// moving phase (nothing in hand), no removal pending. The caller checks `serves` once for
    /// the game's rules.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.is_placing() || pos.pending_removals() > 0 {
            return None;
        }
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.pieces(us).0, pos.pieces(!us).0);
        if ours.count_ones() as usize > self.largest || theirs.count_ones() as usize > self.largest
        {
            return None;
        }
        self.value(ours, theirs)
    }

    /// The value of a position under the game's draw rules, when the tables decide it.
    ///
    /// Tables know no draw rules; the no-capture rule (a draw after N plies without a removal) is
    /// applied to their distances:
    /// - a draw stays a draw (the rule can only end a game as a draw);
    /// - a win or a loss whose next removal is further away than the plies the rule has left is
    ///   a draw: the losing side holds out until the rule ends the game;
    /// - a win or a loss whose next removal comes within the plies left is exact when every
    ///   later phase fits in the rule too: when no table of fewer pieces has a distance over N
    ///   (each removal starts a fresh count of N). Otherwise the tables do not decide it
    ///   (`None`), and the search judges it.
    ///
    /// Repetition needs no adjustment for the winning side: it plays the shortest win, whose
    /// every move shortens the distance, so no position repeats before its removal.
    pub fn probe_in_game(&self, pos: &Position) -> Option<Value> {
        let v = self.probe(pos)?;
        let Some(left) = pos.plies_before_draw() else {
            return Some(v);
        };
        if v == Value::Draw || v.distance() > left {
            return Some(Value::Draw);
        }
        let limit = left + pos.no_capture_plies();
        // The phases after the removal have fewer pieces.
        let fewer = (pos.occupied().count() as usize - 1).min(2 * self.largest);
        (self.longest_by_pieces[fewer] <= limit).then_some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::tally::tally;
    use super::*;

    #[test]
    fn three_against_three_matches_the_published_tally() {
        let rules = Rules::nine().without_draw_rules();
        let classes = Classes::new(3);
        let no_smaller = |_: u32, _: u32| None;
        let tables = retrograde::solve_group(&rules, &classes, 3, 3, &no_smaller, &|_| {}).unwrap();
        let t = tally(&classes, 3, 3, &Values::from_codes(tables[0].clone()));
        // RULES.md §7 (a public re-solve): wins, losses, draws for the side to move, up to
        // symmetry, no draw rules.
        assert_eq!((t.wins, t.losses, t.draws), (140_621, 28_736, 269));
    }

    #[test]
    fn the_no_capture_rule_decides_only_what_fits_in_it() {
        // The tables 3-3, 3-4 and 4-3: 3-3's longest distance is 26 plies.
        let rules = Rules::nine().without_draw_rules();
        let mut tables = Tables::empty(&rules, 4);
        for (a, b) in [(3, 3), (3, 4)] {
            schedule::solve_into(&mut tables, &rules, a, b).unwrap();
        }
        let with = |no_capture: u16, plies: u16, fen: &str| {
            let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
            fields[15] = plies.to_string();
            let mut rules = Rules::nine();
            rules.set("NoCapture", &no_capture.to_string()).unwrap();
            let pos = crate::rules::fen::read(&fields.join(" "), &rules).unwrap();
            tables.probe_in_game(&pos)
        };
        let mut rng = crate::rng::Rng::new(5);
        let won = |pair: (usize, usize), rng: &mut crate::rng::Rng| {
            sample::sample(&tables, &Rules::nine(), 400, true, rng)
                .into_iter()
                .find(|p| {
                    let pos = crate::rules::fen::read(&p.fen, &Rules::nine()).unwrap();
                    (
                        pos.on_board(crate::Color::White) as usize,
                        pos.on_board(crate::Color::Black) as usize,
                    ) == pair
                        && matches!(p.value, Value::Win(d) if d >= 3)
                })
                .expect("wins in more than 2 plies")
        };
        // 3-3: the removal ends the game, so a win that fits in the plies left is exact.
        let w = won((3, 3), &mut rng);
        let d = w.value.distance();
        assert_eq!(with(30, 30 - d, &w.fen), Some(w.value));
        // ... and one further than the plies left is a draw.
        assert_eq!(with(30, 30 - d + 1, &w.fen), Some(Value::Draw));
        // 3-4: its removal leads to 3-3, whose distances reach 26 plies: exact under 30 plies,
        // not decided under 20.
        let w = won((3, 4), &mut rng);
        let d = w.value.distance();
        assert_eq!(with(30, 30 - d, &w.fen), Some(w.value));
        assert_eq!(with(20, 20 - d, &w.fen), None);
    }

    #[test]
    fn value_bytes_round_trip() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Win(127),
            Value::Loss(0),
            Value::Loss(127),
        ] {
            assert_eq!(Value::from_byte(v.byte().unwrap()), v);
            assert_eq!(Value::from_code(v.code()), v);
        }
        let mut values = Values::from_codes(vec![0, 5, 0x8000 + 3]);
        assert_eq!(values.width(), 1);
        values.set(0, Value::Loss(300));
        assert_eq!(values.width(), 2);
        assert_eq!(
            (values.get(0), values.get(1)),
            (Value::Loss(300), Value::Win(5))
        );
        assert_eq!(
            Values::from_bytes(values.to_bytes().into_owned(), 2),
            values
        );
        assert_ne!(
            fingerprint(&Rules::nine()),
            fingerprint(&Rules::preset("twelve").unwrap())
        );
        assert_eq!(
            fingerprint(&Rules::nine()),
            fingerprint(&Rules::preset("lasker").unwrap()),
            "Lasker differs in the placing phase only"
        );
        assert!(unsupported(&Rules::preset("no-reform").unwrap()).is_some());
    }
}
