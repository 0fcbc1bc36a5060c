//! What the runner says to an engine of the GBGP dialect (`proto=gbgp`: the protocol of the Nine
//! Morris 3D GUI, docs/matches.md): the value of its option `TwelveMensMorris`, the position
//! string its `position pos` starts from, the words of a `go` line it takes, and the checks made
//! before a match, so that a variant or an opening the dialect cannot state stops the run before
//! anything starts rather than forfeiting games.

use super::spec::{EngineSpec, Proto};
use super::time_control::TimeControl;
use crate::box_error::BoxError;
use crate::record::openings::Opening;
pub(super) use crate::rules::gbgp_dialect::{HELLO, HELLO_DONE, TWELVE};
use crate::rules::position::Position;
use crate::rules::{fen, gbgp_position, Rules};
use crate::text::quoted;

/// A match that an engine of the GBGP dialect cannot play, found before anything starts.
#[derive(Debug, thiserror::Error)]
pub enum GbgpError {
    /// The dialect cannot state the match's variant.
    #[error(
        "engine {} speaks GBGP (proto=gbgp), which knows nine and twelve men's morris only: \
         variant {} cannot be played with it",
        quoted(name),
        quoted(variant)
    )]
    Variant {
        /// The engine's name.
        name: String,
        /// The variant, as given.
        variant: String,
    },
    /// A bound the dialect has no word for.
    #[error(
        "engine {} speaks GBGP (proto=gbgp), which bounds a search by clocks or a move time \
         only (the Nine Morris 3D GUI sends no {key}): leave out {key}=",
        quoted(name)
    )]
    Bound {
        /// The engine's name.
        name: String,
        /// The spec key: `nodes`, `depth` or `tc` (for `tc=inf`).
        key: &'static str,
    },
    /// An opening that starts from a position the GBGP position string cannot state.
    #[error(
        "engine {} speaks GBGP (proto=gbgp), whose position string cannot state the start of \
         opening {number} ({}): {why}",
        quoted(name),
        quoted(opening)
    )]
    Start {
        /// The engine's name.
        name: String,
        /// The opening's number in the book, from 1.
        number: usize,
        /// The opening, as a book line.
        opening: String,
        /// Why the string cannot state its start: the opening cannot be played, or
        /// `StartNotStated`.
        why: BoxError,
    },
}

/// A position the GBGP position string would state as another one (`start_string`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "it states the board, the side to move and the move number only, so {} would reach the \
     engine as {reached}",
    quoted(.position)
)]
pub struct StartNotStated {
    /// The position, as moulin's position string.
    pub position: String,
    /// What the engine would read instead: a position string quoted, or `no position (why)`.
    pub reached: String,
}

/// The words of a `go` line that GBGP engines are not sent (the Nine Morris 3D GUI never sends
/// them): increments and moves to go, each with its value. The runner still adds the increment
/// to its own clock.
const NOT_SENT: [&str; 3] = ["winc", "binc", "movestogo"];

/// The value of `TwelveMensMorris` that states `rules`: `false` for nine men's morris, `true`
/// for twelve; `None` for a variant the dialect cannot state.
pub fn twelve(rules: &Rules) -> Option<bool> {
    match rules.preset_name() {
        Some("nine") => Some(false),
        Some("twelve") => Some(true),
        _ => None,
    }
}

/// A `go` line as a GBGP engine takes it: `line` without the words of `NOT_SENT` and their
/// values, and with both clocks, as the GUI always sends them: against an engine that has no
/// clock (a move time), the other side's clock is stated as the engine's own.
pub fn go_line(line: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut words = line.split_whitespace();
    let (mut white, mut black) = (None, None);
    while let Some(w) = words.next() {
        match w {
            "wtime" => white = words.next(),
            "btime" => black = words.next(),
            w if NOT_SENT.contains(&w) => {
                words.next();
            }
            w => out.push(w),
        }
    }
    if let Some(own) = white.or(black) {
        let clocks = ["wtime", white.unwrap_or(own), "btime", black.unwrap_or(own)];
        out.splice(1.min(out.len())..1.min(out.len()), clocks);
    }
    out.join(" ")
}

/// The GBGP position string of `pos`, or why it cannot state it: the string holds the board,
/// the side to move and the move number only, so a position whose pieces in hand do not follow
/// from its move number, with a removal still to make, or with quiet plies already counted would
/// reach the engine as another one.
///
/// # Errors
///
/// Why the string cannot state `pos`.
pub fn start_string(pos: &Position) -> Result<String, StartNotStated> {
    let text = gbgp_position::write(pos);
    let exact = fen::write(pos);
    let reached = match gbgp_position::read(&text, pos.rules()) {
        Ok(back) if fen::write(&back) == exact => return Ok(text),
        Ok(back) => quoted(&fen::write(&back)),
        Err(e) => format!("no position ({e})"),
    };
    Err(StartNotStated {
        position: exact,
        reached,
    })
}

