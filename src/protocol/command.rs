//! Protocol input: one line of text becomes a `Command`, or a `CommandError` that says what is
//! wrong with it. Parsing knows nothing of the game: moves and option values stay text here and
//! are checked by the engine loop against the position and the option table ("parse, then
//! validate once").

use crate::rules::perft;
use std::fmt;

pub use crate::engine::Go;

/// The longest input line read, in bytes; longer lines are rejected whole.
pub const MAX_LINE: usize = 64 * 1024;

/// The form of `setoption`, shown in its errors.
pub(super) use crate::engine::SETOPTION_FORM;

/// Clock values (milliseconds) are clamped to this, about 35 years, so that time arithmetic
/// downstream never overflows.
pub const MAX_MS: u64 = 1 << 40;

/// The deepest `go depth` accepted; larger values are clamped to it.
pub const MAX_DEPTH: u32 = 1000;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: the engine's name and options, then `uciok`.
    Uci,
    /// `debug on|off`: accepted and ignored.
    Debug,
    /// `isready`: `readyok` once the engine can answer at once.
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The name as given (words joined by one space).
        name: String,
        /// The value as given, `None` when `value` is absent.
        value: Option<String>,
    },
    /// `ucinewgame`: the next position is of a new game.
    UciNewGame,
    /// `position startpos|fen ... [moves ...]`.
    Position {
        /// Where the position starts.
        start: Start,
        /// Move tokens, in either form of docs/rules.md, "Notation".
        moves: Vec<String>,
    },
    /// `go ...`: search (or count, with `perft`).
    Go(Go),
    /// `stop`: the search answers now.
    Stop,
    /// `ponderhit`: the move pondered on was played; the search goes on for real.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: the board and the state, for people.
    Display,
    /// `fen`: the position string of the position.
    Fen,
    /// `moves`: the legal moves.
    Moves,
    /// `eval`: the static evaluation, term by term.
    Eval,
    /// `perft N`: count the positions N plies deep.
    Perft(u32),
    /// `help`: the commands.
    Help,
    /// `bench [depth N]`: the search of `moulin bench`, each position at `depth` if given.
    Bench(Option<u32>),
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the empty board.
    StartPos,
    /// The position string's fields joined by one space.
    Fen(String),
    /// A GBGP position string (`position pos ...`, GBGP dialect only).
    Gbgp(String),
}

