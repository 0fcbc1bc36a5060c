//! The `moulin tables` commands: `build` (every pair up to N pieces a side, or one pair, resuming
//! where a stopped build was), `stats` (the tally of each table), `verify` (every stored value
//! against its successors) and `plan` (a Slurm job array for the same build).

use super::file;
use super::index::{Classes, PairIndex};
use super::solve::{self, Successor};
use super::{fingerprint, unsupported, Tables, Value, Values};
use crate::rules::Rules;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The most pieces a side the tables go to (the standard game's nine).
pub const MAX_PIECES: u8 = 9;

/// The default directory of the tables of a variant: `$XDG_CACHE_HOME/moulin/tables/<variant>`,
/// or `~/.cache/moulin/tables/<variant>`.
pub fn default_dir(variant: &str) -> PathBuf {
    cache_root().join("tables").join(variant)
}

/// Where moulin keeps its large outputs: `$XDG_CACHE_HOME/moulin`, or `~/.cache/moulin`.
pub fn cache_root() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("moulin")
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Build every pair with 3 to N pieces a side (3 to 9).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=MAX_PIECES as i64))]
    pub pieces: Option<u8>,
    /// Build one pair `W-B` (with its mirror `B-W`) once the pairs it depends on exist.
    #[arg(long)]
    pub pair: Option<String>,
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

/// The rules of a preset, refused when tables cannot serve them.
fn rules_of(variant: &str) -> Result<Rules, String> {
    let rules = Rules::named(variant).map_err(|e| e.to_string())?;
    match unsupported(&rules) {
        Some(why) => Err(format!("variant {variant}: {why}")),
        None => Ok(rules.without_draw_rules()),
    }
}

/// A group of pairs solved together: `(a, b)` and `(b, a)`, `a <= b`.
pub fn groups(pieces: usize) -> Vec<(usize, usize)> {
    let mut g: Vec<(usize, usize)> = (3..=pieces)
        .flat_map(|a| (a..=pieces).map(move |b| (a, b)))
        .collect();
    g.sort_by_key(|&(a, b)| (a + b, a));
    g
}

/// The most pieces one turn removes under `rules`: one, or one per mill closed at once (as many
/// as there are lines through a point).
pub fn most_removals(rules: &Rules) -> usize {
    let t = rules.topology();
    let lines_at_a_point = (0..24)
        .map(|p| t.partners[p].iter().filter(|l| l.0 >> 24 == 0).count())
        .max()
        .unwrap_or(1);
    solve::position(rules, 0, 0).removals_due(lines_at_a_point as u8) as usize
}

/// The pairs a group's removals lead to (one to `most` pieces removed), as (mover, other).
pub fn dependencies(a: usize, b: usize, most: usize) -> Vec<(usize, usize)> {
    let mut d = Vec::new();
    for (m, o) in [(a, b), (b, a)] {
        for k in 1..=most {
            if o >= 3 + k {
                d.push((o - k, m));
            }
        }
    }
    d.sort_unstable();
    d.dedup();
    d
}

/// Parses `W-B`.
fn parse_pair(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--pair '{text}': expected W-B with 3 to {MAX_PIECES} pieces a side");
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

/// The tables in memory, loaded from disk when first needed.
struct Loaded {
    dir: PathBuf,
    print: u64,
    tables: Tables,
}

impl Loaded {
    fn ensure(&mut self, pair: (usize, usize)) -> Result<(), String> {
        if !self.tables.has(pair.0, pair.1) {
            let path = file::path(&self.dir, pair.0, pair.1);
            if !path.exists() {
                return Err(format!(
                    "the table {}-{} is needed first (build it, or build with --pieces)",
                    pair.0, pair.1
                ));
            }
            let v = file::read(&path, self.print, pair.0, pair.1)?;
            self.tables.insert(pair.0, pair.1, v);
        }
        Ok(())
    }
}

/// Solves the group of `(a, b)` into `tables`, which hold the pairs its removals lead to.
pub fn solve_into(tables: &mut Tables, rules: &Rules, a: usize, b: usize) -> Result<(), String> {
    let solved = {
        let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
        solve::solve_group(rules, tables.classes(), a, b, &exit, &|_| {})?
    };
    for (&(m, o), codes) in solve::group(a, b).iter().zip(solved) {
        tables.insert(m, o, Values::from_codes(codes));
    }
    Ok(())
}

/// Solves every pair of up to `pieces` a side in memory (no files): for tests and small uses.
pub fn solve_in_memory(rules: &Rules, pieces: usize) -> Result<Tables, String> {
    if let Some(why) = unsupported(rules) {
        return Err(why);
    }
    let rules = rules.without_draw_rules();
    let mut tables = Tables::empty(&rules, pieces);
    for (a, b) in groups(pieces) {
        solve_into(&mut tables, &rules, a, b)?;
    }
    Ok(tables)
}

fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t as usize);
    }
    b.build()
        .map_err(|e| format!("cannot start the threads: {e}"))
}

