//! Commands that arrive while a search or perft runs: `stop`, `isready`, `quit` and `ponderhit`
//! act at once; a command that needs the engine idle waits for the job, and every command after
//! it waits behind it, in order, as Stockfish's loop does. A whole script piped in one write is
//! answered in order; a flood of waiting commands is bounded.

use super::harness::{legal, shared, spawn_piped, word_after, Engine, TIMEOUT};
use moulin::rules::perft::perft;
use moulin::{Convention, Game, Rules};
use std::io::Write;
use std::time::{Duration, Instant};

/// A placing position outside the book, whose search deepens by seconds a depth past 15.
const DEEP: &str = "position startpos moves d6 d2 f4 b4 d7 g7";

/// The lines the engine writes for `script`, written in one go, and whether it exited cleanly.
fn piped(script: &str) -> (Vec<String>, bool) {
    let mut child = spawn_piped();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    (
        text.lines().map(str::to_string).collect(),
        out.status.success(),
    )
}

/// The position after `moves` from the start.
fn after(moves: &str) -> moulin::Position {
    let mut game = Game::new(Rules::nine());
    game.play_tokens(moves.split_whitespace()).unwrap();
    *game.position()
}

/// An engine searching `DEEP` with `go infinite`.
fn searching() -> Engine {
    let mut e = Engine::start();
    e.ask("setoption name OwnBook value false");
    e.ask("setoption name OpeningSolution value none");
    e.ask(DEEP);
    e.send("go infinite");
    e
}

