//! `moulin analyse --html FILE`: one page that works offline (its CSS and script written for
//! moulin and inlined, `page.css` and `page.js`; no font, image or address fetched): a board to
//! step through the game (the arrow keys, the move list, the graph), with the move played and the
//! best one drawn, an evaluation bar, the value graph from White's side, each side's summary, the
//! record's tags and a legend. The data of every step is embedded as JSON
//! (`<script id="analysis-data" type="application/json">`), which the script draws.
//!
//! One column on a phone (the board, the moves just under it, the move's detail, the summary),
//! two on a wider screen; every value in pieces, the bar and the graph on one fixed scale, the
//! winning chance (`exact_edge::Step::gauge`), exact values and the search's alike, with where
//! exact knowledge ends marked on the graph and a result it proved held past it.

use super::analyse_report::{number, to_json, white_values};
use super::exact_edge::{self, Edge, Step};
use super::grade::{for_white, points, shown_value, summary, Graded, Label};
use crate::rules::board::{Color, Point};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::Score;
use serde::Serialize;
use serde_json::value::RawValue;
use std::fmt::Write as _;

/// The page's style sheet.
const STYLE: &str = include_str!("page.css");
/// The page's script.
const SCRIPT: &str = include_str!("page.js");

/// The graph's width, height, margin and the height of each band of decided values.
const GRAPH: (f64, f64, f64, f64) = (720.0, 280.0, 34.0, 22.0);

/// Text made safe inside HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The steps of a graded game for the page: the start and the position after each move (`None`
/// for the start of a game without moves).
fn step_values(graded: &[Graded]) -> Vec<Option<Step>> {
    let steps = exact_edge::steps(graded);
    if steps.is_empty() {
        return vec![None];
    }
    steps.into_iter().map(Some).collect()
}

/// A step's value as the page writes it: the value, and the result held where one is.
fn step_text(v: Step) -> String {
    let shown = shown_value(v.score, v.exact);
    match v.held {
        Some(c) => format!("{shown} ({}'s win held)", exact_edge::winner(c)),
        None => shown,
    }
}

/// The graph's lines, in pieces either side of zero.
const GRAPH_LINES: [i32; 3] = [2, 5, 10];

/// The page of a graded game played from `start` to `game`, titled `title`, with the record's
/// `tags`.
#[must_use]
pub fn page(
    graded: &[Graded],
    start: &Game,
    game: &Game,
    title: &str,
    tags: &[(String, String)],
) -> String {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty() && *v != "?")
    };
    let players = match (tag("White"), tag("Black")) {
        (None, None) => "White vs Black".to_string(),
        (w, b) => format!(
            "{} (White) vs {} (Black)",
            w.unwrap_or("?"),
            b.unwrap_or("?")
        ),
    };
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        esc(title),
        esc(&players)
    );
    out.push_str(&header(tags, game));
    let values = step_values(graded);
    out.push_str("<div class=\"layout\">\n<div class=\"boardcol\">\n");
    // The value's text stands above the bar, beside no point of the board.
    out.push_str(
        "<div class=\"boardwrap\"><div id=\"evaltext\" title=\"the value of the position \
         shown, White's side, in pieces\"></div>\n\
         <div id=\"evalbar\" title=\"evaluation, White's side\"><div id=\"evalfill\"></div></div>\n\
         <svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 300 300\" \
         role=\"img\" aria-label=\"the board\"><defs>\
         <marker id=\"head-played\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"3\" \
         markerHeight=\"3\" orient=\"auto\"><path class=\"head-played\" d=\"M0,0L10,5L0,10z\"/></marker>\
         <marker id=\"head-best\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"3\" \
         markerHeight=\"3\" orient=\"auto\"><path class=\"head-best\" d=\"M0,0L10,5L0,10z\"/></marker>\
         </defs></svg></div>\n\
         <div id=\"nav\"><button data-go=\"first\" title=\"Home\">&#8676;</button> \
         <button data-go=\"back\" title=\"Left\">&#8592;</button> \
         <button data-go=\"next\" title=\"Right\">&#8594;</button> \
         <button data-go=\"end\" title=\"End\">&#8677;</button></div>\n\
         <div id=\"hands\"></div>\n</div>\n",
    );
    out.push_str(&move_list(graded));
    out.push_str("<div id=\"detail\"></div>\n");
    out.push_str(&summary_table(graded, tag("White"), tag("Black")));
    out.push_str("</div>\n<h2>Value</h2>\n");
    out.push_str(&graph(graded, &values));
    out.push_str(&legend());
    out.push_str(&format!(
        "<script id=\"analysis-data\" type=\"application/json\">{}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        data(graded, start, game, &values)
    ));
    out
}

