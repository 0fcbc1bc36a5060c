//! Scenario tests: hand-built positions, one or a few per rule option of docs/rules.md,
//! "Rule options", each showing the difference the option makes; and the notation's errors
//! (malformed versus illegal, with the reason).

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::rules::notation::{self, Illegal, MoveError};
use moulin::rules::position::{DrawReason, Outcome, WinReason};
use moulin::rules::{
    Flying, FullBoard, MillProtection, MultiMill, PlacingMoves, Reform, Repetition,
};
use moulin::{Color, Game, Point, Rules};

/// The points in position-string order (docs/rules.md, "Points"): inner, middle, outer ring, each
/// clockwise from its top-middle point.
const ORDER: [&str; 24] = [
    "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5", "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
    "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",
];

/// A position string with White on `white` and Black on `black` (space-separated point names).
fn fen(
    white: &str,
    black: &str,
    side: char,
    hands: (u8, u8),
    mask: u64,
    no_capture: u16,
) -> String {
    let w: Vec<&str> = white.split_whitespace().collect();
    let b: Vec<&str> = black.split_whitespace().collect();
    let mut board = String::new();
    for (i, p) in ORDER.iter().enumerate() {
        if i > 0 && i % 8 == 0 {
            board.push('/');
        }
        board.push(if w.contains(p) {
            'O'
        } else if b.contains(p) {
            '@'
        } else {
            '*'
        });
    }
    let phase = if hands.0 + hands.1 > 0 { 'p' } else { 'm' };
    let in_hand = if side == 'w' { hands.0 } else { hands.1 };
    let action = if in_hand > 0 { 'p' } else { 's' };
    format!(
        "{board} {side} {phase} {action} {} {} {} {} 0 0 -1 -1 -1 -1 {mask} {no_capture} 1",
        w.len(),
        hands.0,
        b.len(),
        hands.1
    )
}

