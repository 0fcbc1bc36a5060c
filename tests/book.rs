//! The opening book: building (and resuming) a small book, `book check` on good and corrupt
//! books, the quality of the shipped book against fresh searches, and the cost of a lookup.

use moulin::book::build::{book_searcher, run_build, BuildArgs, SearchSpec};
use moulin::book::check::check_text;
use moulin::book::{self, format, score_value, Book};
use moulin::rules::game::Game;
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::search::{Control, Limits};
use moulin::Rules;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("moulin-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn build(out: &Path, plies: u32, depth: u32) {
    run_build(BuildArgs {
        variant: "nine".into(),
        plies,
        depth,
        margin: 10,
        hash: 1,
        threads: Some(2),
        out: Some(out.to_path_buf()),
    })
    .unwrap();
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
    let mut partial =
        String::from("# moulin book journal: variant nine depth 3 margin 10 hash 1\n");
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
    let e = run_build(BuildArgs {
        variant: "nine".into(),
        plies: 2,
        depth: 3,
        margin: 10,
        hash: 1,
        threads: Some(1),
        out: Some(resumed.clone()),
    })
    .unwrap_err();
    assert!(e.contains("other settings"), "{e}");
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
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
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
    assert!(e.line == n + 1 && e.message.contains("canonical"), "{e}");
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
            book::fold(&p).key
        })
        .collect();
    let off = movegen::legal_moves(start.position(), Convention::Turn)
        .into_iter()
        .find(|&m| {
            let mut p = *start.position();
            p.play(m);
            !start_moves.contains(&book::fold(&p).key)
        })
        .unwrap();
    let mut g = start.clone();
    g.play(off);
    let reply = movegen::legal_moves(g.position(), Convention::Turn)[0];
    g.play(reply);
    let canon = g.position().transformed(book::fold(g.position()).symmetry);
    let mv = movegen::legal_moves(&canon, Convention::Turn)[0];
    let line = format!(
        "{} | {} 0 100",
        moulin::rules::fen::write(&canon),
        mv.turn_notation()
    );
    let last = lines.iter().rposition(|l| l.contains('|')).unwrap();
    let e = with(last, &line);
    assert!(e.line == last + 1 && e.message.contains("reachable"), "{e}");
    // The same position twice.
    let e = with(first + 1, lines[first]);
    assert!(e.line == n + 1 && e.message.contains("already"), "{e}");
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

/// Checks `n` entries of the shipped book (spread over it) against fresh searches at the book's
/// depth: no book move scores below the best score of a search of the position, less the
/// book's margin.
fn quality(n: usize) {
    let (text, _) = shipped();
    let (header, lines) = format::parse(&text).unwrap();
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
#[ignore]
fn shipped_book_quality_large_sample() {
    quality(300);
}

#[test]
#[ignore]
fn shipped_book_agrees_with_its_own_procedure() {
    let (text, _) = shipped();
    let report = check_text(&text, 200).unwrap();
    assert_eq!(report.searched, 200);
}

#[test]
fn shipped_book_checks_and_lookups_are_fast() {
    let (text, path) = shipped();
    let report = check_text(&text, 0).unwrap();
    let (header, lines) = format::parse(&text).unwrap();
    assert_eq!(header.variant, "nine");
    assert!(header.plies >= 8, "{header:?}");
    let book = Book::load(&path).unwrap();
    assert_eq!(book.len(), report.positions);
    let sample: Vec<_> = lines.into_iter().step_by(97).collect();
    let ns = book::lookup_ns(&book, &sample, 20);
    eprintln!("{} positions; {ns:.0} ns per lookup", book.len());
    assert!(ns < 1000.0, "{ns} ns per lookup");
}
