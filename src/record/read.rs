//! Reading records: the text is cut into tokens that know their line and column, then read game
//! by game, every move (and every variation) played on the rules so that an illegal one is an
//! error where it stands.

use super::{Ply, Record, RecordError, RESULTS};
use crate::rules::game::Game;
use crate::rules::notation::Convention;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// `[Name "value"]`.
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    Nag(u8),
    /// A move number, a move (with its glyphs) or a result.
    Symbol(String),
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    line: usize,
    column: usize,
}

fn error(line: usize, column: usize, message: impl Into<String>) -> RecordError {
    RecordError::At {
        line,
        column,
        message: message.into(),
    }
}

/// A place in the text, that knows its line and column.
struct Cursor {
    chars: Vec<char>,
    i: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// The next character, moving past it.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        self.i += 1;
        Some(c)
    }

    /// Moves past the characters that `keep` accepts, returning them.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            out.push(c);
            self.bump();
        }
        out
    }

    /// Moves past blanks, not past the end of the line.
    fn skip_blanks(&mut self) {
        self.take_while(|c| c.is_whitespace() && c != '\n');
    }

    /// Moves past `wanted`, or says `missing` where it should have been.
    fn expect(&mut self, wanted: char, missing: String) -> Result<(), RecordError> {
        if self.peek() == Some(wanted) {
            self.bump();
            Ok(())
        } else {
            Err(error(self.line, self.column, missing))
        }
    }
}

/// Cuts the text into tokens.
fn tokens(text: &str) -> Result<Vec<Token>, RecordError> {
    let mut cur = Cursor {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        column: 1,
    };
    let mut out = Vec::new();
    while let Some(c) = cur.peek() {
        let (line, column) = (cur.line, cur.column);
        let kind = match c {
            _ if c.is_whitespace() => {
                cur.bump();
                continue;
            }
            '%' if column == 1 => {
                cur.take_while(|c| c != '\n');
                continue;
            }
            ';' => {
                cur.bump();
                Kind::Comment(squeeze(&cur.take_while(|c| c != '\n')))
            }
            '{' => {
                cur.bump();
                let text = cur.take_while(|c| c != '}');
                if cur.bump().is_none() {
                    return Err(error(line, column, "this comment is never closed with '}'"));
                }
                Kind::Comment(squeeze(&text))
            }
            '(' | ')' => {
                cur.bump();
                if c == '(' {
                    Kind::Open
                } else {
                    Kind::Close
                }
            }
            '[' => {
                cur.bump();
                let name = cur.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
                if name.is_empty() {
                    return Err(error(
                        cur.line,
                        cur.column,
                        "a tag name (letters, digits, _) after '['",
                    ));
                }
                cur.skip_blanks();
                cur.expect('"', format!("the tag {name} needs a quoted value"))?;
                let mut value = String::new();
                loop {
                    match cur.peek() {
                        None | Some('\n') => {
                            return Err(error(
                                cur.line,
                                cur.column,
                                format!("the value of the tag {name} is never closed with '\"'"),
                            ))
                        }
                        Some('"') => {
                            cur.bump();
                            break;
                        }
                        Some('\\') if matches!(cur.chars.get(cur.i + 1), Some('"' | '\\')) => {
                            cur.bump();
                            value.extend(cur.bump());
                        }
                        Some(ch) => {
                            cur.bump();
                            value.push(ch);
                        }
                    }
                }
                cur.skip_blanks();
                cur.expect(']', format!("the tag {name} is not closed with ']'"))?;
                Kind::Tag(name, value)
            }
            '$' => {
                cur.bump();
                let nag = cur
                    .take_while(|c| c.is_ascii_digit())
                    .parse::<u8>()
                    .map_err(|_| {
                        error(
                            line,
                            column,
                            "'$' must be followed by a number from 0 to 255",
                        )
                    })?;
                Kind::Nag(nag)
            }
            ']' | '}' => return Err(error(line, column, format!("'{c}' closes nothing"))),
            _ => Kind::Symbol(cur.take_while(|c| !c.is_whitespace() && !"{}()[];$".contains(c))),
        };
        out.push(Token { kind, line, column });
    }
    Ok(out)
}

/// Whitespace runs made one space, ends trimmed: a comment as it is kept.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The glyph suffixes and their numbers, longest first.
const GLYPHS: [(&str, u8); 6] = [
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
];

/// A move number: digits then dots (`12.`, `12...`); the rest of the word when a move follows
/// without a space (`12.d6`).
fn move_number(word: &str) -> Option<&str> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !word[digits..].starts_with('.') {
        return None;
    }
    Some(word[digits..].trim_start_matches('.'))
}

/// One line of play being read: the game before and after its last move.
struct Frame {
    before_last: Option<Game>,
    game: Game,
    plies: Vec<Ply>,
    /// Where the line was opened, for an error.
    opened: (usize, usize),
}

/// Reads every game of `text`.
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    let toks = tokens(text)?;
    let mut games = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let (record, next) = read_game(&toks, i)?;
        games.push(record);
        i = next;
    }
    Ok(games)
}