/// A line that is not a well-formed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command.
    Unknown(String),
    /// A word the command does not take.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
    },
    /// Something required is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A word out of the command's form, where the line's meaning can be told: the line as it
    /// was probably meant (`setoption Hash 32`: `setoption name Hash value 32`).
    Meant {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
        /// The line as it was probably meant.
        meant: String,
    },
    /// A word that should be a number.
    BadNumber {
        /// The word it follows.
        after: &'static str,
        /// The word.
        token: String,
    },
    /// A number out of the accepted range.
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The word.
        token: String,
        /// The accepted range.
        range: String,
    },
    /// The line is longer than `MAX_LINE` bytes.
    TooLong(usize),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(t) => {
                write!(f, "unknown command '{}' (type help)", shown(t))
            }
            CommandError::Unexpected { command, token } => {
                write!(
                    f,
                    "{command}: unexpected '{}'{}",
                    shown(token),
                    form(command)
                )
            }
            CommandError::Missing { command, what } => {
                write!(f, "{command}: missing {what}{}", form(command))
            }
            CommandError::Meant {
                command,
                token,
                meant,
            } => write!(
                f,
                "{command}: unexpected '{}'{}; did you mean '{}'?",
                shown(token),
                form(command),
                crate::text::printable(meant, 80)
            ),
            CommandError::BadNumber { after, token } => {
                write!(f, "{after}: '{}' is not a number", shown(token))
            }
            CommandError::OutOfRange { what, token, range } => {
                write!(f, "{what} {} is out of range ({range})", shown(token))
            }
            CommandError::TooLong(n) => {
                write!(f, "line too long ({n} bytes; at most {MAX_LINE})")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// The form of `command`, as its errors show it after what is wrong (empty for a command whose
/// error says enough, or whose form depends on the dialect: `position` names its starts).
fn form(command: &str) -> String {
    let form = match command {
        "setoption" => SETOPTION_FORM.to_string(),
        "go" => return format!(" (go takes {})", GO_KEYWORDS.join(", ")),
        "perft" => format!("perft <plies, 0 to {}>", perft::MAX_DEPTH),
        "bench" => "bench [depth <n>]".to_string(),
        "debug" => "debug [on|off]".to_string(),
        _ => return String::new(),
    };
    format!(" (the form is '{form}')")
}

/// A piece of input as it is echoed in an error: at most 40 characters, control characters
/// escaped, so that an error line stays one short printable line whatever came in.
pub fn shown(text: &str) -> String {
    crate::text::printable(text, 40)
}

/// Parses one line. A blank line is `Ok(None)`: it is ignored without a reply.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let no_args = |command: &'static str, c: Command| match rest.first() {
        None => Ok(c),
        Some(t) => Err(CommandError::Unexpected {
            command,
            token: t.to_string(),
        }),
    };
    let cmd = match first.to_ascii_lowercase().as_str() {
        "uci" => no_args("uci", Command::Uci)?,
        "isready" => no_args("isready", Command::IsReady)?,
        "ucinewgame" => no_args("ucinewgame", Command::UciNewGame)?,
        "stop" => no_args("stop", Command::Stop)?,
        "ponderhit" => no_args("ponderhit", Command::PonderHit)?,
        "quit" => no_args("quit", Command::Quit)?,
        "d" => no_args("d", Command::Display)?,
        "fen" => no_args("fen", Command::Fen)?,
        "moves" => no_args("moves", Command::Moves)?,
        "eval" => no_args("eval", Command::Eval)?,
        "help" => no_args("help", Command::Help)?,
        "debug" => match rest.as_slice() {
            [] => Command::Debug,
            [v] if v.eq_ignore_ascii_case("on") || v.eq_ignore_ascii_case("off") => Command::Debug,
            [v, ..] => {
                return Err(CommandError::Unexpected {
                    command: "debug",
                    token: v.to_string(),
                })
            }
        },
        "setoption" => parse_setoption(line, &rest)?,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)?),
        "perft" => match rest.as_slice() {
            [] => {
                return Err(CommandError::Missing {
                    command: "perft",
                    what: "a depth",
                })
            }
            [d] => Command::Perft(perft_depth("perft", d)?),
            [_, extra, ..] => {
                return Err(CommandError::Unexpected {
                    command: "perft",
                    token: extra.to_string(),
                })
            }
        },
        "bench" => Command::Bench(parse_bench(&rest)?),
        _ => return Err(CommandError::Unknown(first.to_string())),
    };
    Ok(Some(cmd))
}

fn is(word: &str, keyword: &str) -> bool {
    word.eq_ignore_ascii_case(keyword)
}

/// The text of `line` from its word number `n` (from 0) to its end, blanks within kept.
fn from_word(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest
}

