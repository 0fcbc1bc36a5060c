//! `moulin book build`: makes a book by deep search.
//!
//! Two trees are walked at once, ply by ply, every position folded to its canonical form: in
//! White's tree White's choices are restricted to the book moves and Black's are every reply; in
//! Black's tree the other way round. A position where the side to move is the book side of a
//! tree it belongs to gets a book entry (`search_entry`); its children in that tree are those of
//! its book moves. Elsewhere every legal move leads on. The two trees merge into one file.
//!
//! Each finished entry is appended to a journal (`<out>.partial`, `durable::Journal`: written line
//! by line, locked against a second build) at once, so an interrupted build resumes
//! where it stopped; an existing book at `<out>` made with the same variant, depth, margin and
//! hash also seeds the build, so a book can be extended to more plies. A book at `<out>` that
//! the build would not cover is refused unless `--force`. The book is written whole or not at
//! all (`durable::write_atomic`), and only then is the journal removed. Entries are searched in
//! parallel, one searcher (one thread) per worker.

use super::format::{self, Header};
use super::{BookMove, FORMAT_VERSION};
use crate::durable::{self, Journal};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::rules::Rules;
use crate::search::{Score, Searcher};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The flags of `moulin book build`.
#[derive(clap::Args, Debug, Clone)]
pub struct BuildArgs {
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Give book moves for the first N plies (positions after 0 to N-1 plies; 1 to 16).
    #[arg(long, default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=super::MAX_PLIES as i64))]
    pub plies: u32,
    /// Search depth (turns) of every search (1 to 20).
    #[arg(long, default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(1..=super::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Keep the moves within this many centi-pieces of the best (0 to 1000).
    #[arg(long, value_name = "CP", default_value_t = 10,
          value_parser = clap::value_parser!(i32).range(0..=super::MAX_MARGIN as i64))]
    pub margin: i32,
    /// Hash table of each search, in MB (part of what makes a search reproducible; 1 to 1024).
    #[arg(long, value_name = "MB", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=super::MAX_HASH_MB as i64))]
    pub hash: u32,
    /// Worker threads (each searches one position at a time; 1 to 256); default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
          .range(1..=super::MAX_THREADS as u64))]
    pub threads: Option<usize>,
    /// The book to write (default book/<variant>.book), whole or not at all (a temporary file
    /// renamed over it). An existing book there is extended; one that this build would not cover
    /// (other settings, fewer plies, or not a book) is refused unless --force. Finished entries
    /// are journaled in <out>.partial, which one build at a time holds (<out>.partial.lock): a
    /// stopped build resumes when run again with the same settings.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the book at --out even if this build does not cover it.
    #[arg(long)]
    pub force: bool,
}

/// How a book's searches are made: the settings a search needs to be reproduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    pub depth: u32,
    pub margin: i32,
    pub hash_mb: u32,
    /// The evaluation (`eval::fingerprint`: 0 for the hand-written one).
    pub evaluation: u64,
}

impl SearchSpec {
    pub fn of(header: &Header) -> SearchSpec {
        SearchSpec {
            depth: header.depth,
            margin: header.margin,
            hash_mb: header.hash_mb,
            evaluation: header.evaluation,
        }
    }

    /// Whether this build can repeat the spec's searches under `rules`: the evaluation must be
    /// the hand-written one or the learned one of this build.
    pub fn reproducible(&self, rules: &Rules) -> Result<(), String> {
        let ours = crate::search::eval::fingerprint(rules);
        if self.evaluation == 0 || self.evaluation == ours {
            Ok(())
        } else {
            Err(format!(
                "the book's searches used the evaluation {}, this build has {}: its entries \
                 cannot be searched again (rebuild the book)",
                evaluation_text(self.evaluation),
                evaluation_text(ours)
            ))
        }
    }
}

/// An evaluation fingerprint as headers and messages give it: `hand` or 16 hex digits.
pub fn evaluation_text(e: u64) -> String {
    if e == 0 {
        "hand".to_string()
    } else {
        format!("{e:016x}")
    }
}

