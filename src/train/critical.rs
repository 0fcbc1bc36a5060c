//! Critical positions: `moulin train critical` finds critical placing positions, and `moulin
//! train suite` measures an engine on them.
//!
//! A critical position is one where the value is kept by one or two moves and lost by most of
//! the others. Values are classes of a deep search's score for the side to move: a win at
//! `+threshold` or more, a loss at `-threshold` or less, a draw in between (a win or loss that
//! the search proves counts as such). Candidates are the labelled positions (`train label`) of
//! the placing phase after 2 to 16 turns, each class of symmetric positions once, in the order of
//! the journals. Each candidate's moves (one per class of moves leading to symmetric positions)
//! are first searched one by one at `--screen-depth`; a candidate that looks critical there is
//! searched again at `--depth`, and kept when it is critical there too. The kept positions are
//! journaled (`critical-d<depth>.txt` under the cache directory, so a stopped run resumes) and
//! written, when `--count` are found, as the suite:
//!
//! ```text
//! <value win|draw|loss> <best score> <kept moves, comma-separated> <position string>
//! ```
//!
//! The searches use the hand-written evaluation, so that the suite does not favour the learned
//! one that it measures; with `--confirm`, a position is kept only when a search with the
//! learned evaluation finds the same value kept by the same moves. With `--draw N --seed S` the
//! candidates are drawn as `train label` draws positions, instead of read from its journals.
//!
//! `moulin train suite` plays every position of a suite through an engine's protocol at a fixed
//! time a move and counts the moves that keep the value (a move symmetric to a kept one keeps it
//! too).

use super::label::{draw_position, read_labels};
use super::{LineFlaw, TrainError};
use crate::durable::{DurableError, Journal};
use crate::job_progress::Progress;
use crate::matches::engines::engine_process::EngineProcess;
use crate::parallel;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::rules::{fen, Rules};
use crate::search::exact::{Memory, Solver};
use crate::search::Searcher;
use crate::tables::Tables;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The score an exact value is written with in a suite: ±1000 for a win or a loss, 0 a draw.
const EXACT_SCORE: i32 = 1000;

/// Each move class of `pos` valued exactly (win +1000, draw 0, loss -1000), best first; `None`
/// when the solver needs more than `nodes` positions or the tables do not cover the end.
fn exact_scores(
    tables: &Tables,
    memory: &mut Memory,
    pos: &Position,
    nodes: u64,
) -> Option<Vec<Scored>> {
    memory.clear();
    let stop = move |n: u64| n >= nodes;
    let mut solver = Solver::new(tables, memory, &stop);
    let mut seen = FxHashSet::default();
    let moves: Vec<Move> = movegen::legal_moves(pos, Convention::Turn)
        .into_iter()
        .filter(|&mv| seen.insert(child_key(pos, mv)))
        .collect();
    let values = solver.values_of_moves(pos, &moves)?;
    let mut out: Vec<Scored> = moves
        .into_iter()
        .zip(values)
        .map(|(mv, v)| (mv, i32::from(v) * EXACT_SCORE))
        .collect();
    out.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    Some(out)
}

/// A value class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// The side to move loses.
    Loss,
    /// A draw.
    Draw,
    /// The side to move wins.
    Win,
}

impl Value {
    /// The value's name in a suite: `loss`, `draw` or `win`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }

    /// The value of a name (`name`).
    pub fn parse(s: &str) -> Option<Value> {
        match s {
            "loss" => Some(Value::Loss),
            "draw" => Some(Value::Draw),
            "win" => Some(Value::Win),
            _ => None,
        }
    }

    fn of(score: i32, threshold: i32) -> Value {
        match crate::search::class(score, threshold) {
            1 => Value::Win,
            -1 => Value::Loss,
            _ => Value::Draw,
        }
    }
}

/// One position of a suite.
#[derive(Clone, Debug)]
pub struct Critical {
    /// The position.
    pub pos: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// The best move's score.
    pub best: i32,
    /// The moves that keep the value (one or two).
    pub keep: Vec<Move>,
}

