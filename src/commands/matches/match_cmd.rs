//! `moulin match`: an engine-versus-engine match through the protocol, with clocks and
//! statistics; the progress bar (W/D/L, Elo, LLR) and a line per finished game on stderr, as
//! the runner reports them, and the summary on stdout.

use super::match_openings::OpeningsFlag;
use super::match_screen::{interrupted, Kept, Screen};
use crate::commands::args::{self, EngineFiles};
use crate::commands::failure::{Context, Failure};
use crate::commands::output::out;
use moulin::durable::{self, CommandFile, Role};
use moulin::matches::engines::gbgp_engine::{self, GbgpError};
use moulin::matches::engines::live_engines;
use moulin::matches::engines::spec::{self, EngineSpec};
use moulin::matches::games::adjudicate::{Adjudication, DrawRule, ResignRule};
use moulin::matches::games::referee::{GameSettings, TimeControl};
use moulin::matches::numbers::ratings::MAX_ANCHOR_ELO;
use moulin::matches::numbers::stats::{self, Sprt};
use moulin::matches::run::lineup::Tournament;
use moulin::matches::run::records_file;
use moulin::matches::run::runner::{self, OpeningSource, Plan};
use moulin::matches::run::summary;
use moulin::matches::{quoting, MAX_CONCURRENCY, MAX_GAMES, MAX_RANDOM_PLIES};
use moulin::rules::Rules;
use moulin::tables::Tables;
use moulin::text::quoted;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// What `moulin match --help` says after the flags: the engine spec, adjudication, tournaments,
/// what is printed and the exit status (each line within 80 columns, as clap shows it).
const AFTER_HELP: &str = "Engine spec: key=value words in one argument, e.g.
  --engine \"name=new cmd=target/release/moulin option.Hash=64 notation=action\"
