//! `moulin train fit`: fits the evaluation's placing weights to labelled positions
//! (`train::fit`) and prints them, or writes them as Rust source.

use crate::commands::failure::Failure;
use crate::commands::output::out;
use moulin::durable::{self, CommandFile};
use moulin::search::eval::{LinearTerms, INPUT_NAMES};
use moulin::train::fit::{self, FitPlan, Fitted};
use std::path::PathBuf;

/// The flags of `moulin train fit`.
#[derive(clap::Args, Debug, Clone)]
pub struct FitArgs {
    /// Rule preset the labels are for.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Label journals of `moulin train label` (default: every labels-*.txt in
    /// ~/.cache/moulin/train/<variant>).
    #[arg(long, num_args = 1..)]
    pub labels: Vec<PathBuf>,
    /// The scale K of the logistic function, in centi-pieces.
    #[arg(long, default_value_t = 200.0)]
    pub scale: f64,
    /// Gradient steps.
    #[arg(long, default_value_t = 3000)]
    pub steps: usize,
    /// Pull of each weight towards its starting value (L2, per centi-piece squared).
    #[arg(long, default_value_t = 1e-9)]
    pub l2: f64,
    /// Games (match records or PGN, e.g. those given to `train label --games`) whose results
    /// are blended into the labels of the positions they reached: the goal of such a position is
    /// (1 - λ) σ(label / K) + λ r, r the mean score of the side to move in those games.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub results: Vec<PathBuf>,
    /// λ, the games' results' share of the goal where `--results` has them (0 to 1).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Fit the tapered weights only, keeping the late correction at zero.
    #[arg(long)]
    pub no_late: bool,
    /// Fit the moving correction too, from the labelled moving positions in which neither side
    /// flies (e.g. those of `train label --games ... --moving 20`); otherwise it stays at zero.
    #[arg(long)]
    pub moving: bool,
    /// The moving correction's fade: it counts in full while the side nearer to flying can
    /// lose this many pieces before it flies, and one such share less for each piece fewer
    /// (0: in full until a side flies).
    #[arg(long, default_value_t = 0, value_name = "PIECES", value_parser = clap::value_parser!(i32).range(0..=9))]
    pub fade: i32,
    /// Where to write the weights (Rust source), whole or not at all; never one of the labels or
    /// --results files. Default: print them only.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the file at --out even if it is not a file of weights.
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// `moulin train fit`.
pub fn run_fit(args: &FitArgs) -> Result<(), Failure> {
    let rules = moulin::Rules::named(&args.variant)?;
    let terms = LinearTerms::for_rules(&rules).ok_or_else(|| {
        format!(
            "the learned placing weights are for {}; variant {} has other rules",
            moulin::search::eval::fitted().variant,
            args.variant
        )
    })?;
    if args.scale.is_nan() || args.scale <= 0.0 {
        return Err(Failure::usage(format!(
            "--scale must be positive (got {})",
            args.scale
        )));
    }
    if args.fade > 0 && !args.moving {
        return Err(Failure::usage(format!(
            "--fade {} fades the moving correction, which only --moving fits",
            args.fade
        )));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(Failure::usage(format!(
            "--lambda must be within 0 to 1 (got {})",
            args.lambda
        )));
    }
    let files = fit::label_files(&args.variant, &args.labels)?;
    if let Some(out) = &args.out {
        let mut named = vec![CommandFile::replaces_own(
            "--out",
            out,
            fit::OWN,
            args.force,
        )];
        named.extend(files.iter().map(|f| CommandFile::reads("--labels", f)));
        named.extend(
            args.results
                .iter()
                .map(|f| CommandFile::reads("--results", f)),
        );
        durable::check_files(&named)?;
    }
    let results = fit::game_results(&args.results, &rules)?;
    let plan = FitPlan {
        scale: args.scale,
        steps: args.steps,
        l2: args.l2,
        lambda: args.lambda,
        late: !args.no_late,
        moving: args.moving,
        fade: args.fade,
    };
    let fitted = fit::fit(&files, &rules, &terms, &results, &plan)?;
    print_losses(args, &fitted, files.len());
    print_weights(&fitted);
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let text = fit::source_text(&fitted.weights, &command, &about(args, &fitted, &files));
    match &args.out {
        Some(path) => {
            durable::write_atomic(path, text.as_bytes())?;
            eprintln!("written to {}", path.display());
        }
        None => out!("{text}")?,
    }
    Ok(())
}

/// Prints the examples and the losses before and after.
fn print_losses(args: &FitArgs, f: &Fitted, files: usize) {
    let (placing, train, held) = f.placing;
    if !args.results.is_empty() {
        eprintln!(
            "{} of them reached by the games of {} (λ {})",
            f.with_results,
            moulin::text::count(args.results.len(), "file", "files"),
            args.lambda
        );
    }
    eprintln!(
        "{} (of {} labelled, in {}): {train} to fit, {held} held out",
        moulin::text::count(placing, "placing position", "placing positions"),
        f.read,
        moulin::text::count(files, "file", "files")
    );
    let (fitted, held_out) = (f.fitted_loss, f.held_loss);
    eprintln!(
        "loss x1e4 (mean |error| cp): fitted {:.3} ({:.1}) -> {:.3} ({:.1}); held out {:.3} ({:.1}) -> {:.3} ({:.1})",
        fitted.before.0 * 1e4,
        fitted.before.1,
        fitted.after.0 * 1e4,
        fitted.after.1,
        held_out.before.0 * 1e4,
        held_out.before.1,
        held_out.after.0 * 1e4,
        held_out.after.1
    );
    if args.moving {
        let (moving, mtrain, mheld) = f.moving;
        let m = f.moving_loss;
        eprintln!(
            "{moving} moving positions: {mtrain} to fit, {mheld} held out; held-out loss x1e4 \
             (mean |error| cp) {:.3} ({:.1}) -> {:.3} ({:.1})",
            m.before.0 * 1e4,
            m.before.1,
            m.after.0 * 1e4,
            m.after.1
        );
    }
}

/// Prints the fitted weights, one input a line.
fn print_weights(f: &Fitted) {
    let weights = &f.weights;
    eprintln!(
        "{:<16}{:>6}{:>6}{:>10}{:>6}{:>10}{:>6}",
        "", "us", "them", "late us", "them", "moving us", "them"
    );
    for (i, name) in INPUT_NAMES.iter().enumerate() {
        eprintln!(
            "{name:<16}{:>6}{:>6}{:>10}{:>6}{:>10}{:>6}",
            weights.us[i],
            weights.them[i],
            weights.late_us[i],
            weights.late_them[i],
            weights.moving_us[i],
            weights.moving_them[i]
        );
    }
    eprintln!(
        "{:<16}{:>6}{:>16}{:>16}",
        "tempo", weights.tempo, weights.late_tempo, weights.moving_tempo
    );
}

/// What the written source says of the data that made it.
fn about(args: &FitArgs, f: &Fitted, files: &[PathBuf]) -> String {
    let (placing, train, held) = f.placing;
    let held_out = f.held_loss;
    let mut about = format!(
        "{placing} placing positions ({train} fitted, {held} held out) from {} label files ({}); \
         scale {}; held-out loss x1e4 {:.3} -> {:.3}, mean |error| {:.1} -> {:.1} cp",
        files.len(),
        files
            .iter()
            .filter_map(|f| f.file_name()?.to_str().map(String::from))
            .collect::<Vec<_>>()
            .join(", "),
        args.scale,
        held_out.before.0 * 1e4,
        held_out.after.0 * 1e4,
        held_out.before.1,
        held_out.after.1
    );
    if args.moving {
        let m = f.moving_loss;
        about += &format!(
            "; moving correction (fade {}): {} moving positions, held-out loss x1e4 {:.3} -> \
             {:.3}, mean |error| {:.1} -> {:.1} cp",
            args.fade,
            f.moving.0,
            m.before.0 * 1e4,
            m.after.0 * 1e4,
            m.before.1,
            m.after.1
        );
    }
    about
}
