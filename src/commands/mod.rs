//! The command line: every subcommand of the `moulin` binary, parsed by clap, each run by a
//! thin handler over the library layers below. A command of its own has a file here
//! (`<command>_cmd.rs`); a family of commands has a folder with its subcommands and what they
//! share (`book/`, `tables/`, `train/`, and `matches/` for `match`, `openings` and `replay`);
//! the terminal game, a front end of its own, has a folder of its parts (`play/`). What the
//! handlers share sits below this dispatch: `failure.rs`, `output.rs`, `args.rs`.
//! With no subcommand the binary speaks the protocol.

mod analyse_cmd;
mod args;
mod bench_cmd;
pub mod book;
pub mod failure;
mod matches;
pub mod output;
mod perft_cmd;
mod play;
pub mod progress;
mod solve_cmd;
mod tables;
mod train;

use args::search_threads;
use clap::{CommandFactory, Parser, Subcommand};
use failure::Failure;

/// The command line: a subcommand, or none (the protocol) with options set first.
#[derive(Parser)]
#[command(
    name = "moulin",
    version,
    about = "An engine for the mill game (Nine Men's Morris, Mühle).\n\nWith no subcommand, moulin speaks its UCI-style protocol on stdin/stdout (see protocol.md)."
)]
pub struct Cli {
    /// The subcommand; none speaks the protocol.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Set a protocol option before the protocol starts, as `setoption name NAME value VALUE`
    /// would (repeatable; for GUIs that set none, such as Nine Morris 3D: `--option
    /// TablesPath=/path/to/tables`). A bad name or value ends moulin with the error.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// The subcommands of `moulin`.
#[derive(Subcommand)]
pub enum Command {
    /// Count the positions after a number of plies
    ///
    /// Count the positions reached after exactly <DEPTH> plies (draw rules ignored).
    Perft {
        /// Plies to count (0 to the limit; the protocol's `perft` has the same).
        #[arg(value_parser = perft_cmd::parse_depth, help = perft_cmd::depth_help())]
        depth: u32,
        /// Start from this position string instead of the empty board.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in either notation (`d6xb4` or `d6 xb4`).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
        #[arg(long, default_value = "nine")]
        variant: String,
        /// `turn`: a move and its removal are one ply; `action`: a removal is a ply of its own.
        #[arg(long, default_value = "turn")]
        convention: String,
        /// Print one line `<move> <count>` per root move.
        #[arg(long)]
        divide: bool,
    },
    /// The search's node-count signature and speed
    ///
    /// Search fixed positions to a fixed depth (1 thread, 16 MB) and print the node count, a
    /// signature of the search, and the speed.
    Bench {
        /// Search every position to this depth instead of its own: 1 to 20 (each position's own
        /// is 8 to 14; every ply more costs about twice the time: 17 takes about a minute).
        #[arg(long, value_parser = clap::value_parser!(u32)
              .range(1..=i64::from(moulin::search::bench::MAX_DEPTH)))]
        depth: Option<u32>,
        /// Search threads, 1 to 64 (the signature is defined for 1).
        #[arg(long, default_value_t = 1, value_parser = search_threads())]
        threads: usize,
    },
    /// Play a match or a tournament between engines
    ///
    /// Play an engine-versus-engine match (or a tournament of more engines) through the
    /// protocol, with clocks and statistics.
    Match(Box<matches::match_cmd::MatchArgs>),
    /// Make a balanced opening book for matches
    ///
    /// Make a balanced opening book: enumerate placement openings and keep those an engine
    /// scores within a margin.
    Openings(matches::openings_cmd::OpeningsArgs),
    /// Re-check a match's records under moulin's rules
    ///
    /// Re-check a match's records (--records or --pgn): every move and every result, under
    /// moulin's rules; then the results summed as the match printed them.
    Replay(matches::replay_cmd::ReplayArgs),
    /// Grade a game's moves, or value a position's
    ///
    /// Grade every move of a game (a record file or --moves): the value before and after, the
    /// best move and line, a label by the value lost; or, with --position, value every legal
    /// move of one position (see docs/play-and-analyse.md, "Analysis").
    Analyse(analyse_cmd::AnalyseArgs),
    /// Prove a placing position's value with the tables
    ///
    /// Prove the value of the start (or of the position after --moves) by a search over the
    /// placing with the moving endgame tables at the leaves; prints the value, the positions
    /// visited and the time (see docs/solving.md).
    Solve(solve_cmd::SolveArgs),
    /// Play a game against moulin at the terminal
    ///
    /// Play a game against moulin at the terminal: the board drawn, moves in either notation
    /// with line editing, hint, undo, save and load (see docs/play-and-analyse.md, "Playing").
    Play(play::PlayArgs),
    /// Build, check and time the opening book
    ///
    /// The engine's opening book: build one by deep search, check one, time its lookups.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Build, pack, install and verify the solution
    ///
    /// Endgame tables: build them by retrograde analysis, tally them, verify them, plan a
    /// cluster build (see docs/endgame-tables.md, "Endgame tables").
    #[command(subcommand)]
    Tables(tables::TablesCommand),
    /// Learn the evaluation: weights, suites, the network
    ///
    /// Learn the evaluation: the placing weights from deep-search labels, critical positions,
    /// and the network from the solution's exact values (see docs/learning.md).
    #[command(subcommand)]
    Train(train::TrainCommand),
}