/// The record's event, site, date and round, the variant, the start, and the result.
fn header(tags: &[(String, String)], game: &Game) -> String {
    let mut parts: Vec<String> = ["Event", "Site", "Date", "Round", "Variant"]
        .iter()
        .filter_map(|name| {
            tags.iter()
                .find(|(k, v)| k == name && !v.is_empty() && v != "?")
                .map(|(k, v)| format!("{k}: {}", esc(v)))
        })
        .collect();
    if tags.iter().any(|(k, _)| k == "FEN") {
        parts.push("from a set-up position".into());
    }
    let result = match game.outcome() {
        Some(o) => format!("{} ({})", o.score(), o.describe()),
        None => tags
            .iter()
            .find(|(k, _)| k == "Result")
            .map_or("*".into(), |(_, v)| v.clone()),
    };
    parts.push(format!("Result: <b>{}</b>", esc(&result)));
    format!("<p class=\"tags\">{}</p>\n", parts.join(" &middot; "))
}

/// Each side's counts of blunders, mistakes and inaccuracies, its average value lost and its
/// accuracy: a row a figure and a column a side, narrow enough for a phone.
fn summary_table(graded: &[Graded], white: Option<&str>, black: Option<&str>) -> String {
    let mut out = String::from("<table class=\"summary\"><tr><th></th>");
    for (side, name) in [("White", white), ("Black", black)] {
        let who = name.map_or(String::new(), |n| format!(" ({})", esc(n)));
        let _ = write!(
            out,
            "<th class=\"{}\">{side}{who}</th>",
            side.to_ascii_lowercase()
        );
    }
    out.push_str("</tr>\n");
    // Summary::figures' order.
    let figures = [summary(graded, "white"), summary(graded, "black")].map(|s| {
        let mut f = s.figures();
        f[4] = points(s.average_loss);
        f[5].push('%');
        f
    });
    let names = [
        "moves",
        "blunders ??",
        "mistakes ?",
        "inaccuracies ?!",
        "average chance lost (points)",
        "accuracy",
    ];
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><th>{name}</th><td>{}</td><td>{}</td></tr>",
            figures[0][i], figures[1][i]
        );
    }
    out.push_str("</table>\n");
    out
}

