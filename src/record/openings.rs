//! Openings: where each game pair starts. Read from a book file (one opening a line) or made by
//! random legal moves from the start position.
//!
//! Book file format: one opening a line, either a list of moves from the start position in either
//! token form (`d6 f4 d2`), or `fen <17-field position string> [moves <m> ...]`. Everything from
//! `#` to the end of a line is a comment; blank lines are skipped. Every line is checked against
//! the rules when the file is read; a bad line is an error naming the file and line.
//!
//! A book may also be a file of PGN-shaped games (`crate::record`), such as a match's `--pgn`
//! file: each game's start (its `FEN` tag, or the rules' start) and main line is an opening. Such
//! a file is told from a book of lines by its first character that is not blank: `[` (a tag),
//! `{` or `;` (a comment) or a digit (a move number), none of which begins an opening line.

use super::record_error::RecordError;
use crate::input_file;
use crate::rng::Rng;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use crate::text::quoted;
use std::fmt;
use std::path::Path;

/// One opening: a start position and the moves played from it, checked legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position string to start from; `None` for the start position of the rules.
    pub fen: Option<String>,
    /// The moves, one token per turn as checked (`d6`, `d7xb4`, ...).
    pub moves: Vec<String>,
}

impl Opening {
    /// The start position of the rules, no moves.
    pub fn startpos() -> Opening {
        Opening {
            fen: None,
            moves: Vec::new(),
        }
    }

