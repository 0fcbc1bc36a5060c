//! Adjudication: ending a game before the rules do, when its result is known.
//!
//! - **By the tables** (`--tables`, as chess tournaments adjudicate by Syzygy): a
//!   moving-phase position whose value moulin's endgame tables decide under the game's draw
//!   rules (`Tables::probe_in_game`) ends the game with that result at once; with the placing
//!   solution in the directory, a placing position it values as a draw ends the game as a draw.
//!   A placing position it values as a win is played on: the solution values it without the
//!   no-capture rule, which might still turn it into a draw, and the moving tables adjudicate
//!   the game as soon as they decide it. So every result given here is exact. A limit of pieces
//!   (`--adjudicate-pieces`, as cutechess-cli's `-tbpieces`) leaves larger positions to play.
//! - **By the engines' scores**, as cutechess-cli's `-resign` and `-draw` (off by default):
//!   `resign movecount=N score=S [twosided=true]` gives the game against an engine whose score
//!   was `-S` or below for `N` of its turns in a row (with `twosided`, while its opponent's was
//!   `S` or above for as long); `draw movenumber=M movecount=N score=S` draws a game in which
//!   both engines' scores stayed within `S` of zero for `N` turns each, once `M` full moves
//!   (pairs of turns, the opening's included) are played. A mate score counts as beyond every
//!   bound; a turn answered without a score breaks the run.

use crate::matches::engines::engine_output::Score;
use crate::rules::board::Color;
use crate::rules::position::Position;
use crate::tables::{Tables, Value};
use std::fmt;
use std::sync::Arc;

/// How the games of a match may be adjudicated before the rules end them.
#[derive(Clone, Debug, Default)]
pub struct Adjudication {
    /// The endgame tables (and placing solution) that end covered positions.
    pub tables: Option<Arc<Tables>>,
    /// The most pieces (on the board and in hand, both sides) of a position the tables end, as
    /// cutechess-cli's `-tbpieces`; `None`: every position they cover.
    pub max_pieces: Option<u32>,
    /// The resign rule.
    pub resign: Option<ResignRule>,
    /// The draw rule.
    pub draw: Option<DrawRule>,
}

/// cutechess-cli's `-resign`: a game is lost by an engine whose score stays low.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Turns in a row the score must stay low.
    pub moves: u32,
    /// The bound, in the engine's score units (centi-pieces for moulin): a score of `-score` or
    /// below is low.
    pub score: i32,
    /// Whether the opponent's score must agree (be `score` or above as long).
    pub two_sided: bool,
}

/// cutechess-cli's `-draw`: a game is drawn when both engines' scores stay near zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Full moves (pairs of turns, the opening's included) played before the rule applies.
    pub move_number: u32,
    /// Turns in a row each engine's score must stay near zero.
    pub moves: u32,
    /// How near: a score between `-score` and `score`.
    pub score: i32,
}

/// A word of `--resign` or `--draw` that cannot be read, or a key missing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{flag}: {word_shown}{why}", word_shown = if word.is_empty() { String::new() } else { format!("{}: ", crate::text::quoted(word)) })]
pub struct AdjudicationError {
    /// The flag.
    pub flag: &'static str,
    /// The word (empty when a key is missing).
    pub word: String,
    /// What is wrong with it.
    pub why: WordFlaw,
}

/// What is wrong with a word of a rule flag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordFlaw {
    /// The words are not key=value pairs of the flag's keys.
    #[error("{0}")]
    Pairs(#[from] crate::matches::quoting::PairError),
    /// A number that is not a whole number.
    #[error("not a whole number")]
    NotANumber,
    /// A number out of its range.
    #[error("out of range ({min} to {max})")]
    OutOfRange {
        /// The least allowed.
        min: i64,
        /// The most allowed.
        max: i64,
    },
    /// A key the flag needs is missing.
    #[error("give {0}=<number>")]
    Missing(String),
    /// A yes-or-no key with another word.
    #[error("expected true or false")]
    NotTrueOrFalse,
}

/// The words of a rule flag as key/number pairs, each key one of `keys`.
fn rule_words(
    flag: &'static str,
    words: &[String],
    keys: &[&str],
) -> Result<Vec<(String, String)>, AdjudicationError> {
    let all: Vec<String> = words
        .iter()
        .flat_map(|w| w.split_whitespace())
        .map(String::from)
        .collect();
    let pairs = crate::matches::quoting::pairs(&all, keys).map_err(|e| AdjudicationError {
        flag,
        word: String::new(),
        why: WordFlaw::Pairs(e),
    })?;
    Ok(pairs
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect())
}