/// The moves, a row a move number, each move a link to its step, coloured by label and followed
/// by its glyph.
fn move_list(graded: &[Graded]) -> String {
    let mut out = String::from(
        "<div id=\"moves\" role=\"list\">\n<div class=\"row\"><span></span>\
         <span class=\"mv\" data-step=\"0\">start</span><span></span></div>\n",
    );
    let mut open = false;
    for g in graded {
        if g.mover == "white" || !open {
            if open {
                out.push_str("</div>\n");
            }
            let _ = write!(out, "<div class=\"row\"><span>{}.</span>", g.pos.fullmove());
            if g.mover == "black" {
                out.push_str("<span>&#8230;</span>");
            }
            open = true;
        }
        let class = match g.label {
            Label::Blunder | Label::Mistake | Label::Inaccuracy => g.label.name(),
            _ => "",
        };
        let (before, after) = white_values(g);
        let _ = write!(
            out,
            "<span class=\"mv {class}\" data-step=\"{}\" role=\"listitem\" title=\"{} {} &#8594; {}\">{}{}</span>",
            g.ply,
            g.label.name(),
            esc(&before),
            esc(&after),
            esc(&g.played),
            g.label.glyph()
        );
        if g.mover == "black" {
            out.push_str("</div>\n");
            open = false;
        }
    }
    if open {
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n");
    out
}

/// The value graph: a point a step from White's side on the fixed scale, the zero line and
/// lines at ±2, ±5 and ±10 pieces, ply ticks, decided values in a band of their own above and
/// below, a mark on each labelled move, and a strip a step to click.
fn graph(graded: &[Graded], values: &[Option<Step>]) -> String {
    let (w, h, pad, band) = GRAPH;
    let steps = values.len();
    let x = |i: usize| graph_x(i, steps);
    let at = |centi: i32| {
        graph_y(Step {
            score: Score::Cp(centi),
            exact: false,
            held: None,
        })
    };
    let mut svg = format!(
        "<svg id=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"value over the plies, White's side\">\n\
         <rect class=\"band\" x=\"{pad}\" y=\"{pad}\" width=\"{}\" height=\"{band}\"/>\
         <rect class=\"band\" x=\"{pad}\" y=\"{}\" width=\"{}\" height=\"{band}\"/>\n\
         <text class=\"tick\" x=\"{}\" y=\"{}\">White wins</text>\
         <text class=\"tick\" x=\"{}\" y=\"{}\">Black wins</text>\n",
        w - 2.0 * pad,
        h - pad - band,
        w - 2.0 * pad,
        pad + 4.0,
        pad + band / 2.0 + 4.0,
        pad + 4.0,
        h - pad - band / 2.0 + 4.0,
    );
    for line in GRAPH_LINES.iter().flat_map(|&p| [p, -p]) {
        let y = at(100 * line);
        let _ = writeln!(
            svg,
            "<line class=\"grid\" x1=\"{pad}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\"/>\
             <text class=\"tick\" x=\"2\" y=\"{:.1}\">{line:+}</text>",
            w - pad,
            y + 3.0,
        );
    }
    let zero = at(0);
    let _ = writeln!(
        svg,
        "<line class=\"zero\" x1=\"{pad}\" y1=\"{zero}\" x2=\"{}\" y2=\"{zero}\"/>\
         <text class=\"tick\" x=\"2\" y=\"{}\">0</text>",
        w - pad,
        zero + 3.0
    );
    svg.push_str(&graph_ticks(steps));
    svg.push_str(&graph_edges(values));
    svg.push_str(&graph_points(graded, values));
    for i in 0..steps {
        let _ = write!(
            svg,
            "<rect class=\"hit\" data-step=\"{i}\" x=\"{:.1}\" y=\"{pad}\" width=\"{:.1}\" height=\"{}\"><title>step {i}</title></rect>",
            x(i) - graph_step(steps) / 2.0,
            graph_step(steps),
            h - 2.0 * pad
        );
    }
    let _ = write!(
        svg,
        "\n<line id=\"cursor\" x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{}\"/>\n</svg>\n",
        h - pad
    );
    svg
}

/// The ply ticks under the graph: every 5, 10 or 20 plies by the game's length.
fn graph_ticks(steps: usize) -> String {
    let (_, h, pad, _) = GRAPH;
    let every = match steps {
        0..=40 => 5,
        41..=120 => 10,
        _ => 20,
    };
    let mut out = String::new();
    for i in (0..steps).step_by(every) {
        let x = graph_x(i, steps);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" y2=\"{}\"/>\
             <text class=\"tick\" x=\"{:.1}\" y=\"{}\">{i}</text>",
            h - pad,
            h - pad + 4.0,
            x - 4.0,
            h - pad + 15.0
        );
    }
    let _ = writeln!(
        out,
        "<text class=\"tick\" x=\"{}\" y=\"{}\">ply</text>",
        GRAPH.0 - pad + 4.0,
        h - pad + 15.0
    );
    out
}

