//! Drop-out expansion (`moulin book expand`): grows a book along the lines that matter, by drop-out expansion
//! (Lincke, "Strategies for the automatic construction of opening books", 2001).
//!
//! The book's main-line graph starts at the start position and follows every book move of both
//! sides. Each position in it gets a priority: `ply_cost` for each ply from the start plus the
//! drops on the way, a drop being how far below the best book move of its position (in
//! centi-pieces) the move taken scores. A position of the graph without an entry (and not left
//! out, not over, not deeper than `--max-ply`) is on the frontier. Each round searches the
//! frontier positions of lowest priority (`search_entry`, with the book's own depth, margin and
//! hash, so `book check --search` can repeat it), adds their entries, and recomputes the
//! frontier; a run stops when it has searched `--positions` positions or the frontier is empty.
//! Best lines are thus made deep first, and a reply within the margin of the best is answered as
//! soon as its line is as likely as the deeper best line: every book move's replies within the
//! margin become entries in turn.
//!
//! Each search is journaled at once (`<book>.expand.partial`: entries as book lines, positions
//! left out as `none <position>`), so a stopped run resumes; the book is rewritten whole (temp
//! file, fsync, rename) when the run ends, with `expanded <ply>` in its header.

use super::book_error::{evaluation_text, BookError};
use super::book_move::BookMove;
use super::deep_search::{book_searcher, search_entry, SearchSpec};
use super::format::{self, Header, Line};
use super::graph::{self, entries, frontier, principal_length, Entries, Frontier};
use crate::durable::{self, DurableError, Journal};
use crate::job_progress::Progress;
use crate::parallel;
use crate::rules::fen;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::rules::Rules;
use rustc_hash::FxHashSet;
use std::path::Path;
use std::time::Instant;

/// How a run of drop-out expansion goes.
#[derive(Clone, Copy, Debug)]
pub struct ExpandPlan {
    /// Positions to search in this run, counting those its journal holds.
    pub positions: usize,
    /// What one ply of depth weighs against a drop, in centi-pieces (ω).
    pub ply_cost: i32,
    /// The deepest ply a new entry may have.
    pub max_ply: u32,
    /// Worker threads, each searching one position at a time.
    pub threads: usize,
}

/// The state of a run: the book's entries, the positions left out, the positions searched.
struct Run {
    entries: Entries,
    left_out: FxHashSet<u64>,
    searched: usize,
}

/// Expands the book at `path` (its `header` and `lines` read) by the `plan`, resuming from the
/// run's journal, and rewrites it whole; the note added to its header.
pub fn expand(
    path: &Path,
    mut header: Header,
    lines: Vec<Line>,
    plan: ExpandPlan,
    progress: &dyn Progress,
) -> Result<String, BookError> {
    let rules = header.rules()?;
    let spec = SearchSpec::of(&header);
    spec.reproducible(&rules)?;
    let mut run = Run {
        entries: entries(lines),
        left_out: FxHashSet::default(),
        searched: 0,
    };
    let before = run.entries.len();
    let journal_path = durable::with_suffix(path, ".expand.partial");
    let settings = format!(
        "depth {} margin {} hash {} evaluation {} ply-cost {} max-ply {}",
        spec.depth,
        spec.margin,
        spec.hash_mb,
        evaluation_text(spec.evaluation),
        plan.ply_cost,
        plan.max_ply
    );
    let (mut journal, journaled) = Journal::open(&journal_path, "book expand", &settings)?;
    resume(&journaled, &rules, &mut run);
    let start = Position::start(rules);
    let started = Instant::now();
    grow(&start, spec, plan, &mut journal, &mut run, progress)?;
    let seconds = started.elapsed().as_secs_f64();
    let (deepest, note) = note(path, &start, plan, &run, before, seconds);
    header.expanded = header.expanded.max(deepest);
    header.date = crate::date::Date::today().iso();
    header.notes.push(note.clone());
    graph::write(path, &header, run.entries)?;
    journal.finish()?;
    Ok(note)
}

