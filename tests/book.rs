//! The opening book: building (and resuming) a small book, `book check` on good and corrupt
//! books, the quality of the shipped book against fresh searches, and the cost of a lookup.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::book::check::check_text;
use moulin::book::deep_search::{book_searcher, SearchSpec};
use moulin::book::{self, format, score_value, Book};
use moulin::job_progress::Silent;
use moulin::rules::game::Game;
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::search::{Control, Limits};
use moulin::Rules;
use std::path::{Path, PathBuf};

use crate::shared::bounded;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The flags of `moulin book build` a test gives.
struct BuildArgs {
    variant: String,
    plies: u32,
    depth: u32,
    margin: i32,
    hash: u32,
    threads: Option<usize>,
    out: Option<PathBuf>,
    force: bool,
}

/// The flags of a test build: standard game, margin 10, 1 MB, 2 threads.
fn build_args(out: &Path, plies: u32, depth: u32, force: bool) -> BuildArgs {
    BuildArgs {
        variant: "nine".into(),
        plies,
        depth,
        margin: 10,
        hash: 1,
        threads: Some(2),
        out: Some(out.to_path_buf()),
        force,
    }
}

/// Runs the binary with `args`: done, or what it said on stderr when it failed.
fn run_moulin(args: &[String]) -> Result<(), String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_moulin"))
        .args(args)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Runs `moulin book build` with `args`.
fn run_build(args: BuildArgs) -> Result<(), String> {
    let mut flags: Vec<String> = ["book", "build", "--variant", &args.variant]
        .map(String::from)
        .into();
    for (flag, value) in [
        ("--plies", args.plies.to_string()),
        ("--depth", args.depth.to_string()),
        ("--margin", args.margin.to_string()),
        ("--hash", args.hash.to_string()),
    ] {
        flags.extend([flag.to_string(), value]);
    }
    if let Some(t) = args.threads {
        flags.extend(["--threads".to_string(), t.to_string()]);
    }
    if let Some(out) = args.out {
        flags.extend(["--out".to_string(), out.display().to_string()]);
    }
    if args.force {
        flags.push("--force".into());
    }
    run_moulin(&flags)
}

fn build(out: &Path, plies: u32, depth: u32) {
    run_build(build_args(out, plies, depth, false)).unwrap();
}

