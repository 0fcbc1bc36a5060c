//! Splitting a line into words with shell-like quoting, and quoting a value back: the one syntax
//! shared by engine specs (`name=A cmd="./moulin --x"`) and game records (`moves="d6 f4"`).
//!
//! A word ends at unquoted white space. Double quotes group, and inside them `\"` and `\\` stand
//! for `"` and `\`. Single quotes group with no escapes at all.

/// A quote that is not closed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unterminated {quote} opened at column {column}")]
pub struct QuoteError {
    /// The quote: `"` or `'`.
    pub quote: char,
    /// Where it opened, counted in bytes from 1.
    pub column: usize,
}

/// Splits `line` into words.
///
/// # Errors
///
/// An unterminated quote, naming where it opened.
pub fn split(line: &str) -> Result<Vec<String>, QuoteError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        None => {
                            return Err(QuoteError {
                                quote: '"',
                                column: i + 1,
                            })
                        }
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, e @ ('"' | '\\'))) => word.push(e),
                            Some((_, other)) => {
                                word.push('\\');
                                word.push(other);
                            }
                            None => {
                                return Err(QuoteError {
                                    quote: '"',
                                    column: i + 1,
                                })
                            }
                        },
                        Some((_, other)) => word.push(other),
                    }
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        None => {
                            return Err(QuoteError {
                                quote: '\'',
                                column: i + 1,
                            })
                        }
                        Some((_, '\'')) => break,
                        Some((_, other)) => word.push(other),
                    }
                }
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// `value` as one word that `split` reads back unchanged: bare when it can be, else in double
/// quotes.
pub fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\'' || c == '\\');
    if plain {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            // Records are one line each: a line break inside a value becomes a space.
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Splits a `key=value` word; a word without `=` has no key.
pub fn key_value(word: &str) -> (Option<&str>, &str) {
    match word.split_once('=') {
        Some((k, v)) => (Some(k), v),
        None => (None, word),
    }
}

/// What is wrong with a list of key=value words (`pairs`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// A word without `=`.
    #[error("{} is not key=value", crate::text::quoted(.0))]
    NotKeyValue(String),
    /// A key not among those allowed (listed in the second field).
    #[error("unknown key {} (keys: {})", crate::text::quoted(.0), .1)]
    UnknownKey(String, String),
    /// A key given twice.
    #[error("{0} given twice")]
    Twice(String),
}

/// The key=value `words` in order, each key one of `keys` and none given twice (the flags that
/// take such words: `--openings`, `--resign`, `--draw`).
///
/// # Errors
///
/// The first word that is not key=value, has another key, or repeats one.
pub fn pairs<'a>(words: &'a [String], keys: &[&str]) -> Result<Vec<(&'a str, &'a str)>, PairError> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for word in words {
        let (Some(key), value) = key_value(word) else {
            return Err(PairError::NotKeyValue(word.clone()));
        };
        if !keys.contains(&key) {
            return Err(PairError::UnknownKey(key.to_string(), keys.join(", ")));
        }
        if out.iter().any(|(seen, _)| *seen == key) {
            return Err(PairError::Twice(key.to_string()));
        }
        out.push((key, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_checked() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let keys = ["a", "b"];
        assert_eq!(
            pairs(&w("b=2 a=1"), &keys).unwrap(),
            [("b", "2"), ("a", "1")]
        );
        assert_eq!(
            pairs(&w("a=1 c=3"), &keys).unwrap_err().to_string(),
            "unknown key 'c' (keys: a, b)"
        );
        assert_eq!(
            pairs(&w("a=1 a=2"), &keys).unwrap_err(),
            PairError::Twice("a".into())
        );
        assert_eq!(
            pairs(&w("a"), &keys).unwrap_err().to_string(),
            "'a' is not key=value"
        );
    }

    #[test]
    fn splits_with_quotes() {
        assert_eq!(
            split(r#"name=A cmd="./moulin --x 1"  'a b'c "q\"uote\\" "#).unwrap(),
            vec!["name=A", "cmd=./moulin --x 1", "a bc", r#"q"uote\"#]
        );
        assert!(split("cmd=\"open").is_err());
        assert!(split("it's").is_err());
        assert_eq!(split("   ").unwrap(), Vec::<String>::new());
        assert_eq!(split(r#"x="""#).unwrap(), vec!["x="]);
    }

    #[test]
    fn quote_round_trips() {
        for v in ["plain", "two words", "", "q\"uote\\", "it's", "d6 xb4"] {
            let w = format!("k={}", quote(v));
            assert_eq!(split(&w).unwrap(), vec![format!("k={v}")], "{v}");
        }
        assert_eq!(quote("d6"), "d6");
    }
}
