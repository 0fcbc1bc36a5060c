//! cutechess-cli's and fastchess's spellings of `moulin match`'s flags, read before clap: a
//! single-dash long flag (`-engine`, `-games`, `-pgnout`) becomes moulin's two-dash one where
//! the meaning is the same, the words of a cutechess spec (`-engine cmd=x name=y`) one spec; a
//! flag whose meaning differs (`-rounds`, `-maxmoves`) is an error that names moulin's way, one
//! that moulin always does (`-repeat`, `-recover`) a note. docs/matches.md, "Coming from
//! cutechess-cli or fastchess", is the table of them all.

use moulin::matches::quoting;
use std::ffi::OsString;

/// The command line as clap is to read it, and the notes to tell first.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Translated {
    /// The arguments, `argv[0]` first.
    pub args: Vec<OsString>,
    /// What was read otherwise than written, for the user to know.
    pub notes: Vec<String>,
}

/// Where `match` stands in `args` (after the program and any `--option` of the protocol), if it
/// is the subcommand.
pub(crate) fn match_position(args: &[OsString]) -> Option<usize> {
    let mut i = 1;
    while i < args.len() {
        match args[i].to_str()? {
            "match" => return Some(i),
            "--option" => i += 2,
            a if a.starts_with("--option=") => i += 1,
            _ => return None,
        }
    }
    None
}

/// A flag's name and how many dashes it had (1 or 2), when `word` is a long flag; a short one
/// (`-h`), a negative number or a value is none.
fn flag_name(word: &str) -> Option<(&str, usize)> {
    if let Some(name) = word.strip_prefix("--") {
        return (!name.is_empty()).then_some((name, 2));
    }
    let name = word.strip_prefix('-')?;
    let long = name.len() > 1 && name.starts_with(|c: char| c.is_ascii_alphabetic());
    long.then_some((name, 1))
}

/// The words that follow a flag at `i` up to the next flag: the words of a cutechess spec.
fn words_after(args: &[OsString], i: usize) -> Vec<String> {
    args[i + 1..]
        .iter()
        .map_while(|a| a.to_str().filter(|w| flag_name(w).is_none()))
        .map(str::to_string)
        .collect()
}

/// The value after a flag at `i`, when there is one.
fn value_after(args: &[OsString], i: usize) -> Option<&str> {
    args.get(i + 1)
        .and_then(|a| a.to_str())
        .filter(|w| flag_name(w).is_none())
}

/// The `--games` (or `-games`) of the command line, for the advice on `-rounds`.
fn games_given(args: &[OsString]) -> Option<u64> {
    (0..args.len())
        .find(|&i| matches!(args[i].to_str().and_then(flag_name), Some(("games", _))))
        .and_then(|i| value_after(args, i)?.parse().ok())
}

/// The error for a cutechess flag whose meaning differs from every flag of moulin's, with what
/// to give instead; `None` for other flags.
fn differs(name: &str, args: &[OsString], i: usize) -> Option<String> {
    let flag = |dashes: &str| format!("{dashes}{name}");
    let value = value_after(args, i).unwrap_or("N");
    let why = match name {
        "rounds" => {
            let total = match (value.parse::<u64>(), games_given(args)) {
                (Ok(r), Some(g)) => format!(": here --games {}", r.saturating_mul(g)),
                _ => String::new(),
            };
            format!(
                "moulin has no rounds: --games is every game of each pairing, so cutechess's \
                 -rounds R -games G is --games R×G{total} (each opening is played twice, colours \
                 swapped, as with -repeat)"
            )
        }
        "maxmoves" => format!(
            "moulin's limit counts turns, two a move: give --max-plies {} for a draw after {value} \
             moves",
            value.parse::<u64>().map_or("2N".to_string(), |m| (m * 2).to_string())
        ),
        "noswap" | "reverse" => "moulin always plays each opening twice, colours swapped: \
                                 give one engine's view by the order of --engine"
            .to_string(),
        "epdout" => "moulin writes no EPD: --pgn FILE writes every game".to_string(),
        "timemargin" => {
            "moulin's margin for a late answer is --grace MS, for all engines".to_string()
        }
        "pgnin" | "epdin" | "bookmode" => {
            "moulin's openings are --openings \"file=<book> [format=lines|pgn] ...\"".to_string()
        }
        _ => return None,
    };
    Some(format!("{} is cutechess's: {why}", flag("-")))
}

