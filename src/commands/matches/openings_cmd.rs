//! `moulin openings`: makes a balanced opening book with any engine, or exactly with the solver
//! of the placing and the endgame tables (see `matches::balanced_openings`). With `--out`, each
//! score is journaled so that a stopped run resumes without searching again, and the file is
//! written whole or not at all.

use crate::commands::output::{out, Failure};
use crate::commands::progress::Bars;
use moulin::durable::{self, CommandFile, Journal};
use moulin::job_progress::Progress;
use moulin::matches::engines::engine_output::Score;
use moulin::matches::engines::live_engines;
use moulin::matches::games::balanced_openings::{self as balanced, EngineSearch, Scorer, Scoring};
use moulin::record::openings::Opening;
use moulin::rules::Rules;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

/// The flags of `moulin openings`.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// The engine that scores the openings (a spec, as for `moulin match`).
    #[arg(long, required_unless_present = "exact", conflicts_with = "exact")]
    pub engine: Option<String>,
    /// Instead of an engine, value each opening exactly with the solver of the placing and the
    /// endgame tables in this folder (which must cover every moving position: `moulin tables
    /// build --pieces 9` for nine), and keep the drawn ones. Minutes an opening of 3 turns.
    #[arg(long, value_name = "TABLES")]
    pub exact: Option<PathBuf>,
    /// Only the openings of this openings file (e.g. book/openings-nine.txt), each as its class
    /// under the board's symmetries, instead of every opening of --plies turns.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Only the first N openings (of --from's file, or of the enumeration): e.g. those a match
    /// of 2N games plays. The journal of a run with every opening serves this one, and back.
    #[arg(long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub first: Option<usize>,
    /// Solver threads for --exact (each solves one opening at a time); 1 to 64.
    #[arg(long, default_value_t = 1,
          value_parser = crate::commands::args::search_threads())]
    pub threads: usize,
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Turns in each opening (placements, with their removals if a mill closes; 1 to 6: the
    /// enumeration grows twentyfold with each turn).
    #[arg(long, default_value_t = 3,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=6))]
    pub plies: usize,
    /// Search depth given to the engine (`go depth D`; 1 to 64).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Keep openings whose score is within ±this many centipawns (mate scores are never kept;
    /// 0 to 10000).
    #[arg(long, value_name = "CP", default_value_t = 50,
          value_parser = clap::value_parser!(i32).range(0..=10_000))]
    pub margin: i32,
    /// Write the book here instead of stdout, whole or not at all (a temporary file renamed
    /// over it); never the --from file. Each finished search is journaled in <out>.partial: a
    /// run that is stopped resumes there when started again with the same engine, variant,
    /// plies and depth.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the file at --out even if it is not a book of openings.
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Time allowed for one search, in milliseconds (at most a day, 86400000).
    #[arg(long, value_name = "MS", default_value_t = 600_000,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub search_timeout: u64,
    /// Time allowed for the handshake and each isready, in milliseconds (at most an hour,
    /// 3600000).
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub ready_timeout: u64,
}

/// The openings to score: those of --from's file or of the enumeration, the first --first.
fn candidates(args: &OpeningsArgs, rules: &Rules) -> Result<Vec<Opening>, Failure> {
    let candidates = match &args.from {
        Some(file) => balanced::distinct_openings(file, rules)?,
        None => balanced::enumerate(rules, args.plies),
    };
    Ok(candidates
        .into_iter()
        .take(args.first.unwrap_or(usize::MAX))
        .collect())
}

/// What scores the openings: the solver (--exact) or the engine (--engine).
fn scoring(args: &OpeningsArgs, rules: &Rules) -> Result<Scoring, Failure> {
    let scorer = match (&args.exact, &args.engine) {
        (Some(dir), _) => balanced::exact_scorer(dir, rules)?,
        (None, Some(engine)) => balanced::engine_scorer(engine)?,
        (None, None) => return Err(Failure::usage("give --engine or --exact")),
    };
    Ok(Scoring {
        scorer,
        search: EngineSearch {
            depth: args.depth,
            ready: Duration::from_millis(args.ready_timeout),
            limit: Duration::from_millis(args.search_timeout),
        },
        threads: args.threads,
    })
}