/// The number of `key` in `pairs`, between `min` and `max`.
fn number(
    flag: &'static str,
    pairs: &[(String, String)],
    key: &str,
    min: i64,
    max: i64,
) -> Result<Option<i64>, AdjudicationError> {
    let Some((_, v)) = pairs.iter().find(|(k, _)| k == key) else {
        return Ok(None);
    };
    let n: i64 = v.parse().map_err(|_| AdjudicationError {
        flag,
        word: format!("{key}={v}"),
        why: WordFlaw::NotANumber,
    })?;
    if !(min..=max).contains(&n) {
        return Err(AdjudicationError {
            flag,
            word: format!("{key}={v}"),
            why: WordFlaw::OutOfRange { min, max },
        });
    }
    Ok(Some(n))
}

/// A key every rule flag needs.
fn required(flag: &'static str, key: &str, n: Option<i64>) -> Result<i64, AdjudicationError> {
    n.ok_or_else(|| AdjudicationError {
        flag,
        word: String::new(),
        why: WordFlaw::Missing(key.to_string()),
    })
}

/// The `movecount` and `score` every rule flag has.
fn count_and_bound(
    flag: &'static str,
    pairs: &[(String, String)],
) -> Result<(u32, i32), AdjudicationError> {
    let moves = number(flag, pairs, "movecount", 1, MAX_MOVES)?;
    let moves = required(flag, "movecount", moves)?;
    let score = required(flag, "score", number(flag, pairs, "score", 0, MAX_SCORE)?)?;
    Ok((
        u32::try_from(moves).unwrap_or(u32::MAX),
        i32::try_from(score).unwrap_or(i32::MAX),
    ))
}

/// The most turns a rule may count, and the largest score bound.
const MAX_MOVES: i64 = 10_000;
const MAX_SCORE: i64 = 1_000_000;

impl ResignRule {
    /// Reads `movecount=N score=S [twosided=true|false]`.
    ///
    /// # Errors
    ///
    /// A word that is not one of those keys with a value in range; a key missing.
    pub fn parse(words: &[String]) -> Result<ResignRule, AdjudicationError> {
        const FLAG: &str = "--resign";
        let pairs = rule_words(FLAG, words, &["movecount", "score", "twosided"])?;
        let (moves, score) = count_and_bound(FLAG, &pairs)?;
        let two_sided = match pairs.iter().find(|(k, _)| k == "twosided") {
            None => false,
            Some((_, v)) => match v.as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(AdjudicationError {
                        flag: FLAG,
                        word: format!("twosided={v}"),
                        why: WordFlaw::NotTrueOrFalse,
                    })
                }
            },
        };
        Ok(ResignRule {
            moves,
            score,
            two_sided,
        })
    }
}

impl fmt::Display for ResignRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "movecount={} score={} twosided={}",
            self.moves, self.score, self.two_sided
        )
    }
}

impl DrawRule {
    /// Reads `movenumber=M movecount=N score=S` (`movenumber` 0 when left out).
    ///
    /// # Errors
    ///
    /// A word that is not one of those keys with a value in range; a key missing.
    pub fn parse(words: &[String]) -> Result<DrawRule, AdjudicationError> {
        const FLAG: &str = "--draw";
        let pairs = rule_words(FLAG, words, &["movenumber", "movecount", "score"])?;
        let move_number = number(FLAG, &pairs, "movenumber", 0, MAX_MOVES)?.unwrap_or(0);
        let (moves, score) = count_and_bound(FLAG, &pairs)?;
        Ok(DrawRule {
            move_number: u32::try_from(move_number).unwrap_or(u32::MAX),
            moves,
            score,
        })
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "movenumber={} movecount={} score={}",
            self.move_number, self.moves, self.score
        )
    }
}

/// A game ended by adjudication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// `tables`, `resign` or `score-draw`: the word records use.
    pub kind: &'static str,
    /// What decided it, in words.
    pub reason: String,
}

