//! The referee: plays one game between two engines with a real clock per side. Every answer is
//! checked by moulin's own rules before the other engine hears of it, and the rules, not the
//! engines, decide when the game ends. Any fault of an engine loses it the game.

use super::adjudicate::{self, Adjudication, ScoreWatch, Verdict};
use crate::matches::engines::engine_output::Score;
use crate::matches::engines::engine_process::{EngineFault, EngineProcess};
use crate::matches::engines::gbgp_engine;
use crate::matches::engines::spec::{EngineSpec, Proto};
pub use crate::matches::engines::time_control::TimeControl;
use crate::matches::engines::time_control::{self, SideClock};
use crate::record::openings::Opening;
use crate::rules::board::{ByColor, Color};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::notation::MoveError;
use crate::rules::position::Outcome;
use crate::rules::{gbgp_position, Rules};
use std::time::{Duration, Instant};

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The rules of the games.
    pub rules: Rules,
    /// The time control of an engine whose spec gives none.
    pub tc: TimeControl,
    /// How far past its time an engine may answer before it loses on time.
    pub grace: Duration,
    /// How long a search bounded by no time (`tc=inf`, nodes or depth only) may take.
    pub untimed: Duration,
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

/// The runner's own time between answers: from an engine's `bestmove` to the next engine's
/// `go` (checking the move, the `isready` round trip that drains the engine, writing the
/// position), which neither engine's clock pays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overhead {
    /// The gaps between answers measured.
    pub gaps: u32,
    /// Their total.
    pub time: Duration,
    /// The longest.
    pub longest: Duration,
}

impl Overhead {
    /// Notes the gap before an answer that took `elapsed`, the previous one having ended at
    /// `previous` (none before a game's first answer: starting the engines is not a move's).
    fn note(&mut self, previous: Option<Instant>, elapsed: Duration) {
        if let Some(t) = previous {
            let gap = t.elapsed().saturating_sub(elapsed);
            self.gaps += 1;
            self.time += gap;
            self.longest = self.longest.max(gap);
        }
    }

    /// Adds the gaps of another game.
    pub fn add(&mut self, other: &Overhead) {
        self.gaps += other.gaps;
        self.time += other.time;
        self.longest = self.longest.max(other.longest);
    }

    /// The mean gap, when there is one.
    pub fn mean(&self) -> Option<Duration> {
        (self.gaps > 0).then(|| self.time / self.gaps)
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
    /// What the engine said of each turn after the opening, as far as the turns were complete.
    pub notes: Vec<Note>,
    /// The runner's own time between the answers of the game.
    pub overhead: Overhead,
}

/// What the engine that played a turn said of it: its last score and depth, and the time it
/// took (its answers summed, when it gave the turn's step and removals one at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// The last score of its `info` lines, from its own view.
    pub score: Option<Score>,
    /// The depth of its last `info` line that gave one.
    pub depth: Option<u32>,
    /// The time it took.
    pub time: Duration,
}

/// One side of a game: the spec to start from, and the process (started when missing, dropped
/// after it forfeits so that the next game gets a fresh one).
pub struct Seat<'a> {
    /// The engine's spec.
    pub spec: &'a EngineSpec,
    /// Its process, when running.
    pub engine: &'a mut Option<EngineProcess>,
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
    push_moves(&mut cmd, game, notation);
    cmd
}

/// The `position` command for `game` in the dialect of `spec`: for GBGP, `position pos` and the
/// GBGP string of the game's start (never `startpos`; a start it cannot state was refused before
/// the match by `gbgp_engine::check`, and is sent as the board it holds), the moves in the turn
/// notation.
pub fn position_for(game: &Game, opening: &Opening, spec: &EngineSpec) -> String {
    match spec.proto {
        Proto::Uci => position_command(game, opening, spec.notation),
        Proto::Gbgp => {
            let start = game.start();
            let text = gbgp_engine::start_string(start).unwrap_or_else(|why| {
                log::error!("{}: start not stated exactly: {why}", spec.name);
                gbgp_position::write(start)
            });
            let mut cmd = format!("position pos {text}");
            push_moves(&mut cmd, game, Convention::Turn);
            cmd
        }
    }
}

/// Appends ` moves` and the game's turns in `notation`, when it has any.
fn push_moves(cmd: &mut String, game: &Game, notation: Convention) {
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
    let mut notes = Vec::new();
    let mut overhead = Overhead::default();
    let end = run(seats, opening, set, &mut game, &mut notes, &mut overhead);
    let moves = turns(&game.moves()[book_len..])
        .iter()
        .map(|m| m.turn_notation())
        .collect();
    Played {
        opening: opening.clone(),
        moves,
        end,
        notes,
        overhead,
    }
}

