//! Checking a book exactly (`moulin book exact`): every book move of the placing checked by the exact solver of the
//! placing (`search::exact`) with the endgame tables: does it keep its position's exact value
//! (a win, a draw or a loss) for the side that plays it? The moves that give value away are
//! listed (in play the engine does not follow a book move it can prove losing in time,
//! protocol.md §6; this finds them all, offline). Each checked move is
//! journaled in `<book>.exact.partial`, so a stopped run resumes; the journal is kept at the end
//! as the run's record, and running again with it reads the answers back.

use super::book_error::BookError;
use super::book_move::{ply_of, BookMove};
use super::format::{self, Header, Line};
use super::graph::{is_proven, retain_reachable};
use crate::durable::{self, Journal};
use crate::job_progress::Progress;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::exact::{self, Wdl};
use crate::tables::Tables;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Positions each thread's solver remembers (16 million, a few hundred MB).
const MEMORY: usize = 1 << 24;

/// One position to check: its line number, the position, its book moves.
pub type Item = (usize, Position, Vec<Move>);

/// What the solver found of one position: its value, and whether each book move keeps it;
/// `None` when a position on the way is not covered by the tables.
pub type Found = Option<(Wdl, Vec<bool>)>;

/// The positions to check: the book's placing positions at `min_ply` and later, but for the
/// lines already proven (`book cover`) unless `proven_too`: a line proven to keep a draw may
/// still miss a win, which the placing solution finds at once (without it, the check of a
/// proven line would cost a search for nothing more than a missed win).
pub fn items(lines: &[Line], min_ply: u32, proven_too: bool) -> Vec<Item> {
    lines
        .iter()
        .filter(|l| {
            l.pos.is_placing() && ply_of(&l.pos) >= min_ply && (proven_too || !is_proven(&l.moves))
        })
        .map(|l| (l.number, l.pos, l.moves.iter().map(|m| m.mv).collect()))
        .collect()
}

/// What the solver finds of each item, with the tables, on `threads` solvers: read back from
/// the journal of the book at `file` where it holds the item, else solved and journaled.
pub fn solve_items(
    file: &Path,
    items: &[Item],
    tables: &Tables,
    threads: usize,
    min_ply: u32,
    progress: &dyn Progress,
) -> Result<Vec<Found>, BookError> {
    let journal_path = durable::with_suffix(file, ".exact.partial");
    let settings = format!("min-ply {min_ply}");
    let (mut journal, done_lines) = Journal::open(&journal_path, "book exact", &settings)?;
    let done = journaled(&done_lines);
    if !done.is_empty() {
        progress.note(&format!(
            "{}: {} resumed",
            journal_path.display(),
            crate::text::count(done.len(), "position", "positions")
        ));
    }
    progress.stage(items.len() as u64, 0, "", "book positions");
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
    progress.advance(found.iter().filter(|f| f.is_some()).count() as u64);
    let todo: Vec<usize> = (0..items.len()).filter(|&i| found[i].is_none()).collect();
    let mut away = 0;
    exact::in_parallel(
        tables,
        &todo,
        threads,
        MEMORY,
        |solver, &i| -> Found {
            let (_, pos, moves) = &items[i];
            let v = solver.value(pos)?;
            let marks: Option<Vec<bool>> = moves
                .iter()
                .map(|&mv| solver.move_at_least(pos, mv, v))
                .collect();
            Some((v, marks?))
        },
        |&i, result| {
            let (_, pos, _) = &items[i];
            journal.append(&format!(
                "{} | {}",
                journal_head(result.as_ref()),
                crate::rules::fen::write(pos)
            ))?;
            away += result
                .as_ref()
                .map_or(0, |(_, marks)| marks.iter().filter(|&&k| !k).count());
            found[i] = Some(result);
            progress.advance(1);
            progress.message(&format!("{away} book moves give value away"));
            Ok::<(), BookError>(())
        },
    )?;
    progress.finish();
    Ok(found.into_iter().map(Option::flatten).collect())
}

