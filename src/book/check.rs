//! `moulin book check`: every line parses (legal position, legal whole turns), every position is
//! in its canonical form, appears once and is reachable from the start through the book itself,
//! and, on request, a sample of entries agrees with a fresh search. Errors name the line.

use super::book_error::{TextError, TextFlaw};
use super::book_move::{ply_of, score_value};
use super::deep_search::{book_searcher, fresh_search, search_entry, SearchSpec};
use super::format::{self, Line};
use super::graph::{self, is_proven, reachable_keys, Frontier};
use crate::job_progress::Progress;
use crate::rules::position::Position;
use crate::rules::symmetry;
use crate::rules::symmetry::fold;
use crate::search::{class, exact};
use crate::Color;
use rustc_hash::FxHashSet;

/// What the exit check found.
#[derive(Clone, Debug)]
pub struct ExitReport {
    /// The depth of the searches (0: valued exactly).
    pub depth: u32,
    /// The exits searched (or valued).
    pub searched: usize,
    /// Mean of |deep score - book score|, in centi-pieces (mates counted as ±1000).
    pub mean_difference: f64,
    /// Exits whose deep score is within the book's margin of the book's.
    pub within_margin: usize,
    /// Exits in the same value class as the book says.
    pub same_class: usize,
    /// Exits better by a class for the side that led there.
    pub better: usize,
    /// Exits worse by a class: the ply, the position, the book's score and the deep one (both
    /// for the side that led there).
    pub worse: Vec<(u32, Position, i32, i32)>,
}

/// Searches the first `n` positions the book leaves along its main lines (`book expand`'s
/// frontier, lowest priority first) at `depth`, with the book's evaluation and hash, and
/// compares each value with the book's score of the move that led there.
pub fn check_exits(
    text: &str,
    n: usize,
    depth: Option<u32>,
    threshold: i32,
    threads: usize,
    progress: &dyn Progress,
) -> Result<ExitReport, TextError> {
    use rayon::prelude::*;
    let (spec, exits) = book_exits(text, n)?;
    let depth = depth.unwrap_or(spec.depth + 4);
    progress.stage(exits.len() as u64, 0, "", "exits searched");
    let pool = crate::parallel::pool(Some(threads), None)
        .map_err(|source| TextError::of(0, TextFlaw::Threads { threads, source }))?;
    let deep: Vec<i32> = pool.install(|| {
        exits
            .par_iter()
            .map_init(
                || book_searcher(spec),
                |searcher, f| {
                    let (_, score) = fresh_search(searcher, &f.pos, depth, Vec::new());
                    progress.advance(1);
                    // For the side that played the move leading there.
                    -score_value(score).clamp(-1000, 1000)
                },
            )
            .collect()
    });
    progress.finish();
    Ok(compare_exits(&exits, &deep, depth, spec.margin, threshold))
}

/// The exits of `check_exits` valued exactly instead of searched: a placing position by the
/// exact solver of the placing, a moving one by the endgame tables (which must cover every
/// moving position of the book's rules). A win counts as 1000 cp, a loss as -1000, a draw as 0,
/// so that the value classes compare as for a search (`depth` is 0 in the report). A moving
/// exit whose value the tables do not decide under the no-capture rule (`probe_in_game`) is
/// left out of the report (`uncovered`); placing exits are solved as in play.
pub fn check_exits_exact(
    text: &str,
    n: usize,
    threshold: i32,
    tables: &crate::tables::Tables,
) -> Result<(ExitReport, usize), TextError> {
    let (spec, exits) = book_exits(text, n)?;
    let never = |_: u64| false;
    let mut memory = exact::Memory::new(1 << 22);
    let total = exits.len();
    let mut valued = Vec::new();
    let mut values = Vec::new();
    for f in exits {
        let exact = match exact::outcome(&f.pos) {
            Some(v) => Some(v),
            None if f.pos.is_placing() || f.pos.pending_removals() > 0 => {
                exact::Solver::new(tables, &mut memory, &never).value(&f.pos)
            }
            None => tables.probe_in_game(&f.pos).map(exact::wdl),
        };
        if let Some(v) = exact {
            // For the side that played the move leading there.
            values.push(-i32::from(v) * 1000);
            valued.push(f);
        }
    }
    let uncovered = total - valued.len();
    Ok((
        compare_exits(&valued, &values, 0, spec.margin, threshold),
        uncovered,
    ))
}