fn game(rules: Rules, white: &str, black: &str, side: char, hands: (u8, u8)) -> Game {
    let text = fen(white, black, side, hands, 0, 0);
    Game::from_fen(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(g: &mut Game, tokens: &str) {
    if let Err((i, e)) = g.play_tokens(tokens.split_whitespace()) {
        panic!("token {i} of '{tokens}': {e}");
    }
}

fn illegal(g: &Game, token: &str) -> Illegal {
    match notation::parse_move(g.position(), token) {
        Err(MoveError::Illegal { why, token: t }) => {
            assert_eq!(t, token);
            why
        }
        other => panic!("{token}: expected an illegal move, got {other:?}"),
    }
}

fn legal(g: &Game, token: &str) -> bool {
    notation::parse_move(g.position(), token).is_ok()
}

/// The turn-convention moves, as written by the crate.
fn moves(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = movegen::legal_moves(g.position(), Convention::Turn)
        .into_iter()
        .map(moulin::Move::turn_notation)
        .collect();
    v.sort();
    v
}

/// The moves of the step `step` (a placement or a move), with their removals.
fn with_step(g: &Game, step: &str) -> Vec<String> {
    moves(g)
        .into_iter()
        .filter(|m| m == step || m.starts_with(&format!("{step}x")))
        .collect()
}

fn pt(name: &str) -> Point {
    Point::parse(name).unwrap()
}

fn nine() -> Rules {
    Rules::nine()
}

// ---- Mill protection. ----

#[test]
fn protected_pieces_cannot_be_removed() {
    // White places b6, closing b6-d6-f6; Black has a mill a7-d7-g7 and a free piece on b4.
    let g = game(nine(), "d6 f6", "a7 d7 g7 b4", 'w', (7, 5));
    assert_eq!(with_step(&g, "b6"), ["b6xb4"]);
    assert_eq!(illegal(&g, "b6xa7"), Illegal::Protected(pt("a7")));
    assert!(legal(&g, "b6xb4"));
    // Never protected: any piece.
    let g = game(
        Rules {
            protection: MillProtection::Never,
            ..nine()
        },
        "d6 f6",
        "a7 d7 g7 b4",
        'w',
        (7, 5),
    );
    assert_eq!(with_step(&g, "b6").len(), 4);
    assert!(legal(&g, "b6xa7"));
}

#[test]
fn all_in_mills_unless_all_always_never() {
    // Every black piece stands in the mill a7-d7-g7.
    let white = "d6 f6";
    let black = "a7 d7 g7";
    let g = game(nine(), white, black, 'w', (7, 6));
    assert_eq!(with_step(&g, "b6"), ["b6xa7", "b6xd7", "b6xg7"]);
    let always = Rules {
        protection: MillProtection::Always,
        ..nine()
    };
    assert_eq!(always, Rules::preset("protected-mills").unwrap());
    let mut g = game(always, white, black, 'w', (7, 6));
    assert_eq!(with_step(&g, "b6"), ["b6"]);
    assert_eq!(illegal(&g, "b6xa7"), Illegal::NoRemovalDue);
    play(&mut g, "b6");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(g.position().pending_removals(), 0);
    let never = Rules {
        protection: MillProtection::Never,
        ..nine()
    };
    let g = game(never, white, black, 'w', (7, 6));
    assert_eq!(with_step(&g, "b6"), ["b6xa7", "b6xd7", "b6xg7"]);
}

#[test]
fn removal_after_which_all_stand_in_mills() {
    // One free black piece (b4), the rest in a mill: under 'unless all', with two removals due
    // the second may take a mill piece once b4 is gone.
    let per_mill = Rules {
        multi_mill: MultiMill::OnePerMill,
        ..nine()
    };
    // White closes two mills by placing d2: b2-d2-f2 and d1-d2-d3.
    let g = game(per_mill, "b2 f2 d1 d3", "a7 d7 g7 b4", 'w', (5, 5));
    assert_eq!(
        with_step(&g, "d2"),
        ["d2xb4xa7", "d2xb4xd7", "d2xb4xg7"],
        "b4 first, then any mill piece"
    );
    assert!(legal(&g, "d2xa7xb4"), "order of removals does not matter");
    assert_eq!(illegal(&g, "d2xa7xd7"), Illegal::Protected(pt("a7")));
    // Always protected: b4, and then nothing more.
    let g = game(
        Rules {
            protection: MillProtection::Always,
            ..per_mill
        },
        "b2 f2 d1 d3",
        "a7 d7 g7 b4",
        'w',
        (5, 5),
    );
    assert_eq!(with_step(&g, "d2"), ["d2xb4"]);
}

// ---- Double mills. ----

#[test]
fn double_mill_one_removal_or_one_per_mill() {
    // Placing d2 closes b2-d2-f2 and d1-d2-d3.
    let white = "b2 f2 d1 d3";
    let black = "a7 g7 b4 g4";
    let g = game(nine(), white, black, 'w', (5, 0));
    assert_eq!(with_step(&g, "d2").len(), 4);
    assert_eq!(illegal(&g, "d2xb4xg4"), Illegal::TooManyRemovals(1));
    let per_mill = Rules {
        multi_mill: MultiMill::OnePerMill,
        ..nine()
    };
    let mut g = game(per_mill, white, black, 'w', (5, 0));
    assert_eq!(with_step(&g, "d2").len(), 6, "C(4, 2) pairs");
    assert!(legal(&g, "d2xb4xg4"));
    assert!(legal(&g, "d2xg4xb4"));
    assert_eq!(illegal(&g, "d2xb4"), Illegal::RemovalMissing(2));
    assert_eq!(illegal(&g, "d2xb4xb4"), Illegal::NotOpponentPiece(pt("b4")));
    // The two-token form: the step, then each removal as a token of its own.
    let mut two = g.clone();
    play(&mut two, "d2 xb4 xg4");
    play(&mut g, "d2xb4xg4");
    assert_eq!(two.position(), g.position());
    assert_eq!(g.position().on_board(Color::Black), 2);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(Color::White, WinReason::FewerThanThree))
    );
}

#[test]
fn three_mills_at_once_on_the_diagonal_board() {
    // b6 lies on b6-d6-f6, b2-b4-b6 and a7-b6-c5: morabaraba gives three removals.
    let white = "d6 f6 b2 b4 a7 c5";
    let black = "d1 g1 e4 g4";
    let rules = Rules::preset("morabaraba").unwrap();
    let mut g = game(rules, white, black, 'w', (6, 8));
    assert_eq!(with_step(&g, "b6").len(), 4, "C(4, 3) triples");
    assert!(legal(&g, "b6xd1xg1xe4"));
    assert_eq!(illegal(&g, "b6xd1xg1"), Illegal::RemovalMissing(3));
    let mut two = g.clone();
    play(&mut two, "b6 xd1 xg1 xe4");
    play(&mut g, "b6xe4xg1xd1");
    assert_eq!(two.position(), g.position());
    assert_eq!(g.position().on_board(Color::Black), 1);
    // Twelve men's morris: one removal.
    let g = game(Rules::preset("twelve").unwrap(), white, black, 'w', (6, 8));
    assert_eq!(with_step(&g, "b6").len(), 4);
}

