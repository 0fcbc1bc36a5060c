//! The random games: the crate and the naive model played in parallel over seeded random games,
//! compared at every position.

use super::board::NAMES;
use super::naive::{NMove, NOutcome, NState, Naive, Side};
use moulin::rng::Rng;
use moulin::rules::fen;
use moulin::rules::movegen;
use moulin::rules::notation;
use moulin::rules::notation::Convention;
use moulin::rules::position::{DrawReason, Outcome, WinReason};
use moulin::rules::{self, Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform};
use moulin::{Color, Game, Move, Rules};
use std::collections::HashMap;

fn crate_outcome(o: Option<Outcome>) -> Option<NOutcome> {
    let side = |c: Color| match c {
        Color::White => Side::W,
        Color::Black => Side::B,
    };
    o.map(|o| match o {
        Outcome::Win(c, WinReason::FewerThanThree) => NOutcome::Wins(side(c), "fewer than three"),
        Outcome::Win(c, WinReason::Blocked) => NOutcome::Wins(side(c), "blocked"),
        Outcome::Draw(DrawReason::Repetition) => NOutcome::Draw("repetition"),
        Outcome::Draw(DrawReason::NoCapture) => NOutcome::Draw("no capture"),
        Outcome::Draw(DrawReason::FullBoard) => NOutcome::Draw("full board"),
    })
}
/// The same canonical text for a crate move: removals sorted by name.
fn crate_text(m: Move) -> String {
    let t = m.turn_notation();
    let mut parts = t.split('x');
    let step = parts.next().unwrap_or("").to_string();
    let mut rem: Vec<&str> = parts.collect();
    rem.sort_unstable();
    let mut s = step;
    for r in rem {
        s.push('x');
        s.push_str(r);
    }
    s
}
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    positions: usize,
    pending: usize,
    flying: usize,
    moving: usize,
    outcomes: HashMap<String, usize>,
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_unstable();
    v
}

/// Compares the crate and the naive model at one position; panics with the position string and
/// the moves played on any disagreement.
fn compare(n: &Naive, game: &Game, s: &NState, played: &[String]) {
    let pos = game.position();
    let ctx = || format!("{} after {}", fen::write(pos), played.join(" "));
    for (conv, turn) in [(Convention::Turn, true), (Convention::Action, false)] {
        let ours = sorted(n.moves(s, turn).iter().map(NMove::text).collect());
        let list = movegen::legal_moves(pos, conv);
        let theirs = sorted(list.iter().map(|&m| crate_text(m)).collect());
        if ours != theirs {
            let extra: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
            let missing: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
            panic!(
                "{conv:?} moves differ at {}\ncrate only: {extra:?}\nnaive only: {missing:?}",
                ctx()
            );
        }
        let mut dedup = theirs.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), theirs.len(), "duplicate moves at {}", ctx());
        assert_eq!(
            movegen::count(pos, conv),
            list.len() as u64,
            "{conv:?} count at {}",
            ctx()
        );
    }
    assert_eq!(
        crate_outcome(pos.outcome()),
        n.outcome(s),
        "position outcome at {}",
        ctx()
    );
    assert_eq!(
        crate_outcome(game.outcome()),
        n.game_outcome(s),
        "game outcome at {}",
        ctx()
    );
    assert_eq!(pos.key(), pos.compute_key(), "incremental key at {}", ctx());
    let text = fen::write(pos);
    let back = fen::read(&text, pos.rules())
        .unwrap_or_else(|e| panic!("cannot read back {text}: {e} ({})", ctx()));
    assert_eq!(fen::write(&back), text, "position string round trip");
    let mask = text.split(' ').nth(14).unwrap();
    assert_eq!(n.fen(s, mask), text, "position string fields at {}", ctx());
    if pos.rules().reform == Reform::Allowed {
        // Nothing is lost in the string: the read-back position has the same moves.
        let a = sorted(
            movegen::legal_moves(&back, Convention::Turn)
                .into_iter()
                .map(crate_text)
                .collect(),
        );
        let b = sorted(
            movegen::legal_moves(pos, Convention::Turn)
                .into_iter()
                .map(crate_text)
                .collect(),
        );
        assert_eq!(a, b, "moves after reading back {text}");
    }
}

