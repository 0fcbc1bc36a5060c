//! `--openings` of `moulin match`: a book file, or its file with how to go through it, in the
//! manner of cutechess-cli's `-openings`: `file=<book> [format=lines|pgn]
//! [order=sequential|random] [start=N] [plies=N]`.
//!
//! The books of `book/openings-*.txt` ship inside the binary, so that the README's commands
//! work after `cargo install` too: a path that is not there whose file name is one of them
//! (`book/openings-nine.txt`) plays the copy built in. A file that is there is read from disk.

use crate::commands::args::BadValue;
use crate::commands::failure::{Context, Failure};
use moulin::input_file;
use moulin::matches::quoting;
use moulin::record::openings::{self, Opening};
use moulin::record::RecordError;
use moulin::rules::Rules;
use moulin::text::quoted;
use std::path::PathBuf;

/// What `--openings` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsFlag {
    /// The book (lines or PGN-shaped games).
    pub file: PathBuf,
    /// Whether the pairs take the openings in an order shuffled by the match's seed.
    pub random: bool,
    /// The opening the first pair takes, from 1 (in the order, shuffled or not).
    pub start: usize,
    /// The most turns of an opening that are played (the rest is cut).
    pub plies: Option<usize>,
    /// The format `format=` says the file is in, checked when it is read (else told by its
    /// text).
    pub format: Option<Format>,
}

/// The formats of an openings file moulin reads (`format=` of `--openings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One opening a line: moves, or `fen <position>` and moves (book/README.md).
    Lines,
    /// PGN-shaped games (docs/matches.md, "Game records (PGN)").
    Pgn,
}

impl Format {
    /// Reads `format=`'s value; cutechess-cli's `epd`, which moulin has no use for (chess
    /// positions), is refused with what to give instead.
    fn parse(value: &str) -> Result<Format, String> {
        match value {
            "lines" => Ok(Format::Lines),
            "pgn" => Ok(Format::Pgn),
            "epd" => Err(
                "format=epd: moulin reads no EPD (chess positions); its formats are \
                 lines (an opening a line: moves, or 'fen <position>' then moves, see \
                 book/README.md) and pgn (PGN-shaped games)"
                    .to_string(),
            ),
            other => Err(format!(
                "format {}: expected lines (an opening a line, book/README.md) or pgn \
                 (PGN-shaped games)",
                quoted(other)
            )),
        }
    }
}

/// The openings books that ship inside the binary, by file name: `book/openings-*.txt`.
const SHIPPED: [(&str, &str); 8] = [
    (
        "openings-nine.txt",
        include_str!("../../../book/openings-nine.txt"),
    ),
    (
        "openings-nine-d16.txt",
        include_str!("../../../book/openings-nine-d16.txt"),
    ),
    (
        "openings-nine-exact50.txt",
        include_str!("../../../book/openings-nine-exact50.txt"),
    ),
    (
        "openings-twelve.txt",
        include_str!("../../../book/openings-twelve.txt"),
    ),
    (
        "openings-lasker.txt",
        include_str!("../../../book/openings-lasker.txt"),
    ),
    (
        "openings-morabaraba.txt",
        include_str!("../../../book/openings-morabaraba.txt"),
    ),
    (
        "openings-no-reform.txt",
        include_str!("../../../book/openings-no-reform.txt"),
    ),
    (
        "openings-protected-mills.txt",
        include_str!("../../../book/openings-protected-mills.txt"),
    ),
];

