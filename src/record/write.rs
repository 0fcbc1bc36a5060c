//! Writing records: the tags (the seven of the roster first), a blank line, then the moves
//! numbered by full moves, lines cut at 79 characters, and a blank line after each game.

use super::game_record::{Ply, Record, ROSTER};
use crate::rules::board::Color;
use crate::rules::game::Game;

/// The widest line of move text.
const WIDTH: usize = 79;

/// The text of `record` (it must be a game `read` accepted, or one made of legal moves).
pub fn write(record: &Record) -> String {
    let mut out = String::new();
    let mut tags: Vec<&(String, String)> = Vec::new();
    for name in ROSTER {
        if let Some(t) = record.tags.iter().find(|(n, _)| n == name) {
            tags.push(t);
        }
    }
    tags.extend(
        record
            .tags
            .iter()
            .filter(|(n, _)| !ROSTER.contains(&n.as_str())),
    );
    for (name, value) in tags {
        // A tag is one line: a line break in a value becomes a space.
        let escaped = value
            .replace(['\r', '\n'], " ")
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{escaped}\"]\n"));
    }
    out.push('\n');
    let mut words = Vec::new();
    if let Some(intro) = &record.intro {
        words.push(comment(intro));
    }
    if let Ok(start) = record.start() {
        line_words(&record.moves, &start, true, &mut words);
    }
    words.push(record.result.clone());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The words of a line of play from `game`: numbers, moves with their glyphs, comments (one
/// word each, so that a line is never cut inside `{}`... unless it is longer than a line) and
/// variations.
fn line_words(plies: &[Ply], game: &Game, first: bool, words: &mut Vec<String>) {
    let mut game = game.clone();
    let mut number_due = first;
    for ply in plies {
        let pos = *game.position();
        let white = pos.side_to_move() == Color::White;
        if white {
            words.push(format!("{}.", pos.fullmove()));
        } else if number_due {
            words.push(format!("{}...", pos.fullmove()));
        }
        // The first glyph of 1 to 6 after the move (two would read ambiguously: `?!!`), every
        // other as `$n`, in order.
        let suffix = ply.nags.first().and_then(|&n| glyph(n));
        words.push(format!("{}{}", ply.mv, suffix.unwrap_or("")));
        for n in &ply.nags[usize::from(suffix.is_some())..] {
            words.push(format!("${n}"));
        }
        for c in &ply.comments {
            words.push(comment(c));
        }
        for v in &ply.variations {
            let mut inner = Vec::new();
            line_words(v, &game, true, &mut inner);
            if let Some(first) = inner.first_mut() {
                first.insert(0, '(');
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            words.extend(inner);
        }
        number_due = !ply.comments.is_empty() || !ply.variations.is_empty();
        if game.play_token(&ply.mv).is_err() {
            return;
        }
    }
}

/// A comment as written: `{text}`, a `}` in the text (which would end it) written `)`.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

/// The glyph of the numbers 1 to 6.
fn glyph(nag: u8) -> Option<&'static str> {
    match nag {
        1 => Some("!"),
        2 => Some("?"),
        3 => Some("!!"),
        4 => Some("??"),
        5 => Some("!?"),
        6 => Some("?!"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::read;
    use super::*;
    use crate::rng::Rng;
    use crate::rules::movegen;
    use crate::rules::notation::Convention;
    use crate::rules::Rules;

    #[test]
    fn written_games_read_back_the_same() {
        let text = "[Event \"a \\\"quoted\\\" name\"]\n[Result \"1/2-1/2\"]\n\n{before} 1. \
                    d6! f4 {a comment} (1... d2 $14 2. b4) 2. d2?! $1 b4 1/2-1/2\n";
        let game = read(text).unwrap().remove(0);
        let again = read(&write(&game)).unwrap().remove(0);
        assert_eq!(again, game);
        assert!(write(&game).contains("1... d2"), "{}", write(&game));
        // What would break the text is written so that it reads back.
        let mut odd = game.clone();
        odd.moves[0]
            .comments
            .push("an answer 'a1}' from an engine".into());
        odd.set("Event", "two\nlines");
        let again = read(&write(&odd)).unwrap().remove(0);
        assert_eq!(again.moves[0].comments[0], "an answer 'a1)' from an engine");
        assert_eq!(again.tag("Event"), Some("two lines"));
    }

    #[test]
    fn random_games_of_every_preset_round_trip() {
        let mut rng = Rng::new(5);
        let mut text = String::new();
        let mut made = Vec::new();
        for preset in crate::rules::PRESETS {
            let rules = Rules::preset(preset).unwrap();
            for _ in 0..20 {
                let mut game = Game::new(rules);
                let mut moves = Vec::new();
                while game.outcome().is_none() && moves.len() < 150 {
                    let legal = movegen::legal_moves(game.position(), Convention::Turn);
                    let mv = legal[rng.below(legal.len())];
                    moves.push(mv.written_at(game.position(), Convention::Turn));
                    game.play(mv);
                }
                let mut r = Record::new(preset, None, &moves, "*");
                r.moves[0].comments.push("first".into());
                if moves.len() > 3 {
                    r.moves[3].nags.push(2);
                }
                text.push_str(&write(&r));
                made.push(r);
            }
        }
        // Several games in one file, with CRLF line ends.
        let read_back = read(&text.replace('\n', "\r\n")).unwrap();
        assert_eq!(read_back, made);
        for line in text.lines() {
            assert!(line.len() <= WIDTH || line.starts_with('['), "{line}");
        }
    }
}