Keys: cmd (command line), arg (one more argument), name, dir (working
directory), notation (turn|action), rules (variant|options|both|none: how the
rules are sent), option.<Name>=<value> (setoption), proto (uci|gbgp: gbgp speaks
the dialect of the Nine Morris 3D GUI, nine and twelve men's morris only). A
spec without '=' is a bare command line.
Time keys (each engine its own; the default is --tc or --movetime):
  tc=<base>[+<inc>]          a clock: base in seconds or minutes:seconds, the
                             increment in seconds, e.g. tc=10+0.1 or tc=1:00+0.1
  tc=<moves>/<base>[+<inc>]  the base again every <moves> turns (movestogo)
  tc=inf                     no time: give nodes or depth (see --search-timeout)
  st=<seconds>, movetime=<ms>  a fixed time per move (go movetime)
  nodes=<N>, depth=<N>       go ... nodes N / depth N, with the time control
--each \"<words>\" gives words every engine gets unless its own spec sets that
key, e.g. --each \"tc=10+0.1 option.Hash=64\".

Adjudication: the installed endgame tables (moulin tables install; --tables DIR
for others, --tables none for none) end a game at the first position they decide
under the rules (exact); --resign and --draw (off by default) use the engines'
scores as cutechess-cli does. The record's end= and the PGN's Termination say
which.

Tournaments: three or more engines play a round-robin (every pair) unless
--tournament gauntlet (the first engine against each other one) says otherwise;
--games is per pairing, pair p of every pairing has the same opening, pairings
interleaved by pair; --resume and every flag but --sprt work as for a match. The
summary ranks the engines by Elo from all games by maximum likelihood (logistic,
a draw half a point; ± the 95% error from the likelihood's curvature), anchored
on --anchor (default: the first engine) at --anchor-elo (default 0); `n/a` for
an engine with no finite rating (it won or lost every game); then a crosstable
and each pairing's W/D/L, Elo with its interval, LOS (docs/matches.md,
\"Tournaments\").

Results are from the first engine's view. Elo intervals and the SPRT use the
pentanomial model over game pairs (same opening, colours swapped).

One line per finished game on stderr, whatever stderr is, and every
--score-interval games (10) the score, as cutechess-cli prints them:
  Finished game N (white vs black): result {moulin's reason}
  Score of a vs b: W - L - D  [score] games
  Elo difference: +12.3 [-25.0, +49.1], LOS: 74.2%, DrawRatio: 40.0%
  SPRT: llr 0.51 (17.4%), lbound -2.94, ubound 2.94
and, in a tournament of more than two engines, the ranking of every engine
instead. Ctrl-C prints the standings so far and where the finished games are:
with --records, the command that resumes the match; with --pgn only, that file
(the same command plays a new match and adds its games to it); then ends moulin
by the signal.

Exit status:
  0  the match finished (all its games played, or the SPRT decided)
  1  an error: an engine could not start before the first game, a file could
     not be read or written, an opening a proto=gbgp engine cannot be sent, an
     engine failed to start 3 times in a row later (the games played are summed
     up first)
  2  a usage error: a bad flag or value, fewer than two engines, --sprt with
     more than two engines or --tournament, a variant a proto=gbgp engine
     cannot play; nothing played
  SIGINT, SIGTERM, SIGHUP: the engines are killed, the standings so far and
     where the finished games are (as on Ctrl-C) are printed, and moulin ends by
     that signal (130, 143, 129 in a shell); the records (and the --pgn file)
     keep every game finished before it";

/// The flags of `moulin match`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = AFTER_HELP
)]
pub struct MatchArgs {
    /// An engine spec (give two for a match, or more for a tournament).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Games to play (pairs of games on the same opening with colours swapped); in a tournament,
    /// games of each pairing.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Play a tournament of the engines: `gauntlet` (the first engine against each other one)
    /// or `round-robin` (every pair, the default with more than two engines).
    #[arg(long, value_name = "KIND", value_parser = ["gauntlet", "round-robin"])]
    pub tournament: Option<String>,
    /// The engine a tournament's ratings are anchored on (by name; default: the first); not for
    /// a match of two.
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    /// The anchor's rating, -10000 to 10000.
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub anchor_elo: f64,
    /// Spec words every engine gets unless its own spec sets that key (as cutechess-cli's
    /// -each), e.g. "tc=10+0.1 option.Hash=64".
    #[arg(long, value_name = "WORDS")]
    pub each: Option<String>,
    /// Clock per side, for engines whose spec gives no time: [<moves>/]<base>[+<inc>], the base
    /// in seconds or minutes:seconds and the increment in seconds (as cutechess-cli and `moulin
    /// play --clock` read it), e.g. 10+0.1, 1:00+0.1 or 40/60 (the default, 10+0.1, when no
    /// --movetime), or inf.
    #[arg(long, conflicts_with = "movetime")]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds instead of a clock (for engines whose spec gives no
    /// time).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// How late an answer may come (past the time left, or the movetime) before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub grace: u64,
    /// How long a search bounded by no time (tc=inf: nodes or depth only) may take before it
    /// loses on time.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub search_timeout: u64,
    /// Openings: a book file (opening lines, see book/README.md, or PGN games), or
    /// "file=<book> [format=lines|pgn] [order=sequential|random] [start=N] [plies=N]"; pairs
    /// cycle through it. The books of book/openings-*.txt are built in: such a path that is not
    /// there plays the built-in copy.
    #[arg(long, value_name = "FILE|K=V...", conflicts_with = "random_plies", value_parser = OpeningsFlag::parse)]
    pub openings: Option<OpeningsFlag>,
    /// Random openings of this many turns from the start position (the default, with 4).
    #[arg(long, value_name = "K")]
    pub random_plies: Option<usize>,
    /// Games played at once (each game runs both engines).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Write one record line per game to this file (check it with `moulin replay`); an existing
    /// file is refused unless --resume or --force. Never the --openings or the --pgn file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Continue the match of the --records file: play the games it does not hold yet. The
    /// engines and settings must be those of its header (--games may differ).
    #[arg(long, requires = "records", conflicts_with = "force")]
    pub resume: bool,
    /// Replace an existing --records file, and empty an existing --pgn file first.
    #[arg(long)]
    pub force: bool,
    /// Also write each game to this file as a PGN-shaped record (docs/matches.md, "Game records (PGN)"),
    /// readable by `moulin replay`; a file that is there gets the games added after its own, as
    /// cutechess-cli's -pgnout (--force empties it first; one that holds no PGN is refused).
    /// Never the --openings or the --records file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Sequential test: elo0=<a> elo1=<b> [alpha=0.05] [beta=0.05]; stops when decided. Elo
    /// from -1000 to 1000, elo0 below elo1; alpha and beta above 0 and below 0.5.
    #[arg(long, num_args = 1..=4, value_name = "K=V")]
    pub sprt: Option<Vec<String>>,
    /// Every N games, the running score on stderr, whatever stderr is, as cutechess-cli prints
    /// it (`Score of a vs b: W - L - D  [score] N`), with the Elo and the LLR of --sprt; in a
    /// tournament of more than two engines, the table of every engine's rating; 0: none.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub score_interval: u64,
    /// Seed for random openings (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time allowed for the handshake and each isready, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub ready_timeout: u64,
    /// Turns after which a game still going is adjudicated a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// Endgame tables that end a game as soon as they decide it under the rules, with their
    /// result: by default the set `moulin tables install` installed for the variant, if any
    /// (as the engine's `TablesPath`, play and analyse), its moving tables only; DIR, those of DIR
    /// (and, with the placing solution there, a placing position it values as a draw); `none`,
    /// no adjudication by tables. (Formerly --adjudicate-tables, still read.)
    #[arg(long, alias = "adjudicate-tables", value_name = "DIR|none")]
    pub tables: Option<PathBuf>,
    /// Adjudicate by the tables only positions of at most N pieces (both sides, on the board and
    /// in hand); e.g. 10 leaves the placing phase and large endgames to the engines.
    #[arg(long, value_name = "N")]
    pub adjudicate_pieces: Option<u32>,
    /// Adjudicate a loss: movecount=<N> score=<S> [twosided=true]: an engine whose score was -S
    /// or below for N of its turns in a row loses (twosided: its opponent's S or above as long).
    #[arg(long, num_args = 1..=3, value_name = "K=V")]
    pub resign: Option<Vec<String>>,
    /// Adjudicate a draw: [movenumber=<M>] movecount=<N> score=<S>: both engines' scores within S
    /// of zero for N turns each, after M full moves.
    #[arg(long, num_args = 1..=3, value_name = "K=V")]
    pub draw: Option<Vec<String>>,
}

/// The engines of `--engine`, with distinct names, and the tournament they play (none for a
/// match of two).
fn engines(args: &MatchArgs) -> Result<(Vec<EngineSpec>, Option<Tournament>), Failure> {
    let each = match &args.each {
        Some(text) => quoting::split(text).with_context(|| format!("--each {}", quoted(text)))?,
        None => Vec::new(),
    };
    let n = args.engines.len();
    if n < 2 {
        return Err(format!(
            "a match needs two --engine specs (or more, for a tournament), {n} given"
        )
        .into());
    }
    // Three or more play a round-robin unless told otherwise, as with cutechess-cli.
    let tournament = match args.tournament.as_deref() {
        Some(kind) => Tournament::parse(kind),
        None if n > 2 => Some(Tournament::RoundRobin),
        None => None,
    };
    if tournament.is_some() && args.sprt.is_some() {
        return Err(format!(
            "--sprt tests two engines: it cannot be given with {}",
            if n > 2 {
                format!("{n} engines")
            } else {
                "--tournament".to_string()
            }
        )
        .into());
    }
    let mut specs = args
        .engines
        .iter()
        .map(|s| EngineSpec::parse_with(s, &each))
        .collect::<Result<Vec<_>, _>>()?;
    spec::distinct_names(&mut specs);
    Ok((specs, tournament))
}

/// The engine of `--anchor` (an index into `specs`; the first by default).
fn anchor(
    args: &MatchArgs,
    specs: &[EngineSpec],
    tournament: Option<Tournament>,
) -> Result<usize, Failure> {
    if tournament.is_none() && (args.anchor.is_some() || args.anchor_elo != 0.0) {
        return Err(
            "--anchor and --anchor-elo rate a tournament's engines: a match of two has none".into(),
        );
    }
    let Some(name) = &args.anchor else {
        return Ok(0);
    };
    specs.iter().position(|s| &s.name == name).ok_or_else(|| {
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        Failure::from(format!(
            "--anchor {} names no engine; the engines are {}",
            moulin::text::quoted(name),
            names.join(", ")
        ))
    })
}

/// The time control of `--movetime` or `--tc` (10+0.1 by default).
fn time_control(args: &MatchArgs) -> Result<TimeControl, Failure> {
    match (args.movetime, &args.tc) {
        (Some(0), _) => Err("--movetime must be at least 1 ms".into()),
        (Some(ms), _) => Ok(TimeControl::MoveTime(Duration::from_millis(ms))),
        (None, Some(tc)) => Ok(TimeControl::parse_tc(tc)?),
        (None, None) => Ok(TimeControl::parse_tc("10+0.1")?),
    }
}

/// Checks that every engine's searches are bounded: by a time, nodes or a depth.
fn check_bounded(specs: &[EngineSpec], tc: TimeControl) -> Result<(), Failure> {
    match specs.iter().find(|s| !s.control(tc).is_bounded()) {
        Some(s) => Err(format!(
            "engine {} has no time (tc=inf) and no nodes= or depth=: its searches would never end",
            quoted(&s.name)
        )
        .into()),
        None => Ok(()),
    }
}

/// Checks the numbers of games and of games at once.
fn check_counts(args: &MatchArgs) -> Result<(), Failure> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.games > MAX_GAMES {
        return Err(format!(
            "--games {} is more than the limit of {MAX_GAMES}",
            args.games
        )
        .into());
    }
    if args.concurrency == 0 || args.concurrency > MAX_CONCURRENCY {
        return Err(format!("--concurrency must be between 1 and {MAX_CONCURRENCY}").into());
    }
    Ok(())
}

