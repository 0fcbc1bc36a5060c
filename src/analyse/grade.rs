//! Grading moves: the value lost by a move and the label it earns, and the scores as people read
//! them.
//!
//! A move is graded by what it gave away against the best move of the same search from the same
//! position (`Compared`): the value of the move played beside the best move's, both from one
//! search at one depth, or both exact (the placing solution, the endgame tables). The values of
//! successive positions swing with the parity of the search's depth (the side that moves last
//! in the search's horizon looks better), so comparing the value before a move with the next
//! position's would label ordinary moves; comparing two moves of one search does not. Book
//! moves (the record's opening, moulin's opening book) are shown as such and not graded.

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
/// The most value a move can lose, in centi-pieces: a win or a draw thrown away counts this
/// much, so that one such move does not swamp a side's average (docs/play-and-analyse.md,
/// "Accuracy").
pub const LOSS_CAP: i32 = 1000;

/// How a move is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// A move of the opening: imposed by the record (`{book}`) or in moulin's opening book; not
    /// graded.
    Book,
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
    /// The glyph of a move's label as records write it: `??`, `?`, `?!`, or none.
    #[must_use]
    pub fn glyph(self) -> &'static str {
        match self {
            Label::Blunder => "??",
            Label::Mistake => "?",
            Label::Inaccuracy => "?!",
            Label::Book | Label::Best | Label::Good => "",
        }
    }

    /// The label as the reports write it: `book`, `best`, `good`, `inaccuracy`, `mistake`,
    /// `blunder`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Label::Book => "book",
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// A value as people read it, from the side named: pieces with two decimals (`+0.35`, `-1.20`,
/// `0.00`; the search's centi-pieces, as lichess shows pawns), `W12` / `L12` for a win or loss
/// the search found in that many of the mover's turns, `win 12` / `loss 12` for one the endgame
/// tables prove (`shown_exact`): a decided game is never a number of pieces.
#[must_use]
pub fn shown(score: Score) -> String {
    match score {
        Score::Cp(_) if class(score) != 0 => shown_exact(score),
        Score::Cp(0) => "0.00".into(),
        Score::Cp(c) => format!("{:+.2}", f64::from(c) / 100.0),
        Score::Mate(m) if m > 0 => format!("W{m}"),
        Score::Mate(m) => format!("L{}", -m),
    }
}

/// Centi-pieces (a value lost, an average of them) as pieces with two decimals: `0.35`.
#[must_use]
pub fn pieces(centi: f64) -> String {
    format!("{:.2}", centi / 100.0)
}

/// A threshold in centi-pieces as pieces, for the legends (`BLUNDER` is 3).
#[must_use]
pub fn in_pieces(centi: i32) -> f64 {
    f64::from(centi) / 100.0
}

/// An exact value as people read it: `win 12`, `draw` or `loss 12` for the side named, the
/// number being the plies to the next removal (or the end) by the endgame tables; `win` or
/// `loss` alone where no distance is known (the placing solution, a game over).
#[must_use]
pub fn shown_exact(score: Score) -> String {
    let c = match score {
        Score::Mate(m) if m > 0 => return "win".into(),
        Score::Mate(_) => return "loss".into(),
        Score::Cp(c) => c,
    };
    let word = match c.signum() {
        1 => "win",
        -1 => "loss",
        _ => return "draw".into(),
    };
    match exact_distance(c) {
        Some(d) => format!("{word} {d}"),
        None => word.into(),
    }
}

/// The plies to the next removal of a score the tables gave (`from_tables` at the root); `None`
/// for the placing solution's values, which carry no distance.
fn exact_distance(c: i32) -> Option<i32> {
    use crate::search::{TABLE_BOUND, TABLE_WIN};
    let c = c.abs();
    (c > TABLE_BOUND && c <= TABLE_WIN).then_some(TABLE_WIN - c)
}

/// A value as people read it, exact (`shown_exact`) or searched (`shown`).
#[must_use]
pub fn shown_value(score: Score, exact: bool) -> String {
    if exact {
        shown_exact(score)
    } else {
        shown(score)
    }
}