/// The verdict of the tables on `pos`, when they decide it and it has at most `max_pieces`
/// pieces, those in hand included (see the module's text).
pub fn by_tables(tables: &Tables, max_pieces: Option<u32>, pos: &Position) -> Option<Verdict> {
    if pos.pending_removals() > 0 || !tables.serves(pos.rules()) {
        return None;
    }
    let pieces = Color::BOTH.map(|c| pos.on_board(c) + u32::from(pos.in_hand(c)));
    if max_pieces.is_some_and(|m| pieces.iter().sum::<u32>() > m) {
        return None;
    }
    let us = pos.side_to_move();
    if pos.is_placing() {
        return (tables.placing_value(pos)? == 0).then(|| Verdict {
            winner: None,
            kind: "tables",
            reason: "draw by the placing solution: neither side can force a win".into(),
        });
    }
    let v = tables.probe_in_game(pos)?;
    let (winner, reason) = match v {
        Value::Draw => (
            None,
            "draw by the endgame tables: neither side can force a win under the rules".to_string(),
        ),
        Value::Win(d) => (Some(us), won_by_tables(us, d)),
        Value::Loss(d) => (Some(!us), won_by_tables(!us, d)),
    };
    Some(Verdict {
        winner,
        kind: "tables",
        reason,
    })
}

fn won_by_tables(winner: Color, distance: u16) -> String {
    let plies = if distance == 1 { "ply" } else { "plies" };
    format!(
        "{} wins by the endgame tables (the next removal or the end within {distance} {plies})",
        winner.name()
    )
}

/// Where a score stands against a bound: `-1` at `-bound` or below, `1` at `bound` or above,
/// `0` strictly between. A mate score is beyond every bound.
fn against(score: Score, bound: i32) -> i8 {
    match score {
        Score::Mate(m) if m > 0 => 1,
        Score::Mate(_) => -1,
        Score::Cp(c) if c <= -bound => -1,
        Score::Cp(c) if c >= bound => 1,
        Score::Cp(_) => 0,
    }
}

/// The runs of scores of one game, for the resign and draw rules.
#[derive(Clone, Debug, Default)]
pub struct ScoreWatch {
    /// Turns in a row each side's score was at the resign rule's `-score` or below.
    low: [u32; 2],
    /// Turns in a row each side's score was at the resign rule's `score` or above.
    high: [u32; 2],
    /// Turns in a row each side's score was within the draw rule's bound.
    level: [u32; 2],
}

impl ScoreWatch {
    /// Notes the score `us` gave with its turn; `turns` is how many turns the game has had,
    /// that one and the opening's included. The verdict, when a rule now ends the game.
    pub fn note(
        &mut self,
        rules: &Adjudication,
        us: Color,
        score: Option<Score>,
        turns: usize,
    ) -> Option<Verdict> {
        let i = usize::from(us == Color::Black);
        let bump = |run: &mut u32, yes: bool| *run = if yes { *run + 1 } else { 0 };
        if let Some(r) = rules.resign {
            let side = score.map(|s| against(s, r.score));
            bump(&mut self.low[i], side == Some(-1));
            bump(&mut self.high[i], side == Some(1));
        }
        if let Some(d) = rules.draw {
            let near = score.map(|s| against(s, d.score.saturating_add(1)));
            bump(&mut self.level[i], near == Some(0));
        }
        self.verdict(rules, turns)
    }

