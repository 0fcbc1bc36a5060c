//! The fuzz: 100,000 random and mutated lines, after which the engine still plays.

use super::harness::{legal, shared, word_after, Engine};
use moulin::rng::Rng;
use moulin::Rules;
use std::time::Instant;

/// Picks one of `items`.
fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Lines of the GBGP dialect, for its session.
const GBGP_SEEDS: [&str; 8] = [
    "gbgp",
    "newgame",
    "setoption name TwelveMensMorris value true",
    "setoption name TwelveMensMorris value false",
    "position pos w:w:b:1",
    "position pos w:w:b:1 moves d2 d6 f4 b4",
    "position pos b:wb4,c4:bd2:2 moves a1",
    "go wtime 1000 btime 1000",
];

const SEEDS: [&str; 48] = [
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name MoveOverhead value 10",
    "setoption name Ponder value true",
    "setoption name Style value plain",
    "setoption name Style value full",
    "setoption name MoveNotation value action",
    "setoption name MoveNotation value turn",
    "setoption name Variant value twelve",
    "setoption name Variant value morabaraba",
    "setoption name Variant value nine",
    "setoption name Pieces value 10",
    "setoption name FirstPlayer value black",
    "setoption name Diagonals value true",
    "setoption name Flying value 4",
    "setoption name MillProtection value never",
    "setoption name DoubleMill value per-mill",
    "setoption name Reform value illegal",
    "setoption name NoCapture value 20",
    "setoption name Repetition value off",
    "setoption name MovingInPlacing value true",
    "setoption name FullBoard value blocked",
    "position startpos",
    "position startpos moves d6 f4 d2 b4 g4 d7 a4 d1",
    "position startpos moves d7 a1 g7 d1 a7",
    "position startpos moves d7 a1 g7 d1 a7xd1 b4",
    "position startpos moves d7 a1 g7 d1 a7 xd1 b4",
    "position fen ********/********/OO**@@*O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3",
    "position fen O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10 moves d5-e5",
    "go depth 2",
    "go nodes 500",
    "go movetime 5",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 5",
    "go infinite",
    "go ponder depth 1",
    "go depth 2 searchmoves d6 a7",
    "go perft 2",
    "perft 2",
    "stop",
    "ponderhit",
    "d",
    "fen",
    "moves",
    "eval",
];

