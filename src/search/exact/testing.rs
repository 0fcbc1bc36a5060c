//! What the tests of the solver and of its users share: small tables and placing positions
//! they cover.

use crate::rng::Rng;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::Tables;
use std::sync::Arc;

/// The tables up to 4 a side of the standard game (no draw rules), built once.
pub(crate) fn tables() -> &'static Arc<Tables> {
    crate::tables::scratch::four_a_side()
}

/// The start of the standard game with four pieces a side (no draw rules): its whole placing
/// ends in the tables of `tables`.
pub(crate) fn start_of_four() -> Position {
    let mut rules = Rules::nine().without_draw_rules();
    rules
        .set("Pieces", "4")
        .expect("the standard game with 4 pieces a side");
    Position::start(rules)
}

/// Placing positions whose ends fit in the tables: 3 or 4 pieces a side in all, 2 to 4 of
/// them still in hand, drawn at random (`count` of them).
pub(crate) fn placing_positions(count: usize, seed: u64) -> Vec<Position> {
    placing_positions_left(count, seed, 2, 4)
}

/// The same with `fewest` to `most` placements left (at most 6).
pub(crate) fn placing_positions_left(
    count: usize,
    seed: u64,
    fewest: usize,
    most: usize,
) -> Vec<Position> {
    let rules = Rules::nine().without_draw_rules();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        // White's turn when the placements left are even, as in a game.
        let left = fewest + rng.below(most - fewest + 1);
        let side = if left.is_multiple_of(2) { 'w' } else { 'b' };
        let (white_hand, black_hand) = (left / 2, left.div_ceil(2));
        let white_on = 3 + rng.below(2) - white_hand;
        let black_on = 3 + rng.below(2) - black_hand;
        let mut cells = ['*'; 24];
        let mut free: Vec<usize> = (0..24).collect();
        for (n, c) in [(white_on, 'O'), (black_on, '@')] {
            for _ in 0..n {
                let i = free.swap_remove(rng.below(free.len()));
                cells[i] = c;
            }
        }
        let rings: Vec<String> = cells.chunks(8).map(|r| r.iter().collect()).collect();
        let text = format!(
            "{} {side} p p {white_on} {} {black_on} {} 0 0 -1 -1 -1 -1 0 0 5",
            rings.join("/"),
            white_hand,
            black_hand
        );
        let Ok(pos) = crate::rules::fen::read(&text, &rules) else {
            continue;
        };
        if pos.is_placing() && pos.quick_outcome().is_none() {
            out.push(pos);
        }
    }
    out
}
