//! One game as a record holds it: its tags, its main line with comments, glyphs and
//! variations, and its result; and the limits of a game that the reader keeps.

use super::record_error::RecordError;
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::Rules;

/// The most bytes a game may take, from its first token to its result: the reader holds one
/// game at a time, so this bounds its memory.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// The deepest variations may nest (a variation inside a variation ... of the main line).
pub const MAX_DEPTH: usize = 100;

/// One game.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// The tag pairs, in the order read (or to be written).
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The main line.
    pub moves: Vec<Ply>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unknown or unfinished).
    pub result: String,
}

/// One move of a line, with what annotates it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Ply {
    /// The move in the turn notation (`d6`, `d6-d5`, `d6xb4`, `d6-d5xb4xa1`), as the rules
    /// write it.
    pub mv: String,
    /// Numeric annotation glyphs (`!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Lines played instead of this move, from the position before it.
    pub variations: Vec<Vec<Ply>>,
}

/// The tags written first, in this order (the "seven tag roster").
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The results a record may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl Record {
    /// A record of `moves` (turn notation) played from `start` under the preset `variant`, with
    /// the seven tags (`?` for those not given) and `Variant`, and `FEN` when the start is not
    /// the preset's.
    pub fn new(variant: &str, start: Option<&str>, moves: &[String], result: &str) -> Record {
        let mut r = Record {
            result: result.to_string(),
            ..Record::default()
        };
        for tag in ROSTER {
            r.set(tag, if tag == "Result" { result } else { "?" });
        }
        r.set("Variant", variant);
        if let Some(fen) = start {
            r.set("SetUp", "1");
            r.set("FEN", fen);
        }
        r.moves = moves
            .iter()
            .map(|m| Ply {
                mv: m.clone(),
                ..Ply::default()
            })
            .collect();
        r
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in its place if it is there, last otherwise.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The rules of the `Variant` tag (the standard game without one).
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let name = self.tag("Variant").unwrap_or("nine");
        Ok(Rules::named(name)?)
    }

    /// The game at its start: the `FEN` tag's position, or the rules' start.
    pub fn start(&self) -> Result<Game, RecordError> {
        let rules = self.rules()?;
        match self.tag("FEN") {
            Some(text) => Ok(fen::read(text, &rules).map(Game::from_position)?),
            None => Ok(Game::new(rules)),
        }
    }

    /// The main line's moves, played from the start (the record was checked when read).
    pub fn game(&self) -> Result<(Game, Vec<Move>), RecordError> {
        let mut game = self.start()?;
        let mut played = Vec::new();
        for (i, ply) in self.moves.iter().enumerate() {
            let mv = game
                .play_token(&ply.mv)
                .map_err(|source| RecordError::Move {
                    number: i + 1,
                    source,
                })?;
            played.push(mv);
        }
        Ok((game, played))
    }

    /// The main line's moves as text.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves.iter().map(|p| p.mv.clone()).collect()
    }
}