/// Whether the table of a pair is on disk, whole and for these rules (its header and size).
fn present(dir: &Path, print: u64, mover: usize, other: usize) -> bool {
    let path = file::path(dir, mover, other);
    match (file::header(&path), std::fs::metadata(&path)) {
        (Ok(h), Ok(m)) => {
            h.fingerprint == print
                && (h.mover, h.other) == (mover, other)
                && h.slots.checked_mul(u64::from(h.width)).map(|n| n + 40) == Some(m.len())
        }
        _ => false,
    }
}

/// `moulin tables build`.
pub fn run_build(args: BuildArgs) -> Result<(), String> {
    let rules = rules_of(&args.variant)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let todo: Vec<(usize, usize)> = match (&args.pair, args.pieces) {
        (Some(p), None) => vec![parse_pair(p)?],
        (None, Some(n)) => groups(n as usize),
        _ => return Err("give --pieces N, or --pair W-B".into()),
    };
    let largest = todo.iter().map(|&(_, b)| b).max().unwrap_or(3);
    let print = fingerprint(&rules);
    let pool = pool(args.threads)?;
    let mut loaded = Loaded {
        dir: dir.clone(),
        print,
        tables: Tables::empty(&rules, largest),
    };
    let started = Instant::now();
    let most = most_removals(&rules);
    for (i, &(a, b)) in todo.iter().enumerate() {
        if present(&dir, print, a, b) && present(&dir, print, b, a) {
            eprintln!("{a}-{b}: already built");
            continue;
        }
        for dep in dependencies(a, b, most) {
            loaded.ensure(dep)?;
        }
        let slots: u64 = solve::group(a, b)
            .iter()
            .map(|&(m, o)| PairIndex::new(m, o, loaded.tables.classes()).len())
            .sum();
        let bar = crate::progress::bar(slots, 0, &format!("{a}-{b} "), "positions");
        let t = Instant::now();
        let levels = AtomicU64::new(0);
        let exit = |ours: u32, theirs: u32| loaded.tables.value(ours, theirs);
        let progress = |n: u64| {
            if n == 0 {
                let l = levels.fetch_add(1, Ordering::Relaxed);
                if l.is_multiple_of(64) {
                    bar.set_message("(proving)");
                }
            } else {
                bar.inc(n);
            }
        };
        let classes = loaded.tables.classes();
        let tables =
            pool.install(|| solve::solve_group(&rules, classes, a, b, &exit, &progress))?;
        bar.finish_and_clear();
        let pairs = solve::group(a, b);
        // One table at a time, and then read back mapped: the build keeps no copy of its own
        // (the groups still to build read them through the file cache, as the engine does).
        for (&(m, o), codes) in pairs.iter().zip(tables) {
            file::write(&dir, print, m, o, &Values::from_codes(codes))?;
        }
        let secs = t.elapsed().as_secs_f64();
        eprintln!("{a}-{b}: {slots} positions in {secs:.1} s");
        log_cost(&dir, a, b, slots, secs);
        for &(m, o) in &pairs {
            let values = file::read(&file::path(&dir, m, o), print, m, o)?;
            loaded.tables.insert(m, o, values);
        }
        // Keep in memory only what the groups still to build need.
        let keep: Vec<(usize, usize)> = todo[i + 1..]
            .iter()
            .flat_map(|&(x, y)| dependencies(x, y, most))
            .collect();
        loaded.tables.retain(&keep);
    }
    eprintln!(
        "tables in {}: done in {:.1} s",
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Appends a group's cost to `costs.txt` in the tables directory (for planning).
fn log_cost(dir: &Path, a: usize, b: usize, slots: u64, secs: f64) {
    use std::io::Write;
    let line = format!("{a}-{b} positions {slots} seconds {secs:.1}\n");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("costs.txt"))
        .and_then(|mut f| f.write_all(line.as_bytes()));
}

/// The tally of one table, counted up to symmetry.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_win: u16,
    pub max_loss: u16,
}

