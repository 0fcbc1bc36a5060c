//! `moulin book expand`: grows a book along the lines that matter, by drop-out expansion
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

use super::build::{book_searcher, search_entry, SearchSpec};
use super::format::{self, Header};
use super::{score_value, BookMove};
use crate::durable::{self, Journal};
use crate::rules::fen;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use indicatif::ProgressBar;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// ω of drop-out expansion unless told otherwise.
pub const DEFAULT_PLY_COST: i32 = 4;

/// The flags of `moulin book expand`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExpandArgs {
    /// The book to expand (rewritten whole when the run ends).
    #[arg(default_value = "book/nine.book")]
    pub book: PathBuf,
    /// Positions to search in this run (the size budget; a resumed run counts what its journal
    /// holds).
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// What one ply of depth weighs against a drop, in centi-pieces (ω of drop-out expansion).
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_PLY_COST,
          value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub ply_cost: i32,
    /// The deepest ply a new entry may have (plies from the start, 1 to 40).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub max_ply: u32,
    /// Worker threads (each searches one position at a time); default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
          .range(1..=super::MAX_THREADS as u64))]
    pub threads: Option<usize>,
}

/// The book's entries by key.
pub type Entries = FxHashMap<u64, (Position, Vec<BookMove>)>;

/// A book's lines as entries by key.
pub fn entries(lines: Vec<format::Line>) -> Entries {
    lines
        .into_iter()
        .map(|l| (fold(&l.pos).key, (l.pos, l.moves)))
        .collect()
}

/// One frontier position: its priority, ply and the position, and the book's score of the move
/// that leads to it on its line of lowest priority (for the side that played it).
#[derive(Clone, Copy, Debug)]
pub struct Frontier {
    pub priority: i32,
    pub ply: u32,
    pub pos: Position,
    pub reached_by: i32,
}

/// The main-line graph walked from the start by priority (Dijkstra): the frontier positions,
/// lowest priority first, and the ply at which each entry is first reached.
pub fn frontier(
    start: &Position,
    entries: &Entries,
    left_out: &FxHashSet<u64>,
    ply_cost: i32,
    max_ply: u32,
) -> (Vec<Frontier>, FxHashMap<u64, u32>) {
    let mut best: FxHashMap<u64, i32> = FxHashMap::default();
    let mut reached: FxHashMap<u64, u32> = FxHashMap::default();
    let mut out = Vec::new();
    let mut heap = BinaryHeap::new();
    let root = fold(start).key;
    best.insert(root, 0);
    heap.push(Reverse((0i32, 0u32, root, PosKey(*start, 0))));
    while let Some(Reverse((priority, ply, key, PosKey(pos, reached_by)))) = heap.pop() {
        if best.get(&key).is_some_and(|&p| p < priority) || reached.contains_key(&key) {
            continue;
        }
        reached.insert(key, ply);
        let Some((book_pos, moves)) = entries.get(&key) else {
            if !left_out.contains(&key) && ply <= max_ply {
                out.push(Frontier {
                    priority,
                    ply,
                    pos,
                    reached_by,
                });
            }
            continue;
        };
        let top = moves.first().map_or(0, |m| score_value(m.score));
        for m in moves {
            let mut child = *book_pos;
            child.play(m.mv);
            if child.outcome().is_some() {
                continue;
            }
            let f = fold(&child);
            let p = priority + ply_cost + (top - score_value(m.score)).max(0);
            if best.get(&f.key).is_none_or(|&q| p < q) {
                best.insert(f.key, p);
                heap.push(Reverse((
                    p,
                    ply + 1,
                    f.key,
                    PosKey(child.transformed(f.symmetry), score_value(m.score)),
                )));
            }
        }
    }
    out.sort_by_key(|f| (f.priority, f.ply, fold(&f.pos).key));
    reached.retain(|k, _| entries.contains_key(k));
    (out, reached)
}

/// A position in the heap and the score of the move that led to it, ordered by nothing (the key
/// before it decides).
#[derive(Clone, Copy, Debug)]
struct PosKey(Position, i32);

