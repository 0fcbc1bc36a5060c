//! The `moulin` binary: with no arguments it speaks the protocol on stdin/stdout; otherwise it
//! runs one of the subcommands of `moulin::cli`. Logs go to stderr (`RUST_LOG`). How it ends
//! (a failure, a closed output) is `moulin::cli::output`'s to say.

use clap::Parser;
use moulin::cli::{self, output};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match cli::Cli::try_parse() {
        Ok(args) => output::ending(cli::run(args)),
        Err(e) => output::clap_ending(&e),
    }
}
