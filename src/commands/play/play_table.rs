//! The table of `moulin play`: the game and everything about it that the prompt and the
//! engine's thread share (clocks, level, whose turn, what was saved), under one lock.

use super::super::args::BadValue;
use moulin::matches::engines::time_control;
use moulin::rules::board::{ByColor, Color};
use moulin::rules::game::Game;
use moulin::rules::Rules;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Both clocks: milliseconds left, and the increment.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clocks {
    pub(super) left: ByColor<u64>,
    pub(super) inc: u64,
}

/// Reads `--clock`: `<base>[+<inc>]` in the notation of `moulin match --tc` (one function reads
/// both): the base in seconds or minutes:seconds, the increment in seconds.
pub(super) fn parse_clock(text: &str) -> Result<Clocks, BadValue> {
    let bad = |why: String| {
        BadValue(format!(
            "--clock {text}: {why}; expected SECONDS or MINUTES:SECONDS, then +SECONDS a move, \
             such as 300, 5:00 or 5:00+3"
        ))
    };
    let (base, inc) = time_control::parse_clock(text).map_err(|e| bad(e.to_string()))?;
    let limit = Duration::from_hours(10);
    if base < Duration::from_secs(1) || base > limit || inc > Duration::from_mins(10) {
        return Err(bad(
            "the base is from 1 second to 10 hours, the increment at most 600 seconds".into(),
        ));
    }
    let ms = u64::try_from(base.as_millis()).unwrap_or(u64::MAX);
    Ok(Clocks {
        left: ByColor::new(ms, ms),
        inc: u64::try_from(inc.as_millis()).unwrap_or(u64::MAX),
    })
}

impl Clocks {
    /// The clocks in words: `clock 5:00 + 3 s a move` (a base under a minute in seconds:
    /// `--clock 5+3` is five seconds, said so).
    pub(super) fn describe(&self) -> String {
        let base = self.left.white / 1000;
        let base = if base < 60 {
            format!("{base} s")
        } else {
            format!("{}:{:02}", base / 60, base % 60)
        };
        match self.inc {
            0 => format!("clock {base} a side"),
            inc => format!("clock {base} a side + {} s a move", inc as f64 / 1000.0),
        }
    }
}

/// The game and everything about it that the prompt and the engine's thread share.
pub(super) struct Table {
    pub(super) game: Game,
    /// Where a new game starts: the rules' start, or `--fen`'s position.
    pub(super) start: Game,
    /// The games before each move, for `undo`.
    pub(super) before: Vec<Game>,
    pub(super) human: Color,
    pub(super) flipped: bool,
    pub(super) level: u8,
    pub(super) variant: String,
    /// The rules of `variant` (a loaded game may change both).
    pub(super) rules: Rules,
    pub(super) clocks: Option<Clocks>,
    /// The clocks at the start of a game, for `new` and `load`.
    pub(super) clock_start: Option<Clocks>,
    /// When the side to move started its turn.
    pub(super) turn_started: Instant,
    /// A side that lost on time.
    pub(super) flagged: Option<Color>,
    /// Changed by every move, undo and new game: an engine answer for another one is dropped.
    pub(super) generation: u64,
    /// When the engine started thinking (for moulin's move or a hint); none once its answer is
    /// given.
    pub(super) thinking: Option<Instant>,
    pub(super) colour: bool,
    /// The player's placement or step that closed a mill, waiting for the piece to remove.
    pub(super) pending: Option<String>,
    /// Moves were made since the game was last saved or loaded.
    pub(super) unsaved: bool,
    /// The person's name in a saved record (`--name`, `name NAME`).
    pub(super) player: String,
    /// moulin's settings but its level (which `level N` changes), for its name in a record:
    /// such as `1000 ms a move, endgame tables`.
    pub(super) settings: String,
}

impl Table {
    pub(super) fn new_game(&mut self, rules: Rules) {
        self.rules = rules;
        self.game = if *self.start.start().rules() == rules {
            self.start.clone()
        } else {
            Game::new(rules)
        };
        self.before.clear();
        self.pending = None;
        self.unsaved = false;
        self.flagged = None;
        self.generation += 1;
        self.turn_started = Instant::now();
        self.clocks = self.clock_start;
    }

    /// Whether the engine starts thinking now: for its move (or, `hint`, for the human's), in
    /// a game still going, and not already thinking.
    pub(super) fn engine_starts(&self, hint: bool) -> bool {
        let to_move = self.game.position().side_to_move();
        self.thinking.is_none() && self.over().is_none() && (to_move == self.human) == hint
    }

