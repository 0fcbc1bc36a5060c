//! The opening's solution (issue 53) on the game of four pieces a side: made and verified by
//! `moulin tables opening`, refused in one line when damaged, cut or foreign, and used without
//! any tables: `go` keeps the value in every covered position of a sample of games, and the
//! analyst values the moves of covered positions exactly.

use super::harness::{scratch, shared, Engine};
use super::placing::{four_a_side, game};
use super::tables::moulin;
use moulin::analyse::analyst::{Analyst, Setup};
use moulin::rules::movegen::legal_moves;
use moulin::search::exact::solved;
use moulin::tables::placing::opening;
use moulin::tables::Tables;
use moulin::{Convention, Game};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The plies of the test file: positions of plies 0 to 5 (the placing of four a side ends at
/// ply 7), so that plies 0 to 3 have their replies' values, ply 4 its moves' only.
const PLIES: u8 = 5;

/// The opening's solution of the four-a-side game, made once by the binary from its placing
/// solution, and verified by it.
fn opening_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = four_a_side();
        let file = scratch("opening-4.sol");
        let (d, f) = (dir.to_str().unwrap(), file.to_str().unwrap());
        let plies = PLIES.to_string();
        let made = moulin(&[
            "tables", "opening", "--plies", &plies, "--pieces", "4", "--dir", d, "--out", f,
        ]);
        let text = String::from_utf8_lossy(&made.stdout);
        assert!(made.status.success(), "{made:?}");
        // A line a ply, then the total, then the file read back.
        for ply in 0..=PLIES {
            assert!(
                text.lines()
                    .any(|l| l.split_whitespace().next() == Some(&ply.to_string())),
                "{text}"
            );
        }
        assert!(text.contains("decompressed and checked in"), "{text}");
        let verified = moulin(&[
            "tables", "opening", "--verify", f, "--pieces", "4", "--dir", d,
        ]);
        let said = String::from_utf8_lossy(&verified.stdout);
        assert!(verified.status.success(), "{verified:?}");
        assert!(
            said.contains(" 0 differ") && said.ends_with("ok\n"),
            "{said}"
        );
        file
    })
}

