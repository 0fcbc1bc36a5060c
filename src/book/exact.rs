//! `moulin book exact`: every book move of the placing checked by the exact solver of the
//! placing (`search::exact`) with the endgame tables: does it keep its position's exact value
//! (a win, a draw or a loss) for the side that plays it? The moves that give value away are
//! listed (in play the engine does not follow a book move it can prove losing in time,
//! protocol.md §6; this finds them all, offline). Each checked move is
//! journaled in `<book>.exact.partial`, so a stopped run resumes; the journal is kept at the end
//! as the run's record, and running again with it reads the answers back.

use super::format::{self, BookError};
use crate::durable::{self, Journal};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::exact::{self, Wdl};
use crate::tables::Tables;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The flags of `moulin book exact`.
#[derive(clap::Args, Debug)]
pub struct ExactArgs {
    /// The book file.
    pub file: PathBuf,
    /// Endgame tables of every moving position of the book's rules (`moulin tables build
    /// --pieces 9` for nine).
    #[arg(long)]
    pub tables: PathBuf,
    /// Check the moves of book positions at this ply (placements made) and later: measured,
    /// about 1 s a position at ply 6, a few hundredths of a second a move at ply 7 and later;
    /// earlier plies cost far more (a position at ply 3: minutes).
    #[arg(long, default_value_t = 7,
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(0..=40))]
    pub min_ply: u32,
    /// Also write the book without the moves found to give value away (a position left with no
    /// move is dropped, and so is every position no longer reached through the book's moves)
    /// to this file, whole or not at all.
    #[arg(long, value_name = "OUT")]
    pub prune: Option<PathBuf>,
    /// Solver threads, each checking one position at a time.
    #[arg(long, default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub threads: usize,
}

/// Positions each thread's solver remembers (16 million, a few hundred MB).
const MEMORY: usize = 1 << 24;

/// One position to check: its line number, the position, its book moves.
type Item = (usize, Position, Vec<Move>);

/// What the solver found of one position: its value, and whether each book move keeps it;
/// `None` when a position on the way is not covered by the tables.
type Found = Option<(Wdl, Vec<bool>)>;

/// The ply of a placing position: the pieces placed so far.
pub fn ply_of(pos: &Position) -> u32 {
    2 * u32::from(pos.rules().pieces) - pos.placements_left()
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
        .filter(|l| {
            l.pos.is_placing()
                && ply_of(&l.pos) >= args.min_ply
                && !super::check::is_proven(&l.moves)
        })
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
        let found = head.split_once(' ').and_then(|(v, marks)| {
            Some((
                exact::from_name(v)?,
                marks.chars().map(|c| c == 'k').collect(),
            ))
        });
        done.insert(fen.to_string(), found);
    }
    if !done.is_empty() {
        eprintln!(
            "{}: {} positions resumed",
            journal_path.display(),
            done.len()
        );
    }
    let bar = crate::progress::bar(items.len() as u64, 0, "", "book positions");
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
    let todo_index: Vec<usize> = (0..items.len()).filter(|&i| found[i].is_none()).collect();
    let todo: Vec<Item> = todo_index.iter().map(|&i| items[i].clone()).collect();
    let solved = exact::in_parallel(
        Arc::new(tables),
        todo,
        args.threads,
        MEMORY,
        |solver, item: &Item| -> Found {
            let (_, pos, moves) = item;
            let v = solver.value(pos)?;
            let marks: Option<Vec<bool>> = moves
                .iter()
                .map(|&mv| solver.move_at_least(pos, mv, v))
                .collect();
            Some((v, marks?))
        },
    );
    let mut away = 0;
    for (k, result) in solved {
        let i = todo_index[k];
        let (_, pos, _) = &items[i];
        let head = match &result {
            Some((v, marks)) => format!(
                "{} {}",
                exact::name(*v),
                marks
                    .iter()
                    .map(|&k| if k { 'k' } else { 'd' })
                    .collect::<String>()
            ),
            None => "uncovered".to_string(),
        };
        journal.append(&format!("{head} | {}", crate::rules::fen::write(pos)))?;
        away += result
            .as_ref()
            .map_or(0, |(_, marks)| marks.iter().filter(|&&k| !k).count());
        found[i] = Some(result);
        bar.inc(1);
        bar.set_message(format!("{away} book moves give value away"));
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
                        exact::name(*v),
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
    if let Some(out) = &args.prune {
        let mut dropping: HashMap<usize, Vec<Move>> = HashMap::new();
        for ((number, _, moves), f) in items.iter().zip(&found) {
            if let Some(Some((_, marks))) = f {
                let away = moves.iter().zip(marks).filter(|(_, &k)| !k);
                dropping.insert(*number, away.map(|(&m, _)| m).collect());
            }
        }
        let (kept, moves_dropped) = prune(&lines, &dropping);
        let mut header = header.clone();
        header.notes.push(format!(
            "pruned by `moulin book exact --min-ply {} --prune`: {moves_dropped} moves that give \
             value away dropped, {} positions left out",
            args.min_ply,
            lines.len() - kept.len()
        ));
        durable::write_atomic(out, format::write(&header, &kept).as_bytes())?;
        println!(
            "{}: {} positions, {} moves ({moves_dropped} moves that give value away dropped, {} \
             positions left out)",
            out.display(),
            kept.len(),
            kept.iter().map(|(_, m)| m.len()).sum::<usize>(),
            lines.len() - kept.len()
        );
    }
    println!(
        "{}: {} book moves from ply {} checked exactly, {total} give value away",
        args.file.display(),
        by_ply.values().map(|v| v.0).sum::<usize>(),
        args.min_ply
    );
    drop(journal);
    if total > 0 && args.prune.is_none() {
        return Err(format!("{total} book moves give value away (listed above)"));
    }
    Ok(())
}

