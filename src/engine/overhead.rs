//! What the GUI charges per move beyond the engine's own time, learned from the clocks: at each
//! `go` with a clock, the side to move's clock against its clock at the previous `go` of the same
//! game, the increment, and the time the engine took to answer that one. A GUI that animates the
//! move on the mover's clock (Nine Morris 3D: 0.6 to 0.8 s a move), a network or a slow runner
//! shows here; the search keeps the estimate in reserve for every move to come, besides
//! `MoveOverhead` (`Limits::reserve`).
//!
//! The estimate is a decaying maximum of the charge two moves in a row showed (the smaller of
//! the last two): a GUI that charges every move is learned at its second charged move, while one
//! slow move (the machine busy a moment) teaches nothing; the estimate shrinks by `DECAY` a move
//! when the charges fall. Charges of `NOISE_MS` or less count as none (a match runner's pipes).
//! The largest estimate of the game (`peak`) is kept too: a GUI's charge depends on the kind of
//! move (Nine Morris 3D animates a placement or a flight in about 0.8 s, a slide in 0.3 s), and
//! the moves still to come may be of the dearer kind.

use crate::rules::board::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::time::{Duration, Instant};

/// How much of the estimate is kept from one move to the next when the charge is below it.
pub(super) const DECAY: f64 = 0.9;
/// A charge of this many milliseconds or less is the pipes' and the scheduler's noise: none.
pub(super) const NOISE_MS: u64 = 5;
/// A charge above this many milliseconds is not taken for the GUI's (the clock was set by hand,
/// or the game was paused).
pub(super) const MAX_CHARGE_MS: u64 = 30_000;
/// What the Nine Morris 3D GUI (the one GUI that speaks GBGP) is known to charge a move
/// before anything is learned: a placement's animation, about 0.8 s (docs/time.md). A GBGP
/// session assumes it from the game's first `go`, for the recent charge and the peak alike,
/// instead of spending the clock as if nothing were charged until two moves have shown it;
/// the first estimate learned replaces it.
pub const GBGP_PRIOR_MS: u64 = 800;
/// The estimate is said (`info string`) when it moves by this share of the one said last...
pub(super) const NOTE_SHARE: f64 = 0.25;
/// ... and by at least this many milliseconds.
pub(super) const NOTE_MIN_MS: u64 = 20;

/// One `go` of ours with a clock, and how it was answered.
#[derive(Clone, Debug)]
struct Turn {
    /// The game it was asked in: its start and moves, with the answer once it is given.
    start: Position,
    moves: Vec<Move>,
    side: Color,
    /// The clock and increment `go` gave the side to move.
    left: u64,
    inc: u64,
    /// When `go` came, and how long the engine took to answer it (`None` until it answered).
    asked: Instant,
    used: Option<Duration>,
}

/// The learned charge of the GUI per move.
#[derive(Clone, Debug, Default)]
pub(super) struct Overhead {
    estimate: f64,
    /// The largest estimate since the game began.
    peak: f64,
    /// The estimate last said, in milliseconds.
    said: u64,
    /// The charge of the previous move (`None` before the second `go` of a game).
    previous: Option<u64>,
    /// Whether an estimate was learned in this game (two charged moves seen): a prior then
    /// gives way to it.
    learned: bool,
    last: Option<Turn>,
}

impl Overhead {
    /// Forgets what was learned: a new game.
    pub(super) fn reset(&mut self) {
        *self = Overhead::default();
    }

    /// The milliseconds to keep in reserve for each move.
    pub(super) fn reserve(&self) -> u64 {
        self.estimate.ceil() as u64
    }

    /// The largest charge learned in this game, in milliseconds (at least `reserve`).
    pub(super) fn peak(&self) -> u64 {
        self.peak.ceil() as u64
    }

    /// The charge to keep for each move and the game's largest, in milliseconds: the learned
    /// ones, or `prior` for both until the game has taught an estimate (`GBGP_PRIOR_MS` for the
    /// Nine Morris 3D GUI, 0 where nothing is known).
    pub(super) fn charges(&self, prior: u64) -> (u64, u64) {
        if self.learned {
            (self.reserve(), self.peak())
        } else {
            (self.reserve().max(prior), self.peak().max(prior))
        }
    }

