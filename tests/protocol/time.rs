//! Time: a `movetime` smaller than `MoveOverhead` is still searched, the overhead the GUI charges
//! beyond the engine's own time is learned and said (UCI), and games through a fake GUI that
//! charges every move an animation on the mover's clock (as Nine Morris 3D does, GBGP.md), at a
//! clock without increment, against a greedy random mover: moulin never loses on time, and
//! keeps more of its clock than with the learning off (`LearnOverhead false`, the fixed
//! `MoveOverhead`).

use super::gbgp::{engine_turn, greedy, gui_game_over, gui_new_game, gui_start, Referee};
use super::harness::{shared, word_after, Engine, MOVING};
use moulin::rng::Rng;
use moulin::rules::movegen;
use moulin::{Color, Convention, Game, Rules};
use std::time::{Duration, Instant};

#[test]
fn a_movetime_below_the_overhead_is_still_searched() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name MoveOverhead value 1000");
    e.ask(&format!("position fen {MOVING}"));
    let started = Instant::now();
    let lines = e.go("go movetime 400");
    let took = started.elapsed();
    // 400 ms less a quarter at most, not 400 - 1000 floored at 1 ms.
    assert!(took >= Duration::from_millis(280), "{took:?}: {lines:?}");
    let last_time: u64 = lines
        .iter()
        .filter_map(|l| word_after(l, "time"))
        .filter_map(|t| t.parse().ok())
        .max()
        .unwrap_or(0);
    assert!(last_time >= 100, "{lines:?}");
    e.quit();
}

#[test]
fn the_guis_charge_is_learned_and_said_in_uci() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name OwnBook value false");
    e.ask("ucinewgame");
    let mut game = Game::new(Rules::nine());
    let mut clock = 6_000u64;
    let mut said = Vec::new();
    for _ in 0..4 {
        let moves: Vec<String> = game.moves().iter().map(|m| m.turn_notation()).collect();
        if moves.is_empty() {
            e.ask("position startpos");
        } else {
            e.ask(&format!("position startpos moves {}", moves.join(" ")));
        }
        let started = Instant::now();
        let lines = e.go(&format!("go wtime {clock} btime 6000"));
        let used = started.elapsed().as_millis() as u64;
        said.extend(
            lines
                .iter()
                .filter(|l| l.starts_with("info string overhead"))
                .cloned(),
        );
        let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
        game.play_token(&best).unwrap();
        // The GUI charges 500 ms beyond the engine's time; the reply is any legal move.
        clock -= used + 500;
        let reply = movegen::legal_moves(game.position(), Convention::Turn)[0];
        game.play(reply);
    }
    assert_eq!(said.len(), 1, "{said:?}");
    let ms: u64 = word_after(&said[0], "about").unwrap().parse().unwrap();
    assert!((450..=520).contains(&ms), "{said:?}");
    e.quit();
}

/// The milliseconds from `go` to `bestmove` of the first move of a game at `wtime`/`btime`
/// `clock`, searched (neither the book nor the opening's solution answers it).
fn first_move_time(e: &mut Engine, gbgp: bool, clock: u64) -> Duration {
    e.send("setoption name OwnBook value false");
    e.send("setoption name OpeningSolution value none");
    if gbgp {
        gui_new_game(e);
        e.send("position pos w:w:b:1");
    } else {
        e.ask("ucinewgame");
        e.ask("position startpos");
    }
    let asked = Instant::now();
    e.send(&format!("go wtime {clock} btime {clock}"));
    e.until(|l| l.starts_with("bestmove"));
    asked.elapsed()
}

/// GBGP is the Nine Morris 3D GUI's, which charges a placement about 0.8 s: from the first `go`,
/// before any charge is learned, moulin keeps that for the moves to come (at 30 s, 48 s of
/// reserve: the move is answered at once), where before it spent a share of the clock as if
/// nothing were charged. A UCI session assumes nothing (a match runner charges nothing), nor
/// does a GBGP one with `LearnOverhead false`.
#[test]
fn a_gbgp_session_assumes_the_guis_charge_from_its_first_go() {
    let _gate = shared();
    let mut gui = gui_start(false);
    let assumed = first_move_time(&mut gui, true, 30_000);
    gui.send("setoption name LearnOverhead value false");
    let fixed = first_move_time(&mut gui, true, 30_000);
    gui.quit();
    let mut uci = Engine::start();
    let plain = first_move_time(&mut uci, false, 30_000);
    uci.quit();
    assert!(
        assumed < Duration::from_millis(250),
        "{assumed:?} (LearnOverhead false {fixed:?}, UCI {plain:?})"
    );
    for t in [fixed, plain] {
        assert!(
            t > Duration::from_millis(300),
            "{assumed:?} {fixed:?} {plain:?}"
        );
    }
}