/// `setoption name <words> [value <text>]`: the name's words joined by one space; the value as
/// written in `line` after `value`, blanks within it kept (a file name may hold two in a row),
/// up to the line's end (a `\r` ending it dropped).
fn parse_setoption(line: &str, rest: &[&str]) -> Result<Command, CommandError> {
    let command = "setoption";
    match rest.first() {
        Some(w) if is(w, "name") => {}
        Some(w) => {
            // `setoption Hash 32`: the words `name` and `value` left out.
            let (name, value) = match rest.iter().position(|w| is(w, "value")) {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (&rest[..1], &rest[1..]),
            };
            let mut meant = format!("setoption name {}", name.join(" "));
            if !value.is_empty() {
                meant = format!("{meant} value {}", value.join(" "));
            }
            return Err(CommandError::Meant {
                command,
                token: w.to_string(),
                meant,
            });
        }
        None => {
            return Err(CommandError::Missing {
                command,
                what: "'name <id>'",
            })
        }
    }
    let rest = &rest[1..];
    let split = rest.iter().position(|w| is(w, "value"));
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::Missing {
            command,
            what: "the option's name",
        });
    }
    // The words before the value: `setoption`, `name`, the name's, `value`. Nothing after
    // `value` is the empty value (a GUI clearing a text field sends it so); an option that takes
    // no empty value refuses it.
    let value = split.map(|i| {
        if let Some([]) = value {
            String::new()
        } else {
            let text = from_word(line, i + 3);
            text.strip_suffix('\r').unwrap_or(text).to_string()
        }
    });
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `position startpos|fen <fields> [moves <tokens>]`.
fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    parse_position_with(rest, "'startpos' or 'fen <string>'", |head| match head {
        [w] if is(w, "fen") => Err(CommandError::Missing {
            command: "position",
            what: "the position string after 'fen'",
        }),
        [w, fields @ ..] if is(w, "fen") => Ok(Start::Fen(fields.join(" "))),
        _ => unexpected_start(head),
    })
}

/// `position <start> [moves <tokens>]`: `startpos`, or a start that `other` reads (a dialect's
/// own form); `expected` names the starts in the error for a missing one.
pub(super) fn parse_position_with(
    rest: &[&str],
    expected: &'static str,
    other: impl Fn(&[&str]) -> Result<Start, CommandError>,
) -> Result<Command, CommandError> {
    let command = "position";
    let moves_at = rest.iter().position(|w| is(w, "moves"));
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let start = match head {
        [] => {
            return Err(CommandError::Missing {
                command,
                what: expected,
            })
        }
        [w] if is(w, "startpos") => Start::StartPos,
        [w, extra, ..] if is(w, "startpos") => {
            // `position startpos d6 f4`: the word `moves` left out.
            let moves: Vec<&str> = rest[1..]
                .iter()
                .copied()
                .filter(|w| !is(w, "moves"))
                .collect();
            return Err(CommandError::Meant {
                command,
                token: extra.to_string(),
                meant: format!("position startpos moves {}", moves.join(" ")),
            });
        }
        _ => other(head)?,
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(std::string::ToString::to_string).collect(),
    })
}

/// The error for a start no form reads: its first word is unexpected. Moves alone
/// (`position d6 f4`) were meant from the start position.
pub(super) fn unexpected_start(head: &[&str]) -> Result<Start, CommandError> {
    let command = "position";
    let token = head
        .first()
        .map_or(String::new(), std::string::ToString::to_string);
    // A point (`d6`) in each, and nothing but points, `x` and `-`.
    let looks_like_move = |w: &&str| {
        w.starts_with(|c: char| matches!(c, 'a'..='g' | 'x'))
            && w.contains(|c: char| matches!(c, '1'..='7'))
            && w.chars()
                .all(|c| matches!(c, 'a'..='g' | '1'..='7' | 'x' | '-'))
    };
    if head.iter().all(looks_like_move) {
        let meant = format!("position startpos moves {}", head.join(" "));
        return Err(CommandError::Meant {
            command,
            token,
            meant,
        });
    }
    Err(CommandError::Unexpected { command, token })
}

