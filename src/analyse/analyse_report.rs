//! The reports of an analysis: the graded game as a table or as JSON, and the moves of one
//! position with their values. JSON goes through serde (`to_json`, which the page's data uses
//! too).

use super::analyst::{Advice, ExactValues};
use super::chance::{BLUNDER, INACCURACY, MISTAKE};
use super::exact_edge::{self, Edge, Step};
use super::grade::{
    for_white, line_text, points, shown_exact, shown_value, summary, Graded, Label, Summary,
};
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::Score;
use crate::text::count;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};
use serde_json::value::RawValue;
use std::io;

/// The graded moves of a game as a table (values from White's side), where exact knowledge ends
/// and starts again said between the rows, then each side's summary, the result, and a legend;
/// `budget` says how the positions were searched (`Analyst::budget`).
#[must_use]
pub fn text_game(graded: &[Graded], game: &Game, budget: &str) -> String {
    let mut out = String::from(
        "values from White's side\n\
         ply  side   move          before    after   lost  label          best (line)\n",
    );
    let steps = exact_edge::steps(graded);
    let edges = exact_edge::edges(&steps);
    for g in graded {
        for &(_, edge) in edges.iter().filter(|e| e.0 == g.ply) {
            out.push_str(&exact_edge::edge_line(&steps, g.ply, edge, budget));
            out.push('\n');
        }
        out.push_str(&row(g, &steps[g.ply]));
    }
    for side in ["white", "black"] {
        out.push_str(&side_line(side, &summary(graded, side)));
    }
    if let Some(o) = game.outcome() {
        out.push_str(&format!("{} {}\n", o.score(), o.describe()));
    }
    out.push_str(&format!(
        "values from White's side, in pieces (+1.00: White a piece ahead), or W/L n for a \
         win/loss in n turns found by the search, the search's value being the mean of its last \
         two depths; exact ones (the endgame tables, the placing solution) as win n, draw, loss n \
         (n plies to the next removal where known), marked [exact]; lost: the winning chance the \
         move gave away, in points of 100 (lichess's winning chances of a value, a piece counted \
         as a pawn; a win 100, a loss 0, an exact draw 50), the value before it against the value \
         after it, both the search's to one depth or both exact; labels by the chance lost: \
         blunder ?? {BLUNDER}+ (or a win or draw thrown away), mistake ? {MISTAKE}+, inaccuracy \
         ?! {INACCURACY}+; [... win held]: past the end of exact knowledge, the win it proved, \
         kept on the graph; book: a move of the record's opening or of moulin's opening book, not \
         graded; accuracy: docs/play-and-analyse.md\n",
    ));
    out
}

/// One move's row of the table; `after` is the step the move reached.
fn row(g: &Graded, after: &Step) -> String {
    let best = if matches!(g.label, Label::Best | Label::Book) {
        String::new()
    } else if !g.kept.is_empty() {
        format!("kept by {}", g.kept.join(" "))
    } else {
        format!("{} ({})", g.best, g.line.join(" "))
    };
    let (before, after_text) = white_values(g);
    let label = format!("{} {}", g.label.name(), g.label.glyph());
    let lost = match g.compared {
        Some(_) => points(g.lost),
        None => "-".into(),
    };
    let held = after.held.map_or(String::new(), |c| {
        format!(" [{}'s win held]", exact_edge::winner(c))
    });
    format!(
        "{:>3}  {:<5}  {:<12}  {:>7}  {:>7}  {:>5}  {:<13}  {}{}{held}\n",
        g.ply,
        g.mover,
        g.played,
        before,
        after_text,
        lost,
        label.trim_end(),
        best,
        if g.exact { " [exact]" } else { "" }
    )
}

/// One side's summary line: its graded moves, its labels counted, the average value lost and the
/// accuracy; its book moves, when it has some.
fn side_line(side: &str, s: &Summary) -> String {
    let book = if s.book > 0 {
        format!(
            " (and {} not graded)",
            count(s.book, "book move", "book moves")
        )
    } else {
        String::new()
    };
    format!(
        "{side}: {} graded{book}: {}, {}, {}; {} points of winning chance lost a move on \
         average, accuracy {:.1}%\n",
        count(s.moves, "move", "moves"),
        count(s.blunders, "blunder", "blunders"),
        count(s.mistakes, "mistake", "mistakes"),
        count(s.inaccuracies, "inaccuracy", "inaccuracies"),
        points(s.average_loss),
        s.accuracy
    )
}

/// A move's values before and after it, from White's side, as people read them.
#[must_use]
pub fn white_values(g: &Graded) -> (String, String) {
    (
        shown_value(for_white(g.before, g.mover), g.exact),
        shown_value(for_white(g.after, g.mover), g.exact_after),
    )
}

/// `serde_json`'s writing with `<` written `\u003c`, which keeps the text inert inside an HTML
/// script element, and control characters as `\u00XX`: the escapes the reports have always had.
struct Inert;