    /// A `go` with `left` milliseconds (and `inc`) on the clock of the side to move, in the game
    /// of `start` and `moves`. When it continues the game of the previous `go` answered (that
    /// game, its answer, then the other side's turn), the charge of that move is learned; when
    /// it does not, what was learned is forgotten. The new estimate, when it changed by much since
    /// it was last said.
    pub(super) fn asked(
        &mut self,
        start: &Position,
        moves: &[Move],
        side: Color,
        left: u64,
        inc: u64,
    ) -> Option<u64> {
        let continued = self.last.as_ref().and_then(|t| {
            let used = t.used?;
            let continues = t.start == *start
                && t.side == side
                && moves.len() > t.moves.len()
                && moves.len() <= t.moves.len() + 2
                && moves.starts_with(&t.moves);
            continues.then_some((t.left, t.inc, used))
        });
        match continued {
            Some((before, inc_then, used)) => {
                let used = used.as_millis() as u64;
                let charged = (before + inc_then).saturating_sub(left);
                if charged <= MAX_CHARGE_MS {
                    self.learn(charged.saturating_sub(used));
                }
            }
            // Another game (after a `go` without a clock, nothing to compare with).
            None if self.last.is_some() => self.reset(),
            None => {}
        }
        self.last = Some(Turn {
            start: *start,
            moves: moves.to_vec(),
            side,
            left,
            inc,
            asked: Instant::now(),
            used: None,
        });
        let now = self.reserve();
        let moved = now.abs_diff(self.said);
        (moved >= NOTE_MIN_MS && moved as f64 >= NOTE_SHARE * self.said as f64).then(|| {
            self.said = now;
            now
        })
    }

    /// A `go` without a clock, or pondering: the next `go` with a clock does not continue the
    /// last one's turn (the time between them is not all the GUI's).
    pub(super) fn unclocked(&mut self) {
        self.last = None;
        self.previous = None;
    }

    /// The engine answered the last `go` with `best` (`None`: no move, nothing to learn from).
    pub(super) fn answered(&mut self, best: Option<Move>) {
        let Some(turn) = self.last.as_mut().filter(|t| t.used.is_none()) else {
            return;
        };
        match best {
            Some(mv) => {
                turn.used = Some(turn.asked.elapsed());
                turn.moves.push(mv);
            }
            None => self.last = None,
        }
    }