#[test]
fn a_damaged_cut_or_foreign_opening_file_is_refused_in_one_line() {
    let _g = shared();
    let good = std::fs::read(opening_file()).unwrap();
    let rules = game(4);
    let o = opening::read(opening_file(), &rules).unwrap();
    assert_eq!(o.plies, PLIES);
    assert!(!o.solution.is_whole());
    let mut flipped = good.clone();
    let at = good.len() - 5;
    flipped[at] ^= 0x10;
    let mut version = good.clone();
    version[8] = 9;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("damaged", flipped, "checksum mismatch"),
        ("cut", good[..good.len() - 3].to_vec(), "cut short"),
        (
            "header",
            good[..20].to_vec(),
            "cut inside its header (20 bytes of 40)",
        ),
        ("version", version, "format version 9"),
        ("empty", Vec::new(), "cut inside its header (0 bytes of 40)"),
    ];
    for (name, bytes, why) in cases {
        let path = scratch(&format!("opening-{name}.sol"));
        std::fs::write(&path, bytes).unwrap();
        let e = opening::read(&path, &rules).unwrap_err().to_string();
        assert!(
            e.contains(path.to_str().unwrap()) && e.contains(why),
            "{name}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // Other rules: the three-a-side game.
    let e = opening::read(opening_file(), &game(3))
        .unwrap_err()
        .to_string();
    assert!(e.contains("made for other rules"), "{e}");
    // The engine says it in one line and plays on without it.
    let path = scratch("opening-damaged.sol");
    let mut engine = Engine::start();
    engine.ask("setoption name Pieces value 4");
    let said = engine.ask(&format!(
        "setoption name OpeningSolution value {}",
        path.display()
    ));
    assert!(
        said.len() == 1
            && said[0].starts_with("info string error: opening solution: ")
            && said[0].contains("checksum mismatch")
            && said[0].ends_with("playing without it"),
        "{said:?}"
    );
    engine.ask("position startpos");
    engine.send("go depth 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.contains("placing solution")),
        "{lines:?}"
    );
}

/// Plays games of four a side from moves drawn from `seed`, the engine (with the opening's
/// solution only) to move at every ply the file covers with its moves: each answer keeps the
/// value the whole solution gives, and says it.
fn engine_keeps_the_value_from_the_opening(engine: &mut Engine, truth: &Tables, seed: u64) {
    let rules = game(4);
    let mut game = Game::new(rules);
    let mut moves: Vec<String> = Vec::new();
    let mut rng = moulin::rng::Rng::new(seed);
    for _ply in 0..PLIES {
        let pos = *game.position();
        if game.outcome().is_some() {
            break;
        }
        let legal = legal_moves(&pos, Convention::Turn);
        engine.ask(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go movetime 100");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let value = truth.placing_value(&pos).unwrap();
        let said = format!(
            "info string placing solution {}",
            moulin::search::exact::name(value)
        );
        assert!(lines.contains(&said), "{moves:?}: {lines:?}");
        let text = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let mv = *legal
            .iter()
            .find(|m| m.written_at(&pos, Convention::Turn) == text)
            .unwrap();
        assert_eq!(
            solved::move_value(truth, &pos, mv),
            Some(value),
            "{text} after {moves:?} gives the value away"
        );
        // The game goes on by a random move.
        let next = legal[rng.below(legal.len())];
        moves.push(next.written_at(&pos, Convention::Turn));
        game.play_token(moves.last().unwrap()).unwrap();
    }
}

#[test]
fn go_keeps_the_value_where_the_opening_solution_covers_without_tables() {
    let _g = shared();
    let truth = Tables::open(four_a_side(), &game(4)).unwrap();
    let mut engine = Engine::start();
    engine.ask("setoption name Pieces value 4");
    let said = engine.ask(&format!(
        "setoption name OpeningSolution value {}",
        opening_file().display()
    ));
    assert!(said.is_empty(), "{said:?}");
    for seed in 1..=6 {
        engine_keeps_the_value_from_the_opening(&mut engine, &truth, seed);
    }
    // At the file's last ply nothing is known of the moves: the engine searches as without it.
    let mut game = Game::new(game(4));
    let mut moves = Vec::new();
    for _ in 0..PLIES {
        let pos = *game.position();
        let mv = legal_moves(&pos, Convention::Turn)[0];
        moves.push(mv.written_at(&pos, Convention::Turn));
        game.play(mv);
    }
    engine.ask(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.contains("placing solution")),
        "{lines:?}"
    );
}

#[test]
fn the_analyst_values_covered_moves_exactly_from_the_opening_alone() {
    let _g = shared();
    let rules = game(4);
    let truth = Tables::open(four_a_side(), &rules).unwrap();
    let o = opening::read(opening_file(), &rules).unwrap();
    let setup = Setup {
        hash_mb: 8,
        threads: 1,
        tables: Some(Arc::new(Tables::of_opening(&rules, Arc::new(o.solution)))),
        network: None,
        depth: Some(2),
        movetime: None,
    };
    let mut analyst = Analyst::new(&setup);
    let mut game = Game::new(rules);
    let mut rng = moulin::rng::Rng::new(9);
    // Plies 0 to PLIES - 1: every move's value is in the file.
    for _ in 0..PLIES {
        let pos = *game.position();
        let moves = legal_moves(&pos, Convention::Turn);
        let (searched, lines) = analyst.search(&game, true);
        assert!(searched.exact, "{:?}", game.moves());
        assert_eq!(lines.len(), moves.len());
        let best = searched.best.unwrap();
        let value = truth.placing_value(&pos).unwrap();
        assert_eq!(solved::move_value(&truth, &pos, best), Some(value));
        assert_eq!(searched.score, moulin::search::Score::solved(value));
        game.play(moves[rng.below(moves.len())]);
    }
    // Past it, the search values the position, not exactly.
    assert!(!analyst.search(&game, false).0.exact);
}

/// The opening's solution shipped in `book/` (`book/nine-opening.sol`), read as the engine
/// reads it.
fn shipped() -> Tables {
    let rules = moulin::Rules::nine();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/nine-opening.sol");
    let o = opening::read(&path, &rules).unwrap();
    assert!(o.plies >= 10, "plies 0 to {}", o.plies);
    assert!(o.file_bytes <= 24_000_000, "{} bytes", o.file_bytes);
    Tables::of_opening(&rules, Arc::new(o.solution))
}

/// The shipped file against `tests/data/placing-values.txt` (the published solution's values
/// agree with it on every class of plies 0 to 5): every class's value, and its value-keeping
/// moves exactly.
#[test]
fn the_shipped_opening_solution_agrees_with_the_committed_placing_values() {
    let tables = shipped();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/placing-values.txt"
    ))
    .unwrap();
    let rules = moulin::Rules::nine();
    let mut classes = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(" | ").collect();
        let pos = moulin::rules::fen::read(fields[0], &rules).unwrap();
        let value = tables.placing_value(&pos).unwrap();
        let letter = match value {
            1 => "W",
            0 => "D",
            _ => "L",
        };
        assert_eq!(letter, fields[1], "{line}");
        let mut kept: Vec<String> = legal_moves(&pos, Convention::Turn)
            .into_iter()
            .filter(|&m| solved::move_value(&tables, &pos, m).unwrap() == value)
            .map(|m| m.written_at(&pos, Convention::Turn))
            .collect();
        let mut expected: Vec<String> = fields[2].split_whitespace().map(String::from).collect();
        kept.sort();
        expected.sort();
        assert_eq!(kept, expected, "{line}");
        classes += 1;
    }
    assert_eq!(classes, 31_563);
}