/// The journal of a run with `--out`, and the scores already journaled by an interrupted run
/// with the same settings (the margin is applied to the scores at the end, so it may change).
fn journal(
    args: &OpeningsArgs,
    scorer: &Scorer,
) -> Result<(Option<Journal>, HashMap<String, Score>), Failure> {
    let Some(out) = &args.out else {
        return Ok((None, HashMap::new()));
    };
    let path = durable::with_suffix(out, ".partial");
    let source = match &args.from {
        Some(f) => format!("from {}", f.display()),
        None => format!("plies {}", args.plies),
    };
    let settings = match scorer {
        Scorer::Exact(_) => format!("variant {} {source} exact", args.variant),
        Scorer::Engine(_) => format!(
            "variant {} {source} depth {} engine {}",
            args.variant,
            args.depth,
            args.engine
                .as_deref()
                .unwrap_or("")
                .replace(['\n', '\r'], " ")
        ),
    };
    let (journal, scores) = balanced::open_journal(&path, &settings)?;
    if !scores.is_empty() {
        eprintln!("{}: {} searches resumed", path.display(), scores.len());
    }
    Ok((Some(journal), scores))
}

/// The book's header: what it holds and how it was made.
fn header(
    args: &OpeningsArgs,
    scorer: &Scorer,
    candidates: usize,
    sorted: &balanced::Sorted,
) -> String {
    let how = match scorer {
        Scorer::Exact(_) => {
            "exactly drawn (the solver of the placing with the endgame tables)".to_string()
        }
        Scorer::Engine(spec) => format!(
            "scored within ±{} cp for the side to move by {} at depth {}, and no mate",
            args.margin, spec.name, args.depth
        ),
    };
    let mut source = match &args.from {
        Some(f) => format!("the openings of {}", f.display()),
        None => format!("placement openings of {} turns", args.plies),
    };
    if let Some(n) = args.first {
        source = format!("the first {n} of {source}");
    }
    format!(
        "moulin opening book, variant {}: {source}, one per class of positions equal under the \
         board's 16 symmetries ({candidates} in all), kept when {how} ({} kept, {} better and {} \
         worse for the side to move left out). Format: book/README.md.",
        args.variant,
        sorted.kept.len(),
        sorted.won,
        sorted.lost
    )
}

/// What a book of openings begins with (`header`), as this command recognises its own output.
const OWN: durable::Own = durable::Own {
    magic: b"# moulin opening book,",
    name: "a book of openings",
};

/// Checks the files before any work: --out and its journal are neither --from nor the tables.
fn check_files(args: &OpeningsArgs) -> Result<(), Failure> {
    let Some(out) = &args.out else {
        return Ok(());
    };
    let journal = durable::with_suffix(out, ".partial");
    let mut files = vec![
        CommandFile::replaces_own("--out", out, OWN, args.force),
        CommandFile::writes("the journal of --out", &journal),
    ];
    if let Some(from) = &args.from {
        files.push(CommandFile::reads("--from", from));
    }
    if let Some(dir) = &args.exact {
        files.push(CommandFile::reads("--exact", dir));
    }
    Ok(durable::check_files(&files)?)
}

/// Runs `moulin openings`.
pub(crate) fn run(args: &OpeningsArgs) -> Result<(), Failure> {
    check_files(args)?;
    let rules = Rules::named(&args.variant)?;
    let candidates = candidates(args, &rules)?;
    log::info!(
        "{} placement openings, distinct under symmetry",
        candidates.len()
    );
    let scoring = scoring(args, &rules)?;
    let (mut journal, scores) = journal(args, &scoring.scorer)?;
    let mut results: Vec<Option<Score>> = candidates
        .iter()
        .map(|o| scores.get(&o.to_line()).copied())
        .collect();
    let bars = Bars::default();
    let done = results.iter().filter(|r| r.is_some()).count() as u64;
    bars.stage(candidates.len() as u64, done, "", "openings");
    // A helper that the engine daemonized (`setsid`) is adopted, and ended with the scoring.
    live_engines::adopt_orphans();
    let scored = balanced::score_all(
        &scoring,
        &candidates,
        &mut results,
        &rules,
        journal.as_mut(),
        &bars,
    );
    live_engines::end_orphans();
    scored?;
    bars.finish();
    let sorted = balanced::sort(&candidates, &results, args.margin)?;
    let header = header(args, &scoring.scorer, candidates.len(), &sorted);
    let exact = matches!(scoring.scorer, Scorer::Exact(_));
    let text = balanced::book_text(&header, &sorted.kept, exact);
    match &args.out {
        Some(path) => {
            // The journal goes only once the file is on disk.
            durable::write_atomic(path, text.as_bytes())?;
            journal.map_or(Ok(()), Journal::finish)?;
        }
        None => out!("{text}")?,
    }
    eprintln!(
        "{} of {} openings kept ({} better, {} worse for the side to move)",
        sorted.kept.len(),
        candidates.len(),
        sorted.won,
        sorted.lost
    );
    Ok(())
}
