//! Balanced opening books, made with any engine (`moulin openings`, in `commands/matches/openings_cmd.rs`):
//! every placement opening of a few turns, one per class of positions equal under the board's 16
//! symmetries, scored by the engine through its protocol (`go depth D`); those whose last
//! reported score is a centipawn score within the margin are kept: neither won nor lost within
//! the reach of the search. Each score can be journaled (`durable::Journal`) so that a stopped
//! run resumes without searching again.
//!
//! Or, with no engine, the exact solver of the placing (`search::exact`) gives each opening its
//! true value from the endgame tables, and the draws are kept.

use super::referee;
use crate::box_error::BoxError;
use crate::durable::{DurableError, Journal};
use crate::job_progress::Progress;
use crate::matches::engines::engine_output::Score;
use crate::matches::engines::engine_process::{EngineFault, EngineProcess};
use crate::matches::engines::spec::{EngineSpec, SpecError};
use crate::record::openings::Opening;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// What stops the making of a balanced opening book.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The scoring engine's spec cannot be read.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An openings file cannot be read, or one of its openings played.
    #[error("{source}")]
    Openings {
        /// Why (naming the file and the line).
        source: BoxError,
    },
    /// The endgame tables cannot be opened.
    #[error("endgame tables {}: {source}", dir.display())]
    Tables {
        /// The tables' folder.
        dir: std::path::PathBuf,
        /// Why.
        source: BoxError,
    },
    /// The journal of a book being made cannot be used.
    #[error(transparent)]
    Durable(#[from] DurableError),
    /// The engine scoring the openings cannot be started.
    #[error("{name}: {source}")]
    EngineStart {
        /// The engine's name.
        name: String,
        /// Why.
        source: EngineFault,
    },
    /// The engine scoring the openings gave no score.
    #[error("{name} reported no score for '{opening}' (expected 'info ... score cp X')")]
    NoScore {
        /// The engine's name.
        name: String,
        /// The opening.
        opening: String,
    },
    /// The engine scoring the openings failed twice on one.
    #[error("{name} failed twice on '{opening}'")]
    FailedTwice {
        /// The engine's name.
        name: String,
        /// The opening.
        opening: String,
    },
    /// The exact solver left the tables.
    #[error("'{opening}': a position on the way is not in the tables")]
    NotInTables {
        /// The opening.
        opening: String,
    },
    /// Some openings got no value (a solver thread failed).
    #[error("{missing} openings were not scored (a solver thread failed)")]
    Unscored {
        /// How many.
        missing: usize,
    },
}

/// Positions each exact solve remembers (about 320 MB).
const OPENING_MEMORY: usize = 1 << 24;

/// What values the openings.
pub enum Scorer {
    /// An engine, through its protocol.
    Engine(Box<EngineSpec>),
    /// The exact solver of the placing, over these endgame tables.
    Exact(Arc<crate::tables::Tables>),
}

/// How the engine searches each opening.
#[derive(Clone, Copy, Debug)]
pub struct EngineSearch {
    /// The depth given to the engine (`go depth D`).
    pub depth: u32,
    /// Time allowed for the handshake and each isready.
    pub ready: Duration,
    /// Time allowed for one search.
    pub limit: Duration,
}

/// How the openings are scored.
pub struct Scoring {
    /// What scores them.
    pub scorer: Scorer,
    /// How an engine searches each one.
    pub search: EngineSearch,
    /// Solver threads for the exact scorer (each solves one opening at a time).
    pub threads: usize,
}

/// The openings of a book, sorted by their scores.
pub struct Sorted {
    /// The balanced openings, each with its score in centipawns (0 for an exact draw).
    pub kept: Vec<(Opening, i32)>,
    /// How many are better for the side to move.
    pub won: usize,
    /// How many are worse for the side to move.
    pub lost: usize,
}

/// Every opening of `plies` turns from the start position while pieces are being placed, one
/// for each class of symmetric positions (the first met in move-generation order), leaving out
/// those where the game is over.
#[must_use]
pub fn enumerate(rules: &Rules, plies: usize) -> Vec<Opening> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut line = Vec::new();
    walk(&Game::new(*rules), plies, &mut line, &mut seen, &mut out);
    out
}

/// Adds to `out` the openings of `left` more turns from `game`, whose moves so far are `line`.
fn walk(
    game: &Game,
    left: usize,
    line: &mut Vec<String>,
    seen: &mut HashSet<u64>,
    out: &mut Vec<Opening>,
) {
    if game.outcome().is_some() {
        return;
    }
    if left == 0 {
        if seen.insert(crate::rules::symmetry::fold(game.position()).key) {
            out.push(Opening {
                fen: None,
                moves: line.clone(),
            });
        }
        return;
    }
    for mv in movegen::legal_moves(game.position(), Convention::Turn) {
        if !mv.is_placement() {
            continue;
        }
        let mut next = game.clone();
        next.play(mv);
        line.push(mv.turn_notation());
        walk(&next, left - 1, line, seen, out);
        line.pop();
    }
}

