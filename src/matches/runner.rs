//! The match runner: pairs of games (the same opening, colours swapped) over worker threads,
//! each game refereed and written to the records as it ends, with a progress bar, the SPRT
//! checked after each complete pair, and a stop on an error that would spoil the match.

use super::engine::Engine;
use super::match_error::MatchError;
use super::referee::{self, GameSettings, Overhead, Seat};
use super::results_file::{Recap, Record, RecordsFile};
use super::spec::{self, EngineSpec};
use super::stats::{self, Decision, Sprt, Tally};
use crate::record::openings::{self, Opening};
use crate::rng::Rng;
use crate::rules::board::{ByColor, Color};
use indicatif::ProgressBar;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Start failures in a row (no `uciok`, no process, ...) after which an engine is given up and
/// the match stops.
pub const MAX_START_FAILURES: u32 = 3;

/// Everything a match needs, checked.
pub struct Plan {
    /// The two engines, the first one first (results are from its view).
    pub specs: [EngineSpec; 2],
    /// The rules, the clock and the limits of every game.
    pub settings: GameSettings,
    /// The variant's name, as the records write it.
    pub variant: String,
    /// Games to play.
    pub games: usize,
    /// Where the pairs' openings come from.
    pub openings: OpeningSource,
    /// Games played at once.
    pub concurrency: usize,
    /// The sequential test, if any.
    pub sprt: Option<Sprt>,
    /// The records file, if any.
    pub records: Option<PathBuf>,
    /// The file of PGN-shaped records, if any.
    pub pgn: Option<PathBuf>,
    /// Whether to continue the match of the records file.
    pub resume: bool,
    /// Whether to replace existing files.
    pub force: bool,
    /// The seed of the random openings.
    pub seed: u64,
    /// What the records' header holds for `--resume` to check.
    pub settings_line: String,
}

/// Where the pairs' openings come from; they are made one pair at a time.
pub enum OpeningSource {
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
    fatal: Option<MatchError>,
    sprt: Option<(f64, Decision)>,
    /// The runner's own time between answers, over the games played.
    overhead: Overhead,
}

/// A match played (to its end or not).
pub struct Finished {
    /// What its games add up to, those of resumed records included.
    pub recap: Recap,
    /// The time it took, in seconds.
    pub secs: f64,
    /// Why it stopped before its end, when it did.
    pub fatal: Option<MatchError>,
    /// The runner's own time between answers, over the games played (not those resumed).
    pub overhead: Overhead,
}

/// The engines' names, the first one first.
fn names(plan: &Plan) -> [&str; 2] {
    [plan.specs[0].name.as_str(), plan.specs[1].name.as_str()]
}

/// The records file of the match (resumed or new, when it has one), with the games it already
/// holds: their numbers and what they add up to.
fn open_records(
    plan: &Plan,
    title: &str,
) -> Result<(Option<RecordsFile>, Recap, HashSet<usize>), MatchError> {
    let mut recap = Recap::default();
    let mut done = HashSet::new();
    let records = match &plan.records {
        Some(path) if plan.resume => {
            let file = RecordsFile::resume(path, title, &plan.settings_line, |r| {
                if !done.insert(r.game) {
                    return Err(MatchError::RecordedTwice {
                        source_name: path.display().to_string(),
                        game: r.game,
                    });
                }
                recap.add(r, names(plan));
                Ok(())
            })?;
            log::info!("resuming: {} games already recorded", done.len());
            Some(file)
        }
        Some(path) => Some(RecordsFile::create(
            path,
            plan.force,
            title,
            &plan.settings_line,
        )?),
        None => None,
    };
    Ok((records, recap, done))
}

/// Starts both engines (the handshake included) before anything else, so that an engine that
/// cannot start stops the run before its first game instead of forfeiting every game.
fn start_first(plan: &Plan) -> Result<[Engine; 2], MatchError> {
    let start = |spec: &EngineSpec| {
        Engine::start(spec, &plan.settings.rules, plan.settings.ready_timeout).map_err(|fault| {
            MatchError::NotStarted {
                name: spec.name.clone(),
                fault,
            }
        })
    };
    Ok([start(&plan.specs[0])?, start(&plan.specs[1])?])
}

/// Plays the match of `plan`, calling `on_game` with the record of each game as it ends. A
/// records file that cannot be written, or an engine that fails to start `MAX_START_FAILURES`
/// times in a row, stops the match: the games played until then are in `Finished`, with the
/// error.
///
/// # Errors
///
/// An engine that cannot start before the first game, records or a `--pgn` file that cannot
/// be opened (or resumed): no game is played, and no file made.
pub fn play(plan: &Plan, on_game: &(dyn Fn(&Record) + Sync)) -> Result<Finished, MatchError> {
    let names = names(plan);
    let controls = spec::show_controls(&plan.specs, plan.settings.tc);
    let title = format!(
        "moulin match: {} vs {}, variant {}, {controls}, seed {}",
        names[0], names[1], plan.variant, plan.seed
    );
    let first = start_first(plan)?;
    let (records, recap, done) = open_records(plan, &title)?;
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
        controls,
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
        overhead: Overhead::default(),
    });
    // Resumed records may already decide the test.
    let decided = plan
        .sprt
        .as_ref()
        .map(|t| t.test(&lock(&shared).recap.tally));
    let stop = AtomicBool::new(matches!(decided, Some((_, d)) if d != Decision::Continue));
    let started = Instant::now();
    let context = Context {
        plan,
        shared: &shared,
        stop: &stop,
        bar: &bar,
        on_game,
    };
    run_workers(&context, first);
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let shared = shared
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Finished {
        recap: shared.recap,
        secs,
        fatal: shared.fatal,
        overhead: shared.overhead,
    })
}