impl OpeningsFlag {
    /// Reads the flag: a path alone, or key=value words of which one is `file=`.
    pub(crate) fn parse(text: &str) -> Result<OpeningsFlag, BadValue> {
        let err = |why: String| BadValue(format!("--openings {}: {why}", quoted(text)));
        let all = quoting::split(text).map_err(|e| err(e.to_string()))?;
        if !all.iter().any(|w| w.starts_with("file=")) {
            return Ok(OpeningsFlag {
                file: PathBuf::from(text),
                random: false,
                start: 1,
                plies: None,
                format: None,
            });
        }
        let mut flag = OpeningsFlag {
            file: PathBuf::new(),
            random: false,
            start: 1,
            plies: None,
            format: None,
        };
        let number = |word: &str, v: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| err(format!("{}: expected a whole number from 1", quoted(word))))
        };
        let keys = ["file", "format", "order", "start", "plies"];
        for (key, value) in quoting::pairs(&all, &keys).map_err(|e| err(e.to_string()))? {
            let word = format!("{key}={value}");
            match key {
                "file" => flag.file = PathBuf::from(value),
                "order" => {
                    flag.random = match value {
                        "sequential" => false,
                        "random" => true,
                        _ => {
                            return Err(err(format!(
                                "order {}: expected sequential or random",
                                quoted(value)
                            )))
                        }
                    }
                }
                "format" => flag.format = Some(Format::parse(value).map_err(err)?),
                "start" => flag.start = number(&word, value)?,
                _ => flag.plies = Some(number(&word, value)?),
            }
        }
        if flag.file.as_os_str().is_empty() {
            return Err(err("file= names no file".into()));
        }
        Ok(flag)
    }

    /// How the records' settings line names the openings: the path alone when nothing else is
    /// asked (as matches before these keys wrote it), else every key but `format`, which
    /// changes no game.
    pub fn setting(&self) -> String {
        let file = self.file.display().to_string();
        if !self.random && self.start == 1 && self.plies.is_none() {
            return file;
        }
        let mut out = format!(
            "file={} order={} start={}",
            quoting::quote(&file),
            if self.random { "random" } else { "sequential" },
            self.start
        );
        if let Some(p) = self.plies {
            out.push_str(&format!(" plies={p}"));
        }
        out
    }

    /// The openings in the order the pairs take them: the book read and checked under `rules`,
    /// cut to `plies`, shuffled by `seed` for `order=random`, and begun at `start`.
    pub fn book(&self, rules: &Rules, seed: u64) -> Result<Vec<Opening>, Failure> {
        let text =
            match self.shipped() {
                Some(text) => {
                    log::info!(
                        "--openings {} is not there: playing the copy built into moulin",
                        self.file.display()
                    );
                    text.to_string()
                }
                None => input_file::read_to_string(&self.file, openings::MAX_BYTES).map_err(
                    |source| RecordError::ReadOpenings {
                        path: self.file.clone(),
                        source,
                    },
                )?,
            };
        let source = self.file.display().to_string();
        if let Some(format) = self.format {
            let pgn = openings::holds_pgn(&text);
            if pgn != (format == Format::Pgn) {
                return Err(format!(
                    "--openings {source}: format={} but the file holds {}",
                    if pgn { "lines" } else { "pgn" },
                    if pgn {
                        "PGN-shaped games: give format=pgn or leave format= out"
                    } else {
                        "opening lines: give format=lines or leave format= out"
                    }
                )
                .into());
            }
        }
        let book =
            openings::read_book_cut(&text, rules, &source, self.plies).map_err(|e| {
                match (&e, self.plies) {
                    (RecordError::OpeningGame { error, .. }, None)
                        if matches!(**error, RecordError::Over) =>
                    {
                        Failure::from(GamesPlayedOut {
                            source: e,
                            file: self.file.display().to_string(),
                        })
                    }
                    _ => Failure::from(e),
                }
            })?;
        let shuffle = self.random.then_some(seed);
        openings::in_order(book, shuffle, self.start, &self.file.display().to_string())
            .context("--openings")
    }
}

impl OpeningsFlag {
    /// The copy built into moulin of the book the flag names, when the path is not there and
    /// its file name is that of a shipped book.
    pub fn shipped(&self) -> Option<&'static str> {
        if self.file.exists() {
            return None;
        }
        let name = self.file.file_name()?.to_str()?;
        SHIPPED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| *text)
    }
}