/// One fresh search of `pos` at the spec's depth, its root restricted to `allowed`.
pub(super) fn fresh_search(
    searcher: &mut Searcher,
    pos: &Position,
    depth: u32,
    allowed: Vec<Move>,
) -> (Option<Move>, Score) {
    searcher.new_game();
    let r = searcher.search_to_depth(pos, depth, allowed);
    (r.best, r.score)
}

/// The book moves of `pos` (any frame), best first: a fresh search at `spec.depth` gives the best
/// move and score; then the search is repeated without the moves found so far (nor the moves
/// symmetric to them, which lead to the same position), and each best move within `spec.margin`
/// of the first score is a candidate, until one falls outside. A candidate is kept when a fresh
/// search of it alone (the root restricted to it) also scores within the margin, and that score
/// is stored: searched alone, a move is a principal line and reduced less than among others, so
/// the two scores can differ by a few centi-pieces. The procedure is deterministic, so
/// `book check --search` and the tests can repeat it. When no candidate passes (even the best
/// move scores outside the margin searched alone), every move is searched alone and those within
/// the margin are kept; when none is, the position is left out of the book and the engine
/// searches it.
pub fn search_entry(searcher: &mut Searcher, pos: &Position, spec: SearchSpec) -> Vec<BookMove> {
    let legal = movegen::legal_moves(pos, Convention::Turn);
    let class: Vec<u64> = legal
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            fold(&child).key
        })
        .collect();
    let mut taken: FxHashSet<u64> = FxHashSet::default();
    let mut found: Vec<(Move, Score)> = Vec::new();
    let mut best = None;
    loop {
        let allowed: Vec<Move> = legal
            .iter()
            .zip(&class)
            .filter(|(_, c)| !taken.contains(c))
            .map(|(&m, _)| m)
            .collect();
        if allowed.is_empty() {
            break;
        }
        let (Some(mv), score) = fresh_search(searcher, pos, spec.depth, allowed) else {
            break;
        };
        let value = super::score_value(score);
        let top = *best.get_or_insert(value);
        if value < top - spec.margin {
            break;
        }
        let (_, alone) = fresh_search(searcher, pos, spec.depth, vec![mv]);
        if super::score_value(alone) >= top - spec.margin {
            found.push((mv, alone));
        }
        let i = legal.iter().position(|&m| m == mv).expect("a legal move");
        taken.insert(class[i]);
    }
    if found.is_empty() {
        // No candidate held its score searched alone: try every move (one per symmetry class)
        // alone, and keep those within the margin.
        if let Some(top) = best {
            let mut seen: FxHashSet<u64> = FxHashSet::default();
            for (&mv, &c) in legal.iter().zip(&class) {
                if seen.insert(c) {
                    let (_, alone) = fresh_search(searcher, pos, spec.depth, vec![mv]);
                    if super::score_value(alone) >= top - spec.margin {
                        found.push((mv, alone));
                    }
                }
            }
        }
    }
    found.sort_by_key(|&(_, s)| std::cmp::Reverse(super::score_value(s)));
    format::weighted(&found, spec.margin)
}

/// A searcher as the book's searches use it: one thread, the spec's table.
pub fn book_searcher(spec: SearchSpec) -> Searcher {
    let mut s = Searcher::new(spec.hash_mb as usize, 1);
    s.options.learned = spec.evaluation != 0;
    s
}

/// Which trees a position belongs to.
const WHITE_TREE: u8 = 1;
const BLACK_TREE: u8 = 2;

fn tree_of(c: crate::Color) -> u8 {
    match c {
        crate::Color::White => WHITE_TREE,
        crate::Color::Black => BLACK_TREE,
    }
}

/// The settings a journal's entries were made with, as its header names them.
fn journal_settings(variant: &str, spec: SearchSpec) -> String {
    format!(
        "variant {variant} depth {} margin {} hash {}{}",
        spec.depth,
        spec.margin,
        spec.hash_mb,
        match spec.evaluation {
            0 => String::new(),
            e => format!(" evaluation {}", evaluation_text(e)),
        }
    )
}