/// A note for a cutechess flag that moulin always follows (dropped from the command line, with
/// the number after `-repeat` if any), and how many words it takes; `None` for other flags.
fn always(name: &str, args: &[OsString], i: usize) -> Option<(String, usize)> {
    let note = match name {
        "repeat" => {
            let count = usize::from(value_after(args, i).is_some_and(|v| v.parse::<u32>().is_ok()));
            return Some((
                "-repeat: moulin always plays each opening twice, colours swapped".to_string(),
                1 + count,
            ));
        }
        "recover" => {
            "-recover: moulin always starts a crashed engine again for the next game (the \
                      game it lost is a forfeit; 3 failed starts in a row stop the match)"
                .to_string()
        }
        "randomseed" => "-randomseed: moulin's seed is random unless --seed gives one (the \
                         summary and the records say which)"
            .to_string(),
        _ => return None,
    };
    Some((note, 1))
}

/// moulin's name for a cutechess or fastchess flag of the same meaning, and a note when the
/// spelling is far from it.
fn renamed(name: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match name {
        "pgnout" => ("pgn", None),
        "srand" => ("seed", None),
        "tb" => ("tables", None),
        "tbpieces" => ("adjudicate-pieces", None),
        "ratinginterval" | "scoreinterval" => (
            "score-interval",
            Some("moulin's --score-interval N prints the Score line (and the Elo, and the LLR of --sprt) every N games"),
        ),
        _ => return None,
    })
}

