//! Engine specs: how `--engine` names an engine, its command line, the options to set and the
//! notation it speaks.
//!
//! A spec is one string of `key=value` words (quoted as in `words`), for example
//! `name=new cmd="target/release/moulin" option.Hash=64 notation=action`. A spec with no `=` at
//! all is a bare command line. Keys:
//!
//! | key | meaning |
//! |---|---|
//! | `cmd` | the command line (split into words; required unless the spec is bare) |
//! | `arg` | one more argument, verbatim (repeatable) |
//! | `name` | the name shown in results and records (default: the program's file name); one line, no control character |
//! | `dir` | working directory of the process |
//! | `notation` | `turn` (default) or `action`: the move notation the engine reads and writes |
//! | `rules` | `variant` (default): send `setoption name Variant`; `options`: send every rule option one by one; `both`; `none` |
//! | `option.<Name>` | `setoption name <Name> value <value>` after `uciok` (repeatable) |

use super::words;
use crate::rules::notation::Convention;
use crate::text::quoted;
use std::fmt;
use std::path::PathBuf;

/// How an engine is told the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RulesBy {
    /// `setoption name Variant value <preset>`.
    Variant,
    /// One `setoption` per rule option (`Rules::options`).
    Options,
    /// Both: the variant, then every rule option.
    Both,
    /// Nothing: the engine plays its default rules.
    Nothing,
}

/// One engine, as the match starts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name results and records use.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory to run it in, if not the current one.
    pub dir: Option<PathBuf>,
    /// The notation its moves are sent and read in.
    pub notation: Convention,
    /// How it is told the rules.
    pub rules_by: RulesBy,
    /// `setoption` name and value pairs, in the order given.
    pub options: Vec<(String, String)>,
}

/// A spec that could not be read, with the offending word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The spec, as given.
    pub spec: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = quoted(&self.spec);
        write!(f, "bad engine spec {spec}: {}", self.message)
    }
}

impl std::error::Error for SpecError {}

impl EngineSpec {
    /// Reads one spec.
    pub fn parse(text: &str) -> Result<EngineSpec, SpecError> {
        let err = |message: String| SpecError {
            spec: text.to_string(),
            message,
        };
        let all = words::split(text).map_err(|e| err(e.to_string()))?;
        if all.is_empty() {
            return Err(err("empty spec: give cmd=<program> at least".into()));
        }
        let mut command: Vec<String> = Vec::new();
        let mut extra = Vec::new();
        let mut name = None;
        let mut dir = None;
        let mut notation = Convention::Turn;
        let mut rules_by = RulesBy::Variant;
        let mut options = Vec::new();
        let bare = all.iter().all(|w| !w.contains('='));
        if bare {
            command = all;
        } else {
            for word in &all {
                let (key, value) = words::key_value(word);
                let Some(key) = key else {
                    return Err(err(format!(
                        "'{word}' is not key=value (keys: cmd, arg, name, dir, notation, rules, option.<Name>)"
                    )));
                };
                match key {
                    "cmd" => {
                        command = words::split(value).map_err(|e| err(e.to_string()))?;
                    }
                    "arg" => extra.push(value.to_string()),
                    "name" => {
                        if value.trim().is_empty() {
                            return Err(err("empty name".into()));
                        }
                        name = Some(value.trim().to_string());
                    }
                    "dir" => dir = Some(PathBuf::from(value)),
                    "notation" => {
                        notation = Convention::parse(value).ok_or_else(|| {
                            err(format!("notation '{value}': expected turn or action"))
                        })?;
                    }
                    "rules" => {
                        rules_by = match value {
                            "variant" => RulesBy::Variant,
                            "options" => RulesBy::Options,
                            "both" => RulesBy::Both,
                            "none" => RulesBy::Nothing,
                            _ => {
                                return Err(err(format!(
                                    "rules '{value}': expected variant, options, both or none"
                                )))
                            }
                        }
                    }
                    k => match k.strip_prefix("option.") {
                        Some(opt) if !opt.is_empty() => {
                            options.push((opt.to_string(), value.to_string()));
                        }
                        _ => {
                            return Err(err(format!(
                                "unknown key '{k}' (keys: cmd, arg, name, dir, notation, rules, option.<Name>)"
                            )))
                        }
                    },
                }
            }
        }
        if command.is_empty() {
            return Err(err("no command: give cmd=<program>".into()));
        }
        let program = command.remove(0);
        command.extend(extra);
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&program)
                .file_name()
                .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned())
        });
        // The name is written on one line (a records file's title, a PGN tag): a line break in
        // it would cut the line and make the file unreadable.
        if name.chars().any(char::is_control) {
            return Err(err(format!(
                "the engine's name {} holds a control character (such as a line break), which \
                 records cannot hold on one line: give name=<a name on one line>",
                quoted(&name)
            )));
        }
        Ok(EngineSpec {
            name,
            program,
            args: command,
            dir,
            notation,
            rules_by,
            options,
        })
    }
}

/// Makes the names of a list of specs distinct by appending `-2`, `-3`, ... to repeats.
pub fn distinct_names(specs: &mut [EngineSpec]) {
    for i in 1..specs.len() {
        if specs[..i].iter().any(|s| s.name == specs[i].name) {
            let base = specs[i].name.clone();
            let mut n = 2;
            while specs.iter().any(|s| s.name == format!("{base}-{n}")) {
                n += 1;
            }
            specs[i].name = format!("{base}-{n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_spec() {
        let s = EngineSpec::parse(
            r#"name="new one" cmd="./moulin --log x" arg=--y option.Hash=64 notation=action rules=both"#,
        )
        .unwrap();
        assert_eq!(s.name, "new one");
        assert_eq!(s.program, "./moulin");
        assert_eq!(s.args, vec!["--log", "x", "--y"]);
        assert_eq!(s.notation, Convention::Action);
        assert_eq!(s.rules_by, RulesBy::Both);
        assert_eq!(s.options, vec![("Hash".to_string(), "64".to_string())]);
    }

    #[test]
    fn bare_spec_and_default_name() {
        let s = EngineSpec::parse("target/release/moulin").unwrap();
        assert_eq!(s.name, "moulin");
        assert_eq!(s.notation, Convention::Turn);
        assert!(s.args.is_empty());
    }

    #[test]
    fn errors_name_the_word() {
        for (bad, needle) in [
            ("", "empty"),
            ("name=A", "no command"),
            ("cmd=x notation=uci", "notation 'uci'"),
            ("cmd=x colour=red", "unknown key 'colour'"),
            ("cmd=x stray", "'stray' is not key=value"),
            ("cmd=\"x", "unterminated"),
            ("cmd=x option.=3", "unknown key 'option.'"),
        ] {
            let e = EngineSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn a_name_with_a_line_break_is_refused() {
        for spec in [
            "name=\"a\nb\" cmd=x",
            // A bare spec named after its program's file name.
            "'dir/a\rb'",
            "name=\"a\u{1b}b\" cmd=x",
        ] {
            let e = EngineSpec::parse(spec).unwrap_err();
            assert!(e.message.contains("control character"), "{spec}: {e}");
        }
        assert_eq!(EngineSpec::parse("name=\"a b\" cmd=x").unwrap().name, "a b");
    }

    #[test]
    fn repeated_names_become_distinct() {
        let mut specs = vec![
            EngineSpec::parse("cmd=a/moulin").unwrap(),
            EngineSpec::parse("cmd=b/moulin").unwrap(),
        ];
        distinct_names(&mut specs);
        assert_eq!(specs[0].name, "moulin");
        assert_eq!(specs[1].name, "moulin-2");
    }
}
