//! The referee: plays one game between two engines with a real clock per side. Every answer is
//! checked by moulin's own rules before the other engine hears of it, and the rules, not the
//! engines, decide when the game ends. Any fault of an engine loses it the game.

use super::adjudicate::{self, Adjudication, ScoreWatch, Verdict};
use super::engine::{Engine, EngineFault};
use super::match_error::MatchError;
use super::spec::EngineSpec;
use crate::record::openings::Opening;
use crate::rules::board::{ByColor, Color};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::notation::MoveError;
use crate::rules::position::Outcome;
use crate::rules::Rules;
use std::fmt;
use std::time::Duration;

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock per side: `base` for the game, plus `inc` after each completed turn.
    Clock {
        /// The time for the game.
        base: Duration,
        /// The time added after each completed turn.
        inc: Duration,
    },
    /// A fixed time per `go`.
    MoveTime(Duration),
}

impl TimeControl {
    /// Reads `<base>+<inc>` in seconds (`10+0.1`, `60`), as `--tc` takes it.
    ///
    /// # Errors
    ///
    /// A part that is not a number of seconds, or out of range, or no time at all.
    pub fn parse_tc(text: &str) -> Result<TimeControl, MatchError> {
        let secs = |s: &str| -> Result<Duration, MatchError> {
            let v: f64 = s.trim().parse().map_err(|_| MatchError::TcNotSeconds {
                text: text.to_string(),
                part: s.to_string(),
            })?;
            if !(0.0..=1e7).contains(&v) {
                return Err(MatchError::TcRange {
                    text: text.to_string(),
                    part: s.to_string(),
                });
            }
            Ok(Duration::from_secs_f64(v))
        };
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (secs(b)?, secs(i)?),
            None => (secs(text)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(MatchError::TcNoTime {
                text: text.to_string(),
            });
        }
        Ok(TimeControl::Clock { base, inc })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc } => {
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::MoveTime(t) => write!(f, "movetime {} ms", t.as_millis()),
        }
    }
}

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The rules of the games.
    pub rules: Rules,
    /// The time control.
    pub tc: TimeControl,
    /// How far past its time an engine may answer before it loses on time.
    pub grace: Duration,
    /// How long the handshake and each `isready` may take.
    pub ready_timeout: Duration,
    /// Turns after which a game still going is adjudicated a draw.
    pub max_plies: usize,
    /// How a game may end early: by tables, by the engines' scores.
    pub adjudication: Adjudication,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The rules ended it.
    Rules(Outcome),
    /// One side lost by forfeit.
    Forfeit {
        /// The side that forfeits.
        loser: Color,
        /// `illegal`, `malformed`, `claim`, `time`, `crash`, `exit`, `spawn`, `timeout`, `flood`.
        kind: String,
        /// What happened, in words.
        reason: String,
        /// The offending answer, for `illegal` and `malformed`.
        answer: Option<String>,
        /// Whether the engine failed to start (rather than in a game it had started).
        at_start: bool,
    },
    /// The move limit was reached: a draw.
    MoveLimit(usize),
    /// Adjudicated by the tables or the engines' scores.
    Adjudicated(Verdict),
}

impl End {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            End::Rules(o) => o.winner(),
            End::Forfeit { loser, .. } => Some(!*loser),
            End::MoveLimit(_) => None,
            End::Adjudicated(v) => v.winner,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The word records use: `rules`, `movelimit`, or the forfeit's kind.
    pub fn kind(&self) -> &str {
        match self {
            End::Rules(_) => "rules",
            End::Forfeit { kind, .. } => kind,
            End::MoveLimit(_) => "movelimit",
            End::Adjudicated(v) => v.kind,
        }
    }

