//! Positions and notation: both token forms, the pending removal, the turn and action
//! notations, `perft`, and the displays `d`, `eval` and `moves`.

use super::harness::{legal, shared, word_after, Engine, MOVING, PENDING, START};
use moulin::{Game, Rules};
use std::thread;
use std::time::Duration;

#[test]
fn positions_in_both_token_forms() {
    let _gate = shared();
    let mut e = Engine::start();
    assert_eq!(e.fen(), START);
    let after8 = "********/O*@*O*@*/@*O*@*O* w p p 4 5 4 5 0 0 -1 -1 -1 -1 0 0 5";
    e.ask("position startpos moves d6 f4 d2 b4 g4 d7 a4 d1");
    assert_eq!(e.fen(), after8);
    e.ask(&format!(
        "position fen {START} moves d6 f4 d2 b4 g4 d7 a4 d1"
    ));
    assert_eq!(e.fen(), after8);
    e.ask("position startpos moves d6 f4 d2 b4 g4 d7 a4 d1 d5 d3 e4 f6 f2 b2 b6 g7 a7 c3");
    assert_eq!(e.fen(), MOVING);
    // The pending removal: a valid position of its own.
    e.ask("position startpos moves d7 a1 g7 d1 a7");
    assert_eq!(e.fen(), PENDING);
    assert_eq!(e.ask_one("moves"), "moves xd1 xa1");
    e.ask(&format!("position fen {PENDING}"));
    assert_eq!(e.fen(), PENDING);
    // One token or two, the same position.
    e.ask("position startpos moves d7 a1 g7 d1 a7xd1");
    let one = e.fen();
    e.ask("position startpos moves d7 a1 g7 d1 a7 xd1");
    assert_eq!(e.fen(), one);
    e.ask(&format!("position fen {PENDING} moves xd1"));
    assert_eq!(e.fen(), one);
    // Case does not matter in commands nor moves.
    e.ask("POSITION STARTPOS MOVES D6");
    assert!(e.fen().starts_with("********/O*******/"));
    // The trailing ids marker is accepted.
    e.ask(&format!("position fen {START} ids:nodes"));
    assert_eq!(e.fen(), START);
    // ucinewgame goes back to the start.
    e.ask("position startpos moves d6");
    assert_eq!(e.ask("ucinewgame"), Vec::<String>::new());
    assert_eq!(e.fen(), START);
    e.quit();
}

#[test]
fn go_with_a_pending_removal_answers_the_removal() {
    let _gate = shared();
    let mut e = Engine::start();
    for (how, notation) in [("moves d7 a1 g7 d1 a7", "turn"), ("fen x", "action")] {
        e.ask(&format!("setoption name MoveNotation value {notation}"));
        if how == "fen x" {
            e.ask(&format!("position fen {PENDING}"));
        } else {
            e.ask(&format!("position startpos {how}"));
        }
        let best = e.bestmove("go depth 3");
        assert!(
            best == "bestmove xd1"
                || best.starts_with("bestmove xd1 ponder ")
                || best == "bestmove xa1"
                || best.starts_with("bestmove xa1 ponder "),
            "{best}"
        );
    }
    e.quit();
}

