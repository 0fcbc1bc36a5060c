//! `moulin book build`: makes a book by deep search.
//!
//! Two trees are walked at once, ply by ply, every position folded to its canonical form: in
//! White's tree White's choices are restricted to the book moves and Black's are every reply; in
//! Black's tree the other way round. A position where the side to move is the book side of a
//! tree it belongs to gets a book entry (`search_entry`); its children in that tree are those of
//! its book moves. Elsewhere every legal move leads on. The two trees merge into one file.
//!
//! Each finished entry is appended to a journal (`<out>.partial`) at once, so an interrupted
//! build resumes where it stopped; an existing book at `<out>` made with the same variant,
//! depth, margin and hash also seeds the build, so a book can be extended to more plies. Entries
//! are searched in parallel, one searcher (one thread) per worker.

use super::format::{self, Header};
use super::{fold, BookMove, FORMAT_VERSION};
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::search::{Control, Limits, Score, Searcher};
use indicatif::{ProgressBar, ProgressStyle};
use rustc_hash::{FxHashMap, FxHashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The flags of `moulin book build`.
#[derive(clap::Args, Debug, Clone)]
pub struct BuildArgs {
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Give book moves for the first N plies (positions after 0 to N-1 plies).
    #[arg(long, default_value_t = 8)]
    pub plies: u32,
    /// Search depth (turns) of every search.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Keep the moves within this many centi-pieces of the best.
    #[arg(long, value_name = "CP", default_value_t = 10)]
    pub margin: i32,
    /// Hash table of each search, in MB (part of what makes a search reproducible).
    #[arg(long, value_name = "MB", default_value_t = 4)]
    pub hash: u32,
    /// Worker threads (each searches one position at a time); default: every core.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The book to write (default book/<variant>.book).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// How a book's searches are made: the settings a search needs to be reproduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    pub depth: u32,
    pub margin: i32,
    pub hash_mb: u32,
}

impl SearchSpec {
    pub fn of(header: &Header) -> SearchSpec {
        SearchSpec {
            depth: header.depth,
            margin: header.margin,
            hash_mb: header.hash_mb,
        }
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
    let limits = Limits {
        depth: Some(depth),
        searchmoves: allowed,
        ..Limits::default()
    };
    let r = searcher.search(
        &Game::from_position(*pos),
        &limits,
        &Control::new(),
        &mut |_| {},
    );
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
    Searcher::new(spec.hash_mb as usize, 1)
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

/// The journal: finished entries, one book line each, after a header naming the settings.
fn journal_header(variant: &str, spec: SearchSpec) -> String {
    format!(
        "# moulin book journal: variant {variant} depth {} margin {} hash {}",
        spec.depth, spec.margin, spec.hash_mb
    )
}

/// Entries already made with these settings: from the book at `out` (if its header matches) and
/// from the journal.
fn resume(
    out: &Path,
    journal: &Path,
    variant: &str,
    rules: &Rules,
    spec: SearchSpec,
) -> Result<FxHashMap<u64, (Position, Vec<BookMove>)>, String> {
    let mut done = FxHashMap::default();
    if out.is_file() {
        match super::Book::load(out) {
            Ok(_) => {
                let text = std::fs::read_to_string(out).map_err(|e| e.to_string())?;
                let (header, lines) = format::parse(&text).map_err(|e| e.to_string())?;
                if header.variant == variant && SearchSpec::of(&header) == spec {
                    for l in lines {
                        done.insert(fold(&l.pos).key, (l.pos, l.moves));
                    }
                    eprintln!("{}: {} entries reused", out.display(), done.len());
                } else {
                    eprintln!(
                        "{}: made with other settings, not reused (it will be replaced)",
                        out.display()
                    );
                }
            }
            Err(e) => eprintln!("{e}: not reused (it will be replaced)"),
        }
    }
    if journal.is_file() {
        let text = std::fs::read_to_string(journal)
            .map_err(|e| format!("cannot read {}: {e}", journal.display()))?;
        let mut lines = text.lines();
        if lines.next() != Some(journal_header(variant, spec).as_str()) {
            return Err(format!(
                "{} holds a build with other settings: use the same variant, depth, margin \
                 and hash, or delete it",
                journal.display()
            ));
        }
        let mut n = 0;
        for (i, line) in lines.enumerate() {
            // A line cut short by an interruption is the last one: search it again.
            let Ok((pos, moves)) = format::parse_line(line, rules) else {
                log::warn!(
                    "{}, line {}: unreadable, searched again",
                    journal.display(),
                    i + 2
                );
                continue;
            };
            done.insert(fold(&pos).key, (pos, moves));
            n += 1;
        }
        eprintln!("{}: {n} entries resumed", journal.display());
    }
    Ok(done)
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil from days (Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}-{m:02}-{d:02}")
}

/// `moulin book build`.
pub fn run_build(args: BuildArgs) -> Result<(), String> {
    let rules = Rules::preset(&args.variant).ok_or_else(|| {
        format!(
            "unknown variant '{}' (expected one of {})",
            args.variant,
            crate::rules::PRESETS.join(", ")
        )
    })?;
    let variant = rules.preset_name().unwrap_or("nine").to_string();
    let spec = SearchSpec {
        depth: args.depth.clamp(1, 100),
        margin: args.margin.max(0),
        hash_mb: args.hash.clamp(1, 1024),
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("book").join(super::file_name(&variant)));
    let journal = PathBuf::from(format!("{}.partial", out.display()));
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut done = resume(&out, &journal, &variant, &rules, spec)?;
    let journal_file = {
        let fresh = !journal.is_file();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal)
            .map_err(|e| format!("cannot write {}: {e}", journal.display()))?;
        if fresh {
            writeln!(f, "{}", journal_header(&variant, spec)).map_err(|e| e.to_string())?;
        }
        Mutex::new(f)
    };
    let started = Instant::now();
    let mut searched = 0usize;
    // Searched positions whose every move fell outside the margin when searched alone.
    let mut left_out = 0usize;
    // The positions of the current ply: canonical position and the trees it belongs to.
    let start = Position::start(rules);
    let start_pos = start.transformed(fold(&start).symmetry);
    let mut level: FxHashMap<u64, (Position, u8)> = FxHashMap::default();
    level.insert(fold(&start_pos).key, (start_pos, WHITE_TREE | BLACK_TREE));
    let mut book: Vec<(Position, Vec<BookMove>)> = Vec::new();
    for ply in 0..args.plies {
        let mut positions: Vec<(u64, Position, u8)> =
            level.iter().map(|(&k, &(p, t))| (k, p, t)).collect();
        positions.sort_unstable_by_key(|&(k, _, _)| k);
        let needs_entry = |pos: &Position, trees: u8| trees & tree_of(pos.side_to_move()) != 0;
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
        let bar = ProgressBar::new(todo.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "ply {ply}/{} {{bar:30}} {{pos}}/{{len}} positions [{{elapsed}} < {{eta}}]",
                args.plies
            ))
            .expect("valid template"),
        );
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<(u64, Position, Vec<BookMove>)>> = Mutex::new(Vec::new());
        let failed: Mutex<Option<String>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..threads.min(todo.len().max(1)) {
                scope.spawn(|| {
                    let mut searcher = book_searcher(spec);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(key, pos)) = todo.get(i) else {
                            break;
                        };
                        let moves = search_entry(&mut searcher, &pos, spec);
                        let line = format::line_text(&pos, &moves);
                        // A position without book moves is not journaled (a resumed build
                        // searches it again, with the same result).
                        if !moves.is_empty() {
                            let mut f = journal_file.lock().unwrap_or_else(|e| e.into_inner());
                            if let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush()) {
                                *failed.lock().unwrap_or_else(|e| e.into_inner()) =
                                    Some(format!("cannot write {}: {e}", journal.display()));
                            }
                        }
                        results
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((key, pos, moves));
                        bar.inc(1);
                    }
                });
            }
        });
        bar.finish_and_clear();
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        searched += todo.len();
        for (key, pos, moves) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
            if moves.is_empty() {
                left_out += 1;
            }
            done.insert(key, (pos, moves));
        }
        // Expand to the next ply.
        let mut children: FxHashMap<u64, (Position, u8)> = FxHashMap::default();
        for &(key, pos, trees) in &positions {
            let book_tree = trees & tree_of(pos.side_to_move());
            if book_tree != 0 {
                let (p, moves) = &done[&key];
                if !moves.is_empty() {
                    book.push((*p, moves.clone()));
                }
            }
            if ply + 1 == args.plies {
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
                // Every reply in the trees where the other side is to move; only the book
                // moves in the tree where this side is the book side.
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
        level = children;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let reused = (book.len() + left_out).saturating_sub(searched);
    book.sort_by_cached_key(|(pos, _)| {
        let placed = 2 * rules.pieces as u32
            - pos.in_hand(crate::Color::White) as u32
            - pos.in_hand(crate::Color::Black) as u32;
        (placed, fold(pos).key)
    });
    let command = format!(
        "moulin book build --variant {variant} --plies {} --depth {} --margin {} --hash {} --out {}",
        args.plies,
        spec.depth,
        spec.margin,
        spec.hash_mb,
        out.display()
    );
    let header = Header {
        version: FORMAT_VERSION,
        variant: variant.clone(),
        plies: args.plies,
        depth: spec.depth,
        margin: spec.margin,
        hash_mb: spec.hash_mb,
        date: today(),
        command,
        notes: vec![format!(
            "the last run searched {searched} positions in {elapsed:.0} s on {threads} threads \
             ({left_out} left out: no move within the margin searched alone); {reused} entries \
             came from earlier runs"
        )],
    };
    let text = format::write(&header, &book);
    let tmp = PathBuf::from(format!("{}.tmp", out.display()));
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, &out))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    drop(journal_file);
    let _ = std::fs::remove_file(&journal);
    eprintln!(
        "{}: {} positions ({searched} searched in {elapsed:.0} s)",
        out.display(),
        book.len()
    );
    Ok(())
}