/// The shipped file against the rules: in positions of plies 0 to 9 reached by random games,
/// each value is the best of its successors' (which the file holds too), and no position of
/// ply 10 is without a value.
#[test]
fn the_shipped_opening_solution_holds_against_the_rules() {
    let tables = shipped();
    let mut rng = moulin::rng::Rng::new(53);
    let mut checked = 0;
    for _game in 0..600 {
        let mut game = Game::new(moulin::Rules::nine());
        for _ply in 0..10 {
            let pos = *game.position();
            if game.outcome().is_some() {
                break;
            }
            let value = tables.placing_value(&pos).unwrap();
            let legal = legal_moves(&pos, Convention::Turn);
            let best = legal
                .iter()
                .map(|&m| solved::move_value(&tables, &pos, m).unwrap())
                .max()
                .unwrap();
            assert_eq!(value, best, "{:?}", game.moves());
            checked += 1;
            game.play(legal[rng.below(legal.len())]);
        }
        if game.outcome().is_none() {
            assert!(tables.placing_value(game.position()).is_some());
        }
    }
    assert!(checked > 5_000, "{checked}");
}

/// The engine as a GUI starts it, no tables: in positions of the shipped file's plies `go`
/// states the exact value at depth 0 at once and plays a move that keeps it.
#[test]
fn go_answers_from_the_shipped_opening_solution_at_depth_0() {
    let _g = shared();
    let truth = shipped();
    let mut engine = Engine::start();
    for (moves, score) in [
        ("", "cp 0"),
        ("d7 a1 g7 d1", "cp 28000"),
        ("d5 e5 e4 d6", "cp 0"),
    ] {
        engine.ask(&format!("position startpos moves {moves}"));
        engine.send("go wtime 60000 btime 60000");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        assert!(
            lines[0].starts_with("info depth 0 seldepth 0 ")
                && lines[0].contains(&format!(" score {score} ")),
            "{moves}: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string placing solution ")),
            "{lines:?}"
        );
        let mut game = Game::new(moulin::Rules::nine());
        for m in moves.split_whitespace() {
            game.play_token(m).unwrap();
        }
        let pos = *game.position();
        let text = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let mv = legal_moves(&pos, Convention::Turn)
            .into_iter()
            .find(|m| m.written_at(&pos, Convention::Turn) == text)
            .unwrap();
        assert_eq!(
            solved::move_value(&truth, &pos, mv),
            truth.placing_value(&pos),
            "{moves}: {text} gives the value away"
        );
    }
    engine.quit();
}