/// How a fake GUI charges a game, in milliseconds: the engine's clock, the charge on each of its
/// moves beyond the real time it took, and the opponent's time a move.
#[derive(Clone, Copy)]
struct Charges {
    clock: u64,
    animation: u64,
    opponent: u64,
    /// The opponent is moulin at `go movetime <opponent>` after two random moves (long games,
    /// as against a person), not the greedy random mover.
    engine_opponent: bool,
}

/// A game through the fake GUI (GBGP, `go wtime W btime B`, no increment) with moulin as
/// `engine`, the other side a greedy random mover (`gbgp::greedy`, seeded by `seed`) that takes
/// `opponent` ms of its own clock (counted, not slept: moulin's clock does not run meanwhile),
/// or moulin (`rival`) at that `movetime` after two such moves. The engine's clock after each of
/// its moves; below zero when the engine lost on time.
fn charged_game(
    e: &mut Engine,
    mut rival: Option<&mut Engine>,
    engine: Color,
    c: Charges,
    seed: u64,
) -> Vec<i64> {
    gui_new_game(e);
    if let Some(o) = rival.as_mut() {
        gui_new_game(o);
    }
    let mut r = Referee::new(false);
    let mut rng = Rng::new(seed);
    let mut clock = [c.clock as i64; 2];
    let mut after = Vec::new();
    let index = |side: Color| usize::from(side == Color::Black);
    while r.over().is_none() {
        let side = r.game.position().side_to_move();
        let i = index(side);
        let mv = if side == engine {
            let (best, took, _) = engine_turn(e, &r, clock.map(|t| t.max(0) as u64));
            clock[i] -= (took.as_millis() as u64 + c.animation) as i64;
            after.push(clock[i]);
            if clock[i] <= 0 {
                return after;
            }
            assert_ne!(best, "none", "the game goes on after {}", r.moves.join(" "));
            best
        } else {
            clock[i] -= (c.opponent + c.animation) as i64;
            if clock[i] <= 0 {
                break;
            }
            match rival.as_mut() {
                Some(o) if r.moves.len() >= 4 => {
                    o.send(&r.position_command());
                    o.send(&format!("go movetime {}", c.opponent));
                    let lines = o.until(|l| l.starts_with("bestmove"));
                    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
                    if best == "none" {
                        break;
                    }
                    best
                }
                _ => greedy(&r, &mut rng),
            }
        };
        r.play(&mv).unwrap_or_else(|m| panic!("illegal: {m}"));
    }
    if r.over().is_some() {
        gui_game_over(e, &r);
    }
    after
}

/// The mean milliseconds a move spent from the engine's third move to its `k`-th (index
/// `k - 1`): once the learning has seen two charged moves.
fn spent_from_the_third(clock: &[i64], k: usize) -> f64 {
    (clock[1] - clock[k - 1]) as f64 / (k - 2) as f64
}

