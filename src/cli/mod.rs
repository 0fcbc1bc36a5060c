//! The command line: every subcommand of the `moulin` binary, parsed by clap, each run by a
//! file of its own here (`<command>_cmd.rs`, or `<command>_<subcommand>.rs`), a thin handler over
//! the library layers below. With no subcommand the binary speaks the protocol.

mod analyse_cmd;
mod bench_cmd;
mod book_bench;
pub mod book_build;
mod book_check;
mod book_cover;
mod book_exact;
pub mod book_expand;
mod match_cmd;
mod match_openings;
mod openings_cmd;
pub mod output;
mod perft_cmd;
mod play_cmd;
mod replay_cmd;
mod solve_cmd;
mod tables_build;
mod tables_keep;
mod tables_placing_values;
mod tables_plan;
mod tables_plan_placing;
mod tables_sample;
mod tables_stats;
mod tables_verify;
mod train_critical;
mod train_fit;
mod train_label;
mod train_suite;

use clap::{Parser, Subcommand};
use output::Failure;

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

/// The value parser of the `--threads` of a command whose threads search one position
/// together or solve one each (`bench`, `analyse`, `solve`, `openings`, `book cover`, `book
/// exact`): 1 to the search's `MAX_THREADS` (64), the bound of the protocol's `Threads`.
fn search_threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=crate::search::MAX_THREADS as u64)
}

/// The subcommands of `moulin`.
#[derive(Subcommand)]
pub enum Command {
    /// Count the positions reached after exactly <DEPTH> plies (draw rules ignored).
    Perft {
        /// Plies to count (0 to 40).
        #[arg(value_parser = perft_cmd::parse_depth)]
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
    /// Search fixed positions to a fixed depth (1 thread, 16 MB) and print the node count, a
    /// signature of the search, and the speed.
    Bench {
        /// Search every position to this depth instead of its own: 1 to 20 (each position's own
        /// is 8 to 14; every ply more costs about twice the time: 17 takes about a minute).
        #[arg(long, value_parser = clap::value_parser!(u32)
              .range(1..=i64::from(crate::search::bench::MAX_DEPTH)))]
        depth: Option<u32>,
        /// Search threads, 1 to 64 (the signature is defined for 1).
        #[arg(long, default_value_t = 1, value_parser = search_threads())]
        threads: usize,
    },
    /// Play an engine-versus-engine match (or a tournament of more engines) through the
    /// protocol, with clocks and statistics.
    Match(Box<match_cmd::MatchArgs>),
    /// Make a balanced opening book: enumerate placement openings and keep those an engine
    /// scores within a margin.
    Openings(openings_cmd::OpeningsArgs),
    /// Re-check a match's records (--records or --pgn): every move and every result, under
    /// moulin's rules; then the results summed as the match printed them.
    Replay(replay_cmd::ReplayArgs),
    /// Grade every move of a game (a record file or --moves): the value before and after, the
    /// best move and line, a label by the value lost; or, with --position, value every legal
    /// move of one position (see docs/play-and-analyse.md, "Analysis").
    Analyse(analyse_cmd::AnalyseArgs),
    /// Prove the value of the start (or of the position after --moves) by a search over the
    /// placing with the moving endgame tables at the leaves; prints the value, the positions
    /// visited and the time (see docs/solving.md).
    Solve(solve_cmd::SolveArgs),
    /// Play a game against moulin at the terminal: the board drawn, moves in either notation
    /// with line editing, hint, undo, save and load (see docs/play-and-analyse.md, "Playing").
    Play(play_cmd::PlayArgs),
    /// The engine's opening book: build one by deep search, check one, time its lookups.
    #[command(subcommand)]
    Book(BookCommand),
    /// Endgame tables: build them by retrograde analysis, tally them, verify them, plan a
    /// cluster build (see docs/endgame-tables.md, "Endgame tables").
    #[command(subcommand)]
    Tables(TablesCommand),
    /// Learn the placing phase: label positions by deep search, fit the evaluation's placing
    /// weights to the labels, find critical positions (see docs/learning.md, "Learning the placing phase").
    #[command(subcommand)]
    Train(TrainCommand),
}

/// The subcommands of `moulin book`.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book by deep search (resumes an interrupted build; see book/README.md).
    Build(book_build::BuildArgs),
    /// Grow a book along its main lines by drop-out expansion, under a budget of positions
    /// (resumes a stopped run; see book/README.md).
    Expand(book_expand::ExpandArgs),
    /// Check a book: every line parses, every position is canonical and reachable, every move
    /// is legal; errors name the line.
    Check(book_check::CheckArgs),
    /// Check every book move of the placing with the exact solver and the endgame tables: list
    /// those that lose (lines already proven by `book cover` are skipped unless the tables hold
    /// the placing solution; resumes a stopped run; see book/README.md).
    Exact(book_exact::ExactArgs),
    /// Add proven lines where match openings end: the engine's move at each of its turns up to
    /// a ply, proven by the exact solver to keep the draw, every reply followed (resumes a
    /// stopped run; see book/README.md).
    Cover(book_cover::CoverArgs),
    /// Load a book and time its lookups.
    Bench(book_bench::BenchArgs),
}