impl Formatter for Inert {
    fn write_string_fragment<W>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()>
    where
        W: ?Sized + io::Write,
    {
        let mut parts = fragment.split('<');
        writer.write_all(parts.next().unwrap_or("").as_bytes())?;
        for part in parts {
            writer.write_all(b"\\u003c")?;
            writer.write_all(part.as_bytes())?;
        }
        Ok(())
    }

    fn write_char_escape<W>(&mut self, writer: &mut W, escape: CharEscape) -> io::Result<()>
    where
        W: ?Sized + io::Write,
    {
        let byte = match escape {
            CharEscape::Quote => return writer.write_all(b"\\\""),
            CharEscape::ReverseSolidus => return writer.write_all(b"\\\\"),
            CharEscape::Solidus => return writer.write_all(b"/"),
            CharEscape::Backspace => 0x08,
            CharEscape::Tab => 0x09,
            CharEscape::LineFeed => 0x0a,
            CharEscape::FormFeed => 0x0c,
            CharEscape::CarriageReturn => 0x0d,
            CharEscape::AsciiControl(byte) => byte,
        };
        write!(writer, "\\u{byte:04x}")
    }
}

/// `value` as JSON on one line (`Inert`'s escapes).
pub(super) fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    value
        .serialize(&mut serde_json::Serializer::with_formatter(&mut out, Inert))
        .expect("the reports' values serialize");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// A number written as the reports round it (`12.5`, `0.2500`), kept as written; `null` where
/// it is not a number.
pub(super) fn number(text: String) -> Box<RawValue> {
    RawValue::from_string(text).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// A score as JSON: `{"cp": n}` or `{"win": n}` (negative: a loss) found by search; exact:
/// `{"exact": "win"|"draw"|"loss", "distance": n}` (the distance where the tables give it).
#[derive(Serialize)]
#[serde(untagged)]
enum JsonScore {
    Cp {
        cp: i32,
    },
    Win {
        win: i32,
    },
    Exact {
        exact: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        distance: Option<Box<RawValue>>,
    },
}

impl JsonScore {
    fn new(s: Score, exact: bool) -> JsonScore {
        if exact {
            let shown = shown_exact(s);
            let mut words = shown.split(' ');
            let word = words.next().unwrap_or("draw").to_string();
            return JsonScore::Exact {
                exact: word,
                distance: words.next().map(|d| number(d.to_string())),
            };
        }
        match s {
            Score::Cp(cp) => JsonScore::Cp { cp },
            Score::Mate(win) => JsonScore::Win { win },
        }
    }
}

/// A move with its value.
#[derive(Serialize)]
struct MoveValue<M, V> {
    r#move: M,
    value: V,
}

/// One graded move as JSON, its values from White's side.
#[derive(Serialize)]
struct JsonMove<'a> {
    ply: usize,
    side: &'a str,
    fen: &'a str,
    r#move: &'a str,
    before: JsonScore,
    after: JsonScore,
    loss: Box<RawValue>,
    label: &'a str,
    glyph: &'a str,
    best: &'a str,
    line: &'a [String],
    exact: bool,
    exact_after: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    held: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_value: Option<JsonScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    move_value: Option<JsonScore>,
    kept: &'a [String],
    advice: Vec<MoveValue<&'a str, JsonScore>>,
}

impl JsonMove<'_> {
    /// The move `g`, `after` the step it reached.
    fn new(g: &Graded, after: Step) -> JsonMove<'_> {
        JsonMove {
            ply: g.ply,
            side: g.mover,
            fen: &g.fen,
            r#move: &g.played,
            before: JsonScore::new(for_white(g.before, g.mover), g.exact),
            after: JsonScore::new(for_white(g.after, g.mover), g.exact_after),
            loss: number(points(g.lost)),
            label: g.label.name(),
            glyph: g.label.glyph(),
            best: &g.best,
            line: &g.line,
            exact: g.exact,
            exact_after: g.exact_after,
            held: after.held.map(|c| if c > 0 { "white" } else { "black" }),
            best_value: g
                .compared
                .map(|c| JsonScore::new(for_white(c.best, g.mover), c.best_exact)),
            move_value: g
                .compared
                .map(|c| JsonScore::new(for_white(c.played, g.mover), c.played_exact)),
            kept: &g.kept,
            advice: g
                .advice
                .iter()
                .map(|(m, s)| MoveValue {
                    r#move: m.as_str(),
                    value: JsonScore::new(for_white(*s, g.mover), g.advice_exact),
                })
                .collect(),
        }
    }
}

/// Each side's summary, by side: its figures by name (`Summary::NAMES`).
pub(super) struct Sides<'a>(pub(super) &'a [Graded]);

impl Serialize for Sides<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut sides = serializer.serialize_map(Some(2))?;
        for side in ["white", "black"] {
            let s = summary(self.0, side);
            let mut figures: Vec<(&str, Box<RawValue>)> = Summary::NAMES
                .iter()
                .copied()
                .zip(s.figures().map(number))
                .collect();
            figures.push(("book", number(s.book.to_string())));
            sides.serialize_entry(side, &Pairs(&figures))?;
        }
        sides.end()
    }
}

