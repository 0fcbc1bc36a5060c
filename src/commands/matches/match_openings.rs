//! `--openings` of `moulin match`: a book file, or its file with how to go through it, in the
//! manner of cutechess-cli's `-openings`: `file=<book> [order=sequential|random] [start=N]
//! [plies=N]`.

use crate::commands::args::BadValue;
use crate::commands::failure::{Context, Failure};
use crate::matches::words;
use crate::record::openings::{self, Opening};
use crate::record::RecordError;
use crate::rules::Rules;
use crate::text::quoted;
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
}

impl OpeningsFlag {
    /// Reads the flag: a path alone, or key=value words of which one is `file=`.
    pub(crate) fn parse(text: &str) -> Result<OpeningsFlag, BadValue> {
        let err = |why: String| BadValue(format!("--openings {}: {why}", quoted(text)));
        let all = words::split(text).map_err(|e| err(e.to_string()))?;
        if !all.iter().any(|w| w.starts_with("file=")) {
            return Ok(OpeningsFlag {
                file: PathBuf::from(text),
                random: false,
                start: 1,
                plies: None,
            });
        }
        let mut flag = OpeningsFlag {
            file: PathBuf::new(),
            random: false,
            start: 1,
            plies: None,
        };
        let number = |word: &str, v: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| err(format!("{}: expected a whole number from 1", quoted(word))))
        };
        let keys = ["file", "order", "start", "plies"];
        for (key, value) in words::pairs(&all, &keys).map_err(|e| err(e.to_string()))? {
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
    /// asked (as matches before these keys wrote it), else every key.
    pub fn setting(&self) -> String {
        let file = self.file.display().to_string();
        if !self.random && self.start == 1 && self.plies.is_none() {
            return file;
        }
        let mut out = format!(
            "file={} order={} start={}",
            words::quote(&file),
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
        let book =
            openings::read_book_file_cut(&self.file, rules, self.plies).map_err(|e| {
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
                plies: Some(4)
            }
        );
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