/// The lines of a book, without those that name the run (note, date, command).
fn body(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| {
            !["note ", "date ", "command "]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(String::from)
        .collect()
}

#[test]
fn build_check_and_resume() {
    let dir = temp_dir("build");
    let whole = dir.join("whole.book");
    build(&whole, 4, 3);
    let text = std::fs::read_to_string(&whole).unwrap();
    // Every entry agrees with a fresh search.
    let report = check_text(&text, usize::MAX).unwrap();
    assert!(report.positions > 50, "{report:?}");
    assert_eq!(report.searched, report.positions);
    let book = Book::parse(&text).unwrap();
    assert_eq!(book.len(), report.positions);
    assert_eq!(book.header.plies, 4);
    assert_eq!(book.header.depth, 3);
    // Both sides have book moves for the first plies: the start, and every first move of White.
    let start = Game::new(Rules::nine());
    assert!(book.contains(start.position()));
    for mv in movegen::legal_moves(start.position(), Convention::Turn) {
        let mut g = start.clone();
        g.play(mv);
        let moves = book
            .probe(g.position())
            .expect("every first move is answered");
        for m in moves {
            assert!(movegen::legal_moves(g.position(), Convention::Turn).contains(&m.mv));
        }
    }

    // Extending a book to more plies reuses its entries.
    let grown = dir.join("grown.book");
    build(&grown, 2, 3);
    build(&grown, 4, 3);
    assert_eq!(body(&grown), body(&whole));
    assert!(std::fs::read_to_string(&grown)
        .unwrap()
        .contains("came from earlier runs"));

    // An interrupted build (a journal with some entries, the last cut short) resumes.
    let resumed = dir.join("resumed.book");
    let journal = dir.join("resumed.book.partial");
    let evaluation = book::evaluation_text(moulin::search::eval::fingerprint(&Rules::nine()));
    let mut partial = format!(
        "# moulin book journal: variant nine depth 3 margin 10 hash 1 evaluation {evaluation}\n"
    );
    let lines: Vec<&str> = text.lines().filter(|l| l.contains('|')).collect();
    for l in &lines[..lines.len() / 2] {
        partial.push_str(l);
        partial.push('\n');
    }
    partial.push_str(&lines[lines.len() / 2][..30]);
    std::fs::write(&journal, partial).unwrap();
    build(&resumed, 4, 3);
    assert_eq!(body(&resumed), body(&whole));
    assert!(
        !journal.exists(),
        "the journal is removed once the book is written"
    );

    // A journal made with other settings is refused rather than mixed in.
    std::fs::write(
        &journal,
        "# moulin book journal: variant nine depth 5 margin 10 hash 1\n",
    )
    .unwrap();
    let e = run_build(build_args(&resumed, 4, 3, false)).unwrap_err();
    assert!(e.contains("other settings"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drop-out expansion grows the main lines past the book's plies, best lines first, resumes
/// from its journal, and leaves a book that checks.
#[test]
fn expansion_deepens_the_main_lines_and_resumes() {
    use moulin::book::graph::{frontier, principal_length, Entries};
    let dir = temp_dir("expand");
    let path = dir.join("small.book");
    build(&path, 3, 2);
    let run_expand = |positions: usize| {
        let flags = [
            "book",
            "expand",
            &path.display().to_string(),
            "--positions",
            &positions.to_string(),
            "--ply-cost",
            "4",
            "--max-ply",
            "12",
            "--threads",
            "2",
        ];
        run_moulin(&flags.map(String::from))
    };
    let read = |path: &Path| -> (format::Header, Entries) {
        let (h, lines) = format::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let e = lines
            .into_iter()
            .map(|l| (moulin::rules::symmetry::fold(&l.pos).key, (l.pos, l.moves)))
            .collect();
        (h, e)
    };
    let start = moulin::rules::position::Position::start(Rules::nine());
    let (_, small) = read(&path);
    let before = principal_length(&start, &small);
    assert_eq!(before, 3, "a 3-ply book's principal line");
    // The frontier is sorted by priority, and its first position is on the principal line.
    let (front, _) = frontier(&start, &small, &std::collections::HashSet::default(), 4, 12);
    assert!(front.windows(2).all(|w| w[0].priority <= w[1].priority));
    assert_eq!((front[0].priority, front[0].ply), (12, 3));
    run_expand(12).unwrap();
    let (header, grown) = read(&path);
    let added = grown.len() - small.len();
    assert!(
        (1..=12).contains(&added),
        "{added} entries added by 12 searches"
    );
    assert!(principal_length(&start, &grown) > before);
    assert!(header.expanded > 3);
    let text = std::fs::read_to_string(&path).unwrap();
    check_text(&text, 0).unwrap();
    // A stopped run resumes: its journal's entries are taken, not searched again.
    let (_, lines) = format::parse(&text).unwrap();
    let deep = lines
        .iter()
        .rev()
        .find(|l| !small.contains_key(&moulin::rules::symmetry::fold(&l.pos).key));
    let deep = deep.expect("an entry added");
    let journal = moulin::durable::with_suffix(&path, ".expand.partial");
    let mut remade = Vec::new();
    for l in &lines {
        if l.number != deep.number {
            remade.push((l.pos, l.moves.clone()));
        }
    }
    std::fs::write(&path, format::write(&header, &remade)).unwrap();
    std::fs::write(
        &journal,
        format!(
            "# moulin book expand journal: depth 2 margin 10 hash 1 evaluation {} ply-cost 4 \
             max-ply 12\n{}\n",
            book::evaluation_text(header.evaluation),
            format::line_text(&deep.pos, &deep.moves)
        ),
    )
    .unwrap();
    run_expand(1).unwrap();
    let (_, resumed) = read(&path);
    assert_eq!(
        resumed.len(),
        grown.len(),
        "the journaled entry was taken back"
    );
    assert!(
        !journal.exists(),
        "the journal is removed once the book is written"
    );
}

/// The exit check searches the positions the book leaves, each with the book's score of the move
/// that led there, and reports a book that claims more than a deeper search finds.
#[test]
fn the_exit_check_compares_the_positions_the_book_leaves_with_a_deeper_search() {
    use moulin::book::check::check_exits;
    use moulin::search::Score;
    let dir = temp_dir("exits");
    let path = dir.join("small.book");
    build(&path, 3, 2);
    let text = std::fs::read_to_string(&path).unwrap();
    let report = check_exits(&text, 30, Some(4), 120, 2, &Silent).unwrap();
    assert_eq!(report.depth, 4);
    // A 3-ply book of depth 2 leaves its main lines at fewer than 30 positions: all searched.
    assert!((5..30).contains(&report.searched), "{report:?}");
    assert_eq!(
        report.same_class + report.better + report.worse.len(),
        report.searched
    );
    assert!(
        report.worse.is_empty(),
        "three plies from the start nothing is lost: {:?}",
        report.worse
    );
    // A book claiming a win for every move: every exit is found worse by a class.
    let (header, lines) = format::parse(&text).unwrap();
    let doctored: Vec<_> = lines
        .iter()
        .map(|l| {
            let mut moves = l.moves.clone();
            for m in &mut moves {
                m.score = Score::Cp(900);
            }
            (l.pos, moves)
        })
        .collect();
    let claimed = format::write(&header, &doctored);
    let report = check_exits(&claimed, 30, Some(4), 120, 2, &Silent).unwrap();
    assert_eq!(report.worse.len(), report.searched, "{report:?}");
    assert!(report
        .worse
        .iter()
        .all(|&(ply, _, book, deep)| ply >= 1 && book == 900 && deep < 120));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_never_replaces_a_book_it_does_not_cover() {
    let dir = temp_dir("refuse");
    let out = dir.join("b.book");
    build(&out, 3, 2);
    let before = std::fs::read_to_string(&out).unwrap();
    // Fewer plies, another depth: refused, the book untouched, no journal left.
    for (plies, depth, what) in [(2, 2, "2 plies, depth 2"), (3, 1, "3 plies, depth 1")] {
        let e = run_build(build_args(&out, plies, depth, false)).unwrap_err();
        assert!(
            e.contains("would not cover it") && e.contains(what) && e.contains("--force"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    }
    // A file that is not a book is not replaced either.
    let other = dir.join("notes.txt");
    std::fs::write(&other, "my notes\n").unwrap();
    let e = run_build(build_args(&other, 1, 1, false)).unwrap_err();
    assert!(e.contains("is not a book") && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes\n");
    // More plies with the same settings cover it; --force replaces anything.
    run_build(build_args(&out, 4, 2, false)).unwrap();
    run_build(build_args(&out, 1, 1, true)).unwrap();
    assert_eq!(Book::load(&out).unwrap().len(), 1);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(
        names.len(),
        2,
        "no journal, lock or temporary file: {names:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cut_journal_header_is_reported_as_such() {
    let dir = temp_dir("header");
    let out = dir.join("b.book");
    let journal = dir.join("b.book.partial");
    // A header cut short (the old builder wrote it in two writes) or an empty journal.
    for text in ["# moulin book journal: variant ni", ""] {
        std::fs::write(&journal, text).unwrap();
        let e = run_build(build_args(&out, 2, 1, false)).unwrap_err();
        assert!(
            e.contains("header is unreadable") && e.contains("delete it") && !e.contains("other"),
            "{e}"
        );
    }
    std::fs::remove_file(&journal).unwrap();
    run_build(build_args(&out, 2, 1, false)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn settings_past_their_bounds_are_refused() {
    let moulin = env!("CARGO_BIN_EXE_moulin");
    // These aborted allocating (threads, hash) or never ended (depth).
    for (flag, value, bounds) in [
        ("--threads", "100000", "1..=256"),
        ("--hash", "1048576", "1..=1024"),
        ("--depth", "1000", "1..=20"),
        ("--plies", "0", "1..=16"),
        ("--margin", "-5", "0..=1000"),
    ] {
        let out = std::process::Command::new(moulin)
            .args(["book", "build", &format!("{flag}={value}")])
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(2) && e.contains(bounds),
            "{flag}: {e}"
        );
    }
    // `book check --search` trusted the header: hash 1048576 aborted allocating 64 GB.
    let dir = temp_dir("bounds");
    let (_, text) = small_book("bounds-book");
    for (field, bad, bounds) in [
        ("hash", "1048576", "(1 to 1024)"),
        ("depth", "1000", "(1 to 20)"),
    ] {
        let path = dir.join(format!("{field}.book"));
        let changed: Vec<String> = text
            .lines()
            .map(|l| match l.split_once(' ') {
                Some((k, _)) if k == field => format!("{field} {bad}"),
                _ => l.to_string(),
            })
            .collect();
        std::fs::write(&path, changed.join("\n")).unwrap();
        let out = std::process::Command::new(moulin)
            .args(["book", "check", "--search", "1"])
            .arg(&path)
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(1) && e.contains(bounds),
            "{field}: {e}"
        );
    }
    // The library's own bound, past the command line's.
    let mut plan = moulin::book::two_trees::BuildPlan::new(Rules::nine(), 1, 1, 10, 1);
    plan.threads = 100_000;
    plan.out = dir.join("t.book");
    let e = moulin::book::two_trees::build(&plan, &Silent)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("threads 100000 is out of bounds (1 to 256)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small valid book, built once per test that needs one.
fn small_book(name: &str) -> (PathBuf, String) {
    let dir = temp_dir(name);
    let path = dir.join("small.book");
    build(&path, 3, 2);
    let text = std::fs::read_to_string(&path).unwrap();
    (dir, text)
}

#[test]
fn check_names_the_line() {
    let (dir, text) = small_book("check");
    check_text(&text, 0).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| l.contains('|')).unwrap();
    let n = first + 1; // the start position's line number
    let with = |i: usize, line: &str| {
        let mut l: Vec<String> = lines.iter().map(std::string::ToString::to_string).collect();
        l[i] = line.to_string();
        check_text(&l.join("\n"), 0).unwrap_err()
    };
    // An illegal move.
    let e = with(
        first,
        "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 | d6-d5 1 1",
    );
    assert_eq!(e.line, n, "{e}");
    // A position that is not in its canonical form (a7 is not the least image of a corner).
    let e = with(
        first + 1,
        "********/********/*******O b p p 1 8 0 9 0 0 -1 -1 -1 -1 0 0 1 | d6 1 1",
    );
    assert!(
        e.line == n + 1 && e.flaw.to_string().contains("canonical"),
        "{e}"
    );
    // A position the book's moves do not reach: White's first move is none of the book's.
    let book = Book::parse(&text).unwrap();
    let start = Game::new(Rules::nine());
    let start_moves: Vec<u64> = book
        .probe(start.position())
        .unwrap()
        .iter()
        .map(|m| {
            let mut p = *start.position();
            p.play(m.mv);
            moulin::rules::symmetry::fold(&p).key
        })
        .collect();
    let off = movegen::legal_moves(start.position(), Convention::Turn)
        .into_iter()
        .find(|&m| {
            let mut p = *start.position();
            p.play(m);
            !start_moves.contains(&moulin::rules::symmetry::fold(&p).key)
        })
        .unwrap();
    let mut g = start.clone();
    g.play(off);
    let reply = movegen::legal_moves(g.position(), Convention::Turn)[0];
    g.play(reply);
    let canon = g
        .position()
        .transformed(moulin::rules::symmetry::fold(g.position()).symmetry);
    let mv = movegen::legal_moves(&canon, Convention::Turn)[0];
    let line = format!(
        "{} | {} 0 100",
        moulin::rules::fen::write(&canon),
        mv.turn_notation()
    );
    let last = lines.iter().rposition(|l| l.contains('|')).unwrap();
    let e = with(last, &line);
    assert!(
        e.line == last + 1 && e.flaw.to_string().contains("reachable"),
        "{e}"
    );
    // The same line proven (`book cover`: it starts where a match opening ends) is reachable
    // by itself, and no fresh search is compared with it (one would disagree).
    let mut proven: Vec<String> = lines.iter().map(std::string::ToString::to_string).collect();
    proven[last] = line.replace(" 0 100", " >=draw 100");
    let report = check_text(&proven.join("\n"), usize::MAX).unwrap();
    assert_eq!(report.searched, report.positions - 1);
    // The same position twice.
    let e = with(first + 1, lines[first]);
    assert!(
        e.line == n + 1 && e.flaw.to_string().contains("already"),
        "{e}"
    );
    // A file that is not a book.
    let e = check_text("hello\n", 0).unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped book of the standard game.
fn shipped() -> (String, PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/nine.book");
    (std::fs::read_to_string(&path).unwrap(), path)
}

/// Checks `n` entries of the shipped book (spread over it, leaving out the lines `book cover`
/// proved, which no search made) against fresh searches at the book's depth: no book move
/// scores below the best score of a search of the position, less the book's margin.
fn quality(n: usize) {
    let (text, _) = shipped();
    let (header, lines) = format::parse(&text).unwrap();
    let lines: Vec<_> = lines
        .into_iter()
        .filter(|l| l.moves.iter().all(|m| m.exact.is_none()))
        .collect();
    let spec = SearchSpec::of(&header);
    let mut searcher = book_searcher(spec);
    let mut search = |game: &Game, only: Vec<moulin::Move>| {
        searcher.new_game();
        let limits = Limits {
            depth: Some(spec.depth),
            searchmoves: only,
            ..Limits::default()
        };
        score_value(
            searcher
                .search(game, &limits, &Control::new(), &mut |_| {})
                .score,
        )
    };
    let n = n.min(lines.len());
    let mut worst = i32::MAX;
    for i in 0..n {
        let line = &lines[i * lines.len() / n];
        let game = Game::from_position(line.pos);
        let best = search(&game, Vec::new());
        for m in &line.moves {
            let score = search(&game, vec![m.mv]);
            worst = worst.min(score - (best - spec.margin));
            assert!(
                score >= best - spec.margin,
                "line {}: {} scores {score}, the best {best} (margin {})",
                line.number,
                m.mv,
                spec.margin
            );
        }
    }
    eprintln!("{n} entries: every book move within the margin (closest: {worst} cp to spare)");
}

#[test]
fn shipped_book_moves_are_within_the_margin_of_a_fresh_search() {
    quality(6);
}

#[test]
#[ignore = "slow: searches a large sample of the shipped book"]
fn shipped_book_quality_large_sample() {
    quality(300);
}

#[test]
#[ignore = "slow: rebuilds part of the shipped book"]
fn shipped_book_agrees_with_its_own_procedure() {
    let (text, _) = shipped();
    let report = check_text(&text, 200).unwrap();
    assert_eq!(report.searched, 200);
}

/// The proven moves of the shipped book (`book cover`, scored `>=draw`) keep at least a draw:
/// every tenth proven again by the exact solver with the endgame tables up to 9 a side
/// (`$MOULIN_TABLES`, by default `~/.cache/moulin/tables/nine`; slow: 177 moves in 159 s on the
/// 2-core machine; `cargo test --release --test suite book::shipped_proven -- --ignored`).
#[test]
#[ignore = "needs the endgame tables 3-9; slow (minutes)"]
fn shipped_proven_moves_keep_the_draw() {
    let tables = std::env::var("MOULIN_TABLES").unwrap_or_else(|_| {
        format!(
            "{}/.cache/moulin/tables/nine",
            std::env::var("HOME").unwrap_or_default()
        )
    });
    assert!(
        Path::new(&tables).join("9-9.tbl").exists(),
        "no endgame tables up to 9 a side in {tables}: build them first (moulin tables build \
         --pieces 9 --dir {tables}) or set MOULIN_TABLES"
    );
    let tables = moulin::tables::Tables::open(Path::new(&tables), &Rules::nine()).unwrap();
    let (text, _) = shipped();
    let (_, lines) = format::parse(&text).unwrap();
    let never = |_: u64| false;
    let mut memory = moulin::search::exact::Memory::new(1 << 24);
    let all: Vec<(&format::Line, &book::BookMove)> = lines
        .iter()
        .flat_map(|l| l.moves.iter().map(move |m| (l, m)))
        .filter(|(_, m)| m.exact.is_some())
        .collect();
    assert!(!all.is_empty(), "the shipped book has no proven move");
    // Every tenth, deepest first (the earlier proofs share their subtrees).
    let sample: Vec<_> = all.iter().rev().step_by(10).collect();
    for (l, m) in &sample {
        let mut solver = moulin::search::exact::Solver::new(&tables, &mut memory, &never);
        assert_eq!(
            solver.move_at_least(&l.pos, m.mv, m.exact.unwrap()),
            Some(true),
            "line {}: {}",
            l.number,
            m.mv
        );
    }
    eprintln!(
        "{} of the {} proven moves proven again: each keeps its value",
        sample.len(),
        all.len()
    );
}

#[test]
fn shipped_book_checks_and_finds_every_line_under_every_symmetry() {
    let (text, path) = shipped();
    let report = check_text(&text, 0).unwrap();
    let (header, lines) = format::parse(&text).unwrap();
    assert_eq!(header.variant, "nine");
    assert!(header.plies >= 8, "{header:?}");
    let book = Book::load(&path).unwrap();
    assert_eq!(book.len(), report.positions);
    // Every 97th line, under each of the board's symmetries: the book answers with as many
    // moves as the line has. (How fast it answers is `moulin book bench`'s to say, not a test's:
    // the machines are shared.)
    for line in lines.iter().step_by(97) {
        for s in 0..moulin::rules::symmetry::SYMMETRIES {
            let found = book.probe(&line.pos.transformed(s)).map_or(0, |m| m.len());
            assert_eq!(
                found,
                line.moves.len(),
                "line {} under symmetry {s}",
                line.number
            );
        }
    }
}

#[test]
fn an_endless_or_huge_book_is_refused_at_once_in_bounded_memory() {
    let dir = temp_dir("hostile");
    for command in ["bench", "check", "expand"] {
        bounded::hostile_inputs_refused(
            &["book", command, "INPUT"],
            &dir,
            &["larger than the 64 MB"],
        );
    }
}
