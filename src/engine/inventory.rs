//! What the engine knows besides its search, in force now: the evaluation, the opening's
//! solution, the book and the endgame tables, each said in one line, as Stockfish names its
//! network and its tablebases. The protocol says them in `info string` lines when they change
//! (the first `isready`, a `go` before any), and `moulin play` and `moulin analyse` in their
//! banners; so a user sees what an install knows without reading a log.

use crate::shipped::{Loaded, Origin};
use std::fmt;
use std::path::PathBuf;

/// The four parts, each in force or not, and why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inventory {
    /// Below full strength (`Level`, `UCI_LimitStrength`), the words of the setting: then the
    /// engine plays by a limited search alone and uses none of the parts.
    pub limited: Option<String>,
    /// The evaluation.
    pub evaluation: Evaluation,
    /// The opening's solution.
    pub opening: OpeningKnown,
    /// The opening book.
    pub book: BookKnown,
    /// The endgame tables.
    pub tables: TablesKnown,
}

/// The names of the settings that choose each part, as the front end calls them: the engine's
/// options (`UCI`), or the flags of `moulin play` and `moulin analyse` (`FLAGS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The evaluation's (`EvalFile`).
    pub evaluation: &'static str,
    /// The opening's solution's (`OpeningSolution`).
    pub opening: &'static str,
    /// The book's (`BookFile`).
    pub book: &'static str,
    /// The tables' (`TablesPath`).
    pub tables: &'static str,
    /// What turns the book off (`OwnBook false`).
    pub no_book: &'static str,
}

impl Settings {
    /// The engine's options.
    pub const UCI: Settings = Settings {
        evaluation: "EvalFile",
        opening: "OpeningSolution",
        book: "BookFile",
        tables: "TablesPath",
        no_book: "OwnBook false",
    };
    /// The flags of `moulin play` and `moulin analyse`.
    pub const FLAGS: Settings = Settings {
        evaluation: "--eval-file",
        opening: "--opening-solution",
        book: "--book",
        tables: "--tables",
        no_book: "--no-book",
    };
}

impl Inventory {
    /// Its four lines, the settings named as the engine's options: the evaluation, the opening's
    /// solution, the book, the tables.
    pub fn lines(&self) -> [String; 4] {
        self.lines_naming(Settings::UCI)
    }

    /// Its four lines, the settings named by `names`; below full strength each part in force
    /// says it is not used.
    pub fn lines_naming(&self, names: Settings) -> [String; 4] {
        let unused = |line: String, used: bool| match &self.limited {
            Some(limit) if used => format!("{line} (not used at {limit}: full strength only)"),
            _ => line,
        };
        [
            unused(
                self.evaluation.words(names.evaluation, names),
                matches!(self.evaluation, Evaluation::Network(_)),
            ),
            unused(
                self.opening.words(names.opening, names),
                matches!(self.opening, OpeningKnown::Loaded { .. }),
            ),
            unused(
                self.book.words(names.book, names),
                matches!(self.book, BookKnown::Ready { .. }),
            ),
            unused(
                self.tables.words(names.tables, names),
                matches!(self.tables, TablesKnown::InForce { .. }),
            ),
        ]
    }
}

/// Why a part is not in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absent {
    /// Its setting says `none`.
    TurnedOff,
    /// The engine plays no book (`OwnBook false`, `--no-book`).
    NoOwnBook,
    /// The rules in force have none built in (or none installed).
    NoneForTheseRules,
    /// The one named could not be used: said in its own error line.
    Unusable,
    /// Still being read.
    Reading,
}

impl Absent {
    /// The reason in words, for the part whose setting is `setting`, the others named by
    /// `names`.
    fn words(self, setting: &str, names: Settings) -> String {
        match self {
            Absent::TurnedOff => format!("none ({setting} none)"),
            Absent::NoOwnBook => format!("none ({})", names.no_book),
            Absent::NoneForTheseRules => "none for the rules in force".into(),
            Absent::Unusable => format!("none (the {setting} named cannot be used)"),
            Absent::Reading => "being read".into(),
        }
    }
}

/// The evaluation in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The network, as it was loaded.
    Network(Loaded),
    /// The hand-written evaluation, and why no network.
    HandWritten(Absent),
}

impl Evaluation {
    /// Its line, its setting named `setting`, the others by `names`.
    pub fn words(&self, setting: &str, names: Settings) -> String {
        match self {
            Evaluation::Network(loaded) => format!("evaluation: {loaded}"),
            Evaluation::HandWritten(why) => format!(
                "evaluation: hand-written; network: {}",
                why.words(setting, names)
            ),
        }
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Settings::UCI.evaluation, Settings::UCI))
    }
}

/// The opening's solution in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningKnown {
    /// Read and checked: what was loaded, and its last exact ply.
    Loaded {
        /// What was loaded.
        loaded: Loaded,
        /// Plies 0 to this one are exact.
        last_ply: u8,
    },
    /// Not needed: the tables hold the whole placing solution.
    InTables,
    /// None, and why.
    Absent(Absent),
}

impl OpeningKnown {
    /// Its line, its setting named `setting`, the others by `names`.
    pub fn words(&self, setting: &str, names: Settings) -> String {
        match self {
            OpeningKnown::Loaded { loaded, last_ply } => {
                format!("{loaded}; plies 0 to {last_ply} exact")
            }
            OpeningKnown::InTables => {
                "opening solution: not needed, the tables hold the whole placing solution".into()
            }
            OpeningKnown::Absent(why) => {
                format!("opening solution: {}", why.words(setting, names))
            }
        }
    }
}