/// A GUI's analysis mode gets the exact values the engine plays by: `go infinite` and `MultiPV`
/// above 1 state every covered root move's exact value at once (the position: a win
/// the search alone scored `cp 129`), the book not taking the place of the solution.
#[test]
fn go_infinite_and_multipv_state_the_exact_values_of_the_opening_solution() {
    let _g = shared();
    let truth = shipped();
    let mut engine = Engine::start();
    let moves = "d6 b4 d2 b6 f4 g7";
    let mut game = Game::new(moulin::Rules::nine());
    for m in moves.split_whitespace() {
        game.play_token(m).unwrap();
    }
    let pos = *game.position();
    let legal = legal_moves(&pos, Convention::Turn);
    let value_of = |text: &str| {
        let mv = legal
            .iter()
            .find(|m| m.written_at(&pos, Convention::Turn) == text)
            .unwrap();
        solved::move_value(&truth, &pos, *mv).unwrap()
    };
    let score = |v: i8| match v {
        1 => "cp 28000",
        0 => "cp 0",
        _ => "cp -28000",
    };
    // `go infinite`: the lines at once, the answer at `stop`.
    engine.ask(&format!("position startpos moves {moves}"));
    engine.send("go infinite");
    let first = engine.until(|l| l.starts_with("info depth 0"));
    assert!(
        first.last().unwrap().contains(" multipv 1 score cp 28000 "),
        "{first:?}"
    );
    engine.send("stop");
    let rest = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        rest.iter().any(|l| l == "info string placing solution win"),
        "{rest:?}"
    );
    // MultiPV 4: four lines, best first, each with the exact value of its move.
    engine.ask("setoption name MultiPV value 4");
    engine.ask(&format!("position startpos moves {moves}"));
    let lines = engine.go("go depth 6");
    let shown: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 0"))
        .collect();
    assert_eq!(shown.len(), 4, "{lines:?}");
    let mut last = 2;
    for (k, line) in shown.iter().enumerate() {
        assert!(line.contains(&format!(" multipv {} ", k + 1)), "{line}");
        let mv = line
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        let v = value_of(mv);
        assert!(
            line.contains(&format!(" score {} ", score(v))),
            "{line}: {v}"
        );
        assert!(v <= last, "best first: {shown:?}");
        last = v;
    }
    engine.quit();
}

/// The library's walk of the first plies (`tables placing-values`) gives the committed file's
/// lines, here from the shipped opening's solution: every class of plies 0 to 3, its value and
/// the moves that keep it, in the file's order.
#[test]
fn the_first_plies_walk_gives_the_committed_placing_values() {
    let _g = shared();
    let lines =
        moulin::tables::placing_play::first_plies(&shipped(), moulin::Rules::nine(), 3).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/placing-values.txt"
    ))
    .unwrap();
    let committed: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 10 && lines.len() < committed.len());
    for (ours, theirs) in lines.iter().zip(&committed) {
        let value = ["L", "D", "W"][(ours.value + 1) as usize];
        let line = format!("{} | {value} | {}", ours.text, ours.keeping.join(" "));
        assert_eq!(line.trim_end(), theirs.trim_end());
    }
}
