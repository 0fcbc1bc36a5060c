//! `moulin analyse`: grades every move of a game, or (with `--position`) values every legal move
//! of one position (docs/play-and-analyse.md, "Analysis").

use super::args::{engine_settings, read_knowledge, EngineFiles};
use super::output::{out, outln};
use crate::commands::failure::{Context, Failure};
use moulin::analyse::analyst::RecordGame;
use moulin::analyse::{analyse_report, analyst, html, Analyst, Setup};
use moulin::book::Book;
use moulin::durable::{self, CommandFile, Role};
use moulin::engine::inventory::{Absent, BookKnown, Inventory, Settings as NamedBy};
use moulin::rules::game::Game;
use moulin::shipped::Origin;
use std::path::PathBuf;

/// The flags of `moulin analyse`.
#[derive(clap::Args, Debug)]
#[allow(clippy::struct_excessive_bools)] // Command-line switches, each read on its own.
pub struct AnalyseArgs {
    /// A game record (PGN-shaped, docs/matches.md "Game records (PGN)"); its first game unless --game.
    pub file: Option<PathBuf>,
    /// Which game of the file (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// The moves of a game (or, with --position, of the way to the position), instead of a
    /// file.
    #[arg(long, num_args = 1.., conflicts_with = "file")]
    pub moves: Vec<String>,
    /// Start from this position string (protocol.md §3) instead of the empty board.
    #[arg(long, conflicts_with = "file")]
    pub fen: Option<String>,
    /// Rule preset for --moves and --fen: nine, twelve, lasker, morabaraba, no-reform,
    /// protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Show every legal move of the position reached (after --moves, or the --fen), valued,
    /// best first, instead of grading a game.
    #[arg(long)]
    pub position: bool,
    /// Search time per position, in milliseconds (1 to 600000), instead of the default depth
    /// (with --depth, whichever comes first): the values then vary from run to run with the
    /// machine's load.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: Option<u64>,
    /// Search depth per position (1 to 64; 12 unless --movetime): with one thread and no
    /// --movetime, two runs give the same values and labels.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Value every legal move of every position of the game (the advisor's view, in --json and
    /// --html): one search that follows every root move, slower. Placing positions the
    /// solution covers (with --tables) get every move's exact value anyway.
    #[arg(long, conflicts_with = "position")]
    pub all_moves: bool,
    /// The opening book whose moves are shown as book moves, not graded (while the game follows
    /// it from its first move, after the record's own `{book}` moves), instead of moulin's book
    /// of the variant.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Grade every move, the opening's too: neither the record's `{book}` moves nor moulin's
    /// opening book are set apart.
    #[arg(long)]
    pub no_book: bool,
    /// Endgame tables: covered positions get their exact value. By default the set `moulin
    /// tables install` installed for the variant, if any (as the engine's `TablesPath`); `none`
    /// for none.
    #[arg(long, value_name = "DIR|none")]
    pub tables: Option<PathBuf>,
    /// The opening's solution (the placing solution's first plies, exact at once): this file,
    /// or `none`; by default book/<variant>-opening.sol found as the book is. A whole placing
    /// solution in --tables wins. A file named that cannot be used ends the command.
    #[arg(long, value_name = "FILE|none")]
    pub opening_solution: Option<PathBuf>,
    /// The network evaluation the searches use: this file, or `none` for the hand-written
    /// evaluation; by default book/<variant>.nnue found as the book is (as the engine's own
    /// option does). A file named that cannot be used ends the command.
    #[arg(long, value_name = "FILE|none")]
    pub eval_file: Option<PathBuf>,
    /// Search threads, 1 to 64.
    #[arg(long, default_value_t = 1, value_parser = super::args::search_threads())]
    pub threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub hash: u64,
    /// With --position in the placing phase: the exact value (win, draw or loss) of every legal
    /// move, by searching every placement left to the end of the placing with the endgame
    /// tables (--tables, which must cover every moving position) at the leaves. Cheap from the
    /// middle of the placing (about ply 9 on), dear before.
    #[arg(long, requires_all = ["position", "tables"])]
    pub exact: bool,
    /// Print JSON (one object) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the analysis as one HTML page (works offline, no address fetched): a board to
    /// step through the game (arrow keys, the moves, the graph), the value graph, an
    /// evaluation bar, each side's summary. Whole or not at all; never the record file; an
    /// existing file is refused unless --force; a path that cannot be written is said before the
    /// analysis. Not with --position: the page is that of a graded game.
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub html: Option<PathBuf>,
    /// Replace an existing --html file.
    #[arg(long, requires = "html")]
    pub force: bool,
}

/// Checks the files before any work: the --html page is neither the record nor a file there
/// already (unless --force), and its folder takes a new file.
fn check_files(args: &AnalyseArgs) -> Result<(), Failure> {
    let Some(html) = &args.html else {
        return Ok(());
    };
    let mut files = vec![CommandFile {
        what: "--html",
        path: html,
        role: if args.force {
            Role::Writes
        } else {
            Role::Creates("give --force to replace it")
        },
    }];
    if let Some(file) = &args.file {
        files.push(CommandFile::reads("the record file", file));
    }
    if let Some(dir) = &args.tables {
        files.push(CommandFile::reads("--tables", dir));
    }
    Ok(durable::check_files(&files)?)
}