    /// Takes in one move's charge beyond the engine's own time: the smaller of it and the
    /// previous one, if larger than the estimate decayed (`DECAY`), is the new estimate.
    fn learn(&mut self, extra: u64) {
        let extra = if extra <= NOISE_MS { 0 } else { extra };
        if let Some(previous) = self.previous.replace(extra) {
            self.estimate = (self.estimate * DECAY).max(previous.min(extra) as f64);
            self.peak = self.peak.max(self.estimate);
            self.learned = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::Rules;

    /// A game of `plies` placements (no mill), its start and moves.
    fn game(plies: usize) -> (Position, Vec<Move>) {
        let mut g = Game::new(Rules::nine());
        let tokens = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4"];
        g.play_tokens(tokens[..plies].iter().copied()).unwrap();
        (*g.start(), g.moves().to_vec())
    }

    /// Plays `n` of our moves: each answered at once, the clock losing `charge` ms beyond it.
    fn play(o: &mut Overhead, n: usize, charges: &[u64]) -> Vec<Option<u64>> {
        let mut left = 60_000;
        let mut said = Vec::new();
        for k in 0..n {
            let (start, moves) = game(2 * k);
            said.push(o.asked(&start, &moves, Color::White, left, 0));
            let (_, next) = game(2 * k + 1);
            o.answered(Some(next[2 * k]));
            left -= charges[k % charges.len()];
        }
        said
    }

    #[test]
    fn a_steady_charge_is_learned_and_said_once() {
        let mut o = Overhead::default();
        let said = play(&mut o, 5, &[700]);
        let r = o.reserve();
        assert!((700..=705).contains(&r), "{r}");
        // Said when it was first learned (two charged moves), not again while it holds.
        assert_eq!(said.iter().flatten().count(), 1, "{said:?}");
        assert!(said[2].is_some_and(|s| s >= 700));
    }

    #[test]
    fn one_slow_move_teaches_nothing_two_decay_and_a_new_game_forgets() {
        let mut o = Overhead::default();
        play(&mut o, 5, &[1000, 100, 100, 100, 100]);
        assert!((100..=101).contains(&o.reserve()), "{}", o.reserve());
        let mut o = Overhead::default();
        play(&mut o, 5, &[1000, 1000, 100, 100, 100]);
        // 1000 ms, then two moves of decay; the peak stays.
        let r = o.reserve();
        assert!((810..=815).contains(&r), "{r}");
        assert_eq!(o.peak(), 1000);
        o.reset();
        assert_eq!((o.reserve(), o.peak()), (0, 0));
        // The noise of a match runner's pipes is no charge.
        play(&mut o, 5, &[4]);
        assert_eq!(o.reserve(), 0);
    }

    #[test]
    fn a_prior_holds_until_the_game_teaches_an_estimate() {
        let mut o = Overhead::default();
        assert_eq!(o.charges(GBGP_PRIOR_MS), (800, 800));
        assert_eq!(o.charges(0), (0, 0));
        // One charged move teaches nothing yet; the second does, and replaces the prior, below
        // it as above it.
        play(&mut o, 2, &[300]);
        assert_eq!(o.charges(GBGP_PRIOR_MS), (800, 800));
        play(&mut o, 3, &[300]);
        assert_eq!(o.charges(GBGP_PRIOR_MS), (300, 300));
        let mut o = Overhead::default();
        play(&mut o, 3, &[1_000]);
        assert_eq!(o.charges(GBGP_PRIOR_MS), (1_000, 1_000));
        // A GUI that charges nothing is learned as such; a new game assumes the prior again.
        let mut o = Overhead::default();
        play(&mut o, 3, &[0]);
        assert_eq!(o.charges(GBGP_PRIOR_MS), (0, 0));
        o.reset();
        assert_eq!(o.charges(GBGP_PRIOR_MS), (800, 800));
    }

    #[test]
    fn a_position_that_does_not_continue_the_game_forgets() {
        let mut o = Overhead::default();
        play(&mut o, 3, &[500]);
        assert!(o.reserve() >= 500);
        // Another game's position (not the previous one with our answer).
        let (start, moves) = game(2);
        let other: Vec<Move> = moves.iter().rev().copied().collect();
        o.asked(&start, &other, Color::White, 59_000, 0);
        assert_eq!(o.reserve(), 0);
    }

    #[test]
    fn a_go_without_a_clock_between_two_is_not_charged() {
        let mut o = Overhead::default();
        play(&mut o, 3, &[300]);
        assert!(o.reserve() >= 300);
        // Our move at a fixed time (or pondered), then a clock that lost 5 s over two moves.
        o.unclocked();
        let (start, moves) = game(8);
        o.asked(&start, &moves, Color::White, 55_000, 0);
        let (_, next) = game(9);
        o.answered(Some(next[8]));
        let before = o.reserve();
        let (start, moves) = game(10);
        o.asked(&start, &moves, Color::White, 54_700, 0);
        // What was learned stands; the 5 s are not taken for one move's charge.
        assert!(
            (240..=300).contains(&before) && o.reserve() <= before,
            "{before}"
        );
    }

    #[test]
    fn the_increment_and_the_engines_own_time_are_not_charged() {
        let mut o = Overhead::default();
        let (start, moves) = game(0);
        o.asked(&start, &moves, Color::White, 10_000, 1_000);
        std::thread::sleep(Duration::from_millis(60));
        let (_, next) = game(1);
        o.answered(Some(next[0]));
        // Twice, the clock lost the engine's 60 ms and 40 more, and gained the increment.
        let (start, moves) = game(2);
        o.asked(&start, &moves, Color::White, 10_000 + 1_000 - 100, 1_000);
        std::thread::sleep(Duration::from_millis(60));
        let (_, next) = game(3);
        o.answered(Some(next[2]));
        let (start, moves) = game(4);
        o.asked(&start, &moves, Color::White, 10_000 + 2_000 - 200, 1_000);
        let r = o.reserve();
        assert!(r <= 40, "{r}");
        // A clock that gained time (set by hand) charges nothing.
        let mut o = Overhead::default();
        play(&mut o, 2, &[0]);
        let (start, moves) = game(4);
        o.asked(&start, &moves, Color::White, 90_000, 0);
        assert_eq!(o.reserve(), 0);
    }
}
