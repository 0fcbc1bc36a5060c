//! Endgame values from the naive solver (`naive.rs`): the published tallies of docs/rules.md,
//! "Perfect play", hand-checked positions, and a check of sampled values against their
//! successors through the rules layer alone; the placing solution against a naive minimax
//! (`naive_placing.rs`).

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod agree;
mod agree_placing;
mod naive;
mod naive_placing;

use moulin::rules::board::Point;
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::rules::{fen, Flying};
use moulin::{Bitboard, Color, Position, Rules};
use naive::{Naive, Value};
use std::sync::OnceLock;
use std::time::Instant;

/// Wins, losses and draws for the side to move.
type Tally = (u64, u64, u64);

/// docs/rules.md, "Perfect play": the tally of each pair (mover's pieces, other's), up to symmetry,
/// no draw rules.
const PUBLISHED: [((u8, u8), Tally); 4] = [
    ((3, 3), (140_621, 28_736, 269)),
    ((3, 4), (102_281, 0, 658_117)),
    ((4, 3), (75_397, 3_095, 681_906)),
    ((4, 4), (159, 29, 3_225_409)),
];

fn nine() -> Rules {
    Rules::preset("nine").unwrap().without_draw_rules()
}

/// `nine` solved up to 3 a side, once for all the tests that read it.
fn nine_up_to_three() -> &'static Naive {
    static SOLVED: OnceLock<Naive> = OnceLock::new();
    SOLVED.get_or_init(|| naive::solve(&nine(), 3))
}

fn nine_without_flying() -> Rules {
    Rules {
        flying: Flying::Never,
        ..nine()
    }
}

/// A moving-phase position with White to move, from the points of each side, through a
/// position string (docs/rules.md, "Position string").
fn position(white: &[&str], black: &[&str], rules: &Rules) -> Position {
    let mut cells = ['*'; 24];
    for (names, c) in [(white, 'O'), (black, '@')] {
        for name in names {
            cells[Point::parse(name).unwrap().index()] = c;
        }
    }
    let rings: Vec<String> = cells.chunks(8).map(|r| r.iter().collect()).collect();
    let text = format!(
        "{} w m s {} 0 {} 0 0 0 -1 -1 -1 -1 0 0 1",
        rings.join("/"),
        white.len(),
        black.len()
    );
    fen::read(&text, rules).unwrap()
}

fn value_of(naive: &Naive, pos: &Position) -> Value {
    naive
        .value(pos.pieces(Color::White), pos.pieces(Color::Black))
        .expect("a position of a solved pair")
}

/// The value of `pos` (White to move) recomputed from its successors' stored values, move by
/// move through the rules layer, by the contract's definitions.
fn from_successors(naive: &Naive, pos: &Position) -> Value {
    let moves = movegen::legal_moves(pos, Convention::Turn);
    if moves.is_empty() {
        return Value::Loss(0);
    }
    let mut best_win: Option<u16> = None;
    let mut longest_loss = 0;
    let mut all_lose = true;
    for mv in moves {
        let mut next = *pos;
        next.play(mv);
        let (them, us) = (next.pieces(Color::Black), next.pieces(Color::White));
        let capture = them.count() < pos.pieces(Color::Black).count();
        let after = if them.count() < 3 {
            Value::Loss(0)
        } else {
            naive.value(them, us).unwrap()
        };
        let cost = |d: u16| if capture { 1 } else { d + 1 };
        match after {
            Value::Loss(d) => best_win = Some(best_win.map_or(cost(d), |w| w.min(cost(d)))),
            Value::Win(d) => longest_loss = longest_loss.max(cost(d)),
            Value::Draw => all_lose = false,
        }
    }
    match best_win {
        Some(d) => Value::Win(d),
        None if all_lose => Value::Loss(longest_loss),
        None => Value::Draw,
    }
}

