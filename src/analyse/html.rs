//! `moulin analyse --html FILE`: one page that works offline (inline CSS and SVG, no script, no
//! font or image from the network): the game's moves with their labels, an SVG graph of the value
//! over the plies (from White's side), and an SVG board for each critical moment (a blunder or
//! a mistake), with the move played and the better one drawn as arrows.

use super::grade::{rank, shown, Graded, Label};
use crate::rules::board::{Color, Point};
use crate::rules::game::Game;
use crate::search::Score;

/// The most boards drawn (the worst moments first, then in game order).
const MOMENTS: usize = 8;

/// Text made safe inside HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page of a graded game, titled `title`.
#[must_use]
pub fn page(graded: &[Graded], game: &Game, title: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>\nbody{{font-family:sans-serif;margin:2em;max-width:60em;color:#222}}\n\
         .moves span{{display:inline-block;margin:0 .4em .2em 0}}\n\
         .blunder{{color:#fff;background:#c0392b;padding:0 .2em}}\n\
         .mistake{{color:#fff;background:#e67e22;padding:0 .2em}}\n\
         .inaccuracy{{background:#f7dc6f;padding:0 .2em}}\n\
         .moment{{display:inline-block;margin:1em 1em 0 0;vertical-align:top}}\n\
         figcaption{{max-width:20em}}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    ));
    let result = game.outcome().map_or("*".to_string(), |o| {
        format!("{} ({})", o.score(), o.describe())
    });
    out.push_str(&format!("<p>Result: {}</p>\n", esc(&result)));
    out.push_str("<h2>Moves</h2>\n<p class=\"moves\">");
    for g in graded {
        let number = match (g.mover == "white", g.ply == 1) {
            (true, _) => format!("{}. ", g.pos.fullmove()),
            (false, true) => format!("{}... ", g.pos.fullmove()),
            (false, false) => String::new(),
        };
        let class = match g.label {
            Label::Blunder | Label::Mistake | Label::Inaccuracy => g.label.name(),
            _ => "",
        };
        out.push_str(&format!(
            "<span class=\"{class}\" title=\"{} {} &#8594; {}, best {}\">{number}{}</span>",
            g.label.name(),
            esc(&shown(g.before)),
            esc(&shown(g.after)),
            esc(&g.best),
            esc(&g.played)
        ));
    }
    out.push_str("</p>\n<h2>Value</h2>\n");
    out.push_str(&graph(graded));
    out.push_str("\n<h2>Critical moments</h2>\n");
    let mut moments: Vec<&Graded> = graded
        .iter()
        .filter(|g| matches!(g.label, Label::Blunder | Label::Mistake))
        .collect();
    moments.sort_by_key(|g| rank(g.after) - rank(g.before));
    moments.truncate(MOMENTS);
    moments.sort_by_key(|g| g.ply);
    if moments.is_empty() {
        out.push_str("<p>No blunder and no mistake.</p>\n");
    }
    for g in moments {
        out.push_str(&format!(
            "<figure class=\"moment\">\n{}\n<figcaption>Ply {}, {} played <b>{}</b> ({} &#8594; {}, \
             a {}); better: <b>{}</b> ({}). Red: the move played; green: the better one.\
             </figcaption>\n</figure>\n",
            board(g),
            g.ply,
            g.mover,
            esc(&g.played),
            esc(&shown(g.before)),
            esc(&shown(g.after)),
            g.label.name(),
            esc(&g.best),
            esc(&g.line.join(" "))
        ));
    }
    out.push_str(
        "<p>Values: centi-pieces for the side that moved, or W/L n for a win or loss in n turns. \
         The graph shows them from White's side, clamped to &#177;10 pieces.</p>\n</body>\n</html>\n",
    );
    out
}

/// The value before each move, from White's side, clamped; wins at the edges.
fn white_value(g: &Graded) -> f64 {
    let v = match g.before {
        Score::Cp(c) => f64::from(c.clamp(-1000, 1000)),
        Score::Mate(m) if m > 0 => 1000.0,
        Score::Mate(_) => -1000.0,
    };
    if g.mover == "white" {
        v
    } else {
        -v
    }
}

/// The value graph: one point per ply, a line through them, the zero line, the critical plies
/// marked.
fn graph(graded: &[Graded]) -> String {
    let (w, h, pad) = (720.0, 240.0, 30.0);
    let n = graded.len().max(2) as f64;
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / (n - 1.0);
    let y = |v: f64| h / 2.0 - (h / 2.0 - pad) * v / 1000.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         role=\"img\" aria-label=\"value over the plies\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fafafa\" stroke=\"#ccc\"/>\n\
         <line x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n\
         <text x=\"4\" y=\"{}\" font-size=\"11\">+10</text><text x=\"4\" y=\"{}\" font-size=\"11\">-10</text>\n",
        h / 2.0,
        w - pad,
        h / 2.0,
        pad + 4.0,
        h - pad + 4.0
    );
    let points: Vec<String> = graded
        .iter()
        .enumerate()
        .map(|(i, g)| format!("{:.1},{:.1}", x(i), y(white_value(g))))
        .collect();
    svg.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#2c3e50\" stroke-width=\"2\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    for (i, g) in graded.iter().enumerate() {
        let colour = match g.label {
            Label::Blunder => "#c0392b",
            Label::Mistake => "#e67e22",
            _ => continue,
        };
        svg.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\"><title>ply {}: {} {}</title></circle>\n",
            x(i),
            y(white_value(g)),
            g.ply,
            esc(&g.played),
            g.label.name()
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{pad}\" y=\"{}\" font-size=\"11\">ply 1</text><text x=\"{}\" y=\"{}\" font-size=\"11\">ply {}</text>\n</svg>",
        h - 6.0,
        w - pad - 40.0,
        h - 6.0,
        graded.len()
    ));
    svg
}

/// The centre of a point on a board drawing of 7 x 7 cells of 40 units.
fn at(p: Point) -> (f64, f64) {
    let name = p.name().as_bytes();
    let file = f64::from(name[0] - b'a');
    let rank = f64::from(b'7' - name[1]);
    (30.0 + 40.0 * file, 30.0 + 40.0 * rank)
}

/// The board before the move, with the move played (red) and the better one (green).
fn board(g: &Graded) -> String {
    let pos = g.pos;
    let mut svg = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"300\" viewBox=\"0 0 300 300\" role=\"img\">\n\
         <defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>\n\
         <rect width=\"300\" height=\"300\" fill=\"#f3e2c0\"/>\n",
    );
    let topology = pos.rules().topology();
    for p in Point::all() {
        for q in topology.adjacent[p.index()] {
            if q > p {
                let ((x1, y1), (x2, y2)) = (at(p), at(q));
                svg.push_str(&format!(
                    "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#5d4037\" stroke-width=\"2\"/>\n"
                ));
            }
        }
    }
    for p in Point::all() {
        let (x, y) = at(p);
        let (r, fill) = match pos.color_at(p) {
            Some(Color::White) => (12, "#fdfdfd"),
            Some(Color::Black) => (12, "#222"),
            None => (4, "#5d4037"),
        };
        svg.push_str(&format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{fill}\" stroke=\"#222\"/>\n"
        ));
    }
    for (text, colour) in [(&g.played, "#c0392b"), (&g.best, "#27ae60")] {
        if let Ok(mv) = crate::rules::notation::parse_move(&pos, text) {
            svg.push_str(&arrow(mv, colour));
        }
    }
    for (i, f) in "abcdefg".chars().enumerate() {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"296\" font-size=\"10\" text-anchor=\"middle\">{f}</text>",
            30 + 40 * i
        ));
    }
    for (i, r) in "7654321".chars().enumerate() {
        svg.push_str(&format!(
            "<text x=\"6\" y=\"{}\" font-size=\"10\">{r}</text>",
            34 + 40 * i
        ));
    }
    svg.push_str("\n</svg>");
    svg
}

/// A move drawn: an arrow from where a piece moves (a ring where one is placed), a cross on each
/// removed piece.
fn arrow(mv: crate::rules::moves::Move, colour: &str) -> String {
    let mut out = String::new();
    if let Some(to) = mv.to() {
        let (x2, y2) = at(to);
        match mv.from() {
            Some(from) => {
                let (x1, y1) = at(from);
                out.push_str(&format!(
                    "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{colour}\" stroke-width=\"5\" \
                     stroke-opacity=\"0.8\" marker-end=\"url(#head)\"/>\n"
                ));
            }
            None => out.push_str(&format!(
                "<circle cx=\"{x2}\" cy=\"{y2}\" r=\"15\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"4\"/>\n"
            )),
        }
    }
    for r in mv.removals() {
        let (x, y) = at(r);
        out.push_str(&format!(
            "<path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"{colour}\" stroke-width=\"4\"/>\n",
            x - 9.0,
            y - 9.0,
            x + 9.0,
            y + 9.0,
            x - 9.0,
            y + 9.0,
            x + 9.0,
            y - 9.0
        ));
    }
    out
}
