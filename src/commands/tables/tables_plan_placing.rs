//! `moulin tables plan --placing --slurm`: a shell script that submits the placing solution's
//! build as Slurm job arrays, one array per count of placements left (from the last placement
//! back to the first), one task per group, each array waiting (`afterok`) for the one before
//! it, the first for the jobs named in `AFTER` (the moving tables' build), if any.

use super::tables_plan_shell::{variables, PlanArgs};
use moulin::rules::Rules;
use moulin::tables::groups::{self, Group};
use moulin::tables::placing_build::Build;
use moulin::tables::schedule;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// Seconds per position and thread when the placing folder has no measured costs (measured
/// here: the group 1-8-7, 536 million positions, 104.2 s on 2 threads).
const DEFAULT_SECONDS_PER_POSITION: f64 = 3.9e-7;

/// The memory in MB a task needs to solve `group`: per position, its code while solved, the
/// work array it is solved in, and the packed result (2.25 bytes); the groups after it, mapped
/// (a quarter of a byte a position), or the moving tables after the last placement (two bytes
/// a position at most); a quarter more and 256 MB for the rest.
fn memory_mb(group: Group, most: u8) -> u64 {
    let own = Build::size(group) as f64 * 2.25;
    let after: f64 = (0..=most.min(group.other))
        .map(|k| group.after(k))
        .filter(|next| next.mover >= 3 || group.left > 1)
        .map(|next| {
            let size = Build::size(next) as f64;
            if group.left == 1 {
                size * 2.0
            } else {
                size / 4.0
            }
        })
        .sum();
    ((own + after) * 1.25 / f64::from(1 << 20)).ceil() as u64 + 256
}

/// The script for the placing of the game of `args.pieces` a side under `rules`, its tables in
/// `dir`, its tasks run by `binary` (both absolute and UTF-8).
pub(super) fn script(args: &PlanArgs, rules: &Rules, dir: &Path, binary: &Path) -> String {
    let mut rules = *rules;
    rules.pieces = args.pieces;
    let measured = schedule::measured_rate(&dir.join("placing"));
    let rate = measured.unwrap_or(DEFAULT_SECONDS_PER_POSITION);
    let mut levels: BTreeMap<u8, Vec<Group>> = BTreeMap::new();
    for g in groups::all(&rules) {
        levels.entry(g.left).or_default().push(g);
    }
    let pieces = args.pieces;
    let variant = &args.variant;
    let mut s = format!(
        "#!/usr/bin/env bash\n\
         # moulin placing solution, the game of {pieces} pieces a side, variant {variant}, as Slurm\n\
         # job arrays: one array per count of placements left (1 to {all}), one task per group\n\
         # L-M-O (placements left, pieces on the board of the side to move and of the other), each\n\
         # array waiting for the one before it. The moving tables of 3 to {pieces} a side must be in\n\
         # $DIR: built before, or by jobs whose ids AFTER names (joined by ':'), for example\n\
         #   AFTER=$(bash tables.sh | sed 's/^submitted: //; s/ /:/g') bash placing.sh\n\
         # Made by: moulin tables plan --placing --pieces {pieces} --variant {variant} --dir \"$DIR\" --slurm\n\
         # A task whose group is built and sound finishes at once: submit again after a failure.\n\
         # Requests assume {rate:.2e} s per position and thread ({source}).\n\
         {variables}\
         AFTER=${{AFTER:-}}\n\
         mkdir -p \"$DIR/slurm\"\n",
        all = 2 * pieces,
        variables = variables(dir, binary),
        source = if measured.is_some() {
            "measured in placing/costs.txt"
        } else {
            "this machine's build of the standard game"
        },
    );
    let most = rules.most_removals();
    let mut total = 0u64;
    for (left, groups) in &levels {
        total += groups.iter().map(|g| Build::size(*g)).sum::<u64>();
        s.push_str(&level(args, *left, groups, rate, most));
    }
    let _ = write!(
        s,
        "\n# In all: {total} positions, {:.1} CPU-hours at {rate:.2e} s per position and thread (the\n\
         # slowest rate measured: the time requests err long).\n\
         \necho \"submitted: {}\"\n",
        total as f64 * rate / 3600.0,
        levels
            .keys()
            .map(|l| format!("$placing{l}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    s
}

/// The lines that submit the array of the groups `groups`, with `left` placements left.
fn level(args: &PlanArgs, left: u8, groups: &[Group], rate: f64, most: u8) -> String {
    let positions: u64 = groups.iter().map(|g| Build::size(*g)).sum();
    let worst_secs = groups
        .iter()
        .map(|g| Build::size(*g) as f64 * rate / f64::from(args.cpus))
        .fold(0.0, f64::max);
    let worst_mb = groups
        .iter()
        .map(|g| memory_mb(*g, most))
        .max()
        .unwrap_or(256);
    let minutes = ((worst_secs * 3.0 / 60.0).ceil() as u64).max(10);
    let names: Vec<String> = groups.iter().map(ToString::to_string).collect();
    let dependency = if left == 1 {
        "${AFTER:+--dependency=afterok:$AFTER} ".to_string()
    } else {
        format!("--dependency=afterok:$placing{} ", left - 1)
    };
    // The task's script holds no path: it gets the binary and the directory as its arguments
    // ($1, $2), and its text is written as it is (a quoted here-document).
    format!(
        "\n# {left} {placements} left: {} ({positions} positions; {worst_secs:.0} s and \
         {worst_mb} MB estimated for the largest)\n\
         cat > \"$DIR/slurm/placing{left}.sh\" <<'EOF'\n\
         #!/usr/bin/env bash\n\
         # One task of the groups with {left} {placements} left: $1 is the moulin binary, $2 the tables directory.\n\
         groups=({})\n\
         exec \"$1\" tables build --placing --pieces {pieces} --group \"${{groups[$SLURM_ARRAY_TASK_ID]}}\" --dir \"$2\" --variant {variant} --threads \"$SLURM_CPUS_PER_TASK\"\n\
         EOF\n\
         placing{left}=$(sbatch --parsable {dependency}--job-name=moulin-placing-{left} --array=0-{last} \\\n    \
         --cpus-per-task={cpus} --mem={worst_mb}M --time={minutes} \\\n    \
         --output=\"$LOGS/%x-%a.out\" \"$DIR/slurm/placing{left}.sh\" \"$MOULIN\" \"$DIR\")\n",
        groups.len(),
        names.join(" "),
        placements = if left == 1 { "placement" } else { "placements" },
        pieces = args.pieces,
        variant = args.variant,
        last = groups.len() - 1,
        cpus = args.cpus,
    )
}
