//! What the `moulin tables` subcommands share: the rules of a preset the tables serve, a pair
//! read from the command line, the threads' pool, a built directory's arguments and files.

use crate::commands::failure::{Context, Failure};
use moulin::rules::Rules;
use moulin::tables::{default_dir, file, fingerprint, unsupported, MAX_PIECES};
use std::path::PathBuf;

/// The rules of a preset, without draw rules, refused when tables cannot serve them.
pub(super) fn table_rules(variant: &str) -> Result<Rules, Failure> {
    let rules = Rules::named(variant).usage()?;
    match unsupported(&rules) {
        Some(why) => Err(Failure::usage(format!("variant {variant}: {why}"))),
        None => Ok(rules.without_draw_rules()),
    }
}

/// Parses `W-B`, as the group `(a, b)` with `a <= b`.
pub(super) fn parse_pair(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || {
        Failure::usage(format!(
            "--pair '{text}': expected W-B with 3 to {MAX_PIECES} pieces a side"
        ))
    };
    let (w, b) = text.split_once('-').ok_or_else(bad)?;
    let (w, b) = (
        w.parse::<usize>().map_err(|_| bad())?,
        b.parse::<usize>().map_err(|_| bad())?,
    );
    if !(3..=MAX_PIECES as usize).contains(&w) || !(3..=MAX_PIECES as usize).contains(&b) {
        return Err(bad());
    }
    Ok((w.min(b), w.max(b)))
}

/// A pool of `threads` threads (default: one per core).
pub(super) fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, Failure> {
    moulin::parallel::pool(threads.map(usize::from), None).context("cannot start the threads")
}

/// The arguments of the commands that read a built tables directory.
#[derive(clap::Args, Debug)]
pub struct DirArgs {
    /// The tables directory (default: ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Rule preset the tables were built for.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// The rules, directory, fingerprint and table files `DirArgs` name.
pub(super) struct TableFiles {
    /// The rules of the preset, without draw rules.
    pub rules: Rules,
    /// The tables directory.
    pub dir: PathBuf,
    /// The fingerprint of the rules.
    pub print: u64,
    /// The table files, as (mover, other, path), in order of pieces.
    pub list: Vec<(usize, usize, PathBuf)>,
}

/// The table files `args` name; a directory without tables is an error.
pub(super) fn table_files(args: &DirArgs) -> Result<TableFiles, Failure> {
    let rules = table_rules(&args.variant)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    if moulin::tables::pack::is_set(&dir) {
        return Err(format!(
            "{} is a packed set: this command reads the tables `moulin tables build` writes \
             (`moulin tables verify --dir` checks a set)",
            dir.display()
        )
        .into());
    }
    let list = file::list(&dir)?;
    if list.is_empty() {
        return Err(format!("no tables in {}", dir.display()).into());
    }
    Ok(TableFiles {
        rules,
        print: fingerprint(&rules),
        dir,
        list,
    })
}