#[test]
fn turn_and_action_notation() {
    let _gate = shared();
    let mut e = Engine::without_opening();
    let before = "d7 a1 g7 d1";
    e.ask(&format!("position startpos moves {before}"));
    // Turn: the mill and its removal are one token.
    let lines = e.go("go depth 2 searchmoves a7");
    let best = word_after(lines.last().unwrap(), "bestmove").unwrap();
    assert!(best == "a7xd1" || best == "a7xa1", "{best}");
    for l in &lines[..lines.len() - 1] {
        let pv: Vec<&str> = l.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert!(pv[0].starts_with("a7x"), "{l}");
        assert!(legal(Rules::nine(), before, &pv.join(" ")), "{l}");
    }
    // Action: the step alone; the removal comes from the next go.
    e.ask("setoption name movenotation value ACTION");
    let lines = e.go("go depth 2 searchmoves a7");
    assert_eq!(lines.last().unwrap(), "bestmove a7");
    for l in &lines[..lines.len() - 1] {
        let pv = l.split(" pv ").nth(1).unwrap();
        assert!(pv.starts_with("a7 x"), "{l}");
        assert!(legal(Rules::nine(), before, pv), "{l}");
    }
    e.ask(&format!("position startpos moves {before} a7"));
    let best = e.bestmove("go depth 2");
    assert!(
        best.starts_with("bestmove xd1") || best.starts_with("bestmove xa1"),
        "{best}"
    );
    // searchmoves in two tokens names one turn.
    e.ask(&format!("position startpos moves {before}"));
    e.ask("setoption name MoveNotation value turn");
    let best = e.bestmove("go depth 2 searchmoves a7 xa1");
    assert!(best.starts_with("bestmove a7xa1"), "{best}");
    // A turn without removal prints a ponder move of the opponent.
    e.ask("position startpos");
    let best = e.bestmove("go depth 3");
    let mv = word_after(&best, "bestmove").unwrap();
    let ponder = word_after(&best, "ponder").expect("a ponder move");
    assert!(
        legal(Rules::nine(), "", &format!("{mv} {ponder}")),
        "{best}"
    );
    e.quit();
}
#[test]
fn perft_in_both_conventions() {
    let _gate = shared();
    let mut e = Engine::start();
    let lines = e.go_until("perft 3", "nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 12144");
    assert_eq!(lines.iter().filter(|l| l.ends_with(" 506")).count(), 24);
    let lines = e.go_until("go perft 5", "nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 5140800");
    e.ask("setoption name MoveNotation value action");
    let lines = e.go_until("go perft 5", "nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 5100480");
    e.ask(&format!("position fen {MOVING}"));
    e.ask("setoption name MoveNotation value turn");
    assert_eq!(
        e.go_until("perft 4", "nodes ").last().unwrap(),
        "nodes 1152"
    );
    assert_eq!(e.go_until("perft 0", "nodes ").last().unwrap(), "nodes 1");
    // A deep perft stops at once.
    e.ask("position startpos");
    e.send("perft 12");
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.until(|l| l == "info string perft stopped");
    e.quit();
}
#[test]
fn display_eval_moves() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("position startpos moves a7 g1");
    let d = e.ask("d");
    assert_eq!(d[0], "7  O-----------.-----------.");
    assert_eq!(d[12], "1  .-----------.-----------@");
    assert!(d
        .iter()
        .any(|l| l == &format!("Position: {}", e_fen_after(&["a7", "g1"]))));
    for needle in [
        "Side to move: white",
        "Phase: placing",
        "white (O): 1 on board, 8 in hand",
        "No-capture plies: 0",
        "Rules: nine",
    ] {
        assert!(d.iter().any(|l| l.contains(needle)), "{needle}: {d:?}");
    }
    let eval = e.ask("eval");
    assert!(eval[0].starts_with("term"));
    assert!(eval.iter().any(|l| l.starts_with("material")));
    let n = eval.len();
    assert!(eval[n - 2].starts_with("Evaluation: "), "{eval:?}");
    // The network's value, built in, the search's evaluation at full strength.
    assert!(
        eval[n - 1].starts_with("Network: ")
            && eval[n - 1].contains("for white, the search's evaluation at full strength")
            && eval[n - 1].contains("network built-in nine.nnue"),
        "{eval:?}"
    );
    let moves = e.ask_one("moves");
    assert_eq!(moves.split_whitespace().count(), 1 + 22);
    e.ask("position startpos moves d7 a1 g7 d1");
    let moves = e.ask_one("moves");
    assert!(
        moves.contains(" a7xd1 ") && moves.contains(" a7xa1"),
        "{moves}"
    );
    e.ask("setoption name MoveNotation value action");
    let moves = e.ask_one("moves");
    assert!(moves.contains(" a7") && !moves.contains('x'), "{moves}");
    e.ask("setoption name Variant value twelve");
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.contains('\\')), "{d:?}");
    assert!(d.iter().any(|l| l.contains("Rules: twelve")), "{d:?}");
    e.quit();
}

fn e_fen_after(moves: &[&str]) -> String {
    let mut g = Game::new(Rules::nine());
    g.play_tokens(moves.iter().copied()).unwrap();
    moulin::rules::fen::write(g.position())
}
