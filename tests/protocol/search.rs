//! Search and time: the `info` lines, every limit of `go`, infinite and ponder searches, a
//! finished game, and clocks.

use super::harness::{legal, shared, word_after, Engine, MOVING, TIMEOUT};
use moulin::{Game, Rules};
use std::thread;
use std::time::{Duration, Instant};

#[test]
fn info_lines_have_every_field() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask(&format!("position fen {MOVING}"));
    e.ask("setoption name MultiPV value 3");
    let lines = e.go("go depth 4");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    let mut multipvs = std::collections::BTreeSet::new();
    for l in &infos {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[1], "depth", "{l}");
        assert_eq!(w[3], "seldepth", "{l}");
        assert_eq!(w[5], "multipv", "{l}");
        assert_eq!(w[7], "score", "{l}");
        assert!(w[8] == "cp" || w[8] == "mate", "{l}");
        w[9].parse::<i32>().unwrap();
        let mut i = 10;
        if w[i] == "lowerbound" || w[i] == "upperbound" {
            i += 1;
        }
        for key in ["nodes", "nps", "hashfull", "tbhits", "time"] {
            assert_eq!(w[i], key, "{l}");
            w[i + 1].parse::<u64>().unwrap();
            i += 2;
        }
        assert_eq!(w[i], "pv", "{l}");
        multipvs.insert(w[6].parse::<u32>().unwrap());
        let mut game = Game::from_fen(MOVING, Rules::nine()).unwrap();
        game.play_tokens(w[i + 1..].iter().copied()).unwrap();
    }
    assert_eq!(multipvs.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    e.quit();
}

#[test]
fn search_limits() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask(&format!("position fen {MOVING}"));
    for go in [
        "go depth 1",
        "go nodes 2000",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 3000 btime 3000 movestogo 20",
        "go wtime -100 btime 50",
        "go nodes 99999999999999999999999999 depth 2",
        "go wtime 99999999999999999999 btime 99999999999999999 winc 999999999999999999 binc 9999999999999999999 depth 2",
    ] {
        let t = Instant::now();
        let best = e.bestmove(go);
        let mv = word_after(&best, "bestmove").unwrap();
        let mut game = Game::from_fen(MOVING, Rules::nine()).unwrap();
        game.play_token(mv).unwrap_or_else(|err| panic!("{go}: {best}: {err}"));
        assert!(t.elapsed() < Duration::from_secs(5), "{go} took {:?}", t.elapsed());
    }
    // Huge depths are clamped and run until stop.
    e.send("go depth 999999");
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    // The other styles and options search too.
    for option in [
        "setoption name Style value plain",
        "setoption name Threads value 2",
        "setoption name MoveOverhead value 0",
        "setoption name Ponder value true",
        "setoption name Hash value 1",
    ] {
        assert_eq!(e.ask(option), Vec::<String>::new(), "{option}");
        let best = e.bestmove("go depth 3");
        let mut game = Game::from_fen(MOVING, Rules::nine()).unwrap();
        game.play_token(word_after(&best, "bestmove").unwrap())
            .unwrap();
    }
    e.quit();
}

#[test]
fn infinite_and_ponder_hold_bestmove() {
    let _gate = shared();
    let mut e = Engine::start();
    // These positions are in the opening book: search them.
    e.ask("setoption name OwnBook value false");
    e.ask("position startpos moves d6 f4");
    // A search that ends by itself still waits for stop.
    e.send("go infinite depth 2");
    e.until(|l| l.starts_with("info depth 2"));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    thread::sleep(Duration::from_millis(150));
    e.send("stop");
    // Nothing but the answer: what it knows exactly (the opening's solution holds this
    // position: `info string placing solution ...`), then `bestmove`.
    let lines = e.until(|l| l.starts_with("bestmove"));
    let (answer, before) = lines.split_last().unwrap();
    assert!(answer.starts_with("bestmove "), "{lines:?}");
    assert!(
        before
            .iter()
            .all(|l| l.starts_with("info string placing solution ")),
        "{lines:?}"
    );
    // Pondering: held until ponderhit.
    e.send("go ponder depth 2");
    e.until(|l| l.starts_with("info depth 2"));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.send("ponderhit");
    e.until(|l| l.starts_with("bestmove"));
    // A ponder search that is still running goes on under its limits after ponderhit.
    e.send("go ponder movetime 100");
    thread::sleep(Duration::from_millis(200));
    let lines = e.ask("isready");
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    e.send("ponderhit");
    let t = Instant::now();
    e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(2));
    // stop without a search, ponderhit without pondering: nothing.
    assert_eq!(e.ask("stop"), Vec::<String>::new());
    assert_eq!(e.ask("ponderhit"), Vec::<String>::new());
    // A new go right after stop waits for the old search instead of refusing.
    e.send("go infinite");
    e.send("stop");
    e.send("go depth 1");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    e.until(|l| l.starts_with("bestmove"));
    e.quit();
}

