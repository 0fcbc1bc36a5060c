//! The book's text format (`book/README.md`): a header of `key value` lines, then one line per
//! position,
//!
//! ```text
//! <17-field position string, canonical> | <move> <score> <weight> | <move> <score> <weight> ...
//! ```
//!
//! with moves in the turn notation of docs/rules.md, "Notation", best first; a score is
//! centi-pieces (`-12`), a win or loss in so many of the side to move's turns (`M3`, `M-2`), or a
//! value the exact solver proved the move keeps at least (`>=draw`, `>=win`: `moulin book cover`).
//! `#` starts a comment line; blank lines are skipped. Reading is parse-then-check: every error
//! names its line.

use super::book_error::TextError;
use super::book_move::{weight, BookMove};
use super::settings::FORMAT_VERSION;
use crate::rules::fen;
use crate::rules::movegen;
use crate::rules::notation;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;

/// What a book file begins with (its first line), as a writer recognises its own output
/// (`durable::Role::ReplacesOwn`).
pub const OWN: crate::durable::Own = crate::durable::Own {
    magic: b"# moulin opening book;",
    name: "a moulin book",
};
use crate::search::exact::{self, Wdl};
use crate::search::Score;

/// The header: the format version, the variant, and how the book was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The version of the format (`FORMAT_VERSION`).
    pub version: u32,
    /// A rule preset name (`nine`, ...).
    pub variant: String,
    /// Book moves are given for the first `plies` plies (positions after 0 to `plies - 1`).
    pub plies: u32,
    /// Entries beyond `plies` reach this ply (`book expand`; 0 when the book was not expanded).
    pub expanded: u32,
    /// The search depth (turns) of every score.
    pub depth: u32,
    /// Moves within this many centi-pieces of the best are kept.
    pub margin: i32,
    /// The hash table of each search, in MB: with the depth, what makes a search reproducible.
    pub hash_mb: u32,
    /// The evaluation of the searches (`eval::fingerprint`; 0, the hand-written one, when the
    /// header has no `evaluation` line).
    pub evaluation: u64,
    /// When the book was finished (UTC, `YYYY-MM-DD`).
    pub date: String,
    /// The command that made it.
    pub command: String,
    /// Free text (`note ...` lines), such as the build time.
    pub notes: Vec<String>,
}

impl Header {
    /// The rules of the header's variant.
    pub fn rules(&self) -> Result<Rules, TextError> {
        Rules::preset(&self.variant)
            .ok_or_else(|| TextError::at(0, format!("unknown variant '{}'", self.variant)))
    }

    /// The header's lines, ending with the number of positions that follow.
    pub fn lines(&self, positions: usize) -> Vec<String> {
        let mut out = vec![
            "# moulin opening book; the format is described in book/README.md".to_string(),
            format!("moulin-book {}", self.version),
            format!("variant {}", self.variant),
            format!("plies {}", self.plies),
        ];
        if self.expanded > 0 {
            out.push(format!("expanded {}", self.expanded));
        }
        out.extend([
            format!("depth {}", self.depth),
            format!("margin {}", self.margin),
            format!("hash {}", self.hash_mb),
            format!("date {}", self.date),
        ]);
        if self.evaluation != 0 {
            out.push(format!("evaluation {:016x}", self.evaluation));
        }
        out.push(format!("command {}", self.command));
        out.extend(self.notes.iter().map(|n| format!("note {n}")));
        out.push(format!("positions {positions}"));
        out
    }
}

/// One position line, read and checked: a legal position and legal whole turns.
#[derive(Clone, Debug)]
pub struct Line {
    /// The line's number in its file (from 1).
    pub number: usize,
    /// The position, in its canonical form.
    pub pos: Position,
    /// Its book moves, best first.
    pub moves: Vec<BookMove>,
}

/// A score as the book writes it: `-12`, `M3`, `M-2`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(x) => x.to_string(),
        Score::Mate(n) => format!("M{n}"),
    }
}

fn parse_score(text: &str) -> Option<Score> {
    match text.strip_prefix('M') {
        Some(n) => n.parse().ok().map(Score::Mate),
        None => text.parse().ok().map(Score::Cp),
    }
}

/// A proven value as the book writes it: `>=draw`, `>=win`.
fn exact_text(v: Wdl) -> String {
    format!(">={}", exact::name(v))
}

/// The score of a move proven to keep at least `v`: 0 for a draw, ±1000 for a win or a loss.
pub fn exact_score(v: Wdl) -> Score {
    Score::Cp(1000 * i32::from(v))
}