/// Plays `games` games (moulin as each colour in turn) with the learning on, then the same
/// seeds with it off. With it on moulin never loses on time; in each game, from its third move
/// on (the first two, before anything is learned, vary by a second or more from one run to
/// the next), each move costs its clock less than with it off; and over all games it has more
/// clock left, after as many moves as the shorter game of each pair, than with it off.
fn learning_keeps_the_clock(c: Charges, games: u64) {
    let _gate = shared();
    let mut on = gui_start(false);
    let mut off = gui_start(false);
    off.send("setoption name LearnOverhead value false");
    // Every move searched: the book would answer the placing at once.
    for e in [&mut on, &mut off] {
        e.send("setoption name OwnBook value false");
    }
    let mut rival = c.engine_opponent.then(|| gui_start(false));
    let (mut left_on, mut left_off) = (0, 0);
    for seed in 0..games {
        let engine = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let learned = charged_game(&mut on, rival.as_mut(), engine, c, seed);
        let fixed = charged_game(&mut off, rival.as_mut(), engine, c, seed);
        let end = *learned.last().unwrap();
        assert!(end > 0, "lost on time, game {seed}: {learned:?}");
        let k = learned.len().min(fixed.len());
        left_on += learned[k - 1];
        left_off += fixed[k - 1];
        if k >= 3 {
            let (a, b) = (
                spent_from_the_third(&learned, k),
                spent_from_the_third(&fixed, k),
            );
            assert!(
                a < b,
                "game {seed}: {a:.0} ms a move learning, {b:.0} fixed\n{learned:?}\n{fixed:?}"
            );
        }
        eprintln!(
            "game {seed}: {} moves, {end} ms left learning; fixed: {} moves, {} ms left",
            learned.len(),
            fixed.len(),
            fixed.last().unwrap()
        );
    }
    eprintln!("clock left after as many moves, all games: {left_on} ms learning, {left_off} fixed");
    assert!(
        left_on > left_off,
        "{left_on} ms learning, {left_off} fixed"
    );
    on.quit();
    off.quit();
    if let Some(o) = rival {
        o.quit();
    }
}

#[test]
fn a_gui_charging_each_move_never_flags_moulin_fast() {
    let c = Charges {
        clock: 10_000,
        animation: 300,
        opponent: 150,
        engine_opponent: false,
    };
    // One game as each colour.
    learning_keeps_the_clock(c, 2);
}

#[test]
#[ignore = "20 games at a minute each: about 15 minutes"]
fn a_gui_charging_700_ms_a_move_never_flags_moulin_in_20_games_of_a_minute() {
    let c = Charges {
        clock: 60_000,
        animation: 700,
        opponent: 150,
        engine_opponent: false,
    };
    learning_keeps_the_clock(c, 20);
}

#[test]
#[ignore = "20 long games at a minute each against moulin: about 12 minutes"]
fn a_gui_charging_700_ms_a_move_never_flags_moulin_in_20_long_games_against_itself() {
    let c = Charges {
        clock: 60_000,
        animation: 700,
        opponent: 150,
        engine_opponent: true,
    };
    learning_keeps_the_clock(c, 20);
}

/// The Nine Morris 3D GUI's client, headless (GBGP.md; facts from its source, `nine_morris_3d/src/`
/// of SimonMaracine/Nine-Morris-3D): the clock of the side to move runs from the frame its turn
/// began to the frame the move's animation ends. The GUI sends `go` two frames after the turn
/// began, reads one engine line per frame (60 a second), plays the move the frame it reads
/// `bestmove`, and its pieces then move at 50 physics steps a second: each step covers 0.28 of
/// the distance left (at least 0.01, at most 1 board unit) until less than 0.011 is left. A
/// placing piece rises from beside the board, flies over and comes down; a sliding piece goes
/// straight; a flying one (three left) rises, flies and comes down; a captured piece then rises
/// out (chained after the mover's). The clock is charged the real time throughout (the GUI
/// drops the fraction of a millisecond at each frame; not counted here, which is harsher).
mod gui {
    /// Milliseconds of one frame (60 a second).
    pub(super) const FRAME: f64 = 1000.0 / 60.0;
    /// Milliseconds of one physics step (50 a second).
    const STEP: f64 = 20.0;
    /// The board's points, `a7` to `g1` in the notation's order (x, z).
    const POINTS: [(&str, f64, f64); 24] = [
        ("a7", 2.046, 2.062),
        ("d7", -0.008, 2.089),
        ("g7", -2.101, 2.076),
        ("b6", 1.480, 1.512),
        ("d6", 0.001, 1.513),
        ("f6", -1.509, 1.502),
        ("c5", 0.889, 0.898),
        ("d5", 0.001, 0.906),
        ("e5", -0.930, 0.892),
        ("a4", 2.058, 0.031),
        ("b4", 1.481, 0.025),
        ("c4", 0.894, 0.026),
        ("e4", -0.934, 0.050),
        ("f4", -1.508, 0.050),
        ("g4", -2.083, 0.047),
        ("c3", 0.882, -0.894),
        ("d3", 0.011, -0.900),
        ("e3", -0.930, -0.890),
        ("b2", 1.477, -1.455),
        ("d2", 0.006, -1.463),
        ("f2", -1.493, -1.458),
        ("a1", 2.063, -2.046),
        ("d1", 0.001, -2.061),
        ("g1", -2.081, -2.045),
    ];
    /// Heights: a piece on the board, beside it before it is placed, in the air while it
    /// moves, and where a captured piece goes.
    const ON_BOARD: f64 = 0.135;
    const BESIDE: f64 = 0.5;
    const AIR: f64 = 0.75;
    const TAKEN: f64 = 2.0;