/// The first `n` positions the book leaves along its main lines (`book expand`'s frontier,
/// lowest priority first), with the book's search settings.
fn book_exits(text: &str, n: usize) -> Result<(SearchSpec, Vec<Frontier>), TextError> {
    let (header, lines) = format::parse(text)?;
    let rules = header.rules()?;
    let spec = SearchSpec::of(&header);
    spec.reproducible(&rules)
        .map_err(|e| TextError::of(0, Box::new(e)))?;
    let entries = graph::entries(lines);
    let start = Position::start(rules);
    let (front, _) = graph::frontier(
        &start,
        &entries,
        &FxHashSet::default(),
        graph::DEFAULT_PLY_COST,
        u32::MAX,
    );
    let exits = front.into_iter().filter(|f| f.ply > 0).take(n).collect();
    Ok((spec, exits))
}

/// Compares each exit's deeper value (`deep`, for the side whose book move led there) with the
/// book's score of that move.
fn compare_exits(
    exits: &[Frontier],
    deep: &[i32],
    depth: u32,
    margin: i32,
    threshold: i32,
) -> ExitReport {
    let mut report = ExitReport {
        depth,
        searched: exits.len(),
        mean_difference: 0.0,
        within_margin: 0,
        same_class: 0,
        better: 0,
        worse: Vec::new(),
    };
    for (f, &d) in exits.iter().zip(deep) {
        let book = f.reached_by.clamp(-1000, 1000);
        report.mean_difference += f64::from((d - book).abs()) / exits.len() as f64;
        if (d - book).abs() <= margin {
            report.within_margin += 1;
        }
        match class(d, threshold).cmp(&class(book, threshold)) {
            std::cmp::Ordering::Equal => report.same_class += 1,
            std::cmp::Ordering::Greater => report.better += 1,
            std::cmp::Ordering::Less => report.worse.push((f.ply, f.pos, book, d)),
        }
    }
    report
}

/// What a successful check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Positions in the book.
    pub positions: usize,
    /// Book moves in all.
    pub moves: usize,
    /// Entries searched again (all agreed).
    pub searched: usize,
}

/// Whether `pos` is written in its canonical form.
fn is_canonical(pos: &Position) -> bool {
    let (w, b, _) = symmetry::canonical(pos.pieces(Color::White), pos.pieces(Color::Black));
    (w, b) == (pos.pieces(Color::White), pos.pieces(Color::Black))
}

/// Checks a book's text; `sample` entries are searched again.
pub fn check_text(text: &str, sample: usize) -> Result<Report, TextError> {
    let (header, lines) = format::parse(text)?;
    let rules = header.rules()?;
    let start = Position::start(rules);
    let mut keys = FxHashSet::default();
    for l in &lines {
        if !is_canonical(&l.pos) {
            return Err(TextError::at(
                l.number,
                "the position is not in its canonical form",
            ));
        }
        if !keys.insert(fold(&l.pos).key) {
            return Err(TextError::at(
                l.number,
                "this position is already in the book",
            ));
        }
        if l.pos.is_placing() {
            let placed = ply_of(&l.pos);
            if placed >= header.plies.max(header.expanded).max(1) {
                return Err(TextError::at(
                    l.number,
                    format!(
                        "the position is {placed} plies deep; the header gives moves for {} plies",
                        header.plies.max(header.expanded)
                    ),
                ));
            }
        }
    }
    let reachable = reachable_keys(&start, lines.iter().map(|l| (&l.pos, l.moves.as_slice())));
    for l in &lines {
        if !reachable.contains(&fold(&l.pos).key) {
            return Err(TextError::at(
                l.number,
                "the position is not reachable from the start through the book's moves",
            ));
        }
    }
    if sample > 0 {
        SearchSpec::of(&header)
            .reproducible(&rules)
            .map_err(|e| TextError::of(0, Box::new(e)))?;
    }
    let searched = check_sample(&lines, SearchSpec::of(&header), sample)?;
    Ok(Report {
        positions: lines.len(),
        moves: lines.iter().map(|l| l.moves.len()).sum(),
        searched,
    })
}

/// Searches `n` entries again (evenly spread over the book, leaving out the proven lines of `book
/// cover`) and compares: the same moves with the same scores, and none worse than the best score
/// of a fresh search of the position less the margin.
pub fn check_sample(lines: &[Line], spec: SearchSpec, n: usize) -> Result<usize, TextError> {
    if n == 0 || lines.is_empty() {
        return Ok(0);
    }
    let searched: Vec<&Line> = lines.iter().filter(|l| !is_proven(&l.moves)).collect();
    let n = n.min(searched.len());
    let mut searcher = book_searcher(spec);
    for i in 0..n {
        let l = searched[i * searched.len() / n];
        let fresh = search_entry(&mut searcher, &l.pos, spec);
        let (_, top) = fresh_search(&mut searcher, &l.pos, spec.depth, Vec::new());
        let best = score_value(top);
        for m in &l.moves {
            if score_value(m.score) < best - spec.margin {
                return Err(TextError::at(
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
            return Err(TextError::at(
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