    /// A human description.
    pub fn reason(&self) -> String {
        match self {
            End::Rules(o) => o.describe(),
            End::Forfeit { reason, .. } => reason.clone(),
            End::MoveLimit(n) => format!("draw: adjudicated after {n} plies"),
            End::Adjudicated(v) => v.reason.clone(),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The opening it was played from.
    pub opening: Opening,
    /// The moves after the opening, one token per turn.
    pub moves: Vec<String>,
    /// How it ended.
    pub end: End,
}

/// One side of a game: the spec to start from, and the process (started when missing, dropped
/// after it forfeits so that the next game gets a fresh one).
pub struct Seat<'a> {
    /// The engine's spec.
    pub spec: &'a EngineSpec,
    /// Its process, when running.
    pub engine: &'a mut Option<Engine>,
}

/// The game's moves merged into turns: a lone removal joins the step before it.
pub fn turns(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &mv in moves {
        match out.last_mut() {
            Some(last) if mv.is_removal_only() && !last.is_removal_only() => {
                *last = mv.removals().fold(*last, Move::with_removal);
            }
            _ => out.push(mv),
        }
    }
    out
}

/// The `position` command for `game` in an engine's notation. In the action notation a turn's
/// removals are written in an order in which the engine can take them one at a time, which
/// is not always the order a `Move` keeps them in.
pub fn position_command(game: &Game, opening: &Opening, notation: Convention) -> String {
    let mut cmd = match &opening.fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    let all = turns(game.moves());
    if !all.is_empty() {
        cmd.push_str(" moves");
        let mut before = *game.start();
        for t in all {
            cmd.push(' ');
            cmd.push_str(&t.written_at(&before, notation));
            before.play(t);
        }
    }
    cmd
}

fn forfeit(seats: &mut ByColor<Seat>, loser: Color, fault: &EngineFault, doing: &str) -> End {
    if let Some(mut e) = seats[loser].engine.take() {
        e.kill();
    }
    let kind = match fault {
        EngineFault::Timeout { .. } if doing == "move" => "time".to_string(),
        f => f.kind().to_string(),
    };
    End::Forfeit {
        loser,
        kind,
        reason: format!(
            "{} ({}) {fault}{}",
            seats[loser].spec.name,
            loser.name(),
            if doing == "move" {
                String::new()
            } else {
                format!(" [{doing}]")
            }
        ),
        answer: None,
        at_start: doing == "start",
    }
}

/// Plays one game from `opening`. The engines are started when missing; the one that forfeits is
/// stopped.
pub fn play(seats: &mut ByColor<Seat>, opening: &Opening, set: &GameSettings) -> Played {
    let mut game = match opening.game(&set.rules) {
        Ok(g) => g,
        Err(e) => {
            // Books are checked when read; this would be a bug, not an engine's fault.
            log::error!("opening '{opening}' cannot be played: {e}");
            Game::new(set.rules)
        }
    };
    let book_len = game.moves().len();
    let end = run(seats, opening, set, &mut game);
    let moves = turns(&game.moves()[book_len..])
        .iter()
        .map(|m| m.turn_notation())
        .collect();
    Played {
        opening: opening.clone(),
        moves,
        end,
    }
}

/// Starts the engines not running yet and tells both a new game begins; the forfeit of the
/// first one that fails.
fn start_engines(seats: &mut ByColor<Seat>, set: &GameSettings) -> Option<End> {
    for c in Color::BOTH {
        let seat = &mut seats[c];
        if seat.engine.is_none() {
            match Engine::start(seat.spec, &set.rules, set.ready_timeout) {
                Ok(e) => *seat.engine = Some(e),
                Err(f) => return Some(forfeit(seats, c, &f, "start")),
            }
        }
        let ready = seats[c]
            .engine
            .as_mut()
            .expect("started above")
            .new_game(set.ready_timeout);
        if let Err(f) = ready {
            return Some(forfeit(seats, c, &f, "new game"));
        }
    }
    None
}

/// The `go` command for the side `us` with `left` on the clocks, and how long its answer may
/// take.
fn go_command(set: &GameSettings, left: &ByColor<Duration>, us: Color) -> (String, Duration) {
    match set.tc {
        TimeControl::Clock { inc, .. } => {
            let ms = |d: Duration| d.as_millis();
            (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(left[Color::White]),
                    ms(left[Color::Black]),
                    ms(inc),
                    ms(inc)
                ),
                left[us].saturating_add(set.grace),
            )
        }
        TimeControl::MoveTime(t) => (
            format!("go movetime {}", t.as_millis()),
            t.saturating_add(set.grace),
        ),
    }
}

/// How the game ends before the next turn, if it does: by the rules, or by the tables.
fn ended(set: &GameSettings, game: &Game) -> Option<End> {
    if let Some(outcome) = game.outcome() {
        return Some(End::Rules(outcome));
    }
    let (tables, _) = set.adjudication.tables.as_ref()?;
    adjudicate::by_tables(tables, set.adjudication.max_pieces, game.position())
        .map(End::Adjudicated)
}

