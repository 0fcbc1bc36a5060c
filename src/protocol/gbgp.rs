//! The GBGP dialect (GBGP.md): what differs from the UCI one of `command` and `reply`, for the
//! Nine Morris 3D GUI. A session speaks it when its first line is `gbgp`; the session state, the
//! search and the options are the same.
//!
//! Input: `gbgp` is the handshake, `newgame` starts a game, `position pos <gbgp position>`
//! states the position in the GUI's string (`crate::rules::gbgp_position`); every other command reads as
//! in UCI. Output: `gbgpok` ends the handshake; `info` lines carry `score eval N` (centi-pieces)
//! or `score win N` (turns to the end), both from White's side as the GUI draws them, with `pv`
//! last (the GUI takes the rest of the line as the line of play), and at most one each
//! `INFO_EVERY` from the search's start plus the last one held back, at the end (the GUI reads
//! one line per frame while the engine's clock runs: a short search writes one line); errors are `info string error: ...` lines with no word the GUI's
//! `info` reader takes for a field.

use super::command::{self, Command, CommandError, Start};
use crate::engine::{Expected, OptionError};
use crate::rules::board::Color;
pub(super) use crate::rules::gbgp_dialect::{HELLO, HELLO_DONE, TWELVE};
use crate::rules::position::Position;
use crate::rules::{FullBoard, Rules};
use crate::search::{Info, Score};
use std::time::Duration;

/// The least time between two `info` lines of one search.
pub const INFO_EVERY: Duration = Duration::from_millis(200);

/// Parses one line of the dialect. A blank line is `Ok(None)`.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let alone = |command: &'static str, c: Command| match rest.first() {
        None => Ok(Some(c)),
        Some(t) => Err(CommandError::Unexpected {
            command,
            token: t.to_string(),
        }),
    };
    match first.to_ascii_lowercase().as_str() {
        HELLO => alone(HELLO, Command::Uci),
        "newgame" => alone("newgame", Command::UciNewGame),
        "position" => parse_position(&rest).map(Some),
        // UCI's own names are not words of this dialect.
        "uci" | "ucinewgame" => Err(CommandError::Unknown(first.to_string())),
        _ => command::parse(line),
    }
}

/// `position pos <string> [moves <tokens>]` or `position startpos [moves <tokens>]`.
fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    command::parse_position_with(rest, "'startpos' or 'pos <string>'", |head| match head {
        [w, text] if w.eq_ignore_ascii_case("pos") => Ok(Start::Gbgp(text.to_string())),
        [w] if w.eq_ignore_ascii_case("pos") => Err(CommandError::Missing {
            command: "position",
            what: "the position string after 'pos'",
        }),
        [w, _, extra, ..] if w.eq_ignore_ascii_case("pos") => Err(CommandError::Unexpected {
            command: "position",
            token: extra.to_string(),
        }),
        _ => command::unexpected_start(head),
    })
}

/// The rules the GUI referees: the standard game, or its twelve men's morris (diagonals, and a
/// board filled by placing leaves the side to move blocked: a loss). Both with the threefold
/// repetition and the 100 quiet plies of the standard game, which count as the GUI counts them
/// (positions and plies since the last placement or removal).
pub fn rules(twelve: bool) -> Rules {
    if twelve {
        Rules {
            full_board: FullBoard::Blocked,
            ..Rules::preset("twelve").expect("a preset")
        }
    } else {
        Rules::nine()
    }
}

/// Whether an option's name is `TwelveMensMorris` (any case, spaces ignored).
pub fn is_twelve(name: &str) -> bool {
    let squeezed: String = name.split_whitespace().collect();
    squeezed.eq_ignore_ascii_case(TWELVE)
}

/// The value of `TwelveMensMorris`: `true` or `false`.
pub fn twelve_value(value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(_) => Err(OptionError::BadValue {
            option: TWELVE,
            value: value.unwrap_or_default().to_string(),
            expected: Expected::TRUE_OR_FALSE,
        }),
        None => Err(OptionError::MissingValue(TWELVE)),
    }
}

/// The `option` line of `TwelveMensMorris`, in the form the GUI's reader requires.
pub fn twelve_option_line(rules: &Rules) -> String {
    format!(
        "option name {TWELVE} type check default {}",
        *rules == self::rules(true)
    )
}

/// A score from White's side: `eval N` in centi-pieces, or `win N` with N the winner's turns to
/// the end (positive when White wins; never 0, which the GUI reads as no value).
pub fn score(score: Score, side: Color) -> String {
    let sign = if side == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => format!("eval {}", sign * cp),
        Score::Mate(n) => {
            let n = if n == 0 { 1 } else { n };
            format!("win {}", sign * n)
        }
    }
}