#[test]
fn a_script_piped_in_one_write_is_answered_in_order() {
    let _gate = shared();
    let script = "setoption name OwnBook value false\n\
                  setoption name OpeningSolution value none\n\
                  position startpos moves d6 f4\n\
                  go depth 6\n\
                  position startpos moves d6 f4 d2\n\
                  go depth 3\n\
                  perft 3\n\
                  isready\n\
                  quit\n";
    let (lines, clean) = piped(script);
    assert!(clean, "{lines:?}");
    // The first search goes to its depth, then answers; only then does the second start.
    let first = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(
        lines[..first]
            .iter()
            .any(|l| l.starts_with("info depth 6 ")),
        "{lines:?}"
    );
    let best = word_after(&lines[first], "bestmove").unwrap();
    assert!(legal(Rules::nine(), "d6 f4", best), "{lines:?}");
    let second = first
        + 1
        + lines[first + 1..]
            .iter()
            .position(|l| l.starts_with("bestmove"))
            .unwrap();
    assert!(
        lines[first + 1..second]
            .iter()
            .all(|l| l.starts_with("info depth ")),
        "{lines:?}"
    );
    assert!(
        lines[first + 1..second]
            .iter()
            .any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    let best = word_after(&lines[second], "bestmove").unwrap();
    assert!(legal(Rules::nine(), "d6 f4 d2", best), "{lines:?}");
    // Then perft in the second position, one line per root move, its total, and `readyok` last.
    let rest = &lines[second + 1..];
    let root = after("d6 f4 d2");
    let total = perft(&root, 3, Convention::Turn);
    assert_eq!(rest.len(), 21 + 3, "{rest:?}");
    let counted: u64 = rest[..21]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(counted, total, "{rest:?}");
    assert!(rest[21].starts_with("info string perft 3: "), "{rest:?}");
    assert_eq!(rest[22], format!("nodes {total}"));
    assert_eq!(rest[23], "readyok");
}

#[test]
fn isready_and_stop_act_at_once_while_commands_wait() {
    let _gate = shared();
    let mut e = searching();
    // Nothing waits: `isready` is answered at once during the search.
    let t = Instant::now();
    let lines = e.ask("isready");
    assert!(
        lines.iter().all(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // A `go` waits for the search; the commands after it wait behind it.
    e.send("go depth 2");
    e.send("position startpos moves d6");
    e.send("fen");
    assert_eq!(
        e.next_line(Duration::from_millis(300))
            .filter(|l| !l.starts_with("info depth")),
        None
    );
    // `stop` ends the search at once; then the waiting commands are obeyed in order, and the
    // `stop` ends the search they started too.
    let t = Instant::now();
    e.send("stop");
    let mut lines = e.until(|l| l.starts_with("bestmove"));
    lines.extend(e.until(|l| l.starts_with("bestmove")));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    lines.retain(|l| !l.starts_with("info depth"));
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(legal(
        Rules::nine(),
        "d6 d2 f4 b4 d7 g7",
        word_after(&lines[0], "bestmove").unwrap()
    ));
    assert_eq!(lines[1], moulin::rules::fen::write(&after("d6")));
    assert!(legal(
        Rules::nine(),
        "d6 d2 f4 b4 d7 g7",
        word_after(&lines[2], "bestmove").unwrap()
    ));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.quit();
}

#[test]
fn quit_after_waiting_commands_answers_them_first() {
    let _gate = shared();
    // `quit` with nothing waiting ends the search at once; behind a waiting `go` it comes once
    // that search has answered.
    let (lines, clean) = piped(&format!(
        "setoption name OwnBook value false\nsetoption name OpeningSolution value none\n{DEEP}\ngo depth 4\ngo depth 2\nquit\n"
    ));
    assert!(clean, "{lines:?}");
    let bestmoves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), 2, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
}

#[test]
fn a_flood_of_waiting_commands_is_bounded() {
    let _gate = shared();
    let mut e = searching();
    e.send("go depth 1");
    // 300 lines of 60,000 bytes: 18 MB, past the 16 MB that may wait.
    let word = "x".repeat(60_000);
    let mut flood = Vec::new();
    for _ in 0..300 {
        flood.extend_from_slice(word.as_bytes());
        flood.push(b'\n');
    }
    e.send_bytes(&flood);
    let dropped = 300 - (16 << 20) / 60_000;
    let mut lines = Vec::new();
    let deadline = Instant::now() + TIMEOUT;
    while lines.len() < dropped && Instant::now() < deadline {
        if let Some(l) = e.next_line(Duration::from_millis(100)) {
            if !l.starts_with("info depth") {
                lines.push(l);
            }
        }
    }
    for l in &lines {
        assert!(
            l.starts_with("info string error: 'xxxx") && l.contains("dropped"),
            "{l}"
        );
    }
    assert_eq!(lines.len(), dropped, "{lines:?}");
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    // Then the search of `go depth 1` starts, and the commands that waited are obeyed in turn
    // (each refused: an unknown command needs no idle engine, so each comes at once, and the
    // `stop` after them ends that search).
    let mut lines = e.until(|l| l.starts_with("bestmove"));
    lines.retain(|l| !l.starts_with("info depth"));
    assert_eq!(lines.len(), 300 - dropped + 1, "{:?}", &lines[..3]);
    assert!(lines[..300 - dropped]
        .iter()
        .all(|l| l.starts_with("info string error: unknown command 'xxxx")));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.quit();
}

#[test]
fn newgame_in_gbgp_ends_the_search_and_waits_for_it() {
    let _gate = shared();
    let (lines, clean) = piped(
        "gbgp\nsetoption name OwnBook value false\nsetoption name OpeningSolution value none\nnewgame\nposition pos w:w:b:1 moves d2 d6 f4\n\
         go wtime 600000 btime 600000\n\
         newgame\nisready\nposition pos w:w:b:1 moves d2\ngo depth 1\nquit\n",
    );
    assert!(clean, "{lines:?}");
    let lines: Vec<&String> = lines
        .iter()
        .skip_while(|l| *l != "gbgpok")
        .skip(1)
        .filter(|l| !l.starts_with("info "))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("bestmove "), "{lines:?}");
    assert_eq!(lines[1], "readyok");
    assert!(lines[2].starts_with("bestmove "), "{lines:?}");
}
