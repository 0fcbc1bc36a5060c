//! The `moulin` binary: with no arguments it speaks the protocol on stdin/stdout; otherwise it
//! runs one of the subcommands of `commands` (the command layer is the binary's, as cargo's
//! `src/bin/cargo/commands/` over its library: the library needs neither clap nor a terminal).
//! Logs go to stderr (`RUST_LOG`). How it ends (a failure, a closed output) is
//! `commands::output`'s to say.

mod commands;

use commands::output;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    // Each line says when it was written, in seconds since the start, and who wrote it:
    // `[   1.234 INFO  moulin::protocol] ...`.
    let start = Instant::now();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format(move |f, record| {
            let style = f.default_level_style(record.level());
            writeln!(
                f,
                "[{:8.3} {style}{:<5}{style:#} {}] {}",
                start.elapsed().as_secs_f64(),
                record.level(),
                record.target(),
                record.args()
            )
        })
        .init();
    match commands::parse() {
        Ok(args) => output::ending(commands::run(args)),
        Err(e) => output::clap_ending(&e),
    }
}
