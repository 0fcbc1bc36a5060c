//! `moulin train critical` finds critical placing positions, and `moulin train suite` measures
//! an engine on them.
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

use super::label::{draw_position, open_tables, read_labels};
use crate::durable::Journal;
use crate::matches::engine::Engine;
use crate::matches::spec::EngineSpec;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::symmetry::fold;
use crate::rules::{fen, Rules};
use crate::search::exact::{Memory, Solver};
use crate::search::Searcher;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The flags of `moulin train critical`.
#[derive(clap::Args, Debug, Clone)]
pub struct CriticalArgs {
    /// Rule preset.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Label journals to draw candidates from (default: every labels-*.txt in
    /// ~/.cache/moulin/train/<variant>).
    #[arg(long, num_args = 1.., conflicts_with = "draw")]
    pub labels: Vec<PathBuf>,
    /// Draw this many positions as `train label` does (random openings and noisy self-play,
    /// each from --seed and its index) as the candidates, instead of reading label journals:
    /// with a seed the labels did not use, the suite holds no position the weights were fitted on.
    #[arg(long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000_000))]
    pub draw: Option<usize>,
    /// Seed of --draw.
    #[arg(long, default_value_t = 2, requires = "draw")]
    pub seed: u64,
    /// Keep a position only when a search with the learned evaluation (at --depth, after the
    /// hand-written one) finds the same value kept by the same moves: no label rests on one
    /// evaluation's view.
    #[arg(long)]
    pub confirm: bool,
    /// Depth (turns) of the searches that decide (1 to 30).
    #[arg(long, default_value_t = 13, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Depth of the screening searches (1 to 30).
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub screen_depth: u32,
    /// Scores at or beyond ± this many centi-pieces are wins and losses.
    #[arg(long, value_name = "CP", default_value_t = 120,
          value_parser = clap::value_parser!(i32).range(1..=5000))]
    pub threshold: i32,
    /// Keep a position only when its kept moves score this far inside their value's class and
    /// the lost ones this far outside it (at --depth), so that no label rests on a few
    /// centi-pieces either side of a boundary.
    #[arg(long, value_name = "CP", default_value_t = 0,
          value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub gap: i32,
    /// Positions to find (1 to 100000).
    #[arg(long, default_value_t = 300,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    pub count: usize,
    /// Worker threads; default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub threads: Option<usize>,
    /// Endgame tables to probe (default: ~/.cache/moulin/tables/<variant>, when it holds any).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Value the moves exactly instead of by search: the solver of the placing with the endgame
    /// tables in this folder (every moving position: `moulin tables build --pieces 9` for
    /// nine). A win is written +1000, a loss -1000, a draw 0. A candidate the solver cannot
    /// value within --exact-nodes positions is passed over.
    #[arg(long, value_name = "TABLES", conflicts_with = "confirm")]
    pub exact: Option<PathBuf>,
    /// The solver's positions for one candidate under --exact (about 5 million a second).
    #[arg(long, value_name = "N", default_value_t = 4_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub exact_nodes: u64,
    /// The suite to write, whole, once --count positions are found.
    #[arg(long)]
    pub out: PathBuf,
}

/// The score an exact value is written with in a suite: ±1000 for a win or a loss, 0 a draw.
const EXACT_SCORE: i32 = 1000;

/// Each move class of `pos` valued exactly (win +1000, draw 0, loss -1000), best first; `None`
/// when the solver needs more than `nodes` positions or the tables do not cover the end.
fn exact_scores(
    tables: &crate::tables::Tables,
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
    Loss,
    Draw,
    Win,
}

impl Value {
    pub fn name(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }

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
    pub pos: Position,
    pub value: Value,
    pub best: i32,
    pub keep: Vec<Move>,
}

