//! The `moulin` binary: with no arguments it speaks the protocol on stdin/stdout; otherwise it
//! runs one of the subcommands of `moulin::commands`. Logs go to stderr (`RUST_LOG`). How it ends
//! (a failure, a closed output) is `moulin::commands::output`'s to say.

use clap::Parser;
use moulin::commands::{self, output};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match commands::Cli::try_parse() {
        Ok(args) => output::ending(commands::run(args)),
        Err(e) => output::clap_ending(&e),
    }
}
