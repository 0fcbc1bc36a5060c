//! `moulin book check`: every line parses (legal position, legal whole turns), every position is
//! in its canonical form, appears once and is reachable from the start through the book itself,
//! and, on request, a sample of entries agrees with a fresh search. Errors name the line.

use super::build::{book_searcher, fresh_search, search_entry, SearchSpec};
use super::format::{self, Line};
use super::{score_value, BookError};
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry;
use crate::rules::symmetry::fold;
use crate::search::{class, exact};
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
    /// Also search the first N positions the book leaves along its main lines (lowest drop-out
    /// priority first, as `book expand` ranks them) deeper than the book did, and compare their
    /// values with the book's: fails when the search finds one worse by a whole value class for
    /// the side whose book move led there.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub exits: usize,
    /// Depth of the exit searches (default: the book's depth plus 4).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub exit_depth: Option<u32>,
    /// Value classes of the exit check: a score at or beyond ± this is a win or a loss, a draw
    /// in between.
    #[arg(long, value_name = "CP", default_value_t = 120,
          value_parser = clap::value_parser!(i32).range(1..=5000))]
    pub threshold: i32,
    /// Value the exits exactly instead of searching them: the exact solver of the placing and
    /// the endgame tables in this folder (which must cover every moving position: `moulin
    /// tables build --pieces 9` for nine); a win counts as 1000 cp, a loss as -1000, a draw 0.
    #[arg(long, value_name = "TABLES", requires = "exits")]
    pub exact: Option<PathBuf>,
    /// Worker threads of the exit searches; default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
          .range(1..=super::MAX_THREADS as u64))]
    pub threads: Option<usize>,
}