impl Critical {
    /// The suite's line of the position:
    /// `<value> <best score> <kept moves, comma-separated> <position string>`.
    pub fn line(&self) -> String {
        let keep: Vec<String> = self
            .keep
            .iter()
            .map(|m| m.written_at(&self.pos, Convention::Turn))
            .collect();
        format!(
            "{} {} {} {}",
            self.value.name(),
            self.best,
            keep.join(","),
            fen::write(&self.pos)
        )
    }

    /// Whether `mv` keeps the value: it is a kept move or symmetric to one.
    pub fn keeps(&self, mv: Move) -> bool {
        let key = child_key(&self.pos, mv);
        self.keep.iter().any(|&k| child_key(&self.pos, k) == key)
    }
}

fn child_key(pos: &Position, mv: Move) -> u64 {
    let mut child = *pos;
    child.play(mv);
    fold(&child).key
}

/// Reads a suite; a bad line is an error naming the file and line.
pub fn read_suite(path: &Path, rules: &Rules) -> Result<Vec<Critical>, TrainError> {
    let mut out = Vec::new();
    for line in super::lines_of(path)? {
        let (n, line) = line?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: LineFlaw| TrainError::SuiteLine {
            path: path.to_path_buf(),
            line: n,
            what: Box::new(what),
        };
        let words: Vec<&str> = line.splitn(4, ' ').collect();
        if words.len() != 4 {
            return Err(bad(LineFlaw::Form(
                "<value> <best score> <kept moves> <position string>",
            )));
        }
        let value =
            Value::parse(words[0]).ok_or_else(|| bad(LineFlaw::field("bad value", words[0])))?;
        let best = words[1]
            .parse()
            .map_err(|_| bad(LineFlaw::field("bad score", words[1])))?;
        let pos = fen::read(words[3], rules).map_err(|e| bad(e.into()))?;
        let mut keep = Vec::new();
        for token in words[2].split(',') {
            let mut game = Game::from_position(pos);
            let mv = game.play_token(token).map_err(|source| {
                bad(LineFlaw::KeptMove {
                    token: token.to_string(),
                    source,
                })
            })?;
            keep.push(mv);
        }
        out.push(Critical {
            pos,
            value,
            best,
            keep,
        });
    }
    Ok(out)
}

/// Each move class of `pos` searched alone at `depth`, best first (one table for all, so the
/// searches help each other).
fn move_scores(searcher: &mut Searcher, pos: &Position, depth: u32) -> Vec<(Move, i32)> {
    searcher.new_game();
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for mv in movegen::legal_moves(pos, Convention::Turn) {
        if !seen.insert(child_key(pos, mv)) {
            continue;
        }
        let r = searcher.search_to_depth(pos, depth, vec![mv]);
        out.push((mv, crate::book::score_value(r.score)));
    }
    out.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    out
}

/// A move and its score.
type Scored = (Move, i32);

/// The position as a critical one, if its move scores make it one: one or two moves keep the
/// best value, and at least half of the move classes (and two) lose it.
fn judge(pos: &Position, scores: &[(Move, i32)], threshold: i32, gap: i32) -> Option<Critical> {
    let &(_, best) = scores.first()?;
    let value = Value::of(best, threshold);
    // The boundary below the value: a kept move scores `gap` above it, a lost one `gap` below.
    let floor = match value {
        Value::Win => threshold,
        Value::Draw => -threshold,
        Value::Loss => return None,
    };
    let (kept, lost): (Vec<&Scored>, Vec<&Scored>) = scores
        .iter()
        .partition(|&&(_, s)| Value::of(s, threshold) == value);
    let clear = kept.iter().all(|&&(_, s)| s >= floor + gap)
        && lost.iter().all(|&&(_, s)| s <= floor - gap);
    let keep: Vec<Move> = kept.iter().map(|&&(m, _)| m).collect();
    let lose = lost.len();
    if clear && keep.len() <= 2 && lose >= 2 && 2 * lose >= scores.len() {
        Some(Critical {
            pos: *pos,
            value,
            best,
            keep,
        })
    } else {
        None
    }
}

