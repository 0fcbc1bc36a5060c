//! `moulin match`: engine-versus-engine matches (in the manner of cutechess or fastchess, for
//! the mill game), with the tools around them: `moulin openings` builds balanced opening books
//! through any engine's protocol, and `moulin replay` re-checks a match's records.
//!
//! - `spec`: how `--engine` names an engine; `words`: the quoting that specs and records share.
//! - `engine`: the process driver (spawn, timed reads, kill).
//! - `referee`: one game under a real clock, every move checked by the rules.
//! - `openings`: book files and random openings; `book`: making books.
//! - `records`: one line per game, and their replay.
//! - `stats`: Elo, its interval, and the SPRT.
//! - `schedule` (this file): pairs of games over worker threads, progress and the summary.

pub mod book;
pub mod endgames;
pub mod engine;
pub mod records;
pub mod referee;
pub mod spec;
pub mod stats;
pub mod words;

use crate::record::openings::{self, Opening};
use crate::rng::Rng;
use crate::rules::board::{ByColor, Color};
use crate::rules::Rules;
use engine::Engine;
use indicatif::ProgressBar;
use records::{Recap, Record, RecordsFile};
use referee::{GameSettings, Seat, TimeControl};
use spec::EngineSpec;
use stats::{Decision, Sprt, Tally};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most games a match may ask for (games are produced one by one, so this is about time:
/// a billion games is years of play).
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most games played at once.
pub const MAX_CONCURRENCY: usize = 256;
/// The longest random openings, in turns.
pub const MAX_RANDOM_PLIES: usize = 100;
/// Start failures in a row (no `uciok`, no process, ...) after which an engine is given up and
/// the match stops.
pub const MAX_START_FAILURES: u32 = 3;

/// The flags of `moulin match`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Engine spec: key=value words in one argument, e.g.\n  --engine \"name=new cmd=target/release/moulin option.Hash=64 notation=action\"\nKeys: cmd (command line), arg (one more argument), name, dir (working directory),\nnotation (turn|action), rules (variant|options|both|none: how the rules are sent),\noption.<Name>=<value> (setoption). A spec without '=' is a bare command line.\n\nResults are from the first engine's view. Elo intervals and the SPRT use the pentanomial\nmodel over game pairs (same opening, colours swapped)."
)]
pub struct MatchArgs {
    /// An engine spec (give exactly two).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Games to play (pairs of games on the same opening with colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Clock per side: <base>+<inc> in seconds, e.g. 10+0.1 (the default when no --movetime).
    #[arg(long, conflicts_with = "movetime")]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds instead of a clock.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// How late an answer may come (past the time left, or the movetime) before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub grace: u64,
    /// Openings file (one opening a line, see book/README.md); pairs cycle through it in order.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
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
    /// file is refused unless --resume or --force.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Continue the match of the --records file: play the games it does not hold yet. The
    /// engines and settings must be those of its header (--games may differ).
    #[arg(long, requires = "records", conflicts_with = "force")]
    pub resume: bool,
    /// Replace an existing --records (and --pgn) file.
    #[arg(long)]
    pub force: bool,
    /// Also write each game to this file as a PGN-shaped record (README, "Game records"),
    /// readable by `moulin replay`; an existing file is refused unless --resume (which adds to
    /// it) or --force.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Sequential test: elo0=<a> elo1=<b> [alpha=0.05] [beta=0.05]; stops when decided.
    #[arg(long, num_args = 1..=4, value_name = "K=V")]
    pub sprt: Option<Vec<String>>,
    /// Seed for random openings (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time allowed for the handshake and each isready, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub ready_timeout: u64,
    /// Turns after which a game still going is adjudicated a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
}

/// The flags of `moulin replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A records file written by `moulin match --records`.
    pub file: PathBuf,
    /// An openings file whose openings are labelled drawn (e.g. book/openings-nine-d16.txt, the
    /// openings a depth-16 search keeps within ±50 cp): also list every game lost from one of
    /// them (the same opening up to the board's symmetries), by the engine that lost it.
    #[arg(long, value_name = "OPENINGS")]
    pub drawn: Option<PathBuf>,
}

