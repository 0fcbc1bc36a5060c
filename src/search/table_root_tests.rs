//! The search where the endgame tables cover the root but the no-capture rule leaves some of its
//! moves' values open: it never gives a drawn position away.

use super::{Options, Searcher};
use crate::rng::Rng;
use crate::rules::fen;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::tables::{sample, Tables, Value};

/// Drawn positions of 3 and 4 a side (by the tables, without draw rules) under a no-capture rule
/// of 20 plies, where some move loses by the tables but the rule leaves that loss undecided.
fn drawn_with_open_losses(tables: &Tables, rules: &Rules) -> Vec<Position> {
    let mut rng = Rng::new(34);
    let mut out = Vec::new();
    for s in sample::sample(tables, &Rules::nine(), 400, false, &mut rng) {
        let pos = fen::read(&s.fen, rules).expect("a sampled position");
        if s.value != Value::Draw {
            continue;
        }
        let open_loss = movegen::legal_moves(&pos, Convention::Turn)
            .iter()
            .any(|&mv| {
                let mut child = pos;
                child.play(mv);
                child.quick_outcome().is_none()
                    && matches!(tables.probe(&child), Some(Value::Win(_)))
                    && tables.probe_in_game(&child).is_none()
            });
        if open_loss {
            out.push(pos);
        }
    }
    out
}

#[test]
fn a_drawn_position_is_never_given_away_for_a_loss_the_draw_rules_leave_open() {
    // The tables up to 4 a side the exact solver's tests share (draw rules play no part in
    // them).
    let tables = crate::search::exact::testing::tables().clone();
    let mut rules = Rules::nine();
    rules.set("NoCapture", "20").expect("a no-capture rule");
    let positions = drawn_with_open_losses(&tables, &rules);
    assert!(positions.len() >= 50, "{} positions", positions.len());
    let mut searcher = Searcher::new(4, 1);
    searcher.options = Options {
        tables: Some(tables.clone()),
        ..Options::default()
    };
    let mut given_away = Vec::new();
    for pos in &positions {
        searcher.new_game();
        for depth in [1, 4] {
            let best = searcher
                .search_to_depth(pos, depth, Vec::new())
                .best
                .expect("a move");
            let mut child = *pos;
            child.play(best);
            let kept = child.quick_outcome().is_some_and(|o| o.winner().is_none())
                || tables.probe(&child) == Some(Value::Draw);
            if !kept {
                given_away.push(format!("{} at depth {depth}: {best}", fen::write(pos)));
            }
        }
    }
    assert!(given_away.is_empty(), "{given_away:#?}");
}
