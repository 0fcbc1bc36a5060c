//! `moulin tables pack`, `moulin tables install` and the check of a packed set (`moulin tables
//! verify` on one): the solution packed into a set that travels (`tables::pack`), checked and
//! installed where the engine looks.

use super::tables_shared::{pool, table_rules};
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use crate::commands::progress::Bars;
use moulin::rules::Rules;
use moulin::tables::pack::install::{Install, Leftover, Placed};
use moulin::tables::pack::sample_check::{check_sample, Disagreeing};
use moulin::tables::pack::{self, compare, folder, MANIFEST};
use moulin::tables::packed_table::Cut;
use moulin::tables::Tables;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The arguments of `moulin tables pack`.
#[derive(clap::Args, Debug)]
pub struct PackArgs {
    /// The built tables (the moving tables, and the placing solution when whole; default:
    /// ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The packed set's folder (default: `packed` in the tables directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Rule preset the tables were built for.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Store every table: by default a moving table whose mover has fewer pieces (but 8-9,
    /// where the moving phase of a game mostly begins, and those of at most 13 pieces whose
    /// mover is 3 or more behind, small and reached by lines of captures), and the placing
    /// groups whose every placement leads to a stored group or table, chosen for the fewest
    /// bytes, are not stored, their values found from their successors when probed (about half
    /// the size, a probe of them costs a move generation and a probe of each successor).
    #[arg(long)]
    pub store_all: bool,
    /// KiB of values a block holds (a power of two, 4 to 1024): a probe unpacks one block, so a
    /// smaller block probes faster and a larger one packs tighter.
    #[arg(long, default_value_t = 4, value_parser = block_kib)]
    pub block_kib: usize,
    /// KiB of values a frame holds (a power of two, one to eight blocks): zstd packs a frame
    /// whole, so a larger frame packs tighter and a probe of a block not in the cache unpacks
    /// more (every block of its frame, kept in the cache). A wide table's frame holds two blocks
    /// at least. Default: one block.
    #[arg(long, value_parser = block_kib)]
    pub frame_kib: Option<usize>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Pack into --out even if it holds other things than a set (they are kept; the set's own
    /// files are replaced).
    #[arg(long)]
    pub force: bool,
}

/// The arguments of `moulin tables install`.
#[derive(clap::Args, Debug)]
pub struct InstallArgs {
    /// The packed set to install: its folder, or its manifest.
    pub from: PathBuf,
    /// Where to install it (default: `packed` in ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub to: Option<PathBuf>,
    /// Rule preset the set must serve.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Positions of each table checked against their successors, after the checksums.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: u64,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// `--block-kib`: a power of two from 4 to 1024.
fn block_kib(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(k) if k.is_power_of_two() && (4..=1024).contains(&k) => Ok(k),
        _ => Err(format!("'{text}': a power of two from 4 to 1024")),
    }
}

/// `moulin tables pack`.
pub(super) fn run_pack(args: &PackArgs) -> Result<(), Failure> {
    let rules = table_rules(&args.variant)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| moulin::tables::default_dir(&args.variant));
    if pack::is_set(&dir) {
        return Err(format!("{} is a packed set already", dir.display()).into());
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| pack::default_dir_in(&dir));
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    if same(&out, &dir) {
        return Err(format!(
            "--out {}: the set goes in a folder of its own, not the tables' own",
            out.display()
        )
        .into());
    }
    let block = args.block_kib << 10;
    let frame = args.frame_kib.map_or(block, |k| k << 10);
    let Some(cut) = Cut::new(block, frame) else {
        return Err(Failure::usage(format!(
            "--frame-kib {}: one to eight blocks of --block-kib {}",
            frame >> 10,
            args.block_kib
        )));
    };
    // The folder held and checked before the long work.
    let held = folder::prepare_pack(&out, args.force)?;
    let pool = pool(args.threads)?;
    let start = Instant::now();
    let tables = pool.install(|| Tables::open(&dir, &rules))?;
    if !tables.placing_is_whole() {
        log::warn!(
            "{}: no whole placing solution: the set holds the moving tables only",
            dir.display()
        );
    }
    let bars = Bars::default();
    let report = pool.install(|| pack::pack(&tables, &rules, &held, args.store_all, cut, &bars))?;
    let raw = report.values;
    outln!(
        "{}: {} tables packed, {} kept from a run before, {} not stored (found from their \
         successors); the solution's {raw} bytes of values in {} bytes ({:.1}%), {:.0} s",
        out.display(),
        report.made,
        report.kept,
        report.derived,
        report.packed,
        100.0 * report.packed as f64 / raw.max(1) as f64,
        start.elapsed().as_secs_f64()
    )?;
    if report.dropped.0 > 0 {
        outln!(
            "{} tables of the set before, no longer stored, removed ({} bytes)",
            report.dropped.0,
            report.dropped.1
        )?;
    }
    outln!(
        "check a copy with: moulin tables verify --dir {}",
        out.display()
    )?;
    Ok(())
}

