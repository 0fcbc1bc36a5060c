//! Making a book by deep search (`moulin book build`): both sides' trees walked at once.
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

use super::book_error::{evaluation_text, BookError};
use super::book_move::BookMove;
use super::deep_search::{book_searcher, search_entry, SearchSpec};
use super::format::{self, Header};
use super::graph::sort_lines;
use super::settings::FORMAT_VERSION;
use crate::durable::{self, DurableError, Journal};
use crate::job_progress::Progress;
use crate::parallel;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::rules::Rules;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// The positions a build has entries for: the canonical position and its book moves by key.
type Done = FxHashMap<u64, (Position, Vec<BookMove>)>;

/// A book's lines: each position with its book moves.
type Lines = Vec<(Position, Vec<BookMove>)>;

/// The entries of the book at `plan.out` that this build can reuse: all of them when it was made
/// with the same variant and settings. A book there that this build would not cover (other
/// settings, more plies, or no book at all) is refused unless `plan.force`, so that a small
/// trial build never replaces a long one.
fn existing_book(plan: &BuildPlan, progress: &dyn Progress) -> Result<Done, BookError> {
    let (out, variant, plies, spec) = (&plan.out, plan.variant.as_str(), plan.plies, plan.spec);
    let mut done = FxHashMap::default();
    if !out.exists() {
        return Ok(done);
    }
    let read = super::settings::read_text(out)
        .and_then(|text| format::parse(&text).map_err(BookError::from));
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
        Some(what) if plan.force => progress.note(&format!("{what}: replaced (--force)")),
        Some(what) => return Err(BookError::Refused { what }),
        None if !done.is_empty() => {
            let entries = crate::text::count(done.len(), "entry", "entries");
            progress.note(&format!("{}: {entries} reused", out.display()));
        }
        None => {}
    }
    Ok(done)
}

/// What a build made: the positions of the book written, those searched by this run, and its
/// time.
#[derive(Clone, Copy, Debug)]
pub struct Built {
    /// Positions in the book written.
    pub positions: usize,
    /// Positions searched by this run.
    pub searched: usize,
    /// Seconds the run took.
    pub seconds: f64,
}

/// Makes the book of `plan` and writes it to `plan.out` (see the module's comment).
pub fn build(plan: &BuildPlan, progress: &dyn Progress) -> Result<Built, BookError> {
    plan.check()?;
    let mut done = existing_book(plan, progress)?;
    let journal_path = durable::with_suffix(&plan.out, ".partial");
    let (mut journal, journaled) = Journal::open(
        &journal_path,
        "book",
        &journal_settings(&plan.variant, plan.spec),
    )?;
    resume(&journal_path, &journaled, &plan.rules, &mut done, progress);
    let started = Instant::now();
    let (book, mut tally) = walk(plan, &mut done, &mut journal, progress)?;
    tally.seconds = started.elapsed().as_secs_f64();
    write_book(plan, book, &tally, journal)
}

/// Walks the two trees ply by ply, searching the positions that need an entry and are not
/// `done` yet; the book's lines, and what was searched.
fn walk(
    plan: &BuildPlan,
    done: &mut Done,
    journal: &mut Journal,
    progress: &dyn Progress,
) -> Result<(Lines, Tally), BookError> {
    let mut tally = Tally::default();
    // The positions of the current ply: canonical position and the trees it belongs to.
    let start = Position::start(plan.rules);
    let start_pos = start.transformed(fold(&start).symmetry);
    let mut level: FxHashMap<u64, (Position, u8)> = FxHashMap::default();
    level.insert(fold(&start_pos).key, (start_pos, WHITE_TREE | BLACK_TREE));
    let mut book: Lines = Vec::new();
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
        progress.note(&format!(
            "ply {ply}: {} positions, {entries} book positions, {} to search",
            positions.len(),
            todo.len()
        ));
        let results = search_level(plan, ply, &todo, journal, progress)?;
        tally.searched += todo.len();
        for (key, pos, moves) in results {
            if moves.is_empty() {
                tally.left_out += 1;
            }
            done.insert(key, (pos, moves));
        }
        let last = ply + 1 == plan.plies;
        level = expand(&positions, done, last, &mut book);
    }
    Ok((book, tally))
}