/// The start, the moves and the tags to analyse: from the record file or the flags.
fn game_and_moves(args: &AnalyseArgs) -> Result<RecordGame, Failure> {
    if let Some(path) = &args.file {
        return Ok(analyst::game_of_file(path, args.game)?);
    }
    let rules = moulin::Rules::named(&args.variant).usage()?;
    let game = match &args.fen {
        Some(text) => Game::from_fen(text, rules).context("--fen").usage()?,
        None => Game::new(rules),
    };
    if args.moves.is_empty() && args.fen.is_none() && !args.position {
        return Err(Failure::usage(
            "nothing to analyse: give a record file, or --moves (or --fen with --position)",
        ));
    }
    Ok(RecordGame {
        start: game,
        moves: args.moves.clone(),
        tags: vec![("Variant".into(), args.variant.clone())],
        book: 0,
    })
}

/// How many moves, from the first, are book moves, shown as such and not graded: the record's
/// `{book}` moves, then those of the opening book (--book, or moulin's book of the variant when
/// there is one) while the game follows it; none with --no-book. And what the book is.
fn book_moves(
    args: &AnalyseArgs,
    record: &RecordGame,
    played: &[(Game, moulin::Move)],
) -> Result<(usize, BookKnown), Failure> {
    if args.no_book {
        return Ok((0, BookKnown::Absent(Absent::NoOwnBook)));
    }
    let (book, known) = if let Some(path) = &args.book {
        let book = Book::load(path).context("--book")?;
        let known = BookKnown::Ready {
            origin: Origin::File(path.clone()),
            positions: book.len(),
        };
        (Some(book), known)
    } else {
        let variant = record
            .tags
            .iter()
            .find(|(k, _)| k == "Variant")
            .map_or("nine", |(_, v)| v.as_str());
        match moulin::book::default_book(variant) {
            None => (None, BookKnown::Absent(Absent::NoneForTheseRules)),
            // A default book that does not load grades the opening instead: said on stderr.
            Some(source) => match Book::load_source(&source) {
                Ok(book) => {
                    let known = BookKnown::Ready {
                        origin: source.origin(),
                        positions: book.len(),
                    };
                    (Some(book), known)
                }
                Err(e) => {
                    eprintln!("moulin: {source}: {e}; the opening is graded");
                    (None, BookKnown::Absent(Absent::Unusable))
                }
            },
        }
    };
    let imposed = record.book.min(played.len());
    let followed = book.map_or(0, |b| {
        played[imposed..]
            .iter()
            .take_while(|(before, mv)| b.has_move(before.position(), *mv))
            .count()
    });
    Ok((imposed + followed, known))
}

/// What the grades know, said on stderr (the report is on stdout) as the engine says it, the
/// settings named by this command's flags: the evaluation, the opening's solution, the book (for
/// a game), the tables.
fn say_knowledge(inventory: &Inventory, book: Option<BookKnown>) {
    let with_book = book.is_some();
    let shown = Inventory {
        book: book.unwrap_or(BookKnown::Absent(Absent::TurnedOff)),
        ..inventory.clone()
    };
    let [evaluation, opening, book_line, tables] = shown.lines_naming(NamedBy::FLAGS);
    for line in [
        Some(evaluation),
        Some(opening),
        with_book.then_some(book_line),
        Some(tables),
    ]
    .into_iter()
    .flatten()
    {
        eprintln!("{line}");
    }
}

/// Runs `moulin analyse`.
pub(super) fn run(args: &AnalyseArgs) -> Result<(), Failure> {
    check_files(args)?;
    let record = game_and_moves(args)?;
    let (start, tags) = (&record.start, &record.tags);
    let files = EngineFiles {
        tables: args.tables.as_deref(),
        opening_solution: args.opening_solution.as_deref(),
        eval_file: args.eval_file.as_deref(),
    };
    let settings = engine_settings(*start.rules(), &files)?;
    let knowledge = read_knowledge(&settings, &files)?;
    let inventory = knowledge.inventory.clone();
    let setup = Setup {
        hash_mb: args.hash as usize,
        threads: args.threads,
        tables: knowledge.tables,
        network: knowledge.network,
        depth: args.depth,
        movetime: args.movetime,
    };
    let mut analyst = Analyst::new(&setup);
    // Every move is checked before any search.
    // A move of --moves that cannot be played is a usage error; one of a record file, a failure.
    let (game, played) = analyst::play_moves(start, &record.moves).map_err(|e| {
        let failure = Failure::from(e);
        if args.file.is_none() {
            failure.into_usage()
        } else {
            failure
        }
    })?;
    if args.position {
        say_knowledge(&inventory, None);
    }
    if args.position && args.exact {
        let exact = analyst.exact_values(&game)?;
        return out!("{}", analyse_report::exact_moves(&exact, args.json));
    }
    if args.position {
        let advice = analyst.advice(&game)?;
        return out!("{}", analyse_report::advice(&advice, args.json));
    }
    let (book, book_known) = book_moves(args, &record, &played)?;
    say_knowledge(&inventory, Some(book_known));
    let graded = analyst.grade_game(
        &played,
        &game,
        book,
        args.all_moves,
        &crate::commands::progress::Bars::default(),
    );
    if let Some(path) = &args.html {
        let title = match &args.file {
            Some(f) => format!("moulin analysis: {} game {}", f.display(), args.game),
            None => "moulin analysis".to_string(),
        };
        let page = html::page(&graded, start, &game, &title, tags);
        durable::write_atomic(path, page.as_bytes())?;
    }
    if args.json {
        outln!("{}", analyse_report::json_game(&graded, &game, tags))
    } else {
        out!(
            "{}",
            analyse_report::text_game(&graded, &game, &analyst.budget())
        )
    }
}
