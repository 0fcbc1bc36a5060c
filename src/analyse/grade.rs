//! Grading moves: the winning chance a move gave away and the label it earns, and the scores as
//! people read them.
//!
//! A move is graded by what it gave away as one consistent source sees it (`Known`): the value
//! of the position before it (the best the mover could do) against the value of the position
//! after it, both exact (the placing solution, the endgame tables, the game's end), or both a
//! search's to the same depth with the same evaluation (the next position's search, negated: no
//! search of its own). A search's value is the mean of its last two depths, one of each parity
//! (`Searched::value`), so that the side that moves last in the search's horizon does not look
//! better from ply to ply. Both values read as winning chances (`chance`), so that a slide of
//! small drops shows, and an exact value and a search's stand on one scale. Book moves (the
//! record's opening, moulin's opening book) are shown as such and not graded.

use super::chance::{accuracy, chance_lost, class, thrown, BLUNDER, INACCURACY, MISTAKE};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::{Outcome, Position};
use crate::search::Score;

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
    /// A move that gives away `INACCURACY` points of winning chance or more.
    Inaccuracy,
    /// A move that gives away `MISTAKE` points or more.
    Mistake,
    /// A move that gives away `BLUNDER` points or more, or throws a win or a draw away.
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

/// Points of winning chance (a move's, an average of them) with one decimal: `12.5`.
#[must_use]
pub fn points(chance: f64) -> String {
    format!("{chance:.1}")
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

/// The label of a move that gave away `lost` points of winning chance, `best` when it is the
/// move the search preferred. A win or a draw thrown away, exactly, gives away 50 or 100 points:
/// a blunder.
#[must_use]
pub fn label(lost: f64, best: bool) -> Label {
    if best {
        Label::Best
    } else if lost >= BLUNDER {
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
    /// The value for the side to move: the search's last depth's, or the exact one.
    pub score: Score,
    /// The value a move is graded by, for the side to move: the mean of the search's last two
    /// depths (one of each parity) where both are scores, else `score`.
    pub value: Score,
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

/// What a move is graded by, for the mover: the value before it and the value after it, from
/// one source (one search's depth and evaluation, or exact values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compared {
    /// The value before the move (the best the mover could do).
    pub best: Score,
    /// The value after the move played.
    pub played: Score,
    /// Whether `best` is exact (the placing solution's, the endgame tables', the game's end).
    pub best_exact: bool,
    /// Whether `played` is exact.
    pub played_exact: bool,
}

impl Compared {
    /// Whether both values are exact.
    #[must_use]
    pub fn exact(&self) -> bool {
        self.best_exact && self.played_exact
    }

    /// The value of the move `mv` among `lines` (a position's moves with their values, best
    /// first), when `mv` is there.
    #[must_use]
    pub fn value_among(lines: &Lines, mv: Move) -> Option<Score> {
        lines
            .iter()
            .find(|(_, pv)| pv.first() == Some(&mv))
            .map(|l| l.0)
    }
}

/// What the analysis knows of one position of a game, for the side to move there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// The search's value (`Searched::value`), where a search that was not exact valued it.
    pub searched: Option<Score>,
    /// The exact value, where the placing solution, the endgame tables or the game's end know
    /// it.
    pub exact: Option<Score>,
}

impl Known {
    /// The value shown, and whether it is exact: the exact one where known, else the search's
    /// (a draw where neither is: no position of a game lacks both).
    #[must_use]
    pub fn shown(self) -> (Score, bool) {
        match (self.exact, self.searched) {
            (Some(e), _) => (e, true),
            (None, s) => (s.unwrap_or(Score::Cp(0)), false),
        }
    }

    /// The same knowledge for the other side.
    #[must_use]
    pub fn negated(self) -> Known {
        Known {
            searched: self.searched.map(negate),
            exact: self.exact.map(negate),
        }
    }
}

/// What is known of each position of a game (the start, then the position after each move), for
/// its side to move: `searched` holds the search of each position before a move, `end` that of
/// the last position (`None` when the game is over, which `game` then says). A position's exact
/// value is its own search's when that was exact, else the value of the move that reached it
/// among the exact values of the position before (the placing solution's last ply: a value
/// known, though no move from there is).
#[must_use]
pub fn known_steps(
    played: &[(Game, Move)],
    searched: &[Searched],
    end: Option<&Searched>,
    game: &Game,
) -> Vec<Known> {
    let mut steps = Vec::with_capacity(played.len() + 1);
    for i in 0..=played.len() {
        let own = searched.get(i).or(end);
        let mut known = match own {
            Some(s) if s.exact => Known {
                searched: None,
                exact: Some(s.score),
            },
            Some(s) => Known {
                searched: Some(s.value),
                exact: None,
            },
            None => Known::default(),
        };
        if known.exact.is_none() && i > 0 {
            let (before, mv) = &played[i - 1];
            let parent = &searched[i - 1];
            known.exact = if own.is_none() {
                Some(negate(outcome_score(game, before)))
            } else if parent.exact {
                Compared::value_among(&parent.lines, *mv).map(negate)
            } else {
                None
            };
        }
        steps.push(known);
    }
    steps
}

/// What the move from `before` to `after` (both for the mover) is graded by: both exact values
/// where both are known; else both searches' values (the same depth and evaluation); else, the
/// two from different sources, only a result thrown away counts (the flag, `graded_by`'s).
fn compared(before: Known, after: Known) -> Option<(Compared, bool)> {
    let by = |best, best_exact, played, played_exact| Compared {
        best,
        played,
        best_exact,
        played_exact,
    };
    Some(match (before, after) {
        (Known { exact: Some(b), .. }, Known { exact: Some(a), .. }) => {
            (by(b, true, a, true), false)
        }
        (
            Known {
                searched: Some(b), ..
            },
            Known {
                searched: Some(a), ..
            },
        ) => (by(b, false, a, false), false),
        (
            Known {
                searched: Some(b), ..
            },
            Known { exact: Some(a), .. },
        ) => (by(b, false, a, true), true),
        (
            Known { exact: Some(b), .. },
            Known {
                searched: Some(a), ..
            },
        ) => (by(b, true, a, false), true),
        _ => return None,
    })
}

/// The winning chance a move gave away and its label, by `c` (`mixed`: values from two sources,
/// of which only a result thrown away counts). The search's own choice is labelled `best`
/// whatever it gave away: what it lost, the next position's search found beyond the horizon of
/// the search that chose it, and it counts in the side's accuracy all the same.
fn graded_by(c: Compared, mixed: bool, best: bool) -> (f64, Label) {
    let lost = if mixed && !thrown(c.best, c.played) {
        0.0
    } else {
        chance_lost(c.best, c.played)
    };
    (lost, label(lost, best))
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
    /// The value before the move, for the mover, as shown: exact where known, else the search's.
    pub before: Score,
    /// The value after the move, for the mover, as shown.
    pub after: Score,
    /// What is known of the position before the move, for the mover.
    pub known: Known,
    /// What is known of the position after the move, for the mover.
    pub known_after: Known,
    /// The search's best move, if the position has one.
    pub best_mv: Option<Move>,
    /// The search's best move (`-` when there was none).
    pub best: String,
    /// The search's line, from its best move on.
    pub line: Vec<String>,
    /// The label the move earns.
    pub label: Label,
    /// Whether the value before is exact (the endgame tables', the placing solution's).
    pub exact: bool,
    /// Whether the value after is exact (as `exact`, or the game's end).
    pub exact_after: bool,
    /// The winning chance the move gave away, in points of 100 from the mover's side (`chance`);
    /// 0 for a book move.
    pub lost: f64,
    /// The values the move was graded by (`None` for a book move, which is not graded).
    pub compared: Option<Compared>,
    /// Every legal move with its value for the mover, best first, where the analysis computed
    /// them (the advisor's view); empty otherwise.
    pub advice: Vec<(String, Score)>,
    /// Whether the values of `advice` are exact.
    pub advice_exact: bool,
    /// The moves that kept the exact value, as written in `pos` (empty where it is not known).
    pub kept: Vec<String>,
}

/// Grades the moves `played` (each with the game before it): `searched` holds the search of
/// each position before a move, `known` what is known of every position (`known_steps`), and the
/// first `book` moves are book moves (labelled `book`, not graded).
#[must_use]
pub fn grade(
    played: &[(Game, Move)],
    searched: &[Searched],
    known: &[Known],
    book: usize,
) -> Vec<Graded> {
    let mut graded = Vec::new();
    for (i, (before, mv)) in played.iter().enumerate() {
        let now = &searched[i];
        let (here, next) = (known[i], known[i + 1].negated());
        let pos = before.position();
        let written = |m: &Move| m.written_at(pos, Convention::Turn);
        let by = compared(here, next).filter(|_| i >= book);
        let (lost, label) = match by {
            Some((c, mixed)) => graded_by(c, mixed, now.best == Some(*mv)),
            None => (0.0, Label::Book),
        };
        let ((before_score, exact), (after, exact_after)) = (here.shown(), next.shown());
        graded.push(Graded {
            ply: i + 1,
            pos: *pos,
            mover: pos.side_to_move().name(),
            fen: crate::rules::fen::write(pos),
            mv: *mv,
            played: written(mv),
            before: before_score,
            after,
            known: here,
            known_after: next,
            best_mv: now.best,
            best: now.best.as_ref().map_or("-".into(), written),
            line: line_text(pos, &now.pv),
            label,
            exact,
            exact_after,
            lost,
            compared: by.map(|b| b.0),
            advice: now
                .lines
                .iter()
                .filter_map(|(s, pv)| pv.first().map(|m| (written(m), *s)))
                .collect(),
            advice_exact: now.exact,
            kept: now.kept.iter().map(written).collect(),
        });
    }
    graded
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
    /// The average of `Graded::lost` over its graded moves, in points of winning chance (0
    /// without any).
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
        average_loss: mean(&|g| g.lost, 0.0),
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
    fn labels_follow_the_chance_given_away() {
        assert_eq!(label(40.0, true), Label::Best);
        assert_eq!(label(4.9, false), Label::Good);
        assert_eq!(label(5.0, false), Label::Inaccuracy);
        assert_eq!(label(10.0, false), Label::Mistake);
        assert_eq!(label(15.0, false), Label::Blunder);
        let table_win = |d| Score::Cp(crate::search::TABLE_WIN - d);
        assert_eq!(shown_exact(table_win(12)), "win 12");
        assert_eq!(shown_exact(Score::solved(-1)), "loss");
        assert_eq!(shown(Score::Mate(-2)), "L2");
    }

    #[test]
    fn a_move_is_graded_by_one_source() {
        let known = |searched, exact| Known { searched, exact };
        // Both searched: the drop in winning chance; an exact value beside is not mixed in.
        let (c, mixed) = compared(
            known(Some(Score::Cp(50)), Some(Score::Cp(0))),
            known(Some(Score::Cp(-150)), None),
        )
        .unwrap();
        assert!(!mixed && !c.exact() && c.best == Score::Cp(50));
        let (lost, l) = graded_by(c, mixed, false);
        assert!((lost - 18.06).abs() < 0.01 && l == Label::Blunder, "{lost}");
        // The search's own choice is labelled so, what it gave away counted all the same.
        assert_eq!(graded_by(c, mixed, true), (lost, Label::Best));
        // Exact before and after: a win kept is nothing, a draw thrown away a blunder.
        let (c, mixed) = compared(
            known(None, Some(Score::Cp(0))),
            known(Some(Score::Cp(40)), Some(Score::solved(-1))),
        )
        .unwrap();
        assert!(c.exact() && !mixed);
        assert_eq!(graded_by(c, mixed, false), (50.0, Label::Blunder));
        // From two sources, only a result thrown away counts.
        let (c, mixed) = compared(
            known(Some(Score::Cp(90)), None),
            known(None, Some(Score::Cp(0))),
        )
        .unwrap();
        assert!(mixed);
        assert_eq!(graded_by(c, mixed, false), (0.0, Label::Good));
        let (c, mixed) = compared(
            known(Some(Score::Cp(-900)), None),
            known(None, Some(Score::solved(-1))),
        )
        .unwrap();
        let (lost, l) = graded_by(c, mixed, false);
        assert!(
            lost < 5.0 && l == Label::Good,
            "{lost}: a lost game stays lost"
        );
    }
}