/// The settings of a build or a book, as messages give them.
fn settings_text(variant: &str, plies: u32, spec: SearchSpec) -> String {
    format!(
        "variant {variant}, {plies} plies, depth {}, margin {}, hash {}, evaluation {}",
        spec.depth,
        spec.margin,
        spec.hash_mb,
        evaluation_text(spec.evaluation)
    )
}

/// The entries of the book at `out` that this build can reuse: all of them when it was made
/// with the same variant and settings. A book there that this build would not cover (other
/// settings, more plies, or no book at all) is refused unless `force`, so that a small trial
/// build never replaces a long one.
fn existing_book(
    out: &Path,
    variant: &str,
    plies: u32,
    spec: SearchSpec,
    force: bool,
) -> Result<FxHashMap<u64, (Position, Vec<BookMove>)>, String> {
    let mut done = FxHashMap::default();
    if !out.exists() {
        return Ok(done);
    }
    let read = std::fs::read_to_string(out)
        .map_err(|e| e.to_string())
        .and_then(|text| format::parse(&text).map_err(|e| e.to_string()));
    let uncovered = match read {
        Err(e) => Some(format!(
            "{} is not a book this build can extend ({e})",
            out.display()
        )),
        Ok((header, lines)) => {
            let positions = lines.len();
            let same = header.variant == variant && SearchSpec::of(&header) == spec;
            if same {
                for l in lines {
                    done.insert(fold(&l.pos).key, (l.pos, l.moves));
                }
            }
            (!same || header.plies > plies).then(|| {
                format!(
                    "{} holds {positions} positions ({}); this build ({}) would not cover it",
                    out.display(),
                    settings_text(&header.variant, header.plies, SearchSpec::of(&header)),
                    settings_text(variant, plies, spec)
                )
            })
        }
    };
    match uncovered {
        Some(what) if force => eprintln!("{what}: replaced (--force)"),
        Some(what) => {
            return Err(format!(
                "{what}: give another --out, or --force to replace it"
            ))
        }
        None if !done.is_empty() => eprintln!("{}: {} entries reused", out.display(), done.len()),
        None => {}
    }
    Ok(done)
}

/// `moulin book build`.
pub fn run_build(args: BuildArgs) -> Result<(), String> {
    let plan = Plan::from_args(&args)?;
    let rules = plan.rules;
    let mut done = existing_book(&plan.out, &plan.variant, plan.plies, plan.spec, args.force)?;
    let journal_path = durable::with_suffix(&plan.out, ".partial");
    let (journal, journaled) = Journal::open(
        &journal_path,
        "book",
        &journal_settings(&plan.variant, plan.spec),
    )?;
    resume(&journal_path, &journaled, &rules, &mut done);
    let journal = Mutex::new(journal);
    let started = Instant::now();
    let mut tally = Tally::default();
    // The positions of the current ply: canonical position and the trees it belongs to.
    let start = Position::start(rules);
    let start_pos = start.transformed(fold(&start).symmetry);
    let mut level: FxHashMap<u64, (Position, u8)> = FxHashMap::default();
    level.insert(fold(&start_pos).key, (start_pos, WHITE_TREE | BLACK_TREE));
    let mut book: Vec<(Position, Vec<BookMove>)> = Vec::new();
    for ply in 0..plan.plies {
        let mut positions: Vec<(u64, Position, u8)> =
            level.iter().map(|(&k, &(p, t))| (k, p, t)).collect();
        positions.sort_unstable_by_key(|&(k, _, _)| k);
        let todo: Vec<(u64, Position)> = positions
            .iter()
            .filter(|(k, p, t)| needs_entry(p, *t) && !done.contains_key(k))
            .map(|&(k, p, _)| (k, p))
            .collect();
        let entries = positions
            .iter()
            .filter(|(_, p, t)| needs_entry(p, *t))
            .count();
        eprintln!(
            "ply {ply}: {} positions, {entries} book positions, {} to search",
            positions.len(),
            todo.len()
        );
        let results = search_level(&plan, ply, &todo, &journal)?;
        tally.searched += todo.len();
        for (key, pos, moves) in results {
            if moves.is_empty() {
                tally.left_out += 1;
            }
            done.insert(key, (pos, moves));
        }
        let last = ply + 1 == plan.plies;
        level = expand(&positions, &done, last, &mut book);
    }
    tally.seconds = started.elapsed().as_secs_f64();
    write_book(&plan, book, &tally, journal)
}

