use super::*;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;

/// Positions of random games, each labelled by who has more pieces (board and hand): a value
/// a network can learn from the inputs alone.
fn toy_examples(seed: u64, games: usize) -> (Vec<Position>, Vec<Example>) {
    let mut rng = Rng::new(seed);
    let (mut positions, mut examples) = (Vec::new(), Vec::new());
    for _ in 0..games {
        let mut game = Game::new(Rules::nine());
        for _ in 0..80 {
            let moves = movegen::legal_moves(game.position(), Convention::Turn);
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(moves[rng.below(moves.len())]);
            let pos = *game.position();
            let us = pos.side_to_move();
            let count = |c| pos.on_board(c) as i32 + i32::from(pos.in_hand(c));
            let wdl = (count(us) - count(!us)).signum() as i8;
            positions.push(pos);
            examples.push(Example::of(&pos, wdl));
        }
    }
    (positions, examples)
}

fn plan() -> Plan {
    Plan {
        epochs: 4,
        batch: 256,
        rate: 0.01,
        seed: 5,
    }
}

fn trained(examples: &[Example], threads: usize) -> State {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut state = State::new(5);
        for _ in 0..plan().epochs {
            epoch(&mut state, examples, &plan(), |_| {});
        }
        state
    })
}

#[test]
fn training_learns_a_value_the_inputs_decide_the_same_on_any_threads() {
    let (_, examples) = toy_examples(1, 60);
    let before = loss(&State::new(5).net, &examples);
    let one = trained(&examples, 1);
    let after = loss(&one.net, &examples);
    assert!(after < before * 0.5, "loss {before} -> {after}");
    let two = trained(&examples, 2);
    assert_eq!(one, two, "the same seed on 1 and 2 threads");
    assert_eq!(one.epochs, 4);
}

#[test]
fn a_state_reads_back_from_its_bytes_and_garbage_does_not() {
    let state = State::new(9);
    let bytes = state.to_bytes();
    assert_eq!(State::from_bytes(&bytes), Some(state));
    assert_eq!(State::from_bytes(&bytes[1..]), None);
    let mut nan = bytes.clone();
    nan[16..20].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(State::from_bytes(&nan), None);
}

#[test]
fn the_quantized_network_evaluates_as_the_floats_do() {
    let (positions, examples) = toy_examples(2, 20);
    let state = trained(&examples, 2);
    let rules = Rules::nine();
    let scale = 300;
    let net = state.net.quantized(&rules, "nine", "a test", scale);
    let mut worst = 0.0f32;
    for (pos, e) in positions.iter().zip(&examples) {
        let float = output(&state.net, e) * scale as f32;
        let int = net.evaluate(pos) as f32;
        worst = worst.max((float - int).abs());
    }
    // Rounding each weight to 1/255 and 1/256 moves the output by a few centi-pieces (9.9 at
    // most here, the rounding of about 22 rows a view adding up).
    assert!(worst < 15.0, "worst difference {worst} centi-pieces");
}

#[test]
fn the_scale_matches_the_reference_evaluations() {
    let (_, examples) = toy_examples(3, 10);
    let state = State::new(1);
    let reference: Vec<i32> = examples
        .iter()
        .map(|e| (output(&state.net, e) * 250.0).round() as i32)
        .collect();
    assert!((scale(&state.net, &examples, &reference) - 250).abs() <= 1);
}

#[test]
fn a_twentieth_of_the_positions_is_held_out() {
    let (_, examples) = toy_examples(4, 100);
    let held = examples.iter().filter(|e| e.held_out()).count() as f64;
    let share = held / examples.len() as f64;
    assert!((0.03..0.07).contains(&share), "{share}");
}