/// Where exact knowledge ends (or starts again): a dashed line between the two steps, labelled.
fn graph_edges(values: &[Option<Step>]) -> String {
    let (_, h, pad, _) = GRAPH;
    let steps: Vec<Step> = values.iter().flatten().copied().collect();
    let mut out = String::new();
    for (s, edge) in exact_edge::edges(&steps) {
        let x = f64::midpoint(graph_x(s - 1, values.len()), graph_x(s, values.len()));
        let (class, words, title) = match edge {
            Edge::Ends => (
                "edge ends",
                "exact ends",
                format!(
                    "exact knowledge ends after ply {}: the search's values from here",
                    s - 1
                ),
            ),
            Edge::Starts => (
                "edge starts",
                "exact",
                format!("exact knowledge starts again after ply {s}"),
            ),
        };
        let _ = writeln!(
            out,
            "<g class=\"{class}\" data-ply=\"{s}\"><line x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" \
             y2=\"{}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{}\">{words}</text>\
             <title>{title}</title></g>",
            pad - 6.0,
            h - pad,
            x + 3.0,
            pad - 8.0,
        );
    }
    out
}

/// The line through the values on the one scale (a result held at its end), the search's own
/// values dotted where a result is held, a square on each exact value and each decided one, a
/// hollow one on each result held, a mark on each labelled move.
fn graph_points(graded: &[Graded], values: &[Option<Step>]) -> String {
    let steps = values.len();
    let point = |i: usize, v: Step| format!("{:.1},{:.1}", graph_x(i, steps), graph_y(v));
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| point(i, v)))
        .collect();
    let mut out = format!(
        "<polyline class=\"value\" points=\"{}\"/>\n",
        points.join(" ")
    );
    // The search's values where a result is held, from the last exact step on.
    let searched = |i: usize| {
        let v = values[i]?;
        let held = v.held.is_some() || values.get(i + 1).copied().flatten()?.held.is_some();
        held.then(|| point(i, Step { held: None, ..v }))
    };
    let mut run: Vec<String> = Vec::new();
    for i in 0..=steps {
        match (i < steps).then(|| searched(i)).flatten() {
            Some(p) => run.push(p),
            None if run.len() > 1 => {
                let _ = writeln!(
                    out,
                    "<polyline class=\"searched\" points=\"{}\"/>",
                    run.join(" ")
                );
                run.clear();
            }
            None => run.clear(),
        }
    }
    for (i, v) in values.iter().enumerate() {
        let Some(v) = *v else { continue };
        let (x, y) = (graph_x(i, steps), graph_y(v));
        if v.exact || v.decided() {
            let class = match (v.exact, v.held) {
                (true, _) => "exact",
                (false, Some(_)) => "held",
                (false, None) => "won",
            };
            let _ = write!(
                out,
                "<rect class=\"{class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"6\" height=\"6\"><title>{}</title></rect>",
                x - 3.0,
                y - 3.0,
                esc(&step_text(v))
            );
        }
    }
    for g in graded {
        let colour = match g.label {
            Label::Blunder => "#c0392b",
            Label::Mistake => "#e67e22",
            Label::Inaccuracy => "#d4ac0d",
            _ => continue,
        };
        let Some(v) = values[g.ply] else { continue };
        let _ = write!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{colour}\"><title>ply {}: {}{} {}</title></circle>",
            graph_x(g.ply, steps),
            graph_y(v),
            g.ply,
            esc(&g.played),
            g.label.glyph(),
            g.label.name()
        );
    }
    out.push('\n');
    out
}

/// The width of one step on the graph.
fn graph_step(steps: usize) -> f64 {
    let (w, _, pad, _) = GRAPH;
    (w - 2.0 * pad) / (steps.max(2) - 1) as f64
}

/// The graph's x of step `i` of `steps`.
fn graph_x(i: usize, steps: usize) -> f64 {
    GRAPH.2 + graph_step(steps) * i as f64
}

/// The graph's y of a value on the one scale: the winning chance, from the middle of the lower
/// band (Black wins, 0%) to the middle of the upper one (White wins, 100%).
fn graph_y(v: Step) -> f64 {
    let (_, h, pad, band) = GRAPH;
    let half = h / 2.0 - pad - band / 2.0;
    h / 2.0 - half * v.gauge()
}