/// What a build makes, from its flags, every number checked against its bound.
struct Plan {
    rules: Rules,
    variant: String,
    spec: SearchSpec,
    plies: u32,
    threads: usize,
    out: PathBuf,
}

impl Plan {
    fn from_args(args: &BuildArgs) -> Result<Plan, String> {
        let rules = Rules::named(&args.variant).map_err(|e| e.to_string())?;
        let variant = rules.preset_name().unwrap_or("nine").to_string();
        let spec = SearchSpec {
            depth: args.depth,
            margin: args.margin,
            hash_mb: args.hash,
            evaluation: crate::search::eval::fingerprint(&rules),
        };
        let threads = super::default_threads(args.threads);
        // The flags' parsers check these too; a caller of this function may not have used them.
        super::check_setting(
            "plies",
            i64::from(args.plies),
            1,
            i64::from(super::MAX_PLIES),
        )?;
        super::check_setting(
            "depth",
            i64::from(spec.depth),
            1,
            i64::from(super::MAX_DEPTH),
        )?;
        super::check_setting(
            "margin",
            i64::from(spec.margin),
            0,
            i64::from(super::MAX_MARGIN),
        )?;
        super::check_setting(
            "hash",
            i64::from(spec.hash_mb),
            1,
            i64::from(super::MAX_HASH_MB),
        )?;
        super::check_setting("threads", threads as i64, 1, super::MAX_THREADS as i64)?;
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| Path::new("book").join(super::file_name(&variant)));
        Ok(Plan {
            rules,
            variant,
            spec,
            plies: args.plies,
            threads,
            out,
        })
    }
}

/// What the last run did, for the book's notes.
#[derive(Default)]
struct Tally {
    searched: usize,
    /// Searched positions whose every move fell outside the margin when searched alone.
    left_out: usize,
    seconds: f64,
}

/// Whether a position of these trees gets a book entry: its side to move is a tree's book side.
fn needs_entry(pos: &Position, trees: u8) -> bool {
    trees & tree_of(pos.side_to_move()) != 0
}

/// Takes the journal's entries of an interrupted run into `done`; a line that does not read is
/// searched again.
fn resume(
    journal_path: &Path,
    journaled: &[String],
    rules: &Rules,
    done: &mut FxHashMap<u64, (Position, Vec<BookMove>)>,
) {
    for (i, line) in journaled.iter().enumerate() {
        match format::parse_line(line, rules) {
            Ok((pos, moves)) => {
                done.insert(fold(&pos).key, (pos, moves));
            }
            Err(e) => log::warn!(
                "{}, line {}: {e}; searched again",
                journal_path.display(),
                i + 2
            ),
        }
    }
    if !journaled.is_empty() {
        eprintln!(
            "{}: {} entries resumed",
            journal_path.display(),
            journaled.len()
        );
    }
}

