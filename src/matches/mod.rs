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
pub mod engine;
pub mod openings;
pub mod records;
pub mod referee;
pub mod spec;
pub mod stats;
pub mod words;

use crate::rng::Rng;
use crate::rules::board::{ByColor, Color};
use crate::rules::{Rules, PRESETS};
use engine::Engine;
use indicatif::{ProgressBar, ProgressStyle};
use openings::Opening;
use records::Record;
use referee::{GameSettings, Seat, TimeControl};
use spec::EngineSpec;
use stats::{Decision, Sprt, Tally};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    /// Write one record line per game to this file (check it with `moulin replay`).
    #[arg(long)]
    pub records: Option<PathBuf>,
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
}

/// `moulin replay`.
pub fn run_replay(args: ReplayArgs) -> Result<(), String> {
    records::replay_file(&args.file)
}

/// The rules of a preset name, or an error listing the presets.
pub fn rules_of(variant: &str) -> Result<Rules, String> {
    Rules::preset(variant).ok_or_else(|| {
        format!(
            "unknown variant '{variant}' (expected one of {})",
            PRESETS.join(", ")
        )
    })
}

/// Everything a match needs, checked.
struct Plan {
    specs: [EngineSpec; 2],
    settings: GameSettings,
    variant: String,
    games: usize,
    openings: Vec<Opening>,
    concurrency: usize,
    sprt: Option<Sprt>,
    records: Option<PathBuf>,
    seed: u64,
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
    let rules = rules_of(&args.variant)?;
    let tc = match (args.movetime, &args.tc) {
        (Some(0), _) => return Err("--movetime must be at least 1 ms".into()),
        (Some(ms), _) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, Some(tc)) => TimeControl::parse_tc(tc)?,
        (None, None) => TimeControl::parse_tc("10+0.1")?,
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let pairs = args.games.div_ceil(2);
    let openings = match &args.openings {
        Some(path) => {
            let book = openings::read_book_file(path, &rules)?;
            (0..pairs).map(|p| book[p % book.len()].clone()).collect()
        }
        None => {
            let plies = args.random_plies.unwrap_or(4);
            let mut rng = Rng::new(seed);
            (0..pairs)
                .map(|_| openings::random_opening(&rules, plies, &mut rng))
                .collect()
        }
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
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
        seed,
    })
}

/// What the workers share.
struct Shared {
    tally: Tally,
    /// How each game ended, by kind.
    ends: BTreeMap<String, u32>,
    /// Forfeits per engine.
    forfeits: [u32; 2],
    records: Option<BufWriter<File>>,
    record_error: Option<String>,
    sprt: Option<(f64, Decision)>,
}

/// `moulin match`: plays the match and prints the summary on stdout.
pub fn run_match(args: MatchArgs) -> Result<(), String> {
    let plan = plan(args)?;
    let names = [plan.specs[0].name.as_str(), plan.specs[1].name.as_str()];
    let records = match &plan.records {
        Some(path) => {
            let f = File::create(path)
                .map_err(|e| format!("cannot write records {}: {e}", path.display()))?;
            let mut w = BufWriter::new(f);
            let _ = writeln!(
                w,
                "# moulin match: {} vs {}, variant {}, {}, seed {}",
                names[0], names[1], plan.variant, plan.settings.tc, plan.seed
            );
            Some(w)
        }
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
    let shared = Mutex::new(Shared {
        tally: Tally::default(),
        ends: BTreeMap::new(),
        forfeits: [0; 2],
        records,
        record_error: None,
        sprt: None,
    });
    let bar = ProgressBar::new(plan.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    let next_pair = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..plan.concurrency {
            scope.spawn(|| worker(&plan, &shared, &next_pair, &stop, &bar));
        }
    });
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let shared = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(mut w) = shared.records {
        w.flush()
            .map_err(|e| format!("cannot write records: {e}"))?;
    }
    if let Some(e) = shared.record_error {
        return Err(e);
    }
    print!(
        "{}",
        summary(&plan, &shared.tally, &shared.ends, shared.forfeits, secs)
    );
    Ok(())
}

fn worker(
    plan: &Plan,
    shared: &Mutex<Shared>,
    next_pair: &AtomicUsize,
    stop: &AtomicBool,
    bar: &ProgressBar,
) {
    let mut slots: [Option<Engine>; 2] = [None, None];
    let pairs = plan.openings.len();
    while !stop.load(Ordering::SeqCst) {
        let p = next_pair.fetch_add(1, Ordering::SeqCst);
        if p >= pairs {
            break;
        }
        let opening = &plan.openings[p];
        let mut pair_points = 0.0;
        let mut pair_games = 0;
        for k in 0..2 {
            let number = 2 * p + k;
            if number >= plan.games {
                break;
            }
            // Game k of the pair: engine k has White.
            let white = k;
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
            let played = referee::play(&mut seats, opening, &plan.settings);
            let first_color = if white == 0 {
                Color::White
            } else {
                Color::Black
            };
            let points = match played.end.winner() {
                Some(c) if c == first_color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            pair_points += points;
            pair_games += 1;
            let record = Record::new(
                number + 1,
                &plan.specs[white].name,
                &plan.specs[1 - white].name,
                &plan.variant,
                &played,
            );
            let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
            s.tally.add_game(points);
            *s.ends.entry(played.end.kind().to_string()).or_default() += 1;
            if let referee::End::Forfeit { loser, .. } = &played.end {
                let engine = if *loser == first_color { 0 } else { 1 };
                s.forfeits[engine] += 1;
                log::warn!("game {}: {}", number + 1, played.end.reason());
            }
            if let Some(w) = s.records.as_mut() {
                if let Err(e) = writeln!(w, "{}", record.to_line()).and_then(|_| w.flush()) {
                    s.record_error = Some(format!("cannot write records: {e}"));
                }
            }
            bar.inc(1);
            bar.set_message(progress_message(&s.tally, s.sprt));
        }
        if pair_games == 2 {
            let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
            s.tally.add_pair(pair_points);
            if let Some(sprt) = &plan.sprt {
                let (llr, decision) = sprt.test(&s.tally);
                s.sprt = Some((llr, decision));
                if decision != Decision::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            bar.set_message(progress_message(&s.tally, s.sprt));
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
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

fn summary(
    plan: &Plan,
    t: &Tally,
    ends: &BTreeMap<String, u32>,
    forfeits: [u32; 2],
    secs: f64,
) -> String {
    let (a, b) = (&plan.specs[0].name, &plan.specs[1].name);
    let mut out = String::new();
    let n = t.games();
    out.push_str(&format!(
        "{a} vs {b}: {n} games, {} {}\n",
        plan.variant, plan.settings.tc
    ));
    out.push_str(&format!(
        "W {}  D {}  L {}  (from {a}'s view)\n",
        t.wins, t.draws, t.losses
    ));
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
        n as f64 * 60.0 / secs.max(1e-9)
    ));
    out
}