impl Critical {
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
pub fn read_suite(path: &Path, rules: &Rules) -> Result<Vec<Critical>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: String| format!("{}:{}: {what}", path.display(), n + 1);
        let words: Vec<&str> = line.splitn(4, ' ').collect();
        if words.len() != 4 {
            return Err(bad(
                "expected <value> <best score> <kept moves> <position string>".to_string(),
            ));
        }
        let value =
            Value::parse(words[0]).ok_or_else(|| bad(format!("bad value '{}'", words[0])))?;
        let best = words[1]
            .parse()
            .map_err(|_| bad(format!("bad score '{}'", words[1])))?;
        let pos = fen::read(words[3], rules).map_err(|e| bad(e.to_string()))?;
        let mut keep = Vec::new();
        for token in words[2].split(',') {
            let mut game = Game::from_position(pos);
            let mv = game
                .play_token(token)
                .map_err(|e| bad(format!("kept move '{token}': {e}")))?;
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

/// The position as a critical one, if its move scores make it one: one or two moves keep the
/// best value, and at least half of the move classes (and two) lose it.
/// A move and its score.
type Scored = (Move, i32);

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
fn draw_candidates(rules: &Rules, seed: u64, n: usize) -> Vec<(Position, usize)> {
    use rayon::prelude::*;
    let bar = crate::progress::bar(n as u64, 0, "", "candidates drawn");
    let out: Vec<(Position, usize)> = (0..n as u64)
        .into_par_iter()
        .map_init(
            || Searcher::new(1, 1),
            |player, i| {
                bar.inc(1);
                draw_position(rules, seed, i, player).map(|(pos, _, plies)| (pos, plies))
            },
        )
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    out
}

/// The verdict of the searches on a candidate: screened at --screen-depth, decided at --depth,
/// confirmed by the learned evaluation with --confirm.
fn searched_verdict(
    searcher: &mut Searcher,
    pos: &Position,
    args: &CriticalArgs,
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

pub fn run_critical(args: CriticalArgs) -> Result<(), String> {
    let rules = crate::Rules::named(&args.variant).map_err(|e| e.to_string())?;
    let tables = open_tables(&args.variant, &rules, args.tables.clone(), false)?;
    let (drawn, source) = match args.draw {
        Some(n) => (
            draw_candidates(&rules, args.seed, n),
            // Not the count: the candidates of a smaller --draw are the first of a larger one, so
            // a run may resume with more.
            format!("drawn seed {}", args.seed),
        ),
        None => {
            let files = super::fit::label_files(&args.variant, &args.labels)?;
            let mut all = Vec::new();
            for f in &files {
                all.extend(
                    read_labels(f, &rules)?
                        .into_iter()
                        .map(|l| (l.pos, l.plies)),
                );
            }
            let names: Vec<String> = files
                .iter()
                .filter_map(|f| f.file_name()?.to_str().map(String::from))
                .collect();
            (all, format!("labels {}", names.join(",")))
        }
    };
    let mut seen = FxHashSet::default();
    let candidates: Vec<Position> = drawn
        .into_iter()
        .filter(|(pos, plies)| {
            (2..=16).contains(plies) && pos.is_placing() && seen.insert(fold(pos).key)
        })
        .map(|(pos, _)| pos)
        .collect();
    let exact = match &args.exact {
        Some(dir) => Some(
            crate::tables::Tables::open(dir, &rules)
                .map_err(|e| format!("endgame tables {}: {e}", dir.display()))?,
        ),
        None => None,
    };
    let (mut name, mut settings) = match &exact {
        Some(_) => (
            format!("critical-exact-n{}", args.exact_nodes),
            format!(
                "variant {} exact nodes {} threshold {}",
                args.variant, args.exact_nodes, args.threshold
            ),
        ),
        None => (
            format!("critical-d{}-s{}", args.depth, args.screen_depth),
            format!(
                "variant {} depth {} screen {} threshold {}",
                args.variant, args.depth, args.screen_depth, args.threshold
            ),
        ),
    };
    if args.gap > 0 {
        name += &format!("-g{}", args.gap);
        settings += &format!(" gap {}", args.gap);
    }
    if args.confirm {
        name += "-c";
        settings += " confirm";
    }
    if args.draw.is_some() {
        name += &format!("-r{}", args.seed);
    }
    settings += &format!(" {source}");
    let journal_path = super::cache_dir(&args.variant).join(format!("{name}.txt"));
    if let Some(dir) = journal_path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
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
    let found = AtomicUsize::new(done.values().filter(|v| v.is_some()).count());
    let todo: Vec<usize> = (0..candidates.len())
        .filter(|i| !done.contains_key(i))
        .collect();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    log::info!(
        "{} candidates ({} done before, {} critical); journal {}",
        candidates.len(),
        done.len(),
        found.load(Ordering::Relaxed),
        journal_path.display()
    );
    let bar = crate::progress::bar(
        args.count as u64,
        found.load(Ordering::Relaxed) as u64,
        "",
        "critical positions",
    );
    let journal = Mutex::new(journal);
    let results: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let searched = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(16, 1);
                searcher.options.tables = tables.clone();
                // The hand-written evaluation, so that the suite does not favour the learned
                // one it measures.
                searcher.options.learned = false;
                let mut memory = Memory::new(1 << 22);
                while !stop.load(Ordering::Relaxed) && found.load(Ordering::Relaxed) < args.count {
                    let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let pos = &candidates[index];
                    let verdict = match &exact {
                        Some(t) => exact_scores(t, &mut memory, pos, args.exact_nodes)
                            .and_then(|scores| judge(pos, &scores, args.threshold, args.gap)),
                        None => searched_verdict(&mut searcher, pos, &args),
                    };
                    let text = verdict.as_ref().map(Critical::line);
                    let mut j = journal
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    let line = format!("{index} {}", text.as_deref().unwrap_or("none"));
                    if let Err(e) = j.append(&line) {
                        stop.store(true, Ordering::Relaxed);
                        *failed
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.into());
                        break;
                    }
                    drop(j);
                    let n = searched.fetch_add(1, Ordering::Relaxed) + 1;
                    bar.set_message(format!("{n} searched"));
                    if let Some(t) = text {
                        found.fetch_add(1, Ordering::Relaxed);
                        bar.inc(1);
                        results
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push((index, t));
                    }
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
    let mut all: Vec<(usize, String)> = done
        .into_iter()
        .filter_map(|(i, t)| t.map(|t| (i, t)))
        .chain(
            results
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
        .collect();
    all.sort();
    all.truncate(args.count);
    if all.len() < args.count {
        return Err(format!(
            "only {} critical positions among the {} candidates (journal {}): label or draw more \
             positions and run again",
            all.len(),
            candidates.len(),
            journal_path.display()
        ));
    }
    let drawn = all.iter().filter(|(_, t)| t.starts_with("draw ")).count();
    let how = match &exact {
        Some(_) => "the exact value (win/draw/loss by the solver of the placing with the \
                    endgame tables; scores ±1000 and 0)"
            .to_string(),
        None => format!(
            "the value (win/draw/loss at ±{} cp) of a depth-{} search",
            args.threshold, args.depth
        ),
    };
    let mut text = format!(
        "# moulin critical positions, variant {}: {} positions ({drawn} drawn), placing phase \
         after 2 to 16 turns,\n# where one or two moves keep {how} and at least half the others \
         lose it.\n# Made by: {}\n# <value> <best score> <kept moves> <position string>\n",
        args.variant,
        all.len(),
        std::env::args().collect::<Vec<_>>().join(" ")
    );
    for (_, t) in &all {
        text.push_str(t);
        text.push('\n');
    }
    crate::durable::write_atomic(&args.out, text.as_bytes())?;
    eprintln!(
        "{} critical positions ({drawn} drawn) written to {}",
        all.len(),
        args.out.display()
    );
    Ok(())
}

/// The flags of `moulin train suite`.
#[derive(clap::Args, Debug, Clone)]
pub struct SuiteArgs {
    /// The engine, as `moulin match` takes it (e.g. "cmd=target/release/moulin").
    #[arg(long)]
    pub engine: String,
    /// The suite (`moulin train critical`).
    #[arg(long, default_value = "tests/data/critical-nine.txt")]
    pub suite: PathBuf,
    /// Rule preset of the suite.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Milliseconds a move.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: u64,
    /// Print each position whose value was lost.
    #[arg(long)]
    pub verbose: bool,
    /// Time allowed for the handshake, each isready and each answer beyond the move's time, in
    /// milliseconds (an engine loading every endgame table may need a minute when they are not
    /// in the file cache; at most an hour, 3600000).
    #[arg(long, value_name = "MS", default_value_t = 120_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub ready_timeout: u64,
    /// Judge by the truth instead of the labels: the exact solver of the placing with the
    /// endgame tables in this folder (every moving position: `moulin tables build --pieces 9`
    /// for nine) values each position and the move played. Positions whose label the solver
    /// contradicts (another value, or a "kept" move that does not keep it) are counted apart
    /// and listed with --verbose.
    #[arg(long, value_name = "TABLES")]
    pub exact: Option<PathBuf>,
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

/// `moulin train suite`: how many positions of a suite an engine keeps the value of.
pub fn run_suite(args: SuiteArgs) -> Result<(), String> {
    let rules = crate::Rules::named(&args.variant).map_err(|e| e.to_string())?;
    let suite = read_suite(&args.suite, &rules)?;
    let spec = EngineSpec::parse(&args.engine).map_err(|e| e.to_string())?;
    let timeout = Duration::from_millis(args.ready_timeout);
    let mut engine = Engine::start(&spec, &rules, timeout).map_err(|e| e.to_string())?;
    let bar = crate::progress::bar(suite.len() as u64, 0, "", "positions");
    let tables = match &args.exact {
        Some(dir) => Some(
            crate::tables::Tables::open(dir, &rules)
                .map_err(|e| format!("endgame tables {}: {e}", dir.display()))?,
        ),
        None => None,
    };
    let never = |_: u64| false;
    let mut memory = Memory::new(1 << 22);
    // Under --exact: positions whose label the solver contradicts, by exact value (and kept).
    let mut contradicted: FxHashMap<Value, (usize, usize)> = FxHashMap::default();
    let mut tally: FxHashMap<Value, (usize, usize)> = FxHashMap::default();
    for c in &suite {
        engine.new_game(timeout).map_err(|e| e.to_string())?;
        let answer = engine
            .go(
                &format!("position fen {}", fen::write(&c.pos)),
                &format!("go movetime {}", args.movetime),
                Duration::from_millis(args.movetime) + timeout,
            )
            .map_err(|e| e.to_string())?;
        let mut game = Game::from_position(c.pos);
        let played = game.play_tokens(answer.tokens.iter().map(String::as_str));
        let played = match (played, game.moves().first()) {
            (Ok(()), Some(&mv)) => Some(mv),
            _ => None,
        };
        let (value, kept, agrees) = match &tables {
            Some(t) => {
                let mut solver = Solver::new(t, &mut memory, &never);
                let truth = truth_of(&mut solver, c, played).ok_or_else(|| {
                    format!(
                        "the tables {} do not cover the end of {}",
                        args.exact
                            .as_ref()
                            .map_or(String::new(), |d| d.display().to_string()),
                        fen::write(&c.pos)
                    )
                })?;
                (truth.value, truth.kept, truth.label_agrees)
            }
            None => (c.value, played.is_some_and(|mv| c.keeps(mv)), true),
        };
        let entry = if agrees {
            tally.entry(value).or_default()
        } else {
            contradicted.entry(value).or_default()
        };
        entry.0 += 1;
        entry.1 += usize::from(kept);
        if args.verbose && (!kept || !agrees) {
            let what = match (agrees, kept) {
                (true, _) => "lost".to_string(),
                (false, k) => format!(
                    "label contradicted (exact: {}, the move played {})",
                    value.name(),
                    if k { "keeps it" } else { "loses it" }
                ),
            };
            bar.suspend(|| {
                eprintln!(
                    "{what}: played {} in: {}",
                    answer.tokens.join(" "),
                    c.line()
                );
            });
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    engine.quit();
    let total: usize = tally.values().map(|t| t.0).sum();
    let kept: usize = tally.values().map(|t| t.1).sum();
    println!(
        "kept {kept}/{total} ({:.1}%) at {} ms a move",
        100.0 * kept as f64 / total.max(1) as f64,
        args.movetime
    );
    for v in [Value::Win, Value::Draw, Value::Loss] {
        if let Some(&(n, k)) = tally.get(&v) {
            println!(
                "  {:<5} kept {k}/{n} ({:.1}%)",
                v.name(),
                100.0 * k as f64 / n.max(1) as f64
            );
        }
    }
    if tables.is_some() {
        let n: usize = contradicted.values().map(|t| t.0).sum();
        println!(
            "judged by the exact solver; {n} positions whose label it contradicts are left out \
             of the figures above"
        );
        for v in [Value::Win, Value::Draw, Value::Loss] {
            if let Some(&(n, k)) = contradicted.get(&v) {
                println!(
                    "  {n} exactly {}: the move played keeps it in {k}",
                    v.name()
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(pos: &Position, scores: &[(&str, i32)]) -> Vec<(Move, i32)> {
        scores
            .iter()
            .map(|&(t, s)| {
                let mut g = Game::from_position(*pos);
                (g.play_token(t).unwrap(), s)
            })
            .collect()
    }

    #[test]
    fn critical_means_few_moves_keep_and_most_lose() {
        let pos = Position::start(Rules::nine());
        let one = scored(
            &pos,
            &[("d6", 10), ("a7", -200), ("d7", -150), ("b6", -300)],
        );
        let c = judge(&pos, &one, 120, 0).expect("one move keeps the draw");
        assert_eq!((c.value, c.best, c.keep.len()), (Value::Draw, 10, 1));
        let many = scored(&pos, &[("d6", 10), ("a7", 5), ("d7", 0), ("b6", -300)]);
        assert!(judge(&pos, &many, 120, 0).is_none(), "three moves keep it");
        let even = scored(&pos, &[("d6", 10), ("a7", 5), ("d7", -200), ("b6", -300)]);
        assert!(judge(&pos, &even, 120, 0).is_some(), "two keep, two lose");
        let won = scored(&pos, &[("d6", 300), ("a7", 50), ("d7", 40)]);
        let c = judge(&pos, &won, 120, 0).unwrap();
        assert_eq!(c.value, Value::Win);
        // With a gap of 40: d6 keeps the draw clearly, a7 at -200 is clearly lost, but d7 at
        // -150 is only 30 beyond the boundary.
        assert!(judge(&pos, &one, 120, 40).is_none());
        let clear = scored(
            &pos,
            &[("d6", 10), ("a7", -200), ("d7", -170), ("b6", -300)],
        );
        assert!(judge(&pos, &clear, 120, 40).is_some());
        let near = scored(&pos, &[("d6", -100), ("a7", -200), ("d7", -170)]);
        assert!(
            judge(&pos, &near, 120, 40).is_none(),
            "the kept move is 20 above the boundary"
        );
    }

    #[test]
    fn a_move_symmetric_to_a_kept_one_keeps_it() {
        let pos = Position::start(Rules::nine());
        let c = Critical {
            pos,
            value: Value::Draw,
            best: 0,
            keep: scored(&pos, &[("d6", 0)])
                .into_iter()
                .map(|x| x.0)
                .collect(),
        };
        let moves = scored(&pos, &[("b4", 0), ("f4", 0), ("d2", 0), ("d7", 0)]);
        let kept: Vec<bool> = moves.iter().map(|&(m, _)| c.keeps(m)).collect();
        assert_eq!(kept, [true, true, true, false]);
    }

    #[test]
    fn suites_are_read_back_and_bad_lines_named() {
        let rules = Rules::nine();
        let pos = Position::start(rules);
        let c = Critical {
            pos,
            value: Value::Win,
            best: 250,
            keep: scored(&pos, &[("d6", 0), ("a7", 0)])
                .into_iter()
                .map(|x| x.0)
                .collect(),
        };
        let dir = std::env::temp_dir().join(format!("moulin-suite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("suite.txt");
        std::fs::write(&path, format!("# a suite\r\n{}\r\n", c.line())).unwrap();
        let read = read_suite(&path, &rules).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].line(), c.line());
        let bad = c.line().replace("d6,a7", "d6,z9");
        std::fs::write(&path, format!("# a suite\n{bad}\n")).unwrap();
        let err = read_suite(&path, &rules).unwrap_err();
        assert!(err.contains("suite.txt:2: kept move 'z9'"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn exact_critical_positions_and_exact_judging_of_a_suite() {
        use crate::search::exact::testing::{placing_positions, tables};
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let (mut critical, mut contradicted) = (0, 0);
        for pos in placing_positions(200, 41) {
            let scores = exact_scores(tables, &mut memory, &pos, u64::MAX).unwrap();
            // One entry per class of symmetric moves, each the solver's value, best first.
            let classes: FxHashSet<u64> = movegen::legal_moves(&pos, Convention::Turn)
                .into_iter()
                .map(|mv| child_key(&pos, mv))
                .collect();
            assert_eq!(scores.len(), classes.len());
            let mut solver = Solver::new(tables, &mut memory, &never);
            let truth = solver.value(&pos).unwrap();
            assert_eq!(scores[0].1, i32::from(truth) * EXACT_SCORE);
            for &(mv, score) in &scores {
                let v = solver.values_of_moves(&pos, &[mv]).unwrap()[0];
                assert_eq!(score, i32::from(v) * EXACT_SCORE);
            }
            let Some(c) = judge(&pos, &scores, 120, 40) else {
                continue;
            };
            critical += 1;
            assert!(c.keep.len() <= 2 && c.value != Value::Loss);
            let lost = scores.iter().filter(|s| s.1 < scores[0].1).count();
            assert!(2 * lost >= scores.len());
            // The suite's exact judge: the label agrees, a kept move keeps, a lost one does not.
            let mut solver = Solver::new(tables, &mut memory, &never);
            let lost_move = scores.last().unwrap().0;
            let t = truth_of(&mut solver, &c, Some(c.keep[0])).unwrap();
            assert!(t.label_agrees && t.kept && t.value == c.value);
            let t = truth_of(&mut solver, &c, Some(lost_move)).unwrap();
            assert!(t.label_agrees && !t.kept);
            assert!(!truth_of(&mut solver, &c, None).unwrap().kept);
            // A wrong label: the other value, or a lost move given as kept.
            let wrong = Critical {
                value: if c.value == Value::Win {
                    Value::Draw
                } else {
                    Value::Win
                },
                ..c.clone()
            };
            assert!(
                !truth_of(&mut solver, &wrong, Some(c.keep[0]))
                    .unwrap()
                    .label_agrees
            );
            let wrong = Critical {
                keep: vec![lost_move],
                ..c.clone()
            };
            let t = truth_of(&mut solver, &wrong, Some(c.keep[0])).unwrap();
            assert!(!t.label_agrees && t.kept);
            contradicted += 1;
        }
        assert!(critical >= 5, "{critical} critical positions of 200");
        assert_eq!(contradicted, critical);
        // Too few positions for the solver: passed over.
        let any = placing_positions(1, 5)[0];
        assert!(exact_scores(tables, &mut memory, &any, 10).is_none());
    }
}