/// The book in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookKnown {
    /// Read: where from, and its positions.
    Ready {
        /// Where it came from.
        origin: Origin,
        /// Its positions.
        positions: usize,
    },
    /// None, and why.
    Absent(Absent),
}

impl BookKnown {
    /// Its line, its setting named `setting`, the others by `names`.
    pub fn words(&self, setting: &str, names: Settings) -> String {
        match self {
            BookKnown::Ready { origin, positions } => {
                format!("opening book {origin}: {positions} positions")
            }
            BookKnown::Absent(why) => format!("opening book: {}", why.words(setting, names)),
        }
    }
}

/// The endgame tables in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesKnown {
    /// Read: what they cover, and where they are.
    InForce {
        /// Their folder.
        dir: PathBuf,
        /// Their tables (one a pair of piece counts, side to move first).
        tables: usize,
        /// The most pieces a side of any of them.
        most: usize,
        /// Whether they hold every pair of 3 to `most` pieces a side.
        every_pair: bool,
        /// Whether they hold the whole placing solution.
        placing: bool,
    },
    /// None, and why (`NoneForTheseRules`: none installed for them).
    Absent(Absent),
}

impl TablesKnown {
    /// Its line, its setting named `setting`, the others by `names`.
    pub fn words(&self, setting: &str, names: Settings) -> String {
        match self {
            TablesKnown::InForce {
                dir,
                tables,
                most,
                every_pair,
                placing,
            } => {
                let cover = if *every_pair {
                    format!("every pair of 3 to {most} pieces a side")
                } else {
                    format!("up to {most} pieces a side, some pairs missing")
                };
                let placing = if *placing {
                    ", and the whole placing solution"
                } else {
                    ""
                };
                format!(
                    "endgame tables {}: {tables} tables, {cover}{placing}",
                    dir.display()
                )
            }
            TablesKnown::Absent(Absent::NoneForTheseRules) => {
                "endgame tables: none installed for the rules in force (moulin tables install)"
                    .into()
            }
            TablesKnown::Absent(why) => {
                format!("endgame tables: {}", why.words(setting, names))
            }
        }
    }
}

impl TablesKnown {
    /// What the tables `tables` of `dir` cover.
    pub fn of(dir: PathBuf, tables: &crate::tables::Tables) -> TablesKnown {
        let pairs = tables.pairs();
        let most = pairs.iter().map(|&(a, b)| a.max(b)).max().unwrap_or(0);
        let every_pair = most >= 3 && pairs.len() == (most - 2) * (most - 2);
        TablesKnown::InForce {
            dir,
            tables: pairs.len(),
            most,
            every_pair,
            placing: tables.placing_is_whole(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_reads_in_one_line() {
        let loaded = |kind| Loaded {
            kind,
            origin: Origin::BuiltIn("nine.nnue"),
            bytes: 100,
            fingerprint: 0xabc,
            checksum: None,
        };
        let mut all = Inventory {
            limited: None,
            evaluation: Evaluation::Network(loaded("network")),
            opening: OpeningKnown::Loaded {
                loaded: loaded("opening solution"),
                last_ply: 9,
            },
            book: BookKnown::Ready {
                origin: Origin::BuiltIn("nine.book"),
                positions: 12,
            },
            tables: TablesKnown::InForce {
                dir: "/t".into(),
                tables: 49,
                most: 9,
                every_pair: true,
                placing: true,
            },
        };
        assert_eq!(
            all.lines(),
            [
                "evaluation: network built-in nine.nnue: 100 bytes, rules 0000000000000abc",
                "opening solution built-in nine.nnue: 100 bytes, rules 0000000000000abc; plies 0 \
                 to 9 exact",
                "opening book built-in nine.book: 12 positions",
                "endgame tables /t: 49 tables, every pair of 3 to 9 pieces a side, and the whole \
                 placing solution",
            ]
        );
        all.limited = Some("Level 5".into());
        assert_eq!(
            all.lines()[2],
            "opening book built-in nine.book: 12 positions (not used at Level 5: full strength \
             only)"
        );
        let none = Inventory {
            limited: None,
            evaluation: Evaluation::HandWritten(Absent::TurnedOff),
            opening: OpeningKnown::InTables,
            book: BookKnown::Absent(Absent::Unusable),
            tables: TablesKnown::Absent(Absent::NoneForTheseRules),
        };
        assert_eq!(
            none.lines(),
            [
                "evaluation: hand-written; network: none (EvalFile none)",
                "opening solution: not needed, the tables hold the whole placing solution",
                "opening book: none (the BookFile named cannot be used)",
                "endgame tables: none installed for the rules in force (moulin tables install)",
            ]
        );
        let off = Inventory {
            tables: TablesKnown::Absent(Absent::TurnedOff),
            book: BookKnown::Absent(Absent::NoOwnBook),
            ..none
        };
        let said = off.lines_naming(Settings::FLAGS);
        assert_eq!(said[2], "opening book: none (--no-book)");
        assert_eq!(off.lines()[2], "opening book: none (OwnBook false)");
        assert_eq!(said[3], "endgame tables: none (--tables none)");
    }
}
