//! `moulin train suite`: measures an engine on a critical-position suite
//! (`train::critical::measure_suite`).

use crate::commands::failure::{Context, Failure};
use crate::commands::output::outln;
use moulin::matches::engines::engine_process::EngineProcess;
use moulin::matches::engines::spec::EngineSpec;
use moulin::train::critical::{self, Measure, SuiteTally, Value};
use std::path::PathBuf;
use std::time::Duration;

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

/// `moulin train suite`: how many positions of a suite an engine keeps the value of.
pub fn run_suite(args: &SuiteArgs) -> Result<(), Failure> {
    let rules = moulin::Rules::named(&args.variant)?;
    let suite = critical::read_suite(&args.suite, &rules)?;
    let spec = EngineSpec::parse_unbounded(&args.engine, "moulin train suite")?;
    let timeout = Duration::from_millis(args.ready_timeout);
    let mut engine = EngineProcess::start(&spec, &rules, timeout)?;
    let tables = match &args.exact {
        Some(dir) => Some(
            moulin::tables::Tables::open(dir, &rules)
                .with_context(|| format!("endgame tables {}", dir.display()))?,
        ),
        None => None,
    };
    let how = Measure {
        movetime: args.movetime,
        timeout,
        exact: tables.as_ref().zip(args.exact.as_deref()),
        verbose: args.verbose,
    };
    let tally = critical::measure_suite(
        &suite,
        &mut engine,
        &how,
        &crate::commands::progress::Bars::default(),
    )?;
    engine.quit();
    print_tally(args, &tally, tables.is_some())
}

/// Prints what the engine kept, by value, and under the exact solver the positions left out.
fn print_tally(args: &SuiteArgs, t: &SuiteTally, exact: bool) -> Result<(), Failure> {
    let total: usize = t.tally.values().map(|t| t.0).sum();
    let kept: usize = t.tally.values().map(|t| t.1).sum();
    outln!(
        "kept {kept}/{total} ({:.1}%) at {} ms a move",
        100.0 * kept as f64 / total.max(1) as f64,
        args.movetime
    )?;
    for v in [Value::Win, Value::Draw, Value::Loss] {
        if let Some(&(n, k)) = t.tally.get(&v) {
            outln!(
                "  {:<5} kept {k}/{n} ({:.1}%)",
                v.name(),
                100.0 * k as f64 / n.max(1) as f64
            )?;
        }
    }
    if exact {
        let n: usize = t.contradicted.values().map(|t| t.0).sum();
        outln!(
            "judged by the exact solver; {} whose label it contradicts left out of the \
             figures above",
            moulin::text::count(n, "position", "positions")
        )?;
        for v in [Value::Win, Value::Draw, Value::Loss] {
            if let Some(&(n, k)) = t.contradicted.get(&v) {
                outln!(
                    "  {n} exactly {}: the move played keeps it in {k}",
                    v.name()
                )?;
            }
        }
    }
    Ok(())
}