/// The seed of the random openings: `--seed`, else that of the resumed records, else the clock.
fn seed(args: &MatchArgs) -> u64 {
    let given_seed = args.seed.or_else(|| match (&args.records, args.resume) {
        // A resumed match keeps the seed of its records unless another is given.
        (Some(path), true) => records_file::settings_of(path)
            .and_then(|s| records_file::setting(&s, "seed")?.parse().ok()),
        _ => None,
    });
    given_seed.unwrap_or_else(moulin::rng::clock_seed)
}

/// Where the openings come from, and how the settings line names it.
fn opening_source(
    args: &MatchArgs,
    rules: &Rules,
    seed: u64,
) -> Result<(OpeningSource, String), Failure> {
    if let Some(flag) = &args.openings {
        let book = flag.book(rules, seed)?;
        return Ok((OpeningSource::Book(book), flag.setting()));
    }
    let plies = args.random_plies.unwrap_or(4);
    if plies > MAX_RANDOM_PLIES {
        return Err(Failure::Usage(
            format!("--random-plies {plies} is more than the limit of {MAX_RANDOM_PLIES}").into(),
        ));
    }
    Ok((OpeningSource::Random(plies), format!("random:{plies}")))
}

/// Checks the files before anything is made: neither output is the openings file nor the other
/// output, and records that are there are refused unless --resume or --force (a `--pgn` file
/// that is there is added to).
fn check_files(args: &MatchArgs) -> Result<(), Failure> {
    let output = |what, path, how| CommandFile {
        what,
        path,
        role: if args.resume || args.force {
            Role::Writes
        } else {
            Role::Creates(how)
        },
    };
    let mut files = Vec::new();
    if let Some(path) = &args.records {
        let how = "give --resume to continue that match, or --force to replace it";
        files.push(output("--records", path, how));
    }
    if let Some(path) = &args.pgn {
        // Added to as cutechess-cli adds to its -pgnout file; replaced with --force.
        files.push(CommandFile::writes("--pgn", path));
    }
    if let Some(flag) = args.openings.as_ref().filter(|f| f.shipped().is_none()) {
        files.push(CommandFile::reads("--openings", &flag.file));
    }
    // Two flags naming one file is a usage error; a file in the way, a failure (as documented).
    durable::check_files(&files).map_err(|e| match e {
        durable::DurableError::SameFile { .. } => Failure::from(e).into_usage(),
        e => Failure::from(e),
    })
}