/// The openings of an openings file, one per class of positions equal under the board's
/// symmetries, in the file's order.
///
/// # Errors
///
/// A file that cannot be read, or an opening that cannot be played.
pub fn distinct_openings(file: &Path, rules: &Rules) -> Result<Vec<Opening>, OpeningsError> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let book = crate::record::openings::read_book_file(file, rules)
        .map_err(|e| OpeningsError::Openings { source: e.into() })?;
    for o in book {
        let game = o
            .game(rules)
            .map_err(|e| OpeningsError::Openings { source: e.into() })?;
        if seen.insert(crate::rules::symmetry::fold(game.position()).key) {
            out.push(o);
        }
    }
    Ok(out)
}

/// An engine as a scorer: its own book (UCI's `OwnBook`) is turned off, when it announces one,
/// unless the spec says otherwise, since the scores must come from a search.
///
/// # Errors
///
/// A spec that cannot be read.
pub fn engine_scorer(spec: &str) -> Result<Scorer, OpeningsError> {
    let mut spec = EngineSpec::parse_unbounded(spec, "moulin openings")?;
    if !spec
        .options
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("OwnBook"))
    {
        spec.if_announced.push(("OwnBook".into(), "false".into()));
    }
    Ok(Scorer::Engine(Box::new(spec)))
}

/// The exact solver over the endgame tables of `dir` as a scorer.
///
/// # Errors
///
/// Tables that cannot be opened.
pub fn exact_scorer(dir: &Path, rules: &Rules) -> Result<Scorer, OpeningsError> {
    let tables = crate::tables::Tables::open(dir, rules).map_err(|e| OpeningsError::Tables {
        dir: dir.to_path_buf(),
        source: e.into(),
    })?;
    Ok(Scorer::Exact(Arc::new(tables)))
}

/// A journaled score: `cp 12` or `mate -3`, as `Score` writes it; or an exact value, `win`,
/// `draw` or `loss` (kept as mate 1, cp 0 and mate -1).
fn parse_score(text: &str) -> Option<Score> {
    if let Some(v) = crate::search::exact::from_name(text) {
        return Some(exact_score(v));
    }
    match text.split_once(' ')? {
        ("cp", n) => n.parse().ok().map(Score::Cp),
        ("mate", n) => n.parse().ok().map(Score::Mate),
        _ => None,
    }
}

/// An exact value as a score: a win as mate 1, a loss as mate -1, a draw as 0 cp.
fn exact_score(v: crate::search::exact::Wdl) -> Score {
    match v {
        0 => Score::Cp(0),
        v => Score::Mate(i32::from(v)),
    }
}

/// Opens (or takes up) the journal at `path` of a run with `settings`: returns it with the
/// scores it already holds, by opening line. Unreadable lines are logged and searched again.
///
/// # Errors
///
/// A journal that cannot be opened (held by another run, of other settings, unwritable).
pub fn open_journal(
    path: &Path,
    settings: &str,
) -> Result<(Journal, HashMap<String, Score>), OpeningsError> {
    let (journal, lines) = Journal::open(path, "openings", settings)?;
    let mut scores = HashMap::new();
    for line in &lines {
        match line
            .split_once(" | ")
            .and_then(|(score, opening)| Some((parse_score(score)?, opening)))
        {
            Some((score, opening)) => {
                scores.insert(opening.to_string(), score);
            }
            None => log::warn!(
                "{}: unreadable line {}; searched again",
                path.display(),
                crate::text::quoted(line)
            ),
        }
    }
    Ok((journal, scores))
}

/// Writes a score to the journal, when there is one.
fn journal_score(
    journal: &mut Option<&mut Journal>,
    opening: &Opening,
    score: &str,
) -> Result<(), OpeningsError> {
    match journal {
        Some(j) => Ok(j.append(&format!("{score} | {}", opening.to_line()))?),
        None => Ok(()),
    }
}

/// Scores every opening of `candidates` whose `results` slot is empty, filling it, journaling
/// each score and telling `progress` of each one (the caller begins and ends the stage).
///
/// # Errors
///
/// An engine that cannot be started, gives no score or fails twice on an opening; a position
/// the tables do not cover; a journal that cannot be written.
pub fn score_all(
    scoring: &Scoring,
    candidates: &[Opening],
    results: &mut [Option<Score>],
    rules: &Rules,
    mut journal: Option<&mut Journal>,
    progress: &dyn Progress,
) -> Result<(), OpeningsError> {
    match &scoring.scorer {
        Scorer::Engine(spec) => {
            let mut engine: Option<EngineProcess> = None;
            for (opening, result) in candidates.iter().zip(results.iter_mut()) {
                if result.is_none() {
                    let s = score_opening(&mut engine, spec, rules, opening, &scoring.search)?;
                    journal_score(&mut journal, opening, &s.to_string())?;
                    *result = Some(s);
                    progress.advance(1);
                }
            }
            if let Some(e) = engine {
                e.quit();
            }
            Ok(())
        }
        Scorer::Exact(tables) => {
            let solve = Solve {
                tables,
                candidates,
                rules,
                threads: scoring.threads,
            };
            solve.score(results, journal, progress)
        }
    }
}

