//! Grading moves: the value lost by a move and the label it earns, and the scores as people read
//! them.

use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::{Outcome, Position};
use crate::search::Score;

/// A drop of this many centi-pieces or more is a blunder (as is a win or a draw thrown away).
pub const BLUNDER: i32 = 300;
/// A drop of this many centi-pieces or more is a mistake.
pub const MISTAKE: i32 = 120;
/// A drop of this many centi-pieces or more is an inaccuracy.
pub const INACCURACY: i32 = 50;

/// How a move is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The move the search preferred.
    Best,
    /// Another move that loses less than an inaccuracy.
    Good,
    /// A move that loses `INACCURACY` or more.
    Inaccuracy,
    /// A move that loses `MISTAKE` or more.
    Mistake,
    /// A move that loses `BLUNDER` or more, or throws a win or a draw away.
    Blunder,
}

impl Label {
    /// The label as the reports write it: `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// A value as people read it: `+35` centi-pieces, or `W12` / `L12` (a win or loss in that many
/// of the mover's turns), from the side named.
#[must_use]
pub fn shown(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{c:+}"),
        Score::Mate(m) if m > 0 => format!("W{m}"),
        Score::Mate(m) => format!("L{}", -m),
    }
}

/// An exact value as people read it: `win`, `draw` or `loss` for the side named (a table's or
/// the placing solution's score).
#[must_use]
pub fn shown_exact(score: Score) -> &'static str {
    use crate::search::TABLE_BOUND;
    match score {
        Score::Mate(m) if m > 0 => "win",
        Score::Mate(_) => "loss",
        Score::Cp(c) if c >= TABLE_BOUND => "win",
        Score::Cp(c) if c <= -TABLE_BOUND => "loss",
        Score::Cp(_) => "draw",
    }
}

/// A score on one line for comparing: wins far above any centi-pieces, sooner ones higher.
pub(crate) fn rank(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-20_000, 20_000),
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Won (1), lost (-1) or neither (0).
fn class(score: Score) -> i32 {
    match score {
        Score::Mate(m) if m > 0 => 1,
        Score::Mate(_) => -1,
        Score::Cp(_) => 0,
    }
}

/// The label of a move that took the mover from `before` to `after` (both from the mover's
/// side), `best` when it is the move the search preferred.
#[must_use]
pub fn label(before: Score, after: Score, best: bool) -> Label {
    let loss = rank(before).saturating_sub(rank(after));
    if best || loss <= 0 {
        return if best { Label::Best } else { Label::Good };
    }
    if class(after) < class(before) || loss >= BLUNDER {
        Label::Blunder
    } else if loss >= MISTAKE {
        Label::Mistake
    } else if loss >= INACCURACY {
        Label::Inaccuracy
    } else {
        Label::Good
    }
}

/// One searched position: its value for the side to move, the best move and line.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The value for the side to move.
    pub score: Score,
    /// The move the search chose, if the position has one.
    pub best: Option<Move>,
    /// The line the search expects, from the best move on.
    pub pv: Vec<Move>,
    /// Whether the value is the endgame tables' exact one.
    pub exact: bool,
    /// The moves that keep the exact value, where it is known for every move (the placing
    /// solution); empty otherwise.
    pub kept: Vec<Move>,
}

/// One graded move.
#[derive(Clone, Debug)]
pub struct Graded {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The position the move was played in.
    pub pos: Position,
    /// The side that played it: `white` or `black`.
    pub mover: &'static str,
    /// The position string of `pos`.
    pub fen: String,
    /// The move, as written in `pos`.
    pub played: String,
    /// The value before the move, for the mover.
    pub before: Score,
    /// The value after the move, for the mover.
    pub after: Score,
    /// The search's best move (`-` when there was none).
    pub best: String,
    /// The search's line, from its best move on.
    pub line: Vec<String>,
    /// The label the move earns.
    pub label: Label,
    /// Whether the value before is the endgame tables' exact one.
    pub exact: bool,
    /// The moves that kept the exact value, as written in `pos` (empty where it is not known).
    pub kept: Vec<String>,
}

/// Grades the moves `played` (each with the game before it) of a game that ended in `game`:
/// `searched` holds the search of each position before a move, and `end` that of the last
/// position (`None` when the game is over).
#[must_use]
pub fn grade(
    played: &[(Game, Move)],
    searched: &[Searched],
    end: Option<&Searched>,
    game: &Game,
) -> Vec<Graded> {
    let mut graded = Vec::new();
    for (i, (before, mv)) in played.iter().enumerate() {
        let now = &searched[i];
        let after_score = match (searched.get(i + 1), end) {
            (Some(next), _) => negate(next.score),
            (None, Some(last)) => negate(last.score),
            (None, None) => outcome_score(game, before),
        };
        let pos = before.position();
        let best = now.best == Some(*mv);
        graded.push(Graded {
            ply: i + 1,
            pos: *pos,
            mover: pos.side_to_move().name(),
            fen: crate::rules::fen::write(pos),
            played: mv.written_at(pos, Convention::Turn),
            before: now.score,
            after: after_score,
            best: now
                .best
                .map_or("-".into(), |b| b.written_at(pos, Convention::Turn)),
            line: line_text(pos, &now.pv),
            label: label(now.score, after_score, best),
            exact: now.exact,
            kept: now
                .kept
                .iter()
                .map(|m| m.written_at(pos, Convention::Turn))
                .collect(),
        });
    }
    graded
}

/// The value for the mover of a game the last move ended.
fn outcome_score(game: &Game, before: &Game) -> Score {
    let mover = before.position().side_to_move();
    match game.outcome() {
        Some(Outcome::Win(c, _)) if c == mover => Score::Mate(1),
        Some(Outcome::Win(..)) => Score::Mate(-1),
        _ => Score::Cp(0),
    }
}

/// The value for the other side.
fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        // A win in n of the opponent's turns is a loss in n of ours, and the other way round.
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// Moves as text, each written in the position it is played from.
#[must_use]
pub fn line_text(from: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *from;
    moves
        .iter()
        .map(|m| {
            let t = m.written_at(&pos, Convention::Turn);
            pos.play(*m);
            t
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_value_lost() {
        assert_eq!(label(Score::Cp(20), Score::Cp(20), true), Label::Best);
        assert_eq!(label(Score::Cp(20), Score::Cp(0), false), Label::Good);
        assert_eq!(
            label(Score::Cp(20), Score::Cp(-40), false),
            Label::Inaccuracy
        );
        assert_eq!(label(Score::Cp(20), Score::Cp(-120), false), Label::Mistake);
        assert_eq!(label(Score::Cp(20), Score::Cp(-300), false), Label::Blunder);
        // A draw thrown away, however small the drop in numbers looks.
        assert_eq!(label(Score::Cp(0), Score::Mate(-30), false), Label::Blunder);
        assert_eq!(label(Score::Mate(5), Score::Cp(250), false), Label::Blunder);
        // A slower win is no blunder.
        assert_eq!(label(Score::Mate(3), Score::Mate(4), false), Label::Good);
        assert_eq!(shown(Score::Mate(-2)), "L2");
    }
}