/// The command line of this process, parsed; that of `moulin match` read first as cutechess-cli
/// would spell it (`src/commands/matches/cutechess_flags.rs`), its notes told on stderr.
///
/// # Errors
///
/// clap's (a usage error, `--help`, `--version`), or a cutechess flag moulin reads otherwise.
pub fn parse() -> Result<Cli, clap::Error> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let Some(at) = matches::cutechess_flags::match_position(&args) else {
        return Cli::try_parse_from(args);
    };
    let mut cli = Cli::command();
    let longs: Vec<String> = cli
        .find_subcommand("match")
        .map(|m| {
            m.get_arguments()
                .filter_map(|a| a.get_long().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    match matches::cutechess_flags::translate(&args, at, &longs) {
        Ok(t) => {
            for note in t.notes {
                eprintln!("moulin: note: {note}");
            }
            Cli::try_parse_from(t.args)
        }
        Err(why) => Err(cli.error(clap::error::ErrorKind::UnknownArgument, why)),
    }
}

/// Runs what the command line asks for.
///
/// # Errors
///
/// What went wrong, or `Failure::Closed` when standard output's reader left.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        None => {
            let options = cli
                .options
                .iter()
                .map(|o| match o.split_once('=') {
                    Some((name, value)) => Ok((name.trim().to_string(), value.to_string())),
                    None => {
                        Err(Failure::usage("expected NAME=VALUE").context(format!("--option {o}")))
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            match moulin::protocol::run(options) {
                Err(moulin::protocol::ProtocolError::Output { source }) => {
                    Err(Failure::of_stdout(source))
                }
                // What `--option` set is the command line's.
                Err(
                    e @ (moulin::protocol::ProtocolError::Option { .. }
                    | moulin::protocol::ProtocolError::NamedFile { .. }),
                ) => Err(Failure::usage(e)),
                done => Ok(done?),
            }
        }
        Some(_) if !cli.options.is_empty() => Err(Failure::usage(
            "--option sets protocol options: give it without a subcommand",
        )),
        Some(Command::Perft {
            depth,
            fen,
            moves,
            variant,
            convention,
            divide,
        }) => perft_cmd::run(depth, fen, &moves, &variant, &convention, divide),
        Some(Command::Bench { depth, threads }) => bench_cmd::run(depth, threads),
        Some(Command::Match(args)) => matches::match_cmd::run(*args),
        Some(Command::Analyse(args)) => analyse_cmd::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Solve(args)) => solve_cmd::run(&args),
        Some(Command::Openings(args)) => matches::openings_cmd::run(&args),
        Some(Command::Replay(args)) => matches::replay_cmd::run(&args),
        Some(Command::Book(command)) => book::run(command),
        Some(Command::Tables(command)) => tables::run(command),
        Some(Command::Train(command)) => train::run(command),
    }
}