/// What the colours, glyphs, arrows and values mean.
fn legend() -> String {
    use super::chance::{BLUNDER, INACCURACY, MISTAKE};
    format!(
        "<h2>Legend</h2>\n<div class=\"legend\"><p>Step through the game with the arrow keys \
         (Left, Right; Home and End for the start and the end), the buttons under the board, by \
         clicking a move, or by clicking the graph. The board shows the position after the move, \
         its files and ranks named on its margins; <span style=\"color:#1f6fb2\">\
         blue</span>: the move played (an arrow from where the piece came, a ring where it was \
         placed, a cross on the piece it removed); <span style=\"color:#27ae60\">green</span>: \
         the engine's best move there, when it is another.</p>\n\
         <p>A move is graded by the winning chance it gave away: the value before it against the \
         value after it, both by the search to one depth or both exact, in points of 100: \
         <span class=\"sw blunder\">blunder ??</span> {BLUNDER} points or more, or a win or draw \
         thrown away; <span class=\"sw mistake\">mistake ?</span> {MISTAKE} or more; \
         <span class=\"sw inaccuracy\">inaccuracy ?!</span> {INACCURACY} or more; good: less; \
         best: the engine's own choice; book: a move of the opening (imposed or from the book), \
         not graded.</p>\n\
         <p>Values are from White's side, in pieces (+1.00: White a piece ahead, as lichess counts \
         pawns; the search's value is the mean of its last two depths), or W n / L n for a win or \
         loss found by the search in n turns. Where moulin's endgame tables or opening's \
         solution know the position, its value is exact: win n, draw or loss n (n plies to the \
         next removal, where known), drawn as a square on the graph. The bar beside the board \
         and the graph share one scale, White's winning chance as lichess reckons it from a \
         value: +1 piece stands a fifth of the way up, +3 half way, a won game (exact or found) \
         in the band at the top, a lost one in the band at the bottom, an exact draw in the \
         middle; the graph's lines mark &#177;2, &#177;5 and &#177;10 pieces. A dashed upright \
         line marks where exact knowledge ends (exact ends) or starts again (exact). Past its \
         end, a win it proved is held in its band (hollow squares, the search's own values \
         dotted) while the winner gives away less than a mistake by the search.</p>\n\
         <p>Average chance lost: the points of winning chance a side's moves gave away, on \
         average. Accuracy: the average over a side's graded moves of lichess's 103.1668 \
         &#215; e<sup>&#8722;0.04354 &#215; lost</sup> &#8722; 3.1669, within 0 and 100 \
         (docs/play-and-analyse.md, \"Accuracy\").</p></div>\n"
    )
}

/// A move for the script: its text, the indexes of the points it moves from and to, and of
/// those it removes.
#[derive(Serialize)]
struct PageMove<'a> {
    text: &'a str,
    from: Option<usize>,
    to: Option<usize>,
    rem: Vec<usize>,
}

impl PageMove<'_> {
    fn new(mv: Move, text: &str) -> PageMove<'_> {
        PageMove {
            text,
            from: mv.from().map(Point::index),
            to: mv.to().map(Point::index),
            rem: mv.removals().map(Point::index).collect(),
        }
    }
}

/// One step for the script: the board (a letter a point: `w`, `b` or `.`), the pieces in hand,
/// a note, the value shown and where it stands on the bar.
#[derive(Serialize)]
struct PageStep {
    board: String,
    hand: [u8; 2],
    note: String,
    value: String,
    gauge: Box<RawValue>,
}