    /// Reads one line of a book (without its comment). Errors say what is wrong.
    pub fn parse(line: &str, rules: &Rules) -> Result<Opening, RecordError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        // The longest field is a position string's board (26 bytes): a longer word is no move
        // and no field, and quoting it whole could flood the error.
        if let Some(w) = words.iter().find(|w| w.len() > MAX_WORD) {
            return Err(RecordError::LongWord {
                word: quoted(w),
                max: MAX_WORD,
            });
        }
        let (fen_text, moves) = if words.first() == Some(&"fen") {
            if words.len() < 18 {
                return Err(RecordError::FenFields);
            }
            let rest = &words[18..];
            let rest = match rest.first() {
                Some(&"moves") => &rest[1..],
                _ => rest,
            };
            (Some(words[1..18].join(" ")), rest.to_vec())
        } else {
            let rest = match words.first() {
                Some(&"moves") => &words[1..],
                Some(&"startpos") => match words.get(1) {
                    Some(&"moves") => &words[2..],
                    _ => &words[1..],
                },
                _ => &words[..],
            };
            (None, rest.to_vec())
        };
        let opening = Opening {
            fen: fen_text,
            moves: moves.iter().map(std::string::ToString::to_string).collect(),
        };
        let game = opening.game(rules)?;
        if game.outcome().is_some() {
            return Err(RecordError::Over);
        }
        Ok(opening)
    }

    /// The game after the opening's moves.
    pub fn game(&self, rules: &Rules) -> Result<Game, RecordError> {
        let mut game = match &self.fen {
            Some(f) => Game::from_fen(f, *rules).map_err(RecordError::OpeningFen)?,
            None => Game::new(*rules),
        };
        game.play_tokens(self.moves.iter().map(String::as_str))
            .map_err(|(_, e)| RecordError::OpeningMove(e))?;
        Ok(game)
    }

    /// The line a book holds for this opening.
    pub fn to_line(&self) -> String {
        match &self.fen {
            Some(f) if self.moves.is_empty() => format!("fen {f}"),
            Some(f) => format!("fen {f} moves {}", self.moves.join(" ")),
            None => self.moves.join(" "),
        }
    }

    /// The start position as records write it: `startpos` or the position string.
    pub fn start_text(&self) -> String {
        self.fen.clone().unwrap_or_else(|| "startpos".into())
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// The longest word (move or position-string field) an opening line may hold, in bytes.
pub(super) const MAX_WORD: usize = 64;

/// Whether a book's text holds PGN-shaped games rather than opening lines (see the module's
/// text).
pub fn holds_pgn(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.trim_start()
        .starts_with(|c: char| matches!(c, '[' | '{' | ';') || c.is_ascii_digit())
}

/// Reads a book of PGN-shaped games: each game's start and main line, checked under `rules`
/// (a game's `Variant` tag, when it has one, must name them).
fn read_pgn_book(
    text: &str,
    rules: &Rules,
    source: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, RecordError> {
    let mut out = Vec::new();
    for (i, record) in super::games(text.as_bytes()).enumerate() {
        let in_game = |error: RecordError| RecordError::OpeningGame {
            file: source.to_string(),
            game: i + 1,
            error: Box::new(error),
        };
        let record = record.map_err(in_game)?;
        if let Some(variant) = record.tag("Variant") {
            if Rules::named(variant).ok().as_ref() != Some(rules) {
                return Err(in_game(RecordError::OpeningVariant {
                    variant: quoted(variant),
                    rules: rules.preset_name().unwrap_or("custom").to_string(),
                }));
            }
        }
        let mut moves = record.move_texts();
        moves.truncate(plies.unwrap_or(usize::MAX));
        let opening = Opening {
            // Its fields joined by one space, as a line of a book gives them: the tag may hold
            // a carriage return, which would reach the engines in `position fen`.
            fen: record
                .tag("FEN")
                .map(|f| f.split_whitespace().collect::<Vec<_>>().join(" ")),
            moves,
        };
        if opening.game(rules).map_err(in_game)?.outcome().is_some() {
            return Err(in_game(RecordError::Over));
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err(RecordError::NoOpening {
            file: source.to_string(),
        });
    }
    Ok(out)
}

/// Reads a book: every opening line (or every game of a PGN-shaped book), checked under `rules`.
pub fn read_book(text: &str, rules: &Rules, source: &str) -> Result<Vec<Opening>, RecordError> {
    read_book_cut(text, rules, source, None)
}

/// Reads a book as `read_book` does, each opening cut to its first `plies` turns (when given)
/// before it is checked: so a game that ends (a match's PGN) serves as an opening.
pub fn read_book_cut(
    text: &str,
    rules: &Rules,
    source: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, RecordError> {
    if holds_pgn(text) {
        return read_pgn_book(text, rules, source, plies);
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = Opening::parse(line, rules).map_err(|e| RecordError::OpeningLine {
            file: source.to_string(),
            line: i + 1,
            text: quoted(line),
            error: Box::new(e),
        })?;
        let mut opening = opening;
        opening.moves.truncate(plies.unwrap_or(usize::MAX));
        out.push(opening);
    }
    if out.is_empty() {
        return Err(RecordError::NoOpening {
            file: source.to_string(),
        });
    }
    Ok(out)
}

/// The openings of `book` in the order a match's pairs take them: shuffled once by `shuffle`
/// (a seed; a stream of its own, so that the order depends on nothing else drawn), then begun at
/// the `start`th (from 1). `source` names the book in an error.
///
/// # Errors
///
/// A `start` past the book's end.
pub fn in_order(
    mut book: Vec<Opening>,
    shuffle: Option<u64>,
    start: usize,
    source: &str,
) -> Result<Vec<Opening>, RecordError> {
    if let Some(seed) = shuffle {
        let mut rng = Rng::new(crate::rng::mix(seed ^ 0x6f70_656e_696e_6773));
        for i in (1..book.len()).rev() {
            book.swap(i, rng.below(i + 1));
        }
    }
    if start == 0 || start > book.len() {
        return Err(RecordError::OpeningStart {
            file: source.to_string(),
            start,
            count: book.len(),
        });
    }
    book.rotate_left(start - 1);
    Ok(book)
}

/// The most bytes an openings file may hold (it is read whole): far more than the largest
/// openings book (a few hundred kB), a PGN file of some 50,000 games.
pub const MAX_BYTES: u64 = 64 << 20;

/// Reads a book file (at most [`MAX_BYTES`] of it).
pub fn read_book_file(path: &Path, rules: &Rules) -> Result<Vec<Opening>, RecordError> {
    read_book_file_cut(path, rules, None)
}

/// Reads a book file, each opening cut to its first `plies` turns (`read_book_cut`).
pub fn read_book_file_cut(
    path: &Path,
    rules: &Rules,
    plies: Option<usize>,
) -> Result<Vec<Opening>, RecordError> {
    let text = input_file::read_to_string(path, MAX_BYTES).map_err(|source| {
        RecordError::ReadOpenings {
            path: path.to_path_buf(),
            source,
        }
    })?;
    read_book_cut(&text, rules, &path.display().to_string(), plies)
}

/// An opening of `plies` random legal turns from the start position, in which the game is not
/// over. Tries again on the rare line that ends the game.
pub fn random_opening(rules: &Rules, plies: usize, rng: &mut Rng) -> Opening {
    for _ in 0..100 {
        let mut game = Game::new(*rules);
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            let legal = movegen::legal_moves(game.position(), Convention::Turn);
            let mv = legal[rng.below(legal.len())];
            game.play(mv);
            moves.push(mv.turn_notation());
        }
        if game.outcome().is_none() && moves.len() == plies {
            return Opening { fen: None, moves };
        }
    }
    Opening::startpos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    #[test]
    fn book_lines() {
        let rules = Rules::nine();
        let text = "# a comment\n\nd6 f4 d2   # placed\nfen ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 moves d6\nstartpos moves a7\n";
        let book = read_book(text, &rules, "t").unwrap();
        assert_eq!(book.len(), 3);
        assert_eq!(book[0].moves, vec!["d6", "f4", "d2"]);
        assert!(book[1].fen.is_some());
        assert_eq!(book[1].moves, vec!["d6"]);
        assert_eq!(book[2].to_line(), "a7");
        for b in &book {
            assert_eq!(&Opening::parse(&b.to_line(), &rules).unwrap(), b);
        }
    }

    #[test]
    fn pgn_books_are_their_games() {
        let rules = Rules::nine();
        let text = "\u{feff}[Event \"a\"]\n[Variant \"nine\"]\n\n1. d6 f4 2. d2 *\n\n\
                    {a comment first} 1. a1 a4 *\n";
        let book = read_book(text, &rules, "b.pgn").unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book[0].to_line(), "d6 f4 d2");
        assert_eq!(book[1].to_line(), "a1 a4");
        let twelve = "[Variant \"twelve\"]\n\n1. d6 *\n";
        let e = read_book(twelve, &rules, "b.pgn").unwrap_err().to_string();
        assert!(e.contains("b.pgn, game 1") && e.contains("'twelve'"), "{e}");
        let bad = "1. d6 f4 *\n\n1. d6 d6 *\n";
        let e = read_book(bad, &rules, "b.pgn").unwrap_err().to_string();
        assert!(e.contains("b.pgn, game 2"), "{e}");
        // Lines stay lines.
        assert_eq!(read_book("# c\nd6 f4\n", &rules, "b").unwrap().len(), 1);
        // A carriage return between a FEN tag's fields never reaches an engine.
        let start = fen::START.replacen(' ', " \r", 3);
        let book = read_book(&format!("[FEN \"{start}\"]\n\n1. d6 *\n"), &rules, "b").unwrap();
        assert_eq!(book[0].fen.as_deref(), Some(fen::START));
    }

    #[test]
    fn bad_lines_name_the_line() {
        let rules = Rules::nine();
        let e = read_book("d6\nd6 d6\n", &rules, "book.txt")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("book.txt, line 2") && e.contains("occupied"),
            "{e}"
        );
        let e = read_book("fen 1 2 3\n", &rules, "b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1") && e.contains("17 fields"), "{e}");
        let e = read_book("d9\n", &rules, "b").unwrap_err().to_string();
        assert!(e.contains("'d9' is not a point"), "{e}");
        assert!(read_book("# nothing\n", &rules, "b").is_err());
    }

    #[test]
    fn a_huge_bad_line_is_quoted_once_and_bounded() {
        let rules = Rules::nine();
        let word = "x".repeat(1 << 20);
        let e = read_book(&format!("d6\n{word}\n"), &rules, "b")
            .unwrap_err()
            .to_string();
        assert!(e.len() < 400, "{} bytes: {}", e.len(), quoted(&e));
        assert!(
            e.contains("line 2") && e.contains(&format!("({} characters)", 1 << 20)),
            "{e}"
        );
        assert!(
            e.contains("too long") && e.contains("at most 64 bytes"),
            "{e}"
        );
        let moves = "d6 ".repeat(1 << 18);
        let e = read_book(&moves, &rules, "b").unwrap_err().to_string();
        assert!(e.len() < 400 && e.contains("occupied"), "{e}");
    }

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let rules = Rules::nine();
        let a = random_opening(&rules, 8, &mut Rng::new(7));
        let b = random_opening(&rules, 8, &mut Rng::new(7));
        assert_eq!(a, b);
        assert_eq!(a.moves.len(), 8);
        assert!(a.game(&rules).unwrap().outcome().is_none());
        let start = fen::write(&Game::new(rules).position().clone());
        assert_eq!(start, fen::START);
    }
}