/// What the exit check found.
#[derive(Clone, Debug)]
pub struct ExitReport {
    pub depth: u32,
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
) -> Result<ExitReport, BookError> {
    use rayon::prelude::*;
    let (spec, exits) = book_exits(text, n)?;
    let depth = depth.unwrap_or(spec.depth + 4);
    let bar = crate::progress::bar(exits.len() as u64, 0, "", "exits searched");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| BookError::at(0, format!("cannot start {threads} threads: {e}")))?;
    let deep: Vec<i32> = pool.install(|| {
        exits
            .par_iter()
            .map_init(
                || book_searcher(spec),
                |searcher, f| {
                    let (_, score) = fresh_search(searcher, &f.pos, depth, Vec::new());
                    bar.inc(1);
                    // For the side that played the move leading there.
                    -score_value(score).clamp(-1000, 1000)
                },
            )
            .collect()
    });
    bar.finish_and_clear();
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
) -> Result<(ExitReport, usize), BookError> {
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
fn book_exits(
    text: &str,
    n: usize,
) -> Result<(SearchSpec, Vec<super::expand::Frontier>), BookError> {
    let (header, lines) = format::parse(text)?;
    let rules = header.rules()?;
    let spec = SearchSpec::of(&header);
    spec.reproducible(&rules).map_err(|e| BookError::at(0, e))?;
    let entries = super::expand::entries(lines);
    let start = Position::start(rules);
    let (front, _) = super::expand::frontier(
        &start,
        &entries,
        &FxHashSet::default(),
        super::expand::DEFAULT_PLY_COST,
        u32::MAX,
    );
    let exits = front.into_iter().filter(|f| f.ply > 0).take(n).collect();
    Ok((spec, exits))
}

/// Compares each exit's deeper value (`deep`, for the side whose book move led there) with the
/// book's score of that move.
fn compare_exits(
    exits: &[super::expand::Frontier],
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
    pub positions: usize,
    pub moves: usize,
    /// Entries searched again (all agreed).
    pub searched: usize,
}

/// The keys of the positions a book reaches: the start, a position one ply from it (the first
/// move of the second player's tree), a position whose moves are all proven (`book cover`: its
/// lines start where a match opening ends), or a reply to a book move of one of `entries`.
pub(super) fn reachable_keys<'a>(
    start: &Position,
    entries: impl Iterator<Item = (&'a Position, &'a [super::BookMove])>,
) -> FxHashSet<u64> {
    let mut reachable = FxHashSet::default();
    reachable.insert(fold(start).key);
    for mv in movegen::legal_moves(start, Convention::Turn) {
        let mut p = *start;
        p.play(mv);
        reachable.insert(fold(&p).key);
    }
    for (pos, moves) in entries {
        if is_proven(moves) {
            reachable.insert(fold(pos).key);
        }
        for m in moves {
            let mut child = *pos;
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
    reachable
}

/// Keeps of `lines` the positions `reachable_keys` reaches from `start`, again until none is
/// dropped (a position dropped may have been the only way to others); returns how many went.
pub(super) fn retain_reachable(
    lines: &mut Vec<(Position, Vec<super::BookMove>)>,
    start: &Position,
) -> usize {
    let total = lines.len();
    loop {
        let reachable = reachable_keys(
            start,
            lines.iter().map(|(pos, moves)| (pos, moves.as_slice())),
        );
        let before = lines.len();
        lines.retain(|(pos, _)| reachable.contains(&fold(pos).key));
        if lines.len() == before {
            return total - lines.len();
        }
    }
}

/// Whether every move of a position is proven by the exact solver (`book cover`): such a line
/// is not a search's, so a fresh search has nothing to compare with it.
pub(super) fn is_proven(moves: &[super::BookMove]) -> bool {
    !moves.is_empty() && moves.iter().all(|m| m.exact.is_some())
}

/// Whether `pos` is written in its canonical form.
fn is_canonical(pos: &Position) -> bool {
    let (w, b, _) = symmetry::canonical(pos.pieces(Color::White), pos.pieces(Color::Black));
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
            let placed = 2 * u32::from(rules.pieces)
                - u32::from(l.pos.in_hand(Color::White))
                - u32::from(l.pos.in_hand(Color::Black));
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
    let reachable = reachable_keys(&start, lines.iter().map(|l| (&l.pos, l.moves.as_slice())));
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

/// Searches `n` entries again (evenly spread over the book, leaving out the proven lines of `book
/// cover`) and compares: the same moves with the same scores, and none worse than the best score
/// of a fresh search of the position less the margin.
pub fn check_sample(lines: &[Line], spec: SearchSpec, n: usize) -> Result<usize, BookError> {
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
    if args.exits == 0 {
        return Ok(());
    }
    let in_file = |e: BookError| e.in_file(Path::new(&args.file)).to_string();
    let exits = match &args.exact {
        Some(dir) => {
            let rules = format::parse(&text)
                .map_err(in_file)?
                .0
                .rules()
                .map_err(in_file)?;
            let tables = crate::tables::Tables::open(dir, &rules)
                .map_err(|e| format!("endgame tables {}: {e}", dir.display()))?;
            let (exits, uncovered) =
                check_exits_exact(&text, args.exits, args.threshold, &tables).map_err(in_file)?;
            println!(
                "exits: {} positions the book leaves valued exactly ({uncovered} more not \
                 decided by the tables): {} in the book's value class (±{} cp), {} better and \
                 {} worse for the side whose book move led there",
                exits.searched,
                exits.same_class,
                args.threshold,
                exits.better,
                exits.worse.len()
            );
            exits
        }
        None => {
            let threads = super::default_threads(args.threads);
            let exits = check_exits(&text, args.exits, args.exit_depth, args.threshold, threads)
                .map_err(in_file)?;
            println!(
                "exits: {} positions the book leaves searched at depth {}: mean difference \
                 {:.1} cp, {} within the margin, {} in the book's value class (±{} cp), {} \
                 better and {} worse for the side whose book move led there",
                exits.searched,
                exits.depth,
                exits.mean_difference,
                exits.within_margin,
                exits.same_class,
                args.threshold,
                exits.better,
                exits.worse.len()
            );
            exits
        }
    };
    if exits.worse.is_empty() {
        return Ok(());
    }
    let how = match exits.depth {
        0 => "exactly".to_string(),
        d => format!("at depth {d}"),
    };
    let mut text = format!(
        "{}: {} positions the book leaves are worse by a value class {how} than the book says \
         (ply, book score, deeper value, position):",
        args.file.display(),
        exits.worse.len(),
    );
    for (ply, pos, book, deep) in exits.worse.iter().take(20) {
        text += &format!("\n  {ply} {book} {deep} {}", crate::rules::fen::write(pos));
    }
    Err(text)
}
