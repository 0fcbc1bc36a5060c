//! The board as text: the points of the board's own adjacency table drawn on a grid of files
//! a-g and ranks 1-7, with the pieces on them, for the `d` command and the terminal game.

use crate::rules::board::{BoardKind, Point};
use crate::rules::position::Position;

/// The board of docs/rules.md, "Board" with the pieces (`O` white, `@` black, `.` empty), drawn
/// from the rules' own adjacency table so that the diagonal board shows its diagonals. Files a-g
/// run every 4 columns, ranks 7-1 every 2 rows.
pub fn board_drawing(pos: &Position) -> Vec<String> {
    board_drawing_from(pos, false)
}

/// The width of the rank label before each line of the drawing.
const LABEL: usize = 3;

/// Where `board_drawing_from(_, flipped)` draws point `p`: its line, and its column in that line
/// in characters (the rank label counted), for marking points on the drawing.
pub fn drawing_cell(p: Point, flipped: bool) -> (usize, usize) {
    let name = p.name().as_bytes();
    let (file, rank) = if flipped {
        (b'g' - name[0], name[1] - b'1')
    } else {
        (name[0] - b'a', b'7' - name[1])
    };
    (usize::from(rank) * 2, usize::from(file) * 4 + LABEL)
}

/// The board seen from White's side, or from Black's (`flipped`: turned half a turn, rank 1 at
/// the top and file g on the left).
pub fn board_drawing_from(pos: &Position, flipped: bool) -> Vec<String> {
    const W: usize = 25;
    const H: usize = 13;
    let mut grid = [[b' '; W]; H];
    let at = |p: Point| {
        let (line, column) = drawing_cell(p, flipped);
        (line, column - LABEL)
    };
    let topology = pos.rules().topology();
    for p in Point::all() {
        for q in topology.adjacent[p.index()] {
            if q <= p {
                continue;
            }
            let ((r1, c1), (r2, c2)) = (at(p), at(q));
            if r1 == r2 {
                for cell in &mut grid[r1][c1.min(c2) + 1..c1.max(c2)] {
                    *cell = b'-';
                }
            } else if c1 == c2 {
                for row in &mut grid[r1.min(r2) + 1..r1.max(r2)] {
                    row[c1] = b'|';
                }
            } else {
                // A diagonal: one stroke halfway.
                let (r, c) = (usize::midpoint(r1, r2), usize::midpoint(c1, c2));
                let falling = (r2 > r1) == (c2 > c1);
                grid[r][c] = if falling { b'\\' } else { b'/' };
            }
        }
    }
    for p in Point::all() {
        let (r, c) = at(p);
        grid[r][c] = match pos.color_at(p) {
            Some(c) => c.symbol() as u8,
            None => b'.',
        };
    }
    let mut lines: Vec<String> = grid
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let label = match (r % 2 == 0, flipped) {
                (false, _) => ' ',
                (true, false) => char::from(b'7' - r as u8 / 2),
                (true, true) => char::from(b'1' + r as u8 / 2),
            };
            format!("{label}  {}", String::from_utf8_lossy(row).trim_end())
        })
        .collect();
    lines.push(if flipped {
        "   g   f   e   d   c   b   a".into()
    } else {
        "   a   b   c   d   e   f   g".into()
    });
    if pos.rules().board == BoardKind::Diagonal {
        lines.push("   (diagonal board)".into());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::Rules;

    #[test]
    fn board_drawing_shows_pieces_and_lines() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["a7", "g1"]).unwrap();
        let lines = board_drawing(game.position());
        assert_eq!(lines[0], "7  O-----------.-----------.");
        assert_eq!(lines[12], "1  .-----------.-----------@");
        assert_eq!(lines[6], "4  .---.---.       .---.---.");
        assert!(lines.iter().all(|l| !l.contains('\\')));
        let twelve = Game::new(Rules::preset("twelve").unwrap());
        let lines = board_drawing(twelve.position());
        assert_eq!(lines[1], "   | \\         |         / |");
        let flipped = board_drawing_from(game.position(), true);
        assert_eq!(flipped[0], "1  @-----------.-----------.");
        assert_eq!(flipped[12], "7  .-----------.-----------O");
        assert_eq!(flipped[13], "   g   f   e   d   c   b   a");
    }
}