    fn point(name: &str) -> (f64, f64) {
        let p = POINTS.iter().find(|p| p.0 == name).expect("a point");
        (p.1, p.2)
    }

    /// Physics steps of one straight movement over `d`.
    fn steps(mut d: f64) -> u32 {
        let mut n = 0;
        loop {
            n += 1;
            d -= (0.28 * d).clamp(0.01, 1.0);
            if d < 0.011 {
                return n;
            }
        }
    }

    /// Steps of a movement up, over and down between two heights.
    fn three_step(from: (f64, f64), from_y: f64, to: (f64, f64)) -> u32 {
        let over = ((from.0 - to.0).powi(2) + (from.1 - to.1).powi(2)).sqrt();
        steps(AIR - from_y) + steps(over) + steps(AIR - ON_BOARD)
    }

    /// The milliseconds the GUI's animation of `token` takes: `white` moves, having placed
    /// `placed` pieces before it and having `on_board` pieces on the board.
    pub(super) fn animation(token: &str, white: bool, placed: u32, on_board: u32) -> f64 {
        let (mv, capture) = match token.split_once('x') {
            Some((m, c)) => (m, Some(c)),
            None => (token, None),
        };
        let mover = match mv.split_once('-') {
            None => {
                // Beside the board: White's at x = -3, Black's at 3, half a unit apart.
                let i = f64::from(placed);
                let beside = if white {
                    (-3.0, 0.5 * i - 2.0)
                } else {
                    (3.0, 2.0 - 0.5 * i)
                };
                three_step(beside, BESIDE, point(mv))
            }
            Some((from, to)) if on_board == 3 => three_step(point(from), ON_BOARD, point(to)),
            Some((from, to)) => {
                let (a, b) = (point(from), point(to));
                steps(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt())
            }
        };
        let taken = capture.map_or(0, |_| steps(TAKEN - ON_BOARD));
        f64::from(mover + taken) * STEP
    }

    /// The milliseconds from the `go` to the frame the GUI reads `bestmove`, given when each
    /// line came (milliseconds after `go`): one line a frame, the frames counted from the `go`.
    pub(super) fn read(arrivals: &[f64]) -> f64 {
        let mut frame = 0.0_f64;
        for &t in arrivals {
            frame = (frame + 1.0).max((t / FRAME).ceil());
        }
        frame * FRAME
    }
}

/// How the stand-in charges an engine's move beyond its own time.
#[derive(Clone, Copy, Debug)]
enum Animation {
    /// The GUI's own animation of the move (`gui::animation`).
    Gui,
    /// A flat charge of this many milliseconds, whatever the move (a stress).
    Flat(f64),
}

/// How one game of the GUI's client went.
struct SelfPlay {
    /// The game's plies, played to its end by the rules.
    plies: usize,
    /// How it ended by the rules.
    end: String,
    /// The side whose clock ran out first (0 White, 1 Black), the ply at which it did and what
    /// its moves had cost beyond any engine's time until then (see `floor`): the game was lost
    /// on time there (it is played on to its end, that side answering at once, to learn what
    /// the whole game charged).
    flagged: Option<(usize, usize, f64)>,
    /// The least clock each side had left after its moves (negative: lost on time).
    least: [f64; 2],
    /// What each side's moves cost its clock beyond any engine's time, over the whole game: the
    /// animation and the four frames no answer avoids (two before `go`, the one that reads
    /// `bestmove`, the one that sees the animation end). A side lost on time with this above
    /// its clock was beyond any time manager: answering every move at once, with the same
    /// moves, it would have lost too.
    floor: [f64; 2],
    /// The milliseconds each side took from `go` to `bestmove`, in all.
    think: [f64; 2],
    /// Each side's placements, slides, flights and captures.
    kinds: [[u32; 4]; 2],
}