fn print_pair(naive: &Naive, a: u8, b: u8) -> Tally {
    let t = naive.tally(a, b);
    let all = naive.tally_all(a, b);
    let (win, loss) = naive.max_dtc(a, b);
    println!(
        "{a}-{b} wins {} losses {} draws {} max-win {win} max-loss {loss} \
         (every position: wins {} losses {} draws {})",
        t.0, t.1, t.2, all.0, all.1, all.2
    );
    t
}

#[test]
fn three_against_three_matches_the_published_tally() {
    let naive = nine_up_to_three();
    let t = print_pair(naive, 3, 3);
    assert_eq!(t, PUBLISHED[0].1, "3-3 tally up to symmetry");
    let all = naive.tally_all(3, 3);
    assert_eq!(
        all.0 + all.1 + all.2,
        2024 * 1330,
        "every placement counted once"
    );
}

#[test]
fn hand_checked_positions() {
    let rules = nine();
    let naive = nine_up_to_three();
    // White flies b4 to g7, closing a7-d7-g7, and leaves Black two pieces.
    let mate = position(&["a7", "d7", "b4"], &["c3", "e3", "d2"], &rules);
    assert_eq!(value_of(naive, &mate), Value::Win(1));
    // White has no mill to close; Black threatens g7 (a4 flies there) and a1 (d7 flies there),
    // and White can fill only one: every White move allows a winning capture.
    let lost = position(&["c5", "e3", "f6"], &["a7", "d7", "a4"], &rules);
    assert_eq!(value_of(naive, &lost), Value::Loss(2));
    // The same seen from Black, to move after a White move that fills neither point.
    let after = position(&["a7", "d7", "a4"], &["c5", "e3", "f4"], &rules);
    assert_eq!(value_of(naive, &after), Value::Win(1));

    // Without flying, three pieces can be blocked.
    let rules = nine_without_flying();
    let naive = naive::solve(&rules, 3);
    let blocked = position(&["a7", "d7", "g7"], &["a4", "d6", "g4"], &rules);
    assert_eq!(value_of(&naive, &blocked), Value::Loss(0));
    // d5-d6 shuts Black's mill a7-d7-g7 in: a win in 1 without a capture.
    let blocking = position(&["a4", "g4", "d5"], &["a7", "d7", "g7"], &rules);
    assert_eq!(value_of(&naive, &blocking), Value::Win(1));
    print_pair(&naive, 3, 3);
}

#[test]
fn sampled_values_agree_with_their_successors() {
    let rules = nine();
    let naive = nine_up_to_three();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    for _ in 0..20_000 {
        let mut free: Vec<usize> = (0..24).collect();
        let mut pick = |count: usize| {
            let mut set = Bitboard(0);
            for _ in 0..count {
                let i = free.remove(next(free.len()));
                set = set.with(Point::new(i).unwrap());
            }
            set
        };
        let white = pick(3);
        let black = pick(3);
        let names = |s: Bitboard| s.iter().map(moulin::Point::name).collect::<Vec<_>>();
        let pos = position(&names(white), &names(black), &rules);
        assert_eq!(
            value_of(naive, &pos),
            from_successors(naive, &pos),
            "{}",
            fen::write(&pos)
        );
    }
}

#[test]
#[ignore = "solves every pair up to 4 a side: minutes in release mode"]
fn four_a_side_and_the_diagonal_board() {
    let start = Instant::now();
    let naive = naive::solve(&nine(), 4);
    println!(
        "nine, up to 4 a side, solved in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let mut differ = Vec::new();
    for ((a, b), published) in PUBLISHED {
        let t = print_pair(&naive, a, b);
        if t != published {
            differ.push(format!("{a}-{b}: {t:?}, published {published:?}"));
        }
    }
    drop(naive);
    let start = Instant::now();
    let twelve = Rules::preset("twelve").unwrap().without_draw_rules();
    let naive = naive::solve(&twelve, 3);
    println!(
        "twelve, up to 3 a side, solved in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    print_pair(&naive, 3, 3);
    assert!(
        differ.is_empty(),
        "differs from docs/rules.md, Perfect play: {differ:?}"
    );
}
