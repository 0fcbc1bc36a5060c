//! `moulin book exact`: every book move of the placing checked by the exact solver of the
//! placing (`search::solve`) with the endgame tables: does it keep its position's exact value
//! (a win, a draw or a loss) for the side that plays it? The moves that give value away are
//! listed (in play the engine does not follow a book move it can prove losing in time,
//! protocol.md §6; this finds them all, offline). Each checked move is
//! journaled in `<book>.exact.partial`, so a stopped run resumes; the journal is kept at the end
//! as the run's record, and running again with it reads the answers back.

use super::format::{self, BookError};
use crate::durable::{self, Journal};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::solve::{Memory, Solver, Wdl};
use crate::tables::Tables;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// The flags of `moulin book exact`.
#[derive(clap::Args, Debug)]
pub struct ExactArgs {
    /// The book file.
    pub file: PathBuf,
    /// Endgame tables of every moving position of the book's rules (`moulin tables build
    /// --pieces 9` for nine).
    #[arg(long)]
    pub tables: PathBuf,
    /// Check the moves of book positions at this ply (placements made) and later: a move at
    /// ply 7 takes about 0.05 s, at ply 5 seconds, at ply 3 minutes.
    #[arg(long, default_value_t = 7,
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(0..=40))]
    pub min_ply: u32,
    /// Solver threads, each checking one move at a time.
    #[arg(long, default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub threads: usize,
}

/// Positions each thread's solver remembers (about 320 MB).
const MEMORY: usize = 1 << 24;

/// One position to check: its line number, the position, its book moves.
type Item = (usize, Position, Vec<Move>);

/// What the solver found of one position: its value, and whether each book move keeps it;
/// `None` when a position on the way is not covered by the tables.
type Found = Option<(Wdl, Vec<bool>)>;

const VALUE_NAMES: [&str; 3] = ["loss", "draw", "win"];

/// The ply of a placing position: the pieces placed so far.
fn ply_of(pos: &Position) -> u32 {
    let rules = pos.rules();
    2 * rules.pieces as u32
        - pos.in_hand(crate::Color::White) as u32
        - pos.in_hand(crate::Color::Black) as u32
}

/// `moulin book exact`.
pub fn run_exact(args: ExactArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| BookError::io(&args.file, &e).to_string())?;
    let (header, lines) = format::parse(&text).map_err(|e| e.in_file(&args.file).to_string())?;
    let rules = header.rules().map_err(|e| e.to_string())?;
    let tables = Tables::open(&args.tables, &rules)
        .map_err(|e| format!("endgame tables {}: {e}", args.tables.display()))?;
    let items: Vec<Item> = lines
        .iter()
        .filter(|l| l.pos.is_placing() && ply_of(&l.pos) >= args.min_ply)
        .map(|l| (l.number, l.pos, l.moves.iter().map(|m| m.mv).collect()))
        .collect();
    let journal_path = durable::with_suffix(&args.file, ".exact.partial");
    let settings = format!("min-ply {}", args.min_ply);
    let (mut journal, done_lines) = Journal::open(&journal_path, "book exact", &settings)?;
    // Journal lines: `<value> <k|d for each book move> | <position string>`.
    let mut done: HashMap<String, Found> = HashMap::new();
    for l in &done_lines {
        let Some((head, fen)) = l.split_once(" | ") else {
            continue;
        };
        let found = match head.split_once(' ') {
            Some((v, marks)) => VALUE_NAMES
                .iter()
                .position(|n| n == &v)
                .map(|v| (v as Wdl - 1, marks.chars().map(|c| c == 'k').collect())),
            None => None,
        };
        done.insert(fen.to_string(), found);
    }
    if !done.is_empty() {
        eprintln!(
            "{}: {} positions resumed",
            journal_path.display(),
            done.len()
        );
    }
    let bar = ProgressBar::new(items.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} book positions  {msg}  [{elapsed} < {eta}]",
        )
        .expect("valid template"),
    );
    let mut found: Vec<Option<Found>> = items
        .iter()
        .map(|(_, p, moves)| {
            done.get(&crate::rules::fen::write(p))
                .filter(|f| {
                    f.as_ref()
                        .is_none_or(|(_, marks)| marks.len() == moves.len())
                })
                .cloned()
        })
        .collect();
    bar.inc(found.iter().filter(|f| f.is_some()).count() as u64);
    let todo: Vec<usize> = (0..items.len()).filter(|&i| found[i].is_none()).collect();
    let (tx, rx) = mpsc::channel();
    let tables = Arc::new(tables);
    let shared = Arc::new((items.clone(), todo, AtomicUsize::new(0)));
    for _ in 0..args.threads {
        let (tx, shared, tables) = (tx.clone(), Arc::clone(&shared), Arc::clone(&tables));
        std::thread::spawn(move || {
            let never = |_: u64| false;
            let mut memory = Memory::new(MEMORY);
            let (items, todo, next) = &*shared;
            loop {
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let (_, pos, moves) = &items[i];
                let mut solver = Solver::new(&tables, &mut memory, &never);
                let result: Found = solver.value(pos).and_then(|v| {
                    let marks: Option<Vec<bool>> = moves
                        .iter()
                        .map(|&mv| solver.move_at_least(pos, mv, v))
                        .collect();
                    Some((v, marks?))
                });
                if tx.send((i, result)).is_err() {
                    return;
                }
            }
        });
    }
    drop(tx);
    let mut dropping = 0;
    for (i, result) in rx {
        let (_, pos, _) = &items[i];
        let head = match &result {
            Some((v, marks)) => format!(
                "{} {}",
                VALUE_NAMES[(*v + 1) as usize],
                marks
                    .iter()
                    .map(|&k| if k { 'k' } else { 'd' })
                    .collect::<String>()
            ),
            None => "uncovered".to_string(),
        };
        journal.append(&format!("{head} | {}", crate::rules::fen::write(pos)))?;
        dropping += result
            .as_ref()
            .map_or(0, |(_, marks)| marks.iter().filter(|&&k| !k).count());
        found[i] = Some(result);
        bar.inc(1);
        bar.set_message(format!("{dropping} book moves give value away"));
    }
    bar.finish_and_clear();
    // By ply: book moves, those that give value away, positions not covered.
    let mut by_ply: std::collections::BTreeMap<u32, (usize, usize, usize)> = Default::default();
    for ((number, pos, moves), f) in items.iter().zip(&found) {
        let e = by_ply.entry(ply_of(pos)).or_default();
        e.0 += moves.len();
        match f {
            Some(Some((v, marks))) => {
                for (mv, _) in moves.iter().zip(marks).filter(|(_, &k)| !k) {
                    e.1 += 1;
                    println!(
                        "line {number}: ply {} {} gives away a {}: {}",
                        ply_of(pos),
                        mv.turn_notation(),
                        VALUE_NAMES[(*v + 1) as usize],
                        crate::rules::fen::write(pos)
                    );
                }
            }
            _ => e.2 += 1,
        }
    }
    for (ply, (n, away, uncovered)) in &by_ply {
        println!(
            "ply {ply}: {n} book moves, {away} give value away, {uncovered} positions not covered"
        );
    }
    let total: usize = by_ply.values().map(|v| v.1).sum();
    println!(
        "{}: {} book moves from ply {} checked exactly, {total} give value away",
        args.file.display(),
        by_ply.values().map(|v| v.0).sum::<usize>(),
        args.min_ply
    );
    drop(journal);
    if total > 0 {
        return Err(format!("{total} book moves give value away (listed above)"));
    }
    Ok(())
}