/// `moulin replay`.
pub fn run_replay(args: ReplayArgs) -> Result<(), String> {
    // The report is made first, so that a bad openings file is the only thing printed.
    let report = match &args.drawn {
        Some(openings) => {
            let text = std::fs::read_to_string(&args.file)
                .map_err(|e| format!("cannot read records {}: {e}", args.file.display()))?;
            let source = args.file.display().to_string();
            Some(losses_from_drawn(&text, &source, openings)?)
        }
        None => None,
    };
    let replayed = records::replay_file(&args.file);
    print!("{}", report.unwrap_or_default());
    replayed
}

/// The report of `replay --drawn`: how many games began with an opening of the file `drawn`,
/// and each of them that an engine lost (game number, loser, opening, result).
/// Match records only (`source` names them in errors); an opening counts as the position it
/// reaches, so the same position reached by another order of moves counts too.
pub fn losses_from_drawn(
    records_text: &str,
    source: &str,
    drawn: &std::path::Path,
) -> Result<String, String> {
    let mut classes: Option<(Rules, rustc_hash::FxHashSet<u64>)> = None;
    let mut out = String::new();
    let (mut from_drawn, mut lost) = (0, Vec::new());
    for (n, line) in records_text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| {
            format!(
                "{source}:{}: {e} (--drawn reads match records, not PGN)",
                n + 1
            )
        };
        let r = records::Record::parse(line).map_err(at)?;
        let rules = Rules::named(&r.variant).map_err(|e| at(e.to_string()))?;
        let (of_rules, classes) = match &mut classes {
            Some(c) => c,
            None => {
                let mut keys = rustc_hash::FxHashSet::default();
                for o in openings::read_book_file(drawn, &rules).map_err(|e| e.to_string())? {
                    keys.insert(
                        crate::rules::symmetry::fold(
                            o.game(&rules).map_err(|e| e.to_string())?.position(),
                        )
                        .key,
                    );
                }
                classes.insert((rules, keys))
            }
        };
        if *of_rules != rules {
            return Err(at(format!(
                "variant {}: the records mix variants",
                r.variant
            )));
        }
        let start = r.opening.game(&rules).map_err(|e| at(e.to_string()))?;
        if !classes.contains(&crate::rules::symmetry::fold(start.position()).key) {
            continue;
        }
        from_drawn += 1;
        let loser = match r.result.as_str() {
            "1-0" => &r.black,
            "0-1" => &r.white,
            _ => continue,
        };
        lost.push((
            loser.clone(),
            format!(
                "  game {}: {loser} lost ({} - {}, {}) from \"{}\"\n",
                r.game,
                r.white,
                r.black,
                r.result,
                r.opening.to_line()
            ),
        ));
    }
    let mut by: Vec<(&str, usize)> = Vec::new();
    for (name, _) in &lost {
        match by.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 += 1,
            None => by.push((name, 1)),
        }
    }
    let tally: Vec<String> = by.iter().map(|(n, k)| format!("{n} {k}")).collect();
    out.push_str(&format!(
        "{from_drawn} games from openings labelled drawn in {}; {} lost{}\n",
        drawn.display(),
        lost.len(),
        if lost.is_empty() {
            String::new()
        } else {
            format!(" (by {}):", tally.join(", "))
        }
    ));
    out.extend(lost.iter().map(|(_, l)| l.as_str()));
    Ok(out)
}

/// Everything a match needs, checked.
struct Plan {
    specs: [EngineSpec; 2],
    settings: GameSettings,
    variant: String,
    games: usize,
    openings: OpeningSource,
    concurrency: usize,
    sprt: Option<Sprt>,
    records: Option<PathBuf>,
    pgn: Option<PathBuf>,
    resume: bool,
    force: bool,
    seed: u64,
    /// What the records' header holds for `--resume` to check.
    settings_line: String,
}

/// Where the pairs' openings come from; they are made one pair at a time.
enum OpeningSource {
    /// A book, cycled through in order.
    Book(Vec<Opening>),
    /// Random openings of this many turns, from a generator seeded once for the match.
    Random(usize),
}

