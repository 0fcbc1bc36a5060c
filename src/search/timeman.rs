//! The time manager, in the manner of Stockfish's `timeman`: from the clock, the increment,
//! `movestogo` and an estimate of the moves left (`Horizon`: the placings left, the pieces on
//! the board and in hand, what the tables decide at no cost), an optimum and a maximum time for
//! the move (`plan`); between iterations the optimum is scaled by how stable the best move has
//! been, how much the score fell and the share of the nodes the best move took (`Progress`).
//!
//! Every constant of the move's time is here, named, with what it does, the exact solver's
//! shares of a move included; matches tune them (docs/time.md).
//! `MoveOverhead` is a margin kept once; what the protocol learned the GUI charges
//! beyond the engine's own time is kept for every move to come, and the largest charge of the
//! game for the moves to come that may cost as much (placings and flights).

/// Moves left in a moving phase of three pieces a side that the tables do not decide.
pub(super) const MOVING_MOVES_BASE: f64 = 12.0;
/// Moves left added for each piece (on the board or in hand, both sides) beyond six.
pub(super) const MOVING_MOVES_PER_PIECE: f64 = 1.5;
/// A placing move searched gets this many shares of the time left, a moving move one: engines
/// between themselves decide most games in the placing, and the moving phase is long.
pub(super) const PLACING_WEIGHT: f64 = 2.0;
/// The fewest moves left ever assumed: a game the tables do not decide can go on.
pub(super) const MIN_MOVES_LEFT: f64 = 8.0;
/// The GUI's learned charge is kept for at least this many moves to come, whatever the estimate:
/// a game can run to the draw rule's 100 quiet plies after any capture, and a move the GUI
/// charges 700 ms costs that much even unsearched.
pub(super) const CHARGE_MOVES: f64 = 60.0;
/// A GUI's charge depends on the kind of move: Nine Morris 3D animates a placement or a flight
/// (three steps: up, over, down) in about 0.8 s and a slide in 0.3 s. The largest charge of the
/// game is kept for the placings left and for the flights the side may still come to: this many
/// when it has `FLYING_SOON` pieces or fewer (it flies, or one capture makes it fly), for up to
/// the draw rule's 100 quiet plies, 50 moves a side, after every capture.
pub(super) const FLIGHTS_NOW: f64 = 50.0;
/// The side's pieces (on the board and in hand) at which `FLIGHTS_NOW` are kept.
pub(super) const FLYING_SOON: u32 = 4;
/// Each piece beyond `FLYING_SOON` keeps this many flights fewer (40 with nine pieces, 34 with
/// twelve): the captures it takes to come down to three are moves that cost their own charge
/// first, and the reserve rises as the pieces fall, in steps this small, never all at once.
pub(super) const FLIGHTS_FEWER_PER_PIECE: f64 = 2.0;
/// The most moves left `movestogo` is taken to mean.
pub(super) const MAX_MOVESTOGO: f64 = 50.0;
/// The optimum is this multiple of an even share of the time left over the moves left.
pub(super) const OPTIMUM_SCALE: f64 = 1.0;
/// The optimum is at most this share of the clock left (less the reserve).
pub(super) const OPTIMUM_MAX_SHARE: f64 = 0.2;
/// The maximum is this multiple of the optimum...
pub(super) const MAXIMUM_SCALE: f64 = 4.0;
/// ... and at most this share of the clock left (less the reserve).
pub(super) const MAXIMUM_MAX_SHARE: f64 = 0.6;
/// A `movetime` loses its overhead, but never more than this share of it: the `movetime` is the
/// GUI's explicit budget for the move (`go movetime 10` searches 8 ms, not 1).
pub(super) const MOVETIME_OVERHEAD_SHARE: f64 = 0.25;
/// No iteration starts after this share of the (scaled) optimum: it would likely not finish.
pub(super) const ITERATION_START_SHARE: f64 = 0.6;
/// The optimum's scale when the best move has just changed...
pub(super) const UNSTABLE_SCALE: f64 = 1.3;
/// ... and once it has stayed the same for `STABLE_ITERATIONS` iterations (linear between).
pub(super) const STABLE_SCALE: f64 = 0.75;
/// Iterations with the same best move for it to count as fully stable.
pub(super) const STABLE_ITERATIONS: u32 = 6;
/// The optimum grows by this much per centipawn the score fell below its running average...
pub(super) const FALL_PER_CP: f64 = 1.0 / 200.0;
/// ... within these bounds (a rise shrinks it down to `FALL_MIN`).
pub(super) const FALL_MIN: f64 = 0.85;
/// The largest scale for a falling score.
pub(super) const FALL_MAX: f64 = 1.5;
/// The optimum's scale when the best move took none of the iteration's nodes...
pub(super) const EFFORT_LOW_SHARE_SCALE: f64 = 1.4;
/// ... and when it took all of them (linear between): a move that needs all the effort is
/// clear.
pub(super) const EFFORT_ALL_SHARE_SCALE: f64 = 0.7;
/// The node share counts from this depth on (shallow iterations are noise).
pub(super) const EFFORT_MIN_DEPTH: u32 = 6;
/// The scales' product stays within these bounds (and the maximum is never passed).
pub(super) const SCALE_MIN: f64 = 0.4;
/// The largest product of the scales.
pub(super) const SCALE_MAX: f64 = 2.5;

