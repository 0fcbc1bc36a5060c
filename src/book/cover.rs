//! Covering a book (`moulin book cover`): proven book lines where match openings end. A match opening (a few
//! placements) leaves the book at once, and the first turns after it are the dearest to get
//! right and the hardest for the exact solver within a move's time (a ply 5 move takes seconds
//! to prove). This walks, for each opening and each colour the engine may play, the engine's
//! turns up to `--to-ply`: at each, the engine's choice (the book's first move, else a search's
//! best) is tested by the exact solver of the placing, and replaced by the search's next choice
//! while it is proven to lose, until one is proven to keep at least a draw; then every reply of
//! the opponent (or the best `--replies` of them by a search) is followed to the engine's next
//! turn. The proven moves go into the book as lines of one `>=draw` move (book/README.md), which
//! the engine plays without checking them again (protocol.md §6).
//!
//! Each decided position is journaled in `<out>.cover.partial`, so a stopped run resumes.

use super::book_error::BookError;
use super::book_move::{ply_of, BookMove};
use super::format::{self, Header, Line};
use super::graph::{self, retain_reachable, Entries};
use crate::durable::{self, Journal};
use crate::job_progress::Progress;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::search::exact::{self, Solver};
use crate::search::Searcher;
use crate::tables::Tables;
use crate::Color;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

/// Positions each thread's solver remembers.
const MEMORY: usize = 1 << 24;

/// Hash table of the searches that choose and rank moves, in MB.
const HASH_MB: usize = 16;

/// What the walk found at one of the engine's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This move is proven to keep at least a draw (`refuted` choices before it were proven to
    /// lose).
    Keeps {
        /// The move.
        mv: Move,
        /// The choices proven to lose before it.
        refuted: u32,
    },
    /// Every move loses: the position is lost (the opening was not drawn for this side).
    Lost,
    /// A position on the way is not covered by the tables.
    Uncovered,
}

impl Decision {
    fn text(&self) -> String {
        match self {
            Decision::Keeps { mv, refuted } => format!("{} {refuted}", mv.turn_notation()),
            Decision::Lost => "lost".into(),
            Decision::Uncovered => "uncovered".into(),
        }
    }

    fn parse(text: &str, pos: &Position) -> Option<Decision> {
        match text {
            "lost" => Some(Decision::Lost),
            "uncovered" => Some(Decision::Uncovered),
            _ => {
                let (mv, refuted) = text.split_once(' ')?;
                let mv = crate::rules::notation::parse_move(pos, mv).ok()?;
                Some(Decision::Keeps {
                    mv,
                    refuted: refuted.parse().ok()?,
                })
            }
        }
    }
}

/// A position in its canonical form (the book's), with its key.
fn canonical(pos: &Position) -> (u64, Position) {
    let f = fold(pos);
    (f.key, pos.transformed(f.symmetry))
}

/// The engine's move in `pos` (the side to move's): `first` if given (the book's move), else
/// the search's best; while the solver proves the move loses, the search's best of the moves
/// not yet refuted.
pub fn decide(
    solver: &mut Solver,
    searcher: &mut Searcher,
    pos: &Position,
    first: Option<Move>,
    depth: u32,
) -> Decision {
    let legal = movegen::legal_moves(pos, Convention::Turn);
    let mut refuted: Vec<Move> = Vec::new();
    let mut candidate = first.filter(|m| legal.contains(m));
    loop {
        let mv = if let Some(mv) = candidate.take() {
            mv
        } else {
            let rest: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !refuted.contains(m))
                .collect();
            if rest.is_empty() {
                return Decision::Lost;
            }
            searcher.new_game();
            let only = if refuted.is_empty() { Vec::new() } else { rest };
            match searcher.search_to_depth(pos, depth, only).best {
                Some(mv) => mv,
                None => return Decision::Lost,
            }
        };
        match solver.move_at_least(pos, mv, 0) {
            None => return Decision::Uncovered,
            Some(true) => {
                return Decision::Keeps {
                    mv,
                    refuted: refuted.len() as u32,
                }
            }
            Some(false) => refuted.push(mv),
        }
    }
}

