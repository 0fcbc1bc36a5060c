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
//! | `proto` | `uci` (default) or `gbgp`: the dialect of the Nine Morris 3D GUI (`gbgp`/`gbgpok`, `newgame`, `position pos`, no increments); nine and twelve men's morris only, turn notation, the rules told by `TwelveMensMorris` (so no `notation` nor `rules` key) |

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

/// The protocol an engine speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proto {
    /// moulin's UCI-style protocol (protocol.md): `uci`, `ucinewgame`, `position startpos|fen`.
    Uci,
    /// The GBGP dialect of the Nine Morris 3D GUI (docs/matches.md): `gbgp`, `newgame`,
    /// `position pos <GBGP position string>`, `go` without increments.
    Gbgp,
}

impl Proto {
    /// Reads the value of `proto`.
    fn parse(value: &str) -> Result<Proto, String> {
        match value {
            "uci" => Ok(Proto::Uci),
            "gbgp" => Ok(Proto::Gbgp),
            _ => Err(format!("proto '{value}': expected uci or gbgp")),
        }
    }

    /// Checks the `notation` and `rules` keys given with this protocol: a GBGP engine reads and
    /// writes the turn notation, and hears the rules from its option `TwelveMensMorris` alone.
    fn check(self, notation: Option<Convention>, rules_by: Option<RulesBy>) -> Result<(), String> {
        if self == Proto::Uci {
            return Ok(());
        }
        if notation == Some(Convention::Action) {
            return Err(
                "proto=gbgp speaks the turn notation only: leave out notation=action".into(),
            );
        }
        if rules_by.is_some() {
            return Err(
                "proto=gbgp is told the rules by its option TwelveMensMorris: leave out the \
                 rules key"
                    .into(),
            );
        }
        Ok(())
    }
}

impl RulesBy {
    /// Reads the value of `rules`.
    fn parse(value: &str) -> Result<RulesBy, String> {
        match value {
            "variant" => Ok(RulesBy::Variant),
            "options" => Ok(RulesBy::Options),
            "both" => Ok(RulesBy::Both),
            "none" => Ok(RulesBy::Nothing),
            _ => Err(format!(
                "rules '{value}': expected variant, options, both or none"
            )),
        }
    }
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
    /// The protocol it speaks.
    pub proto: Proto,
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
        let mut notation = None;
        let mut rules_by = None;
        let mut proto = Proto::Uci;
        let mut options = Vec::new();
        let bare = all.iter().all(|w| !w.contains('='));
        if bare {
            command = all;
        } else {
            for word in &all {
                let (key, value) = words::key_value(word);
                let Some(key) = key else {
                    return Err(err(format!(
                        "'{word}' is not key=value (keys: cmd, arg, name, dir, notation, rules, option.<Name>, proto)"
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
                        notation = Some(Convention::parse(value).ok_or_else(|| {
                            err(format!("notation '{value}': expected turn or action"))
                        })?);
                    }
                    "rules" => {
                        rules_by = Some(RulesBy::parse(value).map_err(err)?);
                    }
                    "proto" => proto = Proto::parse(value).map_err(err)?,
                    k => match k.strip_prefix("option.") {
                        Some(opt) if !opt.is_empty() => {
                            options.push((opt.to_string(), value.to_string()));
                        }
                        _ => {
                            return Err(err(format!(
                                "unknown key '{k}' (keys: cmd, arg, name, dir, notation, rules, option.<Name>, proto)"
                            )))
                        }
                    },
                }
            }
        }
        if command.is_empty() {
            return Err(err("no command: give cmd=<program>".into()));
        }
        proto.check(notation, rules_by).map_err(err)?;
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
            notation: notation.unwrap_or(Convention::Turn),
            rules_by: rules_by.unwrap_or(RulesBy::Variant),
            options,
            proto,
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
        assert_eq!(s.proto, Proto::Uci);
        let g = EngineSpec::parse("cmd=x proto=gbgp notation=turn option.Hash=8").unwrap();
        assert_eq!(g.proto, Proto::Gbgp);
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
            ("cmd=x proto=xboard", "proto 'xboard'"),
            ("cmd=x proto=gbgp notation=action", "turn notation only"),
            ("cmd=x rules=none proto=gbgp", "TwelveMensMorris"),
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
