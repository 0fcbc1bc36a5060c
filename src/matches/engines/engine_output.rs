//! What an engine writes, read without trusting it: its output cut into lines with a bound on
//! each (`read_lines`, lossily decoded by the caller), and the data of its lines: the move of a
//! `bestmove`, the score and depth of an `info` line, the name of an `option`, and whether a
//! line is the engine's error.

use std::fmt;
use std::io::{BufRead, ErrorKind};

/// A search score as `info ... score` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, from the side to move's view.
    Cp(i32),
    /// A mate in this many moves (negative: being mated).
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// Calls `each` with every line of `input` (without its line break or a trailing `\r`), or with
/// `None` for a line longer than `max` bytes, which is skipped. Reads to the end of the input
/// whatever it holds, and never keeps more than `max` bytes.
pub fn read_lines(mut input: impl BufRead, max: usize, mut each: impl FnMut(Option<&[u8]>)) {
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok([]) => break,
            Ok(buf) => buf,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line = Vec::new();
                each(None);
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = newline.map_or(buf.len(), |n| n + 1);
        input.consume(used);
        if newline.is_some() {
            if !too_long {
                each(Some(line.strip_suffix(b"\r").unwrap_or(&line)));
            }
            line.clear();
            too_long = false;
        }
    }
    if !line.is_empty() && !too_long {
        each(Some(line.strip_suffix(b"\r").unwrap_or(&line)));
    }
}

/// The name in an `option name <Name> type ...` line.
pub(super) fn option_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words.iter().position(|&w| w == "name")? + 1;
    let end = words
        .iter()
        .skip(start)
        .position(|&w| w == "type")
        .map_or(words.len(), |p| p + start);
    (start < end).then(|| words[start..end].join(" "))
}

/// Whether `line` is an engine's error: `info string error: ...` (moulin in both its dialects:
/// in GBGP too, the words the GUI reads as fields quoted; many UCI engines), `info string ERROR:
/// ...` (Stockfish), `No such option: <name>` (Stockfish and its kin, a bare line) or `Unknown
/// option ...`, case aside, with or without `info string` before it.
pub fn is_error(line: &str) -> bool {
    let text = line.trim_start();
    let text = text
        .strip_prefix("info")
        .and_then(|t| t.trim_start().strip_prefix("string"))
        .unwrap_or(text)
        .trim_start()
        .to_ascii_lowercase();
    let error_word = text.strip_prefix("error").is_some_and(|rest| {
        rest.is_empty() || rest.starts_with(|c: char| c == ':' || c.is_whitespace())
    });
    error_word || text.starts_with("no such option") || text.starts_with("unknown option")
}

/// The words of a line that carry data: all of them, except that in an `info` line everything
/// from `string` on is free text (UCI), never a move nor a score.
fn data_words(line: &str) -> Vec<&str> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.first() == Some(&"info") {
        if let Some(at) = words.iter().position(|&w| w == "string") {
            words.truncate(at);
        }
    }
    words
}

/// The move tokens of an answer: a line whose first word is `bestmove`, or an `info` line that
/// ends with `bestmove <move> [ponder ...]` outside an `info string` (the form some engines
/// write). Tokens after the first are kept while they are removals (`xb4`), so the two-token form
/// `bestmove d6 xb4` reads as one turn.
pub fn parse_bestmove(line: &str) -> Option<Vec<String>> {
    let words = data_words(line);
    let at = match words.first() {
        Some(&"bestmove") => 0,
        Some(&"info") => words.iter().rposition(|&w| w == "bestmove")?,
        _ => return None,
    };
    let first = *words.get(at + 1)?;
    let mut tokens = vec![first.to_string()];
    let mut rest = words[at + 2..].iter();
    let mut after = None;
    for &w in rest.by_ref() {
        if w.len() > 1 && (w.starts_with('x') || w.starts_with('X')) {
            tokens.push(w.to_string());
        } else {
            after = Some(w);
            break;
        }
    }
    // In an `info` line the move must be what ends it (a `ponder` move aside).
    if at > 0 && !matches!(after, None | Some("ponder")) {
        return None;
    }
    Some(tokens)
}