const GO_KEYWORDS: [&str; 12] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// `go` and its arguments, in any order; a repeated argument keeps its last value.
fn parse_go(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i].to_ascii_lowercase();
        i += 1;
        let mut value = |after: &'static str| -> Result<u64, CommandError> {
            let token = rest.get(i).copied();
            i += 1;
            number(after, token)
        };
        match word.as_str() {
            "depth" => go.depth = Some(value("go depth")?.clamp(1, u64::from(MAX_DEPTH)) as u32),
            "nodes" => go.nodes = Some(value("go nodes")?),
            "movetime" => go.movetime = Some(value("go movetime")?.min(MAX_MS)),
            "wtime" => go.wtime = Some(value("go wtime")?.min(MAX_MS)),
            "btime" => go.btime = Some(value("go btime")?.min(MAX_MS)),
            "winc" => go.winc = Some(value("go winc")?.min(MAX_MS)),
            "binc" => go.binc = Some(value("go binc")?.min(MAX_MS)),
            "movestogo" => {
                go.movestogo = Some(value("go movestogo")?.min(u64::from(u32::MAX)) as u32);
            }
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "perft" => {
                let token = rest.get(i).copied();
                i += 1;
                match token {
                    None => {
                        return Err(CommandError::Missing {
                            command: "go perft",
                            what: "a depth",
                        })
                    }
                    Some(t) => go.perft = Some(perft_depth("go perft", t)?),
                }
            }
            "searchmoves" => {
                let start = i;
                while i < rest.len() && !GO_KEYWORDS.iter().any(|k| is(rest[i], k)) {
                    i += 1;
                }
                if i == start {
                    return Err(CommandError::Missing {
                        command: "go searchmoves",
                        what: "a move",
                    });
                }
                go.searchmoves = rest[start..i]
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect();
            }
            _ => {
                return Err(CommandError::Unexpected {
                    command: "go",
                    token: rest[i - 1].to_string(),
                })
            }
        }
    }
    Ok(go)
}

/// A whole number: optional sign, then decimal digits. Values beyond `u64` saturate; negative
/// values count as 0 (a GUI may send a negative clock once the time is up).
pub fn number(after: &'static str, token: Option<&str>) -> Result<u64, CommandError> {
    let Some(token) = token else {
        return Err(CommandError::Missing {
            command: after,
            what: "a number",
        });
    };
    let bad = || CommandError::BadNumber {
        after,
        token: token.to_string(),
    };
    let (negative, digits) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if negative {
        return Ok(0);
    }
    Ok(digits.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    }))
}

/// `bench [depth N]`: the depth, 1 to `bench::MAX_DEPTH` (20), as
/// `moulin bench --depth` takes it. Refused beyond, not clamped: a bench at another depth than
/// asked would print another signature.
fn parse_bench(rest: &[&str]) -> Result<Option<u32>, CommandError> {
    match rest {
        [] => Ok(None),
        [w, tail @ ..] if is(w, "depth") => {
            let token = tail.first().copied();
            let depth = number("bench depth", token)?;
            let max = crate::search::bench::MAX_DEPTH;
            if token.is_some_and(|t| t.starts_with('-')) || depth < 1 || depth > u64::from(max) {
                return Err(CommandError::OutOfRange {
                    what: "bench depth",
                    token: token.unwrap_or_default().to_string(),
                    range: format!("1 to {max}"),
                });
            }
            match tail.get(1) {
                None => Ok(Some(depth as u32)),
                Some(extra) => Err(CommandError::Unexpected {
                    command: "bench",
                    token: (*extra).to_string(),
                }),
            }
        }
        [w, ..] => Err(CommandError::Unexpected {
            command: "bench",
            token: (*w).to_string(),
        }),
    }
}