/// Whether two findings of one position agree: the same value, kept by the same move classes.
fn agree(a: &Critical, b: &Critical) -> bool {
    let classes = |c: &Critical| {
        let mut keys: Vec<u64> = c.keep.iter().map(|&m| child_key(&c.pos, m)).collect();
        keys.sort_unstable();
        keys
    };
    a.value == b.value && classes(a) == classes(b)
}

/// `n` positions drawn as `train label` draws them, with their turns played; in index order,
/// so that a run and its resumption see the same candidates.
fn draw_candidates(
    rules: &Rules,
    seed: u64,
    n: usize,
    progress: &dyn Progress,
) -> Vec<(Position, usize)> {
    use rayon::prelude::*;
    progress.stage(n as u64, 0, "", "candidates drawn");
    let out: Vec<(Position, usize)> = (0..n as u64)
        .into_par_iter()
        .map_init(
            || Searcher::new(1, 1),
            |player, i| {
                progress.advance(1);
                draw_position(rules, seed, i, player).map(|(pos, _, plies)| (pos, plies))
            },
        )
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect();
    progress.finish();
    out
}

/// The verdict of the searches on a candidate: screened at --screen-depth, decided at --depth,
/// confirmed by the learned evaluation with --confirm.
fn searched_verdict(
    searcher: &mut Searcher,
    pos: &Position,
    args: &CriticalPlan,
) -> Option<Critical> {
    let screened = move_scores(searcher, pos, args.screen_depth);
    let verdict = judge(pos, &screened, args.threshold, 0).and_then(|_| {
        let deep = move_scores(searcher, pos, args.depth);
        judge(pos, &deep, args.threshold, args.gap)
    });
    verdict.filter(|found| {
        !args.confirm || {
            searcher.options.learned = true;
            let other = move_scores(searcher, pos, args.depth);
            searcher.options.learned = false;
            judge(pos, &other, args.threshold, args.gap).is_some_and(|again| agree(found, &again))
        }
    })
}

/// How critical positions are found (see the module's comment).
#[derive(Clone, Debug)]
pub struct CriticalPlan {
    /// The rules' preset name.
    pub variant: String,
    /// The seed of the drawn candidates, when they are drawn rather than read from labels.
    pub drawn: Option<u64>,
    /// Keep a position only when the learned evaluation agrees.
    pub confirm: bool,
    /// Depth (turns) of the searches that decide.
    pub depth: u32,
    /// Depth of the screening searches.
    pub screen_depth: u32,
    /// Scores at or beyond ± this many centi-pieces are wins and losses.
    pub threshold: i32,
    /// The margin of the kept and lost moves beyond their class's boundary.
    pub gap: i32,
    /// Positions to find.
    pub count: usize,
    /// Worker threads.
    pub threads: usize,
    /// The solver's positions for one candidate when valued exactly.
    pub exact_nodes: u64,
}

impl CriticalPlan {
    /// The name of the run's journal (under the cache directory) and the settings its header
    /// names; `exact` when the moves are valued exactly, `source` where the candidates come from.
    fn journal(&self, exact: bool, source: &str) -> (String, String) {
        let (mut name, mut settings) = if exact {
            (
                format!("critical-exact-n{}", self.exact_nodes),
                format!(
                    "variant {} exact nodes {} threshold {}",
                    self.variant, self.exact_nodes, self.threshold
                ),
            )
        } else {
            (
                format!("critical-d{}-s{}", self.depth, self.screen_depth),
                format!(
                    "variant {} depth {} screen {} threshold {}",
                    self.variant, self.depth, self.screen_depth, self.threshold
                ),
            )
        };
        if self.gap > 0 {
            name += &format!("-g{}", self.gap);
            settings += &format!(" gap {}", self.gap);
        }
        if self.confirm {
            name += "-c";
            settings += " confirm";
        }
        if let Some(seed) = self.drawn {
            name += &format!("-r{seed}");
        }
        settings += &format!(" {source}");
        (name, settings)
    }
}

