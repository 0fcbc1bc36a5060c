//! The placing solution through the binary: `moulin tables build --placing` (resumed, a missing
//! group made again), and the engine playing from it: every placing move keeps the value, from
//! the first, under each `SolvedPlacing` choice.

use super::harness::{scratch, shared, Engine};
use super::tables::moulin;
use moulin::rules::movegen::legal_moves;
use moulin::search::exact::solved;
use moulin::tables::groups;
use moulin::tables::placing::store;
use moulin::tables::Tables;
use moulin::{Convention, Game, Rules};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The rules of the game of `pieces` pieces a side.
pub(crate) fn game(pieces: u8) -> Rules {
    let mut rules = Rules::nine();
    rules.pieces = pieces;
    rules
}

/// The rules of the game of four pieces a side.
fn four() -> Rules {
    game(4)
}

/// The moving tables up to 4 a side and the placing solution of the game of four pieces a side,
/// built once by the binary for every test here.
pub(crate) fn four_a_side() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| solved_game(4))
}

/// The moving tables up to 3 a side and the placing solution of the game of three pieces a side
/// (won by the first player: a move that gives the win away is there to be made).
pub(crate) fn three_a_side() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| solved_game(3))
}

/// Builds the moving tables and the placing solution of the game of `pieces` a side by the
/// binary, checking what the placing build says.
fn solved_game(pieces: u8) -> PathBuf {
    {
        let dir = scratch(&format!("placing-{pieces}"));
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().unwrap();
        let n = pieces.to_string();
        let built = moulin(&["tables", "build", "--files", "--pieces", &n, "--dir", d]);
        assert!(built.status.success(), "{built:?}");
        let placing = moulin(&["tables", "build", "--placing", "--pieces", &n, "--dir", d]);
        let err = String::from_utf8_lossy(&placing.stderr);
        assert!(placing.status.success(), "{err}");
        let all = groups::all(&game(pieces));
        // One line a group solved, and one cost a group.
        assert_eq!(err.matches(" positions in ").count(), all.len(), "{err}");
        let costs = std::fs::read_to_string(dir.join("placing/costs.txt")).unwrap();
        assert_eq!(costs.lines().count(), all.len());
        dir
    }
}

