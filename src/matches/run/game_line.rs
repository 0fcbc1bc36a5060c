//! A game's record: one line per game, played again under moulin's rules to check every move
//! and every result (`Record::check`, and `Record::fits` against the match's `Lineup`), its PGN
//! form, and what a set of them adds up to (`Recap`). The file that holds them is
//! `records_file`.
//!
//! A record is a line of `key=value` words (values quoted as in `words` when they hold spaces):
//!
//! ```text
//! game=3 white=new black=old variant=nine start=startpos opening="d6 f4 d2" moves="b4 g4 ..." result=1-0 end=rules reason="white wins: black has no legal move"
//! ```
//!
//! `end` is `rules` (the rules ended the game), `movelimit` (adjudicated a draw), an
//! adjudication (`tables`: the endgame tables' result; `resign` or `score-draw`: the engines'
//! scores, `--resign` and `--draw`), or the forfeit
//! kind (`illegal`, `malformed`, `claim`, `time`, `timeout`, `crash`, `exit`, `spawn`, `flood`,
//! `refused`);
//! a forfeit also has `loser=white|black`, and `illegal`, `malformed` and `claim` keep the engine's
//! answer in `answer`. Lines starting with `#` are comments; the second line of a match's file,
//! `# settings: ...`, holds what `--resume` checks (the engines and every setting that changes
//! the games).

use super::line_error::LineError;
use super::lineup::{Lineup, RESULTS};
use crate::matches::engines::engine_output::Score;
use crate::matches::games::referee::{End, Note, Played};
use crate::matches::numbers::stats::Tally;
use crate::matches::quoting;
use crate::record::openings::Opening;
use crate::rules::board::Color;
use crate::rules::game::Game;
use crate::rules::Rules;
use crate::text::escaped;
use std::collections::{BTreeMap, HashMap};

/// One game as a record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's number in the match, from 1.
    pub game: usize,
    /// The engine that had White.
    pub white: String,
    /// The engine that had Black.
    pub black: String,
    /// The variant's name.
    pub variant: String,
    /// The opening the game was played from.
    pub opening: Opening,
    /// The moves after the opening, one token per turn.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended: `rules`, `movelimit`, or the forfeit's kind.
    pub end: String,
    /// The side that forfeited, for a forfeit.
    pub loser: Option<Color>,
    /// The engine's answer, for a forfeit on a bad one.
    pub answer: Option<String>,
    /// What happened, in words.
    pub reason: String,
    /// What the engines said of each turn after the opening (score, depth, time), for the PGN
    /// comments; records lines do not keep them.
    pub notes: Vec<Note>,
}

impl Record {
    /// The record of a played game. The engine's words it keeps (`answer`, and those quoted in
    /// `reason`) are escaped (`text::escaped`), so that no control character of an engine
    /// reaches a terminal that shows the records (`cat`, `tail -f`).
    pub fn new(game: usize, white: &str, black: &str, variant: &str, played: &Played) -> Record {
        let (loser, answer) = match &played.end {
            End::Forfeit { loser, answer, .. } => (Some(*loser), answer.as_deref().map(escaped)),
            _ => (None, None),
        };
        Record {
            game,
            white: white.to_string(),
            black: black.to_string(),
            variant: variant.to_string(),
            opening: played.opening.clone(),
            moves: played.moves.clone(),
            result: played.end.score().to_string(),
            end: played.end.kind().to_string(),
            loser,
            answer,
            reason: escaped(&played.end.reason()),
            notes: played.notes.clone(),
        }
    }

