//! `moulin book cover`: adds proven lines where match openings end (`book::cover`).

use crate::commands::failure::{Context, Failure};
use crate::commands::output::{outln, Report};
use moulin::book::{self, cover, format, graph};
use moulin::durable::{self, CommandFile};
use moulin::record::openings;
use moulin::rules::fen;
use moulin::tables::Tables;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The flags of `moulin book cover`.
#[derive(clap::Args, Debug)]
pub struct CoverArgs {
    /// The book to add the proven lines to (its line of a covered position is replaced).
    pub file: PathBuf,
    /// Endgame tables of every moving position of the book's rules (`moulin tables build
    /// --pieces 9` for nine).
    #[arg(long)]
    pub tables: PathBuf,
    /// Match openings (one a line, moves from the start, as `moulin match --openings` reads
    /// them), best exactly drawn (`moulin openings --exact`, such as
    /// book/openings-nine-exact50.txt): where every move of a turn loses, the position is named
    /// and that line goes no further.
    #[arg(long)]
    pub openings: PathBuf,
    /// Cover the first N openings of the file only.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Cover the engine's turns up to this ply (placements made; a 3-ply opening: Black's turns
    /// at plies 3 and 5 and White's at ply 4 with the default). Measured on 2 threads: the
    /// 1,768 turns to ply 5 after 50 openings in about 24 minutes (about 10 s a turn at ply 3, a
    /// second or two later), the 11,795 White turns at ply 6 after them in 625 s more.
    #[arg(long, default_value_t = 5,
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(1..=17))]
    pub to_ply: u32,
    /// At each turn of the opponent, follow the N replies a search ranks best; 0 follows every
    /// reply (one per class of replies equal under the board's symmetries).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub replies: usize,
    /// Depth of the searches that choose the engine's moves and rank the replies.
    #[arg(long, default_value_t = 10,
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(1..=30))]
    pub depth: u32,
    /// Solver threads, each deciding one position at a time (each remembers up to 16 million
    /// positions, a few hundred MB); 1 to 64.
    #[arg(long, default_value_t = 1,
          value_parser = crate::commands::args::search_threads())]
    pub threads: usize,
    /// Write the book with the proven lines to this file (whole or not at all; it may be the
    /// book itself).
    #[arg(long, value_name = "OUT")]
    pub out: PathBuf,
    /// Replace the file at --out even if it is not a book.
    #[arg(long)]
    pub force: bool,
}

/// `moulin book cover`.
pub fn run_cover(args: &CoverArgs) -> Result<(), Failure> {
    let started = Instant::now();
    check_files(args)?;
    let text = book::read_text(&args.file)?;
    let (mut header, lines) = format::parse(&text).map_err(|e| e.in_file(&args.file))?;
    let rules = header.rules()?;
    let deepest = header.plies.max(header.expanded);
    if args.to_ply >= deepest {
        return Err(Failure::usage(format!(
            "--to-ply {}: the book gives moves for {deepest} plies only (its header); cover \
             plies below it",
            args.to_ply
        )));
    }
    let mut list = openings::read_book_file(&args.openings, &rules)?;
    if let Some(n) = args.first {
        list.truncate(n);
    }
    let tables = Arc::new(
        Tables::open(&args.tables, &rules)
            .with_context(|| format!("endgame tables {}", args.tables.display()))?,
    );
    let starts = list
        .iter()
        .map(|o| o.game(&rules).map(|g| *g.position()))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = cover::CoverPlan {
        to_ply: args.to_ply,
        replies: args.replies,
        depth: args.depth,
        threads: args.threads,
        progress: &crate::commands::progress::Bars::default(),
    };
    let report = Report::default();
    let mut note = |note: cover::Note<'_>| {
        draw(&report, &note);
        report.go_on()
    };
    let covered = cover::cover(&header, lines, &starts, &tables, plan, &args.out, &mut note)?;
    report.finish()?;
    let covered = covered.ok_or("the cover stopped")?;
    let (proven, replaced, unreached) = (covered.proven, covered.replaced, covered.unreached);
    header.notes.push(format!(
        "covered by `moulin book cover --openings {}{} --to-ply {} --replies {} --depth {}`: {} \
         positions proven (>=draw), {replaced} of them replacing the book's line ({unreached} \
         positions no longer reached left out)",
        args.openings.display(),
        args.first
            .map_or(String::new(), |n| format!(" --first {n}")),
        args.to_ply,
        args.replies,
        args.depth,
        proven
    ));
    graph::write(&args.out, &header, covered.entries)?;
    outln!(
        "{}: {} proven positions ({replaced} replacing book lines, {unreached} positions no \
         longer reached left out) in {:.0} s",
        args.out.display(),
        proven,
        started.elapsed().as_secs_f64()
    )
}

/// The files of `moulin book cover`, checked before anything is read or written.
fn check_files(args: &CoverArgs) -> Result<(), Failure> {
    let journal = durable::with_suffix(&args.out, ".cover.partial");
    let mut files = vec![
        CommandFile::replaces_own("--out", &args.out, moulin::book::format::OWN, args.force),
        CommandFile::writes("the journal of --out", &journal),
        CommandFile::reads("--openings", &args.openings),
        CommandFile::reads("--tables", &args.tables),
    ];
    // --out may be the book itself, read whole before it is replaced whole.
    if !durable::same_file(&args.file, &args.out) {
        files.push(CommandFile::reads("the book", &args.file));
    }
    durable::check_files(&files)?;
    Ok(())
}

/// What the cover tells as it goes, drawn: a journal resumed, a lost or uncovered position, a
/// ply's tally.
fn draw(report: &Report, note: &cover::Note<'_>) {
    match note {
        cover::Note::Resumed { journal, positions } => {
            eprintln!(
                "{}: {} resumed",
                journal.display(),
                moulin::text::count(*positions, "position", "positions")
            );
        }
        cover::Note::Lost { ply, position } => {
            report.line(format_args!(
                "ply {ply}: every move loses: {}",
                fen::write(position)
            ));
        }
        cover::Note::Uncovered { ply, position } => report.line(format_args!(
            "ply {ply}: a position on the way is not covered by the tables: {}",
            fen::write(position)
        )),
        cover::Note::Ply { ply, report: r } => report.line(format_args!(
            "ply {ply}: {} of the engine, {} proven, {} mended (a losing choice replaced), {} \
             lost, {} not covered",
            moulin::text::count(r.turns, "turn", "turns"),
            moulin::text::count(r.kept, "choice", "choices"),
            r.mended,
            r.lost,
            r.uncovered
        )),
    }
}
