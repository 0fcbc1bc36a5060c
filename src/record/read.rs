//! Reading records game by game, from any `BufRead` (`games`) or from a text (`read`): the
//! tokens of a game are read as they come, and every move (and every variation) is played on the
//! rules, so that an illegal one is an error where it stands. Only the game being read is held.
//!
//! The lines of play being read are a stack of frames, not a recursion; still, variations nest
//! at most [`MAX_DEPTH`] deep: the record they make is a tree, which is cloned, compared,
//! written and dropped by recursion, and no real record nests that deep.

use super::game_record::{Ply, Record, MAX_DEPTH, RESULTS};
use super::record_error::{RecordError, Why};
use super::tokens::{error, Kind, Token, Tokens};
use crate::rules::game::Game;
use crate::rules::notation::Convention;
use crate::text::quoted;
use std::collections::HashSet;
use std::io::BufRead;

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

/// The games of a record file, read one at a time: each item is a game, or the first problem
/// of the file (with its line and column), after which there is none.
pub struct Games<R> {
    tokens: Tokens<R>,
    over: bool,
}

/// The games of `input`, read as they are asked for.
pub fn games<R: BufRead>(input: R) -> Games<R> {
    Games {
        tokens: Tokens::new(input),
        over: false,
    }
}

impl<R: BufRead> Iterator for Games<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.over {
            return None;
        }
        let game = match self.tokens.peek() {
            Ok(None) => None,
            Ok(Some(_)) => Some(read_game(&mut self.tokens)),
            Err(e) => Some(Err(e)),
        };
        self.over = !matches!(game, Some(Ok(_)));
        game
    }
}

/// Reads every game of `text`.
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    games(text.as_bytes()).collect()
}

/// Reads the game whose first token is next.
fn read_game<R: BufRead>(toks: &mut Tokens<R>) -> Result<Record, RecordError> {
    let (mut record, fen_at) = read_tags(toks)?;
    let start_game = record
        .start()
        .map_err(|e| error(fen_at.0, fen_at.1, Why::Start(Box::new(e))))?;
    let opened = toks.next_place()?;
    let mut stack = vec![Frame {
        before_last: None,
        game: start_game,
        plies: Vec::new(),
        opened,
    }];
    loop {
        let Some(tok) = toks.next()? else {
            let (l, c) = toks.next_place()?;
            return Err(error(
                l,
                c,
                "the game ends without a result (1-0, 0-1, 1/2-1/2 or *)",
            ));
        };
        let (l, c) = (tok.line, tok.column);
        let top = stack.len() == 1;
        let frame = stack.last_mut().expect("the main line is never popped");
        match tok.kind {
            Kind::Tag(name, _) => {
                return Err(error(
                    l,
                    c,
                    format!(
                        "the tag {} comes after the moves: the game before it has no result",
                        quoted(&name)
                    ),
                ))
            }
            Kind::Comment(text) => comment(&mut record, frame, top, text, (l, c))?,
            Kind::Nag(n) => match frame.plies.last_mut() {
                Some(ply) => ply.nags.push(n),
                None => return Err(error(l, c, "an annotation glyph before any move")),
            },
            Kind::Open => {
                let Some(before) = frame.before_last.clone() else {
                    return Err(error(l, c, "a variation before any move it could replace"));
                };
                if stack.len() > MAX_DEPTH {
                    return Err(error(
                        l,
                        c,
                        format!(
                            "variations nest deeper than the {MAX_DEPTH} levels a record may have"
                        ),
                    ));
                }
                stack.push(Frame {
                    before_last: None,
                    game: before,
                    plies: Vec::new(),
                    opened: (l, c),
                });
            }
            Kind::Close => close_variation(&mut stack, (l, c))?,
            Kind::Symbol(word) if RESULTS.contains(&word.as_str()) => {
                toks.end_game();
                return finish(record, &mut stack, &word, (l, c));
            }
            Kind::Symbol(word) => read_move(toks, frame, &word, (l, c))?,
        }
    }
}

/// Reads the tag pairs before the moves: the record holding them, and where an error of the
/// game's start is reported (the `FEN` or `Variant` tag, or the game's first token).
fn read_tags<R: BufRead>(toks: &mut Tokens<R>) -> Result<(Record, (usize, usize)), RecordError> {
    let mut record = Record::default();
    let mut names = HashSet::new();
    let mut fen_at = toks.next_place()?;
    while let Some(Token {
        kind: Kind::Tag(name, value),
        line,
        column,
    }) = toks.next_if(|t| matches!(t.kind, Kind::Tag(..)))?
    {
        if !names.insert(name.clone()) {
            return Err(error(
                line,
                column,
                format!("the tag {} is given twice", quoted(&name)),
            ));
        }
        if name == "FEN" || name == "Variant" {
            fen_at = (line, column);
        }
        record.tags.push((name, value));
    }
    Ok((record, fen_at))
}