/// A book of whole games given to `--openings` without `plies=`: the games end, so they cannot
/// open a match; the error says how to play their first turns.
#[derive(Debug, thiserror::Error)]
#[error("{source}; give --openings \"file={file} plies=N\" to play the first N turns of each game")]
struct GamesPlayedOut {
    /// The book's error: an opening game that is over.
    source: RecordError,
    /// The book, as the user named it.
    file: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_keys() {
        let bare = OpeningsFlag::parse("book/openings-nine.txt").unwrap();
        assert_eq!(bare.file, PathBuf::from("book/openings-nine.txt"));
        assert_eq!(bare.setting(), "book/openings-nine.txt");
        let f = OpeningsFlag::parse("file=\"my book.pgn\" order=random start=3 plies=4").unwrap();
        assert_eq!(
            f,
            OpeningsFlag {
                file: PathBuf::from("my book.pgn"),
                random: true,
                start: 3,
                plies: Some(4),
                format: None,
            }
        );
        // cutechess-cli's format=: pgn and moulin's lines; epd refused with moulin's formats.
        let pgn = OpeningsFlag::parse("file=a.pgn format=pgn order=random").unwrap();
        assert_eq!(pgn.format, Some(Format::Pgn));
        assert_eq!(pgn.setting(), "file=a.pgn order=random start=1");
        assert_eq!(
            OpeningsFlag::parse(&f.setting()).unwrap(),
            f,
            "{}",
            f.setting()
        );
        for (bad, needle) in [
            ("file=a order=shuffled", "sequential or random"),
            ("file=a start=0", "'start=0'"),
            ("file=a start=x", "'start=x'"),
            ("file=a colour=red", "unknown key 'colour'"),
            ("file=a start=2 start=3", "start given twice"),
            ("file=", "names no file"),
            ("file=a stray", "'stray' is not key=value"),
            ("order=random start=0 file=a", "'start=0'"),
            ("file=a.epd format=epd", "moulin reads no EPD"),
            ("file=a format=fen", "expected lines"),
        ] {
            let e = OpeningsFlag::parse(bad).unwrap_err();
            let e = e.to_string();
            assert!(e.contains("--openings") && e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn order_start_and_plies() {
        let dir = std::env::temp_dir().join(format!("moulin-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        let lines = ["d6 f4 d2", "a1 a4 a7", "g7 g4 g1", "b2 b4 b6", "c3 c4 c5"];
        std::fs::write(&path, lines.join("\n")).unwrap();
        let rules = Rules::nine();
        let flag = |text: &str| OpeningsFlag::parse(&format!("file={} {text}", path.display()));
        let firsts =
            |book: &[Opening]| -> Vec<String> { book.iter().map(|o| o.moves[0].clone()).collect() };
        let in_order = flag("start=4 plies=2").unwrap().book(&rules, 1).unwrap();
        assert_eq!(firsts(&in_order), ["b2", "c3", "d6", "a1", "g7"]);
        assert!(in_order.iter().all(|o| o.moves.len() == 2));
        // The same seed, the same order; another seed, another; every opening once.
        let shuffled = |seed| flag("order=random").unwrap().book(&rules, seed).unwrap();
        assert_eq!(shuffled(7), shuffled(7));
        let orders: std::collections::HashSet<Vec<String>> =
            (0..20).map(|s| firsts(&shuffled(s))).collect();
        assert!(orders.len() > 5, "{orders:?}");
        for order in &orders {
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, ["a1", "b2", "c3", "d6", "g7"]);
        }
        // format= is checked against the file.
        let e = flag("format=pgn")
            .unwrap()
            .book(&rules, 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("format=pgn but the file holds opening lines"),
            "{e}"
        );
        assert_eq!(
            flag("format=lines").unwrap().book(&rules, 1).unwrap().len(),
            5
        );
        // A shipped book's name where no such file is: the copy built in.
        let gone = OpeningsFlag::parse(&dir.join("openings-nine.txt").display().to_string());
        let built_in = gone.unwrap().book(&rules, 1).unwrap();
        let shipped = openings::read_book(SHIPPED[0].1, &rules, "nine").unwrap();
        assert_eq!(built_in.len(), shipped.len());
        let missing = dir.join("openings-none.txt").display().to_string();
        assert!(OpeningsFlag::parse(&missing)
            .unwrap()
            .book(&rules, 1)
            .is_err());
        let e = flag("start=6")
            .unwrap()
            .book(&rules, 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("start=6") && e.contains("holds 5 openings"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