/// A value of the side `mover` from White's side.
#[must_use]
pub fn for_white(score: Score, mover: &str) -> Score {
    if mover == "black" {
        negate(score)
    } else {
        score
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

/// The order of moves' scores, best first when sorted: by `rank`, then the tables' wins and
/// losses by their distance (the nearest win, the farthest loss first), which `rank` leaves equal
/// so that a win kept is never a loss of value.
pub(crate) fn order(score: Score) -> (i32, i32) {
    let fine = match score {
        Score::Cp(c) => c,
        Score::Mate(_) => 0,
    };
    (-rank(score), -fine)
}

/// Won (1), lost (-1) or neither (0): by the search's win or loss, or by the endgame tables'
/// and the placing solution's.
pub(crate) fn class(score: Score) -> i32 {
    match score {
        Score::Mate(m) => m.signum(),
        Score::Cp(c) if c.abs() >= crate::search::TABLE_BOUND => c.signum(),
        Score::Cp(_) => 0,
    }
}

/// The value a move lost, in centi-pieces from 0 to `LOSS_CAP`, when it took the mover from
/// `before` to `after` (both from the mover's side): nothing when both are the same win or loss
/// (a slower win loses nothing), `LOSS_CAP` when a win or a draw is thrown away, the drop
/// otherwise.
#[must_use]
pub fn loss(before: Score, after: Score) -> i32 {
    let (b, a) = (class(before), class(after));
    if a < b {
        LOSS_CAP
    } else if a != 0 && a == b {
        0
    } else {
        rank(before).saturating_sub(rank(after)).clamp(0, LOSS_CAP)
    }
}

/// The accuracy of a move that lost `loss` centi-pieces, in percent: 100 for no loss, falling
/// in a straight line to 0 at a blunder's `BLUNDER` (docs/play-and-analyse.md, "Accuracy").
#[must_use]
pub fn accuracy(loss: i32) -> f64 {
    100.0 * (1.0 - f64::from(loss.clamp(0, BLUNDER)) / f64::from(BLUNDER))
}

/// The label of a move that took the mover from `before` to `after` (both from the mover's
/// side), `best` when it is the move the search preferred.
#[must_use]
pub fn label(before: Score, after: Score, best: bool) -> Label {
    let lost = loss(before, after);
    if best {
        Label::Best
    } else if class(after) < class(before) || lost >= BLUNDER {
        Label::Blunder
    } else if lost >= MISTAKE {
        Label::Mistake
    } else if lost >= INACCURACY {
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
    /// Every legal move's value and line, best first, where the analysis computed them (the
    /// placing solution, or a search of every root move); empty otherwise.
    pub lines: Lines,
}

/// What a move is graded by: the best move's value and the played move's, for the mover, from
/// one source (one search at one depth, or exact values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compared {
    /// The value of the best move (of the search, or exact).
    pub best: Score,
    /// The value of the move played, from the same search or exact.
    pub played: Score,
    /// Whether both values are exact (the placing solution's or the endgame tables').
    pub exact: bool,
}

impl Compared {
    /// The values of the best move and of the move `mv` among `lines` (a position's moves with
    /// their values, best first, from one search or exact), when `mv` is there.
    #[must_use]
    pub fn among(lines: &Lines, mv: Move, exact: bool) -> Option<Compared> {
        let best = lines.first()?.0;
        let played = lines.iter().find(|(_, pv)| pv.first() == Some(&mv))?.0;
        Some(Compared {
            best,
            played,
            exact,
        })
    }

    /// A move that gave nothing away: the best move's value for both.
    #[must_use]
    pub fn same(score: Score, exact: bool) -> Compared {
        Compared {
            best: score,
            played: score,
            exact,
        }
    }
}

/// Lines of a position's moves, best first: each with its value for the side to move, from its
/// first move on.
pub type Lines = Vec<(Score, Vec<Move>)>;

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
    /// The move.
    pub mv: Move,
    /// The move, as written in `pos`.
    pub played: String,
    /// The value before the move, for the mover.
    pub before: Score,
    /// The value after the move, for the mover.
    pub after: Score,
    /// The search's best move, if the position has one.
    pub best_mv: Option<Move>,
    /// The search's best move (`-` when there was none).
    pub best: String,
    /// The search's line, from its best move on.
    pub line: Vec<String>,
    /// The label the move earns.
    pub label: Label,
    /// Whether the value before is exact (the endgame tables' or the placing solution's).
    pub exact: bool,
    /// Whether the value after is exact (as `exact`, or the game's end).
    pub exact_after: bool,
    /// The value the move lost, in centi-pieces from the mover's side (`loss` of `compared`);
    /// 0 for a book move.
    pub lost: i32,
    /// The values the move was graded by (`None` for a book move, which is not graded).
    pub compared: Option<Compared>,
    /// Every legal move with its value for the mover, best first, where the analysis computed
    /// them (the advisor's view); empty otherwise.
    pub advice: Vec<(String, Score)>,
    /// The moves that kept the exact value, as written in `pos` (empty where it is not known).
    pub kept: Vec<String>,
}

/// Grades the moves `played` (each with the game before it) of a game that ended in `game`:
/// `searched` holds the search of each position before a move, `end` that of the last position
/// (`None` when the game is over), and `compared` what each move is graded by (`None` for a
/// book move, labelled `book` and not graded).
#[must_use]
pub fn grade(
    played: &[(Game, Move)],
    searched: &[Searched],
    compared: &[Option<Compared>],
    end: Option<&Searched>,
    game: &Game,
) -> Vec<Graded> {
    let mut graded = Vec::new();
    for (i, (before, mv)) in played.iter().enumerate() {
        let now = &searched[i];
        let (after_score, exact_after) = value_after(searched.get(i + 1).or(end), game, before);
        let pos = before.position();
        let written = |m: &Move| m.written_at(pos, Convention::Turn);
        let compared = compared.get(i).copied().flatten();
        let (label, lost) = match compared {
            Some(c) => (
                label(c.best, c.played, now.best == Some(*mv)),
                loss(c.best, c.played),
            ),
            None => (Label::Book, 0),
        };
        graded.push(Graded {
            ply: i + 1,
            pos: *pos,
            mover: pos.side_to_move().name(),
            fen: crate::rules::fen::write(pos),
            mv: *mv,
            played: written(mv),
            before: now.score,
            after: after_score,
            best_mv: now.best,
            best: now.best.as_ref().map_or("-".into(), written),
            line: line_text(pos, &now.pv),
            label,
            exact: now.exact,
            exact_after,
            lost,
            compared,
            advice: now
                .lines
                .iter()
                .filter_map(|(s, pv)| pv.first().map(|m| (written(m), *s)))
                .collect(),
            kept: now.kept.iter().map(written).collect(),
        });
    }
    graded
}

/// The value for the mover after a move played from `before`, and whether it is exact: the next
/// position's search, negated, or the game's end.
pub(crate) fn value_after(next: Option<&Searched>, game: &Game, before: &Game) -> (Score, bool) {
    match next {
        Some(next) => (negate(next.score), next.exact),
        None => (outcome_score(game, before), true),
    }
}

/// One side's moves summed up: counts by label, the average value lost, the accuracy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The side's graded moves (its book moves aside).
    pub moves: usize,
    /// Its book moves, not graded.
    pub book: usize,
    /// Its blunders.
    pub blunders: usize,
    /// Its mistakes.
    pub mistakes: usize,
    /// Its inaccuracies.
    pub inaccuracies: usize,
    /// The average of `Graded::lost` over its graded moves, in centi-pieces (0 without any).
    pub average_loss: f64,
    /// The average of `accuracy` over its graded moves, in percent (100 without any).
    pub accuracy: f64,
}