/// Pairs of names and values as one JSON object, in their order (a record's tags).
struct Pairs<'a, K, V>(&'a [(K, V)]);

impl<K: Serialize, V: Serialize> Serialize for Pairs<'_, K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The thresholds of the labels, in points of winning chance.
#[derive(Serialize)]
struct Thresholds {
    blunder: f64,
    mistake: f64,
    inaccuracy: f64,
}

/// Where exact knowledge ends or starts again: the position after ply `ply` (0: the start) is
/// the first past the edge.
#[derive(Serialize)]
struct JsonEdge {
    ply: usize,
    exact: &'static str,
}

/// The graded game as JSON.
#[derive(Serialize)]
struct JsonGame<'a> {
    values: &'static str,
    result: &'a str,
    tags: Pairs<'a, String, String>,
    thresholds: Thresholds,
    edges: Vec<JsonEdge>,
    sides: Sides<'a>,
    moves: Vec<JsonMove<'a>>,
}

/// The graded moves of a game as one JSON object (one line), values from White's side, with the
/// record's `tags`.
#[must_use]
pub fn json_game(graded: &[Graded], game: &Game, tags: &[(String, String)]) -> String {
    let steps = exact_edge::steps(graded);
    to_json(&JsonGame {
        values: "white",
        result: game.outcome().map_or("*", |o| o.score()),
        tags: Pairs(tags),
        thresholds: Thresholds {
            blunder: BLUNDER,
            mistake: MISTAKE,
            inaccuracy: INACCURACY,
        },
        edges: exact_edge::edges(&steps)
            .into_iter()
            .map(|(s, e)| JsonEdge {
                ply: s,
                exact: match e {
                    Edge::Ends => "ends",
                    Edge::Starts => "starts",
                },
            })
            .collect(),
        sides: Sides(graded),
        moves: graded
            .iter()
            .map(|g| JsonMove::new(g, steps[g.ply]))
            .collect(),
    })
}

/// The moves of one position as JSON: the position, whose side the values are for, and the
/// moves; the solver's work where it valued them.
#[derive(Serialize)]
struct PositionMoves<'a, M> {
    fen: String,
    side: &'a str,
    values: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<Box<RawValue>>,
    moves: Vec<M>,
}

/// A move valued by search, with its line.
#[derive(Serialize)]
struct AdvisedMove {
    r#move: String,
    value: JsonScore,
    line: Vec<String>,
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
        let side = pos.side_to_move().name();
        let moves: Vec<MoveValue<String, &str>> = valued
            .iter()
            .map(|&(mv, v)| MoveValue {
                r#move: mv.written_at(pos, Convention::Turn),
                value: name(v),
            })
            .collect();
        return to_json(&PositionMoves {
            fen: fen::write(pos),
            side,
            values: side,
            nodes: Some(*nodes),
            seconds: Some(number(format!("{secs:.3}"))),
            moves,
        }) + "\n";
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

/// The moves of a position valued by search (or exactly), best first, each with its line: as
/// lines of text (the position, a line a move), or as one JSON object (one line).
#[must_use]
pub fn advice(advice: &Advice, json: bool) -> String {
    let Advice {
        position: pos,
        lines,
        exact,
    } = advice;
    if json {
        let side = pos.side_to_move().name();
        let moves: Vec<AdvisedMove> = lines
            .iter()
            .map(|(s, pv)| {
                let line = line_text(pos, pv);
                AdvisedMove {
                    r#move: line.first().cloned().unwrap_or_default(),
                    value: JsonScore::new(*s, *exact),
                    line,
                }
            })
            .collect();
        return to_json(&PositionMoves {
            fen: fen::write(pos),
            side,
            values: side,
            nodes: None,
            seconds: None,
            moves,
        }) + "\n";
    }
    let mut out = format!("{}\n", to_move_line(pos));
    for (s, pv) in lines {
        let text = line_text(pos, pv);
        out.push_str(&format!(
            "{:<12}  {:>6}  {}\n",
            text.first().map_or("", String::as_str),
            shown_value(*s, *exact),
            text[1..].join(" ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::grade::shown;
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(to_json("a\"b\n</"), "\"a\\\"b\\u000a\\u003c/\"");
    }

    #[test]
    fn values_read_in_pieces_and_decided_games_as_wins() {
        assert_eq!(shown(Score::Cp(35)), "+0.35");
        assert_eq!(shown(Score::Cp(-120)), "-1.20");
        assert_eq!(shown(Score::Cp(0)), "0.00");
        assert_eq!(shown(Score::Mate(3)), "W3");
        assert_eq!(shown(Score::Mate(-2)), "L2");
        // A win the tables prove, met by the search: a win, not 280 pieces.
        let table_win = Score::Cp(crate::search::TABLE_WIN - 12);
        assert_eq!(shown(table_win), "win 12");
        assert_eq!(points(12.345), "12.3");
    }
}
