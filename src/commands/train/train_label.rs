//! `moulin train label`: draws placing-phase positions (or takes those of games) and labels each
//! with a deep search's score or its exact value (`train::label`).

use crate::commands::failure::{Context, Failure};
use moulin::durable::{self, CommandFile};
use moulin::train::label::{self, LabelPlan, Phase};
use std::path::PathBuf;

/// The flags of `moulin train label`.
#[derive(clap::Args, Debug, Clone)]
pub struct LabelArgs {
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Positions to label in all (a run that stopped resumes; a larger count extends it).
    #[arg(long, default_value_t = 20000)]
    pub positions: usize,
    /// Depth (turns) of each labelling search (1 to 30); match play at 100 ms a move reaches
    /// about 9 in the placing phase.
    #[arg(long, default_value_t = 13,
          value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Seed of the positions drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hash table of each search, in MB (1 to 1024).
    #[arg(long, value_name = "MB", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub hash: u32,
    /// Worker threads (each searches one position at a time); default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub threads: Option<usize>,
    /// Endgame tables to probe (default: ~/.cache/moulin/tables/<variant>, when it holds any).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Do not probe endgame tables.
    #[arg(long, conflicts_with = "tables")]
    pub no_tables: bool,
    /// Label the placing positions of these games (match records or PGN-shaped records, e.g.
    /// of `moulin match`) instead of drawn ones: every position after 2 turns or more while
    /// pieces are in hand, one per class of positions equal under the board's symmetries, in the
    /// files' order (the first --positions of them).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub games: Vec<PathBuf>,
    /// With --games: take instead the positions of the first TURNS turns of the moving phase
    /// (1 to 200) in which neither side flies, the data of the learned moving correction.
    #[arg(long, value_name = "TURNS", requires = "games",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=200))]
    pub moving: Option<usize>,
    /// Label each position with its exact value instead of a search's score: a win +1500 cp
    /// (what `train fit` counts a win as), a draw 0, a loss -1500, by the exact solver of the
    /// placing with the endgame tables (--tables, or the default directory; they must cover
    /// every moving position: `moulin tables build --pieces 9` for nine), or by the tables
    /// themselves in the moving phase. A position not valued within --exact-nodes positions is
    /// journaled as `unsolved` and left out of the fit. The journal's header names depth 99, so
    /// that `train fit` prefers these labels to any search's.
    #[arg(long, conflicts_with_all = ["no_tables", "moving"])]
    pub exact: bool,
    /// With --exact: the most positions the solver may visit for one label.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 4_000_000,
        requires = "exact"
    )]
    pub exact_nodes: u64,
    /// The journal to write (default: ~/.cache/moulin/train/<variant>/labels-d<depth>-s<seed>.txt,
    /// labels-d<depth>-games.txt with --games, labels-d<depth>-games-moving.txt with --moving;
    /// with --exact, labels-exact-s<seed>.txt or labels-exact-games.txt).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `moulin train label`.
pub fn run_label(args: &LabelArgs) -> Result<(), Failure> {
    let out = args.out.clone().unwrap_or_else(|| {
        moulin::train::cache_dir(&args.variant).join(journal_name(args, !args.games.is_empty()))
    });
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut files = vec![CommandFile::writes("--out", &out)];
    files.extend(args.games.iter().map(|g| CommandFile::reads("--games", g)));
    if let Some(dir) = &args.tables {
        files.push(CommandFile::reads("--tables", dir));
    }
    durable::check_files(&files)?;
    let rules = moulin::Rules::named(&args.variant)?;
    let tables = label::open_tables(&args.variant, &rules, args.tables.clone(), args.no_tables)?;
    let games = if args.games.is_empty() {
        None
    } else {
        let phase = args.moving.map_or(Phase::Placing, Phase::Moving);
        Some(label::read_games(&args.games, &rules, phase)?)
    };
    let positions = games
        .as_ref()
        .map_or(args.positions, |g| g.len().min(args.positions));
    let plan = LabelPlan {
        variant: args.variant.clone(),
        rules,
        positions,
        depth: args.depth,
        seed: args.seed,
        hash_mb: args.hash,
        threads: args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        }),
        tables,
        games,
        exact_nodes: args.exact.then_some(args.exact_nodes),
    };
    label::label_all(&plan, &out, &crate::commands::progress::Bars::default())?;
    eprintln!(
        "{} labelled in {}",
        moulin::text::count(positions, "position", "positions"),
        out.display()
    );
    Ok(())
}

/// The default journal's file name, under the variant's cache directory.
fn journal_name(args: &LabelArgs, from_games: bool) -> String {
    if args.exact && from_games {
        "labels-exact-games.txt".to_string()
    } else if args.exact {
        format!("labels-exact-s{}.txt", args.seed)
    } else if from_games && args.moving.is_some() {
        format!("labels-d{}-games-moving.txt", args.depth)
    } else if from_games {
        format!("labels-d{}-games.txt", args.depth)
    } else {
        format!("labels-d{}-s{}.txt", args.depth, args.seed)
    }
}
