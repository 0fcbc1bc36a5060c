//! `moulin book build`: makes a book by deep search (`book::two_trees`).

use crate::commands::failure::Failure;
use moulin::book::{self, two_trees};
use moulin::durable::{self, CommandFile};
use moulin::rules::Rules;
use std::path::PathBuf;

/// The flags of `moulin book build`.
#[derive(clap::Args, Debug, Clone)]
pub struct BuildArgs {
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Give book moves for the first N plies (positions after 0 to N-1 plies; 1 to 16).
    #[arg(long, default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=book::MAX_PLIES as i64))]
    pub plies: u32,
    /// Search depth (turns) of every search (1 to 20).
    #[arg(long, default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(1..=book::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Keep the moves within this many centi-pieces of the best (0 to 1000).
    #[arg(long, value_name = "CP", default_value_t = 10,
          value_parser = clap::value_parser!(i32).range(0..=book::MAX_MARGIN as i64))]
    pub margin: i32,
    /// Hash table of each search, in MB (part of what makes a search reproducible; 1 to 1024).
    #[arg(long, value_name = "MB", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=book::MAX_HASH_MB as i64))]
    pub hash: u32,
    /// Worker threads (each searches one position at a time; 1 to 256); default: every core.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
          .range(1..=book::MAX_THREADS as u64))]
    pub threads: Option<usize>,
    /// The book to write (default book/<variant>.book), whole or not at all (a temporary file
    /// renamed over it). An existing book there is extended; one that this build would not cover
    /// (other settings, fewer plies, or not a book) is refused unless --force. Finished entries
    /// are journaled in <out>.partial, which one build at a time holds (<out>.partial.lock): a
    /// stopped build resumes when run again with the same settings.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the book at --out even if this build does not cover it.
    #[arg(long)]
    pub force: bool,
}

/// `moulin book build`.
pub fn run_build(args: BuildArgs) -> Result<(), Failure> {
    let BuildArgs {
        variant,
        plies,
        depth,
        margin,
        hash,
        threads,
        out,
        force,
    } = args;
    let rules = Rules::named(&variant)?;
    let mut plan = two_trees::BuildPlan::new(rules, plies, depth, margin, hash);
    plan.threads = book::default_threads(threads);
    if let Some(out) = out {
        plan.out = out;
    }
    plan.force = force;
    let journal = durable::with_suffix(&plan.out, ".partial");
    durable::check_files(&[
        CommandFile::writes("--out", &plan.out),
        CommandFile::writes("the journal of --out", &journal),
    ])?;
    let built = two_trees::build(&plan, &crate::commands::progress::Bars::default())?;
    eprintln!(
        "{}: {} positions ({} searched in {:.0} s)",
        plan.out.display(),
        built.positions,
        built.searched,
        built.seconds
    );
    Ok(())
}
