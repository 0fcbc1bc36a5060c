//! The match runner: pairs of games (the same opening, colours swapped) over worker threads,
//! each game refereed and written to the records as it ends, the SPRT checked after each
//! complete pair, and a stop on an error that would spoil the match. It draws nothing: it
//! reports each step (`Event`) to its caller, which shows it.
//!
//! A tournament is played the same way, its pairings interleaved: pair 0 of every pairing, then
//! pair 1 of every pairing, ..., all the pairings of pair `p` from the same opening. Pair `p` of
//! pairing `k` (of `K`) is unit `u = p K + k`, whose games are numbered `2u + 1` (the pairing's
//! first engine has White) and `2u + 2`: the numbers are stable when `--games` grows, so that
//! `--resume` works by game number as for a match (a match is the tournament of one pairing).

use super::game_line::Record;
use super::lineup::{self, Lineup, Tournament};
use super::records_file::{self, RecordsError, RecordsFile};
use super::standings::Standings;
use crate::matches::engines::engine_process::EngineFault;
use crate::matches::engines::engine_process::EngineProcess;
use crate::matches::engines::live_engines;
use crate::matches::engines::spec::{self, EngineSpec};
use crate::matches::games::referee::{self, GameSettings, Overhead, Seat};
use crate::matches::numbers::stats::{Decision, Sprt};
use crate::record::openings::{self, Opening};
use crate::rng::Rng;
use crate::rules::board::{ByColor, Color};
use std::collections::HashSet;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Start failures in a row (no `uciok`, no process, ...) after which an engine is given up and
/// the match stops.
pub const MAX_START_FAILURES: u32 = 3;

/// What stops a match: before its first game (an engine that cannot start, records that
/// cannot be opened), or later (a game that cannot be recorded, an engine that keeps failing to
/// start, no game thread).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The records or the `--pgn` file cannot be opened or resumed.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// No game thread could be started.
    #[error("could not start a game thread: {source}")]
    GameThread {
        /// The system's error.
        source: io::Error,
    },
    /// A game could not be written to the records: the match stops.
    #[error(
        "{source}: the match is stopped; game {game} is not recorded, the games before it are"
    )]
    NotRecorded {
        /// The game's number.
        game: usize,
        /// Why.
        source: RecordsError,
    },
    /// A game could not be written to the `--pgn` file: the match stops.
    #[error("{source}: the match is stopped; game {game} is not in the PGN file")]
    NotInPgn {
        /// The game's number.
        game: usize,
        /// Why.
        source: RecordsError,
    },
    /// An engine could not start (or finish its handshake) before the first game: nothing is
    /// played.
    #[error(
        "engine {} failed before its first game: {fault}",
        crate::text::quoted(name)
    )]
    NotStarted {
        /// The engine's name.
        name: String,
        /// What went wrong.
        fault: EngineFault,
    },
    /// An engine failed to start too many times in a row: the match stops.
    #[error("{name} failed to start {times} times in a row (last: {last}): the match is stopped")]
    StartFailures {
        /// The engine's name.
        name: String,
        /// How many times.
        times: u32,
        /// Why it failed the last time.
        last: String,
    },
}

/// What a match reports as it goes, for its caller to show (the runner draws nothing). Events
/// come one at a time, in the order the games end.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// The games begin (every engine started, the files open): the games of the plan, and
    /// those its resumed records already hold.
    Started {
        /// The games of the plan, by every pairing.
        games: u64,
        /// Those already recorded.
        done: u64,
    },
    /// A game ended and is recorded.
    Game {
        /// Its record.
        record: &'a Record,
        /// What the games add up to now, this one included.
        standings: &'a Standings,
        /// The SPRT's LLR and decision after the last complete pair, when it has run.
        sprt: Option<(f64, Decision)>,
    },
}

/// Everything a match needs, checked.
pub struct Plan {
    /// The engines, the first one first (a match's results are from its view).
    pub specs: Vec<EngineSpec>,
    /// How the engines meet when there are more than two (`None`: a match of two).
    pub tournament: Option<Tournament>,
    /// The engine a tournament's ratings are anchored on (an index into `specs`), and its
    /// rating.
    pub anchor: (usize, f64),
    /// The rules, the clock and the limits of every game.
    pub settings: GameSettings,
    /// The variant's name, as the records write it.
    pub variant: String,
    /// Games to play (by each pairing, in a tournament).
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

impl Plan {
    /// The pairings played (engine indices, first engine first): one for a match.
    #[must_use]
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        self.tournament
            .map_or_else(|| vec![(0, 1)], |t| t.pairings(self.specs.len()))
    }

