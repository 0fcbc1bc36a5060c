//! The search through its library interface: the answer under a stop agrees with what was last
//! reported, and the quiescence answers mill threats (forks).

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::rules::board::Point;
use moulin::rules::game::Game;
use moulin::search::bench::POSITIONS;
use moulin::search::{Control, Info, Limits, Score, Searcher};
use moulin::{Bitboard, Color, Rules};

fn game_after(moves: &str) -> Game {
    let mut game = Game::new(Rules::nine());
    game.play_tokens(moves.split_whitespace())
        .unwrap_or_else(|e| panic!("{moves}: {e:?}"));
    game
}

fn points(names: &str) -> Bitboard {
    names
        .split_whitespace()
        .map(|n| Point::parse(n).unwrap())
        .fold(Bitboard::EMPTY, moulin::Bitboard::with)
}

/// Stopped anywhere (here by a node limit, which stops as a `stop` would, but reproducibly), the
/// search answers the first move of the last line it reported: a move that only had a bound
/// below another's in an unfinished iteration is never played.
#[test]
fn the_answer_is_the_last_reported_line() {
    let mut searcher = Searcher::new(16, 1);
    let mut checked = 0;
    for (fen, _) in POSITIONS {
        let game = Game::from_fen(fen, Rules::nine()).unwrap();
        for nodes in [3_000, 11_000, 37_000, 90_000, 210_000] {
            searcher.new_game();
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let mut last: Option<Info> = None;
            let result = searcher.search(&game, &limits, &Control::new(), &mut |info| {
                if info.multipv == 1 {
                    last = Some(info.clone());
                }
            });
            let last = last.expect("a line is reported");
            assert_eq!(
                result.best,
                last.pv.first().copied(),
                "{fen} at {nodes} nodes: the answer is not the last line {last:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, POSITIONS.len() * 5);
}

#[test]
fn mill_threats_in_every_phase() {
    // Placing: White's c4 and c5 threaten c3, c5 and d5 threaten e5.
    let game = game_after("c4 a1 c5 g7 d5");
    let pos = game.position();
    assert_eq!(pos.mill_threats(Color::White), points("c3 e5"));
    assert_eq!(pos.mill_threats(Color::Black), Bitboard::EMPTY);
    // Black's a1 and g1 threaten d1 once both are placed.
    let game = game_after("c4 a1 c5 g1 d5");
    assert_eq!(game.position().mill_threats(Color::Black), points("d1"));

    // Moving: a piece steps in only from outside the line and only to a neighbour.
    let fen = "O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10";
    let game = Game::from_fen(fen, Rules::nine()).unwrap();
    let pos = game.position();
    for c in Color::BOTH {
        let t = pos.rules().topology();
        let ours = pos.pieces(c);
        let mut expected = Bitboard::EMPTY;
        for from in ours {
            for to in t.adjacent[from.index()] & pos.empty() {
                if t.partners[to.index()]
                    .iter()
                    .any(|p| p.count() == 2 && p.is_subset(ours.without(from)))
                {
                    expected = expected.with(to);
                }
            }
        }
        assert_eq!(pos.mill_threats(c), expected, "{c:?} in {fen}");
    }

    // Flying: three pieces reach every point that completes their line.
    let fen = "@*@*****/**@O@***/O*@O***@ b m s 3 0 6 0 0 0 -1 -1 -1 -1 0 4 28";
    let game = Game::from_fen(fen, Rules::nine()).unwrap();
    let pos = game.position();
    assert!(pos.can_fly(Color::White));
    let t = pos.rules().topology();
    let white = pos.pieces(Color::White);
    let mut expected = Bitboard::EMPTY;
    for from in white {
        expected |= t.completing_points(white.without(from), pos.empty());
    }
    assert_eq!(pos.mill_threats(Color::White), expected);
}

/// White to move can place c5, threatening two mills at once (c3 and e5): Black blocks one and
/// loses a piece to the other. The quiescence search sees it from depth 1, where a search that
/// stood pat after c5 would score it a third of a piece below zero; at depth 1 it already agrees
/// with a depth-5 search, which plays the fork out.
#[test]
fn quiescence_sees_a_fork_from_depth_1() {
    let game = game_after("c4 a1 d5 g7");
    let c5 = moulin::rules::notation::parse_move(game.position(), "c5").unwrap();
    let mut searcher = Searcher::new(16, 1);
    // The quiescence is what is tested: with the hand-written evaluation, whose placing terms
    // do not move between the two depths (the learned one values the position after the fork's
    // exchange on its own terms, 92 at depth 1 and 12 at depth 5).
    searcher.options.learned = false;
    let mut score_at = |depth: u32| {
        searcher.new_game();
        let limits = Limits {
            depth: Some(depth),
            searchmoves: vec![c5],
            ..Limits::default()
        };
        match searcher
            .search(&game, &limits, &Control::new(), &mut |_| {})
            .score
        {
            Score::Cp(cp) => cp,
            s @ Score::Mate(_) => panic!("no forced result here: {s:?}"),
        }
    };
    let shallow = score_at(1);
    let deep = score_at(5);
    assert!(
        shallow >= 40,
        "c5 wins about a piece, scored {shallow} at depth 1"
    );
    assert!(
        (shallow - deep).abs() <= 50,
        "depth 1 scores c5 {shallow}, depth 5 {deep}"
    );
}
