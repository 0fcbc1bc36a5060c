//! The analyst: a searcher with its limits, that reads the game to analyse, grades its moves,
//! and values every move of one position (by search, or exactly in the placing).

use super::analyse_error::AnalyseError;
use super::grade::{self, order, Graded, Searched};
use crate::job_progress::Progress;
use crate::record;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::search::exact_lines::exact_lines;
use crate::search::{Control, Info, Limits, Score, Searcher};
use crate::tables::Tables;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// How an analyst searches.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Hash table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Endgame tables, for the exact value of the positions they cover, read already (with the
    /// opening's solution as their placing part, or that alone: `engine::Knowledge`).
    pub tables: Option<Arc<Tables>>,
    /// The network evaluation the searches use (`EvalFile`'s), read already; none: the
    /// hand-written evaluation.
    pub network: Option<Arc<crate::search::eval::network::Network>>,
    /// The deepest each position is searched (`DEFAULT_DEPTH` without a depth or a time): with
    /// one thread, the same values every run.
    pub depth: Option<u32>,
    /// The longest each position is searched, in milliseconds: values then vary with the
    /// machine's load.
    pub movetime: Option<u64>,
}

/// The depth a position is searched to unless told otherwise: a game of 60 plies takes a few
/// seconds.
pub const DEFAULT_DEPTH: u32 = 12;

/// A game of a record file: its start, its moves and its tags.
pub struct RecordGame {
    /// The game at its start.
    pub start: Game,
    /// The moves as the record writes them.
    pub moves: Vec<String>,
    /// The record's tag pairs, in its order.
    pub tags: Vec<(String, String)>,
    /// How many moves, from the first, the record marks as its opening's (a `{book}` comment,
    /// as `moulin match` and cutechess write the moves they impose).
    pub book: usize,
}

pub use super::grade::Lines;

/// What analyses: the searcher and its limits.
pub struct Analyst {
    searcher: Searcher,
    limits: Limits,
}

/// Every legal move of a placing position with its exact value, best first.
pub struct ExactValues {
    /// The position.
    pub pos: Position,
    /// The moves and their values (1 a win, 0 a draw, -1 a loss for the mover).
    pub valued: Vec<(Move, i8)>,
    /// The positions the solver visited.
    pub nodes: u64,
    /// The time it took, in seconds.
    pub secs: f64,
}

/// Game `number` (from 1) of a record file.
///
/// # Errors
///
/// A file that cannot be read, that is no record, that has no such game, or whose game has a
/// start that cannot be set up.
pub fn game_of_file(path: &Path, number: usize) -> Result<RecordGame, AnalyseError> {
    let file = crate::input_file::open_regular(path).map_err(|source| AnalyseError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    // Every game is read (the file is checked whole), the one asked for kept.
    let (mut count, mut wanted) = (0, None);
    for r in record::games(std::io::BufReader::new(file)) {
        let r = r.map_err(|source| AnalyseError::Record {
            path: path.to_path_buf(),
            source,
        })?;
        count += 1;
        if count == number {
            wanted = Some(r);
        }
    }
    let r = wanted.ok_or_else(|| AnalyseError::NoGame {
        path: path.to_path_buf(),
        game: number,
        count,
    })?;
    let start = r
        .start()
        .map_err(|e| AnalyseError::Start { source: e.into() })?;
    let book = r
        .moves
        .iter()
        .take_while(|ply| ply.comments.iter().any(|c| c.trim() == "book"))
        .count();
    Ok(RecordGame {
        start,
        moves: r.move_texts(),
        tags: r.tags,
        book,
    })
}

/// Plays `moves` from `start`, checking every one: returns the game reached and each move with
/// the game before it.
///
/// # Errors
///
/// A move that cannot be played, or one that closes a mill without its removal.
pub fn play_moves(
    start: &Game,
    moves: &[String],
) -> Result<(Game, Vec<(Game, Move)>), AnalyseError> {
    let mut game = start.clone();
    let mut played = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let before = game.clone();
        let mv = game.play_token(m).map_err(|source| AnalyseError::Move {
            number: i + 1,
            token: m.clone(),
            source,
        })?;
        if game.position().pending_removals() > 0 {
            return Err(AnalyseError::MissingRemoval {
                number: i + 1,
                token: m.clone(),
            });
        }
        played.push((before, mv));
    }
    Ok((game, played))
}

