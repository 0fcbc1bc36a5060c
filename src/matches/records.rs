//! Game records: one line per game, and `moulin replay`, which plays every record again under
//! moulin's rules and checks every move and every result.
//!
//! A record is a line of `key=value` words (values quoted as in `words` when they hold spaces):
//!
//! ```text
//! game=3 white=new black=old variant=nine start=startpos opening="d6 f4 d2" moves="b4 g4 ..." result=1-0 end=rules reason="white wins: black has no legal move"
//! ```
//!
//! `end` is `rules` (the rules ended the game), `movelimit` (adjudicated a draw), or the forfeit
//! kind (`illegal`, `malformed`, `claim`, `time`, `timeout`, `crash`, `exit`, `spawn`, `flood`);
//! a forfeit also has `loser=white|black`, and `illegal`, `malformed` and `claim` keep the engine's
//! answer in `answer`. Lines starting with `#` are comments.

use super::openings::Opening;
use super::referee::{End, Played};
use super::words;
use crate::board::Color;
use crate::game::Game;
use crate::rules::Rules;
use std::collections::HashMap;
use std::path::Path;

/// One game as a record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub game: usize,
    pub white: String,
    pub black: String,
    pub variant: String,
    pub opening: Opening,
    pub moves: Vec<String>,
    pub result: String,
    pub end: String,
    pub loser: Option<Color>,
    pub answer: Option<String>,
    pub reason: String,
}

impl Record {
    /// The record of a played game.
    pub fn new(game: usize, white: &str, black: &str, variant: &str, played: &Played) -> Record {
        let (loser, answer) = match &played.end {
            End::Forfeit { loser, answer, .. } => (Some(*loser), answer.clone()),
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
            reason: played.end.reason(),
        }
    }