#[test]
fn game_over_answers_none_with_the_reason() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("position fen O*O*****/********/@@@***** w m s 2 0 3 0 0 0 -1 -1 -1 -1 0 0 20");
    let lines = e.go("go depth 3");
    assert_eq!(
        lines,
        vec![
            "info string game over: 0-1 black wins: white has fewer than three pieces",
            "bestmove none"
        ]
    );
    assert_eq!(e.ask_one("moves"), "moves");
    let err = e.refused(
        "position fen O*O*****/********/@@@***** w m s 2 0 3 0 0 0 -1 -1 -1 -1 0 0 20 moves d5-d6",
    );
    assert!(err.contains("game is over"), "{err}");
    // Held in infinite mode like any result.
    e.send("go infinite");
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.send("stop");
    assert_eq!(e.until(|l| l.starts_with("bestmove")).len(), 2);
    e.quit();
}
#[test]
fn a_clock_for_the_other_side_only_still_limits_the_search() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name OwnBook value false");
    // Black to move, only White's clock: the engine takes its own to be the same.
    e.ask("position startpos moves d6");
    let t = Instant::now();
    let lines = e.go("go wtime 1000");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    assert!(t.elapsed() < TIMEOUT);
}

#[test]
fn levels_play_legal_moves_faster_than_the_full_engine() {
    let _gate = shared();
    let mut e = Engine::start();
    assert!(e
        .ask_one("setoption name Level value 0")
        .starts_with("info string error: "));
    assert!(e
        .ask_one("setoption name Level value 21")
        .starts_with("info string error: "));
    for level in [1, 7, 13, 19] {
        assert!(e
            .ask(&format!("setoption name Level value {level}"))
            .is_empty());
        for moves in ["", "d2 d6 f4 b4", "d7 a1 g7 d1"] {
            e.ask(&format!("position startpos moves {moves}"));
            let t = Instant::now();
            let lines = e.go("go movetime 2000");
            // The node budget ends a weak level's search long before its time.
            assert!(t.elapsed() < Duration::from_millis(1500), "level {level}");
            let best = lines.last().unwrap();
            let mv = word_after(best, "bestmove").unwrap();
            assert!(legal(Rules::nine(), moves, mv), "level {level}: {best}");
            // No book move at a limited level: every answer is searched.
            assert!(lines.iter().all(|l| !l.contains("book")), "{lines:?}");
            assert!(lines.iter().all(|l| !l.contains("multipv 2")), "{lines:?}");
        }
    }
    e.quit();
}

#[test]
fn uci_elo_limits_the_strength_only_with_uci_limit_strength() {
    let _gate = shared();
    let mut e = Engine::start();
    for bad in [
        "setoption name UCI_Elo value 100",
        "setoption name UCI_Elo value 2001",
    ] {
        assert!(e.ask_one(bad).starts_with("info string error: "), "{bad}");
    }
    e.ask("position startpos");
    // Full strength: the opening's solution (or the book) answers at once.
    let known = |l: &String| l.contains("book") || l.contains("placing solution");
    assert!(e.go("go movetime 2000").iter().any(known));
    assert!(e.ask("setoption name UCI_Elo value 600").is_empty());
    assert!(e.go("go movetime 2000").iter().any(known));
    assert!(e
        .ask("setoption name UCI_LimitStrength value true")
        .is_empty());
    let t = Instant::now();
    let lines = e.go("go movetime 2000");
    // Limited: searched (no book, no solution), within its node budget, long before the time.
    assert!(lines.iter().all(|l| !known(l)), "{lines:?}");
    assert!(t.elapsed() < Duration::from_millis(1500));
    assert!(e
        .ask("setoption name UCI_LimitStrength value false")
        .is_empty());
    assert!(e.go("go movetime 2000").iter().any(known));
    e.quit();
}