    /// The game as a PGN-shaped record (`crate::record`): the seven tags (`Event` the match's
    /// title, `Site` the machine's host name, `Round` the game's number), `Variant`, `FEN` for a
    /// set-up start, the time controls (`time_controls`: White's and Black's `TimeControl` tag
    /// values, written as one `TimeControl` tag when they are the same, else as
    /// `WhiteTimeControl` and `BlackTimeControl`), `Termination`; `{book}` after each opening
    /// move and, after each move of an engine, its score, depth and time as cutechess writes
    /// them (`eval_comment`); a last comment says how the game ended.
    pub fn to_pgn(
        &self,
        event: &str,
        date: &str,
        time_controls: [&str; 2],
    ) -> crate::record::Record {
        let moves: Vec<String> = self
            .opening
            .moves
            .iter()
            .chain(&self.moves)
            .cloned()
            .collect();
        let start = self.opening.fen.as_deref();
        let mut r = crate::record::Record::new(&self.variant, start, &moves, &self.result);
        r.set("Event", event);
        r.set("Site", &site());
        r.set("Date", date);
        r.set("Round", &self.game.to_string());
        r.set("White", &self.white);
        r.set("Black", &self.black);
        match time_controls {
            [white, black] if white == black => r.set("TimeControl", white),
            [white, black] => {
                r.set("WhiteTimeControl", white);
                r.set("BlackTimeControl", black);
            }
        }
        let termination = match self.end.as_str() {
            "rules" => "normal",
            "movelimit" | "tables" | "resign" | "score-draw" => "adjudication",
            "time" | "timeout" => "time forfeit",
            _ => "rules infraction",
        };
        r.set("Termination", termination);
        let book = self.opening.moves.len();
        for (i, ply) in r.moves.iter_mut().enumerate() {
            let comment = match i.checked_sub(book) {
                None => Some("book".to_string()),
                Some(k) => self.notes.get(k).map(eval_comment),
            };
            ply.comments.extend(comment);
        }
        match r.moves.last_mut() {
            Some(ply) => ply.comments.push(self.reason.clone()),
            None => r.intro = Some(self.reason.clone()),
        }
        r
    }

    /// The record's line (no line break).
    pub fn to_line(&self) -> String {
        let q = quoting::quote;
        let mut line = format!(
            "game={} white={} black={} variant={} start={} opening={} moves={} result={} end={}",
            self.game,
            q(&self.white),
            q(&self.black),
            q(&self.variant),
            q(&self.opening.start_text()),
            q(&self.opening.moves.join(" ")),
            q(&self.moves.join(" ")),
            q(&self.result),
            q(&self.end)
        );
        if let Some(l) = self.loser {
            line.push_str(&format!(" loser={}", l.name()));
        }
        if let Some(a) = &self.answer {
            line.push_str(&format!(" answer={}", q(a)));
        }
        line.push_str(&format!(" reason={}", q(&self.reason)));
        line
    }

    /// The points of the engine called `name` in this game (1, ½ or 0), if it played it.
    pub fn points_of(&self, name: &str) -> Option<f64> {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.white == name {
            Some(white)
        } else if self.black == name {
            Some(1.0 - white)
        } else {
            None
        }
    }

    /// The name of the engine that lost by forfeit, if one did.
    pub fn forfeited_by(&self) -> Option<&str> {
        match self.loser? {
            Color::White => Some(&self.white),
            Color::Black => Some(&self.black),
        }
    }

    /// The first engine of the match: it has White in the first game of each pair (odd numbers).
    pub fn first_engine(&self) -> &str {
        if self.game % 2 == 1 {
            &self.white
        } else {
            &self.black
        }
    }

    /// Reads a record line.
    ///
    /// # Errors
    ///
    /// A word that is not `key=value`, a missing field, or a field that cannot be read.
    pub fn parse(line: &str) -> Result<Record, LineError> {
        let mut fields = HashMap::new();
        for w in quoting::split(line)? {
            match quoting::key_value(&w) {
                (Some(k), v) => {
                    fields.insert(k.to_string(), v.to_string());
                }
                (None, _) => return Err(LineError::NotKeyValue { word: w.clone() }),
            }
        }
        let mut take = |k: &str| {
            fields.remove(k).ok_or_else(|| LineError::Missing {
                field: k.to_string(),
            })
        };
        let game = take("game")?;
        let game = game
            .parse()
            .map_err(|_| LineError::GameNumber { text: game.clone() })?;
        let start = take("start")?;
        let opening = Opening {
            fen: (start != "startpos").then_some(start),
            moves: take("opening")?
                .split_whitespace()
                .map(String::from)
                .collect(),
        };
        let loser = match take("loser").ok().as_deref() {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(other) => {
                return Err(LineError::Loser {
                    text: other.to_string(),
                })
            }
        };
        Ok(Record {
            game,
            white: take("white")?,
            black: take("black")?,
            variant: take("variant").unwrap_or_else(|_| "nine".into()),
            opening,
            moves: take("moves")?
                .split_whitespace()
                .map(String::from)
                .collect(),
            result: {
                let result = take("result")?;
                if !RESULTS.contains(&result.as_str()) {
                    return Err(LineError::Result { text: result });
                }
                result
            },
            end: take("end")?,
            loser,
            answer: take("answer").ok(),
            reason: take("reason").unwrap_or_default(),
            notes: Vec::new(),
        })
    }

