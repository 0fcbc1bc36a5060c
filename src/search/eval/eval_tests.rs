use super::*;
use crate::rng::Rng;
use crate::rules::board::Color;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::{Flying, Rules};

/// The linear terms of `rules` with the weights `weights`, and the evaluation weights that
/// use them.
fn with_weights(weights: &'static LinearWeights, rules: &Rules) -> (LinearTerms, Weights) {
    let p = LinearTerms {
        weights,
        ..LinearTerms::for_rules(rules).unwrap()
    };
    let w = Weights {
        linear: Some(p),
        ..Weights::DEFAULT
    };
    (p, w)
}

fn random_positions(rules: Rules, n: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(3);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(rules);
        for _ in 0..=rng.below(plies) {
            let legal = movegen::legal_moves(&pos, Convention::Turn);
            if legal.is_empty() {
                break;
            }
            pos.play(legal[rng.below(legal.len())]);
        }
        out.push(pos);
    }
    out
}

#[test]
fn the_hand_weights_placing_evaluation_is_the_hand_written_one() {
    let rules = Rules::nine();
    let (p, w) = with_weights(&LinearWeights::HAND, &rules);
    for pos in random_positions(rules, 500, 30) {
        assert_eq!(evaluate(&pos, &w), hand_written(&pos, &Weights::DEFAULT));
        if pos.is_placing() {
            let (placing, late) = p.placing(&pos);
            assert_eq!((placing, late), (hand_written(&pos, &Weights::DEFAULT), 0));
        }
    }
}

#[test]
fn the_placing_evaluation_fades_out_as_the_hands_empty() {
    let rules = Rules::nine();
    let w = Weights::DEFAULT.for_rules(&rules);
    let p = w.linear.unwrap();
    for pos in random_positions(rules, 500, 30) {
        let written = hand_written(&pos, &Weights::DEFAULT);
        if pos.is_placing() {
            // Without the late correction, the evaluation lies between the two.
            let (placing, late) = p.placing(&pos);
            let us = pos.side_to_move();
            let hands = i32::from(pos.in_hand(us) + pos.in_hand(!us));
            let bump = 4 * hands * (18 - hands) * late / (18 * 18);
            let (lo, hi) = (written.min(placing), written.max(placing));
            let tapered = evaluate(&pos, &w) - bump;
            assert!(
                (lo - 1..=hi + 1).contains(&tapered),
                "{tapered} not within {lo}..={hi}"
            );
        } else {
            // Past the placing, the moving correction is added while neither side flies.
            let us = pos.side_to_move();
            let moving = if pos.can_fly(us) || pos.can_fly(!us) {
                0
            } else {
                p.moving(&pos)
            };
            assert_eq!(evaluate(&pos, &w), written + moving);
        }
    }
    let start = Position::start(rules);
    assert_eq!(evaluate(&start, &w), p.placing(&start).0);
}

#[test]
fn the_late_correction_weighs_most_halfway_and_nothing_at_the_ends() {
    static LATE: LinearWeights = LinearWeights {
        late_tempo: 90,
        ..LinearWeights::HAND
    };
    let rules = Rules::nine();
    let late = &LATE;
    let (_, with) = with_weights(late, &rules);
    // The HAND weights give the hand-written evaluation, so the difference is the late
    // correction's share: 4 s (1 - s) 90 with s the share of the 18 pieces in hand.
    for pos in random_positions(rules, 500, 30) {
        let us = pos.side_to_move();
        let hands = i32::from(pos.in_hand(us) + pos.in_hand(!us));
        let written = hand_written(&pos, &Weights::DEFAULT);
        let extra = evaluate(&pos, &with) - written;
        if !pos.is_placing() || hands == 0 {
            assert_eq!(extra, 0);
        } else {
            assert!((extra - 4 * hands * (18 - hands) * 90 / 324).abs() <= 1);
        }
    }
    let start = Position::start(rules);
    assert_eq!(
        evaluate(&start, &with),
        hand_written(&start, &Weights::DEFAULT)
    );
    assert_ne!(
        fingerprint(&rules),
        0,
        "the fitted weights have a fingerprint"
    );
    assert!(!LinearWeights::HAND.has_late() && late.has_late());
}

/// White on the first `white` points of the outer square, Black on the middle and inner
/// squares' eight middle points, White to move.
fn moving_with(white: usize, rules: &Rules) -> Position {
    let outer: String = (0..8).map(|i| if i < white { 'O' } else { '*' }).collect();
    let fen = format!("{outer}/*@*@*@*@/*@*@*@*@ w m s {white} 0 8 0 0 0 -1 -1 -1 -1 0 0 30");
    crate::rules::fen::read(&fen, rules).unwrap()
}

