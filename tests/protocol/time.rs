//! Time: a `movetime` smaller than `MoveOverhead` is still searched, the overhead the GUI charges
//! beyond the engine's own time is learned and said (UCI), and games through a fake GUI that
//! charges every move an animation on the mover's clock (as Nine Morris 3D does, GBGP.md), at a
//! clock without increment, against a greedy random mover: moulin never loses on time, and
//! keeps more of its clock than with the learning off (`LearnOverhead false`, the fixed
//! `MoveOverhead`).

use super::gbgp::{engine_turn, greedy, gui_game_over, gui_new_game, gui_start, Referee};
use super::harness::{shared, word_after, Engine, MOVING};
use moulin::rng::Rng;
use moulin::rules::movegen;
use moulin::{Color, Convention, Game, Rules};
use std::time::{Duration, Instant};

#[test]
fn a_movetime_below_the_overhead_is_still_searched() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name MoveOverhead value 1000");
    e.ask(&format!("position fen {MOVING}"));
    let started = Instant::now();
    let lines = e.go("go movetime 400");
    let took = started.elapsed();
    // 400 ms less a quarter at most, not 400 - 1000 floored at 1 ms.
    assert!(took >= Duration::from_millis(280), "{took:?}: {lines:?}");
    let last_time: u64 = lines
        .iter()
        .filter_map(|l| word_after(l, "time"))
        .filter_map(|t| t.parse().ok())
        .max()
        .unwrap_or(0);
    assert!(last_time >= 100, "{lines:?}");
    e.quit();
}

#[test]
fn the_guis_charge_is_learned_and_said_in_uci() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name OwnBook value false");
    e.ask("ucinewgame");
    let mut game = Game::new(Rules::nine());
    let mut clock = 6_000u64;
    let mut said = Vec::new();
    for _ in 0..4 {
        let moves: Vec<String> = game.moves().iter().map(|m| m.turn_notation()).collect();
        if moves.is_empty() {
            e.ask("position startpos");
        } else {
            e.ask(&format!("position startpos moves {}", moves.join(" ")));
        }
        let started = Instant::now();
        let lines = e.go(&format!("go wtime {clock} btime 6000"));
        let used = started.elapsed().as_millis() as u64;
        said.extend(
            lines
                .iter()
                .filter(|l| l.starts_with("info string overhead"))
                .cloned(),
        );
        let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
        game.play_token(&best).unwrap();
        // The GUI charges 500 ms beyond the engine's time; the reply is any legal move.
        clock -= used + 500;
        let reply = movegen::legal_moves(game.position(), Convention::Turn)[0];
        game.play(reply);
    }
    assert_eq!(said.len(), 1, "{said:?}");
    let ms: u64 = word_after(&said[0], "about").unwrap().parse().unwrap();
    assert!((450..=520).contains(&ms), "{said:?}");
    e.quit();
}

/// How a fake GUI charges a game, in milliseconds: the engine's clock, the charge on each of its
/// moves beyond the real time it took, and the opponent's time a move.
#[derive(Clone, Copy)]
struct Charges {
    clock: u64,
    animation: u64,
    opponent: u64,
    /// The opponent is moulin at `go movetime <opponent>` after two random moves (long games,
    /// as against a person), not the greedy random mover.
    engine_opponent: bool,
}

/// A game through the fake GUI (GBGP, `go wtime W btime B`, no increment) with moulin as
/// `engine`, the other side a greedy random mover (`gbgp::greedy`, seeded by `seed`) that takes
/// `opponent` ms of its own clock (counted, not slept: moulin's clock does not run meanwhile),
/// or moulin (`rival`) at that `movetime` after two such moves. The engine's clock after each of
/// its moves; below zero when the engine lost on time.
fn charged_game(
    e: &mut Engine,
    mut rival: Option<&mut Engine>,
    engine: Color,
    c: Charges,
    seed: u64,
) -> Vec<i64> {
    gui_new_game(e);
    if let Some(o) = rival.as_mut() {
        gui_new_game(o);
    }
    let mut r = Referee::new(false);
    let mut rng = Rng::new(seed);
    let mut clock = [c.clock as i64; 2];
    let mut after = Vec::new();
    let index = |side: Color| usize::from(side == Color::Black);
    while r.over().is_none() {
        let side = r.game.position().side_to_move();
        let i = index(side);
        let mv = if side == engine {
            let (best, took, _) = engine_turn(e, &r, clock.map(|t| t.max(0) as u64));
            clock[i] -= (took.as_millis() as u64 + c.animation) as i64;
            after.push(clock[i]);
            if clock[i] <= 0 {
                return after;
            }
            assert_ne!(best, "none", "the game goes on after {}", r.moves.join(" "));
            best
        } else {
            clock[i] -= (c.opponent + c.animation) as i64;
            if clock[i] <= 0 {
                break;
            }
            match rival.as_mut() {
                Some(o) if r.moves.len() >= 4 => {
                    o.send(&r.position_command());
                    o.send(&format!("go movetime {}", c.opponent));
                    let lines = o.until(|l| l.starts_with("bestmove"));
                    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
                    if best == "none" {
                        break;
                    }
                    best
                }
                _ => greedy(&r, &mut rng),
            }
        };
        r.play(&mv).unwrap_or_else(|m| panic!("illegal: {m}"));
    }
    if r.over().is_some() {
        gui_game_over(e, &r);
    }
    after
}

