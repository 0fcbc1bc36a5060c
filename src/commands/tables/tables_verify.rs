//! `moulin tables verify`: every stored value (or an even sample of them) against its
//! successors; an error (non-zero exit) on any disagreement.

use super::tables_shared::{parse_pair, pool, table_files, DirArgs, TableFiles};
use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::tables::consistency::check_tables;

/// The arguments of `moulin tables verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The tables to check.
    #[command(flatten)]
    pub tables: DirArgs,
    /// Only this pair and its mirror (W-B), with the tables their removals lead to.
    #[arg(long)]
    pub pair: Option<String>,
    /// Check this many positions of each table, spread evenly over it, instead of all (the
    /// tables up to 9 a side hold 9.2 billion positions).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Check the placing solution instead (the directory's `placing` folder): with --sample N,
    /// N positions of each group, each against its successors made by the move generator; without,
    /// every group solved again from the stored groups after it and compared value for value.
    #[arg(long, conflicts_with = "pair")]
    pub placing: bool,
    /// On a packed set: also hold it against the built tables in this directory, on --sample
    /// positions of each table and group (2,000 by default): the same value and the same move.
    #[arg(long)]
    pub against: Option<std::path::PathBuf>,
    /// With --placing: the game of this many pieces a side (default: the variant's).
    #[arg(long, requires = "placing", value_parser = clap::value_parser!(u8).range(3..=9))]
    pub pieces: Option<u8>,
}

/// Runs `moulin tables verify`.
pub(super) fn run(args: &VerifyArgs) -> Result<(), Failure> {
    let set_dir = args
        .tables
        .dir
        .clone()
        .unwrap_or_else(|| moulin::tables::default_dir(&args.tables.variant));
    if moulin::tables::pack::is_set(&set_dir) {
        let rules = super::tables_shared::table_rules(&args.tables.variant)?;
        if args.placing && !moulin::tables::Tables::open(&set_dir, &rules)?.placing_is_whole() {
            return Err(Failure::from(format!(
                "{} holds no whole placing solution: --placing has nothing to check (its moving \
                 tables are checked without --placing)",
                set_dir.display()
            ))
            .into_usage());
        }
        return super::tables_pack::verify_set(
            &set_dir,
            &rules,
            args.sample,
            args.tables.threads,
            args.against.as_deref(),
        );
    }
    let TableFiles {
        rules,
        dir,
        mut list,
        ..
    } = table_files(&args.tables)?;
    if args.placing {
        let mut rules = rules;
        rules.pieces = args.pieces.unwrap_or(rules.pieces);
        return verify_placing(&dir, &rules, args);
    }
    if let Some(p) = &args.pair {
        let (a, b) = parse_pair(p)?;
        list.retain(|&(m, o, _)| (m, o) == (a, b) || (m, o) == (b, a));
        if list.is_empty() {
            return Err(format!("no table {a}-{b} or {b}-{a} in {}", dir.display()).into());
        }
    }
    let pairs: Vec<(usize, usize)> = list.iter().map(|&(m, o, _)| (m, o)).collect();
    let mut wrong_total = 0u64;
    pool(args.tables.threads)?.install(|| {
        check_tables(&dir, &rules, &pairs, args.sample, |table| {
            let (m, o) = table.pair;
            let sampled = match args.sample {
                Some(_) => format!(
                    " ({} checked)",
                    moulin::text::count(table.checked, "position", "positions")
                ),
                None => String::new(),
            };
            wrong_total += table.wrong;
            outln!("{m}-{o}: {}{sampled}", verdict(table.wrong))
        })
    })?;
    if wrong_total > 0 {
        return Err(format!("{} with their successors", disagree(wrong_total)).into());
    }
    Ok(())
}

/// What a check of `wrong` disagreeing values says.
fn verdict(wrong: u64) -> String {
    if wrong == 0 {
        "consistent".to_string()
    } else {
        format!("{} with their successors", disagree(wrong))
    }
}

/// `wrong` values said to disagree: "1 value disagrees", "3 values disagree".
fn disagree(wrong: u64) -> String {
    if wrong == 1 {
        "1 value disagrees".into()
    } else {
        format!("{wrong} values disagree")
    }
}

/// `moulin tables verify --placing`: each group of the placing solution, sampled or whole.
fn verify_placing(
    dir: &std::path::Path,
    rules: &moulin::rules::Rules,
    args: &VerifyArgs,
) -> Result<(), Failure> {
    use moulin::tables::placing::solution::{Found, Solution};
    use moulin::tables::placing_build::Build;
    use moulin::tables::placing_verify as verify;
    let pool = pool(args.tables.threads)?;
    let mut build = pool.install(|| Build::new(dir, rules))?;
    let solution = match Solution::open(dir, rules)? {
        Found::Whole(s) => Some(s),
        Found::Partial(have, all) if args.sample.is_some() => {
            return Err(format!(
                "the placing solution has {have} of its {all} groups: build it whole first"
            )
            .into())
        }
        Found::Nothing => return Err(format!("no placing solution in {}", dir.display()).into()),
        Found::Partial(..) => None,
    };
    let mut wrong_total = 0u64;
    pool.install(|| {
        verify::check_groups(
            &mut build,
            rules,
            solution.as_ref(),
            args.sample,
            |g, checked, wrong| {
                let checked = moulin::text::count(checked, "position", "positions");
                wrong_total += wrong;
                outln!("{g}: {} ({checked} checked)", verdict(wrong))
            },
        )
    })?;
    if wrong_total > 0 {
        return Err(format!(
            "{} (of the placing solution) with their successors",
            disagree(wrong_total)
        )
        .into());
    }
    Ok(())
}
