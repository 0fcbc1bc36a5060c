//! The flags of `moulin tables plan`, and what its two scripts (the moving tables', the placing
//! solution's) share: the shell variables they begin with, paths quoted for the shell.

use moulin::tables::MAX_PIECES;
use std::path::{Path, PathBuf};

/// The arguments of `moulin tables plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// Plan every pair with 3 to N pieces a side (3 to 9).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=i64::from(MAX_PIECES)))]
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
    /// Plan the placing solution of the game of N pieces a side instead (`tables build
    /// --placing`), one task per group; the moving tables must be built in the directory first
    /// (the script's `AFTER` variable, job ids joined by `:`, makes it wait for their jobs).
    #[arg(long)]
    pub placing: bool,
    /// CPUs per task.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub cpus: u16,
    /// The moulin binary the nodes run (default: this one).
    #[arg(long)]
    pub binary: Option<PathBuf>,
}

/// `text` quoted for the shell: in single quotes, each quote in it written `'\''`.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A plan's variables: the binary the tasks run and the tables directory, each written once in
/// single quotes, and where the jobs' output goes (`$DIR/slurm`, each `%` doubled, as `sbatch`
/// reads `%x` and `%a` there); after `set -euo pipefail`.
pub(super) fn variables(dir: &Path, binary: &Path) -> String {
    format!(
        "set -euo pipefail\n\
         MOULIN={bin}\n\
         DIR={d}\n\
         # $DIR/slurm for the jobs' output, with each % doubled (sbatch reads %x and %a there).\n\
         LOGS={logs}\n",
        d = shell_quoted(&dir.to_string_lossy()),
        bin = shell_quoted(&binary.to_string_lossy()),
        logs = shell_quoted(&dir.join("slurm").to_string_lossy().replace('%', "%%")),
    )
}