/// The score of an `info ... score cp X` or `score mate N` line.
pub fn parse_score(line: &str) -> Option<Score> {
    let words = data_words(line);
    if words.first() != Some(&"info") {
        return None;
    }
    let at = words.iter().position(|&w| w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(Score::Cp(value)),
        "mate" => Some(Score::Mate(value)),
        _ => None,
    }
}

/// The depth of an `info ... depth D` line.
pub fn parse_depth(line: &str) -> Option<u32> {
    let words = data_words(line);
    if words.first() != Some(&"info") {
        return None;
    }
    let at = words.iter().position(|&w| w == "depth")?;
    words.get(at + 1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestmove_forms() {
        let t = |l: &str| parse_bestmove(l);
        assert_eq!(t("bestmove d6"), Some(vec!["d6".to_string()]));
        assert_eq!(
            t("bestmove d6 xb4 ponder f4"),
            Some(vec!["d6".to_string(), "xb4".to_string()])
        );
        assert_eq!(
            t("info depth 3 score cp 10 pv d6 bestmove d6-d5xb4"),
            Some(vec!["d6-d5xb4".to_string()])
        );
        assert_eq!(t("bestmove d6 ponder xb4"), Some(vec!["d6".to_string()]));
        assert_eq!(t("bestmove"), None);
        assert_eq!(t("info depth 3"), None);
        // Free text is never a move.
        assert_eq!(t("info string nobestmove here"), None);
        assert_eq!(t("info string bestmove will follow"), None);
        assert_eq!(t("info depth 2 string see bestmove d6"), None);
        assert_eq!(t("readyok bestmove d6"), None);
        assert_eq!(t("info depth 3 pv d6 bestmove d6 and more"), None);
        assert_eq!(
            t("info depth 3 pv d6 bestmove d6 ponder f4"),
            Some(vec!["d6".to_string()])
        );
    }

    #[test]
    fn lines_are_bounded_and_lossy() {
        let input: &[u8] = b"uciok\r\nbad \xff byte\nxxxxxxxxxxxxxx\nok\nend";
        let mut seen = Vec::new();
        read_lines(input, 12, |l| {
            seen.push(l.map(|b| String::from_utf8_lossy(b).into_owned()));
        });
        assert_eq!(
            seen,
            vec![
                Some("uciok".to_string()),
                Some("bad \u{fffd} byte".to_string()),
                None,
                Some("ok".to_string()),
                Some("end".to_string())
            ]
        );
        let mut seen = Vec::new();
        read_lines(&b"a \xfe\n"[..], 8, |l| seen.push(l.map(<[u8]>::to_vec)));
        assert_eq!(seen, vec![Some(b"a \xfe".to_vec())]);
    }

    #[test]
    fn scores_and_options() {
        assert_eq!(
            parse_score("info depth 9 score cp -35 nodes 100 pv d6"),
            Some(Score::Cp(-35))
        );
        assert_eq!(parse_score("info score mate -3"), Some(Score::Mate(-3)));
        assert_eq!(parse_score("info depth 9"), None);
        assert_eq!(parse_score("info score lowerbound"), None);
        assert_eq!(parse_score("info string score cp 5"), None);
        assert_eq!(
            parse_depth("info depth 12 seldepth 14 score cp 3"),
            Some(12)
        );
        assert_eq!(parse_depth("info seldepth 14 nodes 5"), None);
        assert_eq!(parse_depth("info depth x"), None);
        assert_eq!(parse_depth("info string depth 5"), None);
        assert_eq!(
            option_name("option name Move Overhead type spin default 10").as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(option_name("option name"), None);
    }

    #[test]
    fn errors_in_every_form_engines_write_them() {
        for line in [
            "info string error: cannot read 'nets/typo.nnue'; evaluating without it",
            "info string error: EvalFile: no such file, 'score' unknown",
            "info string ERROR: Network evaluation parameters compatible with the engine",
            "No such option: EvalFlie",
            "info string No such option: Hash",
            "Unknown option: Threads",
            "  info   string  Error  bad value",
            "error",
        ] {
            assert!(is_error(line), "{line}");
        }
        for line in [
            "info string errors are counted",
            "info string NNUE evaluation using nets/x.nnue enabled",
            "info depth 3 score cp 10 pv d6",
            "readyok",
            "option name EvalFile type string default <empty>",
            "id name errorless",
        ] {
            assert!(!is_error(line), "{line}");
        }
    }
}
