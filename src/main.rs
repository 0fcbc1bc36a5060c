//! The `moulin` binary: with no arguments it speaks the protocol on stdin/stdout; otherwise it
//! runs one of the subcommands of `moulin::cli`. Logs go to stderr (`RUST_LOG`).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match moulin::cli::run(moulin::cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("moulin: {e}");
            ExitCode::FAILURE
        }
    }
}
