//! Endgame tables through the binary: `moulin tables build|stats|verify`, and `TablesPath`,
//! under which a covered position is answered at once with the value-keeping move.

use super::harness::{scratch, shared, Engine};
use moulin::tables::{file, fingerprint, Tables, Value};
use moulin::{Game, Rules};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

pub(crate) fn moulin(args: &[&str]) -> Output {
    crate::shared::moulin()
        .args(args)
        .output()
        .expect("moulin runs")
}

/// Tables up to 3 a side for `nine`, built once by the binary for every test here.
pub(crate) fn three_a_side() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("tables");
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().unwrap();
        let built = moulin(&["tables", "build", "--files", "--pieces", "3", "--dir", d]);
        assert!(built.status.success(), "{built:?}");
        // A second build finds it done.
        let again = moulin(&["tables", "build", "--files", "--pieces", "3", "--dir", d]);
        assert!(String::from_utf8_lossy(&again.stderr).contains("3-3: already built (checked)"));
        dir
    })
}

/// A build of several pairs says the whole's progress on each pair's line (stderr is not a
/// terminal here: no bar, the lines say it all), with the time left once this run has built a
/// pair; a resumed build counts the pairs already built.
#[test]
fn a_build_of_several_pairs_says_the_whole_and_a_resumed_one_counts_what_is_built() {
    let dir = scratch("tables-overall");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let build = || {
        let out = moulin(&["tables", "build", "--files", "--pieces", "4", "--dir", d]);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{err}");
        assert!(!err.contains('\r'), "no bar drawn off a terminal: {err:?}");
        err
    };
    let err = build();
    let first = err.lines().next().unwrap();
    let total: u64 = first
        .strip_prefix(&format!("tables in {d}: 3 pairs, "))
        .and_then(|t| t.strip_suffix(" positions"))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    // Then the disk the build still needs beside what is free (`tables build` refuses to start
    // when it is short).
    let disk = err.lines().nth(1).unwrap();
    assert!(
        disk.starts_with("disk: about ") && disk.contains(&format!(" GB still to write in {d}, ")),
        "{err}"
    );
    let pairs: Vec<&str> = err.lines().filter(|l| l.contains("; in all: ")).collect();
    assert_eq!(pairs.len(), 3, "{err}");
    let mut done = 0;
    let mut sizes = Vec::new();
    for (k, (line, pair)) in pairs.iter().zip(["3-3", "3-4", "4-4"]).enumerate() {
        let size: u64 = line
            .strip_prefix(&format!("{pair}: "))
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        done += size;
        sizes.push(done);
        let figures = format!(
            "in all: {} of 3 pairs, {done} of {total} positions (",
            k + 1
        );
        assert!(line.contains(&figures), "{figures}: {line}");
        // The time left while there is some: at this run's rate.
        assert_eq!(line.contains(" left"), k < 2, "{line}");
    }
    assert_eq!(done, total, "{err}");
    assert!(pairs[2].ends_with("(100.0%)"), "{err}");
    // Stopped before 4-4: the resumed build counts 3-3 and 3-4 as done, with no time left said
    // until it has built something itself.
    std::fs::remove_file(file::path(&dir, 4, 4)).unwrap();
    let err = build();
    let pairs: Vec<&str> = err.lines().filter(|l| l.contains("; in all: ")).collect();
    assert_eq!(pairs.len(), 3, "{err}");
    for (k, pair) in ["3-3", "3-4"].iter().enumerate() {
        let line = format!(
            "{pair}: already built (checked); in all: {} of 3 pairs, {} of {total} positions (",
            k + 1,
            sizes[k]
        );
        assert!(
            pairs[k].starts_with(&line) && !pairs[k].contains(" left"),
            "{line}:\n{err}"
        );
    }
    assert!(
        pairs[2].starts_with("4-4: ")
            && pairs[2].ends_with(&format!(
                "3 of 3 pairs, {total} of {total} positions (100.0%)"
            )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished table damaged on disk (one data byte flipped, or the file cut short) is not
/// skipped as built: the next build checks it, says what is wrong and makes it again, and the
/// tables then load.
#[test]
fn a_build_remakes_a_damaged_table() {
    let dir = scratch("tables-damaged");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let built = moulin(&["tables", "build", "--files", "--pieces", "3", "--dir", d]);
    assert!(built.status.success(), "{built:?}");
    let path = file::path(&dir, 3, 3);
    let good = std::fs::read(&path).unwrap();
    for damage in ["flipped", "cut"] {
        let mut bytes = good.clone();
        if damage == "flipped" {
            let last = bytes.len() - 1;
            bytes[last] ^= 0x40;
        } else {
            bytes.truncate(bytes.len() - 100);
        }
        std::fs::write(&path, &bytes).unwrap();
        let again = moulin(&["tables", "build", "--files", "--pieces", "3", "--dir", d]);
        let err = String::from_utf8_lossy(&again.stderr);
        assert!(again.status.success(), "{damage}: {err}");
        assert!(!err.contains("already built"), "{damage}: {err}");
        assert!(
            err.contains("3-3: ") && err.contains("building it again"),
            "{damage}: {err}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            good,
            "{damage}: the table made again"
        );
        let rules = Rules::nine().without_draw_rules();
        assert!(Tables::open(&dir, &rules).is_ok(), "{damage}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_and_verify_of_a_build() {
    let dir = three_a_side().to_str().unwrap();
    let stats = moulin(&["tables", "stats", "--dir", dir]);
    assert_eq!(
        String::from_utf8_lossy(&stats.stdout),
        "3-3 wins 140621 losses 28736 draws 269 max-win 25 max-loss 26\n"
    );
    let verify = moulin(&["tables", "verify", "--dir", dir]);
    assert!(verify.status.success(), "{verify:?}");
    assert_eq!(String::from_utf8_lossy(&verify.stdout), "3-3: consistent\n");
    // A sample: the canonical ones among 1000 slots spread over the table.
    let sampled = moulin(&["tables", "verify", "--dir", dir, "--sample", "1000"]);
    assert!(sampled.status.success(), "{sampled:?}");
    let out = String::from_utf8_lossy(&sampled.stdout).into_owned();
    let checked: u64 = out
        .strip_prefix("3-3: consistent (")
        .and_then(|r| r.strip_suffix(" positions checked)\n"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((100..=1000).contains(&checked), "{out}");
    let one = moulin(&["tables", "verify", "--dir", dir, "--pair", "3-3"]);
    assert!(one.status.success(), "{one:?}");
    let none = moulin(&["tables", "verify", "--dir", dir, "--pair", "4-3"]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no table 3-4 or 4-3"));
    // A value changed (and the checksum made to match) is found by verify.
    let copy = scratch("tables-bad");
    std::fs::create_dir_all(&copy).unwrap();
    let rules = Rules::nine();
    let mut values =
        file::read(&file::path(three_a_side(), 3, 3), fingerprint(&rules), 3, 3).unwrap();
    // Spare slots (of classes fixed by a symmetry) hold draws; a win is in a slot that is used.
    let slot = (0..values.len())
        .find(|&s| matches!(values.get(s), Value::Win(_)))
        .unwrap();
    values.set(slot, Value::Win(values.get(slot).distance() + 1));
    file::write(&copy, fingerprint(&rules), 3, 3, &values).unwrap();
    let verify = moulin(&["tables", "verify", "--dir", copy.to_str().unwrap()]);
    assert!(!verify.status.success());
    assert!(String::from_utf8_lossy(&verify.stderr).contains("1 value disagrees"));
    // A sample as large as the table checks every position, so it finds it too.
    let all = moulin(&[
        "tables",
        "verify",
        "--dir",
        copy.to_str().unwrap(),
        "--sample",
        "100000000",
    ]);
    assert!(String::from_utf8_lossy(&all.stderr).contains("1 value disagrees"));
    // A damaged file is refused by its checksum.
    let path = file::path(&copy, 3, 3);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    let stats = moulin(&["tables", "stats", "--dir", copy.to_str().unwrap()]);
    assert!(!stats.status.success());
    assert!(String::from_utf8_lossy(&stats.stderr).contains("checksum mismatch"));
    let _ = std::fs::remove_dir_all(&copy);
}

#[test]
fn bad_table_commands_say_what_is_wrong() {
    let out = moulin(&["tables", "build", "--files", "--pieces", "12"]);
    assert!(!out.status.success());
    let out = moulin(&["tables", "build", "--pair", "2-9"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected W-B with 3 to 9"));
    let out = moulin(&[
        "tables",
        "build",
        "--files",
        "--pieces",
        "3",
        "--variant",
        "no-reform",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("Reform allowed"));
    let dir = scratch("tables-missing");
    let out = moulin(&[
        "tables",
        "build",
        "--pair",
        "3-4",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the table 3-3 is needed first"));
    // One placing group: not a group of the game, malformed, without --placing, or built
    // before the groups after it.
    let d = dir.to_str().unwrap();
    let group = |group: &str| {
        moulin(&[
            "tables",
            "build",
            "--placing",
            "--pieces",
            "3",
            "--group",
            group,
            "--dir",
            d,
        ])
    };
    for (text, said) in [
        ("9-9-9", "--group '9-9-9': not a group of the 3-piece game"),
        ("6-0", "--group '6-0': not a group of the 3-piece game"),
        ("6-0-0", "5-0-1"),
    ] {
        let out = group(text);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{err}");
    }
    let out = moulin(&["tables", "build", "--group", "6-0-0", "--dir", d]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--placing"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_covered_position_is_answered_from_the_tables() {
    let _gate = shared();
    let dir = three_a_side();
    let tables = Tables::open(dir, &Rules::nine()).unwrap();
    let mut e = Engine::start();
    e.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    // White to move closes a mill by flying g7 to c5 and wins at once.
    let win = "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";
    e.ask(&format!("position fen {win}"));
    let lines = e.go("go depth 20");
    assert!(
        lines.contains(&"info string tables win dtc 1".to_string()),
        "{lines:?}"
    );
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let mut game = Game::from_fen(win, Rules::nine()).unwrap();
    game.play_token(best).unwrap();
    assert!(game.position().on_board(moulin::Color::Black) < 3, "{best}");
    // Every answer in a covered position keeps the value: a drawn 3-3 stays drawn, a won one won.
    let drawn = "O*O*O***/@*@*@***/******** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";
    let pos = Game::from_fen(drawn, Rules::nine()).unwrap();
    let v = tables.probe(pos.position()).unwrap();
    e.ask(&format!("position fen {drawn}"));
    let lines = e.go("go movetime 50");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("info string tables {v} "))),
        "{lines:?}"
    );
    // Tables made for other rules are refused when the rules change.
    let lines = e.ask("setoption name Variant value twelve");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: endgame tables:")
                && l.contains("other rules")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn sampled_positions_keep_their_value_with_the_tables() {
    let dir = three_a_side().to_str().unwrap();
    let sample = moulin(&[
        "tables",
        "sample",
        "--dir",
        dir,
        "--per-pair",
        "12",
        "--decisive",
        "--seed",
        "3",
    ]);
    assert!(sample.status.success(), "{sample:?}");
    let text = String::from_utf8(sample.stdout).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("fen ")).count(), 12);
    let file = scratch("sample.txt");
    std::fs::write(&file, &text).unwrap();
    let keep = moulin(&[
        "tables",
        "keep",
        "--dir",
        dir,
        "--positions",
        file.to_str().unwrap(),
        "--movetime",
        "20",
    ]);
    let out = String::from_utf8_lossy(&keep.stdout);
    assert!(
        out.contains("all positions 12 kept 12 (100.0%) optimal 12 (100.0%)"),
        "{out}"
    );
    let _ = std::fs::remove_file(&file);
}

#[test]
fn stray_and_inconsistent_table_files_are_refused_without_a_hang() {
    let _gate = shared();
    let dir = scratch("tables-stray");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(file::path(three_a_side(), 3, 3), file::path(&dir, 3, 3)).unwrap();
    // A name outside 3 to 9 pieces is not a table: ignored.
    std::fs::write(dir.join("3-32.tbl"), b"x").unwrap();
    let mut e = Engine::start();
    let lines = e.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    assert!(lines.is_empty(), "{lines:?}");
    // A header whose count of values does not fit the pair, checksum and all, is refused.
    let short = moulin::tables::Values::from_codes(vec![0; 1000]);
    file::write(&dir, fingerprint(&Rules::nine()), 3, 3, &short).unwrap();
    let lines = e.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    assert!(
        lines.len() == 1 && lines[0].contains("the file is damaged"),
        "{lines:?}"
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A won placing position (two pieces a side on the board, one each in hand, White to move)
/// with a winning, a drawing and a losing move, by the exact solver over `tables`.
fn placing_with_every_value(tables: &Tables) -> (String, [String; 3]) {
    use moulin::search::exact::{Memory, Solver};
    let rules = Rules::nine();
    let never = |_: u64| false;
    let mut memory = Memory::new(1 << 20);
    let mut rng = moulin::rng::Rng::new(17);
    loop {
        let mut cells = ['*'; 24];
        let mut free: Vec<usize> = (0..24).collect();
        for c in ['O', 'O', '@', '@'] {
            cells[free.swap_remove(rng.below(free.len()))] = c;
        }
        let rings: Vec<String> = cells.chunks(8).map(|r| r.iter().collect()).collect();
        let fen = format!("{} w p p 2 1 2 1 0 0 -1 -1 -1 -1 0 0 9", rings.join("/"));
        let pos = moulin::rules::fen::read(&fen, &rules).unwrap();
        let moves = moulin::rules::movegen::legal_moves(&pos, moulin::Convention::Turn);
        let mut solver = Solver::new(tables, &mut memory, &never);
        let values = solver.values_of_moves(&pos, &moves).unwrap();
        let with = |x: i8| {
            moves
                .iter()
                .zip(&values)
                .find(|(_, &v)| v == x)
                .map(|(m, _)| m.turn_notation())
        };
        if let (Some(w), Some(d), Some(l)) = (with(1), with(0), with(-1)) {
            return (fen, [w, d, l]);
        }
    }
}

/// A book of one position and one move, with the shipped book's header (the position written
/// in its canonical orientation, as books hold them).
fn one_move_book(name: &str, fen: &str, mv: &str) -> PathBuf {
    scored_move_book(name, fen, mv, "0")
}

/// `one_move_book` with the move's score written `score` (`>=draw` for a proven move).
fn scored_move_book(name: &str, fen: &str, mv: &str, score: &str) -> PathBuf {
    let rules = Rules::nine();
    let pos = moulin::rules::fen::read(fen, &rules).unwrap();
    let s = moulin::rules::symmetry::fold(&pos).symmetry;
    let mv = moulin::rules::notation::parse_move(&pos, mv).unwrap();
    let (fen, mv) = (
        moulin::rules::fen::write(&pos.transformed(s)),
        mv.transformed(s).turn_notation(),
    );
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/nine.book")).unwrap();
    let mut text = String::new();
    for line in shipped.lines() {
        if line.starts_with("positions ") {
            text.push_str("positions 1\n");
            break;
        }
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&format!("{fen} | {mv} {score} 100\n"));
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// An engine with `book` and the tables of `dir`, asked for a move at 500 ms in `fen`: its
/// lines up to `bestmove`.
fn go_with_book(book: &Path, dir: &Path, fen: &str) -> Vec<String> {
    let mut e = Engine::start();
    e.ask(&format!("setoption name BookFile value {}", book.display()));
    e.ask(&format!(
        "setoption name TablesPath value {}",
        dir.display()
    ));
    e.ask(&format!("position fen {fen}"));
    e.go("go movetime 500")
}

#[test]
fn a_placing_book_move_that_gives_value_away_is_not_played() {
    let _gate = shared();
    let dir = three_a_side();
    let tables = Tables::open(dir, &Rules::nine()).unwrap();
    let (fen, [win, draw, loss]) = placing_with_every_value(&tables);
    for (mv, played) in [(&win, true), (&draw, false), (&loss, false)] {
        let book = one_move_book(&format!("exact-{mv}.book"), &fen, mv);
        let lines = go_with_book(&book, dir, &fen);
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        let best = best.split_whitespace().next().unwrap();
        if played {
            // A book move that keeps the value is played from the book.
            assert!(
                lines[1].starts_with(&format!("info string book {mv} ")),
                "{lines:?}"
            );
            assert_eq!(best, mv.as_str(), "{lines:?}");
        } else {
            // A draw or a loss where the position is won is not: the search plays a win.
            assert!(
                lines.contains(&format!(
                    "info string book {mv} gives value away (exact): searching"
                )),
                "{lines:?}"
            );
            let mut game = Game::from_fen(&fen, Rules::nine()).unwrap();
            game.play_token(best).unwrap();
            let pos = *game.position();
            let never = |_: u64| false;
            let mut memory = moulin::search::exact::Memory::new(1 << 20);
            let mut solver = moulin::search::exact::Solver::new(&tables, &mut memory, &never);
            // White's move leaves Black lost.
            assert_eq!(solver.at_least(&pos, 0), Some(false), "{best}: {lines:?}");
        }
        let _ = std::fs::remove_file(&book);
    }
}

#[test]
fn a_proven_book_move_is_played_without_the_check() {
    let _gate = shared();
    let dir = three_a_side();
    let tables = Tables::open(dir, &Rules::nine()).unwrap();
    let (fen, [_, draw, _]) = placing_with_every_value(&tables);
    // `book cover` proves a move keeps at least a draw and no more: the engine trusts the
    // mark (the same move unmarked is refused where the position is won, above).
    let book = scored_move_book("exact-proven.book", &fen, &draw, ">=draw");
    let lines = go_with_book(&book, dir, &fen);
    // Scored as the draw it is proven to keep at least: a lower bound (the position is won).
    assert_eq!(
        lines[..2],
        [
            format!(
                "info depth 0 seldepth 0 multipv 1 score cp 0 lowerbound nodes 0 nps 0 hashfull 0 tbhits 0 time 0 pv {draw}"
            ),
            format!("info string book {draw} weight 100 proven draw"),
        ],
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some(draw.as_str())
    );
    let _ = std::fs::remove_file(&book);
}

#[test]
fn book_exact_lists_the_book_moves_that_give_value_away() {
    let dir = three_a_side();
    let tables = Tables::open(dir, &Rules::nine()).unwrap();
    let (fen, [win, draw, _]) = placing_with_every_value(&tables);
    let d = dir.to_str().unwrap();
    for (mv, fine) in [(&win, true), (&draw, false)] {
        let book = one_move_book(&format!("book-exact-{mv}.book"), &fen, mv);
        let b = book.to_str().unwrap();
        let out = moulin(&["book", "exact", b, "--tables", d, "--min-ply", "0"]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.success(), fine, "{out:?}");
        assert!(
            stdout.contains(&format!(
                "1 book moves from ply 0 checked exactly, {} give value away",
                i32::from(!fine)
            )),
            "{stdout}"
        );
        if !fine {
            assert!(stdout.contains("gives away a win"), "{stdout}");
            // Pruned: the move goes, and with it the position (its only move).
            let pruned = scratch("book-exact-pruned.book");
            let p = pruned.to_str().unwrap();
            let out = moulin(&[
                "book",
                "exact",
                b,
                "--tables",
                d,
                "--min-ply",
                "0",
                "--prune",
                p,
            ]);
            assert!(out.status.success(), "{out:?}");
            assert!(
                String::from_utf8_lossy(&out.stdout).contains(&format!(
                    "{p}: 0 positions, 0 moves (1 move that gives value away dropped, 0 \
                     positions given a value-keeping move instead, 1 position left out)"
                )),
                "{out:?}"
            );
            let text = std::fs::read_to_string(&pruned).unwrap();
            assert!(text.contains("positions 0"), "{text}");
            let _ = std::fs::remove_file(&pruned);
            // The journal keeps the answer: a second run reads it back.
            let again = moulin(&["book", "exact", b, "--tables", d, "--min-ply", "0"]);
            assert!(String::from_utf8_lossy(&again.stderr).contains("1 position resumed"));
            assert_eq!(String::from_utf8_lossy(&again.stdout), stdout);
        }
        let _ = std::fs::remove_file(&book);
        let _ = std::fs::remove_file(format!("{b}.exact.partial"));
    }
    // The exact check of a book's exits needs --exits.
    let out = moulin(&["book", "check", "book/nine.book", "--exact", d]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--exits"));
}

/// `setoption` keeps a value as written after `value`: a tables directory whose name holds two
/// spaces in a row (and one at its end, which the option's reader drops as it drops leading and
/// trailing blanks) is found and used, as `--option TablesPath=...` finds it.
#[test]
fn a_tables_path_with_blanks_in_a_row_is_found() {
    let _gate = shared();
    let dir = scratch("tables  two spaces");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(three_a_side()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let win = "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";
    for how in ["setoption", "--option"] {
        let mut e = if how == "--option" {
            Engine::start_with(&["--option", &format!("TablesPath={}", dir.display())])
        } else {
            let mut e = Engine::start();
            let lines = e.ask(&format!(
                "setoption name TablesPath value {} \t",
                dir.display()
            ));
            assert!(lines.is_empty(), "{lines:?}");
            e
        };
        e.ask(&format!("position fen {win}"));
        let lines = e.go("go depth 20");
        assert!(
            lines.contains(&"info string tables win dtc 1".to_string()),
            "{how}: {lines:?}"
        );
        e.quit();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build keeps each finished table packed in its `compact` folder by default (no table file):
/// the same values as a build into files, found built again by a second run, a damaged one made
/// again, and the placing solution built over them the same byte for byte.
#[test]
fn a_build_kept_packed_holds_the_values_of_one_into_files() {
    let root = scratch("tables-kept-packed");
    let _ = std::fs::remove_dir_all(&root);
    let (packed, files) = (root.join("packed"), root.join("files"));
    let (p, f) = (packed.to_str().unwrap(), files.to_str().unwrap());
    // A command line, then the folder.
    let run = |line: &str, dir: &str| {
        let mut args: Vec<&str> = line.split(' ').collect();
        args.push(dir);
        let out = moulin(&args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args:?}: {err}");
        err
    };
    let build = "tables build --pieces 4 --threads 1 --dir";
    run(build, p);
    run("tables build --files --pieces 4 --threads 1 --dir", f);
    assert!(file::path(&files, 4, 4).exists());
    assert!(!file::path(&packed, 4, 4).exists());
    let compact = file::compact_path(&packed, 4, 4);
    assert!(compact.exists(), "{}", compact.display());
    let stats = |d: &str| {
        let out = moulin(&["tables", "stats", "--dir", d]);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let want = stats(f);
    assert_eq!(want.lines().count(), 4, "{want}");
    assert_eq!(stats(p), want);
    // Built already: each table's frames checked, none made again.
    let again = run(build, p);
    let kept = |err: &str| err.matches("already built (checked)").count();
    assert_eq!(kept(&again), 3, "{again}");
    // A frame damaged: that pair is solved again, the same values.
    let mut bytes = std::fs::read(&compact).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x55;
    std::fs::write(&compact, &bytes).unwrap();
    let again = run(build, p);
    let redone = again.contains("4-4: ") && again.contains("building it again now");
    assert!(redone, "{again}");
    assert_eq!(kept(&again), 2, "{again}");
    assert_eq!(stats(p), want);
    // The placing solution over the tables kept packed is the one over the files.
    for d in [p, f] {
        run("tables build --placing --pieces 4 --threads 1 --dir", d);
    }
    let placing = |dir: &Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir.join("placing"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().ends_with(".plc"))
            .collect();
        names.sort();
        names
            .iter()
            .map(|n| std::fs::read(dir.join("placing").join(n)).unwrap())
            .collect::<Vec<_>>()
    };
    let built = placing(&packed);
    assert!(!built.is_empty());
    assert_eq!(built, placing(&files));
    let _ = std::fs::remove_dir_all(&root);
}