/// One position line of the book.
pub fn line_text(pos: &Position, moves: &[BookMove]) -> String {
    let mut s = fen::write(pos);
    for m in moves {
        let score = m.exact.map_or_else(|| score_text(m.score), exact_text);
        s.push_str(&format!(" | {} {score} {}", m.mv.turn_notation(), m.weight));
    }
    s
}

/// Reads one position line (without its number) under `rules`; the error names no line (the
/// caller knows it).
pub fn parse_line(text: &str, rules: &Rules) -> Result<(Position, Vec<BookMove>), TextError> {
    let bad = |message: String| TextError::at(0, message);
    let mut parts = text.split('|');
    let fen_text = parts.next().unwrap_or("").trim();
    let pos = fen::read(fen_text, rules).map_err(|e| TextError::of(0, e))?;
    if pos.outcome().is_some() {
        return Err(bad("the game is over in this position".into()));
    }
    let legal = movegen::legal_moves(&pos, Convention::Turn);
    let mut moves: Vec<BookMove> = Vec::new();
    for part in parts {
        let words: Vec<&str> = part.split_whitespace().collect();
        let [mv_text, score_text, weight_text] = words[..] else {
            return Err(bad(format!(
                "'{}': expected '<move> <score> <weight>'",
                part.trim()
            )));
        };
        let mv = notation::parse_move(&pos, mv_text).map_err(|e| TextError::of(0, e))?;
        if !legal.contains(&mv) {
            return Err(bad(format!(
                "'{mv_text}' is not a whole turn (give its removal)"
            )));
        }
        if moves.iter().any(|m| m.mv == mv) {
            return Err(bad(format!("'{mv_text}' is given twice")));
        }
        let exact = match score_text.strip_prefix(">=") {
            Some(v) => Some(exact::from_name(v).filter(|&v| v >= 0).ok_or_else(|| {
                bad(format!(
                    "'{score_text}' is not a proven value (>=draw or >=win)"
                ))
            })?),
            None => None,
        };
        let score = match exact {
            Some(v) => exact_score(v),
            None => parse_score(score_text).ok_or_else(|| {
                bad(format!(
                    "'{score_text}' is not a score (such as -12, M3 or >=draw)"
                ))
            })?,
        };
        let weight = weight_text
            .parse::<u32>()
            .ok()
            .filter(|w| (1..=100).contains(w))
            .ok_or_else(|| bad(format!("'{weight_text}' is not a weight (1 to 100)")))?;
        moves.push(BookMove {
            mv,
            score,
            weight,
            exact,
        });
    }
    if moves.is_empty() {
        return Err(bad("no move for this position".into()));
    }
    Ok((pos, moves))
}

/// Reads a whole book: the header, then every position line, checked under the header's rules.
pub fn parse(text: &str) -> Result<(Header, Vec<Line>), TextError> {
    let mut header: Option<Header> = None;
    let mut version = None;
    let mut fields: Vec<(&str, &str, usize)> = Vec::new();
    let mut lines = Vec::new();
    let mut rules = None;
    let mut declared = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if header.is_none() {
            let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let value = value.trim();
            if version.is_none() {
                if key != "moulin-book" {
                    return Err(TextError::at(
                        number,
                        "a book starts with 'moulin-book <version>'",
                    ));
                }
                let v: u32 = value
                    .parse()
                    .map_err(|_| TextError::at(number, format!("bad version '{value}'")))?;
                if v != FORMAT_VERSION {
                    return Err(TextError::at(
                        number,
                        format!("format version {v} is not supported (this is {FORMAT_VERSION})"),
                    ));
                }
                version = Some(v);
                continue;
            }
            if key != "positions" {
                match key {
                    "variant" | "plies" | "expanded" | "depth" | "margin" | "hash"
                    | "evaluation" | "date" | "command" | "note" => {
                        fields.push((key, value, number));
                    }
                    _ => {
                        return Err(TextError::at(
                            number,
                            format!("unknown header field '{key}'"),
                        ))
                    }
                }
                continue;
            }
            declared = Some((
                value.parse::<usize>().map_err(|_| {
                    TextError::at(number, format!("bad number of positions '{value}'"))
                })?,
                number,
            ));
            let h = header_of(version.unwrap_or(FORMAT_VERSION), &fields, number)?;
            rules = Some(h.rules().map_err(|e| e.at_line(number))?);
            header = Some(h);
            continue;
        }
        let rules = rules.as_ref().expect("set with the header");
        let (pos, moves) = parse_line(line, rules).map_err(|e| e.at_line(number))?;
        lines.push(Line { number, pos, moves });
    }
    let Some(header) = header else {
        return Err(TextError::at(
            0,
            "the header is incomplete (it ends with 'positions <n>')",
        ));
    };
    if let Some((n, number)) = declared {
        if n != lines.len() {
            return Err(TextError::at(
                number,
                format!(
                    "the header announces {n} positions, the file holds {}",
                    lines.len()
                ),
            ));
        }
    }
    Ok((header, lines))
}