/// The journal's answers by position string. Journal lines: `<value> <k|d for each book move> |
/// <position string>`, or `uncovered | <position string>`.
fn journaled(lines: &[String]) -> HashMap<String, Found> {
    let mut done: HashMap<String, Found> = HashMap::new();
    for l in lines {
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
    done
}

/// The head of a journal line: the value and a mark for each book move (`k` keeps it, `d`
/// gives it away), or `uncovered`.
fn journal_head(found: Option<&(Wdl, Vec<bool>)>) -> String {
    match found {
        Some((v, marks)) => format!(
            "{} {}",
            exact::name(*v),
            marks
                .iter()
                .map(|&k| if k { 'k' } else { 'd' })
                .collect::<String>()
        ),
        None => "uncovered".to_string(),
    }
}

/// A book move that gives value away: its line, the ply, the move, the value it gives away and
/// the position.
#[derive(Clone, Debug)]
pub struct GivenAway {
    /// The position's line in the book.
    pub line: usize,
    /// The position's ply.
    pub ply: u32,
    /// The book move.
    pub mv: Move,
    /// The position's exact value, which the move does not keep.
    pub value: Wdl,
    /// The position.
    pub pos: Position,
}

/// What a ply's checks found: book moves, those that give value away, positions not covered.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlyTally {
    /// Book moves checked.
    pub moves: usize,
    /// Those that give value away.
    pub away: usize,
    /// Positions the tables do not cover.
    pub uncovered: usize,
}

/// The book moves that give value away, in the book's order, and the tallies by ply.
pub fn verdicts(items: &[Item], found: &[Found]) -> (Vec<GivenAway>, BTreeMap<u32, PlyTally>) {
    let mut away = Vec::new();
    let mut by_ply: BTreeMap<u32, PlyTally> = BTreeMap::new();
    for ((number, pos, moves), f) in items.iter().zip(found) {
        let e = by_ply.entry(ply_of(pos)).or_default();
        e.moves += moves.len();
        match f {
            Some((v, marks)) => {
                for (mv, _) in moves.iter().zip(marks).filter(|(_, &k)| !k) {
                    e.away += 1;
                    away.push(GivenAway {
                        line: *number,
                        ply: ply_of(pos),
                        mv: *mv,
                        value: *v,
                        pos: *pos,
                    });
                }
            }
            None => e.uncovered += 1,
        }
    }
    (away, by_ply)
}

/// What pruning left: positions and moves written, moves dropped, positions left out.
#[derive(Clone, Copy, Debug)]
pub struct Pruned {
    /// Positions written.
    pub positions: usize,
    /// Moves written.
    pub moves: usize,
    /// Moves dropped (they give value away).
    pub dropped: usize,
    /// Positions left with no move that got a value-keeping move instead.
    pub replaced: usize,
    /// Positions left out (no move left, or no longer reached).
    pub left_out: usize,
}

/// The value-keeping move a position left with no book move gets instead, when one is known
/// (the placing solution's most testing move).
pub type Replacement<'a> = &'a dyn Fn(&Position) -> Option<BookMove>;

/// Writes to `out` the book without the moves found to give value away (see `prune`), a
/// position left with no move given `replace`'s move when it has one, whole or not at all, with
/// a note of the run in its header.
pub fn write_pruned(
    out: &Path,
    header: &Header,
    lines: &[Line],
    (items, found): (&[Item], &[Found]),
    min_ply: u32,
    replace: Replacement,
) -> Result<Pruned, BookError> {
    let mut dropping: HashMap<usize, Vec<Move>> = HashMap::new();
    for ((number, _, moves), f) in items.iter().zip(found) {
        if let Some((_, marks)) = f {
            let away = moves.iter().zip(marks).filter(|(_, &k)| !k);
            dropping.insert(*number, away.map(|(&m, _)| m).collect());
        }
    }
    let (kept, moves_dropped, replaced) = prune(lines, &dropping, replace);
    let mut header = header.clone();
    header.notes.push(format!(
        "pruned by `moulin book exact --min-ply {min_ply} --prune`: {moves_dropped} moves that \
         give value away dropped, {replaced} positions given a value-keeping move instead, {} \
         positions left out",
        lines.len() - kept.len()
    ));
    durable::write_atomic(out, format::write(&header, &kept).as_bytes())?;
    Ok(Pruned {
        positions: kept.len(),
        moves: kept.iter().map(|(_, m)| m.len()).sum::<usize>(),
        dropped: moves_dropped,
        replaced,
        left_out: lines.len() - kept.len(),
    })
}