// The move's time among the exact solver, the check of a book move and the search, when the
// tables answer the moving phase (docs/time.md, "The exact solver's share of a placing move"):
// each `*_END` is a fraction of the move's time counted from `go` (`limits::Budget`).

/// The exact solver's share of a search that no check follows (no clock, pondering, several
/// lines, or moves to search given), and of the check of one move (`Searcher::move_keeps_value`):
/// it may run until this fraction of the move's time has passed.
pub(super) const SOLVER_END: f64 = 0.5;
/// The exact solver's positions in a search without a clock, or while pondering (about a
/// second).
pub(super) const SOLVER_NODES: u64 = 4_000_000;
/// The proof of the root's value tests for a draw at least until this fraction of the move's
/// time.
pub(super) const PROVE_DRAW_END: f64 = 0.25;
/// The proof of the root's value tests for a win until this fraction of the move's time.
pub(super) const PROVE_WIN_END: f64 = 0.45;
/// Where the placing solution leaves several equally testing moves, the search among them ends
/// at this fraction of the move's time: the value is known, the search only breaks the tie.
pub(super) const SOLVED_TIE_SEARCH_END: f64 = 0.1;
/// A search whose choice the exact solver checks ends at this fraction of the move's time.
pub(super) const CHECKED_SEARCH_END: f64 = 0.7;
/// A search whose choice the exact solver checks, where a draw is proven and a win not ruled
/// out, ends at this fraction of the move's time: the proof of the win goes on after it.
pub(super) const WIN_OPEN_SEARCH_END: f64 = 0.5;
/// The check of the search's choice ends at this fraction of the move's time.
pub(super) const CHECK_END: f64 = 0.95;
/// A search again without a refuted choice gets this fraction of the move's time left.
pub(super) const SEARCH_AGAIN_SHARE: f64 = 0.5;

/// How far the game has to go, for the estimate of the moves left.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Horizon {
    /// The side to move's pieces still in hand (its placings left, this one included).
    pub(super) placings: u32,
    /// Both sides' pieces, on the board and in hand.
    pub(super) pieces: u32,
    /// The side to move's pieces, on the board and in hand.
    pub(super) own: u32,
    /// The placing solution answers every placing position at once.
    pub(super) placing_free: bool,
    /// The endgame tables answer the moving phase from this material on at once.
    pub(super) moving_free: bool,
}

impl Horizon {
    /// The moves the side to move is expected to search before the game ends: the placings that
    /// the placing solution does not answer, and the moving phase's moves that the tables do
    /// not answer (more pieces, a longer game); never fewer than `MIN_MOVES_LEFT`.
    pub(super) fn moves_left(self) -> f64 {
        let placing = self.searched_placings();
        let moving = if self.moving_free {
            0.0
        } else {
            MOVING_MOVES_BASE + MOVING_MOVES_PER_PIECE * f64::from(self.pieces.saturating_sub(6))
        };
        (placing + moving).max(MIN_MOVES_LEFT)
    }

    /// The shares of the time left the moves left take: a placing searched counts
    /// `PLACING_WEIGHT`, a moving move one.
    fn shares(self) -> f64 {
        self.moves_left() + (PLACING_WEIGHT - 1.0) * self.searched_placings()
    }