/// The replies to follow in `pos` (the opponent's turn): every legal move, one per class of
/// moves equal under the board's symmetries (the positions they lead to are equal), or the best
/// `n` by searches at `depth` (each searched alone among the rest).
pub fn replies(pos: &Position, n: usize, depth: u32, searcher: &mut Searcher) -> Vec<Move> {
    let legal = movegen::legal_moves(pos, Convention::Turn);
    let mut seen = FxHashSet::default();
    let distinct: Vec<Move> = legal
        .into_iter()
        .filter(|&m| {
            let mut child = *pos;
            child.play(m);
            seen.insert(fold(&child).key)
        })
        .collect();
    if n == 0 || n >= distinct.len() {
        return distinct;
    }
    let mut out = Vec::new();
    while out.len() < n {
        let rest: Vec<Move> = distinct
            .iter()
            .copied()
            .filter(|m| !out.contains(m))
            .collect();
        searcher.new_game();
        match searcher.search_to_depth(pos, depth, rest).best {
            Some(mv) => out.push(mv),
            None => break,
        }
    }
    out
}

/// The engine's turns still to decide, by ply: canonical position by key.
#[derive(Default)]
pub struct Walk {
    pending: BTreeMap<u32, FxHashMap<u64, Position>>,
    seen: FxHashSet<u64>,
    to_ply: u32,
}

impl Walk {
    /// A walk of the engine's turns up to `to_ply`, with nothing to decide yet.
    pub fn new(to_ply: u32) -> Walk {
        Walk {
            to_ply,
            ..Walk::default()
        }
    }

    /// Follows `pos` for `engine`, the colour the engine plays: an engine's turn is recorded
    /// to decide, an opponent's turn is followed through `replies` of it.
    pub fn visit(
        &mut self,
        pos: &Position,
        engine: Color,
        replies: &mut dyn FnMut(&Position) -> Vec<Move>,
    ) {
        if !pos.is_placing() || pos.outcome().is_some() || ply_of(pos) > self.to_ply {
            return;
        }
        if pos.side_to_move() == engine {
            let (key, canon) = canonical(pos);
            if self.seen.insert(key) {
                self.pending
                    .entry(ply_of(pos))
                    .or_default()
                    .insert(key, canon);
            }
            return;
        }
        for mv in replies(pos) {
            let mut child = *pos;
            child.play(mv);
            self.visit(&child, engine, replies);
        }
    }

    /// The engine's turns of the lowest ply left, taken out of the walk.
    pub fn next_ply(&mut self) -> Option<(u32, Vec<Position>)> {
        let (ply, positions) = self.pending.pop_first()?;
        let mut list: Vec<(u64, Position)> = positions.into_iter().collect();
        list.sort_by_key(|&(k, _)| k);
        Some((ply, list.into_iter().map(|(_, p)| p).collect()))
    }
}

/// The book's entries with `proven` moves (key, canonical position, move) in place of their
/// positions' lines, less the positions no longer reached (a replaced line's other moves are
/// gone, and what only they reached); with the count of lines replaced and of positions left out.
fn merge(
    mut entries: Entries,
    proven: &[(u64, Position, Move)],
    start: &Position,
) -> (Entries, usize, usize) {
    let mut replaced = 0;
    for &(key, pos, mv) in proven {
        let line = vec![BookMove {
            mv,
            score: format::exact_score(0),
            weight: 100,
            exact: Some(0),
        }];
        replaced += usize::from(entries.insert(key, (pos, line)).is_some());
    }
    let mut lines: Vec<_> = entries.into_values().collect();
    let unreached = retain_reachable(&mut lines, start);
    let entries = lines.into_iter().map(|l| (fold(&l.0).key, l)).collect();
    (entries, replaced, unreached)
}

/// What a run found at one ply.
#[derive(Default, Debug)]
pub struct PlyReport {
    /// The engine's turns at the ply.
    pub turns: usize,
    /// Those whose first choice was proven to keep the value.
    pub kept: usize,
    /// Those whose first choice was refuted and replaced by one proven to keep it.
    pub mended: usize,
    /// Those where every move loses.
    pub lost: usize,
    /// Those with a position on the way the tables do not cover.
    pub uncovered: usize,
}

/// What `cover` tells its caller as it goes (the caller shows it).
#[derive(Debug)]
pub enum Note<'a> {
    /// A journal of an earlier run was found: this many positions are taken from it.
    Resumed {
        /// The journal.
        journal: &'a Path,
        /// The positions decided in it.
        positions: usize,
    },
    /// Every move of the engine's turn in `position` loses.
    Lost {
        /// The ply of the turn.
        ply: u32,
        /// The position.
        position: &'a Position,
    },
    /// A position on the way from `position` is not covered by the tables.
    Uncovered {
        /// The ply of the turn.
        ply: u32,
        /// The position.
        position: &'a Position,
    },
    /// A ply is done.
    Ply {
        /// The ply.
        ply: u32,
        /// What was found at it.
        report: &'a PlyReport,
    },
}

