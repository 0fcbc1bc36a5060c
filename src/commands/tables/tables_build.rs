//! `moulin tables build`: every pair up to N pieces a side, or one pair, into a tables
//! directory, resuming where a stopped build was; a build of several pairs shows the whole's
//! progress (pairs and positions done, the time left) beside the pair's.

use super::tables_shared::{parse_pair, pool, table_rules};
use crate::commands::failure::{Context, Failure};
use crate::commands::progress::Overall;
use moulin::rules::Rules;
use moulin::tables::schedule::{self, Store};
use moulin::tables::{default_dir, TablesError, MAX_PIECES};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The arguments of `moulin tables build`.
#[derive(clap::Args, Debug)]
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
    let mut store = Store::new(&dir, &rules, largest);
    let sizes: Vec<u64> = todo
        .iter()
        .map(|&(a, b)| schedule::group_size(store.tables().classes(), a, b))
        .collect();
    let total: u64 = sizes.iter().sum();
    // A build of several pairs shows the whole too: a bar above the pair's, and its figures on
    // each pair's line (all that a log gets).
    let overall = (todo.len() > 1).then(|| {
        eprintln!(
            "tables in {}: {} pairs, {total} positions",
            dir.display(),
            todo.len()
        );
        Overall::new(todo.len() as u64, total, "pairs", "positions")
    });
    let say = |line: String| match &overall {
        Some(o) => o.line(&format!("{line}; {}", o.figures())),
        None => eprintln!("{line}"),
    };
    let started = Instant::now();
    for (i, (&(a, b), &size)) in todo.iter().zip(&sizes).enumerate() {
        match store.check_built(a, b) {
            Ok(()) => {
                if let Some(o) = &overall {
                    o.resumed(size);
                }
                say(format!("{a}-{b}: already built (checked)"));
                continue;
            }
            Err(TablesError::NotBuilt { .. }) => {}
            Err(e) => say(format!("{a}-{b}: {e} (building it again now)")),
        }
        let secs = build_group(&mut store, &pool, (a, b), overall.as_ref())?;
        if let Some(o) = &overall {
            o.part_done();
        }
        say(format!("{a}-{b}: {size} positions in {secs:.1} s"));
        // Keep in memory only what the groups still to build need.
        store.keep_for(&todo[i + 1..]);
    }
    if let Some(o) = &overall {
        o.finish();
    }
    eprintln!(
        "tables in {}: done in {:.1} s",
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds group `(a, b)` into the store's directory with a progress bar (under the whole's,
/// if any), logs its cost, and loads its tables back, mapped; its seconds.
fn build_group(
    store: &mut Store,
    pool: &rayon::ThreadPool,
    (a, b): (usize, usize),
    overall: Option<&Overall>,
) -> Result<f64, Failure> {
    store.load_dependencies(a, b)?;
    let slots = schedule::group_size(store.tables().classes(), a, b);
    let prefix = format!("{a}-{b} ");
    let bar = match overall {
        Some(o) => o.part(slots, &prefix, "positions"),
        None => crate::commands::progress::bar(slots, 0, &prefix, "positions"),
    };
    let t = Instant::now();
    let levels = AtomicU64::new(0);
    let progress = |n: u64| {
        if n == 0 {
            let l = levels.fetch_add(1, Ordering::Relaxed);
            if l.is_multiple_of(64) {
                bar.set_message("(proving)");
            }
        } else {
            bar.inc(n);
            if let Some(o) = overall {
                o.inc(n);
            }
        }
    };
    let solved = pool.install(|| store.solve(a, b, &progress))?;
    bar.finish_and_clear();
    // One table at a time, and then read back mapped: the build keeps no copy of its own (the
    // groups still to build read them through the file cache, as the engine does).
    store.write(a, b, solved)?;
    let secs = t.elapsed().as_secs_f64();
    store.log_cost(a, b, slots, secs);
    store.load_group(a, b)?;
    Ok(secs)
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
