//! `moulin tables plan --slurm`: a shell script that submits the build as Slurm job arrays, one
//! array per level (pieces on the board, both sides), one task per group of pairs, each level
//! waiting (`afterok`) for the levels its removals lead to; time and memory requests come from
//! the groups' sizes and the measured cost per position.

use super::tables_plan_placing as placing_plan;
use super::tables_plan_shell::{variables, PlanArgs};
use super::tables_shared::table_rules;
use crate::commands::failure::{Context, Failure};
use crate::commands::output::out;
use moulin::tables::index::{Classes, PairIndex};
use moulin::tables::schedule::{self, DEFAULT_SECONDS_PER_POSITION};
use moulin::tables::{default_dir, retrograde};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What the script is made from: the arguments, resolved.
struct Plan<'a> {
    args: &'a PlanArgs,
    /// The tables directory, absolute.
    dir: PathBuf,
    /// The binary the nodes run.
    binary: PathBuf,
    /// The most pieces one turn removes.
    most: usize,
    /// The index of the sets of up to `pieces` pieces.
    classes: Classes,
    /// Seconds per position and thread.
    rate: f64,
}

/// The text of a path the script names; a path that is not UTF-8 is refused (printed, it
/// would name another file).
fn utf8(path: &Path) -> Result<&str, Failure> {
    path.to_str().ok_or_else(|| {
        Failure::from(format!(
            "{}: not UTF-8: the script could not name it",
            path.display()
        ))
    })
}

/// Runs `moulin tables plan`: prints the script.
pub(super) fn run(args: &PlanArgs) -> Result<(), Failure> {
    if !args.slurm {
        return Err(Failure::usage("only --slurm plans exist: give --slurm"));
    }
    let rules = table_rules(&args.variant)?;
    let most = rules.most_removals() as usize;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    let dir = std::path::absolute(&dir).with_context(|| dir.display())?;
    let binary = match &args.binary {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("cannot find this binary")?,
    };
    // The nodes run it from the submitting folder, or another: an absolute path.
    let binary = std::path::absolute(&binary).with_context(|| binary.display())?;
    utf8(&dir)?;
    utf8(&binary)?;
    if args.placing {
        return out!("{}", placing_plan::script(args, &rules, &dir, &binary));
    }
    let pieces = args.pieces as usize;
    let plan = Plan {
        args,
        rate: schedule::measured_rate(&dir).unwrap_or(DEFAULT_SECONDS_PER_POSITION),
        dir,
        binary,
        most,
        classes: Classes::new(pieces),
    };
    let levels = schedule::levels(pieces);
    let mut s = plan.head();
    let mut previous: Vec<String> = Vec::new();
    for (level, groups) in &levels {
        s.push_str(&plan.level(*level, groups, &previous));
        previous.push(format!("$level{level}"));
    }
    s.push_str(&plan.tail(&levels));
    out!("{s}")
}

impl Plan<'_> {
    /// The positions of the table of pair `(m, o)`.
    fn size(&self, m: usize, o: usize) -> u64 {
        PairIndex::new(m, o, &self.classes).len()
    }

    /// The script's first lines: what it is, and its variables. The paths are written once, in
    /// single quotes, and used only as `"$MOULIN"` and `"$DIR"`: a space, a quote or a `$(...)`
    /// in them stays part of the path (never a comment's text, where a line break would end it).
    fn head(&self) -> String {
        let pieces = self.args.pieces;
        let rate = self.rate;
        format!(
            "#!/usr/bin/env bash\n\
             # moulin endgame tables, 3 to {pieces} pieces a side, variant {variant}, as Slurm job\n\
             # arrays: one array per level (pieces on the board), one task per pair and its mirror.\n\
             # Made by: moulin tables plan --pieces {pieces} --variant {variant} --dir \"$DIR\" --slurm\n\
             # Every node reads and writes $DIR (below); a task whose tables exist already\n\
             # finishes at once, so the script can be submitted again after a failure.\n\
             # Requests assume {rate:.2e} s per position and thread ({source}).\n\
             {variables}\
             mkdir -p \"$DIR/slurm\"\n",
            variant = self.args.variant,
            variables = variables(&self.dir, &self.binary),
            source = if schedule::measured_rate(&self.dir).is_some() {
                "measured in costs.txt"
            } else {
                "this machine's 5-5 build"
            },
        )
    }

    /// The lines that submit one level's array, after the levels `previous` (their variables).
    fn level(&self, level: usize, groups: &[(usize, usize)], previous: &[String]) -> String {
        let var = format!("level{level}");
        let mut worst_secs = 0.0f64;
        let mut worst_mb = 0u64;
        let mut level_positions = 0u64;
        let pairs: Vec<String> = groups.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        for &(a, b) in groups {
            let own = schedule::group_size(&self.classes, a, b);
            level_positions += own;
            worst_secs = worst_secs.max(own as f64 * self.rate / f64::from(self.args.cpus));
            worst_mb = worst_mb.max(schedule::memory_mb(&self.classes, a, b, self.most));
        }
        let minutes = ((worst_secs * 3.0 / 60.0).ceil() as u64).max(10);
        let dependency = if previous.is_empty() {
            String::new()
        } else {
            format!("--dependency=afterok:{} ", previous.join(":"))
        };
        // The task's script holds no path: it gets the binary and the directory as its
        // arguments ($1, $2), and its text is written as it is (a quoted here-document).
        format!(
            "\n# level {level}: {} ({level_positions} positions; {worst_secs:.0} s and {worst_mb} MB \
             estimated for the largest)\n\
             cat > \"$DIR/slurm/{var}.sh\" <<'EOF'\n\
             #!/usr/bin/env bash\n\
             # One task of level {level}: $1 is the moulin binary, $2 the tables directory.\n\
             pairs=({})\n\
             exec \"$1\" tables build --pair \"${{pairs[$SLURM_ARRAY_TASK_ID]}}\" --dir \"$2\" --variant {variant} --threads \"$SLURM_CPUS_PER_TASK\"\n\
             EOF\n\
             {var}=$(sbatch --parsable {dependency}--job-name=moulin-tables-{level} --array=0-{last} \\\n    \
             --cpus-per-task={cpus} --mem={worst_mb}M --time={minutes} \\\n    \
             --output=\"$LOGS/%x-%a.out\" \"$DIR/slurm/{var}.sh\" \"$MOULIN\" \"$DIR\")\n",
            pairs.join(" "),
            pairs.join(" "),
            variant = self.args.variant,
            last = groups.len() - 1,
            cpus = self.args.cpus,
        )
    }

    /// The script's last lines: the total cost, and what was submitted.
    fn tail(&self, levels: &[(usize, Vec<(usize, usize)>)]) -> String {
        let total: u64 = levels
            .iter()
            .flat_map(|(_, groups)| groups)
            .flat_map(|&(a, b)| retrograde::group(a, b))
            .map(|(m, o)| self.size(m, o))
            .sum();
        let mut s = format!(
            "\n# In all: {total} positions, about {:.1} CPU-hours at {rate:.2e} s per position and thread.\n",
            total as f64 * self.rate / 3600.0,
            rate = self.rate,
        );
        let _ = write!(
            s,
            "\necho \"submitted: {}\"\n",
            levels
                .iter()
                .map(|(l, _)| format!("$level{l}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        s
    }
}