/// The subcommands of `moulin tables`.
#[derive(Subcommand)]
pub enum TablesCommand {
    /// Compute every moving-phase position with 3 to N pieces a side (or one pair), resuming
    /// where a stopped build was.
    Build(tables_build::BuildArgs),
    /// One line per table: `W-B wins N losses N draws N max-win D max-loss D`, counted up to
    /// symmetry.
    Stats(tables_stats::DirArgs),
    /// Check every stored value (or an even sample of them) against its successors; fails on
    /// any disagreement.
    Verify(tables_verify::VerifyArgs),
    /// Print a shell script that submits the same build to a Slurm cluster as job arrays.
    Plan(tables_plan::PlanArgs),
    /// Draw positions from the tables, as match openings (`fen ...`) with their values.
    Sample(tables_sample::SampleArgs),
    /// Every position of the first plies, one per symmetry class, with its value by the placing
    /// solution and the moves that keep it (as tests/data/placing-values.txt).
    PlacingValues(tables_placing_values::PlacingValuesArgs),
    /// Search sampled positions and count the moves that keep the tables' value.
    Keep(tables_keep::KeepArgs),
}

/// The subcommands of `moulin train`.
#[derive(Subcommand)]
pub enum TrainCommand {
    /// Draw placing-phase positions (random openings and noisy self-play) and label each with
    /// the score of a deep search; resumes a stopped run.
    Label(train_label::LabelArgs),
    /// Learn the evaluation's placing weights from labelled positions (logistic regression on
    /// the labels' scores) and write them as Rust source.
    Fit(train_fit::FitArgs),
    /// Find placing positions where one or two moves keep the value and most others lose it
    /// (the critical-position suite); resumes a stopped run.
    Critical(train_critical::CriticalArgs),
    /// Measure an engine on a critical-position suite: the share of positions whose value it
    /// keeps at a fixed time a move.
    Suite(train_suite::SuiteArgs),
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
                    None => Err(format!("--option {o}: expected NAME=VALUE")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            match crate::protocol::run(options) {
                Err(crate::protocol::ProtocolError::Output { source }) => {
                    Err(Failure::of_stdout(&source))
                }
                done => Ok(done.map_err(|e| e.to_string())?),
            }
        }
        Some(_) if !cli.options.is_empty() => {
            Err("--option sets protocol options: give it without a subcommand".into())
        }
        Some(Command::Perft {
            depth,
            fen,
            moves,
            variant,
            convention,
            divide,
        }) => perft_cmd::run(depth, fen, &moves, &variant, &convention, divide),
        Some(Command::Bench { depth, threads }) => bench_cmd::run(depth, threads),
        Some(Command::Match(args)) => match_cmd::run(*args),
        Some(Command::Analyse(args)) => analyse_cmd::run(&args),
        Some(Command::Play(args)) => play_cmd::run(&args),
        Some(Command::Solve(args)) => solve_cmd::run(&args),
        Some(Command::Openings(args)) => openings_cmd::run(&args),
        Some(Command::Replay(args)) => replay_cmd::run(&args),
        Some(Command::Book(BookCommand::Build(args))) => {
            book_build::run_build(args).map_err(Failure::from)
        }
        Some(Command::Book(BookCommand::Expand(args))) => {
            book_expand::run_expand(args).map_err(Failure::from)
        }
        Some(Command::Book(BookCommand::Check(args))) => book_check::run_check(&args),
        Some(Command::Book(BookCommand::Exact(args))) => book_exact::run_exact(&args),
        Some(Command::Book(BookCommand::Cover(args))) => book_cover::run_cover(&args),
        Some(Command::Book(BookCommand::Bench(args))) => book_bench::run_bench(args),
        Some(Command::Tables(TablesCommand::Build(args))) => {
            tables_build::run(&args).map_err(Failure::from)
        }
        Some(Command::Tables(TablesCommand::Stats(args))) => tables_stats::run(&args),
        Some(Command::Tables(TablesCommand::Verify(args))) => tables_verify::run(&args),
        Some(Command::Tables(TablesCommand::Plan(args))) => tables_plan::run(&args),
        Some(Command::Tables(TablesCommand::Sample(args))) => tables_sample::run(&args),
        Some(Command::Tables(TablesCommand::PlacingValues(args))) => {
            tables_placing_values::run(&args)
        }
        Some(Command::Tables(TablesCommand::Keep(args))) => tables_keep::run(&args),
        Some(Command::Train(TrainCommand::Label(args))) => {
            train_label::run_label(&args).map_err(Failure::from)
        }
        Some(Command::Train(TrainCommand::Fit(args))) => train_fit::run_fit(&args),
        Some(Command::Train(TrainCommand::Critical(args))) => {
            train_critical::run_critical(&args).map_err(Failure::from)
        }
        Some(Command::Train(TrainCommand::Suite(args))) => train_suite::run_suite(&args),
    }
}