/// The book's lines without the moves of `dropping` (by line number), without the positions
/// left with no move, and without those no longer a reply to a book move of another position
/// (repeated until none is: `book check`'s rule of reachability); and how many moves went.
fn prune(
    lines: &[format::Line],
    dropping: &HashMap<usize, Vec<Move>>,
) -> (Vec<(Position, Vec<super::BookMove>)>, usize) {
    let mut dropped = 0;
    let mut kept: Vec<(Position, Vec<super::BookMove>)> = Vec::new();
    for l in lines {
        let away = dropping.get(&l.number);
        let moves: Vec<super::BookMove> = l
            .moves
            .iter()
            .filter(|m| !away.is_some_and(|a| a.contains(&m.mv)))
            .copied()
            .collect();
        dropped += l.moves.len() - moves.len();
        if !moves.is_empty() {
            kept.push((l.pos, moves));
        }
    }
    if let Some(first) = lines.first() {
        super::check::retain_reachable(&mut kept, &Position::start(*first.pos.rules()));
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookMove;
    use crate::rules::board::Point;
    use crate::rules::Rules;
    use crate::search::Score;

    fn place(name: &str) -> Move {
        Move::place(Point::parse(name).unwrap())
    }

    fn line(number: usize, pos: Position, moves: &[&str]) -> format::Line {
        let moves = moves
            .iter()
            .map(|m| BookMove {
                mv: place(m),
                score: Score::Cp(0),
                weight: 100,
                exact: None,
            })
            .collect();
        format::Line { number, pos, moves }
    }

    #[test]
    fn pruning_drops_the_moves_and_every_position_they_alone_reached() {
        let start = Position::start(Rules::nine());
        let after = |pos: &Position, moves: &[&str]| {
            let mut p = *pos;
            for m in moves {
                p.play(place(m));
            }
            p
        };
        // The start (d6, or d7 which no symmetry maps to it), a reply to d6 (d2, then f4), a
        // reply to that (b4, then a1).
        let second = after(&start, &["d6", "d2"]);
        let third = after(&second, &["f4", "b4"]);
        let lines = vec![
            line(1, start, &["d6", "d7"]),
            line(2, second, &["f4"]),
            line(3, third, &["a1"]),
        ];
        let none = HashMap::new();
        let (kept, dropped) = prune(&lines, &none);
        assert_eq!((kept.len(), dropped), (3, 0));
        let dropping = HashMap::from([(1, vec![place("d6")])]);
        let (kept, dropped) = prune(&lines, &dropping);
        assert_eq!(dropped, 1);
        assert_eq!(kept.len(), 1, "the reply to d6 and the one after it go");
        assert_eq!(kept[0].1.len(), 1);
        assert_eq!(kept[0].1[0].mv, place("d7"));
        // A position left with no move goes, and what it alone reached.
        let dropping = HashMap::from([(2, vec![place("f4")])]);
        let (kept, dropped) = prune(&lines, &dropping);
        assert_eq!((kept.len(), dropped), (1, 1));
    }
}
