//! The records file of a match (`RecordsFile`): a title, the settings line that `--resume`
//! checks (the engines and every setting that changes the games), then one line per game
//! (`game_line`); written whole line by line, resumed, locked while a match runs. Lines
//! starting with `#` are comments. `moulin replay`'s reading of a whole file is in `replay`.
//!
//! A records file is written line by line: each game is one `write` of its whole line, flushed;
//! a write that fails is cut back, so the file always ends with a complete record.

use super::game_line::Record;
use super::line_error::LineError;
use super::lineup::Lineup;
use crate::input_file::{self, NotRegular, MAX_LINE};
use crate::matches::quoting;
use crate::matches::quoting::QuoteError;
use crate::text::escaped;
use std::collections::HashMap;
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
    /// A `--pgn` file to add games to that holds something else than PGN games.
    #[error(
        "--pgn {source_name} holds no PGN games (it begins {first}): name another file, or give \
         --force to replace it"
    )]
    NotPgn {
        /// The file, as shown.
        source_name: String,
        /// Its first line, quoted.
        first: String,
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

/// Checks that the file at `path`, to which a match would add its games as PGN (`--pgn`
/// without `--force`), holds PGN games or nothing: its first character, past blank space and a
/// byte order mark, is the `[` of a tag (every game moulin and cutechess-cli write begins with
/// one). A file that is not there passes, so that a typo never adds games to a book or to match
/// records.
///
/// # Errors
///
/// A file that holds something else, or that cannot be read.
pub fn check_pgn_to_extend(path: &Path) -> Result<(), RecordsError> {
    let file = match open_regular(path, false) {
        Err(RecordsError::Read { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(())
        }
        opened => opened?,
    };
    let mut head = Vec::new();
    let source_name = path.display().to_string();
    file.take(512)
        .read_to_end(&mut head)
        .map_err(|e| RecordsError::Read {
            source_name: source_name.clone(),
            source: e,
        })?;
    let text = String::from_utf8_lossy(&head);
    let start = text.trim_start_matches(|c: char| c == '\u{feff}' || c.is_whitespace());
    if start.is_empty() || start.starts_with('[') {
        return Ok(());
    }
    Err(RecordsError::NotPgn {
        source_name,
        first: crate::text::quoted(start.lines().next().unwrap_or("")),
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
        let mut reading = Reading {
            source_name: &source_name,
            settings,
            lineup,
            first_line: None,
            checked: false,
            stated: None,
            held: lineup.clone(),
            seen: HashMap::new(),
            last_kept: false,
        };
        let (whole, cut) = each_line(
            BufReader::new(&file),
            &source_name,
            |line_no, line, complete| reading.line(line_no, line, complete, &mut each),
        )?;
        let Reading {
            first_line,
            checked,
            stated,
            last_kept,
            ..
        } = reading;
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

    /// Opens a file of records written as they come, with no header (`--pgn`): continued, as
    /// cutechess-cli continues its `-pgnout` file, or made when it is not there; emptied first
    /// when `replace` (`--force`).
    ///
    /// # Errors
    ///
    /// A file that cannot be written.
    pub fn open_plain(path: &Path, replace: bool) -> Result<RecordsFile, RecordsError> {
        let mut options = OpenOptions::new();
        if replace {
            // Cut only once locked: another match may be writing it.
            options.write(true).create(true);
        } else {
            options.append(true).create(true);
        }
        let source_name = path.display().to_string();
        let cannot = |e: std::io::Error| RecordsError::WriteFile {
            source_name: source_name.clone(),
            source: e,
        };
        let file = locked(options.open(path).map_err(cannot)?, path)?;
        if replace {
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
        for w in quoting::split(text)? {
            let (k, v) = match quoting::key_value(&w) {
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
        // A `tc` this match does not write is the default that none of its engines plays (every
        // spec gives its own time), which earlier records wrote all the same; an engine that
        // played it then differs in its spec, compared above.
        if values_of(&wanted, k).is_none() && k != "tc" {
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

/// What `RecordsFile::resume` has read of a records file, line by line.
struct Reading<'a> {
    /// The file, as shown.
    source_name: &'a str,
    /// The settings line the match expects.
    settings: &'a str,
    /// The match resumed.
    lineup: &'a Lineup,
    /// The file's first line, as an error quotes it.
    first_line: Option<String>,
    /// Whether the settings line was read (and is this match's).
    checked: bool,
    /// The count of games the records last stated.
    stated: Option<usize>,
    /// The match each line is held to: the count of games the records stated up to that line
    /// (as `replay` reads them), else this match's.
    held: Lineup,
    /// Each game read, with its line.
    seen: HashMap<usize, usize>,
    /// Whether the last line, without its line break, was kept as a whole record.
    last_kept: bool,
}

impl Reading<'_> {
    /// Reads line `line_no` (`complete` unless it is a last line without its break): the
    /// settings line, a count of games, a comment, or a record given to `each`.
    fn line(
        &mut self,
        line_no: usize,
        line: &str,
        complete: bool,
        each: &mut impl FnMut(&Record),
    ) -> Result<(), RecordsError> {
        // An editor's byte order mark leaves them records, as `replay` reads them.
        let line = line.trim_start_matches('\u{feff}');
        self.first_line
            .get_or_insert_with(|| crate::text::quoted(line));
        if let Some(found) = line.strip_prefix(SETTINGS).filter(|_| complete) {
            check_settings(found, self.settings).map_err(|e| RecordsError::OtherMatch {
                source_name: self.source_name.to_string(),
                source: e,
            })?;
            self.checked = true;
            self.stated = setting(found, "games").and_then(|g| g.parse::<usize>().ok());
            self.held.games = self.stated.or(self.lineup.games);
        } else if let Some(games) = line.strip_prefix(GAMES).filter(|_| complete) {
            self.stated = games.parse().ok();
            self.held.games = self.stated.or(self.lineup.games);
        } else if line.is_empty() || line.starts_with('#') {
        } else if !self.checked {
            if complete {
                return Err(RecordsError::NoSettings {
                    source_name: self.source_name.to_string(),
                    first: self.first_line.clone().unwrap_or_default(),
                });
            }
        } else {
            self.record(line_no, line, complete, each)?;
        }
        Ok(())
    }

    /// Reads the record of line `line_no`, checks it fits the match and is not a game read
    /// before, and gives it to `each`; a last line cut short by a kill is dropped.
    fn record(
        &mut self,
        line_no: usize,
        line: &str,
        complete: bool,
        each: &mut impl FnMut(&Record),
    ) -> Result<(), RecordsError> {
        let at = |source| RecordsError::ResumeLine {
            source_name: self.source_name.to_string(),
            line: line_no,
            source,
        };
        // A last line without its break is a record whole but for it when it reads to its
        // last field (`reason`, written last); else a kill cut it.
        let whole_record = Record::parse(line).is_ok() && line.contains(" reason=");
        if !complete && !whole_record {
            log::warn!(
                "records {}, line {line_no}: cut short ({} bytes); dropped, its game is played \
                 again",
                self.source_name,
                line.len()
            );
            return Ok(());
        }
        let record = Record::parse(line)
            .and_then(|r| r.fits(&self.held).map(|()| r))
            .map_err(at)?;
        if let Some(first) = self.seen.insert(record.game, line_no) {
            return Err(at(LineError::Twice {
                game: record.game,
                first,
            }));
        }
        self.last_kept = !complete;
        each(&record);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
