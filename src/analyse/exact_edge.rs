//! Where exact knowledge ends in a graded game, and the result it proved, held past that end.
//!
//! The opening's solution knows the first plies exactly, the endgame tables the positions they
//! cover; between them the values are a search's. Where a stretch of exact values ends on a
//! won position, the win is held on the graph (at the end of the one scale, `chance`) while the
//! search's values follow, for as long as the side that won gives away less than a mistake's
//! winning chance a move (by the search) and the search does not see the other side win: a
//! decided game stays decided unless the search sees it undone. Once let go, a result is held
//! again only where exact knowledge starts again.

use super::chance::{class, MISTAKE};
use super::grade::{for_white, Graded, Label};
use crate::search::Score;

/// One position of a graded game (the start, or the position after a move), from White's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The value shown: exact where known, else the search's.
    pub score: Score,
    /// Whether `score` is exact.
    pub exact: bool,
    /// The result held here (1: White wins, -1: Black wins), where exact knowledge ended on a
    /// won position and the search has not seen it undone since; `score` is then the search's.
    pub held: Option<i32>,
}

impl Step {
    /// Where the step stands on the one scale, from -1 (Black wins) to 1 (White wins): the
    /// winning chance of its value (`chance::win_chance`) from 0% to 100%, or the result held.
    #[must_use]
    pub fn gauge(self) -> f64 {
        match self.held {
            Some(c) => f64::from(c),
            None => super::chance::win_chance(self.score) / 50.0 - 1.0,
        }
    }

    /// Whether the step stands at an end of the scale: a won or lost game, or a result held.
    #[must_use]
    pub fn decided(self) -> bool {
        self.held.is_some() || class(self.score) != 0
    }
}

/// Where exact knowledge changes between two steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The step before is exact, this one is not.
    Ends,
    /// The step before is not exact, this one is (and the game goes on).
    Starts,
}

/// The steps of a graded game: the start, then the position after each move (none for a game
/// without moves), each with the result held there.
#[must_use]
pub fn steps(graded: &[Graded]) -> Vec<Step> {
    let Some(first) = graded.first() else {
        return Vec::new();
    };
    let step = |score, exact| Step {
        score,
        exact,
        held: None,
    };
    let mut steps = vec![step(for_white(first.before, first.mover), first.exact)];
    steps.extend(
        graded
            .iter()
            .map(|g| step(for_white(g.after, g.mover), g.exact_after)),
    );
    let mut holding: Option<i32> = None;
    for s in 1..steps.len() {
        if steps[s].exact {
            holding = None;
            continue;
        }
        if steps[s - 1].exact {
            holding = Some(class(steps[s - 1].score)).filter(|&c| c != 0);
        }
        if let Some(c) = holding {
            let g = &graded[s - 1];
            let winner = if c > 0 { "white" } else { "black" };
            let let_go = g.mover == winner && g.label != Label::Book && g.lost >= MISTAKE;
            if let_go || class(steps[s].score) == -c {
                holding = None;
            }
        }
        steps[s].held = holding;
    }
    steps
}

/// The edges of exact knowledge among `steps`: each with the step it changes at.
#[must_use]
pub fn edges(steps: &[Step]) -> Vec<(usize, Edge)> {
    (1..steps.len())
        .filter_map(|s| match (steps[s - 1].exact, steps[s].exact) {
            (true, false) => Some((s, Edge::Ends)),
            (false, true) if s + 1 < steps.len() => Some((s, Edge::Starts)),
            _ => None,
        })
        .collect()
}

/// The side a result held is a win for.
#[must_use]
pub fn winner(held: i32) -> &'static str {
    if held > 0 {
        "White"
    } else {
        "Black"
    }
}

/// The line the text says where exact knowledge changes at `step` of `steps` (a line a change),
/// `depth` the search's settings in words.
#[must_use]
pub fn edge_line(steps: &[Step], step: usize, edge: Edge, depth: &str) -> String {
    match edge {
        Edge::Ends => {
            let held = steps[step].held.or_else(|| {
                steps
                    .get(step - 1)
                    .map(|s| class(s.score))
                    .filter(|&c| c != 0)
            });
            let hold = match held {
                Some(c) => format!(
                    "; {w}'s proven win is held (the graph stays at {w} wins) while {w} gives \
                     away less than a mistake by the search",
                    w = winner(c)
                ),
                None => String::new(),
            };
            format!(
                "--- exact knowledge ends after ply {}: the values below are the search's \
                 ({depth}){hold} ---",
                step - 1
            )
        }
        Edge::Starts => format!(
            "--- exact knowledge starts again after ply {step}: the values from there are exact ---"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(score: Score, exact: bool) -> Step {
        Step {
            score,
            exact,
            held: None,
        }
    }

    #[test]
    fn edges_are_where_exact_values_stop_and_start() {
        let loss = Score::solved(-1);
        let steps = [
            at(Score::Cp(0), true),
            at(loss, true),
            at(Score::Cp(-130), false),
            at(Score::Cp(-90), false),
            at(loss, true),
            at(Score::Mate(-1), true),
        ];
        assert_eq!(edges(&steps), [(2, Edge::Ends), (4, Edge::Starts)]);
        let lost = Step {
            held: Some(-1),
            ..at(Score::Cp(-130), false)
        };
        assert!((lost.gauge() + 1.0).abs() < 1e-12 && lost.decided());
        assert!(at(Score::Cp(0), false).gauge().abs() < 1e-12);
        let line = edge_line(&steps, 2, Edge::Ends, "depth 12");
        assert!(
            line.contains("after ply 1") && line.contains("Black's proven win"),
            "{line}"
        );
    }
}
