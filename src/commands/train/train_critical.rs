//! `moulin train critical`: finds placing positions where one or two moves keep the value and
//! most others lose it, and writes them as a suite (`train::critical`).

use crate::commands::failure::{Context, Failure};
use moulin::durable::{self, CommandFile};
use moulin::train::critical::{self, CriticalPlan};
use moulin::train::{fit, label};
use std::path::PathBuf;

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
    /// Replace the file at --out even if it is not a suite of critical positions.
    #[arg(long)]
    pub force: bool,
}

/// `moulin train critical`.
pub fn run_critical(args: &CriticalArgs) -> Result<(), Failure> {
    let rules = moulin::Rules::named(&args.variant)?;
    let labels = match args.draw {
        Some(_) => Vec::new(),
        None => fit::label_files(&args.variant, &args.labels)?,
    };
    let mut files = vec![CommandFile::replaces_own(
        "--out",
        &args.out,
        critical::OWN,
        args.force,
    )];
    files.extend(labels.iter().map(|f| CommandFile::reads("--labels", f)));
    files.extend(
        args.tables
            .iter()
            .map(|d| CommandFile::reads("--tables", d)),
    );
    files.extend(args.exact.iter().map(|d| CommandFile::reads("--exact", d)));
    durable::check_files(&files)?;
    let tables = label::open_tables(&args.variant, &rules, args.tables.clone(), false)?;
    let (drawn, source) = if let Some(n) = args.draw {
        critical::drawn_candidates(
            &rules,
            args.seed,
            n,
            &crate::commands::progress::Bars::default(),
        )
    } else {
        critical::labelled_candidates(&labels, &rules)?
    };
    let exact = match &args.exact {
        Some(dir) => Some(
            moulin::tables::Tables::open(dir, &rules)
                .with_context(|| format!("endgame tables {}", dir.display()))?,
        ),
        None => None,
    };
    let plan = CriticalPlan {
        variant: args.variant.clone(),
        drawn: args.draw.map(|_| args.seed),
        confirm: args.confirm,
        depth: args.depth,
        screen_depth: args.screen_depth,
        threshold: args.threshold,
        gap: args.gap,
        count: args.count,
        threads: args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        }),
        exact_nodes: args.exact_nodes,
    };
    let found = critical::find(
        &plan,
        drawn,
        &source,
        tables.as_ref(),
        exact.as_ref(),
        &crate::commands::progress::Bars::default(),
    )?;
    let text = critical::suite_text(&plan, &found.lines, exact.is_some());
    durable::write_atomic(&args.out, text.as_bytes())?;
    eprintln!(
        "{} critical positions ({} drawn) written to {}",
        found.lines.len(),
        found
            .lines
            .iter()
            .filter(|t| t.starts_with("draw "))
            .count(),
        args.out.display()
    );
    Ok(())
}