/// What the workers of a match see.
struct Context<'a> {
    plan: &'a Plan,
    shared: &'a Mutex<Shared>,
    /// Set when the match is to stop.
    stop: &'a AtomicBool,
    bar: &'a ProgressBar,
    /// Called with the record of each game, as it ends.
    on_game: &'a (dyn Fn(&Record) + Sync),
}

/// Runs `plan.concurrency` workers (fewer when threads cannot be started) until they end; the
/// first worker plays with the engines `first`, started before the match.
fn run_workers(c: &Context, first: [Engine; 2]) {
    let mut first = Some(first);
    std::thread::scope(|scope| {
        for i in 0..c.plan.concurrency {
            let slots = first
                .take()
                .map_or([None, None], |[a, b]| [Some(a), Some(b)]);
            let spawned = std::thread::Builder::new()
                .name(format!("game-{i}"))
                .spawn_scoped(scope, move || worker(c, slots));
            if let Err(e) = spawned {
                log::warn!("could not start game thread {i}: {e}; playing with fewer");
                if i == 0 {
                    lock(c.shared).fatal = Some(MatchError::GameThread { source: e });
                }
                break;
            }
        }
    });
}

/// The shared state, even if a worker panicked while holding it.
fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Plays pairs of games until none is left or the match stops, with the engines of `slots`
/// (started when missing).
fn worker(c: &Context, mut slots: [Option<Engine>; 2]) {
    let (plan, shared, stop, bar) = (c.plan, c.shared, c.stop, c.bar);
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
            let played = play_game(plan, &mut slots, white, &opening);
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
            if let Err(e) = write_game(plan, &mut s, &record) {
                s.fatal = Some(e);
                stop.store(true, Ordering::SeqCst);
                break;
            }
            let pair_done = s.recap.add(&record, names(plan));
            s.overhead.add(&played.overhead);
            bar.suspend(|| (c.on_game)(&record));
            count_starts(&mut s, &played, white, &slots, &plan.specs, stop);
            bar.inc(1);
            if pair_done {
                test_sprt(plan, &mut s, stop);
            }
            bar.set_message(progress_message(&s.recap.tally, s.sprt));
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
    }
}

/// Plays one game from `opening`, engine `white` (0 or 1) having White, with the engines of
/// `slots` (started when missing).
fn play_game(
    plan: &Plan,
    slots: &mut [Option<Engine>; 2],
    white: usize,
    opening: &Opening,
) -> referee::Played {
    let [slot0, slot1] = slots;
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
    referee::play(&mut seats, opening, &plan.settings)
}

/// Writes a game to the records file and the `--pgn` file, those the match has.
fn write_game(plan: &Plan, s: &mut Shared, record: &Record) -> Result<(), MatchError> {
    let game = record.game;
    if let Some(file) = s.records.as_mut() {
        file.append(&format!("{}\n", record.to_line()))
            .map_err(|e| MatchError::NotRecorded {
                game,
                source: Box::new(e),
            })?;
    }
    let pgn_text = s.pgn.is_some().then(|| {
        let names = names(plan);
        let event = format!("moulin match: {} vs {}", names[0], names[1]);
        // Each side's control: the engines' names are distinct.
        let tag = |name: &str| {
            let spec = plan.specs.iter().find(|s| s.name == name);
            spec.map_or(plan.settings.tc, |s| s.control(plan.settings.tc).time)
                .pgn_tag()
        };
        let tags = [tag(&record.white), tag(&record.black)];
        let tags = [tags[0].as_str(), tags[1].as_str()];
        crate::record::write(&record.to_pgn(&event, &s.pgn_date, tags))
    });
    if let (Some(file), Some(text)) = (s.pgn.as_mut(), pgn_text) {
        file.append(&text).map_err(|e| MatchError::NotInPgn {
            game,
            source: Box::new(e),
        })?;
    }
    Ok(())
}

/// Runs the SPRT on the complete pairs so far; stops the match when it is decided.
fn test_sprt(plan: &Plan, s: &mut Shared, stop: &AtomicBool) {
    if let Some(sprt) = &plan.sprt {
        let (llr, decision) = sprt.test(&s.recap.tally);
        s.sprt = Some((llr, decision));
        if decision != Decision::Continue {
            stop.store(true, Ordering::SeqCst);
        }
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
            s.fatal = Some(MatchError::StartFailures {
                name: specs[k].name.clone(),
                times: MAX_START_FAILURES,
                last: played.end.reason(),
            });
            stop.store(true, Ordering::SeqCst);
        }
    }
}

/// The progress bar's message: W/D/L, the Elo estimate and the SPRT's LLR, as far as known.
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