/// Starts the engines not running yet and tells both a new game begins; the forfeit of the
/// first one that fails.
fn start_engines(seats: &mut ByColor<Seat>, set: &GameSettings) -> Option<End> {
    for c in Color::BOTH {
        let seat = &mut seats[c];
        if seat.engine.is_none() {
            match EngineProcess::start(seat.spec, &set.rules, set.ready_timeout) {
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

/// How the game ends before the next turn, if it does: by the rules, or by the tables.
fn ended(set: &GameSettings, game: &Game) -> Option<End> {
    if let Some(outcome) = game.outcome() {
        return Some(End::Rules(outcome));
    }
    let tables = set.adjudication.tables.as_ref()?;
    adjudicate::by_tables(tables, set.adjudication.max_pieces, game.position())
        .map(End::Adjudicated)
}

/// Plays the game from `game` (where `opening` led) to its end, with a note of each turn
/// completed in `notes`.
fn run(
    seats: &mut ByColor<Seat>,
    opening: &Opening,
    set: &GameSettings,
    game: &mut Game,
    notes: &mut Vec<Note>,
    overhead: &mut Overhead,
) -> End {
    if let Some(end) = start_engines(seats, set) {
        return end;
    }
    let control = |c: Color| seats[c].spec.control(set.tc);
    let controls = ByColor::new(control(Color::White), control(Color::Black));
    let mut clocks = ByColor::new(
        SideClock::new(controls.white.time),
        SideClock::new(controls.black.time),
    );
    let mut plies = 0;
    let mut note = Note::default();
    let opening_turns = turns(game.moves()).len();
    let mut scores = ScoreWatch::default();
    let mut last_answer: Option<Instant> = None;
    loop {
        if let Some(end) = ended(set, game) {
            return end;
        }
        if plies >= set.max_plies {
            return End::MoveLimit(plies);
        }
        let us = game.position().side_to_move();
        let (go, limit) = time_control::go_command(&controls, &clocks, us, set.grace, set.untimed);
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
        let position = position_for(game, opening, &engine.spec);
        let answer = match engine.go(&position, &go, limit) {
            Ok(a) => a,
            Err(f) => return forfeit(seats, us, &f, "move"),
        };
        overhead.note(last_answer, answer.elapsed);
        last_answer = Some(Instant::now());
        if !clocks[us].spend(controls[us].time, answer.elapsed, set.grace) {
            let fault = EngineFault::Timeout {
                waiting_for: "bestmove".into(),
                ms: limit.as_millis() as u64,
            };
            return forfeit(seats, us, &fault, "move");
        }
        if let Some(end) = play_answer(seats, us, game, &answer.tokens) {
            return end;
        }
        note.time += answer.elapsed;
        note.score = answer.score.or(note.score);
        note.depth = answer.depth.or(note.depth);
        if game.position().pending_removals() == 0 {
            plies += 1;
            let verdict = scores.note(&set.adjudication, us, note.score, opening_turns + plies);
            clocks[us].turn_done(controls[us].time);
            notes.push(std::mem::take(&mut note));
            // The rules and the tables, exact, go before the engines' scores: the top of the
            // loop ends the game by them.
            if let (Some(v), None) = (verdict, ended(set, game)) {
                return End::Adjudicated(v);
            }
        }
        log::debug!(
            "{} ({}) played {} in {} ms",
            seats[us].spec.name,
            us.name(),
            answer.tokens.join(" "),
            answer.elapsed.as_millis()
        );
    }
}

/// Plays the answer `tokens` of the side `us` in `game`; the forfeit of its engine (which is
/// then stopped) when the answer claims the game is over or is not a legal move.
fn play_answer(
    seats: &mut ByColor<Seat>,
    us: Color,
    game: &mut Game,
    tokens: &[String],
) -> Option<End> {
    let text = tokens.join(" ");
    let end = if matches!(text.as_str(), "none" | "(none)" | "0000") {
        End::Forfeit {
            loser: us,
            kind: "claim".into(),
            reason: format!(
                "{} ({}) answered 'bestmove {text}' but the game is not over",
                seats[us].spec.name,
                us.name()
            ),
            answer: Some(text),
            at_start: false,
        }
    } else {
        let Err((_, e)) = game.play_tokens(tokens.iter().map(String::as_str)) else {
            return None;
        };
        let kind = match e {
            MoveError::Malformed { .. } => "malformed",
            MoveError::Illegal { .. } => "illegal",
        };
        End::Forfeit {
            loser: us,
            kind: kind.into(),
            reason: format!("{} ({}) played {e}", seats[us].spec.name, us.name()),
            answer: Some(text),
            at_start: false,
        }
    };
    if let Some(mut e) = seats[us].engine.take() {
        e.kill();
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn gbgp_positions_start_from_a_position_string() {
        let rules = Rules::nine();
        let uci = EngineSpec::parse("cmd=x notation=action").unwrap();
        let gbgp = EngineSpec::parse("cmd=x proto=gbgp").unwrap();
        let start = Opening::startpos();
        let game = start.game(&rules).unwrap();
        assert_eq!(position_for(&game, &start, &gbgp), "position pos w:w:b:1");
        assert_eq!(position_for(&game, &start, &uci), "position startpos");
        let opening = Opening::parse("d7 a1 g7 d1", &rules).unwrap();
        let mut game = opening.game(&rules).unwrap();
        game.play_tokens(["a7", "xa1"]).unwrap();
        assert_eq!(
            position_for(&game, &opening, &gbgp),
            "position pos w:w:b:1 moves d7 a1 g7 d1 a7xa1"
        );
        let fen = crate::rules::fen::write(game.position());
        let set_up = Opening::parse(&format!("fen {fen} moves a4"), &rules).unwrap();
        let game = set_up.game(&rules).unwrap();
        assert_eq!(
            position_for(&game, &set_up, &gbgp),
            "position pos b:wa7,d7,g7:bd1:3 moves a4"
        );
    }
}