/// Counts a table's values over its canonical slots.
pub fn tally(classes: &Classes, mover: usize, other: usize, values: &Values) -> Tally {
    let index = PairIndex::new(mover, other, classes);
    (0..values.len())
        .into_par_iter()
        .filter(|&slot| index.is_canonical(slot as u64))
        .fold(Tally::default, |mut t, slot| {
            match values.get(slot) {
                Value::Win(d) => {
                    t.wins += 1;
                    t.max_win = t.max_win.max(d);
                }
                Value::Loss(d) => {
                    t.losses += 1;
                    t.max_loss = t.max_loss.max(d);
                }
                Value::Draw => t.draws += 1,
            }
            t
        })
        .reduce(Tally::default, |x, y| Tally {
            wins: x.wins + y.wins,
            losses: x.losses + y.losses,
            draws: x.draws + y.draws,
            max_win: x.max_win.max(y.max_win),
            max_loss: x.max_loss.max(y.max_loss),
        })
}

/// The rules, directory, fingerprint and table files `DirArgs` name; no tables is an error.
type TableFiles = (Rules, PathBuf, u64, Vec<(usize, usize, PathBuf)>);

fn table_files(args: &DirArgs) -> Result<TableFiles, String> {
    let rules = rules_of(&args.variant)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    let list = file::list(&dir)?;
    if list.is_empty() {
        return Err(format!("no tables in {}", dir.display()));
    }
    Ok((rules, dir, fingerprint(&rules), list))
}

/// `moulin tables stats`: one line per table.
pub fn run_stats(args: DirArgs) -> Result<(), String> {
    let (_, _, print, list) = table_files(&args)?;
    let largest = list.iter().map(|&(m, _, _)| m).max().unwrap_or(3);
    let classes = Classes::new(largest);
    let pool = pool(args.threads)?;
    for (m, o, path) in list {
        let values = file::read(&path, print, m, o)?;
        let t = pool.install(|| tally(&classes, m, o, &values));
        println!(
            "{m}-{o} wins {} losses {} draws {} max-win {} max-loss {}",
            t.wins, t.losses, t.draws, t.max_win, t.max_loss
        );
    }
    Ok(())
}

/// `moulin tables verify`: every stored value against its successors; an error (non-zero exit)
/// on any disagreement.
pub fn run_verify(args: VerifyArgs) -> Result<(), String> {
    let (rules, dir, print, mut list) = table_files(&args.tables)?;
    if let Some(p) = &args.pair {
        let (a, b) = parse_pair(p)?;
        list.retain(|&(m, o, _)| (m, o) == (a, b) || (m, o) == (b, a));
        if list.is_empty() {
            return Err(format!("no table {a}-{b} or {b}-{a} in {}", dir.display()));
        }
    }
    let largest = list.iter().map(|&(m, o, _)| m.max(o)).max().unwrap_or(3);
    let pool = pool(args.tables.threads)?;
    let mut loaded = Loaded {
        dir: dir.clone(),
        print,
        tables: Tables::empty(&rules, largest),
    };
    let mut wrong_total = 0u64;
    for (m, o, _) in list {
        loaded.ensure((m, o))?;
        loaded.ensure((o, m))?;
        for dep in dependencies(m.min(o), m.max(o), most_removals(&rules)) {
            loaded.ensure(dep)?;
        }
        let (checked, wrong) =
            pool.install(|| check_table(&rules, &loaded.tables, m, o, args.sample))?;
        let sampled = match args.sample {
            Some(_) => format!(" ({checked} positions checked)"),
            None => String::new(),
        };
        println!(
            "{m}-{o}: {}{sampled}",
            if wrong == 0 {
                "consistent".to_string()
            } else {
                format!("{wrong} values disagree with their successors")
            }
        );
        wrong_total += wrong;
    }
    if wrong_total > 0 {
        return Err(format!(
            "{wrong_total} values disagree with their successors"
        ));
    }
    Ok(())
}

