//! The opening book: moves answered at once, `OwnBook`, missing, corrupt, slow and huge book
//! files, and book turns in the action notation.

use super::harness::{legal, scratch, shared, word_after, Engine, START, TIMEOUT};
use moulin::Rules;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

/// The shipped book of the standard game.
fn shipped_book() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/nine.book"))
        .expect("book/nine.book")
}

/// A file of the test's own in the temporary folder.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn book_moves_are_answered_at_once() {
    let _gate = shared();
    let mut e = Engine::without_opening();
    // The start position is in the book: even a deep search is answered at once.
    let t = Instant::now();
    e.ask("position startpos");
    let lines = e.go("go depth 30");
    let elapsed = t.elapsed();
    assert_eq!(lines.len(), 3, "{lines:?}");
    // A score and the move, as a GUI reads them, then the book's word, then the move.
    let w: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(&w[..3], ["info", "depth", "0"], "{lines:?}");
    let score = word_after(&lines[0], "score").unwrap();
    assert!(score == "cp" || score == "mate", "{lines:?}");
    word_after(&lines[0], score)
        .unwrap()
        .parse::<i32>()
        .unwrap();
    let w: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&w[..3], ["info", "string", "book"], "{lines:?}");
    assert_eq!(w[4], "weight", "{lines:?}");
    w[5].parse::<u32>().unwrap();
    let best = word_after(&lines[2], "bestmove").unwrap();
    assert_eq!(best, w[3]);
    assert_eq!(lines[0].split_whitespace().last(), Some(best), "{lines:?}");
    assert!(legal(Rules::nine(), "", best), "{lines:?}");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    // Deterministic by default; every first move of White has a book reply.
    assert_eq!(e.go("go depth 30"), lines);
    for first in ["a7", "d7", "d6", "c5", "b4", "e3", "g1"] {
        e.ask(&format!("position startpos moves {first}"));
        let lines = e.go("go depth 30");
        assert!(
            lines[1].starts_with("info string book "),
            "{first}: {lines:?}"
        );
        let best = word_after(lines.last().unwrap(), "bestmove").unwrap();
        assert!(legal(Rules::nine(), first, best), "{first}: {lines:?}");
    }
    // `go infinite` in a book position holds its bestmove until stop.
    e.ask("position startpos");
    e.send("go infinite");
    assert!(e.next_line(TIMEOUT).unwrap().starts_with("info depth 0 "));
    assert!(e
        .next_line(TIMEOUT)
        .unwrap()
        .starts_with("info string book "));
    assert_eq!(e.next_line(Duration::from_millis(200)), None);
    e.send("stop");
    assert!(e.next_line(TIMEOUT).unwrap().starts_with("bestmove "));
    // searchmoves asks for a search.
    let lines = e.go("go depth 2 searchmoves a7");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap().split_whitespace().nth(1), Some("a7"));
    // A weighted choice stays among the book moves of the position.
    e.ask("setoption name BookVariety value weighted");
    let start = shipped_book()
        .lines()
        .find(|l| l.starts_with(START))
        .unwrap()
        .to_string();
    let book_moves: Vec<&str> = start
        .split('|')
        .skip(1)
        .map(|m| m.split_whitespace().next().unwrap())
        .collect();
    for _ in 0..10 {
        let best = e.bestmove("go depth 30");
        let mv = word_after(&best, "bestmove").unwrap();
        // The start is symmetric (the rotations, reflections and the swap of the inner and
        // outer squares): any image of a book move will do.
        let class = |m: &str| match m {
            "d6" | "f4" | "d2" | "b4" => 0,
            "d5" | "e4" | "d3" | "c4" | "d7" | "g4" | "d1" | "a4" => 1,
            "f6" | "f2" | "b2" | "b6" => 2,
            _ => 3,
        };
        assert!(
            book_moves.iter().any(|b| class(b) == class(mv)),
            "{mv} is none of {book_moves:?}"
        );
    }
    e.quit();
}