/// Searches the positions of one ply on the plan's threads, journaling each entry as it is
/// found. A failed journal write (a full disk) stops every worker at once: a build that cannot
/// record its work must not go on searching.
fn search_level(
    plan: &Plan,
    ply: u32,
    todo: &[(u64, Position)],
    journal: &Mutex<Journal>,
) -> Result<Vec<(u64, Position, Vec<BookMove>)>, String> {
    let bar = crate::progress::bar(
        todo.len() as u64,
        0,
        &format!("ply {ply}/{} ", plan.plies),
        "positions",
    );
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<(u64, Position, Vec<BookMove>)>> = Mutex::new(Vec::new());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.min(todo.len().max(1)) {
            scope.spawn(|| {
                let mut searcher = book_searcher(plan.spec);
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(key, pos)) = todo.get(i) else {
                        break;
                    };
                    let moves = search_entry(&mut searcher, &pos, plan.spec);
                    // A position without book moves is not journaled (a resumed build searches
                    // it again, with the same result).
                    if !moves.is_empty() {
                        let line = format::line_text(&pos, &moves);
                        let mut j = journal
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                        if let Err(e) = j.append(&line) {
                            stop.store(true, Ordering::Relaxed);
                            *failed
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner) =
                                Some(e.into());
                            break;
                        }
                    }
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((key, pos, moves));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// Adds the entries of this ply to `book` and makes the next ply: every reply in the trees where
/// the other side is to move, only the book moves in the tree where this side is the book side
/// (nothing after the `last` ply).
fn expand(
    positions: &[(u64, Position, u8)],
    done: &FxHashMap<u64, (Position, Vec<BookMove>)>,
    last: bool,
    book: &mut Vec<(Position, Vec<BookMove>)>,
) -> FxHashMap<u64, (Position, u8)> {
    let mut children: FxHashMap<u64, (Position, u8)> = FxHashMap::default();
    for &(key, pos, trees) in positions {
        let book_tree = trees & tree_of(pos.side_to_move());
        if book_tree != 0 {
            let (p, moves) = &done[&key];
            if !moves.is_empty() {
                book.push((*p, moves.clone()));
            }
        }
        if last {
            continue;
        }
        let book_moves: Vec<Move> = if book_tree != 0 {
            done[&key].1.iter().map(|m| m.mv).collect()
        } else {
            Vec::new()
        };
        for mv in movegen::legal_moves(&pos, Convention::Turn) {
            let mut child = pos;
            child.play(mv);
            if child.outcome().is_some() {
                continue;
            }
            let mut t = trees & !book_tree;
            if book_moves.contains(&mv) {
                t |= book_tree;
            }
            if t == 0 {
                continue;
            }
            let f = fold(&child);
            children
                .entry(f.key)
                .or_insert_with(|| (child.transformed(f.symmetry), 0))
                .1 |= t;
        }
    }
    children
}

/// Writes the book (sorted by pieces placed, then key) with its header, durably; the journal
/// goes only once the book is on disk, so a failure here loses nothing.
fn write_book(
    plan: &Plan,
    mut book: Vec<(Position, Vec<BookMove>)>,
    tally: &Tally,
    journal: Mutex<Journal>,
) -> Result<(), String> {
    let Tally {
        searched,
        left_out,
        seconds,
    } = *tally;
    let reused = (book.len() + left_out).saturating_sub(searched);
    book.sort_by_cached_key(|(pos, _)| (super::exact::ply_of(pos), fold(pos).key));
    let spec = plan.spec;
    let command = format!(
        "moulin book build --variant {} --plies {} --depth {} --margin {} --hash {} --out {}",
        plan.variant,
        plan.plies,
        spec.depth,
        spec.margin,
        spec.hash_mb,
        plan.out.display()
    );
    let header = Header {
        version: FORMAT_VERSION,
        variant: plan.variant.clone(),
        plies: plan.plies,
        expanded: 0,
        depth: spec.depth,
        margin: spec.margin,
        hash_mb: spec.hash_mb,
        evaluation: spec.evaluation,
        date: crate::date::Date::today().iso(),
        command,
        notes: vec![format!(
            "the last run searched {searched} positions in {seconds:.0} s on {} threads \
             ({left_out} left out: no move within the margin searched alone); {reused} entries \
             came from earlier runs",
            plan.threads
        )],
    };
    let text = format::write(&header, &book);
    durable::write_atomic(&plan.out, text.as_bytes())?;
    journal
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .finish()?;
    eprintln!(
        "{}: {} positions ({searched} searched in {seconds:.0} s)",
        plan.out.display(),
        book.len()
    );
    Ok(())
}