/// The candidates drawn as `train label` draws positions, and where they come from as the
/// journal names it.
pub fn drawn_candidates(
    rules: &Rules,
    seed: u64,
    n: usize,
    progress: &dyn Progress,
) -> (Vec<(Position, usize)>, String) {
    (
        draw_candidates(rules, seed, n, progress),
        // Not the count: the candidates of a smaller --draw are the first of a larger one, so
        // a run may resume with more.
        format!("drawn seed {seed}"),
    )
}

/// The candidates of the label journals `files`, and where they come from as the journal names
/// it.
pub fn labelled_candidates(
    files: &[PathBuf],
    rules: &Rules,
) -> Result<(Vec<(Position, usize)>, String), TrainError> {
    let mut all = Vec::new();
    for f in files {
        all.extend(read_labels(f, rules)?.into_iter().map(|l| (l.pos, l.plies)));
    }
    let names: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_name()?.to_str().map(String::from))
        .collect();
    Ok((all, format!("labels {}", names.join(","))))
}

/// The suite lines found, in the candidates' order, and the run's journal.
pub struct Found {
    /// The journal of the run.
    pub journal: PathBuf,
    /// The lines of the critical positions found (`Critical::line`), `plan.count` of them.
    pub lines: Vec<String>,
}

/// Finds `plan.count` critical positions among the candidates (`drawn`, after 2 to 16 turns,
/// each class once), searched with `tables` probed, or valued exactly with `exact`; resumes
/// from the run's journal.
pub fn find(
    plan: &CriticalPlan,
    drawn: Vec<(Position, usize)>,
    source: &str,
    tables: Option<&Arc<Tables>>,
    exact: Option<&Tables>,
    progress: &dyn Progress,
) -> Result<Found, TrainError> {
    let mut seen = FxHashSet::default();
    let candidates: Vec<Position> = drawn
        .into_iter()
        .filter(|(pos, plies)| {
            (2..=16).contains(plies) && pos.is_placing() && seen.insert(fold(pos).key)
        })
        .map(|(pos, _)| pos)
        .collect();
    let (name, settings) = plan.journal(exact.is_some(), source);
    let journal_path = super::cache_dir(&plan.variant).join(format!("{name}.txt"));
    if let Some(dir) = journal_path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| TrainError::CreateDir {
            dir: dir.to_path_buf(),
            source,
        })?;
    }
    let (journal, lines) = Journal::open(&journal_path, "critical", &settings)?;
    // Each line: `<candidate index> none` or `<candidate index> <suite line>`.
    let mut done: FxHashMap<usize, Option<String>> = FxHashMap::default();
    for l in &lines {
        let mut w = l.splitn(2, ' ');
        let (Some(i), Some(rest)) = (w.next().and_then(|i| i.parse().ok()), w.next()) else {
            continue;
        };
        done.insert(i, (rest != "none").then(|| rest.to_string()));
    }
    let todo: Vec<usize> = (0..candidates.len())
        .filter(|i| !done.contains_key(i))
        .collect();
    log::info!(
        "{} candidates ({} done before, {} critical); journal {}",
        candidates.len(),
        done.len(),
        done.values().filter(|v| v.is_some()).count(),
        journal_path.display()
    );
    let work = Work {
        plan,
        candidates: &candidates,
        tables,
        exact,
    };
    let found = work.search(
        &todo,
        done.values().filter(|v| v.is_some()).count(),
        journal,
        progress,
    )?;
    let mut all: Vec<(usize, String)> = done
        .into_iter()
        .filter_map(|(i, t)| t.map(|t| (i, t)))
        .chain(found)
        .collect();
    all.sort();
    all.truncate(plan.count);
    if all.len() < plan.count {
        return Err(TrainError::TooFewCritical {
            found: all.len(),
            candidates: candidates.len(),
            journal: journal_path,
        });
    }
    Ok(Found {
        journal: journal_path,
        lines: all.into_iter().map(|(_, t)| t).collect(),
    })
}

/// The candidates of a run and how to judge them.
struct Work<'a> {
    plan: &'a CriticalPlan,
    candidates: &'a [Position],
    tables: Option<&'a Arc<Tables>>,
    exact: Option<&'a Tables>,
}