#[test]
fn own_book_false_searches() {
    let _gate = shared();
    let mut e = Engine::without_opening();
    e.ask("setoption name OwnBook value false");
    e.ask("position startpos");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2")),
        "{lines:?}"
    );
    // And back on.
    e.ask("setoption name OwnBook value true");
    let lines = e.go("go depth 2");
    assert!(lines[1].starts_with("info string book"), "{lines:?}");
    // Another variant has no book of its own: a search (and a warning on stderr only).
    assert_eq!(
        e.ask("setoption name Variant value twelve"),
        Vec::<String>::new()
    );
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert_eq!(
        e.ask("setoption name Variant value nine"),
        Vec::<String>::new()
    );
    let lines = e.go("go depth 2");
    assert!(lines[1].starts_with("info string book"), "{lines:?}");
    // A book of other rules is not used: nine.book under twelve's rules.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/book/nine.book");
    e.ask(&format!("setoption name BookFile value {path}"));
    e.ask("setoption name Variant value twelve");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn missing_or_corrupt_book_files_leave_the_engine_playing() {
    let _gate = shared();
    let mut e = Engine::without_opening();
    // Missing: one error line for the GUI, and a search.
    assert_eq!(
        e.ask("setoption name BookFile value /no/such/dir/x.book"),
        vec![
            "info string error: opening book /no/such/dir/x.book: no such file; playing without \
             a book"
                .to_string()
        ]
    );
    e.ask("position startpos");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    // Corrupt: one error line naming the line, then a search.
    let mut text: Vec<String> = shipped_book().lines().take(40).map(String::from).collect();
    let header = text
        .iter()
        .position(|l| l.starts_with("positions "))
        .unwrap();
    text[header] = format!("positions {}", text.len() - header - 1);
    text[header + 3] = text[header + 3].replace('|', "| zz9 0 1 |");
    let path = temp_file("corrupt.book", &text.join("\n"));
    let lines = e.ask(&format!("setoption name BookFile value {}", path.display()));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: opening book ")
            && lines[0].contains(&format!("line {}", header + 4))
            && lines[0].contains("zz9"),
        "{lines:?}"
    );
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert!(legal(
        Rules::nine(),
        "",
        word_after(lines.last().unwrap(), "bestmove").unwrap()
    ));
    // The same lines, intact, make a book the engine plays from.
    text[header + 3] = text[header + 3].replace("| zz9 0 1 |", "|");
    let good = temp_file("good.book", &text.join("\n"));
    assert_eq!(
        e.ask(&format!("setoption name BookFile value {}", good.display())),
        Vec::<String>::new()
    );
    let lines = e.go("go depth 2");
    assert!(lines[1].starts_with("info string book"), "{lines:?}");
    // `<empty>` is the variant's default book again.
    assert_eq!(
        e.ask("setoption name BookFile value <empty>"),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(good);
    e.quit();
}

/// A bad `BookFile` set in a running session is told to the GUI, before `readyok`, and the
/// engine plays on without a book (one given on the command line ends moulin: `named_files`).
#[test]
fn a_bad_book_file_set_in_a_session_is_an_info_string() {
    let _gate = shared();
    let damaged = temp_file("damaged.book", "moulin book\npositions 1\nnonsense\n");
    for (path, why) in [
        ("/no/such/dir/x.book".to_string(), "no such file"),
        (damaged.display().to_string(), "line "),
    ] {
        let mut e = Engine::start_with(&["--option", "OpeningSolution=none"]);
        e.send(&format!("setoption name BookFile value {path}"));
        let lines = e.ask("isready");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with(&format!("info string error: opening book {path}"))
                && lines[0].contains(why)
                && lines[0].ends_with("; playing without a book"),
            "{lines:?}"
        );
        e.quit();
    }
    let _ = std::fs::remove_file(damaged);
}