    /// The placings the side to move still searches (the placing solution answers them free).
    fn searched_placings(self) -> f64 {
        if self.placing_free {
            0.0
        } else {
            f64::from(self.placings)
        }
    }

    /// The moves to come, this one included, that may cost the GUI's largest charge: the
    /// placings left (the placing solution answers them, but the GUI still animates them) and
    /// the flights the side may come to, more as its pieces fall toward three (`FLIGHTS_NOW`,
    /// `FLYING_SOON`, `FLIGHTS_FEWER_PER_PIECE`).
    fn dear_moves(self) -> f64 {
        let beyond = f64::from(self.own.saturating_sub(FLYING_SOON));
        let flights = (FLIGHTS_NOW - FLIGHTS_FEWER_PER_PIECE * beyond).max(0.0);
        f64::from(self.placings) + flights
    }

    /// The shares this move takes: `PLACING_WEIGHT` for a placing searched, else one.
    fn this_move(self) -> f64 {
        if self.searched_placings() > 0.0 {
            PLACING_WEIGHT
        } else {
            1.0
        }
    }
}

/// The clock of the side to move, as `go` gives it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    /// Milliseconds left.
    pub(super) left: u64,
    /// Milliseconds added after each move.
    pub(super) inc: u64,
    /// Moves until the clock gets more time.
    pub(super) movestogo: Option<u32>,
}

/// The optimum and the maximum time of a move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Plan {
    /// The time the move should take (scaled between iterations).
    pub(super) optimum: u64,
    /// The time it may never pass.
    pub(super) maximum: u64,
}

/// What the GUI was seen to take per move beyond the engine's time, in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Charge {
    /// Of the last moves (the learned estimate).
    pub(super) recent: u64,
    /// The largest of the game (its dearest kind of move).
    pub(super) peak: u64,
}

impl Charge {
    /// The milliseconds to keep for the moves to come: the recent charge for every move to come,
    /// this one included (at least `CHARGE_MOVES` of them), and the peak's excess over it for
    /// the moves that may cost as much (`Horizon::dear_moves`).
    fn reserve(self, horizon: Horizon, moves: f64) -> f64 {
        let recent = self.recent as f64;
        let excess = self.peak.saturating_sub(self.recent) as f64;
        recent * moves.max(CHARGE_MOVES) + excess * horizon.dear_moves()
    }
}

/// The move's plan from the clock: the time left, and the increments of the moves to come,
/// less the GUI's charge for the moves to come (`Charge::reserve`) and `overhead`
/// (`MoveOverhead`, a margin kept once), spread over the moves left (`movestogo` when it is
/// fewer). Never more than the clock less both for this move. When the reserve takes the whole
/// clock, the optimum is a millisecond: the move is answered at once, and costs only the charge.
pub(super) fn plan(clock: Clock, horizon: Horizon, overhead: u64, charge: Charge) -> Plan {
    let mut moves = horizon.moves_left();
    let mut shares = horizon.shares();
    if let Some(mtg) = clock.movestogo {
        let to_go = f64::from(mtg.max(1)).min(MAX_MOVESTOGO);
        if to_go < moves {
            shares *= to_go / moves;
            moves = to_go;
        }
    }
    let left = clock.left as f64;
    let overhead = overhead as f64;
    let usable = (left - overhead - charge.recent as f64).max(1.0);
    let pool = left + clock.inc as f64 * (moves - 1.0) - overhead - charge.reserve(horizon, moves);
    let optimum = (pool.max(1.0) / shares.max(1.0) * horizon.this_move() * OPTIMUM_SCALE)
        .min(usable * OPTIMUM_MAX_SHARE)
        .max(1.0);
    let maximum = (optimum * MAXIMUM_SCALE)
        .min(usable * MAXIMUM_MAX_SHARE)
        .max(optimum);
    Plan {
        optimum: optimum as u64,
        maximum: maximum as u64,
    }
}

/// The time of a `go movetime`: all of it, less the overhead, of which it loses at most
/// `MOVETIME_OVERHEAD_SHARE`.
pub(super) fn movetime(movetime: u64, overhead: u64) -> u64 {
    let kept = overhead.min((movetime as f64 * MOVETIME_OVERHEAD_SHARE) as u64);
    movetime.saturating_sub(kept).max(1)
}

