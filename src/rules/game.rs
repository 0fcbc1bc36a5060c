//! A game: the start position, the moves played, and the history of positions that the
//! repetition rule needs.

use crate::rules::fen::{self, FenError};
use crate::rules::moves::Move;
use crate::rules::notation::{self, Illegal, MoveError};
use crate::rules::position::{DrawReason, Outcome, Position};
use crate::rules::{Repetition, Rules};

/// A game in progress. Moves are kept as played: a step and its removal given as two tokens are
/// two entries.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Keys of every position at the start of a turn, the current one last when no removal is
    /// pending.
    history: Vec<u64>,
}

impl Game {
    /// A new game from the empty board.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game starting from `pos`.
    pub fn from_position(pos: Position) -> Game {
        Game {
            start: pos,
            pos,
            moves: Vec::new(),
            history: if pos.pending_removals() == 0 {
                vec![pos.key()]
            } else {
                Vec::new()
            },
        }
    }

    /// A game starting from a position string.
    pub fn from_fen(text: &str, rules: Rules) -> Result<Game, FenError> {
        fen::read(text, &rules).map(Game::from_position)
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        self.pos.rules()
    }

    /// The moves played since the start, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the positions at the start of each turn so far, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times the current position has stood at the start of a turn.
    pub fn occurrences(&self) -> usize {
        if self.pos.pending_removals() > 0 {
            return 0;
        }
        let key = self.pos.key();
        self.history.iter().filter(|&&k| k == key).count()
    }

    /// The outcome, with the repetition rule (read here) on top of the position's own.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.pos.outcome() {
            return Some(o);
        }
        match self.rules().repetition {
            Repetition::Threefold if self.occurrences() >= 3 => {
                Some(Outcome::Draw(DrawReason::Repetition))
            }
            _ => None,
        }
    }

    /// Plays a legal move of the current position.
    pub fn play(&mut self, mv: Move) {
        self.pos.play(mv);
        self.moves.push(mv);
        if self.pos.pending_removals() == 0 {
            self.history.push(self.pos.key());
        }
    }

    /// Reads and plays one token (either form of docs/rules.md, "Notation"). On error nothing
    /// changes.
    pub fn play_token(&mut self, token: &str) -> Result<Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::Illegal {
                token: token.to_string(),
                why: Illegal::GameOver,
            });
        }
        let mv = notation::parse_move(&self.pos, token)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays every token, or none: on error the game is as it was, and the error says which
    /// token (by index) failed.
    pub fn play_tokens<'a>(
        &mut self,
        tokens: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), (usize, MoveError)> {
        let mut copy = self.clone();
        for (i, t) in tokens.into_iter().enumerate() {
            copy.play_token(t).map_err(|e| (i, e))?;
        }
        *self = copy;
        Ok(())
    }
}