/// The canonical positions of table `(m, o)` checked (all, or those among `sample` slots spread
/// evenly over it), and how many of them hold a value that is not the one their successors give.
fn check_table(
    rules: &Rules,
    tables: &Tables,
    m: usize,
    o: usize,
    sample: Option<u64>,
) -> Result<(u64, u64), String> {
    let index = PairIndex::new(m, o, tables.classes());
    let values = tables.values(m, o).ok_or("a table that verify loaded")?;
    let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
    let len = index.len();
    let n = sample.map_or(len, |s| s.min(len));
    (0..n)
        .into_par_iter()
        .map(|i| (u128::from(i) * u128::from(len) / u128::from(n)) as u64)
        .filter(|&slot| index.is_canonical(slot))
        .map_init(Vec::new, |succ, slot| {
            let (ours, theirs) = index.position(slot);
            solve::successors(rules, ours, theirs, &exit, succ)?;
            let expected = solve::value_from(succ.iter().map(|s| match *s {
                Successor::Exit(v) => Some(v),
                Successor::Stay { ours, theirs } => match tables.value(ours, theirs) {
                    Some(Value::Draw) | None => None,
                    v => v,
                },
            }))
            .unwrap_or(Value::Draw);
            let stored = values.get(slot as usize);
            if stored != expected {
                log::warn!(
                    "{m}-{o} slot {slot} ({ours:06x} {theirs:06x}): stored {stored:?}, successors give {expected:?}"
                );
            }
            Ok((1, u64::from(stored != expected)))
        })
        .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub tables: DirArgs,
    /// Only this pair and its mirror (W-B), with the tables their removals lead to.
    #[arg(long)]
    pub pair: Option<String>,
    /// Check this many positions of each table, spread evenly over it, instead of all (the
    /// tables up to 9 a side hold 9.2 billion positions).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
}

#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// Plan every pair with 3 to N pieces a side (3 to 9).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=MAX_PIECES as i64))]
    pub pieces: u8,
    /// The tables directory, shared by every node (default: ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Rule preset: nine, twelve, lasker, morabaraba, protected-mills (not no-reform).
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Print a shell script that submits the build to Slurm (the only form for now).
    #[arg(long)]
    pub slurm: bool,
    /// CPUs per task.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub cpus: u16,
    /// The moulin binary the nodes run (default: this one).
    #[arg(long)]
    pub binary: Option<PathBuf>,
}

/// Seconds per position and thread when the directory has no measured costs (measured here:
/// 5-5, 32.9 million positions, 16.4 s on 2 threads).
const DEFAULT_SECONDS_PER_POSITION: f64 = 1.0e-6;

/// The seconds per position of the slowest group measured in `costs.txt` (times its threads,
/// taken as 2), if any.
fn measured_rate(dir: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(dir.join("costs.txt")).ok()?;
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let positions: f64 = w.get(2)?.parse().ok()?;
            let secs: f64 = w.get(4)?.parse().ok()?;
            (positions >= 1e6).then_some(secs * 2.0 / positions)
        })
        .reduce(f64::max)
}

