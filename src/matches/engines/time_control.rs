//! Time controls: how long an engine may think (as `--tc` or a spec's `tc=`, `st=`, `movetime=`,
//! `nodes=` and `depth=` give it), the clock the referee keeps for each side, the `go` line that
//! tells an engine its limits, and the forms results show (titles, the records' settings line,
//! PGN's `TimeControl` tags).
//!
//! `tc` takes, as cutechess-cli's `tc=` does: `<base>[+<inc>]`, a clock for the game with `inc`
//! added after each of the engine's turns, `base` in seconds or `minutes:seconds` (`90`, `1:30`,
//! also `h:mm:ss`) and `inc` in seconds; `<moves>/<base>[+<inc>]`, a clock of `base`
//! for every `moves` turns of the engine (`base` is added again each time a period ends, and `go`
//! carries `movestogo`); `inf`, no time at all, for searches bounded by nodes or depth only.

use crate::rules::board::{ByColor, Color};
use crate::text::quoted;
use std::fmt;
use std::time::Duration;

/// A time control that cannot be read (`text` is the whole of it, as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A part that is not a number of seconds.
    #[error(
        "time control '{text}': '{part}' is not a time: seconds (90, 0.5) or, for the base, \
         minutes:seconds (1:30)"
    )]
    NotSeconds {
        /// The time control, as given.
        text: String,
        /// The part that is not a number.
        part: String,
    },
    /// A number of seconds out of range.
    #[error("time control '{text}': '{part}' is out of range")]
    Range {
        /// The time control, as given.
        text: String,
        /// The part out of range.
        part: String,
    },
    /// A number of moves per period that is not a whole number above zero.
    #[error("time control {}: {} is not a number of moves (at least 1)", quoted(.text), quoted(.part))]
    Moves {
        /// The time control, as given.
        text: String,
        /// The part that is not a number of moves.
        part: String,
    },
    /// No time at all.
    #[error("time control '{text}' gives no time at all")]
    NoTime {
        /// The time control, as given.
        text: String,
    },
}

/// How much time a side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` for the game (or for each period of `moves` turns), plus `inc` after each
    /// completed turn.
    Clock {
        /// The time for the game, or for each period.
        base: Duration,
        /// The time added after each completed turn.
        inc: Duration,
        /// Turns per period, when the base is given again after each period.
        moves: Option<u32>,
    },
    /// A fixed time per `go`.
    MoveTime(Duration),
    /// No time limit: the search is bounded by nodes or depth (`tc=inf`).
    Infinite,
}

/// The most seconds a time control may give (about 115 days).
const MAX_SECONDS: f64 = 1e7;

impl TimeControl {
    /// Reads `[<moves>/]<base>[+<inc>]` (`10+0.1`, `60`, `1:00+0.1`, `40/60+0.5`; the base as
    /// [`parse_clock`] reads it) or `inf`, as `--tc` and a spec's `tc=` take it.
    ///
    /// # Errors
    ///
    /// A part that is not a number of seconds (or of moves), out of range, or no time at all.
    pub fn parse_tc(text: &str) -> Result<TimeControl, TimeControlError> {
        if text.trim() == "inf" {
            return Ok(TimeControl::Infinite);
        }
        let (moves, clock) = match text.split_once('/') {
            Some((m, rest)) => {
                let n = m.trim().parse::<u32>().ok().filter(|&n| n > 0);
                let n = n.ok_or_else(|| TimeControlError::Moves {
                    text: text.to_string(),
                    part: m.to_string(),
                })?;
                (Some(n), rest)
            }
            None => (None, text),
        };
        let (base, inc) = clock_in(text, clock)?;
        Ok(TimeControl::Clock { base, inc, moves })
    }

    /// Reads a time per move in seconds (a spec's `st=`).
    ///
    /// # Errors
    ///
    /// Not a number of seconds, out of range, or zero.
    pub fn parse_st(text: &str) -> Result<TimeControl, TimeControlError> {
        let t = seconds(text, text)?;
        if t.is_zero() {
            return Err(TimeControlError::NoTime {
                text: text.to_string(),
            });
        }
        Ok(TimeControl::MoveTime(t))
    }