    /// Plays the record again under the rules and checks that every move is legal and that the
    /// result follows: the rules' own outcome for `end=rules`, a game still going for a forfeit or
    /// an adjudication, the forfeiting side losing, and an `illegal` answer really illegal.
    ///
    /// # Errors
    ///
    /// The first thing that does not follow.
    pub fn check(&self) -> Result<(), LineError> {
        let rules = Rules::preset(&self.variant).ok_or_else(|| LineError::UnknownVariant {
            variant: self.variant.clone(),
        })?;
        let mut game = match &self.opening.fen {
            Some(f) => Game::from_fen(f, rules)?,
            None => Game::new(rules),
        };
        for (i, tok) in self.opening.moves.iter().chain(&self.moves).enumerate() {
            game.play_token(tok)
                .map_err(|source| LineError::Ply { ply: i + 1, source })?;
        }
        let outcome = game.outcome();
        match self.end.as_str() {
            "rules" => {
                let o = outcome.ok_or(LineError::NotOver)?;
                if o.score() != self.result {
                    return Err(LineError::WrongResult {
                        result: self.result.clone(),
                        rules: o.score(),
                        why: o.describe(),
                    });
                }
            }
            "movelimit" | "tables" | "resign" | "score-draw" => {
                if let Some(o) = outcome {
                    return Err(LineError::AdjudicatedOver { why: o.describe() });
                }
                let draw = self.result == "1/2-1/2";
                let fits = match self.end.as_str() {
                    "movelimit" | "score-draw" => draw,
                    "resign" => !draw,
                    _ => true,
                };
                if !fits {
                    return Err(LineError::AdjudicatedResult {
                        end: self.end.clone(),
                        result: self.result.clone(),
                    });
                }
            }
            kind => self.check_forfeit(kind, &game)?,
        }
        Ok(())
    }

    /// Checks the record against the match of `lineup`: its game number is one the match
    /// plays, its players are engines of the match in the seats the schedule gives that game,
    /// its variant is the match's; then plays it again (`check`).
    ///
    /// # Errors
    ///
    /// The first thing that does not fit.
    pub fn fits(&self, lineup: &Lineup) -> Result<(), LineError> {
        if !lineup.exists(self.game) {
            return Err(LineError::NoSuchGame {
                game: self.game,
                games: lineup.numbers(),
            });
        }
        let (white, black) = (lineup.engine(&self.white)?, lineup.engine(&self.black)?);
        if white == black {
            return Err(LineError::PlaysItself {
                name: self.white.clone(),
            });
        }
        let wanted = lineup.seats(self.game);
        if (white, black) != (wanted.white, wanted.black) {
            return Err(LineError::OtherSeats {
                game: self.game,
                white: lineup.names[wanted.white].clone(),
                black: lineup.names[wanted.black].clone(),
            });
        }
        if self.variant != lineup.variant {
            return Err(LineError::OtherVariant {
                variant: self.variant.clone(),
                wanted: lineup.variant.clone(),
            });
        }
        self.check()
    }

