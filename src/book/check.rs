//! `moulin book check`: every line parses (legal position, legal whole turns), every position is
//! in its canonical form, appears once and is reachable from the start through the book itself,
//! and, on request, a sample of entries agrees with a fresh search. Errors name the line.

use super::build::{book_searcher, fresh_search, search_entry, SearchSpec};
use super::format::{self, Line};
use super::{fold, score_value, BookError};
use crate::rules::board;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::Color;
use rustc_hash::FxHashSet;
use std::path::{Path, PathBuf};

/// The flags of `moulin book check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The book file.
    pub file: PathBuf,
    /// Also search this many entries again (spread over the book) and compare.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub search: usize,
}

/// What a successful check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub positions: usize,
    pub moves: usize,
    /// Entries searched again (all agreed).
    pub searched: usize,
}

/// Whether `pos` is written in its canonical form.
fn is_canonical(pos: &Position) -> bool {
    let (w, b, _) = board::canonical(pos.pieces(Color::White), pos.pieces(Color::Black));
    (w, b) == (pos.pieces(Color::White), pos.pieces(Color::Black))
}

/// Checks a book's text; `sample` entries are searched again.
pub fn check_text(text: &str, sample: usize) -> Result<Report, BookError> {
    let (header, lines) = format::parse(text)?;
    let rules = header.rules()?;
    let start = Position::start(rules);
    let mut keys = FxHashSet::default();
    for l in &lines {
        if !is_canonical(&l.pos) {
            return Err(BookError::at(
                l.number,
                "the position is not in its canonical form",
            ));
        }
        if !keys.insert(fold(&l.pos).key) {
            return Err(BookError::at(
                l.number,
                "this position is already in the book",
            ));
        }
        if l.pos.is_placing() {
            let placed = 2 * rules.pieces as u32
                - l.pos.in_hand(Color::White) as u32
                - l.pos.in_hand(Color::Black) as u32;
            if placed >= header.plies.max(header.expanded).max(1) {
                return Err(BookError::at(
                    l.number,
                    format!(
                        "the position is {placed} plies deep; the header gives moves for {} plies",
                        header.plies.max(header.expanded)
                    ),
                ));
            }
        }
    }
    // Reachable: the start, a position one ply from it (the first move of the second player's
    // tree), or a reply to a book move of another entry.
    let mut reachable = FxHashSet::default();
    reachable.insert(fold(&start).key);
    for mv in movegen::legal_moves(&start, Convention::Turn) {
        let mut p = start;
        p.play(mv);
        reachable.insert(fold(&p).key);
    }
    for l in &lines {
        for m in &l.moves {
            let mut child = l.pos;
            child.play(m.mv);
            if child.outcome().is_some() {
                continue;
            }
            for reply in movegen::legal_moves(&child, Convention::Turn) {
                let mut p = child;
                p.play(reply);
                reachable.insert(fold(&p).key);
            }
        }
    }
    for l in &lines {
        if !reachable.contains(&fold(&l.pos).key) {
            return Err(BookError::at(
                l.number,
                "the position is not reachable from the start through the book's moves",
            ));
        }
    }
    if sample > 0 {
        SearchSpec::of(&header)
            .reproducible(&rules)
            .map_err(|e| BookError::at(0, e))?;
    }
    let searched = check_sample(&lines, SearchSpec::of(&header), sample)?;
    Ok(Report {
        positions: lines.len(),
        moves: lines.iter().map(|l| l.moves.len()).sum(),
        searched,
    })
}

/// Searches `n` entries again (evenly spread over the book) and compares: the same moves with
/// the same scores, and none worse than the best score of a fresh search of the position less
/// the margin.
pub fn check_sample(lines: &[Line], spec: SearchSpec, n: usize) -> Result<usize, BookError> {
    if n == 0 || lines.is_empty() {
        return Ok(0);
    }
    let n = n.min(lines.len());
    let mut searcher = book_searcher(spec);
    for i in 0..n {
        let l = &lines[i * lines.len() / n];
        let fresh = search_entry(&mut searcher, &l.pos, spec);
        let (_, top) = fresh_search(&mut searcher, &l.pos, spec.depth, Vec::new());
        let best = score_value(top);
        for m in &l.moves {
            if score_value(m.score) < best - spec.margin {
                return Err(BookError::at(
                    l.number,
                    format!(
                        "{} scores {} in the book, below the margin of a fresh search's best ({})",
                        m.mv,
                        format::score_text(m.score),
                        format::score_text(top)
                    ),
                ));
            }
        }
        if fresh != l.moves {
            return Err(BookError::at(
                l.number,
                format!(
                    "a fresh search at depth {} disagrees: {}",
                    spec.depth,
                    format::line_text(&l.pos, &fresh)
                ),
            ));
        }
    }
    Ok(n)
}

/// `moulin book check`.
pub fn run_check(args: CheckArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| BookError::io(&args.file, &e).to_string())?;
    let report =
        check_text(&text, args.search).map_err(|e| e.in_file(Path::new(&args.file)).to_string())?;
    println!(
        "{}: ok, {} positions, {} moves{}",
        args.file.display(),
        report.positions,
        report.moves,
        if report.searched > 0 {
            format!(", {} entries agree with a fresh search", report.searched)
        } else {
            String::new()
        }
    );
    Ok(())
}