fn header_of(
    version: u32,
    fields: &[(&str, &str, usize)],
    end: usize,
) -> Result<Header, TextError> {
    let get = |key: &str| -> Result<(&str, usize), TextError> {
        fields
            .iter()
            .rev()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, n)| (*v, *n))
            .ok_or_else(|| TextError::at(end, format!("the header has no '{key}' field")))
    };
    let number = |key: &str, max: i64| -> Result<i64, TextError> {
        let (v, n) = get(key)?;
        let x = v
            .parse()
            .map_err(|_| TextError::at(n, format!("{key}: '{v}' is not a number")))?;
        let min = i64::from(key != "margin");
        super::settings::check_setting(key, x, min, max)
            .map_err(|e| TextError::of(n, Box::new(e)))?;
        Ok(x)
    };
    let (variant, variant_line) = get("variant")?;
    if Rules::preset(variant).is_none() {
        return Err(TextError::at(
            variant_line,
            format!("unknown variant '{variant}'"),
        ));
    }
    Ok(Header {
        version,
        variant: variant.to_string(),
        plies: number("plies", i64::from(super::settings::MAX_PLIES))? as u32,
        expanded: match get("expanded") {
            Ok(_) => number("expanded", i64::from(super::settings::MAX_EXPANDED))? as u32,
            Err(_) => 0,
        },
        depth: number("depth", i64::from(super::settings::MAX_DEPTH))? as u32,
        margin: number("margin", i64::from(super::settings::MAX_MARGIN))? as i32,
        hash_mb: number("hash", i64::from(super::settings::MAX_HASH_MB))? as u32,
        evaluation: match get("evaluation") {
            Ok(("hand", _)) | Err(_) => 0,
            Ok((v, n)) => u64::from_str_radix(v, 16).map_err(|_| {
                TextError::at(
                    n,
                    format!("evaluation: '{v}' is not 'hand' or 16 hex digits"),
                )
            })?,
        },
        date: get("date")?.0.to_string(),
        command: get("command")?.0.to_string(),
        notes: fields
            .iter()
            .filter(|(k, _, _)| *k == "note")
            .map(|(_, v, _)| v.to_string())
            .collect(),
    })
}

/// Writes a whole book: the header, then the lines.
pub fn write(header: &Header, lines: &[(Position, Vec<BookMove>)]) -> String {
    let mut out = header.lines(lines.len()).join("\n");
    out.push('\n');
    for (pos, moves) in lines {
        out.push_str(&line_text(pos, moves));
        out.push('\n');
    }
    out
}

