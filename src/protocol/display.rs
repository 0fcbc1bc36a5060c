//! The pictures a person asks for: the `d` command (the board of `rules::diagram`, then the
//! state in words) and the `eval` command (each term for both sides).

use crate::engine::inventory::Evaluation;
use crate::engine::Settings;
use crate::rules::diagram::board_drawing;
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::search::eval;
use crate::search::eval::network::Network;

/// The `d` command: the board of `game`, then the state in words (the variant as `settings`
/// name it).
pub(super) fn board(game: &Game, settings: &Settings) -> Vec<String> {
    let pos = game.position();
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
            "{} ({}): {} on board, {} in hand",
            c.name(),
            c.symbol(),
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
        game.occurrences().max(1)
    ));
    let rules: Vec<String> = pos
        .rules()
        .options()
        .into_iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    lines.push(format!(
        "Rules: {} ({})",
        settings.value("Variant"),
        rules.join(" ")
    ));
    if let Some(o) = game.outcome() {
        lines.push(format!("Game over: {} {}", o.score(), o.describe()));
    }
    lines
}

/// The `eval` command's last line: the value of `pos` for the side to move by `network`, the
/// network in force, with `what` the engine says of its evaluation (which network, or why none).
pub(super) fn network_line(pos: &Position, network: Option<&Network>, what: &Evaluation) -> String {
    let us = pos.side_to_move().name();
    match network {
        Some(net) if net.serves(pos.rules()) => format!(
            "Network: {} for {us}, the search's evaluation at full strength ({what})",
            net.evaluate(pos)
        ),
        _ => format!("Network: none here, the search evaluates by hand ({what})"),
    }
}

/// The `eval` command: each term for both sides in `pos`, then the evaluation.
pub(super) fn terms(pos: &Position) -> Vec<String> {
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
    let learned_part = match weights.linear {
        Some(p) if pos.is_placing() => {
            let (learned, late) = p.placing(pos);
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