    /// The record's line (no line break).
    pub fn to_line(&self) -> String {
        let q = words::quote;
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

    /// Reads a record line.
    pub fn parse(line: &str) -> Result<Record, String> {
        let mut fields = HashMap::new();
        for w in words::split(line)? {
            match words::key_value(&w) {
                (Some(k), v) => {
                    fields.insert(k.to_string(), v.to_string());
                }
                (None, _) => return Err(format!("'{w}' is not key=value")),
            }
        }
        let mut take = |k: &str| {
            fields
                .remove(k)
                .ok_or_else(|| format!("the field '{k}' is missing"))
        };
        let game = take("game")?;
        let game = game
            .parse()
            .map_err(|_| format!("game number '{game}' is not a number"))?;
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
            Some(other) => return Err(format!("loser '{other}': expected white or black")),
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
            result: take("result")?,
            end: take("end")?,
            loser,
            answer: take("answer").ok(),
            reason: take("reason").unwrap_or_default(),
        })
    }

    /// Plays the record again under the rules and checks that every move is legal and that the
    /// result follows: the rules' own outcome for `end=rules`, a game still going for a forfeit or
    /// an adjudication, the forfeiting side losing, and an `illegal` answer really illegal.
    pub fn check(&self) -> Result<(), String> {
        let rules = Rules::preset(&self.variant)
            .ok_or_else(|| format!("unknown variant '{}'", self.variant))?;
        let mut game = match &self.opening.fen {
            Some(f) => Game::from_fen(f, rules).map_err(|e| e.to_string())?,
            None => Game::new(rules),
        };
        for (i, tok) in self.opening.moves.iter().chain(&self.moves).enumerate() {
            game.play_token(tok)
                .map_err(|e| format!("ply {}: {e}", i + 1))?;
        }
        let outcome = game.outcome();
        let decisive = |loser: Color| match loser {
            Color::White => "0-1",
            Color::Black => "1-0",
        };
        match self.end.as_str() {
            "rules" => {
                let o = outcome.ok_or("end=rules, but the game is not over after its moves")?;
                if o.score() != self.result {
                    return Err(format!(
                        "result {} but the rules say {} ({})",
                        self.result,
                        o.score(),
                        o.describe()
                    ));
                }
            }
            "movelimit" => {
                if let Some(o) = outcome {
                    return Err(format!(
                        "adjudicated, but the rules ended it: {}",
                        o.describe()
                    ));
                }
                if self.result != "1/2-1/2" {
                    return Err(format!(
                        "adjudicated with result {}, not a draw",
                        self.result
                    ));
                }
            }
            kind => {
                let loser = self
                    .loser
                    .ok_or_else(|| format!("forfeit '{kind}' without loser"))?;
                if let Some(o) = outcome {
                    return Err(format!(
                        "forfeit '{kind}', but the rules had ended the game: {}",
                        o.describe()
                    ));
                }
                if self.result != decisive(loser) {
                    return Err(format!(
                        "{} forfeits but the result is {}",
                        loser.name(),
                        self.result
                    ));
                }
                let on_move = matches!(kind, "illegal" | "malformed" | "claim" | "time");
                if on_move && game.position().side_to_move() != loser {
                    return Err(format!(
                        "forfeit '{kind}' by {}, who was not to move",
                        loser.name()
                    ));
                }
                if matches!(kind, "illegal" | "malformed") {
                    let answer = self
                        .answer
                        .as_deref()
                        .ok_or_else(|| format!("forfeit '{kind}' without the answer"))?;
                    let mut copy = game.clone();
                    if copy.play_tokens(answer.split_whitespace()).is_ok() {
                        return Err(format!(
                            "forfeit for the answer '{answer}', which is legal here"
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// What a replay found.
#[derive(Debug, Default)]
pub struct Replay {
    pub games: usize,
    pub plies: usize,
    /// `(line number, game, error)` for every record that failed.
    pub errors: Vec<(usize, String)>,
}

/// Replays every record of `text`.
pub fn replay(text: &str) -> Replay {
    let mut out = Replay::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.games += 1;
        match Record::parse(line).and_then(|r| {
            r.check()
                .map(|_| r.moves.len())
                .map_err(|e| format!("game {}: {e}", r.game))
        }) {
            Ok(n) => out.plies += n,
            Err(e) => out.errors.push((i + 1, e)),
        }
    }
    out
}

/// `moulin replay <file>`: prints a summary, and every failing record; an error when any failed.
pub fn replay_file(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read records {}: {e}", path.display()))?;
    let r = replay(&text);
    for (line, e) in &r.errors {
        println!("line {line}: {e}");
    }
    println!(
        "replayed {} games, {} moves: {} consistent, {} failed",
        r.games,
        r.plies,
        r.games - r.errors.len(),
        r.errors.len()
    );
    if r.errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{} of {} records failed", r.errors.len(), r.games))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Outcome, WinReason};

    fn record(moves: &str, end: End) -> Record {
        let played = Played {
            opening: Opening::parse("d7 a1", &Rules::nine()).unwrap(),
            moves: moves.split_whitespace().map(String::from).collect(),
            end,
        };
        Record::new(1, "a b", "c\"d", "nine", &played)
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
        assert!(r.check().unwrap_err().contains("legal here"));
        // An illegal move in the list.
        let r = record("g7 g7", End::MoveLimit(2));
        assert!(r.check().unwrap_err().contains("ply 4"));
        // A rules ending where the game goes on.
        let r = record(
            "g7",
            End::Rules(Outcome::Win(Color::White, WinReason::Blocked)),
        );
        assert!(r.check().unwrap_err().contains("not over"));
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
        assert!(r.check().unwrap_err().contains("not to move"));
        let text = format!(
            "# header\n{}\nnot a record\n",
            record("g7", End::MoveLimit(1)).to_line()
        );
        let rep = replay(&text);
        assert_eq!(rep.games, 2);
        assert_eq!(rep.errors.len(), 1);
        assert_eq!(rep.errors[0].0, 3);
    }
}
