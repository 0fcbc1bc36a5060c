//! `moulin train net`: the network evaluation from the solution's exact values: the data
//! (`train::net_data`), the training (`train::net`), the file (`search::eval::network`), and the
//! check of its 1-ply choices on held-out positions (`train::net_check`), before and after.

use crate::commands::failure::{Context, Failure};
use crate::commands::output::outln;
use crate::commands::progress::Bars;
use moulin::durable::{self, CommandFile, Own};
use moulin::job_progress::Progress;
use moulin::rules::position::Position;
use moulin::rules::Rules;
use moulin::search::eval::network::{self, Network};
use moulin::train::net::{self, Plan, State};
use moulin::train::net_check::{self, Counts, Phase};
use moulin::train::net_data::{self, Truth};
use moulin::train::net_run::{self, Data};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The flags of `moulin train net`.
#[derive(clap::Args, Debug, Clone)]
pub struct NetArgs {
    /// Rule preset (its solution must be built: `moulin tables build`, then `--placing`).
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Positions of data in all (a run that stopped resumes; a larger count extends it).
    #[arg(long, default_value_t = 8_000_000)]
    pub positions: usize,
    /// Seed of the data, the first weights and the order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 8, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(16..=1_048_576))]
    pub batch: usize,
    /// Adam's step size at the start (it falls to a tenth by the last epoch).
    #[arg(long, default_value_t = 0.002)]
    pub rate: f32,
    /// Held-out positions the 1-ply check judges (0: none).
    #[arg(long, default_value_t = 50_000)]
    pub check: usize,
    /// The tables directory with the moving tables and the placing solution (default:
    /// ~/.cache/moulin/tables/<variant>).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// The network file to write (default: book/<variant>.nnue, where the engine finds it in a
    /// checkout).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the file at --out even if it is not a network.
    #[arg(long, conflicts_with = "only_check")]
    pub force: bool,
    /// Only check this network file on the held-out positions (no data made, no training).
    #[arg(long, conflicts_with = "out")]
    pub only_check: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// `moulin train net`.
pub fn run_net(args: &NetArgs) -> Result<(), Failure> {
    if !(args.rate > 0.0 && args.rate < 1.0) {
        return Err(Failure::usage(format!(
            "--rate must be above 0 and below 1 (got {})",
            args.rate
        )));
    }
    let rules = Rules::named(&args.variant).usage()?;
    if args.only_check.is_none() {
        durable::check_files(&[CommandFile::replaces_own(
            "--out",
            &out_path(args),
            Own {
                magic: network::MAGIC,
                name: "a moulin network",
            },
            args.force,
        )])?;
    }
    let dir = args
        .tables
        .clone()
        .unwrap_or_else(|| moulin::tables::default_dir(&args.variant));
    let truth_rules = rules.without_draw_rules();
    // The truth is the placing solution's: rules it cannot be solved for are said first, then
    // a folder that is not there, before a folder without it.
    if let Some(why) = moulin::tables::placing::unsupported(&truth_rules) {
        return Err(format!(
            "train net --variant {}: the network learns from the placing solution, and {why} \
             (moulin tables build takes --pieces 3 to {})",
            args.variant,
            moulin::tables::MAX_PIECES
        )
        .into());
    }
    let build = format!(
        "moulin tables build --pieces {} --dir {}, then --placing",
        rules.pieces,
        dir.display()
    );
    if !dir.is_dir() {
        return Err(format!(
            "the tables folder {} does not exist ({build})",
            dir.display()
        )
        .into());
    }
    let Some(solution) = moulin::tables::Tables::whole_placing(&dir, &truth_rules)? else {
        return Err(format!("no placing solution in {} ({build})", dir.display()).into());
    };
    let tables = moulin::tables::Tables::open(&dir, &truth_rules)
        .with_context(|| format!("the moving tables in {}", dir.display()))?;
    let truth = Truth {
        solution: &solution,
        tables: &tables,
    };
    let pool = moulin::parallel::pool(args.threads.map(usize::from), None)
        .context("cannot start the threads")?;
    pool.install(|| run_with(args, &rules, &truth))
}

fn run_with(args: &NetArgs, rules: &Rules, truth: &Truth) -> Result<(), Failure> {
    let data_file = net_data::default_path(&args.variant, args.seed);
    if let Some(parent) = data_file.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let bars = Bars::default();
    if args.only_check.is_none() {
        bars.note(&format!("data: {}", data_file.display()));
        net_data::make(&data_file, rules, truth, args.seed, args.positions, &bars)?;
    }
    let data = Data::of(net_data::read(&data_file, rules)?, rules);
    outln!(
        "data: {} positions drawn, {} distinct: {} to train on, {} held out",
        data.drawn,
        data.samples.len(),
        data.train.len(),
        data.held.len()
    )?;
    print_shares(&data.samples)?;
    let net = if let Some(file) = &args.only_check {
        Network::read(file, rules)?
    } else {
        let plan = Plan {
            epochs: args.epochs,
            batch: args.batch,
            rate: args.rate,
            seed: args.seed,
        };
        let state = net_run::train(&plan, &data_file, &data, &bars, |e| {
            outln!(
                "epoch {}: training loss {:.5}, held-out loss {:.5}",
                e.epochs,
                e.loss,
                e.held_loss
            )
        })?;
        write_network(args, rules, &state, &data)?
    };
    if args.check > 0 {
        check(&net, rules, truth, &data.held, args.check)?;
    }
    Ok(())
}

/// The trained `state` quantized (`net_run::quantize`) and written where `--out` says.
fn write_network(
    args: &NetArgs,
    rules: &Rules,
    state: &State,
    data: &Data,
) -> Result<Network, Failure> {
    let command = format!(
        "moulin train net --variant {} --positions {} --seed {} --epochs {} --batch {} --rate {}",
        args.variant, args.positions, args.seed, args.epochs, args.batch, args.rate
    );
    let (made, scale) = net_run::quantize(state, data, rules, &args.variant, &command);
    let out = out_path(args);
    let bytes = made.to_bytes();
    moulin::durable::write_atomic(&out, &bytes)?;
    outln!(
        "{}: {} bytes, scale {scale} centi-pieces a unit; held-out loss {:.5}",
        out.display(),
        bytes.len(),
        net::loss(&state.net, &data.held_examples)
    )?;
    Ok(made)
}

/// Where the network goes: `--out`, by default book/<variant>.nnue.
fn out_path(args: &NetArgs) -> PathBuf {
    args.out
        .clone()
        .unwrap_or_else(|| Path::new("book").join(network::file_name(&args.variant)))
}

/// The data's shares: by source, by phase, by value.
fn print_shares(samples: &[net_data::Sample]) -> Result<(), Failure> {
    let mut by: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    for s in samples {
        let kind = if s.hands == [0, 0] {
            "moving"
        } else {
            "placing"
        };
        by.entry(format!("{:?} {kind}", s.source)).or_default()[(s.wdl() + 1) as usize] += 1;
    }
    for (what, [l, d, w]) in by {
        outln!(
            "  {what}: {} positions: {w} won, {d} drawn, {l} lost",
            l + d + w
        )?;
    }
    Ok(())
}

/// The 1-ply check on `check` held-out positions: the hand-written evaluation, then the network.
fn check(
    net: &Network,
    rules: &Rules,
    truth: &Truth,
    held: &[net_data::Sample],
    check: usize,
) -> Result<(), Failure> {
    let positions: Vec<Position> = held
        .iter()
        .take(check)
        .map(|s| s.position(&rules.without_draw_rules()))
        .collect();
    let by_net = |pos: &Position| net.evaluate(pos);
    let judged = net_check::judge(
        &positions,
        truth.solution,
        truth.tables,
        &[&net_run::hand_written, &by_net],
    );
    outln!(
        "1-ply choices that keep the value, held-out positions (hand-written -> network; among \
         the positions where some move loses value)"
    )?;
    let phases: Vec<&Phase> = judged[0].keys().collect();
    for phase in phases {
        let (a, b) = (judged[0][phase], judged[1][phase]);
        line(&phase.to_string(), &a, &b)?;
    }
    for ((name, a), (_, b)) in net_check::totals(&judged[0])
        .into_iter()
        .zip(net_check::totals(&judged[1]))
    {
        line(name, &a, &b)?;
    }
    Ok(())
}

fn line(name: &str, a: &Counts, b: &Counts) -> Result<(), Failure> {
    let pct = |k: u64, n: u64| 100.0 * k as f64 / n.max(1) as f64;
    outln!(
        "  {name:<16} {:>7} positions: {:5.1}% -> {:5.1}%   {:>7} testing: {:5.1}% -> {:5.1}%",
        a.positions,
        pct(a.kept, a.positions),
        pct(b.kept, b.positions),
        a.testing,
        pct(a.testing_kept, a.testing),
        pct(b.testing_kept, b.testing)
    )
}