fn perft_depth(command: &'static str, token: &str) -> Result<u32, CommandError> {
    let d = number(command, Some(token))?;
    if token.starts_with('-') || d > u64::from(perft::MAX_DEPTH) {
        return Err(CommandError::OutOfRange {
            what: "perft depth",
            token: token.to_string(),
            range: format!("0 to {}", perft::MAX_DEPTH),
        });
    }
    Ok(d as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("QUIT"), Command::Quit);
        assert_eq!(parse("   ").unwrap(), None);
        assert!(matches!(
            parse("uci x"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(parse("bogus"), Err(CommandError::Unknown(_))));
    }

    #[test]
    fn setoption_values_are_kept_as_written() {
        let value = |line: &str| match ok(line) {
            Command::SetOption { value, .. } => value,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            value("setoption name TablesPath value /t/a  b\tc \r").as_deref(),
            Some("/t/a  b\tc ")
        );
        assert_eq!(
            value("  setoption  name  Book   File   VALUE   x  y").as_deref(),
            Some("x  y")
        );
        assert_eq!(
            value("setoption name X value Value  value").as_deref(),
            Some("Value  value")
        );
    }

    #[test]
    fn setoption_words() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear"),
            Command::SetOption {
                name: "Clear".into(),
                value: None
            }
        );
        assert!(parse("setoption").is_err());
        assert!(parse("setoption name").is_err());
        assert_eq!(
            ok("setoption name EvalFile value "),
            Command::SetOption {
                name: "EvalFile".into(),
                value: Some(String::new())
            }
        );
        assert!(parse("setoption Hash 3").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos moves d6 xb4"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["d6".into(), "xb4".into()]
            }
        );
        match ok("position fen a b c moves") {
            Command::Position {
                start: Start::Fen(f),
                moves,
            } => {
                assert_eq!(f, "a b c");
                assert!(moves.is_empty());
            }
            c => panic!("{c:?}"),
        }
        for bad in [
            "position",
            "position fen",
            "position startpos d6",
            "position x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_arguments() {
        let Command::Go(g) =
            ok("go wtime -5 btime 99999999999999999999999 depth 0 searchmoves d6 d7 infinite")
        else {
            panic!()
        };
        assert_eq!(g.wtime, Some(0));
        assert_eq!(g.btime, Some(MAX_MS));
        assert_eq!(g.depth, Some(1));
        assert_eq!(g.searchmoves, vec!["d6", "d7"]);
        assert!(g.infinite);
        for bad in [
            "go depth",
            "go depth x",
            "go depth 3x",
            "go fast",
            "go searchmoves",
            "go perft 41",
            "go perft -1",
            "go nodes -",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(ok("perft 3"), Command::Perft(3));
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("BENCH Depth 4"), Command::Bench(Some(4)));
        assert_eq!(ok("bench depth 20"), Command::Bench(Some(20)));
        // Refused, not clamped: -1 was searched at depth 1 and printed as depth 0.
        for word in ["0", "-1", "21", "99999999999"] {
            let e = parse(&format!("bench depth {word}"))
                .unwrap_err()
                .to_string();
            assert_eq!(e, format!("bench depth {word} is out of range (1 to 20)"));
        }
        for bad in ["bench 4", "bench depth", "bench depth x", "bench depth 4 5"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn malformed_lines_show_the_form_and_the_line_meant() {
        let error = |line: &str| parse(line).unwrap_err().to_string();
        let form = "(the form is 'setoption name <id> [value <x>]')";
        assert_eq!(
            error("setoption Hash 32"),
            format!(
                "setoption: unexpected 'Hash' {form}; did you mean 'setoption name Hash value 32'?"
            )
        );
        assert_eq!(
            error("setoption Move Overhead value 30"),
            format!(
                "setoption: unexpected 'Move' {form}; did you mean 'setoption name Move Overhead \
                 value 30'?"
            )
        );
        assert_eq!(
            error("setoption Clear"),
            format!("setoption: unexpected 'Clear' {form}; did you mean 'setoption name Clear'?")
        );
        for line in ["setoption", "setoption name"] {
            assert!(error(line).ends_with(form), "{line}: {}", error(line));
        }
        assert_eq!(
            error("position d6 f4"),
            "position: unexpected 'd6'; did you mean 'position startpos moves d6 f4'?"
        );
        assert_eq!(
            error("position startpos d6 moves f4"),
            "position: unexpected 'd6'; did you mean 'position startpos moves d6 f4'?"
        );
        assert_eq!(error("position nowhere"), "position: unexpected 'nowhere'");
        assert!(error("go fast").contains("(go takes depth, nodes, movetime"));
        assert!(error("bench 4").ends_with("(the form is 'bench [depth <n>]')"));
        assert!(error("perft").ends_with(&format!(
            "(the form is 'perft <plies, 0 to {}>')",
            perft::MAX_DEPTH
        )));
    }

    #[test]
    fn errors_echo_safely() {
        let e = parse("\u{7}bell").unwrap_err().to_string();
        assert!(e.contains("\\u{7}bell"), "{e}");
        let long = "x".repeat(1000);
        assert!(parse(&long).unwrap_err().to_string().len() < 100);
    }
}