/// Adds a comment at `(l, c)` to the last move of `frame`, or to the record's introduction
/// before the main line's first move (`top`: `frame` is the main line).
fn comment(
    record: &mut Record,
    frame: &mut Frame,
    top: bool,
    text: String,
    (l, c): (usize, usize),
) -> Result<(), RecordError> {
    match frame.plies.last_mut() {
        Some(ply) => ply.comments.push(text),
        None if top && record.intro.is_none() => record.intro = Some(text),
        None if top => {
            let intro = record.intro.get_or_insert_with(String::new);
            intro.push(' ');
            intro.push_str(&text);
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
    let mut done = stack.pop().expect("not the main line");
    if done.plies.is_empty() {
        return Err(error(l, c, "an empty variation"));
    }
    // Many short variations would otherwise hold four times the room they need.
    done.plies.shrink_to_fit();
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
                format!(
                    "the result {word} disagrees with the Result tag {}",
                    quoted(tagged)
                ),
            ));
        }
    }
    record.result = word.to_string();
    record.set("Result", word);
    record.moves = stack.pop().expect("the main line").plies;
    Ok(record)
}

/// Reads the move (or bare move number) `word`, a token at `(l, c)`, with the removals written
/// as tokens of their own after it, and plays it in `frame`.
fn read_move<R: BufRead>(
    toks: &mut Tokens<R>,
    frame: &mut Frame,
    word: &str,
    (l, c): (usize, usize),
) -> Result<(), RecordError> {
    let mv_text = match move_number(word) {
        Some("") => return Ok(()),
        Some(rest) => rest,
        None => word,
    };
    // Glyphs after the move, read from the end.
    let mut body = mv_text;
    let mut nags = Vec::new();
    while let Some((g, n)) = GLYPHS.iter().find(|(g, _)| body.ends_with(g)) {
        body = &body[..body.len() - g.len()];
        nags.push(*n);
    }
    nags.reverse();
    // A removal written as a token of its own (`d6 xb4`) belongs to the move.
    let mut text = body.to_string();
    let removal = |t: &Token| matches!(&t.kind, Kind::Symbol(w) if w.starts_with(['x', 'X']));
    while let Some(Token {
        kind: Kind::Symbol(next),
        ..
    }) = toks.next_if(removal)?
    {
        text.push_str(&next);
    }
    let before = frame.game.clone();
    let mv = frame.game.play_token(&text).map_err(|e| error(l, c, e))?;
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MAX_GAME_BYTES;

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

    /// The line, column and message of the error of `text`.
    fn at(text: &str) -> (usize, usize, String) {
        match read(text).unwrap_err() {
            RecordError::At {
                line,
                column,
                message,
            } => (line, column, message.to_string()),
            e => panic!("not a place in the file: {e}"),
        }
    }

    /// `1. d6` and `depth` variations each inside the one before.
    fn nested(depth: usize) -> String {
        format!("1. d6 {}{} *", "(d6 ".repeat(depth), ")".repeat(depth))
    }

    #[test]
    fn variations_nest_up_to_the_limit() {
        let games = read(&nested(MAX_DEPTH)).unwrap();
        let mut line = &games[0].moves;
        for _ in 0..MAX_DEPTH {
            line = &line[0].variations[0];
        }
        assert_eq!(line[0].mv, "d6");
        let (l, c, message) = at(&nested(MAX_DEPTH + 1));
        assert_eq!((l, c), (1, 7 + 4 * MAX_DEPTH));
        assert!(message.contains("deeper than the 100 levels"), "{message}");
        // Far deeper: the same error, at once.
        assert_eq!(at(&nested(200_000)).1, 7 + 4 * MAX_DEPTH);
    }

    #[test]
    fn a_game_is_read_up_to_its_size_limit() {
        // `1. d6 {` and `} *` around the comment: 10 bytes.
        let game = |size: usize| format!("*\n1. d6 {{{}}} *\n*", "a".repeat(size - 10));
        assert_eq!(read(&game(MAX_GAME_BYTES)).unwrap().len(), 3);
        let (l, c, message) = at(&game(MAX_GAME_BYTES + 1));
        assert_eq!((l, c), (2, MAX_GAME_BYTES + 1));
        assert!(
            message.contains("the game begun at line 2, column 1 is longer than the 1 MB"),
            "{message}"
        );
        // Blanks between games do not count.
        let spaced = format!("*{}*", " ".repeat(2 * MAX_GAME_BYTES));
        assert_eq!(read(&spaced).unwrap().len(), 2);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_not_counted() {
        for text in ["\u{feff}1. d6 f4 *", "\u{feff}[Event \"e\"] 1. d6 f4 *"] {
            assert_eq!(read(text).unwrap()[0].move_texts(), ["d6", "f4"], "{text}");
        }
        assert_eq!(at("\u{feff}1. d6 d6 *").1, 7);
        let e = at(&format!("\u{feff}\n\n{{{}}} *", "a".repeat(MAX_GAME_BYTES))).2;
        assert!(e.contains("the game begun at line 3, column 1 "), "{e}");
        assert_eq!(at("\u{feff} 1. d6 d6 *").1, 8);
        // Elsewhere it is no blank.
        let inner = at("1. d6 \u{feff}f4 *").2;
        assert!(
            inner.contains("malformed") && inner.contains("'\\u{feff}f4'"),
            "{inner}"
        );
    }

    #[test]
    fn errors_quote_what_they_echo() {
        let word = "d".repeat(100_000);
        let e = at(&format!("1. {word} *")).2;
        assert!(e.len() < 300 && e.contains("(100000 characters)"), "{e}");
        assert!(at("1. d6\u{7} *").2.contains("'d6\\u{7}'"));
        let e = at(&format!("[{word} \"v\"]\n[{word} \"v\"]\n*")).2;
        assert!(e.len() < 200 && e.contains("given twice"), "{e}");
        let e = at("[Result \"\u{1b}\"]\n1-0").2;
        assert!(e.contains("'\\u{1b}'"), "{e}");
        let e = at("[Variant \"\u{0}\"]\n*").2;
        assert!(e.contains("'\\0'"), "{e}");
    }

    #[test]
    fn games_are_read_one_at_a_time_then_the_first_problem() {
        let text = "1. d6 *\n1. d6 d6 *\n1. d6 *";
        let mut it = games(text.as_bytes());
        assert_eq!(it.next().unwrap().unwrap().move_texts(), ["d6"]);
        assert!(matches!(
            it.next(),
            Some(Err(RecordError::At { line: 2, .. }))
        ));
        assert!(it.next().is_none());
    }

    /// `text` read through a buffer of `size` bytes.
    fn read_in_pieces(text: &str, size: usize) -> Result<Vec<Record>, String> {
        games(std::io::BufReader::with_capacity(size, text.as_bytes()))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())
    }

    /// Records to mutate: tags, escapes, comments, variations, glyphs, removals, results.
    const SEEDS: [&str; 5] = [
        "[Event \"a \\\"b\\\" c\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n{before} 1. d6! f4 {a \
         comment} (1... d2 $14 2. b4) 2. d2?! $1 ; to the end\n b4 1/2-1/2\n",
        "1.d7 a1 2.g7 d1 3.a7 xd1 (3. a4 b4 (3... b6) 4. a7xb4) *\n% skipped\n",
        "[Variant \"lasker\"]\n1. d6 f4 2. d6-d5 *",
        "[FEN \"O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10\"]\n\
         10. d5-e5 *",
        "[White \"é\"]\n1. d6 0-1",
    ];

    #[test]
    fn fuzz_random_and_mutated_records_never_panic_and_read_the_same_in_pieces() {
        let mut rng = crate::rng::Rng::new(33);
        let alphabet = b"[]{}()$;%\"\\!?.-x 0123456789abcdefgd6\n\r\t*/\xef\xbb\xbf\xff";
        let mut read_ok = 0;
        for case in 0..3000 {
            let mut bytes = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
            for _ in 0..=rng.below(4) {
                let i = rng.below(bytes.len() + 1);
                let b = alphabet[rng.below(alphabet.len())];
                match rng.below(4) {
                    0 => bytes.insert(i, b),
                    1 if i < bytes.len() => bytes[i] = b,
                    2 if i < bytes.len() => drop(bytes.remove(i)),
                    _ => {
                        let j = rng.below(bytes.len() + 1);
                        let piece = bytes[i.min(j)..i.max(j)].to_vec();
                        bytes.splice(i..i, piece);
                    }
                }
            }
            if case % 10 == 0 {
                bytes = (0..rng.below(200))
                    .map(|_| alphabet[rng.below(alphabet.len())])
                    .collect();
            }
            let text = String::from_utf8_lossy(&bytes);
            let whole = read(&text).map_err(|e| e.to_string());
            assert_eq!(read_in_pieces(&text, 1 + rng.below(5)), whole, "{text:?}");
            if let Ok(games) = whole {
                read_ok += 1;
                // What the writer makes of it reads back to the same games (a comment's `}`
                // is written `)`, the roster's tags first: the text is compared).
                let write = |games: &[Record]| -> String {
                    games.iter().map(crate::record::write).collect()
                };
                let written = write(&games);
                assert_eq!(write(&read(&written).unwrap()), written, "{text:?}");
            }
        }
        assert!(read_ok > 100, "{read_ok} of 3000 read");
    }
}