/// Plays the game from `game` (where `opening` led) to its end.
fn run(seats: &mut ByColor<Seat>, opening: &Opening, set: &GameSettings, game: &mut Game) -> End {
    if let Some(end) = start_engines(seats, set) {
        return end;
    }
    let mut left = match set.tc {
        TimeControl::Clock { base, .. } => ByColor::new(base, base),
        TimeControl::MoveTime(_) => ByColor::new(Duration::ZERO, Duration::ZERO),
    };
    let mut plies = 0;
    let opening_turns = turns(game.moves()).len();
    let mut scores = ScoreWatch::default();
    loop {
        if let Some(end) = ended(set, game) {
            return end;
        }
        if plies >= set.max_plies {
            return End::MoveLimit(plies);
        }
        let us = game.position().side_to_move();
        let (go, limit) = go_command(set, &left, us);
        let seat = &mut seats[us];
        let engine = seat
            .engine
            .as_mut()
            .expect("both engines run during a game");
        // Drop what is left of the engine's last answer (a second `bestmove`, late lines)
        // before asking again, so that nothing stale is read as this move.
        if let Err(f) = engine.sync(set.ready_timeout) {
            return forfeit(seats, us, &f, "ready before move");
        }
        let position = position_command(game, opening, engine.spec.notation);
        let answer = match engine.go(&position, &go, limit) {
            Ok(a) => a,
            Err(f) => return forfeit(seats, us, &f, "move"),
        };
        if let TimeControl::Clock { .. } = set.tc {
            if answer.elapsed > left[us].saturating_add(set.grace) {
                let fault = EngineFault::Timeout {
                    waiting_for: "bestmove".into(),
                    ms: limit.as_millis() as u64,
                };
                return forfeit(seats, us, &fault, "move");
            }
            left[us] = left[us].saturating_sub(answer.elapsed);
        }
        let text = answer.tokens.join(" ");
        if matches!(text.as_str(), "none" | "(none)" | "0000") {
            let end = End::Forfeit {
                loser: us,
                kind: "claim".into(),
                reason: format!(
                    "{} ({}) answered 'bestmove {text}' but the game is not over",
                    seats[us].spec.name,
                    us.name()
                ),
                answer: Some(text),
                at_start: false,
            };
            if let Some(mut e) = seats[us].engine.take() {
                e.kill();
            }
            return end;
        }
        if let Err((_, e)) = game.play_tokens(answer.tokens.iter().map(String::as_str)) {
            let kind = match e {
                MoveError::Malformed { .. } => "malformed",
                MoveError::Illegal { .. } => "illegal",
            };
            if let Some(mut eng) = seats[us].engine.take() {
                eng.kill();
            }
            return End::Forfeit {
                loser: us,
                kind: kind.into(),
                reason: format!("{} ({}) played {e}", seats[us].spec.name, us.name()),
                answer: Some(text),
                at_start: false,
            };
        }
        let turn_done = game.position().pending_removals() == 0;
        if turn_done {
            plies += 1;
            let verdict = scores.note(&set.adjudication, us, answer.score, opening_turns + plies);
            if let (Some(v), None) = (verdict, game.outcome()) {
                return End::Adjudicated(v);
            }
            if let TimeControl::Clock { inc, .. } = set.tc {
                left[us] = left[us].saturating_add(inc);
            }
        }
        log::debug!(
            "{} ({}) played {text} in {} ms",
            seats[us].spec.name,
            us.name(),
            answer.elapsed.as_millis()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse_tc("10+0.1").unwrap(),
            TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        assert_eq!(
            TimeControl::parse_tc("60").unwrap(),
            TimeControl::Clock {
                base: Duration::from_mins(1),
                inc: Duration::ZERO
            }
        );
        for bad in ["", "x+1", "1+", "0+0", "-1+1"] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_in_both_notations() {
        let rules = Rules::nine();
        let opening = Opening::parse("d7 a1 g7 d1", &rules).unwrap();
        let mut game = opening.game(&rules).unwrap();
        game.play_tokens(["a7", "xa1"]).unwrap();
        assert_eq!(
            position_command(&game, &opening, Convention::Turn),
            "position startpos moves d7 a1 g7 d1 a7xa1"
        );
        assert_eq!(
            position_command(&game, &opening, Convention::Action),
            "position startpos moves d7 a1 g7 d1 a7 xa1"
        );
        let mut game = opening.game(&rules).unwrap();
        game.play_tokens(["a7"]).unwrap();
        assert_eq!(
            position_command(&game, &opening, Convention::Turn),
            "position startpos moves d7 a1 g7 d1 a7"
        );
    }

    #[test]
    fn two_removals_are_sent_in_an_order_that_reads_back() {
        // Morabaraba: white's a7 closes two mills; black's b4 stands outside any mill, so it
        // must go before e3 (point order would put e3 first, which an engine refuses).
        let rules = Rules::preset("morabaraba").unwrap();
        let opening = Opening::parse("d7 c3 g7 d3 f2 e3xf2 f4 e4 b6 e5xf4 c5 b4", &rules).unwrap();
        // As an action engine plays it, and as one token, its removals in either order.
        for tokens in [&["a7", "xb4", "xe3"][..], &["a7xe3xb4"], &["a7xb4xe3"]] {
            let mut game = opening.game(&rules).unwrap();
            game.play_tokens(tokens.iter().copied()).unwrap();
            game.play_tokens(["a1"]).unwrap();
            for notation in [Convention::Turn, Convention::Action] {
                let cmd = position_command(&game, &opening, notation);
                let written = match notation {
                    Convention::Turn => " b4 a7xe3xb4 a1",
                    Convention::Action => " b4 a7 xb4 xe3 a1",
                };
                assert!(cmd.ends_with(written), "{tokens:?}: {cmd}");
                // What the engine reads back is the game.
                let moves = cmd.split_once(" moves ").unwrap().1;
                let mut read = Game::new(rules);
                read.play_tokens(moves.split(' ')).unwrap();
                assert_eq!(read.position(), game.position(), "{cmd}");
            }
        }
    }
}