impl Work<'_> {
    /// Judges the candidates `todo` on the plan's threads, journaling each verdict, until the
    /// plan's count is `found` (counting the `found` before); the critical ones found, by
    /// candidate index.
    fn search(
        &self,
        todo: &[usize],
        found: usize,
        mut journal: Journal,
        progress: &dyn Progress,
    ) -> Result<Vec<(usize, String)>, TrainError> {
        let count = self.plan.count;
        progress.stage(count as u64, found as u64, "", "critical positions");
        // Counted by the threads, so that none starts a candidate once the count is found.
        let found = AtomicUsize::new(found);
        let mut results = Vec::new();
        let mut searched = 0;
        let judged = parallel::run(
            todo,
            self.plan.threads,
            || {
                let mut searcher = Searcher::new(16, 1);
                searcher.options.tables = self.tables.cloned();
                // The hand-written evaluation, so that the suite does not favour the learned
                // one it measures.
                searcher.options.learned = false;
                (searcher, Memory::new(1 << 22))
            },
            // `None`: passed over, the count being found; else the verdict.
            |(searcher, memory), &index| {
                if found.load(Ordering::Relaxed) >= count {
                    return None;
                }
                let text = self.verdict(index, searcher, memory);
                if text.is_some() {
                    found.fetch_add(1, Ordering::Relaxed);
                }
                Some(text)
            },
            |&index, verdict| {
                let Some(text) = verdict else {
                    return Ok(());
                };
                journal.append(&format!("{index} {}", text.as_deref().unwrap_or("none")))?;
                searched += 1;
                progress.message(&format!("{searched} searched"));
                if let Some(t) = text {
                    progress.advance(1);
                    results.push((index, t));
                }
                Ok::<_, DurableError>(())
            },
        );
        progress.finish();
        judged?;
        Ok(results)
    }

    /// The suite line of candidate `index` if it is critical.
    fn verdict(
        &self,
        index: usize,
        searcher: &mut Searcher,
        memory: &mut Memory,
    ) -> Option<String> {
        let pos = &self.candidates[index];
        let plan = self.plan;
        let verdict = match self.exact {
            Some(t) => exact_scores(t, memory, pos, plan.exact_nodes)
                .and_then(|scores| judge(pos, &scores, plan.threshold, plan.gap)),
            None => searched_verdict(searcher, pos, plan),
        };
        verdict.as_ref().map(Critical::line)
    }
}

/// What a suite of critical positions begins with, as `train critical` recognises its own
/// output (`durable::Role::ReplacesOwn`).
pub const OWN: crate::durable::Own = crate::durable::Own {
    magic: b"# moulin critical positions",
    name: "a suite of critical positions",
};

/// The text of a suite: its header (the plan, how values are found, the command) and `lines`;
/// `exact` when the values are exact, `drawn` how many positions come from drawn candidates.
pub fn suite_text(plan: &CriticalPlan, lines: &[String], exact: bool) -> String {
    let drawn = lines.iter().filter(|t| t.starts_with("draw ")).count();
    let how = if exact {
        "the exact value (win/draw/loss by the solver of the placing with the \
         endgame tables; scores ±1000 and 0)"
            .to_string()
    } else {
        format!(
            "the value (win/draw/loss at ±{} cp) of a depth-{} search",
            plan.threshold, plan.depth
        )
    };
    let mut text = format!(
        "# moulin critical positions, variant {}: {} positions ({drawn} drawn), placing phase \
         after 2 to 16 turns,\n# where one or two moves keep {how} and at least half the others \
         lose it.\n# Made by: {}\n# <value> <best score> <kept moves> <position string>\n",
        plan.variant,
        lines.len(),
        std::env::args().collect::<Vec<_>>().join(" ")
    );
    for t in lines {
        text.push_str(t);
        text.push('\n');
    }
    text
}

/// What the exact solver says of a suite position: its value, whether the label agrees (the
/// same value, kept by every kept move), whether the move played keeps it.
struct Truth {
    value: Value,
    label_agrees: bool,
    kept: bool,
}