#[test]
fn a_stopped_placing_build_solves_only_what_is_missing() {
    let _g = shared();
    let dir = scratch("placing-resume");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("placing")).unwrap();
    let from = four_a_side();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    let all = groups::all(&four());
    for &g in &all[..all.len() - 1] {
        let name = store::path(Path::new("placing"), g);
        std::fs::copy(from.join(&name), dir.join(&name)).unwrap();
    }
    // The start's group is missing, as after a build stopped before its last group.
    let start = *all.last().unwrap();
    let d = dir.to_str().unwrap();
    let again = moulin(&["tables", "build", "--placing", "--pieces", "4", "--dir", d]);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert_eq!(err.matches(" positions in ").count(), 1, "{err}");
    assert!(err.contains(&format!("{start}: 1 positions in")), "{err}");
    let rebuilt = std::fs::read(store::path(&dir.join("placing"), start)).unwrap();
    assert_eq!(
        rebuilt,
        std::fs::read(store::path(&from.join("placing"), start)).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays the placing of a game of `pieces` a side: the engine (`choice`) as `engine_side`
/// (0 White, 1 Black) against moves drawn from `seed`; every engine move must keep the value
/// the solution gives the position, and the engine says the value.
fn engine_keeps_the_value(pieces: u8, choice: &str, engine_side: usize, seed: u64) {
    let dir = if pieces == 3 {
        three_a_side()
    } else {
        four_a_side()
    };
    let rules = game(pieces);
    let tables = Tables::open(dir, &rules).unwrap();
    assert!(tables.placing().is_some());
    let mut engine = Engine::start();
    engine.ask(&format!("setoption name Pieces value {pieces}"));
    engine.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    engine.ask(&format!("setoption name SolvedPlacing value {choice}"));
    let mut game = Game::new(rules);
    let mut moves: Vec<String> = Vec::new();
    let mut rng = moulin::rng::Rng::new(seed);
    let mut ply = 0;
    while game.position().is_placing() && game.outcome().is_none() {
        let pos = *game.position();
        let legal = legal_moves(&pos, Convention::Turn);
        let mv = if ply % 2 == engine_side {
            engine.ask(&format!("position startpos moves {}", moves.join(" ")));
            engine.send("go movetime 200");
            let lines = engine.until(|l| l.starts_with("bestmove"));
            let value = tables.placing_value(&pos).unwrap();
            let said = format!(
                "info string placing solution {}",
                moulin::search::exact::name(value)
            );
            assert!(lines.contains(&said), "{choice}: {lines:?}");
            let text = lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string();
            let mv = *legal
                .iter()
                .find(|m| m.written_at(&pos, Convention::Turn) == text)
                .unwrap_or_else(|| panic!("{text} is legal"));
            assert_eq!(
                solved::move_value(&tables, &pos, mv),
                Some(value),
                "{choice}: {text} after {moves:?} gives the value away"
            );
            mv
        } else {
            legal[rng.below(legal.len())]
        };
        moves.push(mv.written_at(&pos, Convention::Turn));
        game.play_token(moves.last().unwrap()).unwrap();
        ply += 1;
    }
    assert!(ply >= 4, "{moves:?}");
}

#[test]
fn the_engine_keeps_the_value_of_every_placing_position() {
    let _g = shared();
    for (side, seed) in [(0, 1), (1, 2), (0, 3), (1, 4)] {
        engine_keeps_the_value(4, "testing", side, seed);
    }
    engine_keeps_the_value(4, "random", 0, 5);
    // With three a side the first player wins: the engine must find a winning move each turn.
    for (side, seed) in [(0, 6), (1, 7)] {
        engine_keeps_the_value(3, "testing", side, seed);
    }
}

#[test]
fn with_the_solution_off_the_engine_searches_as_before() {
    let _g = shared();
    let dir = four_a_side();
    let mut engine = Engine::start();
    engine.ask("setoption name Pieces value 4");
    engine.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    engine.ask("setoption name SolvedPlacing value off");
    engine.ask("position startpos");
    engine.send("go movetime 100");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.contains("placing solution")),
        "{lines:?}"
    );
    let refused = engine.ask("setoption name SolvedPlacing value best");
    assert!(
        refused[0].contains("SolvedPlacing") && refused[0].contains("testing"),
        "{refused:?}"
    );
}

/// `tests/data/placing-values.txt` (made by `moulin tables placing-values --plies 5` with the
/// standard game's solution): one line per symmetry class of the positions after 0 to 5 plies,
/// each with a value and moves that are legal there; the start is a draw kept by all 24 moves.
#[test]
fn the_committed_placing_values_are_whole_and_legal() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/placing-values.txt"
    ))
    .unwrap();
    let rules = Rules::nine();
    let mut lines = 0;
    let mut seen = std::collections::HashSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        let pos = moulin::rules::fen::read(fields[0], &rules).unwrap();
        assert!(seen.insert(fields[0]), "{line}: twice");
        assert!(["W", "D", "L"].contains(&fields[1]), "{line}");
        let legal: Vec<String> = legal_moves(&pos, Convention::Turn)
            .iter()
            .map(|m| m.written_at(&pos, Convention::Turn))
            .collect();
        for mv in fields[2].split_whitespace() {
            assert!(legal.iter().any(|l| l == mv), "{line}: {mv}");
        }
        lines += 1;
    }
    assert_eq!(lines, 31_563);
    let start = text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert!(start.starts_with("********/********/******** w"), "{start}");
    assert_eq!(start.split(" | ").nth(1), Some("D"));
    assert_eq!(
        start
            .split(" | ")
            .nth(2)
            .unwrap()
            .split_whitespace()
            .count(),
        24
    );
}