/// Which pair comes next, and its opening.
struct Schedule {
    next_pair: usize,
    rng: Rng,
    /// Games (numbered from 1) already in the records of a resumed match.
    done: HashSet<usize>,
}

impl Schedule {
    /// The next pair with a game still to play, and its opening; `None` when all are played.
    fn next(&mut self, plan: &Plan) -> Option<(usize, Opening)> {
        let pairs = plan.games.div_ceil(2);
        while self.next_pair < pairs {
            let p = self.next_pair;
            self.next_pair += 1;
            // Made for every pair, played or not, so that a resumed match has the same openings.
            let opening = match &plan.openings {
                OpeningSource::Book(book) => book[p % book.len()].clone(),
                OpeningSource::Random(plies) => {
                    openings::random_opening(&plan.settings.rules, *plies, &mut self.rng)
                }
            };
            if self.to_play(plan, p).next().is_some() {
                return Some((p, opening));
            }
        }
        None
    }

    /// The games of pair `p` still to play, numbered from 1.
    fn to_play<'a>(&'a self, plan: &Plan, p: usize) -> impl Iterator<Item = usize> + 'a {
        let games = plan.games;
        (2 * p + 1..=2 * p + 2).filter(move |g| *g <= games && !self.done.contains(g))
    }
}

fn plan(args: MatchArgs) -> Result<Plan, String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "a match needs exactly two --engine specs, {} given",
            args.engines.len()
        ));
    }
    let mut specs = args
        .engines
        .iter()
        .map(|s| EngineSpec::parse(s).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    spec::distinct_names(&mut specs);
    let rules = Rules::named(&args.variant).map_err(|e| e.to_string())?;
    let tc = match (args.movetime, &args.tc) {
        (Some(0), _) => return Err("--movetime must be at least 1 ms".into()),
        (Some(ms), _) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, Some(tc)) => TimeControl::parse_tc(tc)?,
        (None, None) => TimeControl::parse_tc("10+0.1")?,
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.games > MAX_GAMES {
        return Err(format!(
            "--games {} is more than the limit of {MAX_GAMES}",
            args.games
        ));
    }
    if args.concurrency == 0 || args.concurrency > MAX_CONCURRENCY {
        return Err(format!(
            "--concurrency must be between 1 and {MAX_CONCURRENCY}"
        ));
    }
    let given_seed = args.seed.or_else(|| match (&args.records, args.resume) {
        // A resumed match keeps the seed of its records unless another is given.
        (Some(path), true) => {
            records::settings_of(path).and_then(|s| records::setting(&s, "seed")?.parse().ok())
        }
        _ => None,
    });
    let seed = given_seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let pairs = args.games.div_ceil(2);
    let (openings, openings_setting) = match &args.openings {
        Some(path) => {
            if let Some(records) = &args.records {
                if same_file(path, records) {
                    return Err(format!(
                        "--records {} is the --openings file: give the records another name",
                        records.display()
                    ));
                }
            }
            let book = openings::read_book_file(path, &rules).map_err(|e| e.to_string())?;
            (OpeningSource::Book(book), path.display().to_string())
        }
        None => {
            let plies = args.random_plies.unwrap_or(4);
            if plies > MAX_RANDOM_PLIES {
                return Err(format!(
                    "--random-plies {plies} is more than the limit of {MAX_RANDOM_PLIES}"
                ));
            }
            (OpeningSource::Random(plies), format!("random:{plies}"))
        }
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let settings = [
        ("engine", args.engines[0].clone()),
        ("engine", args.engines[1].clone()),
        ("variant", args.variant.clone()),
        ("tc", tc.to_string()),
        ("grace", args.grace.to_string()),
        ("ready-timeout", args.ready_timeout.to_string()),
        ("max-plies", args.max_plies.to_string()),
        ("openings", openings_setting),
        ("seed", seed.to_string()),
    ]
    .iter()
    .map(|(k, v)| format!("{k}={}", words::quote(v)))
    .collect::<Vec<_>>()
    .join(" ");
    let specs: [EngineSpec; 2] = specs.try_into().expect("two specs");
    Ok(Plan {
        specs,
        settings: GameSettings {
            rules,
            tc,
            grace: Duration::from_millis(args.grace),
            ready_timeout: Duration::from_millis(args.ready_timeout),
            max_plies: args.max_plies,
        },
        variant: rules.preset_name().unwrap_or("nine").to_string(),
        games: args.games,
        openings,
        concurrency: args.concurrency.min(pairs),
        sprt,
        records: args.records,
        pgn: args.pgn,
        resume: args.resume,
        force: args.force,
        seed,
        settings_line: settings,
    })
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// What the workers share.
struct Shared {
    schedule: Schedule,
    recap: Recap,
    records: Option<RecordsFile>,
    /// The `--pgn` file.
    pgn: Option<RecordsFile>,
    /// Its `Date` and `TimeControl` tags.
    pgn_date: String,
    /// Start failures in a row, per engine.
    start_failures: [u32; 2],
    /// Why the match stopped before its end, when it did.
    fatal: Option<String>,
    sprt: Option<(f64, Decision)>,
}

/// `moulin match`: plays the match and prints the summary on stdout. A records file that cannot
/// be written, or an engine that cannot be started, stops the match: the summary of the games
/// played is printed, then the error returned.
pub fn run_match(args: MatchArgs) -> Result<(), String> {
    let plan = plan(args)?;
    let names = [plan.specs[0].name.as_str(), plan.specs[1].name.as_str()];
    let title = format!(
        "moulin match: {} vs {}, variant {}, {}, seed {}",
        names[0], names[1], plan.variant, plan.settings.tc, plan.seed
    );
    let mut recap = Recap::default();
    let mut done = HashSet::new();
    let records = match &plan.records {
        Some(path) if plan.resume => {
            let file = RecordsFile::resume(path, &title, &plan.settings_line, |r| {
                if !done.insert(r.game) {
                    return Err(format!(
                        "records {}: game {} is recorded twice",
                        path.display(),
                        r.game
                    ));
                }
                recap.add(r, names);
                Ok(())
            })?;
            log::info!("resuming: {} games already recorded", done.len());
            Some(file)
        }
        Some(path) => Some(RecordsFile::create(
            path,
            plan.force,
            &title,
            &plan.settings_line,
        )?),
        None => None,
    };
    let pgn = match &plan.pgn {
        Some(path) => Some(RecordsFile::open_plain(path, plan.force, plan.resume)?),
        None => None,
    };
    log::info!(
        "{} vs {}: {} games, variant {}, {}, seed {}",
        names[0],
        names[1],
        plan.games,
        plan.variant,
        plan.settings.tc,
        plan.seed
    );
    let bar = crate::progress::bar(
        plan.games as u64,
        u64::from(recap.tally.games()),
        "",
        "games",
    );
    let shared = Mutex::new(Shared {
        schedule: Schedule {
            next_pair: 0,
            rng: Rng::new(plan.seed),
            done,
        },
        recap,
        records,
        pgn,
        pgn_date: crate::date::Date::today().pgn(),
        start_failures: [0; 2],
        fatal: None,
        sprt: None,
    });
    // Resumed records may already decide the test.
    let decided = plan
        .sprt
        .as_ref()
        .map(|t| t.test(&lock(&shared).recap.tally));
    let stop = AtomicBool::new(matches!(decided, Some((_, d)) if d != Decision::Continue));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for i in 0..plan.concurrency {
            let spawned = std::thread::Builder::new()
                .name(format!("game-{i}"))
                .spawn_scoped(scope, || worker(&plan, &shared, &stop, &bar));
            if let Err(e) = spawned {
                log::warn!("could not start game thread {i}: {e}; playing with fewer");
                if i == 0 {
                    lock(&shared).fatal = Some(format!("could not start a game thread: {e}"));
                }
                break;
            }
        }
    });
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let shared = shared
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if shared.recap.tally.games() > 0 {
        print!("{}", summary(&plan, &shared.recap, secs));
    }
    match shared.fatal {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn worker(plan: &Plan, shared: &Mutex<Shared>, stop: &AtomicBool, bar: &ProgressBar) {
    let mut slots: [Option<Engine>; 2] = [None, None];
    let names = [plan.specs[0].name.as_str(), plan.specs[1].name.as_str()];
    while !stop.load(Ordering::SeqCst) {
        let next = lock(shared).schedule.next(plan);
        let Some((p, opening)) = next else { break };
        let games: Vec<usize> = lock(shared).schedule.to_play(plan, p).collect();
        for number in games {
            // A decided SPRT lets the pair finish; a fatal error does not.
            if lock(shared).fatal.is_some() {
                break;
            }
            // The first game of a pair (odd number) gives engine 0 White.
            let white = usize::from(number % 2 == 0);
            let [slot0, slot1] = &mut slots;
            let (ws, bs) = if white == 0 {
                (slot0, slot1)
            } else {
                (slot1, slot0)
            };
            let mut seats = ByColor::new(
                Seat {
                    spec: &plan.specs[white],
                    engine: ws,
                },
                Seat {
                    spec: &plan.specs[1 - white],
                    engine: bs,
                },
            );
            let played = referee::play(&mut seats, &opening, &plan.settings);
            let record = Record::new(
                number,
                &plan.specs[white].name,
                &plan.specs[1 - white].name,
                &plan.variant,
                &played,
            );
            let mut s = lock(shared);
            if s.fatal.is_some() {
                log::warn!("game {number} ended after the match was stopped: not counted");
                break;
            }
            if let Some(file) = s.records.as_mut() {
                if let Err(e) = file.append(&format!("{}\n", record.to_line())) {
                    s.fatal = Some(format!(
                        "{e}: the match is stopped; game {number} is not recorded, the games before it are"
                    ));
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            }
            let pgn_text = s.pgn.is_some().then(|| {
                let event = format!("moulin match: {} vs {}", names[0], names[1]);
                let tc = plan.settings.tc.to_string();
                crate::record::write(&record.to_pgn(&event, &s.pgn_date, &tc))
            });
            if let (Some(file), Some(text)) = (s.pgn.as_mut(), pgn_text) {
                if let Err(e) = file.append(&text) {
                    s.fatal = Some(format!(
                        "{e}: the match is stopped; game {number} is not in the PGN file"
                    ));
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            }
            let pair_done = s.recap.add(&record, names);
            if let referee::End::Forfeit { .. } = &played.end {
                log::warn!("game {number}: {}", played.end.reason());
            }
            count_starts(&mut s, &played, white, &slots, &plan.specs, stop);
            bar.inc(1);
            if pair_done {
                if let Some(sprt) = &plan.sprt {
                    let (llr, decision) = sprt.test(&s.recap.tally);
                    s.sprt = Some((llr, decision));
                    if decision != Decision::Continue {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            bar.set_message(progress_message(&s.recap.tally, s.sprt));
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
    }
}

/// Counts start failures in a row per engine (`white` is the engine that had White); stops the
/// match when one engine reaches `MAX_START_FAILURES`.
fn count_starts(
    s: &mut Shared,
    played: &referee::Played,
    white: usize,
    slots: &[Option<Engine>; 2],
    specs: &[EngineSpec; 2],
    stop: &AtomicBool,
) {
    for (k, slot) in slots.iter().enumerate() {
        if slot.is_some() {
            s.start_failures[k] = 0;
        }
    }
    if let referee::End::Forfeit {
        loser,
        at_start: true,
        ..
    } = &played.end
    {
        let k = if *loser == Color::White {
            white
        } else {
            1 - white
        };
        s.start_failures[k] += 1;
        if s.start_failures[k] >= MAX_START_FAILURES && s.fatal.is_none() {
            s.fatal = Some(format!(
                "{} failed to start {} times in a row (last: {}): the match is stopped",
                specs[k].name,
                MAX_START_FAILURES,
                played.end.reason()
            ));
            stop.store(true, Ordering::SeqCst);
        }
    }
}

fn progress_message(t: &Tally, sprt: Option<(f64, Decision)>) -> String {
    let mut m = format!("W {} D {} L {}", t.wins, t.draws, t.losses);
    if let Some(e) = t.estimate() {
        m.push_str(&format!("  Elo {}", stats::show_elo(e.elo)));
    }
    if let Some((llr, _)) = sprt {
        m.push_str(&format!("  LLR {llr:.2}"));
    }
    m
}

/// The results from the first engine's (`a`) view: W/D/L, score, Elo with its interval, pairs.
pub fn results(a: &str, t: &Tally) -> String {
    let mut out = format!(
        "W {}  D {}  L {}  (from {a}'s view)\n",
        t.wins, t.draws, t.losses
    );
    if let Some(e) = t.estimate() {
        out.push_str(&format!(
            "Score: {:.1}%\n",
            100.0 * t.score().unwrap_or(0.5)
        ));
        out.push_str(&format!(
            "Elo difference: {}  95% interval [{}, {}]  ({}: {} samples)\n",
            stats::show_elo(e.elo),
            stats::show_elo(e.low),
            stats::show_elo(e.high),
            e.model,
            e.samples
        ));
    }
    if t.pair_count() > 0 {
        let p = t.pairs;
        out.push_str(&format!(
            "Pairs by {a}'s points (0, 0.5, 1, 1.5, 2): {} {} {} {} {}\n",
            p[0], p[1], p[2], p[3], p[4]
        ));
    }
    out
}

fn summary(plan: &Plan, recap: &Recap, secs: f64) -> String {
    let (a, b) = (&plan.specs[0].name, &plan.specs[1].name);
    let t = &recap.tally;
    let (ends, forfeits) = (&recap.ends, recap.forfeits);
    let mut out = String::new();
    let n = t.games();
    out.push_str(&format!(
        "{a} vs {b}: {n} games, {} {}\n",
        plan.variant, plan.settings.tc
    ));
    out.push_str(&results(a, t));
    let ends: Vec<String> = ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.push_str(&format!("Ends: {}\n", ends.join(", ")));
    out.push_str(&format!(
        "Forfeits: {a} {}, {b} {}\n",
        forfeits[0], forfeits[1]
    ));
    if let Some(sprt) = &plan.sprt {
        let (llr, decision) = sprt.test(t);
        let (lo, hi) = sprt.bounds();
        let model = t.estimate().map_or(stats::Model::Trinomial, |e| e.model);
        out.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={} ({model}, logistic Elo): LLR {llr:.3} (bounds {lo:.3}, {hi:.3}): {decision}\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    out.push_str(&format!(
        "Time: {secs:.1} s, {:.1} games/min\n",
        f64::from(n) * 60.0 / secs.max(1e-9)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_from_drawn_openings_are_listed_by_loser_up_to_symmetry() {
        let dir = std::env::temp_dir().join(format!("moulin-drawn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let drawn = dir.join("drawn.txt");
        // `d6 d2 b4` is `d2 d6 b4` mirrored: the records' opening is in the file.
        std::fs::write(&drawn, "# labelled drawn\nd6 d2 b4  # cp 3\n").unwrap();
        let records = "# moulin match: a vs b\n\
            game=1 white=a black=b variant=nine start=startpos opening=\"d2 d6 b4\" moves=\"\" result=0-1 end=rules reason=x\n\
            game=2 white=b black=a variant=nine start=startpos opening=\"d2 d6 b4\" moves=\"\" result=1/2-1/2 end=rules reason=x\n\
            game=3 white=a black=b variant=nine start=startpos opening=\"a1 a4 a7\" moves=\"\" result=1-0 end=rules reason=x\n";
        let report = losses_from_drawn(records, "r", &drawn).unwrap();
        assert!(
            report.starts_with("2 games from openings labelled drawn in "),
            "{report}"
        );
        assert!(report.contains("1 lost (by a 1):"), "{report}");
        assert!(report.contains("game 1: a lost (a - b, 0-1) from \"d2 d6 b4\""));
        assert!(!report.contains("game 3"), "{report}");
        std::fs::write(&drawn, "d2 d2\n").unwrap();
        let err = losses_from_drawn(records, "r", &drawn).unwrap_err();
        assert!(err.contains("drawn.txt, line 1"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