#[test]
fn the_moving_correction_fades_as_the_weaker_side_nears_flying() {
    static FADED: std::sync::OnceLock<LinearWeights> = std::sync::OnceLock::new();
    let nine = Rules::nine();
    let shares: Vec<(i32, i32)> = (3..=8)
        .map(|k| moving_share(&moving_with(k, &nine), 3))
        .collect();
    assert_eq!(shares, [(0, 3), (1, 3), (2, 3), (3, 3), (3, 3), (3, 3)]);
    // Without a fade, or where nobody ever flies, the correction counts in full.
    assert_eq!(moving_share(&moving_with(4, &nine), 0), (1, 1));
    let never = Rules {
        flying: Flying::Never,
        ..nine
    };
    assert_eq!(moving_share(&moving_with(3, &never), 3), (1, 1));
    // With the shipped moving weights faded over 3 pieces, the evaluation does not jump
    // where a side starts flying: each piece White loses makes it worse, down to 3 (with 8,
    // White fills the outer square and is blocked in).
    let faded = FADED.get_or_init(|| LinearWeights {
        moving_fade: 3,
        ..*fitted()
    });
    assert!(faded.has_moving());
    let (p, w) = with_weights(faded, &nine);
    let evals: Vec<i32> = (3..=7)
        .map(|k| evaluate(&moving_with(k, &nine), &w))
        .collect();
    assert!(evals.windows(2).all(|p| p[0] < p[1]), "{evals:?}");
    // With 4 pieces, a third of the correction counts.
    let four = moving_with(4, &nine);
    let whole = LinearTerms {
        weights: fitted(),
        ..p
    };
    assert_eq!(p.moving(&four), whole.moving(&four) / 3);
}

#[test]
fn the_moving_correction_is_added_in_the_moving_phase_while_neither_side_flies() {
    static MOVING: LinearWeights = LinearWeights {
        moving_tempo: 50,
        moving_us: [0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0],
        ..LinearWeights::HAND
    };
    let rules = Rules::nine();
    let (p, with) = with_weights(&MOVING, &rules);
    let mut seen = [0; 3];
    for pos in random_positions(rules, 1500, 70) {
        let written = hand_written(&pos, &Weights::DEFAULT);
        let extra = evaluate(&pos, &with) - written;
        let us = pos.side_to_move();
        let flies = pos.can_fly(us) || pos.can_fly(!us);
        if pos.is_placing() {
            seen[0] += 1;
            assert_eq!(
                extra, 0,
                "the HAND weights give the hand-written evaluation"
            );
        } else if flies {
            seen[1] += 1;
            assert_eq!(extra, 0);
        } else {
            seen[2] += 1;
            let open = inputs(&pos, us, &p.by_degree)[6];
            assert_eq!(extra, 50 + 7 * open);
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    assert!(MOVING.has_moving() && !MOVING.has_late() && !LinearWeights::HAND.has_moving());
}

#[test]
fn the_fitted_weights_serve_their_own_rules_only() {
    assert!(LinearTerms::for_rules(&Rules::nine()).is_some());
    let mut no_draws = Rules::nine().without_draw_rules();
    no_draws.first = Color::Black;
    assert!(LinearTerms::for_rules(&no_draws).is_some());
    for other in [
        "twelve",
        "lasker",
        "morabaraba",
        "no-reform",
        "protected-mills",
    ] {
        assert!(
            LinearTerms::for_rules(&Rules::preset(other).unwrap()).is_none(),
            "{other}"
        );
    }
}

#[test]
fn both_sides_inputs_are_each_side_s_own() {
    let rules = Rules::nine();
    let p = LinearTerms::for_rules(&rules).unwrap();
    let t = rules.topology();
    for pos in random_positions(rules, 400, 60) {
        for c in [Color::White, Color::Black] {
            let [ours, theirs] = both_inputs(&pos, c, &p.by_degree);
            assert_eq!(theirs, both_inputs(&pos, !c, &p.by_degree)[0]);
            // Two counts worked out another way.
            assert_eq!(ours[8], t.in_mills(pos.pieces(c)).count() as i32);
            let lonely = crate::rules::board::Point::all()
                .filter(|pt| {
                    let around = t.adjacent[pt.index()];
                    pos.empty().has(*pt)
                        && !(around & pos.pieces(c)).is_empty()
                        && (around & pos.pieces(!c)).is_empty()
                })
                .count();
            assert_eq!(ours[11], lonely as i32);
        }
    }
}

#[test]
fn inputs_count_what_they_name() {
    let rules = Rules::nine();
    let p = LinearTerms::for_rules(&rules).unwrap();
    // White on a7 d7 (a line with g7 empty), d6 (a point with four neighbours); Black on d5.
    let mut game = crate::Game::new(rules);
    game.play_tokens(["a7", "g1", "d7", "d5", "d6", "a1"])
        .unwrap();
    let pos = game.position();
    let x = inputs(pos, Color::White, &p.by_degree);
    assert_eq!(x[0], 6, "in hand");
    assert_eq!((x[1], x[2], x[3]), (1, 1, 1), "on 2-, 3- and 4-points");
    assert_eq!(x[6], 1, "open mills");
    assert_eq!(x[8], 0, "in mills");
}