impl PartialEq for PosKey {
    fn eq(&self, _: &PosKey) -> bool {
        true
    }
}
impl Eq for PosKey {}
impl PartialOrd for PosKey {
    fn partial_cmp(&self, other: &PosKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PosKey {
    fn cmp(&self, _: &PosKey) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

/// The principal line: from the start, the first (best) book move of each entry, as long as
/// there is one; its length in plies.
pub fn principal_length(start: &Position, entries: &Entries) -> u32 {
    let mut pos = *start;
    let mut n = 0;
    let mut seen = FxHashSet::default();
    while let Some((p, moves)) = entries.get(&fold(&pos).key) {
        if !seen.insert(fold(&pos).key) {
            break;
        }
        let Some(m) = moves.first() else { break };
        pos = *p;
        pos.play(m.mv);
        n += 1;
        if pos.outcome().is_some() {
            break;
        }
    }
    n
}

pub fn run_expand(args: ExpandArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.book)
        .map_err(|e| format!("cannot read {}: {e}", args.book.display()))?;
    let (mut header, lines) =
        format::parse(&text).map_err(|e| e.in_file(&args.book).to_string())?;
    let rules = header.rules().map_err(|e| e.to_string())?;
    let spec = SearchSpec::of(&header);
    spec.reproducible(&rules)?;
    let mut entries = entries(lines);
    let before = entries.len();
    let journal_path = durable::with_suffix(&args.book, ".expand.partial");
    let settings = format!(
        "depth {} margin {} hash {} evaluation {} ply-cost {} max-ply {}",
        spec.depth,
        spec.margin,
        spec.hash_mb,
        super::build::evaluation_text(spec.evaluation),
        args.ply_cost,
        args.max_ply
    );
    let (journal, journaled) = Journal::open(&journal_path, "book expand", &settings)?;
    let mut left_out: FxHashSet<u64> = FxHashSet::default();
    for line in &journaled {
        if let Some(fen_text) = line.strip_prefix("none ") {
            if let Ok(pos) = fen::read(fen_text, &rules) {
                left_out.insert(fold(&pos).key);
            }
        } else if let Ok((pos, moves)) = format::parse_line(line, &rules) {
            entries.insert(fold(&pos).key, (pos, moves));
        }
    }
    let start = Position::start(rules);
    let threads = super::default_threads(args.threads);
    let budget = args.positions;
    let mut searched = journaled.len();
    let bar = crate::progress::bar(
        budget as u64,
        searched.min(budget) as u64,
        "",
        "positions searched",
    );
    let started = Instant::now();
    let journal = Mutex::new(journal);
    while searched < budget {
        let (front, _) = frontier(&start, &entries, &left_out, args.ply_cost, args.max_ply);
        if front.is_empty() {
            break;
        }
        let batch: Vec<Frontier> = front
            .into_iter()
            .take((4 * threads).min(budget - searched))
            .collect();
        bar.set_message(format!(
            "priority {} ply {}",
            batch[0].priority, batch[0].ply
        ));
        let results = search_batch(&batch, spec, threads, &journal, &bar)?;
        for (pos, moves) in results {
            searched += 1;
            if moves.is_empty() {
                left_out.insert(fold(&pos).key);
            } else {
                entries.insert(fold(&pos).key, (pos, moves));
            }
        }
    }
    bar.finish_and_clear();
    let (_, reached) = frontier(&start, &entries, &left_out, args.ply_cost, args.max_ply);
    let deepest = reached.values().copied().max().unwrap_or(0) + 1;
    let principal = principal_length(&start, &entries);
    let mut profile = vec![0usize; deepest as usize + 1];
    for &ply in reached.values() {
        profile[ply as usize] += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    header.expanded = header.expanded.max(deepest);
    header.date = crate::date::Date::today().iso();
    header.notes.push(format!(
        "expanded by `moulin book expand {} --positions {} --ply-cost {} --max-ply {}`: {} \
         positions searched ({} left out), {} new entries, in {seconds:.0} s on {threads} \
         threads this run; main-line entries by ply: {}; principal line {} plies",
        args.book.display(),
        args.positions,
        args.ply_cost,
        args.max_ply,
        searched,
        left_out.len(),
        entries.len() - before,
        profile
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(p, n)| format!("{p}:{n}"))
            .collect::<Vec<_>>()
            .join(" "),
        principal
    ));
    write(&args.book, &header, entries)?;
    journal
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .finish()?;
    eprintln!("{}", header.notes.last().map_or("", String::as_str));
    Ok(())
}

/// Searches a batch of frontier positions on `threads` workers, journaling each result.
fn search_batch(
    batch: &[Frontier],
    spec: SearchSpec,
    threads: usize,
    journal: &Mutex<Journal>,
    bar: &ProgressBar,
) -> Result<Vec<(Position, Vec<BookMove>)>, String> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results = Mutex::new(Vec::new());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(batch.len()) {
            scope.spawn(|| {
                let mut searcher = book_searcher(spec);
                while !stop.load(Ordering::Relaxed) {
                    let Some(f) = batch.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let moves = search_entry(&mut searcher, &f.pos, spec);
                    let line = if moves.is_empty() {
                        format!("none {}", fen::write(&f.pos))
                    } else {
                        format::line_text(&f.pos, &moves)
                    };
                    let appended = journal
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .append(&line);
                    if let Err(e) = appended {
                        stop.store(true, Ordering::Relaxed);
                        *failed
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.into());
                        break;
                    }
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((f.pos, moves));
                    bar.inc(1);
                }
            });
        }
    });
    if let Some(e) = failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        return Err(e);
    }
    let mut out = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // In the batch's order, whatever the threads' timing.
    out.sort_by_key(|(p, _)| fold(p).key);
    Ok(out)
}

/// Writes the book whole, sorted by pieces placed and key, as `book build` does.
pub(super) fn write(
    path: &std::path::Path,
    header: &Header,
    entries: Entries,
) -> Result<(), String> {
    let mut book: Vec<(Position, Vec<BookMove>)> = entries.into_values().collect();
    book.sort_by_cached_key(|(pos, _)| (super::exact::ply_of(pos), fold(pos).key));
    let text = format::write(header, &book);
    if text.len() as u64 > super::MAX_FILE_BYTES {
        return Err(format!(
            "the expanded book would be {} bytes, more than the {} the engine reads",
            text.len(),
            super::MAX_FILE_BYTES
        ));
    }
    Ok(durable::write_atomic(path, text.as_bytes())?)
}