/// A word of the records' settings line, as key and value.
type SettingsWord = (&'static str, String);

/// Words of the records' settings line.
type SettingsWords = Vec<SettingsWord>;

/// The adjudication `args` ask for, with the settings words that name it (none when off, so
/// that records of earlier matches resume). Tables named that cannot be read are an error (exit
/// 1); installed ones that cannot be are said on stderr, and the match goes without.
fn adjudication(args: &MatchArgs, rules: &Rules) -> Result<(Adjudication, SettingsWords), Failure> {
    let mut adj = Adjudication::default();
    let mut words = Vec::new();
    if let Some(r) = &args.resign {
        let rule = ResignRule::parse(r).usage()?;
        words.push(("resign", rule.to_string()));
        adj.resign = Some(rule);
    }
    if let Some(d) = &args.draw {
        let rule = DrawRule::parse(d).usage()?;
        words.push(("draw", rule.to_string()));
        adj.draw = Some(rule);
    }
    if let Some((tables, word)) = adjudication_tables(args.tables.as_deref(), rules)? {
        log::info!(
            "adjudication by {} tables{}",
            tables.pairs().len(),
            if tables.placing().is_some() {
                " and the placing solution"
            } else {
                ""
            }
        );
        words.push(word);
        if let Some(n) = args.adjudicate_pieces {
            words.push(("adjudicate-pieces", n.to_string()));
        }
        adj.max_pieces = args.adjudicate_pieces;
        adj.tables = Some(Arc::new(tables));
    }
    Ok((adj, words))
}

/// The tables of `--tables` (`named`) and the settings word that names them: those of a folder
/// named, none for `none`, else the set installed for the rules, found as the engine, `play` and
/// `analyse` find it (`args::engine_settings` with the tables not named), without its placing
/// solution: a whole one values the start of nine a draw, and would end every game at once.
fn adjudication_tables(
    named: Option<&Path>,
    rules: &Rules,
) -> Result<Option<(Tables, SettingsWord)>, Failure> {
    match named {
        Some(dir) if dir.as_os_str().eq_ignore_ascii_case("none") => Ok(None),
        Some(dir) => {
            log::info!("reading the tables of {} for adjudication", dir.display());
            let tables = Tables::open(dir, rules).map_err(|e| {
                Failure::from(e)
                    .context(format!("--tables {}", dir.display()))
                    .into_usage()
            })?;
            Ok(Some((
                tables,
                ("adjudicate-tables", dir.display().to_string()),
            )))
        }
        None => {
            let none = Path::new("none");
            let files = EngineFiles {
                tables: None,
                opening_solution: Some(none),
                eval_file: Some(none),
            };
            let settings = args::engine_settings(*rules, &files)?;
            let installed = args::read_knowledge(&settings, &files)?.tables;
            Ok(installed.and_then(Arc::into_inner).map(|mut tables| {
                tables.drop_placing();
                (tables, ("tables", "installed".to_string()))
            }))
        }
    }
}

/// Checks that the GBGP engines can play the variant (a usage error, exit status 2) from every
/// opening (an error, 1) before anything starts.
fn check_gbgp(
    specs: &[EngineSpec],
    rules: &Rules,
    variant: &str,
    openings: &OpeningSource,
) -> Result<(), Failure> {
    let book = match openings {
        OpeningSource::Book(book) => Some(book.as_slice()),
        OpeningSource::Random(_) => None,
    };
    gbgp_engine::check(specs, rules, variant, book).map_err(|e| match e {
        GbgpError::Variant { .. } | GbgpError::Bound { .. } => Failure::from(e).into_usage(),
        e @ GbgpError::Start { .. } => Failure::from(e),
    })
}

/// The records' settings line: the engines (and a tournament's kind and anchor) and every
/// setting that changes the games, for `--resume` to check. `each`, `search-timeout` and the
/// adjudication (`extra`) are written only when used, so that the records of a match without
/// them still resume; `tc` (`--tc` or `--movetime`, or their default) only when an engine plays
/// it, its spec (or `--each`) giving no time of its own: the line holds what was played.
fn settings_line(
    args: &MatchArgs,
    specs: &[EngineSpec],
    tc: TimeControl,
    (openings, seed): (String, u64),
    tournament: SettingsWords,
    extra: SettingsWords,
) -> String {
    let untimed = specs
        .iter()
        .any(|s| s.control(tc).time == TimeControl::Infinite);
    let each = args.each.iter().map(|e| ("each", e.clone()));
    let search_timeout = untimed.then(|| ("search-timeout", args.search_timeout.to_string()));
    let default_played = specs.iter().any(|s| s.time.is_none());
    let tc = default_played.then(|| ("tc", tc.to_string()));
    args.engines
        .iter()
        .map(|e| ("engine", e.clone()))
        .chain(tournament)
        .chain(each)
        .chain([("variant", args.variant.clone())])
        .chain(tc)
        .chain([("grace", args.grace.to_string())])
        .chain(search_timeout)
        .chain([
            ("ready-timeout", args.ready_timeout.to_string()),
            ("max-plies", args.max_plies.to_string()),
            ("openings", openings),
            ("seed", seed.to_string()),
            ("games", args.games.to_string()),
        ])
        .chain(extra)
        .map(|(k, v)| format!("{k}={}", quoting::quote(&v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Refuses a path of the settings line (`--openings`, `--tables`) that holds a
/// control character when the match keeps records: their settings are one line, where a line
/// break is written as a space, and a resume with the other path would pass as the same match.
/// (Every word of an engine's spec and of `--each` was checked when read; between words, any
/// white space is one separator.)
fn check_recorded_paths(args: &MatchArgs) -> Result<(), Failure> {
    if args.records.is_none() {
        return Ok(());
    }
    let openings = args.openings.as_ref().map(|o| ("--openings", &o.file));
    let tables = args.tables.as_ref().map(|d| ("--tables", d));
    for (flag, path) in openings.into_iter().chain(tables) {
        let text = path.display().to_string();
        if let Some(c) = text.chars().find(|c| c.is_control()) {
            return Err(format!(
                "{flag} {} holds the control character {}, which the records cannot keep on \
                 their one settings line: give a path without one",
                quoted(&text),
                quoted(&c.to_string())
            )
            .into());
        }
    }
    Ok(())
}

/// The checked plan of the match `args` ask for. A value the command line gets wrong is a usage
/// error (exit status 2); a file that cannot be used is an error (1).
fn plan(args: MatchArgs) -> Result<Plan, Failure> {
    let (specs, tournament) = engines(&args).usage()?;
    let anchor = anchor(&args, &specs, tournament).usage()?;
    if args.anchor_elo.is_nan() || args.anchor_elo.abs() > MAX_ANCHOR_ELO {
        return Err(Failure::Usage(
            format!(
                "--anchor-elo {} is out of range (-{MAX_ANCHOR_ELO} to {MAX_ANCHOR_ELO})",
                stats::show_parameter(args.anchor_elo)
            )
            .into(),
        ));
    }
    let rules = Rules::named(&args.variant).usage()?;
    let tc = time_control(&args).usage()?;
    check_bounded(&specs, tc).usage()?;
    check_counts(&args).usage()?;
    check_recorded_paths(&args).usage()?;
    check_files(&args)?;
    let seed = seed(&args);
    let units = args.games.div_ceil(2).saturating_mul(match tournament {
        Some(t) => t.pairings(specs.len()).len(),
        None => 1,
    });
    let (openings, openings_setting) = opening_source(&args, &rules, seed)?;
    check_gbgp(&specs, &rules, &args.variant, &openings)?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose().usage()?;
    // Last: reading the tables takes a while, and every usage error is said before it.
    let (adjudication, adjudication_words) = adjudication(&args, &rules)?;
    let tournament_words = match tournament {
        // The anchor too, so that `replay` ranks the engines as the tournament did.
        Some(t) => vec![
            ("tournament", t.to_string()),
            ("anchor", specs[anchor].name.clone()),
            ("anchor-elo", stats::show_parameter(args.anchor_elo)),
        ],
        None => Vec::new(),
    };
    let settings = settings_line(
        &args,
        &specs,
        tc,
        (openings_setting, seed),
        tournament_words,
        adjudication_words,
    );
    Ok(Plan {
        specs,
        tournament,
        anchor: (anchor, args.anchor_elo),
        settings: GameSettings {
            rules,
            tc,
            grace: Duration::from_millis(args.grace),
            untimed: Duration::from_millis(args.search_timeout),
            ready_timeout: Duration::from_millis(args.ready_timeout),
            max_plies: args.max_plies,
            adjudication,
        },
        variant: rules.preset_name().unwrap_or("nine").to_string(),
        games: args.games,
        openings,
        concurrency: args.concurrency.min(units),
        sprt,
        records: args.records,
        pgn: args.pgn,
        resume: args.resume,
        force: args.force,
        seed,
        settings_line: settings,
    })
}

/// Runs `moulin match`: plays the match, a line per finished game on stderr, and prints the
/// summary on stdout. An engine that cannot start before the first game stops it at once; a
/// records file that cannot be written, or an engine that fails to start again and again,
/// stops the match later: the summary of the games played is printed, then the error returned.
pub(crate) fn run(args: MatchArgs) -> Result<(), Failure> {
    let interval = args.score_interval;
    let plan = plan(args)?;
    let screen = Screen::new(plan.tournament.map(|_| plan.anchor), plan.sprt, interval);
    // Ctrl-C (or SIGTERM, SIGHUP) kills the engines and ends the match here, where the standings
    // so far and the command that resumes it are told before moulin ends by the signal.
    live_engines::defer_end();
    // A helper that an engine daemonized (`setsid`) is adopted, and ended with the match.
    live_engines::adopt_orphans();
    let finished = runner::play(&plan, &|event| screen.show(event));
    let orphans = live_engines::end_orphans();
    if orphans > 0 {
        log::info!("ended {orphans} helper processes the engines left behind");
    }
    screen.clear();
    if let Some(signal) = live_engines::interrupted() {
        if let Ok(f) = &finished {
            if f.standings.games() > 0 {
                // The output may be gone with the terminal (SIGHUP): nothing to tell then.
                let _ = out!("{}", summary_of(&plan, f));
            }
        }
        let kept = Kept {
            records: plan.records.is_some(),
            pgn: plan.pgn.as_deref(),
        };
        interrupted(signal, &kept);
        live_engines::end_by(signal);
    }
    let finished = finished?;
    if finished.standings.games() > 0 {
        out!("{}", summary_of(&plan, &finished))?;
    }
    match finished.fatal {
        Some(e) => Err(e.to_string().into()),
        None => Ok(()),
    }
}

/// The summary of the games played, and the runner's overhead.
fn summary_of(plan: &Plan, finished: &runner::Finished) -> String {
    let mut text = summary::summary(
        plan,
        &finished.standings,
        finished.sprt_stop.as_ref(),
        finished.played,
        finished.secs,
    );
    let o = finished.overhead;
    if let Some(mean) = o.mean() {
        text.push_str(&format!(
            "Runner overhead: {:.3} ms a move (mean of {}), longest {:.3} ms\n",
            mean.as_secs_f64() * 1e3,
            o.gaps,
            o.longest.as_secs_f64() * 1e3
        ));
    }
    text
}
