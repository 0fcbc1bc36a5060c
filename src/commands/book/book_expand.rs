//! `moulin book expand`: grows a book along its main lines by drop-out expansion
//! (`book::expand`).

use crate::commands::failure::Failure;
use moulin::book::graph::DEFAULT_PLY_COST;
use moulin::book::{self, expand, format};
use moulin::durable::{self, CommandFile};
use std::path::PathBuf;

/// The flags of `moulin book expand`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExpandArgs {
    /// The book to expand (rewritten whole when the run ends).
    #[arg(default_value = "book/nine.book")]
    pub book: PathBuf,
    /// Positions to search in this run (the size budget; a resumed run counts what its journal
    /// holds).
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// What one ply of depth weighs against a drop, in centi-pieces (ω of drop-out expansion).
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_PLY_COST,
          value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub ply_cost: i32,
    /// The deepest ply a new entry may have (plies from the start, 1 to 40).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub max_ply: u32,
    /// Worker threads (each searches one position at a time); default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
          .range(1..=book::MAX_THREADS as u64))]
    pub threads: Option<usize>,
}

/// `moulin book expand`.
pub fn run_expand(args: ExpandArgs) -> Result<(), Failure> {
    let ExpandArgs {
        book: path,
        positions,
        ply_cost,
        max_ply,
        threads,
    } = args;
    let journal = durable::with_suffix(&path, ".expand.partial");
    durable::check_files(&[
        CommandFile::writes("the book", &path),
        CommandFile::writes("the journal of the book", &journal),
    ])?;
    let text = book::read_text(&path)?;
    let (header, lines) = format::parse(&text).map_err(|e| e.in_file(&path))?;
    let plan = expand::ExpandPlan {
        positions,
        ply_cost,
        max_ply,
        threads: book::default_threads(threads),
    };
    let note = expand::expand(
        &path,
        header,
        lines,
        plan,
        &crate::commands::progress::Bars::default(),
    )?;
    eprintln!("{note}");
    Ok(())
}