/// Checks that every GBGP engine of `specs` can play `variant` (`rules`) from every opening of
/// `book` (`None`: random openings from the start position, which it can always state).
///
/// # Errors
///
/// The first engine that cannot: `Bound` for a bound it has no word for, `Variant` for the
/// variant, `Start` for an opening.
pub fn check(
    specs: &[EngineSpec],
    rules: &Rules,
    variant: &str,
    book: Option<&[Opening]>,
) -> Result<(), GbgpError> {
    for spec in specs.iter().filter(|s| s.proto == Proto::Gbgp) {
        let key = if spec.nodes.is_some() {
            Some("nodes")
        } else if spec.depth.is_some() {
            Some("depth")
        } else if spec.time == Some(TimeControl::Infinite) {
            Some("tc")
        } else {
            None
        };
        if let Some(key) = key {
            return Err(GbgpError::Bound {
                name: spec.name.clone(),
                key,
            });
        }
    }
    let Some(spec) = specs.iter().find(|s| s.proto == Proto::Gbgp) else {
        return Ok(());
    };
    if twelve(rules).is_none() {
        return Err(GbgpError::Variant {
            name: spec.name.clone(),
            variant: variant.to_string(),
        });
    }
    for (i, opening) in book.unwrap_or_default().iter().enumerate() {
        let why: Option<BoxError> = match opening.game(rules) {
            Ok(game) => start_string(game.start()).err().map(Into::into),
            Err(e) => Some(e.into()),
        };
        if let Some(why) = why {
            return Err(GbgpError::Start {
                name: spec.name.clone(),
                number: i + 1,
                opening: opening.to_line(),
                why,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;

    #[test]
    fn go_lines_lose_the_words_gbgp_lacks() {
        assert_eq!(
            go_line("go wtime 1000 btime 900 winc 10 binc 10"),
            "go wtime 1000 btime 900"
        );
        assert_eq!(
            go_line("go wtime 1 btime 2 movestogo 40 winc 0"),
            "go wtime 1 btime 2"
        );
        assert_eq!(go_line("go movetime 50"), "go movetime 50");
        // Against an engine on a move time, the GUI's two clocks all the same.
        assert_eq!(go_line("go btime 5000 binc 50"), "go wtime 5000 btime 5000");
        assert_eq!(go_line("go wtime 700"), "go wtime 700 btime 700");
    }

    #[test]
    fn bounds_gbgp_has_no_word_for_are_refused() {
        let rules = Rules::nine();
        for (spec, key) in [
            ("name=g cmd=x proto=gbgp nodes=100", "nodes"),
            ("name=g cmd=x proto=gbgp tc=5 depth=3", "depth"),
            ("name=g cmd=x proto=gbgp tc=inf", "tc"),
        ] {
            let specs = [EngineSpec::parse(spec).unwrap()];
            let e = check(&specs, &rules, "nine", None).unwrap_err().to_string();
            assert!(e.contains(&format!("leave out {key}=")), "{spec}: {e}");
        }
        let fine = [EngineSpec::parse("cmd=x proto=gbgp st=0.1").unwrap()];
        assert!(check(&fine, &rules, "nine", None).is_ok());
    }

    #[test]
    fn only_nine_and_twelve_are_stated() {
        assert_eq!(twelve(&Rules::nine()), Some(false));
        assert_eq!(twelve(&Rules::preset("twelve").unwrap()), Some(true));
        for other in ["lasker", "morabaraba", "no-reform", "protected-mills"] {
            assert_eq!(twelve(&Rules::preset(other).unwrap()), None, "{other}");
        }
    }

    #[test]
    fn a_start_is_stated_only_when_exact() {
        let rules = Rules::nine();
        let mut game = Game::new(rules);
        assert_eq!(start_string(game.start()).unwrap(), "w:w:b:1");
        game.play_tokens(["d2", "d6"]).unwrap();
        assert_eq!(start_string(game.position()).unwrap(), "w:wd2:bd6:2");
        // A removal still to make.
        let mut mid = Game::new(rules);
        mid.play_tokens(["d7", "a1", "g7", "d1", "a7"]).unwrap();
        let e = start_string(mid.position()).unwrap_err().to_string();
        assert!(e.contains("move number only"), "{e}");
        // Pieces in hand that do not follow from the move number (a set-up position).
        let text = fen::write(game.position());
        let fields: Vec<&str> = text.split(' ').collect();
        let last = fields.len() - 1;
        let later = format!("{} 9", fields[..last].join(" "));
        let pos = fen::read(&later, &rules).unwrap();
        assert!(start_string(&pos).is_err(), "{later}");
    }
}