/// Takes the journal's lines of a stopped run: entries, and positions left out.
fn resume(journaled: &[String], rules: &Rules, run: &mut Run) {
    for line in journaled {
        if let Some(fen_text) = line.strip_prefix("none ") {
            if let Ok(pos) = fen::read(fen_text, rules) {
                run.left_out.insert(fold(&pos).key);
            }
        } else if let Ok((pos, moves)) = format::parse_line(line, rules) {
            run.entries.insert(fold(&pos).key, (pos, moves));
        }
    }
    run.searched = journaled.len();
}

/// Searches the frontier, lowest priority first, in batches, until the plan's positions are
/// searched or the frontier is empty.
fn grow(
    start: &Position,
    spec: SearchSpec,
    plan: ExpandPlan,
    journal: &mut Journal,
    run: &mut Run,
    progress: &dyn Progress,
) -> Result<(), BookError> {
    let budget = plan.positions;
    progress.stage(
        budget as u64,
        run.searched.min(budget) as u64,
        "",
        "positions searched",
    );
    while run.searched < budget {
        let (front, _) = frontier(
            start,
            &run.entries,
            &run.left_out,
            plan.ply_cost,
            plan.max_ply,
        );
        if front.is_empty() {
            break;
        }
        let batch: Vec<Frontier> = front
            .into_iter()
            .take((4 * plan.threads).min(budget - run.searched))
            .collect();
        progress.message(&format!(
            "priority {} ply {}",
            batch[0].priority, batch[0].ply
        ));
        let results = search_batch(&batch, spec, plan.threads, journal, progress)?;
        for (pos, moves) in results {
            run.searched += 1;
            if moves.is_empty() {
                run.left_out.insert(fold(&pos).key);
            } else {
                run.entries.insert(fold(&pos).key, (pos, moves));
            }
        }
    }
    progress.finish();
    Ok(())
}

/// The deepest ply of the main lines after the run, and the note the run adds to the header.
fn note(
    path: &Path,
    start: &Position,
    plan: ExpandPlan,
    run: &Run,
    before: usize,
    seconds: f64,
) -> (u32, String) {
    let (_, reached) = frontier(
        start,
        &run.entries,
        &run.left_out,
        plan.ply_cost,
        plan.max_ply,
    );
    let deepest = reached.values().copied().max().unwrap_or(0) + 1;
    let principal = principal_length(start, &run.entries);
    let mut profile = vec![0usize; deepest as usize + 1];
    for &ply in reached.values() {
        profile[ply as usize] += 1;
    }
    let note = format!(
        "expanded by `moulin book expand {} --positions {} --ply-cost {} --max-ply {}`: {} \
         positions searched ({} left out), {} new entries, in {seconds:.0} s on {} \
         threads this run; main-line entries by ply: {}; principal line {} plies",
        path.display(),
        plan.positions,
        plan.ply_cost,
        plan.max_ply,
        run.searched,
        run.left_out.len(),
        run.entries.len() - before,
        plan.threads,
        profile
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(p, n)| format!("{p}:{n}"))
            .collect::<Vec<_>>()
            .join(" "),
        principal
    );
    (deepest, note)
}

/// Searches a batch of frontier positions on `threads` workers, journaling each result.
fn search_batch(
    batch: &[Frontier],
    spec: SearchSpec,
    threads: usize,
    journal: &mut Journal,
    progress: &dyn Progress,
) -> Result<Vec<(Position, Vec<BookMove>)>, BookError> {
    let mut out = Vec::with_capacity(batch.len());
    parallel::run(
        batch,
        threads,
        || book_searcher(spec),
        |searcher, f| search_entry(searcher, &f.pos, spec),
        |f, moves| {
            let line = if moves.is_empty() {
                format!("none {}", fen::write(&f.pos))
            } else {
                format::line_text(&f.pos, &moves)
            };
            journal.append(&line)?;
            out.push((f.pos, moves));
            progress.advance(1);
            Ok::<_, DurableError>(())
        },
    )?;
    // In one order (the keys'), whatever the threads' timing.
    out.sort_by_key(|(p, _)| fold(p).key);
    Ok(out)
}