// ---- Re-forming a mill. ----

/// White's mill d7-d6-d5 stands and has given its removal (formed-mills mask bit 12, the spoke
/// d7-d6-d5 in the crate's line order), White has g7 spare; Black has four free pieces.
fn reform_game(reform: Reform) -> Game {
    let rules = Rules { reform, ..nine() };
    let text = fen("d7 d6 d5 g7", "a1 d1 f2 b2", 'w', (0, 0), 1 << 12, 0);
    let g = Game::from_fen(&text, rules).unwrap();
    if reform != Reform::Allowed {
        assert_eq!(moulin::rules::fen::write(g.position()), text);
    }
    g
}

#[test]
fn reforming_with_the_same_pieces() {
    for reform in [Reform::Allowed, Reform::NoRemoval, Reform::Illegal] {
        let mut g = reform_game(reform);
        play(&mut g, "d7-a7 a1-a4");
        let back = with_step(&g, "a7-d7");
        match reform {
            Reform::Allowed => assert_eq!(back.len(), 4, "{back:?}"),
            Reform::NoRemoval => {
                assert_eq!(back, ["a7-d7"]);
                assert_eq!(illegal(&g, "a7-d7xb2"), Illegal::NoRemovalDue);
            }
            Reform::Illegal => {
                assert!(back.is_empty());
                assert_eq!(illegal(&g, "a7-d7"), Illegal::ReformForbidden);
            }
        }
        // A different piece on the line: the mill gives a removal again under every rule.
        assert_eq!(with_step(&g, "g7-d7").len(), 4, "{reform:?}");
    }
}

#[test]
fn a_mill_never_gives_twice_with_the_same_pieces() {
    // d7-d6-d5 earned with {A, B, C}; A leaves, X closes it ({X, B, C}: a removal), X leaves,
    // A comes back: {A, B, C} has already given its removal (docs/rules.md, "Reform").
    for reform in [Reform::NoRemoval, Reform::Illegal] {
        let mut g = reform_game(reform);
        play(&mut g, "d7-a7 a1-a4 g7-d7xb2 d1-g1 d7-g7 g1-d1");
        let back = with_step(&g, "a7-d7");
        if reform == Reform::NoRemoval {
            assert_eq!(back, ["a7-d7"]);
        } else {
            assert!(back.is_empty());
            assert_eq!(illegal(&g, "a7-d7"), Illegal::ReformForbidden);
        }
        // And X coming back again is the same story.
        assert_eq!(with_step(&g, "g7-d7").len(), back.len(), "{reform:?}");
    }
}

// ---- Flying. ----

#[test]
fn flying_at_three_at_four_or_never() {
    let three = "a7 d6 f4";
    let four = "a7 d6 f4 c3";
    let black = "g1 d2 a1 b4";
    let cases = [
        (Flying::AtMost(3), three, true),
        (Flying::AtMost(3), four, false),
        (Flying::AtMost(4), four, true),
        (Flying::AtMost(4), three, true),
        (Flying::Never, three, false),
    ];
    for (flying, white, flies) in cases {
        let g = game(Rules { flying, ..nine() }, white, black, 'w', (0, 0));
        if flies {
            assert!(legal(&g, "a7-g7"), "{flying:?} {white}");
        } else {
            assert_eq!(
                illegal(&g, "a7-g7"),
                Illegal::NotAdjacent(pt("a7"), pt("g7")),
                "{flying:?} {white}"
            );
        }
        assert!(legal(&g, "a7-d7"));
    }
    // Both players may fly at once.
    let g = game(nine(), "a7 d6 f4", "g1 d1 a1", 'b', (0, 0));
    assert!(legal(&g, "g1-g7"));
}

// ---- Moving while placing. ----

#[test]
fn lasker_moves_while_placing() {
    let white = "d6 f4";
    let black = "a1 g1";
    let g = game(nine(), white, black, 'w', (7, 7));
    assert_eq!(illegal(&g, "d6-d5"), Illegal::MustPlace);
    assert_eq!(moves(&g).len(), 20);
    let lasker = Rules::preset("lasker").unwrap();
    assert_eq!(lasker.placing_moves, PlacingMoves::PlaceOrMove);
    let mut g = game(lasker, white, black, 'w', (8, 8));
    assert!(legal(&g, "d6-d5"));
    assert_eq!(moves(&g).len(), 20 + 4 + 4);
    play(&mut g, "d6-d5");
    assert_eq!(g.position().in_hand(Color::White), 8);
    // A move in the placing phase counts for the no-capture rule; a placement does not.
    assert_eq!(g.position().no_capture_plies(), 1);
    play(&mut g, "b6");
    assert_eq!(g.position().no_capture_plies(), 1);
}

