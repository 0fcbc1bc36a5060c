//! The reports of an analysis: the graded game as a table or as JSON, and the moves of one
//! position with their values.

use super::analyst::ExactValues;
use super::grade::{line_text, shown, shown_exact, Graded, Label, BLUNDER, INACCURACY, MISTAKE};
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::Score;

/// The graded moves of a game as a table, then each side's count of blunders, mistakes and
/// inaccuracies, the result, and a legend.
#[must_use]
pub fn text_game(graded: &[Graded], game: &Game) -> String {
    let mut out =
        String::from("ply  side   move          before  after   label       best (line)\n");
    for g in graded {
        let best = if g.label == Label::Best {
            String::new()
        } else if !g.kept.is_empty() {
            format!("kept by {}", g.kept.join(" "))
        } else {
            format!("{} ({})", g.best, g.line.join(" "))
        };
        let (before, after) = if g.exact {
            (shown_exact(g.before).into(), shown_exact(g.after).into())
        } else {
            (shown(g.before), shown(g.after))
        };
        out.push_str(&format!(
            "{:>3}  {:<5}  {:<12}  {:>6}  {:>6}  {:<10}  {}{}\n",
            g.ply,
            g.mover,
            g.played,
            before,
            after,
            g.label.name(),
            best,
            if g.exact { " [tables]" } else { "" }
        ));
    }
    let count = |side: &str, l: Label| {
        graded
            .iter()
            .filter(|g| g.mover == side && g.label == l)
            .count()
    };
    for side in ["white", "black"] {
        out.push_str(&format!(
            "{side}: {} blunders, {} mistakes, {} inaccuracies\n",
            count(side, Label::Blunder),
            count(side, Label::Mistake),
            count(side, Label::Inaccuracy)
        ));
    }
    if let Some(o) = game.outcome() {
        out.push_str(&format!("{} {}\n", o.score(), o.describe()));
    }
    out.push_str(&format!(
        "values for the side to move: centi-pieces, or W/L n for a win/loss in n turns (win, draw \
         or loss where the tables or the placing solution know it exactly); labels \
         by the value lost: blunder {BLUNDER}+ (or a win or draw thrown away), mistake \
         {MISTAKE}+, inaccuracy {INACCURACY}+\n"
    ));
    out
}

/// A JSON string.
fn js(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A score as JSON: `{"cp": n}` or `{"win": n}` (negative: a loss), for the side to move.
fn js_score(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{{\"cp\":{c}}}"),
        Score::Mate(m) => format!("{{\"win\":{m}}}"),
    }
}

/// The graded moves of a game as one JSON object (one line).
#[must_use]
pub fn json_game(graded: &[Graded], game: &Game) -> String {
    let moves: Vec<String> = graded
        .iter()
        .map(|g| {
            format!(
                "{{\"ply\":{},\"side\":{},\"fen\":{},\"move\":{},\"before\":{},\"after\":{},\
                 \"label\":{},\"best\":{},\"line\":[{}],\"exact\":{},\"kept\":[{}]}}",
                g.ply,
                js(g.mover),
                js(&g.fen),
                js(&g.played),
                js_score(g.before),
                js_score(g.after),
                js(g.label.name()),
                js(&g.best),
                g.line.iter().map(|m| js(m)).collect::<Vec<_>>().join(","),
                g.exact,
                g.kept.iter().map(|m| js(m)).collect::<Vec<_>>().join(",")
            )
        })
        .collect();
    let result = game.outcome().map_or("*", |o| o.score());
    format!(
        "{{\"result\":{},\"thresholds\":{{\"blunder\":{BLUNDER},\"mistake\":{MISTAKE},\
         \"inaccuracy\":{INACCURACY}}},\"moves\":[{}]}}",
        js(result),
        moves.join(",")
    )
}

/// The first line of a list of moves: who is to move, and the position string.
fn to_move_line(pos: &Position) -> String {
    format!("{} to move: {}", pos.side_to_move().name(), fen::write(pos))
}

/// The moves of a placing position with their exact values, best first: as lines of text
/// (the position, a line a move, the solver's work), or as one JSON object (one line).
#[must_use]
pub fn exact_moves(exact: &ExactValues, json: bool) -> String {
    let ExactValues {
        pos,
        valued,
        nodes,
        secs,
    } = exact;
    let name = crate::search::exact::name;
    if json {
        let items: Vec<String> = valued
            .iter()
            .map(|&(mv, v)| {
                format!(
                    "{{\"move\":{},\"value\":{}}}",
                    js(&mv.written_at(pos, Convention::Turn)),
                    js(name(v))
                )
            })
            .collect();
        return format!(
            "{{\"fen\":{},\"side\":{},\"nodes\":{},\"seconds\":{:.3},\"moves\":[{}]}}\n",
            js(&fen::write(pos)),
            js(pos.side_to_move().name()),
            nodes,
            secs,
            items.join(",")
        );
    }
    let mut out = format!("{}\n", to_move_line(pos));
    for &(mv, v) in valued {
        out.push_str(&format!(
            "{:<12}  {}\n",
            mv.written_at(pos, Convention::Turn),
            name(v)
        ));
    }
    out.push_str(&format!("exact: {nodes} positions in {secs:.2} s\n"));
    out
}

/// The moves of a position valued by search, best first, each with its line: as lines of text
/// (the position, a line a move), or as one JSON object (one line).
#[must_use]
pub fn advice(pos: &Position, lines: &[(Score, Vec<Move>)], json: bool) -> String {
    if json {
        let items: Vec<String> = lines
            .iter()
            .map(|(s, pv)| {
                let text = line_text(pos, pv);
                format!(
                    "{{\"move\":{},\"value\":{},\"line\":[{}]}}",
                    js(text.first().map_or("", String::as_str)),
                    js_score(*s),
                    text.iter().map(|m| js(m)).collect::<Vec<_>>().join(",")
                )
            })
            .collect();
        return format!(
            "{{\"fen\":{},\"side\":{},\"moves\":[{}]}}\n",
            js(&fen::write(pos)),
            js(pos.side_to_move().name()),
            items.join(",")
        );
    }
    let mut out = format!("{}\n", to_move_line(pos));
    for (s, pv) in lines {
        let text = line_text(pos, pv);
        out.push_str(&format!(
            "{:<12}  {:>6}  {}\n",
            text.first().map_or("", String::as_str),
            shown(*s),
            text[1..].join(" ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(js("a\"b\n"), "\"a\\\"b\\u000a\"");
    }
}