impl Summary {
    /// The names of `figures`, as the JSON writes them.
    pub const NAMES: [&'static str; 6] = [
        "moves",
        "blunders",
        "mistakes",
        "inaccuracies",
        "average_loss",
        "accuracy",
    ];

    /// The figures as the reports write them, in the order of `NAMES`: the counts, then the
    /// average loss and the accuracy to one decimal.
    #[must_use]
    pub fn figures(&self) -> [String; 6] {
        [
            self.moves.to_string(),
            self.blunders.to_string(),
            self.mistakes.to_string(),
            self.inaccuracies.to_string(),
            format!("{:.1}", self.average_loss),
            format!("{:.1}", self.accuracy),
        ]
    }
}

/// The summary of the moves `side` (`white` or `black`) played: its book moves counted apart,
/// the rest graded.
#[must_use]
pub fn summary(graded: &[Graded], side: &str) -> Summary {
    let sides: Vec<&Graded> = graded.iter().filter(|g| g.mover == side).collect();
    let book = sides.iter().filter(|g| g.label == Label::Book).count();
    let mine: Vec<&Graded> = sides
        .into_iter()
        .filter(|g| g.label != Label::Book)
        .collect();
    let count = |l: Label| mine.iter().filter(|g| g.label == l).count();
    let n = mine.len() as f64;
    let mean = |f: &dyn Fn(&Graded) -> f64, empty: f64| {
        if mine.is_empty() {
            empty
        } else {
            mine.iter().map(|g| f(g)).sum::<f64>() / n
        }
    };
    Summary {
        moves: mine.len(),
        book,
        blunders: count(Label::Blunder),
        mistakes: count(Label::Mistake),
        inaccuracies: count(Label::Inaccuracy),
        average_loss: mean(&|g| f64::from(g.lost), 0.0),
        accuracy: mean(&|g| accuracy(g.lost), 100.0),
    }
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
        // A slower win is no blunder, by search or by the tables.
        assert_eq!(label(Score::Mate(3), Score::Mate(4), false), Label::Good);
        let table_win = |d| Score::Cp(crate::search::TABLE_WIN - d);
        assert_eq!(label(table_win(3), table_win(90), false), Label::Good);
        assert_eq!(shown_exact(table_win(12)), "win 12");
        assert_eq!(shown_exact(Score::solved(-1)), "loss");
        assert_eq!(loss(Score::Cp(0), Score::solved(-1)), LOSS_CAP);
        assert!((accuracy(MISTAKE) - 60.0).abs() < 1e-9);
        assert_eq!(shown(Score::Mate(-2)), "L2");
    }
}