    fn verdict(&self, rules: &Adjudication, turns: usize) -> Option<Verdict> {
        if let Some(r) = rules.resign {
            for loser in Color::BOTH {
                let i = usize::from(loser == Color::Black);
                let agreed = !r.two_sided || self.high[1 - i] >= r.moves;
                if self.low[i] >= r.moves && agreed {
                    let also = if r.two_sided {
                        format!(", and {}'s at +{} or above", (!loser).name(), r.score)
                    } else {
                        String::new()
                    };
                    return Some(Verdict {
                        winner: Some(!loser),
                        kind: "resign",
                        reason: format!(
                            "{} wins by adjudication: {}'s score was -{} or below for {} \
                             turns in a row{also}",
                            (!loser).name(),
                            loser.name(),
                            r.score,
                            r.moves
                        ),
                    });
                }
            }
        }
        let d = rules.draw?;
        let moves_played = turns / 2;
        let level = self.level.iter().all(|&n| n >= d.moves);
        (level && moves_played >= d.move_number as usize).then(|| Verdict {
            winner: None,
            kind: "score-draw",
            reason: format!(
                "draw by adjudication: both engines' scores within {} of zero for {} turns \
                 each, after move {}",
                d.score, d.moves, d.move_number
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn rules_read_and_refuse() {
        let r = ResignRule::parse(&words("movecount=3 score=500")).unwrap();
        assert_eq!(
            r,
            ResignRule {
                moves: 3,
                score: 500,
                two_sided: false
            }
        );
        assert!(
            ResignRule::parse(&words("movecount=3 score=500 twosided=true"))
                .unwrap()
                .two_sided
        );
        let d = DrawRule::parse(&words("movenumber=40 movecount=8 score=10")).unwrap();
        assert_eq!(
            d,
            DrawRule {
                move_number: 40,
                moves: 8,
                score: 10
            }
        );
        for (bad, needle) in [
            ("score=500", "give movecount"),
            ("movecount=3", "give score"),
            ("movecount=x score=1", "'movecount=x'"),
            ("movecount=0 score=1", "out of range"),
            ("movecount=3 score=5 twosided=yes", "true or false"),
            ("movecount=3 score=5 colour=red", "unknown key"),
            ("movecount=3 movecount=4 score=5", "given twice"),
            ("movecount", "not key=value"),
        ] {
            let e = ResignRule::parse(&words(bad)).unwrap_err().to_string();
            assert!(e.contains("--resign") && e.contains(needle), "{bad}: {e}");
        }
        let e = DrawRule::parse(&words("movecount=2 score=-1"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--draw") && e.contains("out of range"), "{e}");
    }

    fn rules(resign: Option<&str>, draw: Option<&str>) -> Adjudication {
        Adjudication {
            resign: resign.map(|r| ResignRule::parse(&words(r)).unwrap()),
            draw: draw.map(|d| DrawRule::parse(&words(d)).unwrap()),
            ..Adjudication::default()
        }
    }

    #[test]
    fn resign_after_a_run_of_low_scores() {
        let adj = rules(Some("movecount=3 score=400"), None);
        let mut w = ScoreWatch::default();
        let (b, wh) = (Color::Black, Color::White);
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(500)), 1), None);
        assert_eq!(w.note(&adj, b, Some(Score::Cp(-400)), 2), None);
        assert_eq!(w.note(&adj, b, Some(Score::Cp(-900)), 4), None);
        // A turn without a score breaks the run.
        assert_eq!(w.note(&adj, b, None, 6), None);
        assert_eq!(w.low[1], 0);
        assert_eq!(w.note(&adj, b, Some(Score::Mate(-5)), 8), None);
        assert_eq!(w.note(&adj, b, Some(Score::Cp(-401)), 10), None);
        let v = w.note(&adj, b, Some(Score::Cp(-1000)), 12).unwrap();
        assert_eq!(v.winner, Some(wh));
        assert_eq!(v.kind, "resign");
        assert!(
            v.reason.contains("black's score was -400 or below for 3"),
            "{}",
            v.reason
        );
    }

    #[test]
    fn two_sided_resign_needs_the_winner_to_agree() {
        let adj = rules(Some("movecount=2 score=300 twosided=true"), None);
        let mut w = ScoreWatch::default();
        let (b, wh) = (Color::Black, Color::White);
        for t in 0..3 {
            // White thinks it is level: no resignation however low black's score.
            assert_eq!(w.note(&adj, wh, Some(Score::Cp(100)), 2 * t + 1), None);
            assert_eq!(w.note(&adj, b, Some(Score::Cp(-800)), 2 * t + 2), None);
        }
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(300)), 7), None);
        let v = w.note(&adj, wh, Some(Score::Mate(3)), 9).unwrap();
        assert_eq!(v.winner, Some(wh));
        assert!(v.reason.contains("and white's at +300"), "{}", v.reason);
    }

    #[test]
    fn draw_after_level_scores_and_the_move_number() {
        let adj = rules(None, Some("movenumber=3 movecount=2 score=20"));
        let mut w = ScoreWatch::default();
        let (b, wh) = (Color::Black, Color::White);
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(20)), 1), None);
        assert_eq!(w.note(&adj, b, Some(Score::Cp(-20)), 2), None);
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(0)), 3), None);
        // Both level for two turns, but only two full moves played.
        assert_eq!(w.note(&adj, b, Some(Score::Cp(5)), 4), None);
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(21)), 5), None);
        assert_eq!(w.note(&adj, b, Some(Score::Cp(5)), 6), None);
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(-3)), 7), None);
        let v = w.note(&adj, wh, Some(Score::Cp(2)), 9).unwrap();
        assert_eq!((v.winner, v.kind), (None, "score-draw"));
        // A mate score is never level.
        let mut w = ScoreWatch::default();
        w.note(&adj, b, Some(Score::Mate(9)), 10);
        assert_eq!(w.note(&adj, wh, Some(Score::Cp(0)), 11), None);
    }
}
