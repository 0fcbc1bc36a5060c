//! Cutting a record file into tokens that know their line and column, read from any `BufRead`
//! a buffer at a time: the text is never held whole. The bytes since the end of the last game
//! are counted, and a game longer than [`MAX_GAME_BYTES`] is an error where it passes the limit,
//! so that reading takes time in proportion to the file and memory in proportion to one game.
//!
//! The syntax is ASCII (blanks are ASCII blanks); the text of a word, a comment or a tag value
//! is read as UTF-8 (a byte that is not is replaced by U+FFFD), and columns count characters.

use super::game_record::MAX_GAME_BYTES;
use super::record_error::{RecordError, Why};
use crate::text::quoted;
use std::io::BufRead;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{text}` or `; text`, blanks squeezed.
    Comment(String),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `$n`.
    Nag(u8),
    /// A move number, a move (with its glyphs) or a result.
    Symbol(String),
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: Kind,
    pub line: usize,
    pub column: usize,
}

/// The error `message` at `(line, column)`.
pub(super) fn error(line: usize, column: usize, message: impl Into<Why>) -> RecordError {
    RecordError::At {
        line,
        column,
        message: message.into(),
    }
}

/// The byte order mark, skipped at the start of a file.
const BOM: char = '\u{feff}';

/// Whether `b` is a blank: the ASCII whitespace and the vertical tab.
fn blank(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0B
}

/// The bytes of a record file, read a buffer at a time, with the place of the next one.
struct Source<R> {
    input: R,
    line: usize,
    column: usize,
    /// Whether the next token starts a game.
    between_games: bool,
    /// The bytes read since the game being read started (blanks between games are not counted:
    /// they are never kept).
    used: usize,
    /// Where the game being read starts.
    game_at: (usize, usize),
}

impl<R: BufRead> Source<R> {
    /// The bytes buffered, at least one unless the input is over.
    fn buffer(&mut self) -> Result<&[u8], RecordError> {
        let (line, column) = (self.line, self.column);
        self.input.fill_buf().map_err(|source| RecordError::Read {
            line,
            column,
            source,
        })
    }

    /// The next byte, not moving past it.
    fn peek(&mut self) -> Result<Option<u8>, RecordError> {
        Ok(self.buffer()?.first().copied())
    }

    /// Moves past the bytes that `keep` accepts, adding them to `out` when given.
    fn scan(
        &mut self,
        keep: impl Fn(u8) -> bool,
        mut out: Option<&mut Vec<u8>>,
    ) -> Result<(), RecordError> {
        loop {
            let left = self.left();
            let mut place = (self.line, self.column);
            let buf = self.input.fill_buf().map_err(|source| RecordError::Read {
                line: place.0,
                column: place.1,
                source,
            })?;
            let wanted = buf.iter().position(|&b| !keep(b)).unwrap_or(buf.len());
            let n = wanted.min(left);
            if n == 0 {
                return if wanted == 0 {
                    Ok(())
                } else {
                    Err(self.too_long())
                };
            }
            for &b in &buf[..n] {
                step(&mut place, b);
            }
            if let Some(out) = out.as_deref_mut() {
                out.extend_from_slice(&buf[..n]);
            }
            self.input.consume(n);
            (self.line, self.column) = place;
            self.used += n;
        }
    }

    /// The next byte, moving past it.
    fn bump(&mut self) -> Result<Option<u8>, RecordError> {
        let b = self.peek()?;
        if let Some(b) = b {
            if self.left() == 0 {
                return Err(self.too_long());
            }
            self.input.consume(1);
            let mut place = (self.line, self.column);
            step(&mut place, b);
            (self.line, self.column) = place;
            self.used += 1;
        }
        Ok(b)
    }

    /// Moves past `wanted`, or says `missing` where it should have been.
    fn expect(&mut self, wanted: u8, missing: String) -> Result<(), RecordError> {
        if self.peek()? == Some(wanted) {
            self.bump()?;
            Ok(())
        } else {
            Err(error(self.line, self.column, missing))
        }
    }

    /// How many more bytes the game being read may have.
    fn left(&self) -> usize {
        if self.between_games {
            usize::MAX
        } else {
            MAX_GAME_BYTES - self.used
        }
    }

    /// The error of a game longer than `MAX_GAME_BYTES`, at its first byte past the limit.
    fn too_long(&self) -> RecordError {
        let (line, column) = self.game_at;
        error(
            self.line,
            self.column,
            format!(
                "the game begun at line {line}, column {column} is longer than the {} MB a game \
                 may be: not read",
                MAX_GAME_BYTES >> 20
            ),
        )
    }
}

/// Moves `(line, column)` past the byte `b`: a column is a character, so a UTF-8 continuation
/// byte takes none.
fn step(place: &mut (usize, usize), b: u8) {
    if b == b'\n' {
        *place = (place.0 + 1, 1);
    } else if b & 0xC0 != 0x80 {
        place.1 += 1;
    }
}

/// The tokens of a record file, with one token of look-ahead.
pub(super) struct Tokens<R> {
    src: Source<R>,
    ahead: Option<Token>,
    /// Whether the start of the file (and its byte order mark) is behind.
    started: bool,
}

impl<R: BufRead> Tokens<R> {
    /// The tokens of `input`.
    pub fn new(input: R) -> Tokens<R> {
        Tokens {
            src: Source {
                input,
                line: 1,
                column: 1,
                between_games: true,
                used: 0,
                game_at: (1, 1),
            },
            ahead: None,
            started: false,
        }
    }

    /// The next token, not moving past it; `None` at the end of the file.
    pub fn peek(&mut self) -> Result<Option<&Token>, RecordError> {
        if self.ahead.is_none() {
            self.ahead = self.read()?;
        }
        Ok(self.ahead.as_ref())
    }

    /// The next token, moving past it; `None` at the end of the file.
    pub fn next(&mut self) -> Result<Option<Token>, RecordError> {
        match self.ahead.take() {
            Some(t) => Ok(Some(t)),
            None => self.read(),
        }
    }

    /// The next token when `wanted` accepts it, moving past it; `None` otherwise.
    pub fn next_if(
        &mut self,
        wanted: impl Fn(&Token) -> bool,
    ) -> Result<Option<Token>, RecordError> {
        if self.peek()?.is_some_and(wanted) {
            self.next()
        } else {
            Ok(None)
        }
    }

    /// Where the next token starts (the end of the file, when there is none).
    pub fn next_place(&mut self) -> Result<(usize, usize), RecordError> {
        Ok(match self.peek()? {
            Some(t) => (t.line, t.column),
            None => (self.src.line, self.src.column),
        })
    }

    /// Ends a game: the next token starts the next one.
    pub fn end_game(&mut self) {
        self.src.between_games = true;
    }

    /// Reads a token from the file. A UTF-8 byte order mark at the start of the file is no part
    /// of it: it is cut from the first token, and the columns of the first line are counted
    /// without it.
    fn read(&mut self) -> Result<Option<Token>, RecordError> {
        let token = self.read_raw()?;
        if std::mem::replace(&mut self.started, true) {
            return Ok(token);
        }
        match token {
            Some(Token {
                kind: Kind::Symbol(word),
                line: 1,
                column: 1,
            }) if word.starts_with(BOM) => {
                if self.src.line == 1 {
                    self.src.column -= 1;
                }
                match &word[BOM.len_utf8()..] {
                    "" => {
                        // The game starts at the next token.
                        self.src.between_games = true;
                        self.read()
                    }
                    rest => Ok(Some(Token {
                        kind: Kind::Symbol(rest.to_string()),
                        line: 1,
                        column: 1,
                    })),
                }
            }
            token => Ok(token),
        }
    }

    /// Reads a token from the file as it stands.
    fn read_raw(&mut self) -> Result<Option<Token>, RecordError> {
        let src = &mut self.src;
        loop {
            src.scan(blank, None)?;
            let (line, column) = (src.line, src.column);
            let Some(b) = src.peek()? else {
                return Ok(None);
            };
            if src.between_games && !(b == b'%' && column == 1) {
                src.between_games = false;
                src.used = 0;
                src.game_at = (line, column);
            }
            let kind = match b {
                b'%' if column == 1 => {
                    src.scan(|b| b != b'\n', None)?;
                    continue;
                }
                b';' => {
                    src.bump()?;
                    Kind::Comment(squeeze(&text(src, |b| b != b'\n')?))
                }
                b'{' => {
                    src.bump()?;
                    let body = text(src, |b| b != b'}')?;
                    if src.bump()?.is_none() {
                        return Err(error(line, column, "this comment is never closed with '}'"));
                    }
                    Kind::Comment(squeeze(&body))
                }
                b'(' | b')' => {
                    src.bump()?;
                    if b == b'(' {
                        Kind::Open
                    } else {
                        Kind::Close
                    }
                }
                b'[' => tag(src)?,
                b'$' => {
                    src.bump()?;
                    let nag = text(src, |b| b.is_ascii_digit())?.parse::<u8>();
                    Kind::Nag(nag.map_err(|_| {
                        error(
                            line,
                            column,
                            "'$' must be followed by a number from 0 to 255",
                        )
                    })?)
                }
                b']' | b'}' => {
                    return Err(error(
                        line,
                        column,
                        format!("'{}' closes nothing", char::from(b)),
                    ))
                }
                _ => Kind::Symbol(text(src, |b| !blank(b) && !b"{}()[];$".contains(&b))?),
            };
            return Ok(Some(Token { kind, line, column }));
        }
    }
}

/// The text of the bytes that `keep` accepts, moving past them.
fn text<R: BufRead>(src: &mut Source<R>, keep: impl Fn(u8) -> bool) -> Result<String, RecordError> {
    let mut bytes = Vec::new();
    src.scan(keep, Some(&mut bytes))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads a tag pair, from its `[` to its `]`.
fn tag<R: BufRead>(src: &mut Source<R>) -> Result<Kind, RecordError> {
    src.bump()?;
    let name = text(src, |b| b.is_ascii_alphanumeric() || b == b'_')?;
    if name.is_empty() {
        return Err(error(
            src.line,
            src.column,
            "a tag name (letters, digits, _) after '['",
        ));
    }
    let shown = quoted(&name);
    // A name runs into a character no name holds (`[White-Elo "..."]`): said as such, not as
    // a missing value.
    if let Some(b) = src.peek()?.filter(|&b| !blank(b) && !b"\"]".contains(&b)) {
        let what = if b.is_ascii_graphic() {
            format!("'{}'", char::from(b))
        } else {
            format!("the byte 0x{b:02x}")
        };
        return Err(error(
            src.line,
            src.column,
            format!(
                "the tag name {shown} runs into {what}, which a tag name cannot hold (letters, \
                 digits, _)"
            ),
        ));
    }
    src.scan(|b| blank(b) && b != b'\n', None)?;
    src.expect(b'"', format!("the tag {shown} needs a quoted value"))?;
    let mut value = Vec::new();
    loop {
        src.scan(|b| !matches!(b, b'"' | b'\\' | b'\n'), Some(&mut value))?;
        match src.peek()? {
            None | Some(b'\n') => {
                return Err(error(
                    src.line,
                    src.column,
                    format!("the value of the tag {shown} is never closed with '\"'"),
                ))
            }
            Some(b'"') => {
                src.bump()?;
                break;
            }
            // `\"` and `\\` stand for `"` and `\`; any other `\` is itself.
            _ => {
                src.bump()?;
                match src.peek()? {
                    Some(b @ (b'"' | b'\\')) => {
                        value.push(b);
                        src.bump()?;
                    }
                    _ => value.push(b'\\'),
                }
            }
        }
    }
    src.scan(|b| blank(b) && b != b'\n', None)?;
    src.expect(b']', format!("the tag {shown} is not closed with ']'"))?;
    Ok(Kind::Tag(
        name,
        String::from_utf8_lossy(&value).into_owned(),
    ))
}

/// Blank runs made one space, ends trimmed: a comment as it is kept.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
