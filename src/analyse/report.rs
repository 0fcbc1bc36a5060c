//! The reports of an analysis: the graded game as a table or as JSON, and the moves of one
//! position with their values.

use super::analyst::ExactValues;
use super::grade::{
    for_white, line_text, shown, shown_exact, shown_value, summary, Graded, Label, Summary,
    BLUNDER, INACCURACY, LOSS_CAP, MISTAKE,
};
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::Score;

/// The graded moves of a game as a table (values from White's side), then each side's summary,
/// the result, and a legend.
#[must_use]
pub fn text_game(graded: &[Graded], game: &Game) -> String {
    let mut out = String::from(
        "values from White's side\n\
         ply  side   move          before    after     lost  label          best (line)\n",
    );
    for g in graded {
        let best = if g.label == Label::Best {
            String::new()
        } else if !g.kept.is_empty() {
            format!("kept by {}", g.kept.join(" "))
        } else {
            format!("{} ({})", g.best, g.line.join(" "))
        };
        let (before, after) = white_values(g);
        let label = format!("{} {}", g.label.name(), g.label.glyph());
        out.push_str(&format!(
            "{:>3}  {:<5}  {:<12}  {:>7}  {:>7}  {:>5}  {:<13}  {}{}\n",
            g.ply,
            g.mover,
            g.played,
            before,
            after,
            g.lost,
            label.trim_end(),
            best,
            if g.exact { " [exact]" } else { "" }
        ));
    }
    for side in ["white", "black"] {
        let s = summary(graded, side);
        out.push_str(&format!(
            "{side}: {} blunders, {} mistakes, {} inaccuracies; {:.1} lost a move on average, \
             accuracy {:.1}%\n",
            s.blunders, s.mistakes, s.inaccuracies, s.average_loss, s.accuracy
        ));
    }
    if let Some(o) = game.outcome() {
        out.push_str(&format!("{} {}\n", o.score(), o.describe()));
    }
    out.push_str(&format!(
        "values from White's side: centi-pieces, or W/L n for a win/loss in n turns found by \
         the search; exact ones (the endgame tables, the placing solution) as win n, draw, loss n \
         (n plies to the next removal where known), marked [exact]; lost: the value the mover \
         lost, in centi-pieces (at most {LOSS_CAP}); labels by the value lost: blunder ?? \
         {BLUNDER}+ (or a win or draw thrown away), mistake ? {MISTAKE}+, inaccuracy ?! \
         {INACCURACY}+; accuracy: docs/play-and-analyse.md\n"
    ));
    out
}

/// A move's values before and after it, from White's side, as people read them.
#[must_use]
pub fn white_values(g: &Graded) -> (String, String) {
    (
        shown_value(for_white(g.before, g.mover), g.exact),
        shown_value(for_white(g.after, g.mover), g.exact_after),
    )
}

/// A JSON string.
pub(super) fn js(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            // Keeps the text inert inside an HTML script element too.
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A score as JSON: `{"cp": n}` or `{"win": n}` (negative: a loss) found by search; exact:
/// `{"exact": "win"|"draw"|"loss", "distance": n}` (the distance where the tables give it).
pub(super) fn js_score(s: Score, exact: bool) -> String {
    if exact {
        let shown = shown_exact(s);
        let mut words = shown.split(' ');
        let word = words.next().unwrap_or("draw");
        return match words.next() {
            Some(d) => format!("{{\"exact\":{},\"distance\":{d}}}", js(word)),
            None => format!("{{\"exact\":{}}}", js(word)),
        };
    }
    match s {
        Score::Cp(c) => format!("{{\"cp\":{c}}}"),
        Score::Mate(m) => format!("{{\"win\":{m}}}"),
    }
}

/// A list of JSON strings.
pub(super) fn js_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|m| js(m)).collect();
    format!("[{}]", items.join(","))
}

/// One graded move as JSON, its values from White's side.
fn json_move(g: &Graded) -> String {
    let advice: Vec<String> = g
        .advice
        .iter()
        .map(|(m, s)| {
            format!(
                "{{\"move\":{},\"value\":{}}}",
                js(m),
                js_score(for_white(*s, g.mover), g.exact)
            )
        })
        .collect();
    format!(
        "{{\"ply\":{},\"side\":{},\"fen\":{},\"move\":{},\"before\":{},\"after\":{},\
         \"loss\":{},\"label\":{},\"glyph\":{},\"best\":{},\"line\":{},\"exact\":{},\
         \"exact_after\":{},\"kept\":{},\"advice\":[{}]}}",
        g.ply,
        js(g.mover),
        js(&g.fen),
        js(&g.played),
        js_score(for_white(g.before, g.mover), g.exact),
        js_score(for_white(g.after, g.mover), g.exact_after),
        g.lost,
        js(g.label.name()),
        js(g.label.glyph()),
        js(&g.best),
        js_list(&g.line),
        g.exact,
        g.exact_after,
        js_list(&g.kept),
        advice.join(",")
    )
}

/// Each side's summary as JSON.
pub(super) fn json_sides(graded: &[Graded]) -> String {
    let sides: Vec<String> = ["white", "black"]
        .iter()
        .map(|side| {
            let figures: Vec<String> = Summary::NAMES
                .iter()
                .zip(summary(graded, side).figures())
                .map(|(name, figure)| format!("{}:{figure}", js(name)))
                .collect();
            format!("{}:{{{}}}", js(side), figures.join(","))
        })
        .collect();
    format!("{{{}}}", sides.join(","))
}

/// The graded moves of a game as one JSON object (one line), values from White's side, with the
/// record's `tags`.
#[must_use]
pub fn json_game(graded: &[Graded], game: &Game, tags: &[(String, String)]) -> String {
    let moves: Vec<String> = graded.iter().map(json_move).collect();
    let tags: Vec<String> = tags
        .iter()
        .map(|(k, v)| format!("{}:{}", js(k), js(v)))
        .collect();
    let result = game.outcome().map_or("*", |o| o.score());
    format!(
        "{{\"values\":\"white\",\"result\":{},\"tags\":{{{}}},\"thresholds\":{{\"blunder\":{BLUNDER},\
         \"mistake\":{MISTAKE},\"inaccuracy\":{INACCURACY},\"loss_cap\":{LOSS_CAP}}},\
         \"sides\":{},\"moves\":[{}]}}",
        js(result),
        tags.join(","),
        json_sides(graded),
        moves.join(",")
    )
}

/// The first line of a list of moves: who is to move (the values are theirs), and the position
/// string.
fn to_move_line(pos: &Position) -> String {
    let side = pos.side_to_move().name();
    format!("{side} to move (values for {side}): {}", fen::write(pos))
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
            "{{\"fen\":{},\"side\":{},\"values\":{},\"nodes\":{},\"seconds\":{:.3},\"moves\":[{}]}}\n",
            js(&fen::write(pos)),
            js(pos.side_to_move().name()),
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
                    js_score(*s, false),
                    text.iter().map(|m| js(m)).collect::<Vec<_>>().join(",")
                )
            })
            .collect();
        return format!(
            "{{\"fen\":{},\"side\":{},\"values\":{},\"moves\":[{}]}}\n",
            js(&fen::write(pos)),
            js(pos.side_to_move().name()),
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
        assert_eq!(js("a\"b\n</"), "\"a\\\"b\\u000a\\u003c/\"");
    }
}