/// The engine's score of one opening, from a fresh game; the engine is (re)started as needed.
fn score_opening(
    engine: &mut Option<EngineProcess>,
    spec: &EngineSpec,
    rules: &Rules,
    opening: &Opening,
    search: &EngineSearch,
) -> Result<Score, OpeningsError> {
    let game = opening
        .game(rules)
        .map_err(|e| OpeningsError::Openings { source: e.into() })?;
    let position = referee::position_for(&game, &Opening::startpos(), spec);
    let go = format!("go depth {}", search.depth);
    for _attempt in 0..2 {
        if engine.is_none() {
            *engine = Some(
                EngineProcess::start(spec, rules, search.ready).map_err(|source| {
                    OpeningsError::EngineStart {
                        name: spec.name.clone(),
                        source,
                    }
                })?,
            );
        }
        let Some(e) = engine.as_mut() else {
            continue;
        };
        match e
            .new_game(search.ready)
            .and_then(|()| e.go(&position, &go, search.limit))
        {
            Ok(answer) => {
                return answer.score.ok_or_else(|| OpeningsError::NoScore {
                    name: spec.name.clone(),
                    opening: opening.to_string(),
                })
            }
            Err(f) => {
                log::warn!("{}: {f} on '{opening}'; restarting it", spec.name);
                *engine = None;
            }
        }
    }
    Err(OpeningsError::FailedTwice {
        name: spec.name.clone(),
        opening: opening.to_string(),
    })
}

/// The exact values of openings, by the solver on threads of its own.
struct Solve<'a> {
    tables: &'a Arc<crate::tables::Tables>,
    candidates: &'a [Opening],
    rules: &'a Rules,
    threads: usize,
}

impl Solve<'_> {
    /// Values every opening whose `results` slot is empty.
    fn score(
        &self,
        results: &mut [Option<Score>],
        mut journal: Option<&mut Journal>,
        progress: &dyn Progress,
    ) -> Result<(), OpeningsError> {
        let todo: Vec<usize> = (0..self.candidates.len())
            .filter(|&i| results[i].is_none())
            .collect();
        let positions = todo
            .iter()
            .map(|&i| {
                let game = self.candidates[i]
                    .game(self.rules)
                    .map_err(|e| OpeningsError::Openings { source: e.into() })?;
                Ok((i, *game.position()))
            })
            .collect::<Result<Vec<_>, OpeningsError>>()?;
        crate::search::exact::in_parallel(
            self.tables,
            &positions,
            self.threads,
            OPENING_MEMORY,
            |solver, (_, pos)| solver.value(pos),
            |&(i, _), value| {
                let value = value.ok_or_else(|| OpeningsError::NotInTables {
                    opening: self.candidates[i].to_string(),
                })?;
                journal_score(
                    &mut journal,
                    &self.candidates[i],
                    crate::search::exact::name(value),
                )?;
                results[i] = Some(exact_score(value));
                progress.advance(1);
                Ok(())
            },
        )
    }
}

/// Sorts the scored openings: those within `margin` centipawns are kept, the others counted as
/// better or worse for the side to move.
///
/// # Errors
///
/// An opening without a score (a solver thread failed).
pub fn sort(
    candidates: &[Opening],
    results: &[Option<Score>],
    margin: i32,
) -> Result<Sorted, OpeningsError> {
    let missing = results.iter().filter(|r| r.is_none()).count();
    if missing > 0 {
        return Err(OpeningsError::Unscored { missing });
    }
    let mut sorted = Sorted {
        kept: Vec::new(),
        won: 0,
        lost: 0,
    };
    for (opening, score) in candidates.iter().zip(results.iter().flatten()) {
        match *score {
            Score::Cp(cp) if cp.abs() <= margin => sorted.kept.push((opening.clone(), cp)),
            Score::Cp(x) | Score::Mate(x) if x > 0 => sorted.won += 1,
            _ => sorted.lost += 1,
        }
    }
    Ok(sorted)
}

/// The book: `header` as comment lines of at most about 95 characters, then one line per kept
/// opening with its score (`# draw` when `exact`, else `# cp N`).
#[must_use]
pub fn book_text(header: &str, kept: &[(Opening, i32)], exact: bool) -> String {
    let mut text = String::new();
    let mut row = String::from("#");
    for word in header.split(' ') {
        if row.len() + 1 + word.len() > 95 {
            text.push_str(&row);
            text.push('\n');
            row = String::from("#");
        }
        row.push(' ');
        row.push_str(word);
    }
    text.push_str(&row);
    text.push('\n');
    for (o, cp) in kept {
        if exact {
            text.push_str(&format!("{}  # draw\n", o.to_line()));
        } else {
            text.push_str(&format!("{}  # cp {cp}\n", o.to_line()));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_ply_openings_match_the_known_count() {
        // docs/rules.md, "Perfect play": 428 positions after 3 plies, up to symmetry.
        assert_eq!(enumerate(&Rules::nine(), 3).len(), 428);
        assert_eq!(enumerate(&Rules::nine(), 1).len(), 4);
    }
}