/// `moulin tables verify` of a packed set: every file's size and checksum, every block, then
/// `sample` positions of each table against their successors (`None`: 2,000).
pub(super) fn verify_set(
    dir: &Path,
    rules: &Rules,
    sample: Option<u64>,
    threads: Option<u16>,
    against: Option<&Path>,
) -> Result<(), Failure> {
    let pool = pool(threads)?;
    let start = Instant::now();
    let v = pack::verify(dir, rules, &Bars::default())?;
    outln!(
        "{}: {} files, {} bytes, every checksum right ({} bytes of values unpacked), {:.1} s",
        dir.display(),
        v.files,
        v.bytes,
        v.values,
        start.elapsed().as_secs_f64()
    )?;
    let sample = sample.unwrap_or(2000);
    let tables = Tables::open(dir, rules)?;
    let disagreeing = pool.install(|| check_sample(dir, &tables, rules, sample))?;
    for d in &disagreeing {
        match *d {
            Disagreeing::Moving {
                mover,
                other,
                checked,
                wrong,
            } => outln!(
                "{mover}-{other}: {wrong} of {checked} values disagree with their successors"
            )?,
            Disagreeing::Placing { group, wrong } => {
                outln!("{group}: {wrong} values disagree with their successors")?;
            }
        }
    }
    let wrong_total: u64 = disagreeing.iter().map(Disagreeing::wrong).sum();
    if wrong_total > 0 {
        return Err(format!(
            "{dir}: {wrong_total} values disagree with their successors",
            dir = dir.display()
        )
        .into());
    }
    outln!(
        "{}: {} positions of each table agree with their successors; the set is sound",
        dir.display(),
        sample
    )?;
    if let Some(built) = against {
        hold_against(&tables, built, rules, sample, &pool)?;
    }
    Ok(())
}

/// `verify --against`: the set's `tables` held against the build in `built`, `per_table`
/// positions of each table and group.
fn hold_against(
    tables: &Tables,
    built: &Path,
    rules: &Rules,
    per_table: u64,
    pool: &rayon::ThreadPool,
) -> Result<(), Failure> {
    let start = Instant::now();
    let other = pool.install(|| Tables::open(built, rules))?;
    let c = pool.install(|| compare::compare(tables, &other, rules, per_table));
    outln!(
        "against {}: {} moving positions ({} differ in value or move), {} placing positions ({} \
         differ in value or a move's value), {:.0} s",
        built.display(),
        c.moving.0,
        c.moving.1,
        c.placing.0,
        c.placing.1,
        start.elapsed().as_secs_f64()
    )?;
    for e in &c.examples {
        outln!("  differs: {e}")?;
    }
    if c.moving.1 + c.placing.1 > 0 {
        return Err(format!(
            "{} positions where the set and {} differ",
            c.moving.1 + c.placing.1,
            built.display()
        )
        .into());
    }
    Ok(())
}

/// `moulin tables install`: the destination held and checked, the set checked whole, copied,
/// the copy checked, then put in place in one step (`tables::pack::install`).
pub(super) fn run_install(args: &InstallArgs) -> Result<(), Failure> {
    let rules = table_rules(&args.variant)?;
    let from = if args.from.file_name().is_some_and(|n| n == MANIFEST) {
        args.from
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    } else {
        args.from.clone()
    };
    let to = args
        .to
        .clone()
        .unwrap_or_else(|| pack::default_dir(&args.variant));
    let (install, leftovers) = Install::prepare(&from, &to)?;
    for l in &leftovers {
        match l {
            Leftover::PutBack(p) => outln!(
                "{}: a set moved aside by an install that was stopped: put back",
                p.display()
            )?,
            Leftover::Removed(p, bytes) => outln!(
                "{}: left by an install that was stopped ({bytes} bytes): removed",
                p.display()
            )?,
        }
    }
    verify_set(&from, &rules, Some(args.sample), args.threads, None)?;
    let (files, pairs, groups) = {
        let m = install.manifest();
        (m.files.len(), m.pairs().count(), m.groups().count())
    };
    let placed = install.put(&rules, &Bars::default())?;
    let how = match placed {
        Placed::New => "",
        Placed::Swapped => ", swapped with the set before in one step",
        Placed::Renamed => ", the set before moved aside then removed",
    };
    outln!(
        "installed in {} ({files} files, {pairs} moving tables, {groups} placing groups{how}); \
         TablesPath {} uses it",
        to.display(),
        to.display()
    )?;
    Ok(())
}