impl SelfPlay {
    /// How it ended, lost on time first.
    fn end(&self) -> String {
        match self.flagged {
            Some((i, ply, floor)) => {
                let who = if i == 0 { "White" } else { "Black" };
                format!(
                    "{who} lost on time at ply {ply}, its charges alone {:.1} s by then (then {})",
                    floor / 1000.0,
                    self.end
                )
            }
            None => self.end.clone(),
        }
    }
}

/// One game of the GUI's client, moulin against itself at `clock_ms` each, after `opening`
/// (random plies played before the clocks start); with `no_repetition`, each side is asked to
/// search only the moves that do not repeat a board a third time (`searchmoves`), so that the
/// game goes on to the 100 quiet plies or to a win. A side whose clock runs out goes on with
/// 1 ms shown (answering at once) to the game's end.
fn gui_self_play(
    engines: &mut [Engine; 2],
    clock_ms: f64,
    opening: &[String],
    animation: Animation,
    no_repetition: bool,
) -> SelfPlay {
    for e in engines.iter_mut() {
        gui_new_game(e);
    }
    let mut r = Referee::new(false);
    for mv in opening {
        r.play(mv).unwrap();
    }
    let mut clock = [clock_ms; 2];
    let mut least = [clock_ms; 2];
    let mut floor = [0.0; 2];
    let mut think = [0.0; 2];
    let mut kinds = [[0u32; 4]; 2];
    let mut flagged = None;
    let mut placed = [0u32; 2];
    for (k, _) in opening.iter().enumerate() {
        placed[k % 2] += 1;
    }
    while r.over().is_none() {
        let pos = r.game.position();
        let side = pos.side_to_move();
        let i = usize::from(side == Color::Black);
        let on_board = pos.pieces(side).count();
        let placing = pos.in_hand(side) > 0;
        let e = &mut engines[i];
        e.send(&r.position_command());
        let shown = clock.map(|t| t.max(1.0) as u64);
        // Without repetitions: the moves that do not repeat a board a third time, when some do.
        let legal = r.legal();
        let fresh: Vec<&String> = legal.iter().filter(|m| !r.repeats(m)).collect();
        let restrict = if no_repetition && !fresh.is_empty() && fresh.len() < legal.len() {
            let moves: Vec<&str> = fresh.iter().map(|m| m.as_str()).collect();
            format!(" searchmoves {}", moves.join(" "))
        } else {
            String::new()
        };
        let asked = Instant::now();
        e.send(&format!(
            "go wtime {} btime {}{restrict}",
            shown[0], shown[1]
        ));
        let mut arrivals = Vec::new();
        let best = loop {
            let line = e
                .next_line(Duration::from_mins(2))
                .expect("an answer to go");
            arrivals.push(asked.elapsed().as_secs_f64() * 1000.0);
            if let Some(b) = line.strip_prefix("bestmove ") {
                break b.split(' ').next().unwrap_or("").to_string();
            }
        };
        assert_ne!(best, "none", "the game goes on after {}", r.moves.join(" "));
        let anim = match animation {
            Animation::Gui => gui::animation(&best, i == 0, placed[i], on_board),
            Animation::Flat(ms) => ms,
        };
        // Two frames from the turn's start to `go`, the reading, the animation, and the frame
        // that sees it ended.
        let charged = 2.0 * gui::FRAME + gui::read(&arrivals) + anim + gui::FRAME;
        clock[i] -= charged;
        floor[i] += anim + 4.0 * gui::FRAME;
        think[i] += arrivals.last().copied().unwrap_or(0.0);
        let kind = if placing {
            0
        } else if on_board == 3 {
            2
        } else {
            1
        };
        kinds[i][kind] += 1;
        kinds[i][3] += u32::from(best.contains('x'));
        least[i] = least[i].min(clock[i]);
        if clock[i] <= 0.0 && flagged.is_none() {
            flagged = Some((i, r.moves.len() + 1, floor[i]));
        }
        if placing {
            placed[i] += 1;
        }
        r.play(&best).unwrap_or_else(|m| panic!("illegal: {m}"));
    }
    let end = r.over().unwrap().to_string();
    for e in engines.iter_mut() {
        gui_game_over(e, &r);
    }
    SelfPlay {
        plies: r.moves.len(),
        end,
        flagged,
        least,
        floor,
        think,
        kinds,
    }
}