    /// The value of PGN's `TimeControl` tag: `<base>` or `<base>+<inc>`, `<moves>/<base>` (the
    /// PGN standard's forms, in seconds) or `<moves>/<base>+<inc>`; `<seconds>/move` for a time
    /// per move, as cutechess writes it; `-` (PGN's "no time control") for none.
    pub fn pgn_tag(&self) -> String {
        let s = |d: &Duration| d.as_secs_f64();
        match self {
            TimeControl::Clock { base, inc, moves } => {
                let mut tag = moves.map_or_else(String::new, |m| format!("{m}/"));
                tag.push_str(&s(base).to_string());
                if !inc.is_zero() {
                    tag.push_str(&format!("+{}", s(inc)));
                }
                tag
            }
            TimeControl::MoveTime(t) => format!("{}/move", s(t)),
            TimeControl::Infinite => "-".to_string(),
        }
    }
}

/// Reads a clock, `<base>[+<inc>]`: the base in seconds or `minutes:seconds` (`300`, `5:00`,
/// `1:30.5`, also `hours:minutes:seconds`), the increment in seconds (`5:00+3` is five minutes
/// and three seconds a move), as cutechess-cli writes a time control. The one notation of `moulin
/// match --tc` and `moulin play --clock`.
///
/// # Errors
///
/// A part that is not a number of seconds, out of range, or no time at all.
pub fn parse_clock(text: &str) -> Result<(Duration, Duration), TimeControlError> {
    clock_in(text, text)
}

/// The clock `clock`, part of the time control `text`: its base and increment.
fn clock_in(text: &str, clock: &str) -> Result<(Duration, Duration), TimeControlError> {
    let (base, inc) = match clock.split_once('+') {
        Some((b, i)) => (base_seconds(text, b)?, seconds(text, i)?),
        None => (base_seconds(text, clock)?, Duration::ZERO),
    };
    if base.is_zero() && inc.is_zero() {
        return Err(TimeControlError::NoTime {
            text: text.to_string(),
        });
    }
    Ok((base, inc))
}

/// A base time, part `part` of the time control `text`: seconds, `m:ss` or `h:mm:ss` (the
/// seconds of a `:` form below 60, its minutes too after hours).
fn base_seconds(text: &str, part: &str) -> Result<Duration, TimeControlError> {
    let fields: Vec<&str> = part.trim().split(':').collect();
    if fields.len() == 1 {
        return seconds(text, part);
    }
    let bad = || TimeControlError::NotSeconds {
        text: text.to_string(),
        part: part.to_string(),
    };
    if fields.len() > 3 {
        return Err(bad());
    }
    let (last, whole) = fields.split_last().ok_or_else(bad)?;
    let secs: f64 = last
        .parse()
        .ok()
        .filter(|s| (0.0..60.0).contains(s))
        .ok_or_else(bad)?;
    let mut total = 0.0;
    for (i, f) in whole.iter().enumerate() {
        // Digits only: no sign, no fraction before the last field.
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let v: f64 = f.parse().map_err(|_| bad())?;
        if i > 0 && v >= 60.0 {
            return Err(bad());
        }
        total = total * 60.0 + v;
    }
    seconds(text, &(total * 60.0 + secs).to_string()).map_err(|_| TimeControlError::Range {
        text: text.to_string(),
        part: part.to_string(),
    })
}

/// A number of seconds, part `part` of the time control `text`.
fn seconds(text: &str, part: &str) -> Result<Duration, TimeControlError> {
    let v: f64 = part
        .trim()
        .parse()
        .map_err(|_| TimeControlError::NotSeconds {
            text: text.to_string(),
            part: part.to_string(),
        })?;
    if !(0.0..=MAX_SECONDS).contains(&v) {
        return Err(TimeControlError::Range {
            text: text.to_string(),
            part: part.to_string(),
        });
    }
    Ok(Duration::from_secs_f64(v))
}

/// The form titles and the records' settings line use (`10+0.1`, `40/60+0.5`, `movetime 100
/// ms`, `inf`); what was written for a clock before moves per period existed is unchanged, so
/// older records still resume.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc, moves } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::MoveTime(t) => write!(f, "movetime {} ms", t.as_millis()),
            TimeControl::Infinite => write!(f, "inf"),
        }
    }
}

/// What bounds one engine's searches: its time, and the nodes and depth of each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    /// Its time control.
    pub time: TimeControl,
    /// `go nodes N`: the nodes of each search.
    pub nodes: Option<u64>,
    /// `go depth N`: the depth of each search.
    pub depth: Option<u32>,
}

impl Control {
    /// Whether anything bounds a search: a time, nodes or a depth.
    pub fn is_bounded(&self) -> bool {
        self.time != TimeControl::Infinite || self.nodes.is_some() || self.depth.is_some()
    }
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.time)?;
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        Ok(())
    }
}