/// `moulin tables plan --slurm`: a shell script that submits the build as Slurm job arrays, one
/// array per level (pieces on the board, both sides), one task per group of pairs, each level
/// waiting (`afterok`) for the levels its removals lead to; time and memory requests come from
/// the groups' sizes and the measured cost per position.
pub fn run_plan(args: PlanArgs) -> Result<(), String> {
    if !args.slurm {
        return Err("only --slurm plans exist: give --slurm".into());
    }
    let most = most_removals(&rules_of(&args.variant)?);
    let dir = args.dir.unwrap_or_else(|| default_dir(&args.variant));
    let dir = std::path::absolute(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let binary = match args.binary {
        Some(b) => b,
        None => std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?,
    };
    let pieces = args.pieces as usize;
    let classes = Classes::new(pieces);
    let rate = measured_rate(&dir).unwrap_or(DEFAULT_SECONDS_PER_POSITION);
    let size = |m: usize, o: usize| PairIndex::new(m, o, &classes).len();
    let mut levels: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    for (a, b) in groups(pieces) {
        match levels.last_mut() {
            Some((l, g)) if *l == a + b => g.push((a, b)),
            _ => levels.push((a + b, vec![(a, b)])),
        }
    }
    let q = |p: &Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
    let mut s = String::new();
    s.push_str(&format!(
        "#!/usr/bin/env bash\n\
         # moulin endgame tables, 3 to {pieces} pieces a side, variant {variant}, as Slurm job\n\
         # arrays: one array per level (pieces on the board), one task per pair and its mirror.\n\
         # Made by: moulin tables plan --pieces {pieces} --variant {variant} --dir {d} --slurm\n\
         # Every node reads and writes {d}; a task whose tables exist already\n\
         # finishes at once, so the script can be submitted again after a failure.\n\
         # Requests assume {rate:.2e} s per position and thread ({source}).\n\
         set -euo pipefail\n\
         MOULIN={bin}\n\
         DIR={d}\n\
         mkdir -p \"$DIR/slurm\"\n",
        variant = args.variant,
        d = q(&dir),
        bin = q(&binary),
        source = if measured_rate(&dir).is_some() {
            "measured in costs.txt"
        } else {
            "this machine's 5-5 build"
        },
    ));
    let mut previous: Vec<String> = Vec::new();
    for (level, groups) in &levels {
        let var = format!("level{level}");
        let mut worst_secs = 0.0f64;
        let mut worst_mb = 0u64;
        let mut level_positions = 0u64;
        let pairs: Vec<String> = groups.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        for &(a, b) in groups {
            let own: u64 = solve::group(a, b).iter().map(|&(m, o)| size(m, o)).sum();
            level_positions += own;
            let deps: u64 = dependencies(a, b, most)
                .iter()
                .map(|&(m, o)| size(m, o))
                .sum();
            worst_secs = worst_secs.max(own as f64 * rate / f64::from(args.cpus));
            // Per position of the group: the value and count being solved (3 bytes), the
            // positions of a level (at most half a byte, `solve`), slack; the tables its
            // removals reach, mapped (a byte a position, two for a wide table). Measured: the
            // 6-6 group (163 million positions) peaked at 625 MB with its 5-6 tables.
            worst_mb = worst_mb.max((4 * own + 2 * deps) / (1 << 20) + 512);
        }
        let minutes = ((worst_secs * 3.0 / 60.0).ceil() as u64).max(10);
        let dependency = if previous.is_empty() {
            String::new()
        } else {
            format!("--dependency=afterok:{} ", previous.join(":"))
        };
        s.push_str(&format!(
            "\n# level {level}: {} ({level_positions} positions; {worst_secs:.0} s and {worst_mb} MB \
             estimated for the largest)\n\
             cat > \"$DIR/slurm/{var}.sh\" <<EOF\n\
             #!/usr/bin/env bash\n\
             pairs=({})\n\
             exec $MOULIN tables build --pair \\${{pairs[\\$SLURM_ARRAY_TASK_ID]}} --dir $DIR --variant {variant} --threads \\$SLURM_CPUS_PER_TASK\n\
             EOF\n\
             {var}=$(sbatch --parsable {dependency}--job-name=moulin-tables-{level} --array=0-{last} \\\n    \
             --cpus-per-task={cpus} --mem={worst_mb}M --time={minutes} \\\n    \
             --output=\"$DIR/slurm/%x-%a.out\" \"$DIR/slurm/{var}.sh\")\n",
            pairs.join(" "),
            pairs.join(" "),
            variant = args.variant,
            last = groups.len() - 1,
            cpus = args.cpus,
        ));
        previous.push(format!("${var}"));
    }
    let total: u64 = groups(pieces)
        .iter()
        .flat_map(|&(a, b)| solve::group(a, b))
        .map(|(m, o)| size(m, o))
        .sum();
    s.push_str(&format!(
        "\n# In all: {total} positions, about {:.1} CPU-hours at {rate:.2e} s per position and thread.\n",
        total as f64 * rate / 3600.0
    ));
    s.push_str(&format!(
        "\necho \"submitted: {}\"\n",
        levels
            .iter()
            .map(|(l, _)| format!("$level{l}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    print!("{s}");
    Ok(())
}