/// `plies` random legal plies from the start (seeded), avoiding an early mill.
fn random_opening(plies: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut r = Referee::new(false);
    for _ in 0..plies {
        let legal: Vec<String> = r.legal().into_iter().filter(|m| !m.contains('x')).collect();
        let mv = legal[rng.below(legal.len())].clone();
        r.play(&mv).unwrap();
    }
    r.moves
}

/// Self-play through the GUI's client at its one-minute preset: `games` games after random
/// openings of 0, 2, ... 12 plies (a spread of games, long ones among them), the engines at their
/// defaults with one thread; with `no_repetition`, each side avoids threefold repetitions (the
/// longest games, a stress). Prints each game, the least clock left over all moves of all games
/// and the longest game. No game may be lost on time but where the loser's moves, the game
/// played to its end, cost more than its clock beyond any engine's time (`SelfPlay::floor`: no
/// time manager could have kept it).
fn gui_minute_self_play(games: u64, animation: Animation, no_repetition: bool) {
    let _gate = shared();
    let mut engines = [gui_start(false), gui_start(false)];
    for e in &mut engines {
        e.send("setoption name Threads value 1");
    }
    let clock = 60_000.0;
    let mut least = f64::INFINITY;
    let mut lost = Vec::new();
    let mut longest = 0;
    for g in 0..games {
        let opening = random_opening(2 * (g % 7) as usize, 1000 + g);
        let game = gui_self_play(&mut engines, clock, &opening, animation, no_repetition);
        let side = |i: usize| {
            let [p, s, f, x] = game.kinds[i];
            format!(
                "least clock {:.0} ms, {p} placements {s} slides {f} flights {x} captures: \
                 charges alone {:.1} s, thinking {:.1} s",
                game.least[i],
                game.floor[i] / 1000.0,
                game.think[i] / 1000.0
            )
        };
        eprintln!(
            "game {g}{}: opening {:?}, {} plies, {}; White {}; Black {}",
            if no_repetition {
                " (no repetition)"
            } else {
                ""
            },
            opening.join(" "),
            game.plies,
            game.end(),
            side(0),
            side(1),
        );
        if game.flagged.is_none() {
            least = least.min(game.least[0]).min(game.least[1]);
        }
        longest = longest.max(game.plies);
        if let Some((i, _, _)) = game.flagged {
            lost.push((g, game.floor[i]));
        }
    }
    eprintln!(
        "{games} games ({animation:?}{}), longest {longest} plies: least clock left in the games \
         not lost on time {least:.0} ms; lost on time (game, the loser's charges alone over the \
         whole game, ms): {lost:?}",
        if no_repetition { ", no repetition" } else { "" },
    );
    for e in engines {
        e.quit();
    }
    let savable: Vec<_> = lost.iter().filter(|(_, floor)| *floor < clock).collect();
    assert!(
        savable.is_empty(),
        "games lost on time that a time manager could have kept: {savable:?}"
    );
}

#[test]
#[ignore = "20 natural games of the GUI's one-minute preset, moulin against itself: about 3 minutes"]
fn the_guis_one_minute_game_is_lost_on_time_only_beyond_any_time_manager() {
    gui_minute_self_play(20, Animation::Gui, false);
}

#[test]
#[ignore = "12 games of the GUI's one-minute preset without repetitions: about 2 minutes"]
fn the_guis_one_minute_game_without_repetitions_is_lost_only_beyond_any_time_manager() {
    gui_minute_self_play(12, Animation::Gui, true);
}

#[test]
#[ignore = "12 games at a minute with 900 ms charged a move: about a minute"]
fn a_900_ms_charge_a_move_flags_moulin_only_beyond_any_time_manager() {
    gui_minute_self_play(12, Animation::Flat(900.0), false);
}