    /// The engines' names, in the order of `--engine`.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.specs.iter().map(|s| s.name.clone()).collect()
    }

    /// Who plays which game of the plan, for the check of resumed records.
    #[must_use]
    pub fn lineup(&self) -> Lineup {
        Lineup {
            names: self.names(),
            pairings: self.pairings(),
            variant: self.variant.clone(),
            games: Some(self.games),
        }
    }

    /// The games the plan plays: `games` by each pairing.
    #[must_use]
    pub fn total_games(&self) -> usize {
        self.games.saturating_mul(self.pairings().len())
    }
}

/// Which unit (a pair of games of one pairing) comes next, and its opening.
struct Schedule {
    next_unit: usize,
    /// The pairings (engine indices).
    pairings: Vec<(usize, usize)>,
    /// The opening of the pair index last reached, and that index.
    opening: Option<(usize, Opening)>,
    rng: Rng,
    /// Games (numbered from 1) already in the records of a resumed match.
    done: HashSet<usize>,
}

impl Schedule {
    /// The next unit with a game still to play, its pairing and its opening; `None` when all
    /// are played.
    fn next(&mut self, plan: &Plan) -> Option<(usize, (usize, usize), Opening)> {
        let k = self.pairings.len();
        let units = plan.games.div_ceil(2).saturating_mul(k);
        while self.next_unit < units {
            let u = self.next_unit;
            self.next_unit += 1;
            let p = u / k;
            // Made for every pair index, played or not, so that a resumed match has the same
            // openings; one opening for the pair of every pairing.
            if self.opening.as_ref().map(|(q, _)| *q) != Some(p) {
                let opening = match &plan.openings {
                    OpeningSource::Book(book) => book[p % book.len()].clone(),
                    OpeningSource::Random(plies) => {
                        openings::random_opening(&plan.settings.rules, *plies, &mut self.rng)
                    }
                };
                self.opening = Some((p, opening));
            }
            if let (Some(_), Some((_, opening))) = (self.to_play(plan, u).next(), &self.opening) {
                return Some((u, self.pairings[u % k], opening.clone()));
            }
        }
        None
    }

    /// The games of unit `u` still to play, numbered from 1.
    fn to_play<'a>(&'a self, plan: &Plan, u: usize) -> impl Iterator<Item = usize> + 'a {
        // The second game of the last pair is left out when the pairing's games are odd.
        let second_exists = 2 * (u / self.pairings.len()) + 2 <= plan.games;
        (2 * u + 1..=2 * u + 2)
            .filter(move |g| (g % 2 == 1 || second_exists) && !self.done.contains(g))
    }
}

/// What the workers share.
struct Shared {
    schedule: Schedule,
    standings: Standings,
    records: Option<RecordsFile>,
    /// The `--pgn` file.
    pgn: Option<RecordsFile>,
    /// Its `Date` and `TimeControl` tags.
    pgn_date: String,
    /// Start failures in a row, per engine.
    start_failures: Vec<u32>,
    /// Why the match stopped before its end, when it did.
    fatal: Option<RunError>,
    sprt: Option<(f64, Decision)>,
    /// Where the SPRT first decided.
    sprt_stop: Option<SprtStop>,
    /// The runner's own time between answers, over the games played.
    overhead: Overhead,
}

/// A match played (to its end or not).
pub struct Finished {
    /// What its games add up to, those of resumed records included.
    pub standings: Standings,
    /// Where the SPRT first crossed a bound, when it did (the games still in flight then end
    /// after it and count in `standings`, but do not undo the verdict).
    pub sprt_stop: Option<SprtStop>,
    /// The time it took, in seconds.
    pub secs: f64,
    /// The games it played (those of resumed records not counted): the pace is theirs.
    pub played: u32,
    /// Why it stopped before its end, when it did.
    pub fatal: Option<RunError>,
    /// The runner's own time between answers, over the games played (not those resumed).
    pub overhead: Overhead,
    /// The ending signal that stopped it, when its end was deferred
    /// (`live_engines::defer_end`): the games that ended after it are not recorded, being
    /// ended by it.
    pub interrupted: Option<i32>,
}

