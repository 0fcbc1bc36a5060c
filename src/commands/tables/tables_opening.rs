//! `moulin tables opening`: the opening's solution (`tables::placing::opening`) made from a
//! tables directory's whole placing solution, its size ply by ply; or a file of it verified,
//! against that solution when it is there and against the rules on a sample of positions.

use super::tables_shared::table_rules;
use crate::commands::failure::{Context, Failure};
use crate::commands::output::outln;
use crate::commands::progress::Bars;
use moulin::durable::{self, CommandFile, Own};
use moulin::rng::Rng;
use moulin::rules::Rules;
use moulin::tables::default_dir;
use moulin::tables::placing::opening::{self, Made};
use moulin::tables::placing_verify::check_opening;
use moulin::tables::Tables;
use std::path::{Path, PathBuf};

/// The arguments of `moulin tables opening`.
#[derive(clap::Args, Debug)]
pub struct OpeningArgs {
    /// The positions of plies 0 to this many (at most the placing's last ply).
    #[arg(long, required_unless_present = "verify")]
    pub plies: Option<u8>,
    /// The file to write (default: book/<variant>-opening.sol, where the engine looks for it in
    /// a checkout).
    #[arg(long, conflicts_with = "verify")]
    pub out: Option<PathBuf>,
    /// Verify this file instead: every value against the directory's placing solution when it
    /// is there whole, and a sample of positions against their successors.
    #[arg(long)]
    pub verify: Option<PathBuf>,
    /// With --verify: the positions checked against their successors.
    #[arg(long, default_value_t = 100_000)]
    pub sample: u64,
    /// Replace the file at --out even if it is not an opening's solution.
    #[arg(long, conflicts_with = "verify")]
    pub force: bool,
    /// The tables directory with the placing solution (default:
    /// ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Rule preset of the game.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// The game of this many pieces a side (default: the preset's).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=9))]
    pub pieces: Option<u8>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// Runs `moulin tables opening`.
pub(super) fn run(args: &OpeningArgs) -> Result<(), Failure> {
    let mut rules = table_rules(&args.variant)?;
    if let Some(n) = args.pieces {
        rules.pieces = n;
    }
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    let pool = super::tables_shared::pool(args.threads)?;
    pool.install(|| match (&args.verify, args.plies) {
        (Some(file), _) => verify(file, &dir, &rules, args.sample),
        (None, Some(plies)) => {
            let out = args
                .out
                .clone()
                .unwrap_or_else(|| Path::new("book").join(opening::file_name(&args.variant)));
            check_out(&out, &dir, args.force)?;
            make(&out, &dir, &rules, plies)
        }
        (None, None) => Err(Failure::usage("give --plies N, or --verify FILE")),
    })
}

/// The file an opening's solution of `tables` goes to, checked before any work: not one of the
/// tables (`durable::check_files`), a regular file in a folder that takes one, and, when a file
/// is there, an opening's solution (anything else only with `force`).
fn check_out(out: &Path, tables: &Path, force: bool) -> Result<(), Failure> {
    const OWN: Own = Own {
        magic: opening::FAMILY,
        name: "an opening's solution of moulin",
    };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    Ok(durable::check_files(&[
        CommandFile::replaces_own("--out", out, OWN, force),
        CommandFile::reads("--dir", tables),
    ])?)
}

/// Writes the opening's solution of plies 0 to `plies` to `out` from the solution in `dir`, then
/// reads it back as the engine does: its size ply by ply, its cost at start-up.
fn make(out: &Path, dir: &Path, rules: &Rules, plies: u8) -> Result<(), Failure> {
    let Some(solution) = Tables::whole_placing(dir, rules)? else {
        return Err(format!(
            "no placing solution in {} (moulin tables build --placing)",
            dir.display()
        )
        .into());
    };
    let made = opening::write(out, rules, plies, &solution, &Bars::default())?;
    print_sizes(&made)?;
    let read = opening::read(out, rules).context("reading the file back")?;
    let unpacking = read.unpack_all().context("reading the file back")?;
    outln!(
        "{}: {} bytes; read and checked in {:.3} s (the engine's start), every group \
         decompressed and checked in {unpacking:.3} s into {} bytes of values",
        out.display(),
        read.file_bytes,
        read.secs,
        read.solution.bytes_in_memory()
    )?;
    Ok(())
}

/// One line a ply (its groups, raw and compressed bytes), then the total.
fn print_sizes(made: &Made) -> Result<(), Failure> {
    outln!("ply  groups  raw bytes  compressed bytes")?;
    for p in &made.plies {
        outln!(
            "{:>3}  {:>6}  {:>9}  {:>16}",
            p.ply,
            p.groups,
            p.raw,
            p.compressed
        )?;
    }
    let raw: u64 = made.plies.iter().map(|p| p.raw).sum();
    let compressed: u64 = made.plies.iter().map(|p| p.compressed).sum();
    outln!(
        "all  {:>6}  {raw:>9}  {compressed:>16}  (file: {} bytes)",
        made.plies.iter().map(|p| p.groups).sum::<usize>(),
        made.file_bytes
    )?;
    Ok(())
}

/// Verifies the file `file`: against the whole solution of `dir` when it is there, and `sample`
/// positions against their successors. Any disagreement is an error.
fn verify(file: &Path, dir: &Path, rules: &Rules, sample: u64) -> Result<(), Failure> {
    let read = opening::read(file, rules)?;
    let unpacking = read.unpack_all()?;
    outln!(
        "{}: plies 0 to {}, read and checked in {:.3} s, every group decompressed and checked \
         in {unpacking:.3} s into {} bytes of values",
        file.display(),
        read.plies,
        read.secs,
        read.solution.bytes_in_memory()
    )?;
    let whole = Tables::whole_placing(dir, rules)?;
    if whole.is_none() {
        outln!(
            "no placing solution in {}: checked against the rules only",
            dir.display()
        )?;
    }
    let found = check_opening(
        rules,
        &read.solution,
        read.plies,
        whole.as_deref(),
        sample,
        &mut Rng::from_time(),
        &Bars::default(),
    );
    if whole.is_some() {
        outln!(
            "against the solution in {}: {} groups, {} bytes of values, {} differ",
            dir.display(),
            found.compared.0,
            found.compared.1,
            found.differing.len()
        )?;
    }
    outln!(
        "against the rules: {} positions, each the best of its successors' values: {} not",
        found.checked,
        found.mismatches.len()
    )?;
    for m in found.mismatches.iter().take(10) {
        outln!(
            "  group {} slot {}: stored {:?}, successors give {:?}",
            m.group,
            m.slot,
            m.stored,
            m.expected
        )?;
    }
    if found.differing.is_empty() && found.mismatches.is_empty() {
        outln!("ok")?;
        Ok(())
    } else {
        let groups: Vec<String> = found.differing.iter().map(ToString::to_string).collect();
        Err(format!(
            "{}: {} groups differ from the solution ({}), {} positions disagree with their \
             successors",
            file.display(),
            groups.len(),
            groups.join(" "),
            found.mismatches.len()
        )
        .into())
    }
}
