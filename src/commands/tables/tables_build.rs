//! `moulin tables build`: every pair up to N pieces a side, or one pair, into a tables
//! directory, resuming where a stopped build was; a build of several pairs shows the whole's
//! progress (pairs and positions done, the time left) beside the pair's.

use super::tables_shared::{parse_pair, pool, table_rules};
use crate::commands::failure::{Context, Failure};
use crate::commands::progress::{Bars, Overall};
use moulin::rules::Rules;
use moulin::tables::schedule::{self, Store};
use moulin::tables::{default_dir, MAX_PIECES};
use std::path::PathBuf;
use std::time::Instant;

/// The arguments of `moulin tables build`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "What the standard game's whole build costs on a 2-core machine with 24 GB \
(docs/endgame-tables.md, \"What it costs\", 2026-12-08): the moving tables (--pieces 9) about \
1 h 3 min, peak resident 9.0 GB, 2.0 GB of disk at the end, 4.6 GB at most (each table kept \
packed; --files keeps each in its own file, 11.9 GB); the placing (--placing) about 41 min, \
peak resident 4.9 GB, 4.7 GB more. The build states the \
disk it still needs beside what is free, and does not start when it is short (--skip-disk-check \
to start anyway). A stopped build resumes where it was: a pair from the state it keeps every 15 \
minutes (.<a>-<b>.resume in the directory), a placing group from its start."
)]
pub struct BuildArgs {
    /// Build every pair with 3 to N pieces a side (3 to 9).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=i64::from(MAX_PIECES)))]
    pub pieces: Option<u8>,
    /// Build one pair `W-B` (with its mirror `B-W`) once the pairs it depends on exist.
    #[arg(long)]
    pub pair: Option<String>,
    /// Solve the placing phase: every placing position of the game, by backward induction from
    /// the moving tables (which must all be built in the directory), into its `placing` folder.
    /// Resumes where a stopped build was (see docs/endgame-tables.md, "The placing solution").
    /// With --pieces N: the game of N pieces a side (the moving tables up to N must be built).
    #[arg(long, conflicts_with = "pair")]
    pub placing: bool,
    /// With --placing: solve one group `L-M-O` only (placements left, pieces on the board of the
    /// side to move and of the other side) once the groups after it are built; a task of a
    /// cluster's plan (`tables plan --placing --slurm` lists the groups). A group already built
    /// and sound is left as it is.
    #[arg(long, requires = "placing")]
    pub group: Option<String>,
    /// The tables directory (default: ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Rule preset: nine, twelve, lasker, morabaraba, protected-mills (not no-reform).
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Keep each finished moving table in its own file (`<m>-<o>.tbl`, the standard game's 11.9
    /// GB) instead of packed in the directory's `compact` folder (about a fifth of the bytes,
    /// unpacked in memory by the pairs and the placing groups that read it).
    #[arg(long)]
    pub files: bool,
    /// Start even when the disk has less free space than the build is estimated to need.
    #[arg(long)]
    pub skip_disk_check: bool,
}

/// Says the disk the build needs in `dir` (`needed` bytes, an estimate) beside what is free,
/// and refuses to start when it is short, unless told to skip the check.
fn check_disk(dir: &std::path::Path, needed: u64, skip: bool) -> Result<(), Failure> {
    let free = moulin::durable::free_bytes(dir)
        .with_context(|| format!("cannot read the free space of {}", dir.display()))?;
    let gb = |b: u64| b as f64 / 1e9;
    eprintln!(
        "disk: about {:.1} GB still to write in {}, {:.1} GB free",
        gb(needed),
        dir.display(),
        gb(free)
    );
    if !skip {
        schedule::enough_disk(dir, needed, free)?;
    }
    Ok(())
}

/// Runs `moulin tables build`.
pub(super) fn run(args: &BuildArgs) -> Result<(), Failure> {
    let rules = table_rules(&args.variant)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    if args.placing {
        let mut rules = rules;
        if let Some(n) = args.pieces {
            rules.pieces = n;
        }
        if args.group.is_none() {
            let needed = moulin::tables::placing_build::Build::disk_needed(&dir, &rules);
            check_disk(&dir, needed, args.skip_disk_check)?;
        }
        return match &args.group {
            Some(group) => build_placing_group(&dir, &rules, args.threads, group),
            None => build_placing(&dir, &rules, args.threads),
        };
    }
    let todo: Vec<(usize, usize)> = match (&args.pair, args.pieces) {
        (Some(p), None) => vec![parse_pair(p)?],
        (None, Some(n)) => schedule::groups(n as usize),
        _ => return Err(Failure::usage("give --pieces N, or --pair W-B")),
    };
    let largest = todo.iter().map(|&(_, b)| b).max().unwrap_or(3);
    let pool = pool(args.threads)?;
    let mut store = Store::new(&dir, &rules, largest).keep_packed(!args.files);
    let needed = store.disk_needed(&todo);
    let started = Instant::now();
    if todo.len() > 1 {
        // A build of several pairs shows the whole too: a bar above the pair's, and its
        // figures on each pair's line (all that a log gets).
        let total: u64 = todo
            .iter()
            .map(|&(a, b)| schedule::group_size(store.tables().classes(), a, b))
            .sum();
        eprintln!(
            "tables in {}: {} pairs, {total} positions",
            dir.display(),
            todo.len()
        );
        check_disk(&dir, needed, args.skip_disk_check)?;
        let overall = Overall::new(todo.len() as u64, total, "pairs", "positions");
        pool.install(|| store.build(&todo, &overall))?;
        overall.finish();
    } else {
        check_disk(&dir, needed, args.skip_disk_check)?;
        pool.install(|| store.build(&todo, &Bars::default()))?;
    }
    eprintln!(
        "tables in {}: done in {:.1} s",
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds the placing solution into `dir`'s placing folder, group by group, with a progress bar
/// over all positions; prints each group's cost.
fn build_placing(
    dir: &std::path::Path,
    rules: &Rules,
    threads: Option<u16>,
) -> Result<(), Failure> {
    use moulin::tables::placing_build::{Build, Step};
    let pool = pool(threads)?;
    let started = Instant::now();
    eprintln!("reading the moving tables of {} ...", dir.display());
    let mut build = pool.install(|| Build::new(dir, rules))?;
    let groups = build.groups();
    let total: u64 = groups.iter().map(|&g| Build::size(g)).sum();
    eprintln!(
        "placing solution: {} groups, {total} positions, into {}",
        groups.len(),
        build.folder().display()
    );
    let bar = crate::commands::progress::bar(total, 0, "placing ", "positions");
    for g in groups {
        bar.set_message(format!("(group {g})"));
        let step = pool.install(|| build.step(g))?;
        let size = Build::size(g);
        match step {
            Step::Kept => {}
            Step::Redone(e) => bar.suspend(|| eprintln!("{g}: {e} (solved again)")),
            Step::Solved(secs) => bar.suspend(|| eprintln!("{g}: {size} positions in {secs:.1} s")),
        }
        bar.inc(size);
    }
    bar.finish_and_clear();
    eprintln!(
        "placing solution in {}: done in {:.1} s",
        build.folder().display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds one group of the placing solution into `dir`'s placing folder (the groups after it
/// must be built; the moving tables are read only for the last placement).
fn build_placing_group(
    dir: &std::path::Path,
    rules: &Rules,
    threads: Option<u16>,
    text: &str,
) -> Result<(), Failure> {
    use moulin::tables::groups::{self, Group};
    use moulin::tables::placing_build::{Build, Step};
    let group = Group::parse(text)
        .filter(|g| groups::all(rules).contains(g))
        .ok_or_else(|| {
            format!(
                "--group {}: not a group of the {}-piece game (L-M-O: placements left, pieces on \
                 the board of the side to move and of the other side; `moulin tables plan \
                 --placing --slurm` lists them)",
                moulin::text::quoted(text),
                rules.pieces
            )
        })?;
    let pool = pool(threads)?;
    let mut build = pool.install(|| {
        if group.left == 1 {
            Build::new(dir, rules)
        } else {
            Build::without_moving(dir, rules)
        }
    })?;
    let size = Build::size(group);
    match pool.install(|| build.step(group))? {
        Step::Kept => eprintln!("{group}: already built (checked)"),
        Step::Redone(e) => eprintln!("{group}: {e} (solved again): {size} positions"),
        Step::Solved(secs) => eprintln!("{group}: {size} positions in {secs:.1} s"),
    }
    Ok(())
}