    /// The flag of the side to move, when its time ran out with the game still going: true
    /// once, when it falls (the clock ticks while nobody types).
    pub(super) fn flag_falls(&mut self) -> bool {
        let mover = self.game.position().side_to_move();
        let Some(c) = self.clocks.as_mut() else {
            return false;
        };
        let used = u64::try_from(self.turn_started.elapsed().as_millis()).unwrap_or(u64::MAX);
        if self.flagged.is_some() || self.game.outcome().is_some() || used < c.left[mover] {
            return false;
        }
        c.left[mover] = 0;
        self.flagged = Some(mover);
        self.generation += 1;
        true
    }

    pub(super) fn over(&self) -> Option<String> {
        if let Some(c) = self.flagged {
            return Some(format!(
                "{} {} wins on time",
                if c == Color::White { "0-1" } else { "1-0" },
                (!c).name()
            ));
        }
        self.game
            .outcome()
            .map(|o| format!("{} {}", o.score(), o.describe()))
    }

    /// Plays a move already checked legal, unless the mover's clock ran out first (then
    /// `false`: the mover lost on time); the mover's clock gains its increment.
    pub(super) fn play(&mut self, mv: moulin::rules::moves::Move) -> bool {
        let mover = self.game.position().side_to_move();
        if let Some(c) = self.clocks.as_mut() {
            let used = self.turn_started.elapsed().as_millis() as u64;
            if used >= c.left[mover] {
                c.left[mover] = 0;
                self.flagged = Some(mover);
                self.generation += 1;
                return false;
            }
            c.left[mover] = c.left[mover] - used + c.inc;
        }
        self.before.push(self.game.clone());
        self.game.play(mv);
        self.unsaved = true;
        self.generation += 1;
        self.turn_started = Instant::now();
        true
    }

    /// The name of side `c` in a saved record: the person's, or moulin's with its version and
    /// settings (`moulin 0.1.0, level 10, 1000 ms a move`).
    pub(super) fn record_name(&self, c: Color) -> String {
        if c == self.human {
            self.player.clone()
        } else {
            format!(
                "moulin {}, level {}, {}",
                env!("CARGO_PKG_VERSION"),
                self.level,
                self.settings
            )
        }
    }

    pub(super) fn who(&self, c: Color) -> String {
        if c == self.human {
            format!("{} (you)", c.name())
        } else {
            format!("{} (moulin, level {})", c.name(), self.level)
        }
    }
}

/// The longest name a player is given.
pub(super) const MAX_NAME: usize = 80;

/// A player's name as typed: trimmed, 1 to `MAX_NAME` characters, no control character (a
/// record's tag holds it on one line).
pub(super) fn player_name(text: &str) -> Result<String, BadValue> {
    let name = text.trim();
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME || name.chars().any(char::is_control) {
        return Err(BadValue(format!(
            "expected a name of 1 to {MAX_NAME} characters, without control characters"
        )));
    }
    Ok(name.to_string())
}

/// The lock of the table (or of the engine), taken even after a thread panicked holding it.
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_match_tc_reads_them() {
        // cutechess's notation, as `moulin match --tc`: seconds or minutes:seconds, then the
        // increment in seconds.
        let c = parse_clock("5:00+3").unwrap();
        assert_eq!(c.left.white, 300_000);
        assert_eq!(c.inc, 3000);
        let c = parse_clock("300+3").unwrap();
        assert_eq!((c.left.black, c.inc), (300_000, 3000));
        assert_eq!(parse_clock("5+3").unwrap().left.white, 5_000);
        assert_eq!(parse_clock("1:30").unwrap().left.black, 90_000);
        for bad in [
            "", "x", "5+", "-1", "0", "5+x", "100000", "0.5", "1:60", "5:00+601",
        ] {
            let e = parse_clock(bad).unwrap_err().to_string();
            assert!(
                e.contains("--clock") && e.contains("MINUTES:SECONDS"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn a_name_is_trimmed_and_one_printable_line() {
        assert_eq!(player_name("  Ada Lovelace ").unwrap(), "Ada Lovelace");
        assert_eq!(player_name("Zoë \"Z\"").unwrap(), "Zoë \"Z\"");
        for bad in ["", "   ", "a\nb", "tab\there", &"x".repeat(MAX_NAME + 1)] {
            let e = player_name(bad).unwrap_err().to_string();
            assert!(e.contains("expected a name of 1 to 80 characters"), "{e}");
        }
    }
}