/// One `info` line of search progress: `depth`, `time`, `nodes`, `score`, then `pv` last.
pub fn info_line(info: &Info, root: &Position) -> String {
    let mut line = format!(
        "info depth {} seldepth {} time {} nodes {} nps {} score {}",
        info.depth,
        info.seldepth,
        info.time_ms,
        info.nodes,
        info.nps,
        score(info.score, root.side_to_move())
    );
    pv(&mut line, root, &info.pv);
    line
}

/// The `info` line of a move from the book (`pv`: the move).
pub fn book_line(
    root: &Position,
    book_score: Score,
    pv_moves: &[crate::rules::moves::Move],
) -> String {
    let mut line = format!(
        "info depth 0 time 0 nodes 0 score {}",
        score(book_score, root.side_to_move())
    );
    pv(&mut line, root, pv_moves);
    line
}

/// Appends ` pv <moves>` in the GUI's notation (the turn notation, removals in an order that
/// reads back).
fn pv(line: &mut String, root: &Position, moves: &[crate::rules::moves::Move]) {
    if moves.is_empty() {
        return;
    }
    line.push_str(" pv");
    let mut pos = *root;
    for mv in moves {
        line.push(' ');
        line.push_str(&mv.written_at(&pos, crate::rules::notation::Convention::Turn));
        pos.play(*mv);
    }
}

/// Words the GUI's `info` reader takes as fields wherever they stand in the line.
const FIELD_WORDS: [&str; 6] = ["depth", "time", "nodes", "score", "pv", "string"];

/// An error, as the one line `info string error: <text>`; a word of the text that the GUI would
/// read as a field is quoted so that it reads as none.
pub fn error_line(text: &str) -> String {
    let words: Vec<String> = text
        .split(' ')
        .map(|w| {
            if FIELD_WORDS.iter().any(|f| w.eq_ignore_ascii_case(f)) {
                format!("'{w}'")
            } else {
                w.to_string()
            }
        })
        .collect();
    format!("info string error: {}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;

    #[test]
    fn the_dialect_reads_its_own_words_and_refuses_uci_ones() {
        assert_eq!(parse("gbgp").unwrap(), Some(Command::Uci));
        assert_eq!(parse("newgame").unwrap(), Some(Command::UciNewGame));
        assert!(parse("uci").is_err());
        assert!(parse("ucinewgame").is_err());
        assert!(parse("gbgp now").is_err());
        assert_eq!(
            parse("position pos w:w:b:1 moves d2 d6").unwrap(),
            Some(Command::Position {
                start: Start::Gbgp("w:w:b:1".into()),
                moves: vec!["d2".into(), "d6".into()],
            })
        );
        assert_eq!(
            parse("position startpos").unwrap(),
            Some(Command::Position {
                start: Start::StartPos,
                moves: vec![],
            })
        );
        for bad in [
            "position",
            "position pos",
            "position pos a b",
            "position fen x",
            "position startpos x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("isready").unwrap(), Some(Command::IsReady));
        assert_eq!(parse("  ").unwrap(), None);
    }

    #[test]
    fn scores_are_from_whites_side_and_wins_are_never_zero() {
        assert_eq!(score(Score::Cp(35), Color::White), "eval 35");
        assert_eq!(score(Score::Cp(35), Color::Black), "eval -35");
        assert_eq!(score(Score::Mate(3), Color::Black), "win -3");
        assert_eq!(score(Score::Mate(-2), Color::Black), "win 2");
        assert_eq!(score(Score::Mate(0), Color::White), "win 1");
    }

    #[test]
    fn errors_hold_no_word_the_gui_reads_as_a_field() {
        let line = error_line("go: 'x' is not a number for time or depth, pv score string");
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&words[..2], ["info", "string"]);
        for w in &words[2..] {
            assert!(!FIELD_WORDS.contains(w), "{line}");
        }
    }

    #[test]
    fn info_lines_end_with_the_line_of_play() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d2"]).unwrap();
        let root = *game.position();
        let mv = crate::rules::notation::parse_move(&root, "d6").unwrap();
        let info = Info {
            depth: 4,
            seldepth: 5,
            multipv: 1,
            score: Score::Cp(20),
            bound: None,
            nodes: 100,
            nps: 1000,
            hashfull: 0,
            tbhits: 0,
            time_ms: 3,
            pv: vec![mv],
        };
        assert_eq!(
            info_line(&info, &root),
            "info depth 4 seldepth 5 time 3 nodes 100 nps 1000 score eval -20 pv d6"
        );
    }
}
