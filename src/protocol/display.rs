//! The pictures a person asks for: the `d` command (the board drawn from the rules' own
//! adjacency table, then the state in words) and the `eval` command (each term for both sides).

use super::session::Session;
use crate::rules::board::{BoardKind, Point};
use crate::rules::fen;
use crate::rules::position::Position;
use crate::search::eval;

impl Session {
    /// The `d` command: the board, then the state in words.
    pub(super) fn display(&self) -> Vec<String> {
        let pos = self.game.position();
        let mut lines = board_drawing(pos);
        let text = fen::write(pos);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let field = |i: usize| fields.get(i).copied().unwrap_or("?");
        let phase = match field(2) {
            "p" => "placing",
            "m" => "moving",
            _ => "game over",
        };
        let action = match field(3) {
            "p" => "place".to_string(),
            "s" => "move".to_string(),
            _ => format!("remove ({} pending)", pos.pending_removals()),
        };
        let side = pos.side_to_move();
        lines.push(String::new());
        lines.push(format!("Position: {text}"));
        lines.push(format!("Side to move: {}", side.name()));
        lines.push(format!("Phase: {phase}, action: {action}"));
        for c in [side, !side] {
            lines.push(format!(
                "{}: {} on board, {} in hand",
                c.name(),
                pos.on_board(c),
                pos.in_hand(c)
            ));
        }
        lines.push(format!(
            "No-capture plies: {} (draw at {}); move number {}; seen {} time(s)",
            pos.no_capture_plies(),
            pos.rules()
                .no_capture
                .map_or("never".to_string(), |n| n.to_string()),
            pos.fullmove(),
            self.game.occurrences().max(1)
        ));
        let rules: Vec<String> = pos
            .rules()
            .options()
            .into_iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        lines.push(format!(
            "Rules: {} ({})",
            self.settings.value("Variant"),
            rules.join(" ")
        ));
        if let Some(o) = self.game.outcome() {
            lines.push(format!("Game over: {} {}", o.score(), o.describe()));
        }
        lines
    }

    /// The `eval` command: each term for both sides, then the evaluation.
    pub(super) fn eval(&self) -> Vec<String> {
        let pos = self.game.position();
        let us = pos.side_to_move();
        let weights = eval::Weights::DEFAULT.for_rules(pos.rules());
        let (white, black) = (
            eval::terms(pos, crate::Color::White, &weights),
            eval::terms(pos, crate::Color::Black, &weights),
        );
        let mut lines = vec![format!("{:<16}{:>8}{:>8}", "term", "white", "black")];
        for ((name, w), (_, b)) in white.named().into_iter().zip(black.named()) {
            lines.push(format!("{name:<16}{w:>8}{b:>8}"));
        }
        lines.push(format!(
            "{:<16}{:>8}{:>8}",
            "total",
            white.total(),
            black.total()
        ));
        let flies = pos.can_fly(us) || pos.can_fly(!us);
        let learned_part = match weights.placing {
            Some(p) if pos.is_placing() => {
                let (learned, late) = p.learned(pos);
                Some((p, format!(
                    "Learned placing evaluation ({}): {learned} for {}, late correction {late}; hand-written: {}",
                    p.weights.variant,
                    us.name(),
                    eval::hand_written(pos, &weights)
                )))
            }
            Some(p) if p.weights.has_moving() && !flies => Some((
                p,
                format!(
                    "Learned moving correction ({}): {} for {}{}, added to the hand-written {}",
                    p.weights.variant,
                    p.moving(pos),
                    us.name(),
                    match eval::moving_share(pos, p.weights.moving_fade) {
                        (share, whole) if share < whole => format!(" ({share}/{whole} of it)"),
                        _ => String::new(),
                    },
                    eval::hand_written(pos, &weights)
                ),
            )),
            _ => None,
        };
        if let Some((p, text)) = learned_part {
            let [w_in, b_in] = eval::both_inputs(pos, crate::Color::White, &p.by_degree);
            lines.push(text);
            lines.push(format!("{:<16}{:>8}{:>8}", "input", "white", "black"));
            for (i, name) in eval::INPUT_NAMES.iter().enumerate() {
                lines.push(format!("{name:<16}{:>8}{:>8}", w_in[i], b_in[i]));
            }
        }
        lines.push(format!(
            "Evaluation: {} for {} (the side to move, tempo {} included)",
            eval::evaluate(pos, &weights),
            us.name(),
            weights.tempo
        ));
        lines
    }
}

/// The board of RULES.md §1 with the pieces (`O` white, `@` black, `.` empty), drawn from the
/// rules' own adjacency table so that the diagonal board shows its diagonals. Files a-g run every
/// 4 columns, ranks 7-1 every 2 rows.
pub fn board_drawing(pos: &Position) -> Vec<String> {
    board_drawing_from(pos, false)
}

/// The board seen from White's side, or from Black's (`flipped`: turned half a turn, rank 1 at
/// the top and file g on the left).
pub fn board_drawing_from(pos: &Position, flipped: bool) -> Vec<String> {
    pub(super) const W: usize = 25;
    pub(super) const H: usize = 13;
    let mut grid = [[b' '; W]; H];
    let at = |p: Point| {
        let name = p.name().as_bytes();
        let (file, rank) = if flipped {
            (b'g' - name[0], name[1] - b'1')
        } else {
            (name[0] - b'a', b'7' - name[1])
        };
        (rank as usize * 2, file as usize * 4)
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
                let (r, c) = ((r1 + r2) / 2, (c1 + c2) / 2);
                let falling = (r2 > r1) == (c2 > c1);
                grid[r][c] = if falling { b'\\' } else { b'/' };
            }
        }
    }
    for p in Point::all() {
        let (r, c) = at(p);
        grid[r][c] = match pos.color_at(p) {
            Some(crate::Color::White) => b'O',
            Some(crate::Color::Black) => b'@',
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