#[test]
fn book_turns_in_the_action_notation() {
    let _gate = shared();
    let book = shipped_book();
    // A book position whose best move closes a mill.
    let line = book
        .lines()
        .find(|l| {
            l.split('|')
                .nth(1)
                .is_some_and(|m| m.split_whitespace().next().unwrap().contains('x'))
        })
        .expect("a book move that removes");
    let fen = line.split('|').next().unwrap().trim();
    let turn = line
        .split('|')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let (step, removal) = turn.split_at(turn.find('x').unwrap());
    let mut e = Engine::without_opening();
    e.ask(&format!("position fen {fen}"));
    let lines = e.go("go depth 30");
    assert_eq!(lines[1].split_whitespace().nth(3), Some(turn), "{lines:?}");
    assert_eq!(word_after(&lines[2], "bestmove"), Some(turn));
    e.ask("setoption name MoveNotation value action");
    e.ask(&format!("position fen {fen}"));
    let lines = e.go("go depth 30");
    assert_eq!(lines[1].split_whitespace().nth(3), Some(turn), "{lines:?}");
    // The line of play in the action notation: the step, then its removal.
    assert!(
        lines[0].ends_with(&format!(" pv {step} {removal}")),
        "{lines:?}"
    );
    assert_eq!(lines[2], format!("bestmove {step}"));
    e.ask(&format!("position fen {fen} moves {step}"));
    let lines = e.go("go depth 30");
    assert!(lines[1].starts_with("info string book "), "{lines:?}");
    assert_eq!(
        word_after(lines.last().unwrap(), "bestmove"),
        Some(removal),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn readyok_waits_for_the_book_and_what_follows_waits_behind_it() {
    let _gate = shared();
    // A named pipe as the book file: its reader waits until the test writes the book into it.
    let pipe = scratch("slow.book");
    let _ = std::fs::remove_file(&pipe);
    let made = Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", pipe.display());
    let mut e = Engine::without_opening();
    e.ask("isready");
    e.send(&format!("setoption name BookFile value {}", pipe.display()));
    e.send("isready");
    // The book is being read: the engine is not ready, and what comes after `isready` waits
    // behind it, as Stockfish answers in order; `stop` still acts (on nothing).
    e.send("stop");
    e.send("fen");
    assert_eq!(
        e.next_line(Duration::from_millis(300)),
        None,
        "readyok or fen too early"
    );
    let writer = {
        let pipe = pipe.clone();
        thread::spawn(move || std::fs::write(&pipe, shipped_book()))
    };
    // What the engine knows (the book changed) is said before the `readyok`.
    assert_eq!(e.until(|l| l == "readyok"), ["readyok"]);
    assert_eq!(e.next_line(TIMEOUT).as_deref(), Some(START));
    writer.join().unwrap().unwrap();
    // Ready: a book position is answered from the book.
    e.ask("position startpos");
    let lines = e.go("go wtime 100 btime 100");
    assert!(lines[1].starts_with("info string book "), "{lines:?}");
    let _ = std::fs::remove_file(&pipe);
}

#[test]
fn a_book_file_too_large_is_refused_with_one_error() {
    let _gate = shared();
    let path = scratch("huge.book");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(65 << 20).unwrap();
    let mut e = Engine::without_opening();
    let lines = e.ask(&format!("setoption name BookFile value {}", path.display()));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: opening book ") && lines[0].contains("64 MB"),
        "{lines:?}"
    );
    // The engine plays on without a book.
    e.ask("position startpos");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(&path);
}

/// The first position of the shipped book whose best move (weight 100) carries `mark`: its
/// position string and that move.
fn proven_in_book(mark: &str) -> (String, String) {
    shipped_book()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| {
            let mut fields = l.split('|');
            let fen = fields.next()?.trim().to_string();
            let best = fields.find_map(|m| {
                let w: Vec<&str> = m.split_whitespace().collect();
                (w.len() == 3 && w[1] == mark && w[2] == "100").then(|| w[0].to_string())
            })?;
            Some((fen, best))
        })
        .unwrap_or_else(|| panic!("a book move marked {mark}"))
}

/// A move of the shipped book proven to keep at least a draw is scored as a draw, a lower bound
/// (`cp 0 lowerbound`: the position may be won, the proof says only that it is not lost); one
/// proven to win as the win the placing solution states (`cp 28000`); the GBGP dialect states
/// the same from White's side, with no bound.
#[test]
fn proven_book_moves_state_their_value() {
    let _gate = shared();
    let mut e = Engine::without_opening();
    let mut gbgp = Engine::without_opening();
    gbgp.send("gbgp");
    gbgp.until(|l| l == "gbgpok");
    for (mark, value, uci, cp) in [
        (">=draw", "draw", "cp 0 lowerbound", 0),
        (">=win", "win", "cp 28000", 28000),
    ] {
        let (fen, mv) = proven_in_book(mark);
        e.ask(&format!("position fen {fen}"));
        let lines = e.go("go depth 30");
        assert_eq!(
            lines[..2],
            [
                format!(
                    "info depth 0 seldepth 0 multipv 1 score {uci} nodes 0 nps 0 hashfull 0 tbhits 0 time 0 pv {mv}"
                ),
                format!("info string book {mv} weight 100 proven {value}"),
            ],
            "{fen}"
        );
        assert_eq!(word_after(&lines[2], "bestmove"), Some(mv.as_str()));
        let pos = *moulin::Game::from_fen(&fen, Rules::nine())
            .unwrap()
            .position();
        let white = if pos.side_to_move() == moulin::Color::White {
            1
        } else {
            -1
        };
        gbgp.ask(&format!(
            "position pos {}",
            moulin::rules::gbgp_position::write(&pos)
        ));
        let lines = gbgp.go("go depth 30");
        assert_eq!(
            lines,
            [
                format!(
                    "info depth 0 time 0 nodes 0 score eval {} pv {mv}",
                    white * cp
                ),
                lines[1].clone(),
            ],
            "{fen}"
        );
        assert_eq!(word_after(&lines[1], "bestmove"), Some(mv.as_str()));
    }
    e.quit();
    gbgp.quit();
}