/// The first bound the SPRT crossed as the pairs ended: the games counted then, the LLR and the
/// verdict. A match stops there; the games in flight still end and count, and may move the LLR
/// back inside the bounds, but the verdict stands, as in a sequential test it must.
#[derive(Clone, Copy, Debug)]
pub struct SprtStop {
    /// The games counted when the bound was crossed.
    pub games: u32,
    /// The LLR then.
    pub llr: f64,
    /// The verdict.
    pub decision: Decision,
}

/// The verdict of the SPRT on `tally` when it decides (`None` without a test, or undecided).
fn sprt_stop(plan: &Plan, standings: &Standings) -> Option<SprtStop> {
    let (llr, decision) = plan.sprt.as_ref()?.test(&standings.recaps[0].tally);
    (decision != Decision::Continue).then(|| SprtStop {
        games: standings.games(),
        llr,
        decision,
    })
}

/// The records file of the match (resumed or new, when it has one), with the games it already
/// holds: their numbers and what they add up to, and where their SPRT decided, in the order they
/// were recorded.
#[allow(clippy::type_complexity)]
fn open_records(
    plan: &Plan,
    title: &str,
) -> Result<
    (
        Option<RecordsFile>,
        Standings,
        HashSet<usize>,
        Option<SprtStop>,
    ),
    RecordsError,
> {
    let mut standings = Standings::new(plan.names(), plan.pairings());
    let mut done = HashSet::new();
    let mut stopped = None;
    let records = match &plan.records {
        Some(path) if plan.resume => {
            let file =
                RecordsFile::resume(path, title, &plan.settings_line, &plan.lineup(), |r| {
                    done.insert(r.game);
                    let pair_done = standings.add(r).is_some_and(|(_, pair_done)| pair_done);
                    if pair_done && stopped.is_none() {
                        stopped = sprt_stop(plan, &standings);
                    }
                })?;
            log::info!(
                "resuming: {} already recorded",
                crate::text::count(done.len(), "game", "games")
            );
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
    Ok((records, standings, done, stopped))
}

/// Starts every engine (the handshake included) before anything else, so that an engine that
/// cannot start stops the run before its first game instead of forfeiting every game.
fn start_first(plan: &Plan) -> Result<Vec<Option<EngineProcess>>, RunError> {
    let start = |spec: &EngineSpec| {
        EngineProcess::start(spec, &plan.settings.rules, plan.settings.ready_timeout).map_err(
            |fault| RunError::NotStarted {
                name: spec.name.clone(),
                fault,
            },
        )
    };
    plan.specs.iter().map(|s| start(s).map(Some)).collect()
}

/// Who plays: `a vs b`, or `round-robin: a, b, c`.
fn heading(plan: &Plan) -> String {
    match plan.tournament {
        None => format!("{} vs {}", plan.specs[0].name, plan.specs[1].name),
        Some(t) => format!("{t}: {}", plan.names().join(", ")),
    }
}

/// The match's `Event` in the PGN, and the start of the records file's title.
fn event(plan: &Plan) -> String {
    match plan.tournament {
        None => format!("moulin match: {}", heading(plan)),
        Some(_) => format!("moulin {}", heading(plan)),
    }
}

/// Plays the match of `plan`, calling `report` as the games begin and with each game as it ends. A
/// records file that cannot be written, or an engine that fails to start `MAX_START_FAILURES`
/// times in a row, stops the match: the games played until then are in `Finished`, with the
/// error.
///
/// # Errors
///
/// An engine that cannot start before the first game, records or a `--pgn` file that cannot
/// be opened (or resumed): no game is played, and no file made.
pub fn play(plan: &Plan, report: &(dyn Fn(Event) + Sync)) -> Result<Finished, RunError> {
    let controls = spec::show_controls(&plan.specs, plan.settings.tc);
    let title = format!(
        "{}, variant {}, {controls}, seed {}",
        event(plan),
        plan.variant,
        plan.seed
    );
    if let Some(path) = plan.pgn.as_ref().filter(|_| !plan.force) {
        records_file::check_pgn_to_extend(path)?;
    }
    let first = start_first(plan)?;
    let (records, standings, done, stopped) = open_records(plan, &title)?;
    let pgn = match &plan.pgn {
        Some(path) => Some(RecordsFile::open_plain(path, plan.force)?),
        None => None,
    };
    log::info!(
        "{}: {} games, variant {}, {}, seed {}",
        heading(plan),
        plan.total_games(),
        plan.variant,
        controls,
        plan.seed
    );
    let resumed = standings.games();
    report(Event::Started {
        games: plan.total_games() as u64,
        done: u64::from(resumed),
    });
    let shared = Mutex::new(Shared {
        schedule: Schedule {
            next_unit: 0,
            pairings: plan.pairings(),
            opening: None,
            rng: Rng::new(plan.seed),
            done,
        },
        standings,
        records,
        pgn,
        pgn_date: crate::date::Date::today().pgn(),
        start_failures: vec![0; plan.specs.len()],
        fatal: None,
        sprt: None,
        sprt_stop: stopped,
        overhead: Overhead::default(),
    });
    // Resumed records may already have decided the test.
    let stop = AtomicBool::new(stopped.is_some());
    let started = Instant::now();
    let context = Context {
        plan,
        shared: &shared,
        stop: &stop,
        report,
    };
    run_workers(&context, first);
    let secs = started.elapsed().as_secs_f64();
    let shared = shared
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Finished {
        played: shared.standings.games() - resumed,
        standings: shared.standings,
        sprt_stop: shared.sprt_stop,
        secs,
        fatal: shared.fatal,
        overhead: shared.overhead,
        interrupted: live_engines::interrupted(),
    })
}

/// What the workers of a match see.
struct Context<'a> {
    plan: &'a Plan,
    shared: &'a Mutex<Shared>,
    /// Set when the match is to stop.
    stop: &'a AtomicBool,
    /// Called with each game, as it ends.
    report: &'a (dyn Fn(Event) + Sync),
}