/// The book's lines without the moves of `dropping` (by line number), a position left with no
/// move given `replace`'s move (or else left out), and without the positions no longer a reply
/// to a book move of another position (repeated until none is: `book check`'s rule of
/// reachability); and how many moves went, and how many positions were given a move.
fn prune(
    lines: &[Line],
    dropping: &HashMap<usize, Vec<Move>>,
    replace: Replacement,
) -> (Vec<(Position, Vec<BookMove>)>, usize, usize) {
    let mut dropped = 0;
    let mut replaced = 0;
    let mut kept: Vec<(Position, Vec<BookMove>)> = Vec::new();
    for l in lines {
        let away = dropping.get(&l.number);
        let moves: Vec<BookMove> = l
            .moves
            .iter()
            .filter(|m| !away.is_some_and(|a| a.contains(&m.mv)))
            .copied()
            .collect();
        dropped += l.moves.len() - moves.len();
        if !moves.is_empty() {
            kept.push((l.pos, moves));
        } else if let Some(instead) = replace(&l.pos) {
            replaced += 1;
            kept.push((l.pos, vec![instead]));
        }
    }
    if let Some(first) = lines.first() {
        retain_reachable(&mut kept, &Position::start(*first.pos.rules()));
    }
    (kept, dropped, replaced)
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn proven_lines_are_checked_only_when_asked() {
        let start = Position::start(Rules::nine());
        let mut after = start;
        after.play(place("d6"));
        let mut proven = line(2, after, &["d2"]);
        proven.moves[0].exact = Some(0);
        let lines = [line(1, start, &["d6"]), proven];
        let numbers = |proven_too| -> Vec<usize> {
            items(&lines, 0, proven_too).iter().map(|i| i.0).collect()
        };
        assert_eq!(numbers(false), vec![1]);
        assert_eq!(numbers(true), vec![1, 2]);
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
        let nothing = |_: &Position| None;
        let (kept, dropped, _) = prune(&lines, &none, &nothing);
        assert_eq!((kept.len(), dropped), (3, 0));
        let dropping = HashMap::from([(1, vec![place("d6")])]);
        let (kept, dropped, _) = prune(&lines, &dropping, &nothing);
        assert_eq!(dropped, 1);
        assert_eq!(kept.len(), 1, "the reply to d6 and the one after it go");
        assert_eq!(kept[0].1.len(), 1);
        assert_eq!(kept[0].1[0].mv, place("d7"));
        // A position left with no move goes, and what it alone reached.
        let dropping = HashMap::from([(2, vec![place("f4")])]);
        let (kept, dropped, replaced) = prune(&lines, &dropping, &nothing);
        assert_eq!((kept.len(), dropped, replaced), (1, 1, 0));
        // ... unless it is given a move instead: it stays, with the line before it (the one
        // after is no longer a reply to a book move).
        let instead = |p: &Position| {
            (*p == second).then_some(BookMove {
                mv: place("a7"),
                score: Score::Cp(0),
                weight: 100,
                exact: Some(0),
            })
        };
        let (kept, dropped, replaced) = prune(&lines, &dropping, &instead);
        assert_eq!((kept.len(), dropped, replaced), (2, 1, 1));
        assert_eq!(kept[1].1[0].mv, place("a7"));
        assert_eq!(kept[1].1[0].exact, Some(0));
    }
}
