//! Text from outside (a move word, a tag, a file name, a line of input) as an error message shows
//! it: one short printable line whatever came in. Control characters are escaped (a bell or an
//! escape sequence never reaches the terminal raw), and so are the invisible ones (a zero-width
//! space, a byte order mark, a reversal of the text's direction); a long text is cut, its length
//! said, so a 10 MB word gives a short error, not a 20 MB one.

/// The most characters of an outside text that an error shows.
pub const MAX_SHOWN: usize = 80;

/// `text` as an error names it: in single quotes, control characters escaped, cut after
/// [`MAX_SHOWN`] characters with its whole length said (`'aaaa...' (10000000 characters)`).
pub fn quoted(text: &str) -> String {
    let count = text.chars().count();
    let shown = printable(text, MAX_SHOWN);
    if count > MAX_SHOWN {
        format!("'{shown}' ({count} characters)")
    } else {
        format!("'{shown}'")
    }
}

/// `text` with control characters and invisible ones escaped, cut after `max` characters (then
/// "..." ends it).
pub fn printable(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else if invisible(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with control characters and invisible ones escaped, whole: for a message made of
/// outside text (a record's field inside an error, an engine's name in a summary) that must not
/// reach the terminal raw. Each line of a text of several is escaped by the caller.
pub fn escaped(text: &str) -> String {
    printable(text, usize::MAX)
}

/// A text of several lines with each line `escaped`, its line breaks kept.
pub fn escaped_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(l) => format!("{}\n", escaped(l)),
            None => escaped(line),
        })
        .collect()
}

/// A character that prints as nothing or changes how the rest of the line reads: the soft
/// hyphen, zero-width spaces and joiners, the marks and overrides of text direction, and the
/// byte order mark. Shown escaped, so that `'d6'` followed by one of them never reads as `'d6'`.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// A count and its noun, singular for one: `1 game`, `2 games`, `0 samples` (`noun` is the
/// singular, its plural made by adding `s`).
#[must_use]
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_lines_keep_their_breaks_and_nothing_else_raw() {
        assert_eq!(escaped_lines("a\u{1b}[2J\nb\n"), "a\\u{1b}[2J\nb\n");
        assert_eq!(escaped("x\ny\0"), "x\\ny\\0");
    }

    #[test]
    fn a_short_text_is_quoted_whole() {
        assert_eq!(quoted("d6"), "'d6'");
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(counted(1u32, "game"), "1 game");
        assert_eq!(counted(0u32, "sample"), "0 samples");
        assert_eq!(counted(6u64, "game"), "6 games");
    }

    #[test]
    fn control_and_invisible_characters_are_escaped() {
        assert_eq!(quoted("d6\u{7}"), "'d6\\u{7}'");
        assert_eq!(quoted("a\u{1b}[2Jb\0"), "'a\\u{1b}[2Jb\\0'");
        assert_eq!(printable("a\tb\nc", 10), "a\\tb\\nc");
        assert_eq!(quoted("d6\u{feff}"), "'d6\\u{feff}'");
        assert_eq!(quoted("a\u{202e}b\u{200b}"), "'a\\u{202e}b\\u{200b}'");
        assert_eq!(quoted("moulin é"), "'moulin é'");
    }

    #[test]
    fn a_long_text_is_cut_and_its_length_said() {
        let long = "x".repeat(10_000_000);
        let q = quoted(&long);
        assert_eq!(q, format!("'{}...' (10000000 characters)", "x".repeat(80)));
        assert!(q.len() < 120);
    }

    #[test]
    fn the_cut_counts_characters_not_bytes() {
        let word = "é".repeat(81);
        assert_eq!(
            quoted(&word),
            format!("'{}...' (81 characters)", "é".repeat(80))
        );
        assert_eq!(quoted(&"é".repeat(80)), format!("'{}'", "é".repeat(80)));
    }
}