/// One fuzz line: random bytes, or a seed line mutated (bytes changed, inserted, deleted,
/// truncated, words swapped or repeated, numbers made huge), or rarely a very long line.
fn fuzz_line(rng: &mut Rng, extra: &[&str]) -> Vec<u8> {
    let seeds: Vec<&str> = SEEDS.iter().chain(extra).copied().collect();
    let line: Vec<u8> = match rng.below(10) {
        0 => (0..rng.below(80)).map(|_| rng.next_u64() as u8).collect(),
        1 => {
            let words: Vec<&str> = seeds.iter().flat_map(|s| s.split(' ')).collect();
            (0..=rng.below(8))
                .map(|_| pick(rng, &words))
                .collect::<Vec<_>>()
                .join(" ")
                .into_bytes()
        }
        2 if rng.below(500) == 0 => {
            let mut l = pick(rng, &seeds).as_bytes().to_vec();
            l.extend((0..70_000 + rng.below(70_000)).map(|_| b"ab d6-\xff "[rng.below(8)]));
            l
        }
        _ => {
            let mut l = pick(rng, &seeds).as_bytes().to_vec();
            for _ in 0..=rng.below(3) {
                match rng.below(7) {
                    0 if !l.is_empty() => {
                        let i = rng.below(l.len());
                        l[i] = rng.next_u64() as u8;
                    }
                    1 => {
                        let i = rng.below(l.len() + 1);
                        l.insert(i, rng.next_u64() as u8);
                    }
                    2 if !l.is_empty() => {
                        let i = rng.below(l.len());
                        l.remove(i);
                    }
                    3 => {
                        let i = rng.below(l.len() + 1);
                        l.truncate(i);
                    }
                    4 => {
                        let huge = pick(
                            rng,
                            &[
                                "99999999999999999999999999",
                                "-1",
                                "0",
                                "18446744073709551616",
                                "4294967296",
                            ],
                        );
                        let text = String::from_utf8_lossy(&l).to_string();
                        let swapped: Vec<String> = text
                            .split(' ')
                            .map(|w| {
                                if w.bytes().all(|b| b.is_ascii_digit()) && !w.is_empty() {
                                    huge.to_string()
                                } else {
                                    w.to_string()
                                }
                            })
                            .collect();
                        l = swapped.join(" ").into_bytes();
                    }
                    5 => {
                        let text = String::from_utf8_lossy(&l).to_string();
                        let mut words: Vec<&str> = text.split(' ').collect();
                        let (a, b) = (rng.below(words.len()), rng.below(words.len()));
                        words.swap(a, b);
                        l = words.join(" ").into_bytes();
                    }
                    _ => {
                        let text = String::from_utf8_lossy(&l).to_string();
                        let words: Vec<&str> = text.split(' ').collect();
                        let w = words[rng.below(words.len())];
                        l = format!("{text} {w} {w}").into_bytes();
                    }
                }
            }
            l
        }
    };
    // The fuzz must not end the engine, nor grow its hash table.
    let text = String::from_utf8_lossy(&line).to_ascii_lowercase();
    let first = text.split_whitespace().next().unwrap_or("");
    if first == "quit" || text.contains("hash") {
        return b"isready".to_vec();
    }
    line.into_iter().filter(|&b| b != b'\n').collect()
}

#[test]
fn fuzz_100k_lines_then_still_plays() {
    fuzz_then_play(None);
}

#[test]
fn fuzz_100k_lines_of_a_gbgp_session_then_still_plays() {
    fuzz_then_play(Some("gbgp"));
}

/// The fuzz, in a session whose first line is `first` (the dialect), then a game move.
fn fuzz_then_play(first: Option<&str>) {
    let _gate = shared();
    let mut e = Engine::start();
    let extra: &[&str] = match first {
        Some(line) => {
            e.send(line);
            &GBGP_SEEDS
        }
        None => &[],
    };
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let started = Instant::now();
    let mut batch = Vec::new();
    for i in 0..100_000 {
        batch.extend(fuzz_line(&mut rng, extra));
        batch.push(b'\n');
        if i % 1000 == 999 {
            e.send_bytes(&batch);
            batch.clear();
        }
    }
    e.send("stop");
    e.send("fuzz-is-over");
    let lines = e.until(|l| l.contains("fuzz-is-over"));
    assert!(
        lines.iter().all(|l| !l.contains("internal error")),
        "{:?}",
        lines.iter().find(|l| l.contains("internal error"))
    );
    if first.is_some() {
        for l in &lines {
            super::gbgp::gui_reads(l);
        }
    }
    println!(
        "fuzz: 100000 lines in {:.2} s, {} lines answered",
        started.elapsed().as_secs_f64(),
        lines.len()
    );
    // Whatever the fuzz left running ends before the setoption (which waits for a stopped job).
    e.send("stop");
    e.send("setoption name Variant value nine");
    if first.is_some() {
        e.send("setoption name TwelveMensMorris value false");
    }
    e.send("fuzz-is-drained");
    e.until(|l| l.contains("fuzz-is-drained"));
    for reset in [
        "setoption name MoveNotation value turn",
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
    ] {
        assert_eq!(e.ask(reset), Vec::<String>::new(), "{reset}");
    }
    e.ask("position startpos moves d6 f4");
    let best = e.bestmove("go depth 3");
    let mv = word_after(&best, "bestmove").unwrap();
    assert!(legal(Rules::nine(), "d6 f4", mv), "{best}");
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.quit();
}