/// The exact truth of `c` with `played` (`None` when the answer was not a legal move);
/// `None` when the tables do not cover the position's end.
fn truth_of(solver: &mut Solver, c: &Critical, played: Option<Move>) -> Option<Truth> {
    let v = solver.value(&c.pos)?;
    let value = match v {
        1 => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    };
    let mut label_agrees = value == c.value;
    for &k in &c.keep {
        label_agrees &= solver.move_at_least(&c.pos, k, v)?;
    }
    let kept = match played {
        Some(mv) => solver.move_at_least(&c.pos, mv, v)?,
        None => false,
    };
    Some(Truth {
        value,
        label_agrees,
        kept,
    })
}

/// What an engine kept of a suite: by value, the positions and those whose value the move
/// played kept; under the exact solver, apart, the positions whose label it contradicts.
#[derive(Clone, Debug, Default)]
pub struct SuiteTally {
    /// By value: positions, and those kept.
    pub tally: FxHashMap<Value, (usize, usize)>,
    /// By exact value, the positions whose label the solver contradicts: positions, and those
    /// where the move played keeps the value.
    pub contradicted: FxHashMap<Value, (usize, usize)>,
}

/// How an engine is measured on a suite: at `movetime` ms a move, each answer allowed
/// `timeout` more; judged by the exact solver with `exact` (the tables and their folder) if
/// given, else by the labels; with `verbose`, each position lost (or contradicted) is printed.
pub struct Measure<'a> {
    /// Milliseconds a move.
    pub movetime: u64,
    /// Time allowed for each answer beyond the move's time.
    pub timeout: Duration,
    /// The tables of the exact judge, and their folder.
    pub exact: Option<(&'a Tables, &'a Path)>,
    /// Print each position whose value was lost.
    pub verbose: bool,
}

/// Plays every position of `suite` through `engine` and counts the moves that keep the value.
pub fn measure_suite(
    suite: &[Critical],
    engine: &mut EngineProcess,
    how: &Measure,
    progress: &dyn Progress,
) -> Result<SuiteTally, TrainError> {
    progress.stage(suite.len() as u64, 0, "", "positions");
    let never = |_: u64| false;
    let mut memory = Memory::new(1 << 22);
    let mut out = SuiteTally::default();
    for c in suite {
        engine.new_game(how.timeout).map_err(TrainError::Engine)?;
        let answer = engine
            .go(
                &format!("position fen {}", fen::write(&c.pos)),
                &format!("go movetime {}", how.movetime),
                Duration::from_millis(how.movetime) + how.timeout,
            )
            .map_err(TrainError::Engine)?;
        let mut game = Game::from_position(c.pos);
        let played = game.play_tokens(answer.tokens.iter().map(String::as_str));
        let played = match (played, game.moves().first()) {
            (Ok(()), Some(&mv)) => Some(mv),
            _ => None,
        };
        let (value, kept, agrees) = match how.exact {
            Some((t, dir)) => {
                let mut solver = Solver::new(t, &mut memory, &never);
                let truth =
                    truth_of(&mut solver, c, played).ok_or_else(|| TrainError::Uncovered {
                        tables: dir.display().to_string(),
                        position: fen::write(&c.pos),
                    })?;
                (truth.value, truth.kept, truth.label_agrees)
            }
            None => (c.value, played.is_some_and(|mv| c.keeps(mv)), true),
        };
        let entry = if agrees {
            out.tally.entry(value).or_default()
        } else {
            out.contradicted.entry(value).or_default()
        };
        entry.0 += 1;
        entry.1 += usize::from(kept);
        if how.verbose && (!kept || !agrees) {
            let what = match (agrees, kept) {
                (true, _) => "lost".to_string(),
                (false, k) => format!(
                    "label contradicted (exact: {}, the move played {})",
                    value.name(),
                    if k { "keeps it" } else { "loses it" }
                ),
            };
            progress.note(&format!(
                "{what}: played {} in: {}",
                answer.tokens.join(" "),
                c.line()
            ));
        }
        progress.advance(1);
    }
    progress.finish();
    Ok(out)
}

#[cfg(test)]
#[path = "critical_tests.rs"]
mod tests;
