//! `moulin book exact`: checks every book move of the placing with the exact solver and the
//! endgame tables (`book::exact`), lists those that give value away, and on request writes the
//! book without them.

use crate::commands::failure::{Context, Failure};
use crate::commands::output::outln;
use moulin::book::BookMove;
use moulin::book::{self, exact, format};
use moulin::durable::{self, CommandFile};
use moulin::rules::notation::Convention;
use moulin::search::exact::solved;
use moulin::search::{Score, SolvedChoice};
use moulin::tables::Tables;
use std::path::PathBuf;

/// The flags of `moulin book exact`.
#[derive(clap::Args, Debug)]
pub struct ExactArgs {
    /// The book file.
    pub file: PathBuf,
    /// Endgame tables of every moving position of the book's rules (`moulin tables build
    /// --pieces 9` for nine).
    #[arg(long)]
    pub tables: PathBuf,
    /// Check the moves of book positions at this ply (placements made) and later: measured,
    /// about 1 s a position at ply 6, a few hundredths of a second a move at ply 7 and later;
    /// earlier plies cost far more (a position at ply 3: minutes).
    #[arg(long, default_value_t = 7,
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(0..=40))]
    pub min_ply: u32,
    /// Also write the book without the moves found to give value away (a position left with no
    /// move is dropped, and so is every position no longer reached through the book's moves)
    /// to this file, whole or not at all (not the book itself).
    #[arg(long, value_name = "OUT")]
    pub prune: Option<PathBuf>,
    /// Replace the file at --prune even if it is not a book.
    #[arg(long, requires = "prune")]
    pub force: bool,
    /// Solver threads, each checking one position at a time; 1 to 64.
    #[arg(long, default_value_t = 1,
          value_parser = crate::commands::args::search_threads())]
    pub threads: usize,
}

/// `moulin book exact`.
pub fn run_exact(args: &ExactArgs) -> Result<(), Failure> {
    let journal = durable::with_suffix(&args.file, ".exact.partial");
    let mut files = vec![
        CommandFile::reads("the book", &args.file),
        CommandFile::reads("--tables", &args.tables),
        CommandFile::writes("the journal of the book", &journal),
    ];
    if let Some(out) = &args.prune {
        files.push(CommandFile::replaces_own(
            "--prune",
            out,
            moulin::book::format::OWN,
            args.force,
        ));
    }
    durable::check_files(&files)?;
    let text = book::read_text(&args.file)?;
    let (header, lines) = format::parse(&text).map_err(|e| e.in_file(&args.file))?;
    let rules = header.rules()?;
    let tables = Tables::open(&args.tables, &rules)
        .with_context(|| format!("endgame tables {}", args.tables.display()))?;
    let solution = tables.clone();
    // With the placing solution every line is checked, those `book cover` proved too.
    let items = exact::items(&lines, args.min_ply, tables.placing().is_some());
    let found = exact::solve_items(
        &args.file,
        &items,
        &tables,
        args.threads,
        args.min_ply,
        &crate::commands::progress::Bars::default(),
    )?;
    let (away, by_ply) = exact::verdicts(&items, &found);
    for a in &away {
        outln!(
            "line {}: ply {} {} gives away a {}: {}",
            a.line,
            a.ply,
            a.mv.turn_notation(),
            moulin::search::exact::name(a.value),
            moulin::rules::fen::write(&a.pos)
        )?;
    }
    for (ply, t) in &by_ply {
        outln!(
            "ply {ply}: {}, {} giving value away, {} not covered",
            moulin::text::count(t.moves, "book move", "book moves"),
            t.away,
            moulin::text::count(t.uncovered, "position", "positions")
        )?;
    }
    let total: usize = by_ply.values().map(|t| t.away).sum();
    if let Some(out) = &args.prune {
        // With the placing solution, a position left with no move gets its most testing
        // value-keeping move.
        let replace = |pos: &moulin::rules::position::Position| {
            let moves = moulin::rules::movegen::legal_moves(pos, Convention::Turn);
            let mut rng = moulin::rng::Rng::new(0);
            let best = solved::choose(&solution, pos, &moves, SolvedChoice::Testing, &mut rng)?;
            Some(BookMove {
                mv: best.moves[0],
                score: Score::solved(best.value),
                weight: 100,
                exact: Some(best.value),
            })
        };
        let pruned = exact::write_pruned(
            out,
            &header,
            &lines,
            (&items, &found),
            args.min_ply,
            &replace,
        )?;
        outln!(
            "{}: {}, {} ({} value away dropped, {} given a value-keeping \
             move instead, {} left out)",
            out.display(),
            moulin::text::count(pruned.positions, "position", "positions"),
            moulin::text::count(pruned.moves, "move", "moves"),
            moulin::text::count(pruned.dropped, "move that gives", "moves that give"),
            moulin::text::count(pruned.replaced, "position", "positions"),
            moulin::text::count(pruned.left_out, "position", "positions")
        )?;
    }
    outln!(
        "{}: {} book moves from ply {} checked exactly, {total} give value away",
        args.file.display(),
        by_ply.values().map(|t| t.moves).sum::<usize>(),
        args.min_ply
    )?;
    if total > 0 && args.prune.is_none() {
        return Err(format!("{total} book moves give value away (listed above)").into());
    }
    Ok(())
}