/// Reads the game whose first token is `toks[start]`; the record and the index after it.
fn read_game(toks: &[Token], start: usize) -> Result<(Record, usize), RecordError> {
    let (mut record, mut i, fen_at) = read_tags(toks, start)?;
    let here = |i: usize| {
        toks.get(i)
            .or(toks.last())
            .map_or((1, 1), |t| (t.line, t.column))
    };
    let start_game = record
        .start()
        .map_err(|e| error(fen_at.0, fen_at.1, e.to_string()))?;
    let mut stack = vec![Frame {
        before_last: None,
        game: start_game,
        plies: Vec::new(),
        opened: here(i),
    }];
    loop {
        let Some(tok) = toks.get(i) else {
            let (l, c) = here(i);
            return Err(error(
                l,
                c,
                "the game ends without a result (1-0, 0-1, 1/2-1/2 or *)",
            ));
        };
        let (l, c) = (tok.line, tok.column);
        let top = stack.len() == 1;
        let frame = stack.last_mut().expect("the main line is never popped");
        match &tok.kind {
            Kind::Tag(name, _) => {
                return Err(error(
                    l,
                    c,
                    format!(
                        "the tag {name} comes after the moves: the game before it has no result"
                    ),
                ))
            }
            Kind::Comment(text) => comment(&mut record, frame, top, text, (l, c))?,
            Kind::Nag(n) => match frame.plies.last_mut() {
                Some(ply) => ply.nags.push(*n),
                None => return Err(error(l, c, "an annotation glyph before any move")),
            },
            Kind::Open => {
                let Some(before) = frame.before_last.clone() else {
                    return Err(error(l, c, "a variation before any move it could replace"));
                };
                stack.push(Frame {
                    before_last: None,
                    game: before,
                    plies: Vec::new(),
                    opened: (l, c),
                });
            }
            Kind::Close => close_variation(&mut stack, (l, c))?,
            Kind::Symbol(word) if RESULTS.contains(&word.as_str()) => {
                return finish(record, &mut stack, word, (l, c)).map(|r| (r, i + 1));
            }
            Kind::Symbol(word) => i = read_move(toks, i, frame, word, (l, c))?,
        }
        i += 1;
    }
}

/// Reads the tag pairs from `toks[start]` on: the record holding them, the index of the first
/// token after them, and where an error of the game's start is reported (the `FEN` or
/// `Variant` tag, or the game's first token).
fn read_tags(toks: &[Token], start: usize) -> Result<(Record, usize, (usize, usize)), RecordError> {
    let mut record = Record::default();
    let mut i = start;
    let mut fen_at = (toks[start].line, toks[start].column);
    while let Some(Token {
        kind: Kind::Tag(name, value),
        line,
        column,
    }) = toks.get(i)
    {
        if record.tag(name).is_some() {
            return Err(error(
                *line,
                *column,
                format!("the tag {name} is given twice"),
            ));
        }
        if name == "FEN" || name == "Variant" {
            fen_at = (*line, *column);
        }
        record.tags.push((name.clone(), value.clone()));
        i += 1;
    }
    Ok((record, i, fen_at))
}

/// Adds a comment at `(l, c)` to the last move of `frame`, or to the record's introduction
/// before the main line's first move (`top`: `frame` is the main line).
fn comment(
    record: &mut Record,
    frame: &mut Frame,
    top: bool,
    text: &str,
    (l, c): (usize, usize),
) -> Result<(), RecordError> {
    match frame.plies.last_mut() {
        Some(ply) => ply.comments.push(text.to_string()),
        None if top && record.intro.is_none() => record.intro = Some(text.to_string()),
        None if top => {
            let intro = record.intro.get_or_insert_with(String::new);
            intro.push(' ');
            intro.push_str(text);
        }
        None => {
            return Err(error(
                l,
                c,
                "a comment before a variation's first move: put it after that move",
            ))
        }
    }
    Ok(())
}

/// Closes the variation on top of `stack` at `(l, c)`: it joins the last move of the line
/// below it.
fn close_variation(stack: &mut Vec<Frame>, (l, c): (usize, usize)) -> Result<(), RecordError> {
    if stack.len() == 1 {
        return Err(error(l, c, "')' closes no variation"));
    }
    let done = stack.pop().expect("not the main line");
    if done.plies.is_empty() {
        return Err(error(l, c, "an empty variation"));
    }
    let parent = stack.last_mut().expect("the main line");
    let last = parent.plies.last_mut().expect("a variation follows a move");
    last.variations.push(done.plies);
    Ok(())
}

/// Ends the game with the result `word` at `(l, c)`: the record with its result and main line.
fn finish(
    mut record: Record,
    stack: &mut Vec<Frame>,
    word: &str,
    (l, c): (usize, usize),
) -> Result<Record, RecordError> {
    if stack.len() != 1 {
        let (ol, oc) = stack.last().expect("the main line is never popped").opened;
        return Err(error(
            l,
            c,
            format!("the result {word} inside the variation opened at line {ol}, column {oc}"),
        ));
    }
    if let Some(tagged) = record.tag("Result") {
        if tagged != word && tagged != "?" {
            return Err(error(
                l,
                c,
                format!("the result {word} disagrees with the Result tag \"{tagged}\""),
            ));
        }
    }
    record.result = word.to_string();
    record.set("Result", word);
    record.moves = stack.pop().expect("the main line").plies;
    Ok(record)
}