impl PageStep {
    fn new(pos: &Position, note: String, value: Option<Step>) -> PageStep {
        let board: String = Point::all()
            .map(|p| match pos.color_at(p) {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            })
            .collect();
        let (value, gauge) = value.map_or((String::new(), 0.0), |v| (step_text(v), v.gauge()));
        PageStep {
            board,
            hand: [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
            note,
            value,
            gauge: number(format!("{gauge:.4}")),
        }
    }
}

/// The data the script draws: the points (with their place on the drawing) and lines of the
/// board, every step, every ply, and where each step stands on the graph.
#[derive(Serialize)]
struct PageData<'a> {
    points: Vec<(u32, u32, &'static str)>,
    edges: Vec<[usize; 2]>,
    steps: Vec<PageStep>,
    plies: Vec<PagePly<'a>>,
    #[serde(rename = "graphX")]
    graph_x: Vec<Box<RawValue>>,
}

/// The data the script draws, as JSON.
fn data(graded: &[Graded], start: &Game, game: &Game, values: &[Option<Step>]) -> String {
    let points = Point::all()
        .map(|p| {
            let (x, y) = at(p);
            (x, y, p.name())
        })
        .collect();
    let topology = start.position().rules().topology();
    let mut edges = Vec::new();
    for p in Point::all() {
        for q in topology.adjacent[p.index()] {
            if q > p {
                edges.push([p.index(), q.index()]);
            }
        }
    }
    let to_move = |pos: &Position| format!("{} to move.", pos.side_to_move().name());
    let mut steps = vec![PageStep::new(
        start.position(),
        to_move(start.position()),
        values[0],
    )];
    for i in 0..graded.len() {
        let (pos, note) = match graded.get(i + 1) {
            Some(next) => (next.pos, to_move(&next.pos)),
            None => (
                *game.position(),
                game.outcome().map_or_else(
                    || to_move(game.position()),
                    crate::rules::position::Outcome::describe,
                ),
            ),
        };
        steps.push(PageStep::new(&pos, note, values[i + 1]));
    }
    to_json(&PageData {
        points,
        edges,
        steps,
        plies: graded.iter().map(PagePly::new).collect(),
        graph_x: (0..values.len())
            .map(|i| number(format!("{:.1}", graph_x(i, values.len()))))
            .collect(),
    })
}

/// One graded move for the script, its values from White's side as text; its advice as pairs
/// of a move and its value.
#[derive(Serialize)]
struct PagePly<'a> {
    ply: usize,
    side: &'a str,
    r#move: PageMove<'a>,
    best: Option<PageMove<'a>>,
    before: String,
    after: String,
    lost: String,
    label: &'a str,
    glyph: &'a str,
    line: &'a [String],
    kept: &'a [String],
    advice: Vec<(&'a str, String)>,
}

impl PagePly<'_> {
    fn new(g: &Graded) -> PagePly<'_> {
        let (before, after) = white_values(g);
        PagePly {
            ply: g.ply,
            side: g.mover,
            r#move: PageMove::new(g.mv, &g.played),
            best: g.best_mv.map(|b| PageMove::new(b, &g.best)),
            before,
            after,
            lost: points(g.lost),
            label: g.label.name(),
            glyph: g.label.glyph(),
            line: &g.line,
            kept: &g.kept,
            advice: g
                .advice
                .iter()
                .map(|(m, s)| {
                    (
                        m.as_str(),
                        shown_value(for_white(*s, g.mover), g.advice_exact),
                    )
                })
                .collect(),
        }
    }
}

/// The centre of a point on a board drawing of 7 x 7 cells of 40 units.
fn at(p: Point) -> (u32, u32) {
    let name = p.name().as_bytes();
    let file = u32::from(name[0] - b'a');
    let rank = u32::from(b'7' - name[1]);
    (30 + 40 * file, 30 + 40 * rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `centi` centi-pieces stand on the bar and the graph (`Step::gauge`).
    fn gauge_of(centi: i32) -> f64 {
        Step {
            score: Score::Cp(centi),
            exact: false,
            held: None,
        }
        .gauge()
    }

    #[test]
    fn the_scale_is_the_winning_chance() {
        // lichess's winning chances: +1 piece at 0.18, +3 at 0.50, decided games at the ends.
        assert!((gauge_of(100) - 0.1822).abs() < 1e-3);
        assert!((gauge_of(300) - 0.50).abs() < 5e-3);
        assert!((gauge_of(-300) + gauge_of(300)).abs() < 1e-12);
        assert!(gauge_of(1000) < 0.96);
        let won = Step {
            score: Score::Mate(3),
            exact: false,
            held: None,
        };
        assert!((won.gauge() - 1.0).abs() < 1e-12);
        // The graph's lines stand where the bar would put the same values; a win at the top.
        let y = |c| {
            graph_y(Step {
                score: Score::Cp(c),
                exact: false,
                held: None,
            })
        };
        assert!(graph_y(won) < y(1000) && y(1000) < y(500) && y(500) < y(200) && y(200) < y(0));
        assert!((y(0) - GRAPH.1 / 2.0).abs() < 1e-9);
    }
}