// ---- The end of the game. ----

/// Twelve pieces each, no mill anywhere: rings alternate colours, and the spokes too.
const FULL_WHITE: &str = "d5 e4 d3 c4 f6 f2 b2 b6 d7 g4 d1 a4";
const FULL_BLACK: &str = "e5 e3 c3 c5 d6 f4 d2 b4 g7 g1 a1 a7";

#[test]
fn twelve_full_board_draws() {
    let twelve = Rules::preset("twelve").unwrap();
    // One point left (a7): Black places the last piece.
    let black = FULL_BLACK.replace(" a7", "");
    let mut g = game(twelve, FULL_WHITE, &black, 'b', (0, 1));
    assert_eq!(moves(&g), ["a7"]);
    play(&mut g, "a7");
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::FullBoard)));
    assert!(moves(&g).is_empty());
    assert_eq!(illegal(&g, "d5-e5"), Illegal::GameOver);
    // The other policy: the side to move is blocked.
    let blocked = Rules {
        full_board: FullBoard::Blocked,
        ..twelve
    };
    let mut g = game(blocked, FULL_WHITE, &black, 'b', (0, 1));
    play(&mut g, "a7");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(Color::Black, WinReason::Blocked))
    );
}

#[test]
fn blocked_player_loses() {
    // White a7 d7 g7 a4 hemmed in by d6, g4, a1, b4.
    let g = game(nine(), "a7 d7 g7 a4", "d6 g4 a1 b4", 'w', (0, 0));
    assert!(moves(&g).is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(Color::Black, WinReason::Blocked))
    );
    // With three pieces White would fly instead.
    let g = game(nine(), "a7 d7 g7", "d6 g4 a4", 'w', (0, 0));
    assert_eq!(g.outcome(), None);
    // Blocked while Black is to move is no loss for White.
    let g = game(nine(), "a7 d7 g7 a4", "d6 g4 a1 b4", 'b', (0, 0));
    assert_eq!(g.outcome(), None);
}

#[test]
fn fewer_than_three_loses() {
    let mut g = game(nine(), "a7 d7 b4", "g1 d1 f2", 'w', (0, 0));
    assert_eq!(g.outcome(), None);
    play(&mut g, "b4-g7xf2");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(Color::White, WinReason::FewerThanThree))
    );
    assert!(moves(&g).is_empty());
    // Pieces in hand count: two on the board and one in hand is still three.
    let g = game(nine(), "a7 d7", "g1 d1", 'w', (1, 1));
    assert_eq!(g.outcome(), None);
    let g = game(nine(), "a7 d7", "g1 d1 g7", 'w', (0, 1));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(Color::Black, WinReason::FewerThanThree))
    );
}

#[test]
fn no_capture_rule_draws_after_n_plies_of_moving() {
    let rules = Rules {
        no_capture: Some(6),
        ..nine()
    };
    let mut g = game(rules, "a7 d6 f4 c3", "g1 d2 a1 b4", 'w', (0, 0));
    play(&mut g, "a7-d7 g1-g4 d7-a7 g4-g1 a7-d7");
    assert_eq!(g.position().no_capture_plies(), 5);
    assert_eq!(g.outcome(), None);
    play(&mut g, "g1-g4");
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
    // Perft ignores draw rules: the moves are still generated.
    assert!(!moves(&g).is_empty());
    // A removal restarts the count.
    let mut g = game(rules, "a7 d7 f4 c3", "g1 d2 a1 b4", 'w', (0, 0));
    play(&mut g, "f4-g4 b4-b6");
    assert_eq!(g.position().no_capture_plies(), 2);
    play(&mut g, "g4-g7xb6");
    assert_eq!(g.position().no_capture_plies(), 0);
    // Off: never.
    let off = Rules {
        no_capture: None,
        ..nine()
    };
    let text = fen("a7 d6 f4 c3", "g1 d2 a1 b4", 'w', (0, 0), 0, 5000);
    assert_eq!(Game::from_fen(&text, off).unwrap().outcome(), None);
    let text = fen("a7 d6 f4 c3", "g1 d2 a1 b4", 'w', (0, 0), 0, 100);
    assert_eq!(
        Game::from_fen(&text, nine()).unwrap().outcome(),
        Some(Outcome::Draw(DrawReason::NoCapture))
    );
}