/// The position of a game to list the moves of: an error when the game is over.
fn open_position(game: &Game) -> Result<Position, AnalyseError> {
    match game.outcome() {
        Some(o) => Err(AnalyseError::GameOver {
            score: o.score(),
            why: o.describe(),
        }),
        None => Ok(*game.position()),
    }
}

/// Every legal move of a position with its value (`Analyst::advice`).
pub struct Advice {
    /// The position.
    pub position: Position,
    /// The moves' values and lines, best first.
    pub lines: Lines,
    /// Whether the values are exact (the placing solution's or the endgame tables'), not a
    /// search's.
    pub exact: bool,
}

impl Analyst {
    /// An analyst that searches as `setup` says.
    pub fn new(setup: &Setup) -> Analyst {
        let mut searcher = Searcher::new(setup.hash_mb, setup.threads);
        searcher.options.tables.clone_from(&setup.tables);
        searcher.options.network.clone_from(&setup.network);
        let depth = match (setup.depth, setup.movetime) {
            (None, None) => Some(DEFAULT_DEPTH),
            (depth, _) => depth,
        };
        let limits = Limits {
            depth,
            movetime: setup.movetime,
            ..Limits::default()
        };
        Analyst { searcher, limits }
    }

    /// How the analyst searches each position, in words: `depth 12`, `200 ms a position`, or
    /// both.
    #[must_use]
    pub fn budget(&self) -> String {
        let depth = self.limits.depth.map(|d| format!("depth {d}"));
        let time = self.limits.movetime.map(|t| format!("{t} ms a position"));
        match (depth, time) {
            (Some(d), Some(t)) => format!("{d} or {t}"),
            (d, t) => d.or(t).unwrap_or_default(),
        }
    }

    /// Searches the game's position, every root move's line when `all`; where the placing
    /// solution covers the position (or, when `all`, the endgame tables cover every move's
    /// result), every move's exact value instead, at once.
    pub fn search(&mut self, game: &Game, all: bool) -> (Searched, Lines) {
        if let Some(exact) = self.exact(game, all) {
            return exact;
        }
        let legal = crate::rules::movegen::legal_moves(game.position(), Convention::Turn).len();
        self.searcher.options.multipv = if all { legal.max(1) } else { 1 };
        let mut lines: Vec<Option<(u32, Score, Vec<Move>)>> = vec![None; legal.max(1)];
        // The first line's exact value at each depth, the last of each depth kept.
        let mut depths: Vec<(u32, Score)> = Vec::new();
        let result = self
            .searcher
            .search(game, &self.limits, &Control::new(), &mut |i: &Info| {
                if let Some(slot) = lines.get_mut(i.multipv - 1) {
                    *slot = Some((i.depth, i.score, i.pv.clone()));
                }
                if i.multipv == 1 && i.bound.is_none() {
                    match depths.last_mut() {
                        Some(last) if last.0 == i.depth => last.1 = i.score,
                        _ => depths.push((i.depth, i.score)),
                    }
                }
            });
        let first = lines.first().cloned().flatten();
        let pv = match (&first, result.best) {
            (Some((_, _, pv)), Some(b)) if pv.first() == Some(&b) => pv.clone(),
            (_, Some(b)) => vec![b],
            _ => Vec::new(),
        };
        let mut all_lines: Lines = lines
            .into_iter()
            .flatten()
            .map(|(_, s, pv)| (s, pv))
            .collect();
        all_lines.sort_by_key(|(s, _)| order(*s));
        let searched = Searched {
            score: result.score,
            value: two_depths(&depths, result.score),
            best: result.best,
            pv,
            exact: result.table.is_some(),
            kept: Vec::new(),
            lines: if all { all_lines.clone() } else { Vec::new() },
        };
        (searched, all_lines)
    }

