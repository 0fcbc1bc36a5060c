//! `moulin train`: learning the placing phase (label, fit, critical, suite) and the network
//! evaluation (net).

mod train_critical;
mod train_fit;
mod train_label;
mod train_net;
mod train_suite;

use crate::commands::failure::Failure;
use clap::Subcommand;

/// The subcommands of `moulin train`.
#[derive(Subcommand)]
pub enum TrainCommand {
    /// Label placing positions by deep search
    ///
    /// Draw placing-phase positions (random openings and noisy self-play) and label each with
    /// the score of a deep search; resumes a stopped run.
    Label(train_label::LabelArgs),
    /// Fit the placing weights to labelled positions
    ///
    /// Learn the evaluation's placing weights from labelled positions (logistic regression on
    /// the labels' scores) and write them as Rust source.
    Fit(train_fit::FitArgs),
    /// Find critical placing positions
    ///
    /// Find placing positions where one or two moves keep the value and most others lose it
    /// (the critical-position suite); resumes a stopped run.
    Critical(train_critical::CriticalArgs),
    /// Measure an engine on a critical suite
    ///
    /// Measure an engine on a critical-position suite: the share of positions whose value it
    /// keeps at a fixed time a move.
    Suite(train_suite::SuiteArgs),
    /// Train the network from the exact values
    ///
    /// Make the network evaluation from the solution's exact values: the data (positions of
    /// every phase, each labelled by the placing solution and the moving tables), the training
    /// (resumable), the file (book/<variant>.nnue) and its 1-ply check on held-out positions.
    Net(train_net::NetArgs),
}

/// Runs a `moulin train` subcommand.
///
/// # Errors
///
/// What went wrong, or `Failure::Closed` when standard output's reader left.
pub(super) fn run(command: TrainCommand) -> Result<(), Failure> {
    match command {
        TrainCommand::Label(args) => train_label::run_label(&args),
        TrainCommand::Fit(args) => train_fit::run_fit(&args),
        TrainCommand::Critical(args) => train_critical::run_critical(&args),
        TrainCommand::Suite(args) => train_suite::run_suite(&args),
        TrainCommand::Net(args) => train_net::run_net(&args),
    }
}