/// Reads the arguments of `moulin match` (which stands at `at`) as clap is to read them:
/// cutechess-cli's and fastchess's single-dash long flags (those of moulin's `longs`, and
/// those `renamed`) made two-dash; the words of `-engine`, `-each` and `-openings` one value;
/// `-pgnout`'s `file=` taken off.
///
/// # Errors
///
/// A flag whose meaning differs from moulin's (the error says moulin's way), a single-dash one
/// moulin has no flag for, or `-pgnout`'s words that moulin's PGN has no use for.
pub(crate) fn translate(
    args: &[OsString],
    at: usize,
    longs: &[String],
) -> Result<Translated, String> {
    let mut out: Vec<OsString> = args[..=at].to_vec();
    let mut notes = Vec::new();
    let mut i = at + 1;
    while i < args.len() {
        let Some((name, dashes)) = args[i].to_str().and_then(flag_name) else {
            out.push(args[i].clone());
            i += 1;
            continue;
        };
        if dashes == 2 && name.contains('=') || name == "--" {
            out.push(args[i].clone());
            i += 1;
            continue;
        }
        if let Some(why) = differs(name, args, i) {
            return Err(why);
        }
        if let Some((note, words)) = always(name, args, i) {
            notes.push(note);
            i += words;
            continue;
        }
        let (long, note) = match renamed(name) {
            Some(r) => r,
            None if longs.iter().any(|l| l == name) => (name, None),
            None if dashes == 2 => {
                // clap's own error, with its suggestion.
                out.push(args[i].clone());
                i += 1;
                continue;
            }
            None => {
                return Err(format!(
                    "-{name} is no flag of moulin match (nor --{name}): its flags take two dashes \
                     (moulin match --help lists them; docs/matches.md, \"Coming from cutechess-cli \
                     or fastchess\", pairs cutechess's with moulin's)"
                ))
            }
        };
        if let Some(note) = note {
            notes.push(format!("-{name}: {note}"));
        }
        out.push(format!("--{long}").into());
        i += 1;
        match long {
            "engine" | "each" | "openings" => {
                let spec = words_after(args, i - 1);
                if spec.len() > 1 {
                    let quoted: Vec<String> = spec.iter().map(|w| quoting::quote(w)).collect();
                    out.push(quoted.join(" ").into());
                    i += spec.len();
                }
            }
            "pgn" => {
                let mut rest = words_after(args, i - 1).into_iter();
                if let Some(file) = rest.next() {
                    let file = file.strip_prefix("file=").unwrap_or(&file).to_string();
                    out.push(file.into());
                    i += 1;
                }
                if let Some(extra) = rest.next() {
                    return Err(format!(
                        "-pgnout ... {}: moulin writes one PGN shape, every move with its time \
                         (docs/matches.md, \"Game records (PGN)\"): give -pgnout FILE alone",
                        moulin::text::quoted(&extra)
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(Translated { args: out, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn longs() -> Vec<String> {
        [
            "engine",
            "each",
            "games",
            "concurrency",
            "openings",
            "pgn",
            "sprt",
            "seed",
            "tc",
        ]
        .map(String::from)
        .to_vec()
    }

    fn read(line: &str) -> Result<Translated, String> {
        let args: Vec<OsString> = std::iter::once("moulin")
            .chain(line.split(' '))
            .map(OsString::from)
            .collect();
        translate(&args, match_position(&args).unwrap(), &longs())
    }

    fn args_of(line: &str) -> Vec<String> {
        let t = read(line).unwrap();
        t.args
            .iter()
            .map(|a| a.to_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn cutechess_spellings_become_moulins() {
        assert_eq!(
            args_of("match -engine cmd=./a name=a -engine cmd=./b -each tc=1:00+0.1 -games 4"),
            [
                "moulin",
                "match",
                "--engine",
                "cmd=./a name=a",
                "--engine",
                "cmd=./b",
                "--each",
                "tc=1:00+0.1",
                "--games",
                "4"
            ]
        );
        assert_eq!(
            args_of("match -openings file=b.pgn format=pgn order=random -pgnout file=out.pgn"),
            [
                "moulin",
                "match",
                "--openings",
                "file=b.pgn format=pgn order=random",
                "--pgn",
                "out.pgn"
            ]
        );
        assert_eq!(
            args_of("match -sprt elo0=0 elo1=5 -srand 7 -concurrency 2 --anchor-elo -100"),
            [
                "moulin",
                "match",
                "--sprt",
                "elo0=0",
                "elo1=5",
                "--seed",
                "7",
                "--concurrency",
                "2",
                "--anchor-elo",
                "-100"
            ]
        );
        // A word of a spec with a blank keeps it, quoted.
        let args: Vec<OsString> = ["moulin", "match", "-engine", "cmd=./my engine", "name=x"]
            .map(OsString::from)
            .to_vec();
        let t = translate(&args, 1, &longs()).unwrap();
        assert_eq!(t.args[3], OsString::from("\"cmd=./my engine\" name=x"));
        // Other subcommands, and the protocol's options before `match`, are left alone.
        let play: Vec<OsString> = ["moulin", "play", "-engine"].map(OsString::from).to_vec();
        assert_eq!(match_position(&play), None);
        let opt: Vec<OsString> = ["moulin", "--option", "Hash=1", "match"]
            .map(OsString::from)
            .to_vec();
        assert_eq!(match_position(&opt), Some(3));
    }

    #[test]
    fn what_moulin_always_does_is_a_note() {
        let t = read("match -repeat -recover -games 2 -repeat 2 -ratinginterval 10").unwrap();
        let args: Vec<&str> = t.args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            args,
            ["moulin", "match", "--games", "2", "--score-interval", "10"]
        );
        assert_eq!(t.notes.len(), 4, "{:?}", t.notes);
        assert!(t.notes[0].contains("always plays each opening twice"));
        assert!(t.notes[1].contains("starts a crashed engine again"));
        assert!(t.notes[3].contains("--score-interval"));
    }

    #[test]
    fn a_meaning_that_differs_is_an_error_with_moulins_way() {
        for (line, needle) in [
            ("match -games 2 -rounds 50", "--games 100"),
            ("match --rounds 50", "--games is every game of each pairing"),
            ("match -maxmoves 100", "--max-plies 200"),
            ("match --noswap", "colours swapped"),
            (
                "match -wait 5",
                "-wait is no flag of moulin match (nor --wait): its flags take two dashes",
            ),
            ("match -pgnout a.pgn min", "give -pgnout FILE alone"),
        ] {
            let e = read(line).unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
        }
        // A two-dash flag moulin does not know is left to clap.
        assert_eq!(
            args_of("match --frobnicate"),
            ["moulin", "match", "--frobnicate"]
        );
    }
}