    /// Checks a forfeit of kind `kind` in `game`, the game after the record's moves.
    fn check_forfeit(&self, kind: &str, game: &Game) -> Result<(), LineError> {
        let decisive = |loser: Color| match loser {
            Color::White => "0-1",
            Color::Black => "1-0",
        };
        let loser = self.loser.ok_or_else(|| LineError::NoLoser {
            kind: kind.to_string(),
        })?;
        if let Some(o) = game.outcome() {
            return Err(LineError::ForfeitOver {
                kind: kind.to_string(),
                why: o.describe(),
            });
        }
        if self.result != decisive(loser) {
            return Err(LineError::ForfeitResult {
                loser: loser.name(),
                result: self.result.clone(),
            });
        }
        let on_move = matches!(kind, "illegal" | "malformed" | "claim" | "time");
        if on_move && game.position().side_to_move() != loser {
            return Err(LineError::NotToMove {
                kind: kind.to_string(),
                loser: loser.name(),
            });
        }
        if matches!(kind, "illegal" | "malformed") {
            let answer = self.answer.as_deref().ok_or_else(|| LineError::NoAnswer {
                kind: kind.to_string(),
            })?;
            let mut copy = game.clone();
            if copy.play_tokens(answer.split_whitespace()).is_ok() {
                return Err(LineError::LegalAnswer {
                    answer: answer.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// What a set of games adds up to, from the first engine's view: the tally (games and complete
/// pairs), how the games ended, and the forfeits of each engine.
#[derive(Clone, Debug, Default)]
pub struct Recap {
    /// The games and the complete pairs, from the first engine's view.
    pub tally: Tally,
    /// How the games ended, by kind.
    pub ends: BTreeMap<String, u32>,
    /// Forfeits of the first and the second engine.
    pub forfeits: [u32; 2],
    /// The first engine's points in pairs of which one game is in, by pair.
    halves: HashMap<usize, f64>,
}

impl Recap {
    /// The same results from the other engine's view.
    pub fn flip(&mut self) {
        let t = &mut self.tally;
        std::mem::swap(&mut t.wins, &mut t.losses);
        t.pairs.reverse();
        self.forfeits.swap(0, 1);
        for points in self.halves.values_mut() {
            *points = 1.0 - *points;
        }
    }

    /// Adds the record of a game between `names` (first engine first). Returns whether it
    /// completed a pair.
    pub fn add(&mut self, record: &Record, names: [&str; 2]) -> bool {
        let points = record.points_of(names[0]).unwrap_or(0.5);
        self.tally.add_game(points);
        *self.ends.entry(record.end.clone()).or_default() += 1;
        if let Some(loser) = record.forfeited_by() {
            self.forfeits[usize::from(loser != names[0])] += 1;
        }
        let pair = (record.game.max(1) - 1) / 2;
        if let Some(other) = self.halves.remove(&pair) {
            self.tally.add_pair(points + other);
            true
        } else {
            self.halves.insert(pair, points);
            false
        }
    }
}

/// A move's comment as cutechess writes it: `+0.35/12 0.51s`. The score (centi-pieces, shown in
/// pieces as cutechess shows pawns, from the mover's view) and `/depth` come when the engine gave
/// a depth; a mate in `n` of the mover's own turns is `+M<2n-1>` (plies to the mate), being mated
/// in `n` is `-M<2n>`. The time has 3 decimals under 0.1 s, 2 under 1 s, 1 under 10 s, none
/// beyond, and is `0s` when nothing was measured.
pub fn eval_comment(note: &Note) -> String {
    let mut out = String::new();
    if let Some(depth) = note.depth.filter(|&d| d > 0) {
        match note.score {
            Some(Score::Cp(cp)) => {
                let sign = if cp > 0 { "+" } else { "" };
                out.push_str(&format!("{sign}{:.2}", f64::from(cp) / 100.0));
            }
            Some(Score::Mate(n)) if n > 0 => {
                out.push_str(&format!("+M{}", 2 * i64::from(n) - 1));
            }
            Some(Score::Mate(n)) if n < 0 => out.push_str(&format!("-M{}", -2 * i64::from(n))),
            Some(Score::Mate(_)) => out.push_str("0.00"),
            None => {}
        }
        out.push_str(&format!("/{depth} "));
    }
    let ms = note.time.as_millis();
    if ms == 0 {
        out.push_str("0s");
        return out;
    }
    let decimals = match ms {
        0..100 => 3,
        100..1000 => 2,
        1000..10_000 => 1,
        _ => 0,
    };
    // Whole milliseconds, as cutechess counts them.
    let secs = f64::from(u32::try_from(ms).unwrap_or(u32::MAX)) / 1000.0;
    out.push_str(&format!("{secs:.decimals$}s"));
    out
}

/// The machine's host name, as PGN's `Site` (`?`, PGN's unknown, when it cannot be read).
fn site() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its whole length, which is passed.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match std::str::from_utf8(&buf[..end]) {
        Ok(name) if ok && !name.is_empty() => name.to_string(),
        _ => "?".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Outcome, WinReason};
    use std::time::Duration;

    fn record(moves: &str, end: End) -> Record {
        let played = Played {
            opening: Opening::parse("d7 a1", &Rules::nine()).unwrap(),
            moves: moves.split_whitespace().map(String::from).collect(),
            end,
            overhead: crate::matches::games::referee::Overhead::default(),
            notes: Vec::new(),
        };
        Record::new(1, "a b", "c\"d", "nine", &played)
    }

    #[test]
    fn a_recap_flips_to_the_other_engines_view() {
        let mut recap = Recap::default();
        let names = ["a b", "c\"d"];
        let win = |number, white| {
            let loser = if white { Color::Black } else { Color::White };
            let mut r = record("g7", End::Rules(Outcome::Win(!loser, WinReason::Blocked)));
            r.game = number;
            if !white {
                std::mem::swap(&mut r.white, &mut r.black);
            }
            r
        };
        // "a b" wins game 1 with White, "c\"d" wins game 2 (White), game 3 is half a pair.
        recap.add(&win(1, true), names);
        recap.add(&win(2, true), names);
        recap.add(&win(3, true), names);
        let mut flipped = recap.clone();
        flipped.flip();
        assert_eq!(
            (flipped.tally.wins, flipped.tally.losses),
            (recap.tally.losses, recap.tally.wins)
        );
        let mut pairs = recap.tally.pairs;
        pairs.reverse();
        assert_eq!(flipped.tally.pairs, pairs);
        flipped.flip();
        assert_eq!(flipped.tally, recap.tally);
        assert_eq!(flipped.halves, recap.halves);
    }

    #[test]
    fn adjudicated_results_must_fit_their_kind() {
        use crate::matches::games::adjudicate::Verdict;
        let verdict = |winner, kind| {
            End::Adjudicated(Verdict {
                winner,
                kind,
                reason: "x".into(),
            })
        };
        for (winner, kind, fits) in [
            (Some(Color::White), "resign", true),
            (None, "resign", false),
            (None, "score-draw", true),
            (Some(Color::Black), "score-draw", false),
            (Some(Color::Black), "tables", true),
            (None, "tables", true),
        ] {
            let r = record("g7", verdict(winner, kind));
            let back = Record::parse(&r.to_line()).unwrap();
            assert_eq!(back, r);
            assert_eq!(back.check().is_ok(), fits, "{kind} {winner:?}");
        }
    }

    #[test]
    fn lines_round_trip() {
        let r = record(
            "g7 d1 a7xa1",
            End::Forfeit {
                loser: Color::Black,
                kind: "illegal".into(),
                reason: "played d7".into(),
                answer: Some("d7".into()),
                at_start: false,
            },
        );
        let back = Record::parse(&r.to_line()).unwrap();
        assert_eq!(back, r);
        back.check().unwrap();
    }

    #[test]
    fn an_engines_control_bytes_are_escaped_in_answer_and_reason() {
        // An answer carrying an escape sequence (clear the screen) and a bell.
        let raw = "d6\u{1b}[2J\u{7}";
        let r = record(
            "g7",
            End::Forfeit {
                loser: Color::Black,
                kind: "malformed".into(),
                reason: format!("c (black) answered {raw}"),
                answer: Some(raw.into()),
                at_start: false,
            },
        );
        let line = r.to_line();
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert!(line.contains(r#"answer="d6\\u{1b}[2J\\u{7}""#), "{line}");
        assert!(line.contains(r"answered d6\\u{1b}[2J\\u{7}"), "{line}");
        // The escaped answer reads back, and is still no move.
        let back = Record::parse(&line).unwrap();
        assert_eq!(back, r);
        back.check().unwrap();
    }

    #[test]
    fn replay_catches_lies() {
        // A legal move called illegal.
        let r = record(
            "g7",
            End::Forfeit {
                loser: Color::Black,
                kind: "illegal".into(),
                reason: String::new(),
                answer: Some("d1".into()),
                at_start: false,
            },
        );
        assert!(r.check().unwrap_err().to_string().contains("legal here"));
        // An illegal move in the list.
        let r = record("g7 g7", End::MoveLimit(2));
        assert!(r.check().unwrap_err().to_string().contains("ply 4"));
        // A rules ending where the game goes on.
        let r = record(
            "g7",
            End::Rules(Outcome::Win(Color::White, WinReason::Blocked)),
        );
        assert!(r.check().unwrap_err().to_string().contains("not over"));
        // A time loss by the side not to move.
        let r = record(
            "g7",
            End::Forfeit {
                loser: Color::White,
                kind: "time".into(),
                reason: String::new(),
                answer: None,
                at_start: false,
            },
        );
        assert!(r.check().unwrap_err().to_string().contains("not to move"));
    }

    #[test]
    fn recap_pairs_games_in_any_order() {
        let mut r = record("g7", End::MoveLimit(1));
        let mut recap = Recap::default();
        // Game 2 (the first engine "c\"d" has White), then game 1: one pair of two draws.
        r.game = 2;
        assert!(!recap.add(&r, ["c\"d", "a b"]));
        r.game = 1;
        r.result = "0-1".into();
        assert!(recap.add(&r, ["c\"d", "a b"]));
        assert_eq!((recap.tally.wins, recap.tally.draws), (1, 1));
        assert_eq!(recap.tally.pairs, [0, 0, 0, 1, 0]);
        assert_eq!(r.first_engine(), "a b");
    }

    #[test]
    fn comments_as_cutechess_writes_them() {
        let note = |score, depth, ms| Note {
            score,
            depth,
            time: Duration::from_millis(ms),
        };
        for (n, text) in [
            (note(Some(Score::Cp(35)), Some(12), 510), "+0.35/12 0.51s"),
            (note(Some(Score::Cp(-120)), Some(3), 51), "-1.20/3 0.051s"),
            (note(Some(Score::Cp(0)), Some(5), 1_234), "0.00/5 1.2s"),
            (note(Some(Score::Mate(3)), Some(9), 12_345), "+M5/9 12s"),
            (note(Some(Score::Mate(-2)), Some(9), 0), "-M4/9 0s"),
            (note(Some(Score::Cp(7)), None, 99), "0.099s"),
            (note(None, None, 0), "0s"),
        ] {
            assert_eq!(eval_comment(&n), text, "{n:?}");
        }
    }

    #[test]
    fn pgn_tags_and_comments() {
        let mut r = record("g7 d1", End::MoveLimit(2));
        r.notes = vec![Note {
            score: Some(Score::Cp(100)),
            depth: Some(4),
            time: Duration::from_millis(5),
        }];
        let pgn = r.to_pgn("e", "d", ["1+0.1", "1+0.1"]);
        assert_eq!(pgn.tag("TimeControl"), Some("1+0.1"));
        assert_eq!(pgn.tag("WhiteTimeControl"), None);
        let comments: Vec<&[String]> = pgn.moves.iter().map(|p| &p.comments[..]).collect();
        assert_eq!(
            comments[..3],
            [
                &["book".to_string()][..],
                &["book".into()],
                &["+1.00/4 0.005s".into()]
            ]
        );
        // The last move has no note (its turn was not complete), only how the game ended.
        assert_eq!(comments[3], [r.reason.clone()]);
        let pgn = r.to_pgn("e", "d", ["1+0.1", "0.05/move"]);
        assert_eq!(pgn.tag("TimeControl"), None);
        assert_eq!(pgn.tag("WhiteTimeControl"), Some("1+0.1"));
        assert_eq!(pgn.tag("BlackTimeControl"), Some("0.05/move"));
    }
}
