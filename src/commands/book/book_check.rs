//! `moulin book check`: checks a book (`book::check`), and on request its entries against fresh
//! searches and the positions it leaves against deeper searches or exact values.

use crate::commands::failure::{Context, Failure};
use crate::commands::output::outln;
use moulin::book::check::{self, ExitReport};
use moulin::book::{self, format, TextError};
use std::path::{Path, PathBuf};

/// The flags of `moulin book check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The book file.
    pub file: PathBuf,
    /// Also search this many entries again (spread over the book) and compare.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub search: usize,
    /// Also search the first N positions the book leaves along its main lines (lowest drop-out
    /// priority first, as `book expand` ranks them) deeper than the book did, and compare their
    /// values with the book's: fails when the search finds one worse by a whole value class for
    /// the side whose book move led there.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub exits: usize,
    /// Depth of the exit searches (default: the book's depth plus 4).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub exit_depth: Option<u32>,
    /// Value classes of the exit check: a score at or beyond ± this is a win or a loss, a draw
    /// in between.
    #[arg(long, value_name = "CP", default_value_t = 120,
          value_parser = clap::value_parser!(i32).range(1..=5000))]
    pub threshold: i32,
    /// Value the exits exactly instead of searching them: the exact solver of the placing and
    /// the endgame tables in this folder (which must cover every moving position: `moulin
    /// tables build --pieces 9` for nine); a win counts as 1000 cp, a loss as -1000, a draw 0.
    #[arg(long, value_name = "TABLES", requires = "exits")]
    pub exact: Option<PathBuf>,
    /// Worker threads of the exit searches; default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
          .range(1..=book::MAX_THREADS as u64))]
    pub threads: Option<usize>,
}

/// `moulin book check`.
pub fn run_check(args: &CheckArgs) -> Result<(), Failure> {
    let text = book::read_text(&args.file)?;
    let report = check::check_text(&text, args.search).map_err(|e| e.in_file(&args.file))?;
    outln!(
        "{}: ok, {}, {}{}",
        args.file.display(),
        moulin::text::count(report.positions, "position", "positions"),
        moulin::text::count(report.moves, "move", "moves"),
        if report.searched > 0 {
            let entries = moulin::text::count(report.searched, "entry agrees", "entries agree");
            format!(", {entries} with a fresh search")
        } else {
            String::new()
        }
    )?;
    if args.exits == 0 {
        return Ok(());
    }
    let exits = match &args.exact {
        Some(dir) => exact_exits(args, &text, dir)?,
        None => searched_exits(args, &text)?,
    };
    if exits.worse.is_empty() {
        return Ok(());
    }
    Err(worse_text(args, &exits).into())
}

/// The exits valued exactly, with the tables in `dir`, and their summary printed.
fn exact_exits(args: &CheckArgs, text: &str, dir: &Path) -> Result<ExitReport, Failure> {
    let in_file = |e: TextError| e.in_file(&args.file);
    let rules = format::parse(text)
        .map_err(in_file)?
        .0
        .rules()
        .map_err(in_file)?;
    let tables = moulin::tables::Tables::open(dir, &rules)
        .with_context(|| format!("endgame tables {}", dir.display()))?;
    let (exits, uncovered) =
        check::check_exits_exact(text, args.exits, args.threshold, &tables).map_err(in_file)?;
    outln!(
        "exits: {} positions the book leaves valued exactly ({uncovered} more not \
         decided by the tables): {} in the book's value class (±{} cp), {} better and \
         {} worse for the side whose book move led there",
        exits.searched,
        exits.same_class,
        args.threshold,
        exits.better,
        exits.worse.len()
    )?;
    Ok(exits)
}

/// The exits searched deeper, and their summary printed.
fn searched_exits(args: &CheckArgs, text: &str) -> Result<ExitReport, Failure> {
    let threads = book::default_threads(args.threads);
    let exits = check::check_exits(
        text,
        args.exits,
        args.exit_depth,
        args.threshold,
        threads,
        &crate::commands::progress::Bars::default(),
    )
    .map_err(|e| e.in_file(&args.file))?;
    outln!(
        "exits: {} positions the book leaves searched at depth {}: mean difference \
         {:.1} cp, {} within the margin, {} in the book's value class (±{} cp), {} \
         better and {} worse for the side whose book move led there",
        exits.searched,
        exits.depth,
        exits.mean_difference,
        exits.within_margin,
        exits.same_class,
        args.threshold,
        exits.better,
        exits.worse.len()
    )?;
    Ok(exits)
}

/// The error naming the exits worse than the book says (the first 20).
fn worse_text(args: &CheckArgs, exits: &ExitReport) -> String {
    let how = match exits.depth {
        0 => "exactly".to_string(),
        d => format!("at depth {d}"),
    };
    let mut text = format!(
        "{}: {} positions the book leaves are worse by a value class {how} than the book says \
         (ply, book score, deeper value, position):",
        args.file.display(),
        exits.worse.len(),
    );
    for (ply, pos, book, deep) in exits.worse.iter().take(20) {
        text += &format!("\n  {ply} {book} {deep} {}", moulin::rules::fen::write(pos));
    }
    text
}