/// One side's clock during a game: the time left, and the turns left in the period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// The time left (zero when the side has no clock).
    pub left: Duration,
    /// The turns left until the base is given again, for moves per period.
    pub moves_left: Option<u32>,
}

impl SideClock {
    /// The clock at the start of a game under `time`.
    pub fn new(time: TimeControl) -> SideClock {
        match time {
            TimeControl::Clock { base, moves, .. } => SideClock {
                left: base,
                moves_left: moves,
            },
            _ => SideClock {
                left: Duration::ZERO,
                moves_left: None,
            },
        }
    }

    /// Takes `elapsed` off a clock; `false` when that was more than the time left and `grace`
    /// (a loss on time). A side without a clock is never charged.
    pub fn spend(&mut self, time: TimeControl, elapsed: Duration, grace: Duration) -> bool {
        if !matches!(time, TimeControl::Clock { .. }) {
            return true;
        }
        if elapsed > self.left.saturating_add(grace) {
            return false;
        }
        self.left = self.left.saturating_sub(elapsed);
        true
    }

    /// A turn of this side is complete: the increment is added and, at the end of a period,
    /// the base again.
    pub fn turn_done(&mut self, time: TimeControl) {
        if let TimeControl::Clock { base, inc, moves } = time {
            self.left = self.left.saturating_add(inc);
            if let (Some(period), Some(left)) = (moves, self.moves_left) {
                if left <= 1 {
                    self.left = self.left.saturating_add(base);
                    self.moves_left = Some(period);
                } else {
                    self.moves_left = Some(left - 1);
                }
            }
        }
    }
}