/// How a cover goes: the engine's turns up to `to_ply`, the opponent's `replies` followed (0:
/// every one), the searches at `depth`, on `threads` solvers; the progress of each ply's turns
/// told to `progress`.
#[derive(Clone, Copy)]
pub struct CoverPlan<'a> {
    /// The last ply of the engine's turns covered.
    pub to_ply: u32,
    /// The replies a search ranks best followed at each turn of the opponent; 0 follows every
    /// reply.
    pub replies: usize,
    /// Depth of the searches that choose the engine's moves and rank the replies.
    pub depth: u32,
    /// Solver threads, each deciding one position at a time.
    pub threads: usize,
    /// Where the progress of each ply's turns goes.
    pub progress: &'a dyn Progress,
}

/// What a cover made: the book's entries with the proven lines, and how many positions were
/// proven, replaced a book line, and were left out as no longer reached.
pub struct Covered {
    /// The book's entries with the proven lines in place.
    pub entries: Entries,
    /// Positions proven to keep at least a draw.
    pub proven: usize,
    /// Of those, positions whose book line was replaced.
    pub replaced: usize,
    /// Positions no longer reached, left out.
    pub unreached: usize,
}

/// Covers the book (`header`, `lines`) after the match openings that reach `starts`, with the
/// tables, journaling each decision in `<out>.cover.partial` (see the module's comment). What
/// it finds goes to `note` as it goes; `None` when `note` broke off the run (what was decided is
/// journaled: the same run again resumes).
pub fn cover(
    header: &Header,
    lines: Vec<Line>,
    starts: &[Position],
    tables: &Arc<Tables>,
    plan: CoverPlan<'_>,
    out: &Path,
    note: &mut dyn FnMut(Note<'_>) -> ControlFlow<()>,
) -> Result<Option<Covered>, BookError> {
    let rules = header.rules()?;
    let entries: Entries = graph::entries(lines);
    let journal_path = durable::with_suffix(out, ".cover.partial");
    let settings = format!("variant {} depth {}", header.variant, plan.depth);
    let (mut journal, done_lines) = Journal::open(&journal_path, "book cover", &settings)?;
    let done = journaled(&done_lines, &rules);
    if !done.is_empty() {
        let resumed = Note::Resumed {
            journal: &journal_path,
            positions: done.len(),
        };
        if note(resumed).is_break() {
            return Ok(None);
        }
    }
    let mut ranker = Searcher::new(HASH_MB, 1);
    let mut follow = |pos: &Position| replies(pos, plan.replies, plan.depth, &mut ranker);
    let mut walk = Walk::new(plan.to_ply);
    for start in starts {
        for engine in [Color::White, Color::Black] {
            walk.visit(start, engine, &mut follow);
        }
    }
    let mut proven: Vec<(u64, Position, Move)> = Vec::new();
    while let Some((ply, turns)) = walk.next_ply() {
        let progress = plan.progress;
        progress.stage(turns.len() as u64, 0, "", &format!("turns of ply {ply}"));
        let decided = decide_turns(&turns, &entries, &done, tables, plan, &mut journal)?;
        let mut report = PlyReport::default();
        for (pos, d) in turns.iter().zip(decided) {
            report.turns += 1;
            match d {
                Decision::Keeps { mv, refuted } => {
                    if refuted == 0 {
                        report.kept += 1;
                    } else {
                        report.mended += 1;
                    }
                    proven.push((fold(pos).key, *pos, mv));
                    let mut child = *pos;
                    child.play(mv);
                    walk.visit(&child, pos.side_to_move(), &mut follow);
                }
                Decision::Lost => {
                    report.lost += 1;
                    if note(Note::Lost { ply, position: pos }).is_break() {
                        return Ok(None);
                    }
                }
                Decision::Uncovered => {
                    report.uncovered += 1;
                    if note(Note::Uncovered { ply, position: pos }).is_break() {
                        return Ok(None);
                    }
                }
            }
        }
        if note(Note::Ply {
            ply,
            report: &report,
        })
        .is_break()
        {
            return Ok(None);
        }
    }
    let (entries, replaced, unreached) = merge(entries, &proven, &Position::start(rules));
    Ok(Some(Covered {
        entries,
        proven: proven.len(),
        replaced,
        unreached,
    }))
}

/// The decisions of a journal by key. Journal lines: `<move> <refuted> | <position>`, `lost |
/// <position>` or `uncovered | <position>`.
fn journaled(lines: &[String], rules: &crate::Rules) -> FxHashMap<u64, Decision> {
    let mut done: FxHashMap<u64, Decision> = FxHashMap::default();
    for l in lines {
        let Some((head, fen)) = l.split_once(" | ") else {
            continue;
        };
        let Ok(pos) = crate::rules::fen::read(fen, rules) else {
            continue;
        };
        if let Some(d) = Decision::parse(head, &pos) {
            done.insert(fold(&pos).key, d);
        }
    }
    done
}

/// The decision of each of the engine's `turns` (a stage of `progress`): the journal's, else
/// the solver's (journaled at once).
fn decide_turns(
    turns: &[Position],
    entries: &Entries,
    done: &FxHashMap<u64, Decision>,
    tables: &Arc<Tables>,
    plan: CoverPlan<'_>,
    journal: &mut Journal,
) -> Result<Vec<Decision>, BookError> {
    let progress = plan.progress;
    let mut decided: Vec<Option<Decision>> = turns
        .iter()
        .map(|p| done.get(&fold(p).key).copied())
        .collect();
    progress.advance(decided.iter().filter(|d| d.is_some()).count() as u64);
    let todo: Vec<usize> = (0..turns.len()).filter(|&i| decided[i].is_none()).collect();
    let depth = plan.depth;
    exact::in_parallel(
        tables,
        &todo,
        plan.threads,
        MEMORY,
        |solver, &i| {
            let first = entries
                .get(&fold(&turns[i]).key)
                .and_then(|(_, moves)| moves.first().map(|m| m.mv));
            let mut searcher = Searcher::new(HASH_MB, 1);
            decide(solver, &mut searcher, &turns[i], first, depth)
        },
        |&i, d| {
            journal.append(&format!(
                "{} | {}",
                d.text(),
                crate::rules::fen::write(&turns[i])
            ))?;
            decided[i] = Some(d);
            progress.advance(1);
            Ok::<(), BookError>(())
        },
    )?;
    progress.finish();
    Ok(decided
        .into_iter()
        .map(|d| d.expect("every turn decided"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::exact::testing::{placing_positions, tables};
    use crate::search::exact::Memory;

    #[test]
    fn a_decided_move_is_proven_to_keep_the_draw_and_a_lost_position_is_named() {
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut searcher = Searcher::new(4, 1);
        let (mut kept, mut mended, mut lost) = (0, 0, 0);
        for pos in placing_positions(40, 41) {
            let mut solver = Solver::new(tables, &mut memory, &never);
            let truth = solver.value(&pos).unwrap();
            let moves = movegen::legal_moves(&pos, Convention::Turn);
            let values = solver.values_of_moves(&pos, &moves).unwrap();
            // The book's move, when a losing one is given, is refuted and replaced.
            let losing = moves
                .iter()
                .zip(&values)
                .find(|(_, &v)| v < 0)
                .map(|p| *p.0);
            match decide(&mut solver, &mut searcher, &pos, losing, 3) {
                Decision::Keeps { mv, refuted } => {
                    assert!(truth >= 0);
                    let i = moves.iter().position(|&m| m == mv).unwrap();
                    assert!(values[i] >= 0, "{}", crate::rules::fen::write(&pos));
                    assert!(refuted >= u32::from(losing.is_some()));
                    if refuted > 0 {
                        mended += 1;
                    } else {
                        kept += 1;
                    }
                }
                Decision::Lost => {
                    assert_eq!(truth, -1, "{}", crate::rules::fen::write(&pos));
                    lost += 1;
                }
                Decision::Uncovered => panic!("covered"),
            }
        }
        assert!(
            mended > 0 && lost > 0,
            "{kept} kept {mended} mended {lost} lost"
        );
    }

    #[test]
    fn the_walk_follows_every_reply_to_the_engines_turns_up_to_the_last_ply() {
        let rules = crate::Rules::nine();
        let start = Position::start(rules);
        let mut all = |pos: &Position| movegen::legal_moves(pos, Convention::Turn);
        // White's turns at plies 0 and 2: the start, then after a reply to its move.
        let mut walk = Walk::new(2);
        walk.visit(&start, Color::White, &mut all);
        let (ply, turns) = walk.next_ply().unwrap();
        assert_eq!((ply, turns.len()), (0, 1));
        let mut d6 = start;
        d6.play(Move::place(
            crate::rules::board::Point::parse("d6").unwrap(),
        ));
        walk.visit(&d6, Color::White, &mut all);
        let (ply, turns) = walk.next_ply().unwrap();
        // The 23 replies to d6 lead to 9 positions up to the 4 symmetries that keep d6 (the
        // mirror through d6, the swap of the inner and outer rings, both): d2, b6 f6, b4 f4,
        // b2 f2, d7 d5, d1 d3, and the three classes of four of a7, a4 and a1.
        assert_eq!(ply, 2);
        assert_eq!(turns.len(), 9);
        assert!(turns.iter().all(|p| canonical(p).1 == *p));
        // Black's turns after each of White's 24 first moves (4 up to symmetry); none past
        // the last ply, none twice.
        let mut walk = Walk::new(1);
        walk.visit(&start, Color::Black, &mut all);
        walk.visit(&start, Color::Black, &mut all);
        let (ply, turns) = walk.next_ply().unwrap();
        assert_eq!((ply, turns.len()), (1, 4));
        walk.visit(&d6, Color::White, &mut all);
        assert!(walk.next_ply().is_none());
    }

    #[test]
    fn a_proven_line_replaces_the_books_and_what_only_its_other_moves_reached_goes() {
        let start = Position::start(crate::Rules::nine());
        let place = |p: &str| Move::place(crate::rules::board::Point::parse(p).unwrap());
        let after = |pos: &Position, moves: &[&str]| {
            let mut p = *pos;
            for m in moves {
                p.play(place(m));
            }
            canonical(&p)
        };
        let book_move = |m: &str| BookMove {
            mv: place(m),
            score: crate::search::Score::Cp(0),
            weight: 100,
            exact: None,
        };
        // The start (d6 or d7), the reply d2 to d6, then b4 after f4.
        let (k0, p0) = canonical(&start);
        let (k1, p1) = after(&start, &["d6", "d2"]);
        let (k2, p2) = after(&p1, &["f4", "b4"]);
        let book: Entries = [
            (k0, (p0, vec![book_move("d6"), book_move("d7")])),
            (k1, (p1, vec![book_move("f4")])),
            (k2, (p2, vec![book_move("a1")])),
        ]
        .into_iter()
        .collect();
        // The book's f4 after d2 proven: the line replaced, nothing lost.
        let (merged, replaced, unreached) = merge(book.clone(), &[(k1, p1, place("f4"))], &start);
        assert_eq!((merged.len(), replaced, unreached), (3, 1, 0));
        assert_eq!(merged[&k1].1[0].exact, Some(0));
        // A proven a1 in its place: b4 after f4 is no longer reached.
        let (merged, replaced, unreached) = merge(book.clone(), &[(k1, p1, place("a1"))], &start);
        assert_eq!((merged.len(), replaced, unreached), (2, 1, 1));
        assert!(!merged.contains_key(&k2));
        // A proven d7 at the start: d6's reply and what it reached go; a new proven line where
        // an opening ends stays.
        let (k3, p3) = after(&start, &["a7", "g7", "a1"]);
        let (merged, replaced, unreached) = merge(
            book,
            &[(k0, p0, place("d7")), (k3, p3, place("a4"))],
            &start,
        );
        assert_eq!((replaced, unreached), (1, 2));
        assert_eq!(merged.len(), 2);
        assert!(merged.contains_key(&k0) && merged.contains_key(&k3));
    }

    #[test]
    fn decisions_are_journaled_and_read_back() {
        let mut pos = Position::start(crate::Rules::nine());
        for m in ["d7", "a1", "g7", "b2"] {
            pos.play(Move::place(crate::rules::board::Point::parse(m).unwrap()));
        }
        // A mill to close: the move is written with its removal.
        let mv = movegen::legal_moves(&pos, Convention::Turn)
            .into_iter()
            .find(|m| m.removal_count() > 0)
            .unwrap();
        for d in [
            Decision::Keeps { mv, refuted: 3 },
            Decision::Lost,
            Decision::Uncovered,
        ] {
            assert_eq!(Decision::parse(&d.text(), &pos), Some(d), "{}", d.text());
        }
        for bad in ["", "won", "d7", "q9 0", "a4 x"] {
            assert_eq!(Decision::parse(bad, &pos), None, "{bad}");
        }
    }

    #[test]
    fn replies_are_one_per_symmetry_class_or_the_best_few() {
        let start = Position::start(crate::Rules::nine());
        let mut searcher = Searcher::new(4, 1);
        assert_eq!(replies(&start, 0, 2, &mut searcher).len(), 4);
        let two = replies(&start, 2, 2, &mut searcher);
        assert_eq!(two.len(), 2);
        assert_ne!(two[0], two[1]);
        let after = |mv: Move| {
            let mut p = start;
            p.play(mv);
            fold(&p).key
        };
        let best = searcher
            .search_to_depth(&start, 2, Vec::new())
            .best
            .unwrap();
        assert_eq!(after(two[0]), after(best));
    }
}