/// Reads the move (or bare move number) `word`, the token `toks[i]` at `(l, c)`, with the
/// removals written as tokens of their own after it, and plays it in `frame`; the index of the
/// last token read.
fn read_move(
    toks: &[Token],
    mut i: usize,
    frame: &mut Frame,
    word: &str,
    (l, c): (usize, usize),
) -> Result<usize, RecordError> {
    let mv_text = match move_number(word) {
        Some("") => return Ok(i),
        Some(rest) => rest,
        None => word,
    };
    // Glyphs after the move.
    let mut body = mv_text;
    let mut nags = Vec::new();
    while let Some((g, n)) = GLYPHS.iter().find(|(g, _)| body.ends_with(g)) {
        body = &body[..body.len() - g.len()];
        nags.insert(0, *n);
    }
    // A removal written as a token of its own (`d6 xb4`) belongs to the move.
    let mut text = body.to_string();
    while let Some(Token {
        kind: Kind::Symbol(next),
        ..
    }) = toks.get(i + 1)
    {
        if !next.starts_with(['x', 'X']) {
            break;
        }
        text.push_str(next);
        i += 1;
    }
    let before = frame.game.clone();
    let mv = frame
        .game
        .play_token(&text)
        .map_err(|e| error(l, c, format!("'{text}': {e}")))?;
    if frame.game.position().pending_removals() > 0 {
        return Err(error(
            l,
            c,
            format!("'{text}' closes a mill: its removal is missing ('{text}x..')"),
        ));
    }
    frame.plies.push(Ply {
        mv: mv.written_at(before.position(), Convention::Turn),
        nags,
        comments: Vec::new(),
        variations: Vec::new(),
    });
    frame.before_last = Some(before);
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_with_comments_variations_and_glyphs_are_read() {
        let text = "[Event \"test\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n{before} 1. d6! f4 {a \
                    comment\r\n over two lines} (1... d2 $14 2. b4) 2. d2?! $1 ; to the end\n b4 \
                    1/2-1/2\n\n1.d7 a1 2.g7 d1 3.a7 xd1 *\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("test"));
        assert_eq!(g.intro.as_deref(), Some("before"));
        assert_eq!(g.move_texts(), ["d6", "f4", "d2", "b4"]);
        assert_eq!(g.moves[0].nags, [1]);
        assert_eq!(g.moves[1].comments, ["a comment over two lines"]);
        assert_eq!(g.moves[1].variations.len(), 1);
        assert_eq!(g.moves[1].variations[0][0].mv, "d2");
        assert_eq!(g.moves[1].variations[0][0].nags, [14]);
        assert_eq!(g.moves[2].nags, [6, 1]);
        assert_eq!(g.moves[2].comments, ["to the end"]);
        assert_eq!(g.result, "1/2-1/2");
        // The removal written apart joins its move.
        assert_eq!(games[1].move_texts(), ["d7", "a1", "g7", "d1", "a7xd1"]);
        assert_eq!(games[1].result, "*");
    }

    #[test]
    fn the_first_problem_is_named_with_its_place() {
        let at = |text: &str| match read(text).unwrap_err() {
            RecordError::At {
                line,
                column,
                message,
            } => (line, column, message),
            e => panic!("not a place in the file: {e}"),
        };
        assert_eq!(at("1. d6 d6 *").0, 1);
        assert_eq!(at("1. d6 d6 *").1, 7);
        assert!(at("1. d6 d6 *").2.contains("'d6'"));
        let e = at("1. d6 f4\n2. zz *");
        assert_eq!((e.0, e.1), (2, 4));
        assert_eq!(at("[Variant \"chess\"]\n1. d6 *").0, 1);
        assert!(at("[Variant \"chess\"]\n1. d6 *")
            .2
            .contains("unknown variant"));
        assert_eq!(at("1. d6 {open").1, 7);
        assert_eq!(
            at("1. d6 f4").2,
            "the game ends without a result (1-0, 0-1, 1/2-1/2 or *)"
        );
        assert!(at("[Result \"1-0\"]\n1. d6 0-1").2.contains("disagrees"));
        assert!(at("1. d6 (f4 *) *").2.contains("inside the variation"));
        assert!(at("(1. d6) *").2.contains("before any move"));
        assert!(at("1. d6 ) *").2.contains("closes no variation"));
        assert!(at("1. d6 () *").2.contains("empty variation"));
        assert!(at("[Event \"a\"]\n[Event \"b\"]\n*").2.contains("twice"));
        assert!(at("[Event a]\n*").2.contains("quoted"));
        assert!(at("1. d7 a1 2. g7 d1 3. a7 *")
            .2
            .contains("removal is missing"));
        assert!(at("1. d6 $999 *").2.contains("255"));
        assert!(at("1. d6 } *").2.contains("closes nothing"));
        assert!(at("[FEN \"x\"]\n*").2.contains("FEN"));
    }
}