/// The `go` line for the side `us`, under the controls of both sides and their clocks as they
/// stand, and how long its answer may take: its time left (or its movetime) and `grace`, or
/// `untimed` when no time bounds it. The clocks sent are those of the sides that have one (each
/// with its own increment), `movestogo` when `us` plays moves per period, then `nodes` and
/// `depth` when `us` has them.
pub fn go_command(
    controls: &ByColor<Control>,
    clocks: &ByColor<SideClock>,
    us: Color,
    grace: Duration,
    untimed: Duration,
) -> (String, Duration) {
    let ms = |d: Duration| d.as_millis();
    let mut go = String::from("go");
    let mine = controls[us];
    let limit = match mine.time {
        TimeControl::Clock { .. } => {
            let names = [(Color::White, "w"), (Color::Black, "b")];
            for (c, w) in names {
                if matches!(controls[c].time, TimeControl::Clock { .. }) {
                    go.push_str(&format!(" {w}time {}", ms(clocks[c].left)));
                }
            }
            for (c, w) in names {
                if let TimeControl::Clock { inc, .. } = controls[c].time {
                    go.push_str(&format!(" {w}inc {}", ms(inc)));
                }
            }
            if let Some(n) = clocks[us].moves_left {
                go.push_str(&format!(" movestogo {n}"));
            }
            clocks[us].left.saturating_add(grace)
        }
        TimeControl::MoveTime(t) => {
            go.push_str(&format!(" movetime {}", ms(t)));
            t.saturating_add(grace)
        }
        TimeControl::Infinite => untimed,
    };
    if let Some(n) = mine.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = mine.depth {
        go.push_str(&format!(" depth {d}"));
    }
    (go, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(base_ms: u64, inc_ms: u64, moves: Option<u32>) -> TimeControl {
        TimeControl::Clock {
            base: Duration::from_millis(base_ms),
            inc: Duration::from_millis(inc_ms),
            moves,
        }
    }

    #[test]
    fn time_controls() {
        let tc = |t: &str| TimeControl::parse_tc(t).unwrap();
        assert_eq!(tc("10+0.1"), clock(10_000, 100, None));
        assert_eq!(tc("60"), clock(60_000, 0, None));
        assert_eq!(tc("40/60+0.5"), clock(60_000, 500, Some(40)));
        assert_eq!(tc("inf"), TimeControl::Infinite);
        // cutechess-cli's minutes:seconds, the increment in seconds.
        assert_eq!(tc("1:00+0.1"), clock(60_000, 100, None));
        assert_eq!(tc("40/1:00+0.1"), clock(60_000, 100, Some(40)));
        assert_eq!(tc("0:30.5"), clock(30_500, 0, None));
        assert_eq!(tc("1:02:03"), clock(3_723_000, 0, None));
        assert_eq!(
            parse_clock("5:00+3"),
            Ok((Duration::from_mins(5), Duration::from_secs(3)))
        );
        assert_eq!(
            parse_clock("5+3"),
            Ok((Duration::from_secs(5), Duration::from_secs(3)))
        );
        for bad in [
            "",
            "x+1",
            "1+",
            "0+0",
            "-1+1",
            "0/10",
            "x/10",
            "/10",
            "40/",
            "nan",
            "1:60",
            ":30",
            "1:",
            "-1:00",
            "1:2:3:4",
            "1.5:00",
            "1:00+0:30",
            "0:00",
        ] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            TimeControl::parse_st("0.05").unwrap(),
            TimeControl::MoveTime(Duration::from_millis(50))
        );
        assert!(TimeControl::parse_st("0").is_err());
    }

    #[test]
    fn the_forms_shown() {
        // The settings line's form of a clock is what it was before moves per period.
        assert_eq!(clock(10_000, 100, None).to_string(), "10+0.1");
        assert_eq!(clock(60_000, 0, None).to_string(), "60+0");
        assert_eq!(clock(60_000, 500, Some(40)).to_string(), "40/60+0.5");
        let tags = [
            (clock(10_000, 100, None), "10+0.1"),
            (clock(60_000, 0, None), "60"),
            (clock(60_000, 0, Some(40)), "40/60"),
            (clock(1_500, 250, Some(5)), "5/1.5+0.25"),
            (
                TimeControl::MoveTime(Duration::from_millis(50)),
                "0.05/move",
            ),
            (TimeControl::Infinite, "-"),
        ];
        for (tc, tag) in tags {
            assert_eq!(tc.pgn_tag(), tag, "{tc}");
        }
    }

    #[test]
    fn each_side_is_told_its_own_limits() {
        let a = Control {
            time: clock(1_000, 100, None),
            nodes: None,
            depth: None,
        };
        let b = Control {
            time: clock(2_000, 0, Some(3)),
            nodes: Some(500),
            depth: None,
        };
        let controls = ByColor::new(a, b);
        let clocks = ByColor::new(SideClock::new(a.time), SideClock::new(b.time));
        let grace = Duration::from_millis(10);
        let (go, limit) = go_command(&controls, &clocks, Color::White, grace, Duration::ZERO);
        assert_eq!(go, "go wtime 1000 btime 2000 winc 100 binc 0");
        assert_eq!(limit, Duration::from_millis(1_010));
        let (go, _) = go_command(&controls, &clocks, Color::Black, grace, Duration::ZERO);
        assert_eq!(
            go,
            "go wtime 1000 btime 2000 winc 100 binc 0 movestogo 3 nodes 500"
        );
        let st = Control {
            time: TimeControl::MoveTime(Duration::from_millis(50)),
            nodes: None,
            depth: Some(7),
        };
        let controls = ByColor::new(a, st);
        let (go, _) = go_command(&controls, &clocks, Color::White, grace, Duration::ZERO);
        assert_eq!(go, "go wtime 1000 winc 100");
        let (go, limit) = go_command(&controls, &clocks, Color::Black, grace, Duration::ZERO);
        assert_eq!(
            (go.as_str(), limit),
            ("go movetime 50 depth 7", Duration::from_millis(60))
        );
        let untimed = Control {
            time: TimeControl::Infinite,
            nodes: Some(9),
            depth: Some(3),
        };
        let controls = ByColor::new(untimed, st);
        let (go, limit) = go_command(
            &controls,
            &clocks,
            Color::White,
            grace,
            Duration::from_secs(4),
        );
        assert_eq!(
            (go.as_str(), limit),
            ("go nodes 9 depth 3", Duration::from_secs(4))
        );
    }

    #[test]
    fn periods_refill_the_clock() {
        let tc = clock(1_000, 100, Some(2));
        let mut c = SideClock::new(tc);
        assert!(c.spend(tc, Duration::from_millis(300), Duration::ZERO));
        c.turn_done(tc);
        assert_eq!(
            (c.left, c.moves_left),
            (Duration::from_millis(800), Some(1))
        );
        assert!(c.spend(tc, Duration::from_millis(700), Duration::ZERO));
        c.turn_done(tc);
        // The period ends: the increment, then the base again.
        assert_eq!(
            (c.left, c.moves_left),
            (Duration::from_millis(1_200), Some(2))
        );
        assert!(!c.spend(tc, Duration::from_millis(1_300), Duration::from_millis(50)));
        let st = TimeControl::MoveTime(Duration::from_millis(5));
        let mut c = SideClock::new(st);
        assert!(c.spend(st, Duration::from_secs(9), Duration::ZERO));
    }
}
