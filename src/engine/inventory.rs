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
    /// The evaluation.
    pub evaluation: Evaluation,
    /// The opening's solution.
    pub opening: OpeningKnown,
    /// The opening book.
    pub book: BookKnown,
    /// The endgame tables.
    pub tables: TablesKnown,
}

impl Inventory {
    /// Its four lines: the evaluation, the opening's solution, the book, the tables.
    pub fn lines(&self) -> [String; 4] {
        [
            self.evaluation.to_string(),
            self.opening.to_string(),
            self.book.to_string(),
            self.tables.to_string(),
        ]
    }
}

impl fmt::Display for Inventory {
    /// The four lines, one after the other.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lines().join("\n"))
    }
}

/// Why a part is not in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absent {
    /// Its setting says `none` (or `OwnBook false`).
    TurnedOff,
    /// The rules in force have none built in (or none installed).
    NoneForTheseRules,
    /// The one named could not be used: said in its own error line.
    Unusable,
    /// Still being read.
    Reading,
}

impl Absent {
    /// The reason in words, for the part whose setting is `setting`.
    fn words(self, setting: &str) -> String {
        match self {
            Absent::TurnedOff => format!("none ({setting} none)"),
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

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::Network(loaded) => write!(f, "evaluation: {loaded}"),
            Evaluation::HandWritten(why) => write!(
                f,
                "evaluation: hand-written; network: {}",
                why.words("EvalFile")
            ),
        }
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

impl fmt::Display for OpeningKnown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningKnown::Loaded { loaded, last_ply } => {
                write!(f, "{loaded}; plies 0 to {last_ply} exact")
            }
            OpeningKnown::InTables => f.write_str(
                "opening solution: not needed, the tables hold the whole placing solution",
            ),
            OpeningKnown::Absent(why) => {
                write!(f, "opening solution: {}", why.words("OpeningSolution"))
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

impl fmt::Display for BookKnown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookKnown::Ready { origin, positions } => {
                write!(f, "opening book {origin}: {positions} positions")
            }
            BookKnown::Absent(why) => write!(f, "opening book: {}", why.words("BookFile")),
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

impl fmt::Display for TablesKnown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesKnown::InForce {
                dir,
                tables,
                most,
                every_pair,
                placing,
            } => {
                write!(f, "endgame tables {}: {tables} tables, ", dir.display())?;
                if *every_pair {
                    write!(f, "every pair of 3 to {most} pieces a side")?;
                } else {
                    write!(f, "up to {most} pieces a side, some pairs missing")?;
                }
                if *placing {
                    f.write_str(", and the whole placing solution")?;
                }
                Ok(())
            }
            TablesKnown::Absent(Absent::NoneForTheseRules) => f.write_str(
                "endgame tables: none installed for the rules in force (moulin tables install)",
            ),
            TablesKnown::Absent(why) => {
                write!(f, "endgame tables: {}", why.words("TablesPath"))
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
        let all = Inventory {
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
        let none = Inventory {
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
    }
}
