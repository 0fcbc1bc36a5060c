//! `moulin book`: the opening book's commands (build, expand, check, exact, cover, bench).

mod book_bench;
pub mod book_build;
mod book_check;
mod book_cover;
mod book_exact;
pub mod book_expand;

use crate::commands::failure::Failure;
use clap::Subcommand;

/// The subcommands of `moulin book`.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book by deep search
    ///
    /// Build a book by deep search (resumes an interrupted build; see book/README.md).
    Build(book_build::BuildArgs),
    /// Grow a book along its main lines
    ///
    /// Grow a book along its main lines by drop-out expansion, under a budget of positions
    /// (resumes a stopped run; see book/README.md).
    Expand(book_expand::ExpandArgs),
    /// Check a book's lines, positions and moves
    ///
    /// Check a book: every line parses, every position is canonical and reachable, every move
    /// is legal; errors name the line.
    Check(book_check::CheckArgs),
    /// Check the book's placing moves exactly
    ///
    /// Check every book move of the placing with the exact solver and the endgame tables: list
    /// those that lose (lines already proven by `book cover` are skipped unless the tables hold
    /// the placing solution; resumes a stopped run; see book/README.md).
    Exact(book_exact::ExactArgs),
    /// Add proven lines where match openings end
    ///
    /// Add proven lines where match openings end: the engine's move at each of its turns up to
    /// a ply, proven by the exact solver to keep the draw, every reply followed (resumes a
    /// stopped run; see book/README.md).
    Cover(book_cover::CoverArgs),
    /// Load a book and time its lookups.
    Bench(book_bench::BenchArgs),
}

/// Runs a `moulin book` subcommand.
///
/// # Errors
///
/// What went wrong, or `Failure::Closed` when standard output's reader left.
pub(super) fn run(command: BookCommand) -> Result<(), Failure> {
    match command {
        BookCommand::Build(args) => book_build::run_build(args),
        BookCommand::Expand(args) => book_expand::run_expand(args),
        BookCommand::Check(args) => book_check::run_check(&args),
        BookCommand::Exact(args) => book_exact::run_exact(&args),
        BookCommand::Cover(args) => book_cover::run_cover(&args),
        BookCommand::Bench(args) => book_bench::run_bench(args),
    }
}