/// Plays `games` random games under `rules` from the empty board, comparing at every position.
fn random_games(rules: Rules, games: usize, seed: u64) -> Tally {
    let n = Naive::new(&rules);
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for g in 0..games {
        let mut game = Game::new(rules);
        let mut s = n.start();
        let mut played = Vec::new();
        // Half the games are played action by action, so that removals stand pending.
        let turn = g % 2 == 0;
        let conv = if turn {
            Convention::Turn
        } else {
            Convention::Action
        };
        // How eager this game is to close mills: some games reach flying, some stay crowded.
        let eager = rng.below(4);
        for _ply in 0..300 {
            compare(&n, &game, &s, &played);
            tally.positions += 1;
            if s.pending > 0 {
                tally.pending += 1;
            } else if s.hand[s.side.i()] == 0 {
                if n.can_fly(&s) {
                    tally.flying += 1;
                } else {
                    tally.moving += 1;
                }
            }
            if let Some(o) = n.game_outcome(&s) {
                *tally.outcomes.entry(format!("{o:?}")).or_default() += 1;
                break;
            }
            let moves = n.moves(&s, turn);
            let closing: Vec<&NMove> = moves
                .iter()
                .filter(|m| {
                    !m.removals.is_empty()
                        || m.to
                            .is_some_and(|to| n.effect(&s, m.from, to).is_some_and(|e| e.due > 0))
                })
                .collect();
            let chosen = if !closing.is_empty() && rng.below(4) < eager {
                closing[rng.below(closing.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            let text = chosen.text();
            let mv = movegen::legal_moves(game.position(), conv)
                .into_iter()
                .find(|&m| crate_text(m) == text)
                .expect("the move lists agree");
            // The notation reads the move back (removals in either order).
            let token = if turn {
                mv.turn_notation()
            } else {
                mv.action_tokens().join(" ")
            };
            assert_eq!(
                notation::parse_move(game.position(), &token),
                Ok(mv),
                "{token} at {}",
                fen::write(game.position())
            );
            if chosen.removals.len() > 1 {
                let mut rev = chosen.clone();
                rev.removals.reverse();
                let mut t = rev.step_text();
                for &r in &rev.removals {
                    t = t + "x" + NAMES[r];
                }
                assert_eq!(notation::parse_move(game.position(), &t), Ok(mv), "{t}");
            }
            game.play(mv);
            n.play(&mut s, &chosen);
            played.push(token);
        }
        tally.games += 1;
    }
    tally
}

fn run(name: &str, rules: Rules, games: usize, seed: u64) {
    let t = std::time::Instant::now();
    let tally = random_games(rules, games, seed);
    eprintln!(
        "{name}: {} games, {} positions ({} moving, {} flying, {} pending), outcomes {:?}, {:.1} s",
        tally.games,
        tally.positions,
        tally.moving,
        tally.flying,
        tally.pending,
        tally.outcomes,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(tally.games, games);
    assert!(tally.moving > 0 && tally.pending > 0, "{name}: {tally:?}");
}

/// Games per rule set in the full sweep, `every_rule_set_over_2000_games`.
const SWEEP: usize = 2000;
/// Games per rule set in each test of a plain `cargo test`: a tenth of the sweep, which catches
/// what the sweep caught so far at a tenth of its time.
const QUICK: usize = 200;

thread_local! {
    /// Set by the sweep on its thread, so that it runs the very tests below at its size.
    static FULL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Games per rule set: `REFERENCE_GAMES` if set, else `SWEEP` in the sweep and `QUICK` alone.
fn games() -> usize {
    std::env::var("REFERENCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if FULL.get() { SWEEP } else { QUICK })
}

#[test]
#[ignore = "slow: the naive reference against the crate over 2,000 random games of each of the \
            12 rule sets"]
fn every_rule_set_over_2000_games() {
    FULL.set(true);
    for rule_set in [
        preset_nine,
        preset_twelve,
        preset_lasker,
        preset_morabaraba,
        preset_no_reform,
        preset_protected_mills,
        flying_never_black_first,
        flying_at_four_protection_never,
        per_mill_reform_illegal,
        diagonal_per_mill_no_removal_always_protected,
        few_pieces_short_draw_rules,
        lasker_twelve_reform_illegal,
    ] {
        rule_set();
    }
}

pub(crate) fn preset(name: &str) -> Rules {
    Rules::preset(name).unwrap()
}

#[test]
fn preset_nine() {
    run("nine", preset("nine"), games(), 1);
}

#[test]
fn preset_twelve() {
    run("twelve", preset("twelve"), games(), 2);
}

#[test]
fn preset_lasker() {
    run("lasker", preset("lasker"), games(), 3);
}

#[test]
fn preset_morabaraba() {
    run("morabaraba", preset("morabaraba"), games(), 4);
}

#[test]
fn preset_no_reform() {
    run("no-reform", preset("no-reform"), games(), 5);
}

#[test]
fn preset_protected_mills() {
    run("protected-mills", preset("protected-mills"), games(), 6);
}

#[test]
fn every_preset_is_covered() {
    assert_eq!(
        rules::PRESETS,
        [
            "nine",
            "twelve",
            "lasker",
            "morabaraba",
            "no-reform",
            "protected-mills"
        ]
    );
}

#[test]
fn flying_never_black_first() {
    let r = Rules {
        flying: Flying::Never,
        first: Color::Black,
        ..Rules::nine()
    };
    run("flying never, black first", r, games(), 7);
}

#[test]
fn flying_at_four_protection_never() {
    let r = Rules {
        flying: Flying::AtMost(4),
        protection: MillProtection::Never,
        ..Rules::nine()
    };
    run("flying at 4, protection never", r, games(), 8);
}

#[test]
fn per_mill_reform_illegal() {
    let r = Rules {
        multi_mill: MultiMill::OnePerMill,
        reform: Reform::Illegal,
        ..Rules::nine()
    };
    run("per-mill, reform illegal", r, games(), 9);
}

#[test]
fn diagonal_per_mill_no_removal_always_protected() {
    let r = Rules {
        reform: Reform::NoRemoval,
        protection: MillProtection::Always,
        full_board: FullBoard::Blocked,
        ..preset("morabaraba")
    };
    run(
        "morabaraba, no-removal, always protected, full board blocks",
        r,
        games(),
        10,
    );
}

#[test]
fn few_pieces_short_draw_rules() {
    // Five pieces each and a short no-capture rule: games reach flying, repetition and the
    // no-capture draw quickly.
    let r = Rules {
        pieces: 5,
        no_capture: Some(12),
        reform: Reform::NoRemoval,
        ..Rules::nine()
    };
    run("5 pieces, no-capture 12, no-removal", r, games(), 11);
}

#[test]
fn lasker_twelve_reform_illegal() {
    let r = Rules {
        pieces: 12,
        placing_moves: PlacingMoves::PlaceOrMove,
        reform: Reform::Illegal,
        multi_mill: MultiMill::OnePerMill,
        ..preset("twelve")
    };
    run(
        "12 pieces, diagonals, moving while placing, reform illegal, per mill",
        r,
        games(),
        12,
    );
}