/// Book moves from a search's results (best first, within the margin), with their weights.
pub fn weighted(moves: &[(crate::rules::moves::Move, Score)], margin: i32) -> Vec<BookMove> {
    let best = moves
        .first()
        .map_or(0, |&(_, s)| super::book_move::score_value(s));
    moves
        .iter()
        .map(|&(mv, score)| BookMove {
            mv,
            score,
            weight: weight(best - super::book_move::score_value(score), margin),
            exact: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::moves::Move;

    fn header() -> Header {
        Header {
            version: FORMAT_VERSION,
            variant: "nine".into(),
            plies: 2,
            expanded: 0,
            depth: 3,
            margin: 10,
            hash_mb: 4,
            evaluation: 0,
            date: "2025-01-01".into(),
            command: "moulin book build --variant nine --plies 2 --depth 3".into(),
            notes: vec!["a test".into()],
        }
    }

    fn sample() -> Vec<(Position, Vec<BookMove>)> {
        let start = *Game::new(Rules::nine()).position();
        let d6 = notation::parse_move(&start, "d6").unwrap();
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d7", "a1", "g7", "d1"]).unwrap();
        let mill = *game.position();
        let a7 = notation::parse_move(&mill, "a7xd1").unwrap();
        vec![
            (
                start,
                vec![BookMove {
                    mv: d6,
                    score: Score::Cp(-5),
                    weight: 100,
                    exact: None,
                }],
            ),
            (
                mill,
                vec![
                    BookMove {
                        mv: a7,
                        score: Score::Mate(7),
                        weight: 100,
                        exact: None,
                    },
                    BookMove {
                        mv: Move::place(crate::Point::parse("a7").unwrap())
                            .with_removal(crate::Point::parse("a1").unwrap()),
                        score: exact_score(0),
                        weight: 3,
                        exact: Some(0),
                    },
                ],
            ),
        ]
    }

    #[test]
    fn round_trip() {
        let text = write(&header(), &sample());
        let (h, lines) = parse(&text).unwrap();
        assert_eq!(h, header());
        assert_eq!(lines.len(), 2);
        for (line, (pos, moves)) in lines.iter().zip(sample()) {
            assert_eq!(fen::write(&line.pos), fen::write(&pos));
            assert_eq!(line.moves, moves);
        }
        assert!(text.contains("| a7xd1 M7 100 | a7xa1 >=draw 3"), "{text}");
        // Written again, the same text.
        let again: Vec<_> = lines.into_iter().map(|l| (l.pos, l.moves)).collect();
        assert_eq!(write(&h, &again), text);
    }

    #[test]
    fn errors_name_the_line() {
        let good = write(&header(), &sample());
        let lines: Vec<&str> = good.lines().collect();
        // Line 12 is the first position, 13 the second.
        assert!(lines[11].starts_with("********/"));
        let with = |n: usize, text: &str| {
            let mut l = lines.clone();
            l[n - 1] = text;
            parse(&l.join("\n")).unwrap_err()
        };
        let e = with(
            13,
            "********/********/OO**@@** w p p 2 7 2 7 0 0 -1 -1 -1 -1 0 0 3 | a7 1 1",
        );
        assert_eq!(e.line, 13, "{e}");
        assert!(e.flaw.to_string().contains("whole turn"), "{e}");
        let e = with(
            12,
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 | q9 1 1",
        );
        assert!(
            e.to_string().starts_with("line 12: ") && e.flaw.to_string().contains("q9"),
            "{e}"
        );
        let e = with(
            12,
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 | d6 x 1",
        );
        assert!(
            e.line == 12 && e.flaw.to_string().contains("not a score"),
            "{e}"
        );
        for proven in [">=loss", ">=", ">=drawn"] {
            let e = with(
                12,
                &format!("********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 | d6 {proven} 1"),
            );
            assert!(
                e.line == 12 && e.flaw.to_string().contains("not a proven value"),
                "{e}"
            );
        }
        let e = with(
            12,
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 | d6 1 0",
        );
        assert!(e.line == 12 && e.flaw.to_string().contains("weight"), "{e}");
        let e = with(
            12,
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
        );
        assert!(
            e.line == 12 && e.flaw.to_string().contains("no move"),
            "{e}"
        );
        let e = with(12, "nonsense | d6 1 1");
        assert!(
            e.line == 12 && e.flaw.to_string().contains("position string"),
            "{e}"
        );
        let e = with(3, "variant chess");
        assert_eq!(e.line, 3, "{e}");
        let e = with(2, "moulin-book 2");
        assert!(
            e.line == 2 && e.flaw.to_string().contains("version 2"),
            "{e}"
        );
        let e = with(11, "positions 3");
        assert!(
            e.line == 11 && e.flaw.to_string().contains("announces 3"),
            "{e}"
        );
        let e = with(7, "hash 1048576");
        assert!(
            e.line == 7
                && e.flaw
                    .to_string()
                    .contains("hash 1048576 is out of bounds (1 to 1024)"),
            "{e}"
        );
        let e = with(5, "depth 1000");
        assert!(
            e.line == 5 && e.flaw.to_string().contains("(1 to 20)"),
            "{e}"
        );
        let e = with(4, "width 3");
        assert!(
            e.line == 4 && e.flaw.to_string().contains("unknown header field"),
            "{e}"
        );
        let e = parse("moulin-book 1\nvariant nine\n").unwrap_err();
        assert!(e.flaw.to_string().contains("incomplete"), "{e}");
        let e = parse("").unwrap_err();
        assert!(e.flaw.to_string().contains("incomplete"), "{e}");
        let e = super::super::Book::parse(&format!("{good}{}\n", lines[11])).unwrap_err();
        assert!(
            e.flaw.to_string().contains("announces") || e.flaw.to_string().contains("already"),
            "{e}"
        );
    }
}