/// Runs `plan.concurrency` workers (fewer when threads cannot be started) until they end; the
/// first worker plays with the engines `first`, started before the match.
fn run_workers(c: &Context, first: Vec<Option<EngineProcess>>) {
    let mut first = Some(first);
    std::thread::scope(|scope| {
        for i in 0..c.plan.concurrency {
            let slots = first
                .take()
                .unwrap_or_else(|| c.plan.specs.iter().map(|_| None).collect());
            let spawned = std::thread::Builder::new()
                .name(format!("game-{i}"))
                .spawn_scoped(scope, move || worker(c, slots));
            if let Err(e) = spawned {
                log::warn!("could not start game thread {i}: {e}; playing with fewer");
                if i == 0 {
                    lock(c.shared).fatal = Some(RunError::GameThread { source: e });
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
/// (by engine index; started when missing). Only the engines of the pairing being played are
/// kept running: the others are stopped when the worker changes pairing.
fn worker(c: &Context, mut slots: Vec<Option<EngineProcess>>) {
    let (plan, shared, stop) = (c.plan, c.shared, c.stop);
    while !stop.load(Ordering::SeqCst) && live_engines::interrupted().is_none() {
        let next = lock(shared).schedule.next(plan);
        let Some((u, (first, second), opening)) = next else {
            break;
        };
        for (i, slot) in slots.iter_mut().enumerate() {
            if i != first && i != second {
                if let Some(e) = slot.take() {
                    e.quit();
                }
            }
        }
        let games: Vec<usize> = lock(shared).schedule.to_play(plan, u).collect();
        for number in games {
            // A decided SPRT lets the pair finish; a fatal error does not.
            if lock(shared).fatal.is_some() {
                break;
            }
            let seats = lineup::seats((first, second), number);
            let played = play_game(plan, &mut slots, seats, &opening);
            let record = Record::new(
                number,
                &plan.specs[seats.white].name,
                &plan.specs[seats.black].name,
                &plan.variant,
                &played,
            );
            let mut s = lock(shared);
            if s.fatal.is_some() {
                log::warn!("game {number} ended after the match was stopped: not counted");
                break;
            }
            // The signal killed the engines: the game is theirs to play again on --resume.
            if live_engines::interrupted().is_some() {
                stop.store(true, Ordering::SeqCst);
                break;
            }
            if let Err(e) = write_game(plan, &mut s, &record) {
                s.fatal = Some(e);
                stop.store(true, Ordering::SeqCst);
                break;
            }
            let pair_done = s.standings.add(&record).is_some_and(|(_, done)| done);
            s.overhead.add(&played.overhead);
            count_starts(&mut s, &played, seats, &slots, &plan.specs, stop);
            if pair_done {
                test_sprt(plan, &mut s, stop);
            }
            (c.report)(Event::Game {
                record: &record,
                standings: &s.standings,
                sprt: s.sprt,
            });
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
    }
}

/// Plays one game from `opening`, the engines of `seats` (indices into `slots`, two different
/// ones) having White and Black, with the engines of `slots` (started when missing).
fn play_game(
    plan: &Plan,
    slots: &mut [Option<EngineProcess>],
    seats: ByColor<usize>,
    opening: &Opening,
) -> referee::Played {
    let (low, high) = (seats.white.min(seats.black), seats.white.max(seats.black));
    let (left, right) = slots.split_at_mut(high);
    let (low_slot, high_slot) = (&mut left[low], &mut right[0]);
    let (ws, bs) = if seats.white == low {
        (low_slot, high_slot)
    } else {
        (high_slot, low_slot)
    };
    let mut seats = ByColor::new(
        Seat {
            spec: &plan.specs[seats.white],
            engine: ws,
        },
        Seat {
            spec: &plan.specs[seats.black],
            engine: bs,
        },
    );
    referee::play(&mut seats, opening, &plan.settings)
}

/// Writes a game to the records file and the `--pgn` file, those the match has.
fn write_game(plan: &Plan, s: &mut Shared, record: &Record) -> Result<(), RunError> {
    let game = record.game;
    if let Some(file) = s.records.as_mut() {
        file.append(&format!("{}\n", record.to_line()))
            .map_err(|e| RunError::NotRecorded { game, source: e })?;
    }
    let pgn_text = s.pgn.is_some().then(|| {
        // Each side's control: the engines' names are distinct.
        let tag = |name: &str| {
            let spec = plan.specs.iter().find(|s| s.name == name);
            spec.map_or(plan.settings.tc, |s| s.control(plan.settings.tc).time)
                .pgn_tag()
        };
        let tags = [tag(&record.white), tag(&record.black)];
        let tags = [tags[0].as_str(), tags[1].as_str()];
        crate::record::write(&record.to_pgn(&event(plan), &s.pgn_date, tags))
    });
    if let (Some(file), Some(text)) = (s.pgn.as_mut(), pgn_text) {
        file.append(&text)
            .map_err(|e| RunError::NotInPgn { game, source: e })?;
    }
    Ok(())
}

/// Runs the SPRT on the complete pairs so far; stops the match when it is decided.
fn test_sprt(plan: &Plan, s: &mut Shared, stop: &AtomicBool) {
    if let Some(sprt) = &plan.sprt {
        let (llr, decision) = sprt.test(&s.standings.recaps[0].tally);
        s.sprt = Some((llr, decision));
        if decision != Decision::Continue {
            if s.sprt_stop.is_none() {
                s.sprt_stop = Some(SprtStop {
                    games: s.standings.games(),
                    llr,
                    decision,
                });
            }
            stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Counts start failures in a row per engine (`seats` are the engines that had White and
/// Black); stops the match when one engine reaches `MAX_START_FAILURES`.
fn count_starts(
    s: &mut Shared,
    played: &referee::Played,
    seats: ByColor<usize>,
    slots: &[Option<EngineProcess>],
    specs: &[EngineSpec],
    stop: &AtomicBool,
) {
    for k in [seats.white, seats.black] {
        if slots[k].is_some() {
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
            seats.white
        } else {
            seats.black
        };
        s.start_failures[k] += 1;
        if s.start_failures[k] >= MAX_START_FAILURES && s.fatal.is_none() {
            s.fatal = Some(RunError::StartFailures {
                name: specs[k].name.clone(),
                times: MAX_START_FAILURES,
                last: played.end.reason(),
            });
            stop.store(true, Ordering::SeqCst);
        }
    }
}