/// What a build makes, every number checked against its bound (`check`) before it starts.
#[derive(Clone, Debug)]
pub struct BuildPlan {
    /// The rules of the book.
    pub rules: Rules,
    /// Their preset's name, as the header gives it.
    pub variant: String,
    /// The settings of every search.
    pub spec: SearchSpec,
    /// Book moves are given for the first `plies` plies.
    pub plies: u32,
    /// Worker threads, each searching one position at a time.
    pub threads: usize,
    /// The book to write (and extend, when it was made with the same settings).
    pub out: PathBuf,
    /// Replace the book at `out` even if this build does not cover it.
    pub force: bool,
}

impl BuildPlan {
    /// A build under `rules` of `plies` plies, searched at `depth` with `margin` and `hash_mb`
    /// of table, with this build's evaluation; on every core, into `book/<variant>.book`.
    pub fn new(rules: Rules, plies: u32, depth: u32, margin: i32, hash_mb: u32) -> BuildPlan {
        let variant = rules.preset_name().unwrap_or("nine").to_string();
        let spec = SearchSpec {
            depth,
            margin,
            hash_mb,
            evaluation: crate::search::eval::fingerprint(&rules),
        };
        let out = Path::new("book").join(super::settings::file_name(&variant));
        BuildPlan {
            rules,
            variant,
            spec,
            plies,
            threads: super::settings::default_threads(None),
            out,
            force: false,
        }
    }

    /// Checks every number against its bound (the flags' parsers check these too; a caller of
    /// `build` may not have used them).
    pub fn check(&self) -> Result<(), BookError> {
        let spec = self.spec;
        super::settings::check_setting(
            "plies",
            i64::from(self.plies),
            1,
            i64::from(super::settings::MAX_PLIES),
        )?;
        super::settings::check_setting(
            "depth",
            i64::from(spec.depth),
            1,
            i64::from(super::settings::MAX_DEPTH),
        )?;
        super::settings::check_setting(
            "margin",
            i64::from(spec.margin),
            0,
            i64::from(super::settings::MAX_MARGIN),
        )?;
        super::settings::check_setting(
            "hash",
            i64::from(spec.hash_mb),
            1,
            i64::from(super::settings::MAX_HASH_MB),
        )?;
        super::settings::check_setting(
            "threads",
            self.threads as i64,
            1,
            super::settings::MAX_THREADS as i64,
        )
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
    progress: &dyn Progress,
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
        progress.note(&format!(
            "{}: {} resumed",
            journal_path.display(),
            crate::text::count(journaled.len(), "entry", "entries")
        ));
    }
}

/// Searches the positions of one ply on the plan's threads, journaling each entry as it is
/// found. A failed journal write (a full disk) stops every worker at once: a build that cannot
/// record its work must not go on searching.
fn search_level(
    plan: &BuildPlan,
    ply: u32,
    todo: &[(u64, Position)],
    journal: &mut Journal,
    progress: &dyn Progress,
) -> Result<Vec<(u64, Position, Vec<BookMove>)>, BookError> {
    progress.stage(
        todo.len() as u64,
        0,
        &format!("ply {ply}/{} ", plan.plies),
        "positions",
    );
    let mut results = Vec::with_capacity(todo.len());
    let searched = parallel::run(
        todo,
        plan.threads,
        || book_searcher(plan.spec),
        |searcher, &(_, pos)| search_entry(searcher, &pos, plan.spec),
        |&(key, pos), moves| {
            // A position without book moves is not journaled (a resumed build searches it
            // again, with the same result).
            if !moves.is_empty() {
                journal.append(&format::line_text(&pos, &moves))?;
            }
            results.push((key, pos, moves));
            progress.advance(1);
            Ok::<_, DurableError>(())
        },
    );
    progress.finish();
    searched?;
    Ok(results)
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
    plan: &BuildPlan,
    mut book: Vec<(Position, Vec<BookMove>)>,
    tally: &Tally,
    journal: Journal,
) -> Result<Built, BookError> {
    let Tally {
        searched,
        left_out,
        seconds,
    } = *tally;
    let reused = (book.len() + left_out).saturating_sub(searched);
    sort_lines(&mut book);
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
    journal.finish()?;
    Ok(Built {
        positions: book.len(),
        searched,
        seconds,
    })
}