#[test]
fn threefold_repetition_via_game() {
    let shuffle = "a7-d7 g1-g4 d7-a7 g4-g1";
    let mut g = game(nine(), "a7 d6 f4 c3", "g1 d2 a1 b4", 'w', (0, 0));
    play(&mut g, shuffle);
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.outcome(), None);
    play(&mut g, shuffle);
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(
        g.position().outcome(),
        None,
        "the position alone knows nothing"
    );
    assert!(g.play_token("a7-d7").is_err());
    let off = Rules {
        repetition: Repetition::Off,
        ..nine()
    };
    let mut g = game(off, "a7 d6 f4 c3", "g1 d2 a1 b4", 'w', (0, 0));
    play(&mut g, shuffle);
    play(&mut g, shuffle);
    assert_eq!(g.outcome(), None);
}

// ---- Black first. ----

#[test]
fn black_first() {
    let rules = Rules {
        first: Color::Black,
        ..nine()
    };
    let mut g = Game::new(rules);
    assert_eq!(g.position().side_to_move(), Color::Black);
    play(&mut g, "d6");
    assert_eq!(g.position().color_at(pt("d6")), Some(Color::Black));
    assert_eq!(g.position().in_hand(Color::Black), 8);
}

// ---- Notation errors. ----

#[test]
fn malformed_tokens() {
    let g = Game::new(nine());
    for bad in [
        "",
        "d4",
        "h1",
        "d6-",
        "-d5",
        "d6--d5",
        "x",
        "d6x",
        "d6xb4xf2xa1xa4",
        "dé",
    ] {
        match notation::parse_move(g.position(), bad) {
            Err(MoveError::Malformed { token, .. }) => assert_eq!(token, bad),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
}

#[test]
fn illegal_tokens_name_the_reason() {
    // Placing phase: White to move with pieces in hand.
    let g = game(nine(), "d6 f6", "a7 d7 g7 b4", 'w', (7, 5));
    assert_eq!(illegal(&g, "d6"), Illegal::Occupied(pt("d6")));
    assert_eq!(illegal(&g, "a7"), Illegal::Occupied(pt("a7")));
    assert_eq!(illegal(&g, "d6-d5"), Illegal::MustPlace);
    assert_eq!(illegal(&g, "a1-a4"), Illegal::NoPieceThere(pt("a1")));
    assert_eq!(illegal(&g, "a7-a4"), Illegal::NotYourPiece(pt("a7")));
    assert_eq!(illegal(&g, "c3xb4"), Illegal::NoRemovalDue);
    assert_eq!(illegal(&g, "xb4"), Illegal::NoRemovalDue);
    assert_eq!(illegal(&g, "b6xa1"), Illegal::NotOpponentPiece(pt("a1")));
    assert_eq!(illegal(&g, "b6xd6"), Illegal::NotOpponentPiece(pt("d6")));
    assert_eq!(illegal(&g, "b6xa7"), Illegal::Protected(pt("a7")));
    assert_eq!(illegal(&g, "b6xb4xa7"), Illegal::TooManyRemovals(1));
    // The step alone is the two-token form; then only the removal may follow.
    let mut g2 = g.clone();
    play(&mut g2, "b6");
    assert_eq!(g2.position().pending_removals(), 1);
    assert_eq!(illegal(&g2, "c3"), Illegal::RemovalPending(1));
    assert_eq!(illegal(&g2, "xa7"), Illegal::Protected(pt("a7")));
    assert_eq!(illegal(&g2, "xb4xa7"), Illegal::TooManyRemovals(1));
    play(&mut g2, "xb4");
    assert_eq!(g2.position().side_to_move(), Color::Black);
    // Moving phase.
    let g = game(nine(), "a7 d6 f4 c3", "g1 d2 a1 b4", 'w', (0, 0));
    assert_eq!(
        illegal(&g, "a7-g7"),
        Illegal::NotAdjacent(pt("a7"), pt("g7"))
    );
    assert_eq!(illegal(&g, "a7-d6"), Illegal::Occupied(pt("d6")));
    assert_eq!(illegal(&g, "a4"), Illegal::NothingInHand);
    // Errors leave the game as it was.
    let mut g3 = g.clone();
    assert!(g3.play_tokens(["a7-d7", "g1-g7"]).is_err());
    assert_eq!(g3.position(), g.position());
    assert_eq!(g3.moves().len(), 0);
}