/// The mean milliseconds a move spent from the engine's third move to its `k`-th (index
/// `k - 1`): once the learning has seen two charged moves.
fn spent_from_the_third(clock: &[i64], k: usize) -> f64 {
    (clock[1] - clock[k - 1]) as f64 / (k - 2) as f64
}

/// Plays `games` games (moulin as each colour in turn) with the learning on, then the same
/// seeds with it off. With it on moulin never loses on time; in each game, from its third move
/// on (the first two, before anything is learned, vary by a second or more from one run to
/// the next), each move costs its clock less than with it off; and over all games it has more
/// clock left, after as many moves as the shorter game of each pair, than with it off.
fn learning_keeps_the_clock(c: Charges, games: u64) {
    let _gate = shared();
    let mut on = gui_start(false);
    let mut off = gui_start(false);
    off.send("setoption name LearnOverhead value false");
    // Every move searched: the book would answer the placing at once.
    for e in [&mut on, &mut off] {
        e.send("setoption name OwnBook value false");
    }
    let mut rival = c.engine_opponent.then(|| gui_start(false));
    let (mut left_on, mut left_off) = (0, 0);
    for seed in 0..games {
        let engine = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let learned = charged_game(&mut on, rival.as_mut(), engine, c, seed);
        let fixed = charged_game(&mut off, rival.as_mut(), engine, c, seed);
        let end = *learned.last().unwrap();
        assert!(end > 0, "lost on time, game {seed}: {learned:?}");
        let k = learned.len().min(fixed.len());
        left_on += learned[k - 1];
        left_off += fixed[k - 1];
        if k >= 3 {
            let (a, b) = (
                spent_from_the_third(&learned, k),
                spent_from_the_third(&fixed, k),
            );
            assert!(
                a < b,
                "game {seed}: {a:.0} ms a move learning, {b:.0} fixed\n{learned:?}\n{fixed:?}"
            );
        }
        eprintln!(
            "game {seed}: {} moves, {end} ms left learning; fixed: {} moves, {} ms left",
            learned.len(),
            fixed.len(),
            fixed.last().unwrap()
        );
    }
    eprintln!("clock left after as many moves, all games: {left_on} ms learning, {left_off} fixed");
    assert!(
        left_on > left_off,
        "{left_on} ms learning, {left_off} fixed"
    );
    on.quit();
    off.quit();
    if let Some(o) = rival {
        o.quit();
    }
}

#[test]
fn a_gui_charging_each_move_never_flags_moulin_fast() {
    let c = Charges {
        clock: 10_000,
        animation: 300,
        opponent: 150,
        engine_opponent: false,
    };
    // One game as each colour.
    learning_keeps_the_clock(c, 2);
}

#[test]
#[ignore = "20 games at a minute each: about 15 minutes"]
fn a_gui_charging_700_ms_a_move_never_flags_moulin_in_20_games_of_a_minute() {
    let c = Charges {
        clock: 60_000,
        animation: 700,
        opponent: 150,
        engine_opponent: false,
    };
    learning_keeps_the_clock(c, 20);
}

#[test]
#[ignore = "20 long games at a minute each against moulin: about 12 minutes"]
fn a_gui_charging_700_ms_a_move_never_flags_moulin_in_20_long_games_against_itself() {
    let c = Charges {
        clock: 60_000,
        animation: 700,
        opponent: 150,
        engine_opponent: true,
    };
    learning_keeps_the_clock(c, 20);
}