    /// The exact value of every legal move, best first, when the placing solution (in the
    /// placing) or the endgame tables (in the moving phase, `all` only) value them all
    /// (`search::exact_lines`): the search at such a root plays the first and follows no other
    /// line.
    fn exact(&self, game: &Game, all: bool) -> Option<(Searched, Lines)> {
        let tables = self.searcher.options.tables.as_ref()?;
        let pos = game.position();
        if game.outcome().is_some() || !(all || pos.is_placing()) {
            return None;
        }
        let moves = crate::rules::movegen::legal_moves(pos, Convention::Turn);
        let exact = exact_lines(tables, pos, &moves)?;
        let lines: Lines = exact.lines.iter().map(|&(m, s)| (s, vec![m])).collect();
        let searched = Searched {
            score: exact.score(),
            value: exact.score(),
            best: Some(exact.best()),
            pv: vec![exact.best()],
            exact: true,
            kept: exact.kept,
            lines: lines.clone(),
        };
        Some((searched, lines))
    }

    /// Grades the moves `played` (each with the game before it, as `play_moves` gives them) of a
    /// game that ended in `game`, the first `book` of them book moves (shown, not graded): every
    /// position is searched once (following every root move when `all`, for the advisor's
    /// view), and each move graded by the value before it against the value after it, the next
    /// position's search, negated (`grade::known_steps`, `grade::grade`), with a progress bar.
    pub fn grade_game(
        &mut self,
        played: &[(Game, Move)],
        game: &Game,
        book: usize,
        all: bool,
        progress: &dyn Progress,
    ) -> Vec<Graded> {
        progress.stage(played.len() as u64 + 1, 0, "analysing ", "positions");
        let mut searched = Vec::new();
        for (before, _) in played {
            searched.push(self.search(before, all).0);
            progress.advance(1);
        }
        let end = if game.outcome().is_some() {
            None
        } else {
            Some(self.search(game, false).0)
        };
        progress.finish();
        let known = grade::known_steps(played, &searched, end.as_ref(), game);
        grade::grade(played, &searched, &known, book)
    }

    /// Every legal move of the game's position, valued by search, best first (each with its
    /// line); exactly (`Advice::exact`) where the placing solution or the endgame tables cover
    /// them.
    ///
    /// # Errors
    ///
    /// A game that is over.
    pub fn advice(&mut self, game: &Game) -> Result<Advice, AnalyseError> {
        let position = open_position(game)?;
        let (searched, lines) = self.search(game, true);
        Ok(Advice {
            position,
            lines,
            exact: searched.exact,
        })
    }

    /// Every legal move of the game's position (in the placing) with its exact value, by the
    /// solver of the placing over the endgame tables.
    ///
    /// # Errors
    ///
    /// A game that is over, a position of the moving phase, no tables, or tables that do not
    /// cover every position on the way.
    pub fn exact_values(&self, game: &Game) -> Result<ExactValues, AnalyseError> {
        let pos = open_position(game)?;
        if !pos.is_placing() {
            return Err(AnalyseError::NotPlacing);
        }
        let tables = self
            .searcher
            .options
            .tables
            .clone()
            .filter(|t| t.has_moving())
            .ok_or(AnalyseError::NoTables)?;
        let moves = crate::rules::movegen::legal_moves(&pos, Convention::Turn);
        let start = Instant::now();
        let never = |_: u64| false;
        let mut memory = crate::search::exact::Memory::new(1 << 24);
        let mut solver = crate::search::exact::Solver::new(&tables, &mut memory, &never);
        let values = solver.values_of_moves(&pos, &moves);
        let values = values.ok_or(AnalyseError::NotCovered)?;
        let mut valued: Vec<(Move, i8)> = moves.into_iter().zip(values).collect();
        valued.sort_by_key(|&(_, v)| -v);
        Ok(ExactValues {
            pos,
            valued,
            nodes: solver.nodes,
            secs: start.elapsed().as_secs_f64(),
        })
    }
}

/// The value a position is graded by: the mean of the last two depths' scores of its search
/// (`depths`, each depth's first line), one of each parity, where both are scores that decide
/// nothing; else `last`, the search's own. The side that moves last in a search's horizon looks
/// better, by tens of centi-pieces in the placing, so that one depth's values swing from ply to
/// ply; the mean of two does not.
fn two_depths(depths: &[(u32, Score)], last: Score) -> Score {
    use super::chance::class;
    match depths {
        [.., (_, a @ Score::Cp(x)), (_, b @ Score::Cp(y))]
            if class(*a) == 0 && class(*b) == 0 && *b == last =>
        {
            Score::Cp((x + y).div_euclid(2))
        }
        _ => last,
    }
}