/// What iterative deepening has seen so far, to scale the optimum between iterations.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Progress {
    /// Completed iterations with the same best move as the one before.
    pub(super) stable: u32,
    /// The running average of the iterations' scores (`None` before the first).
    pub(super) average: Option<f64>,
    /// The last iteration's score.
    pub(super) score: i32,
    /// The last iteration's depth.
    pub(super) depth: u32,
    /// The share of the last iteration's root nodes that its best move took.
    pub(super) best_share: f64,
}

impl Progress {
    /// Takes in a completed iteration: its depth, best move (whether it is the previous one),
    /// score (decisive scores leave the average alone) and the best move's share of its nodes.
    pub(super) fn iteration(
        &mut self,
        depth: u32,
        same_best: bool,
        score: i32,
        decisive: bool,
        best_share: f64,
    ) {
        self.stable = if same_best { self.stable + 1 } else { 0 };
        self.depth = depth;
        self.best_share = best_share;
        if !decisive {
            if let Some(avg) = self.average {
                self.average = Some(f64::midpoint(avg, f64::from(self.score)));
            }
            if self.average.is_none() {
                self.average = Some(f64::from(score));
            }
            self.score = score;
        }
    }

    /// The optimum's scale: stability, score fall and node share, multiplied, within
    /// `SCALE_MIN..=SCALE_MAX`.
    pub(super) fn scale(&self) -> f64 {
        let settled = f64::from(self.stable.min(STABLE_ITERATIONS)) / f64::from(STABLE_ITERATIONS);
        let stability = UNSTABLE_SCALE - (UNSTABLE_SCALE - STABLE_SCALE) * settled;
        let fall = self.average.map_or(1.0, |avg| {
            (1.0 + FALL_PER_CP * (avg - f64::from(self.score))).clamp(FALL_MIN, FALL_MAX)
        });
        let effort = if self.depth >= EFFORT_MIN_DEPTH {
            let share = self.best_share.clamp(0.0, 1.0);
            EFFORT_LOW_SHARE_SCALE - (EFFORT_LOW_SHARE_SCALE - EFFORT_ALL_SHARE_SCALE) * share
        } else {
            1.0
        };
        (stability * fall * effort).clamp(SCALE_MIN, SCALE_MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: Horizon = Horizon {
        placings: 9,
        pieces: 18,
        own: 9,
        placing_free: false,
        moving_free: false,
    };
    const MOVING: Horizon = Horizon {
        placings: 0,
        pieces: 14,
        own: 7,
        placing_free: false,
        moving_free: false,
    };
    /// No charge learned.
    const NONE: Charge = Charge { recent: 0, peak: 0 };
    const MINUTE: Clock = Clock {
        left: 60_000,
        inc: 0,
        movestogo: None,
    };

    #[test]
    fn a_placing_searched_gets_more_of_the_clock_than_a_moving_move() {
        let early = plan(MINUTE, START, 30, NONE);
        // 9 placings at PLACING_WEIGHT shares each + the moving moves of 18 pieces, this move
        // PLACING_WEIGHT, of 60 s less the 30 ms overhead, times OPTIMUM_SCALE.
        let moving = MOVING_MOVES_BASE + 12.0 * MOVING_MOVES_PER_PIECE;
        let shares = 9.0 * PLACING_WEIGHT + moving;
        let even = 59_970.0 / shares * PLACING_WEIGHT * OPTIMUM_SCALE;
        assert!((early.optimum as f64 - even).abs() < 2.0, "{early:?}");
        assert!(early.maximum >= 3 * early.optimum);
        // The last placing, then the first moving move of the same game: the placing takes
        // PLACING_WEIGHT times as much.
        let last_placing = Horizon {
            placings: 1,
            ..START
        };
        let first_moving = Horizon {
            placings: 0,
            ..START
        };
        let (p, m) = (
            plan(MINUTE, last_placing, 30, NONE).optimum as f64,
            plan(MINUTE, first_moving, 30, NONE).optimum as f64,
        );
        // The last placing: its moving moves and PLACING_WEIGHT shares; the first moving move:
        // the same moving moves and one share.
        let expected = PLACING_WEIGHT * moving / (moving + PLACING_WEIGHT);
        assert!((p / m - expected).abs() < 0.01, "{p} {m}");
    }

    #[test]
    fn what_the_tables_decide_is_not_charged_a_share() {
        // A placing the solution answers is not charged; nor is a moving phase the tables
        // answer: the time left goes to the moves still searched.
        let solved_placing = Horizon {
            placing_free: true,
            ..MOVING
        };
        let free_moving = Horizon {
            moving_free: true,
            ..START
        };
        let searched = plan(MINUTE, MOVING, 30, NONE).optimum;
        assert_eq!(plan(MINUTE, solved_placing, 30, NONE).optimum, searched);
        let a = plan(MINUTE, START, 30, NONE).optimum;
        let b = plan(MINUTE, free_moving, 30, NONE).optimum;
        assert!(a < b, "{a} {b}");
        // Nothing left to search but this move: still only OPTIMUM_MAX_SHARE of the clock.
        let both = Horizon {
            placing_free: true,
            ..free_moving
        };
        assert!(plan(MINUTE, both, 30, NONE).optimum <= 12_000);
    }

    #[test]
    fn movestogo_and_the_increment_give_more_time() {
        let base = plan(MINUTE, START, 30, NONE).optimum;
        let ten_to_go = plan(
            Clock {
                movestogo: Some(10),
                ..MINUTE
            },
            START,
            30,
            NONE,
        )
        .optimum;
        let with_inc = plan(
            Clock {
                inc: 1000,
                ..MINUTE
            },
            START,
            30,
            NONE,
        )
        .optimum;
        // Ten moves to go of the 9 placings and the moving moves left: more than 3 times the
        // time of the move.
        assert!(ten_to_go > 3 * base, "{base} {ten_to_go}");
        assert!(with_inc > base + 800, "{base} {with_inc}");
        // One move to go: at most OPTIMUM_MAX_SHARE, the maximum within the clock.
        let last = plan(
            Clock {
                movestogo: Some(1),
                ..MINUTE
            },
            START,
            30,
            NONE,
        );
        assert!(last.optimum <= 12_000 && last.maximum <= 36_000, "{last:?}");
    }

    #[test]
    fn the_plan_never_passes_the_clock_less_the_reserve() {
        for left in [0, 1, 5, 50, 700, 1_000, 5_000, 60_000, 3_600_000] {
            for (overhead, charge) in [(0, 0), (30, 0), (30, 700), (5_000, 0), (100, 5_000)] {
                for inc in [0, 10, 1_000] {
                    for horizon in [START, MOVING] {
                        let clock = Clock {
                            left,
                            inc,
                            movestogo: None,
                        };
                        let learned = Charge {
                            recent: charge,
                            peak: charge,
                        };
                        let p = plan(clock, horizon, overhead, learned);
                        assert!(p.optimum >= 1 && p.maximum >= p.optimum);
                        let reserve = overhead + charge;
                        if left > reserve + 2 {
                            assert!(p.maximum < left - reserve, "{left} {reserve} {p:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_learned_reserve_spends_less_of_the_clock() {
        let fixed = plan(MINUTE, START, 30, NONE).optimum;
        let charge = Charge {
            recent: 700,
            peak: 700,
        };
        let learned = plan(MINUTE, START, 30, charge).optimum;
        assert!(learned * 2 < fixed, "{fixed} {learned}");
    }

    /// One side's moves of a game at a minute through a GUI that charges each move `charge` ms
    /// beyond the engine's time, learned as the protocol learns it (a decaying maximum, 0.9 a
    /// move, of the smaller of the last two charges; the largest estimate kept), the engine
    /// spending the most the plan lets it (the optimum at its largest scale, within the
    /// maximum). Until two charged moves have taught an estimate, `prior` is assumed (as a GBGP
    /// session assumes the Nine Morris 3D GUI's placement). The least clock left.
    fn least_clock(moves: &[(u64, Horizon)], prior: u64) -> f64 {
        let mut left = 60_000.0_f64;
        let mut least = left;
        let (mut recent, mut peak, mut previous) = (0.0_f64, 0.0_f64, None);
        for (k, &(charge, horizon)) in moves.iter().enumerate() {
            let clock = Clock {
                left: left.max(0.0) as u64,
                inc: 0,
                movestogo: None,
            };
            let learned = if k < 2 {
                Charge {
                    recent: prior,
                    peak: prior,
                }
            } else {
                Charge {
                    recent: recent.ceil() as u64,
                    peak: peak.ceil() as u64,
                }
            };
            let p = plan(clock, horizon, 30, learned);
            let spent = (p.optimum as f64 * SCALE_MAX).min(p.maximum as f64);
            left -= spent + charge as f64;
            least = least.min(left);
            if let Some(before) = previous.replace(charge) {
                recent = (recent * 0.9).max(before.min(charge) as f64);
                peak = peak.max(recent);
            }
        }
        least
    }

    /// A game of `total` moves a side: 9 placings (850 ms each, as Nine Morris 3D animates
    /// them), slides (350 ms) losing a piece every 8 moves down to 4, then from move
    /// `flights_from` flights with 3 pieces (850 ms).
    fn gui_game(total: u32, flights_from: u32) -> Vec<(u64, Horizon)> {
        (0..total)
            .map(|k| {
                if k < 9 {
                    let horizon = Horizon {
                        placings: 9 - k,
                        ..START
                    };
                    (850, horizon)
                } else if k >= flights_from {
                    let horizon = Horizon {
                        placings: 0,
                        pieces: 7,
                        own: 3,
                        ..START
                    };
                    (850, horizon)
                } else {
                    let own = 9u32.saturating_sub((k - 9) / 8).max(4);
                    let horizon = Horizon {
                        placings: 0,
                        pieces: own + 5,
                        own,
                        ..START
                    };
                    (350, horizon)
                }
            })
            .collect()
    }

    #[test]
    fn long_games_at_the_guis_charges_keep_the_clock() {
        // 150 plies: 41 slides, then 25 flights; 200 plies of slides; 120 plies ending in 30
        // flights.
        for (total, flights_from) in [(75, 50), (100, 200), (60, 30)] {
            let least = least_clock(&gui_game(total, flights_from), 0);
            assert!(least > 1_000.0, "{total} {flights_from}: {least:.0} ms");
        }
    }

    #[test]
    fn the_flights_ahead_grow_as_the_pieces_fall() {
        // 170 plies, the Nine Morris 3D GUI's charge assumed from the first move (GBGP): 9
        // placings, 41 slides losing a piece every 8 down to 4, then 35 flights: 52 s of the
        // GUI's charges alone. With 25 flights kept until the side flies, the 12.5 s that 25
        // more need came too late (-4.3 s).
        let game = gui_game(85, 50);
        let charges: u64 = game.iter().map(|m| m.0).sum();
        assert!((51_000..53_000).contains(&charges), "{charges}");
        let least = least_clock(&game, 800);
        assert!(least > 1_000.0, "{least:.0} ms");
        // A side with 4 pieces, one capture from flying, keeps as many flights as one that
        // flies; with 9, fewer.
        let four = Horizon {
            placings: 0,
            pieces: 9,
            own: 4,
            ..START
        };
        let three = Horizon { own: 3, ..four };
        let nine = Horizon { own: 9, ..MOVING };
        assert!((four.dear_moves() - FLIGHTS_NOW).abs() < 1e-9);
        assert!((three.dear_moves() - FLIGHTS_NOW).abs() < 1e-9);
        assert!(nine.dear_moves() < four.dear_moves());
    }

    #[test]
    fn a_movetime_loses_at_most_a_quarter_to_the_overhead() {
        assert_eq!(movetime(10, 30), 8);
        assert_eq!(movetime(100, 30), 75);
        assert_eq!(movetime(1000, 30), 970);
        assert_eq!(movetime(0, 30), 1);
    }

    #[test]
    fn a_stable_clear_best_move_scales_the_optimum_down() {
        let mut stable = Progress::default();
        let mut shaky = Progress::default();
        for depth in 1..=10 {
            stable.iteration(depth, depth > 1, 50, false, 0.9);
            // The best move changes every iteration, the score falls, the nodes are spread.
            shaky.iteration(depth, false, 50 - 20 * depth as i32, false, 0.3);
        }
        assert!(stable.scale() < 0.7, "{}", stable.scale());
        assert!(shaky.scale() > 1.5, "{}", shaky.scale());
        assert!(shaky.scale() <= SCALE_MAX);
        assert!((Progress::default().scale() - UNSTABLE_SCALE).abs() < 1e-9);
    }
}
