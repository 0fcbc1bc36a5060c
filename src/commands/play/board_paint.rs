//! The board of `moulin play` as the person sees it: the drawing with the last move marked, in
//! colour when the terminal has it, and the state of the game under it.

use super::play_table::Table;
use moulin::rules::board::Color;
use moulin::rules::diagram::{board_drawing_from, drawing_cell};
use moulin::rules::notation::Convention;

/// The board and the state, as lines.
pub(super) fn picture(t: &Table) -> String {
    let pos = t.game.position();
    let mut out = String::new();
    for line in marked_board(t) {
        out.push_str(&paint(t.colour, &line));
        out.push('\n');
    }
    for c in [Color::White, Color::Black] {
        let clock = t.clocks.map_or(String::new(), |k| {
            let ms = k.left[c];
            format!(", clock {}:{:02}", ms / 60_000, ms / 1000 % 60)
        });
        out.push_str(&format!(
            "{} {}: {} on the board, {} in hand{clock}\n",
            c.symbol(),
            t.who(c),
            pos.on_board(c),
            pos.in_hand(c)
        ));
    }
    if let (Some(last), Some(before)) = (t.game.moves().last(), t.before.last()) {
        let text = last.written_at(before.position(), Convention::Turn);
        let removed: Vec<String> = last.removals().map(|p| p.name().to_string()).collect();
        let removal = if removed.is_empty() {
            String::new()
        } else {
            format!("; x where {} was removed", removed.join(", "))
        };
        out.push_str(&format!(
            "Last move: {} {text} (marked [ ] on the board{removal})\n",
            before.position().side_to_move().name()
        ));
    }
    if let Some(end) = t.over() {
        out.push_str(&format!(
            "Game over: {end}. Type new, undo, save FILE or quit.\n"
        ));
    } else {
        let side = pos.side_to_move();
        let what = if pos.in_hand(side) > 0 {
            "place a piece"
        } else {
            "move a piece"
        };
        out.push_str(&format!("{} to move: {what}\n", t.who(side)));
    }
    out
}

/// The board's drawing with the last move marked: its points in brackets (`[O]`, and `[.]`
/// where a piece stepped from), an `x` where it removed a piece.
pub(super) fn marked_board(t: &Table) -> Vec<String> {
    let mut lines: Vec<Vec<char>> = board_drawing_from(t.game.position(), t.flipped)
        .iter()
        .map(|l| l.chars().collect())
        .collect();
    let Some(last) = t.game.moves().last() else {
        return lines.into_iter().map(String::from_iter).collect();
    };
    // Each edit: a character put at an offset from the point's left neighbour.
    let mut mark = |p, edits: &[(usize, char)]| {
        let (row, col) = drawing_cell(p, t.flipped);
        let line = &mut lines[row];
        if line.len() < col + 2 {
            line.resize(col + 2, ' ');
        }
        for &(offset, c) in edits {
            line[col - 1 + offset] = c;
        }
    };
    for p in last.from().into_iter().chain(last.to()) {
        mark(p, &[(0, '['), (2, ']')]);
    }
    for p in last.removals() {
        mark(p, &[(1, 'x')]);
    }
    lines.into_iter().map(String::from_iter).collect()
}

/// Pieces and the last move's marks in colour when the terminal has it.
fn paint(colour: bool, line: &str) -> String {
    if !colour {
        return line.to_string();
    }
    let mut out = String::new();
    for ch in line.chars() {
        match ch {
            'O' => out.push_str("\x1b[1;33mO\x1b[0m"),
            '@' => out.push_str("\x1b[1;31m@\x1b[0m"),
            '[' | ']' => out.push_str(&format!("\x1b[1;36m{ch}\x1b[0m")),
            'x' => out.push_str("\x1b[1;35mx\x1b[0m"),
            c => out.push(c),
        }
    }
    out
}
