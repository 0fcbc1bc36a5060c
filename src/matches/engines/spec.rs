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
//! | `name` | the name shown in results and records (default: the program's file name) |
//! | `dir` | working directory of the process |
//! | `notation` | `turn` (default) or `action`: the move notation the engine reads and writes |
//! | `rules` | `variant` (default): send `setoption name Variant`; `options`: send every rule option one by one; `both`; `none` |
//! | `option.<Name>` | `setoption name <Name> value <value>` after `uciok` (repeatable, once a name; a spec's own overrides `--each`'s) |
//! | `tc` | its time control, in seconds: `<base>[+<inc>]`, `<moves>/<base>[+<inc>]` (the base again every `moves` turns) or `inf` (no time: give `nodes` or `depth`); default `--tc` |
//! | `st` | a time per move in seconds (`go movetime`), instead of `tc` |
//! | `movetime` | a time per move in milliseconds, instead of `tc` |
//! | `nodes` | `go ... nodes N`: the nodes of each search (with its time control) |
//! | `depth` | `go ... depth N`: the depth of each search (with its time control) |
//! | `proto` | `uci` (default) or `gbgp`: the dialect of the Nine Morris 3D GUI (`gbgp`/`gbgpok`, `newgame`, `position pos`, no increments); nine and twelve men's morris only, turn notation, the rules told by `TwelveMensMorris` (so no `notation` nor `rules` key) |
//!
//! No word of a spec (key or value, or a bare spec's command line) may hold a control character
//! (`control_character`); white space between words is free.
//!
//! `--each` gives words every spec gets before its own (`EngineSpec::parse_with`): a key the spec
//! sets again takes the spec's value.

pub use super::spec_error::{Place, SpecError, SpecProblem};
use super::time_control::{Control, TimeControl};
use crate::matches::quoting;
use crate::rules::notation::Convention;
use crate::text::quoted;
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
    fn parse(value: &str) -> Result<Proto, SpecProblem> {
        match value {
            "uci" => Ok(Proto::Uci),
            "gbgp" => Ok(Proto::Gbgp),
            _ => Err(SpecProblem::Proto {
                value: value.to_string(),
            }),
        }
    }

    /// Checks the `notation` and `rules` keys given with this protocol: a GBGP engine reads and
    /// writes the turn notation, and hears the rules from its option `TwelveMensMorris` alone.
    fn check(
        self,
        notation: Option<Convention>,
        rules_by: Option<RulesBy>,
    ) -> Result<(), SpecProblem> {
        if self == Proto::Uci {
            return Ok(());
        }
        if notation == Some(Convention::Action) {
            return Err(SpecProblem::GbgpNotation);
        }
        if rules_by.is_some() {
            return Err(SpecProblem::GbgpRules);
        }
        Ok(())
    }
}

impl RulesBy {
    /// Reads a spec's `rules=` value.
    fn parse(value: &str) -> Result<RulesBy, SpecProblem> {
        match value {
            "variant" => Ok(RulesBy::Variant),
            "options" => Ok(RulesBy::Options),
            "both" => Ok(RulesBy::Both),
            "none" => Ok(RulesBy::Nothing),
            _ => Err(SpecProblem::RulesBy {
                value: value.to_string(),
            }),
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
    /// Settings a command adds, not the user (`moulin openings` turns `OwnBook` off): sent,
    /// before `options`, only to an engine that announces them; a refusal is a warning.
    pub if_announced: Vec<(String, String)>,
    /// Its time control, when the spec gives one (else the match's).
    pub time: Option<TimeControl>,
    /// The nodes of each search, if bounded.
    pub nodes: Option<u64>,
    /// The depth of each search, if bounded.
    pub depth: Option<u32>,
    /// The protocol it speaks.
    pub proto: Proto,
}

/// Why the key=value `words` of one spec (or of `--each`) say one thing twice, if they do: a key
/// given twice (but `arg` and `option.<Name>` of different names, which add up), or more than
/// one of `tc`, `st` and `movetime`.
fn repeated_key(words: &[String]) -> Option<SpecProblem> {
    let mut seen: Vec<&str> = Vec::new();
    for word in words {
        let Some(key) = quoting::key_value(word).0 else {
            continue;
        };
        let group = if matches!(key, "tc" | "st" | "movetime") {
            "tc"
        } else {
            key
        };
        if key == "arg" {
            continue;
        }
        if seen.contains(&group) {
            return Some(if group == "tc" {
                SpecProblem::TwoTimes
            } else {
                SpecProblem::Twice {
                    key: key.to_string(),
                }
            });
        }
        seen.push(group);
    }
    None
}

/// A count of a spec's `nodes=` or `depth=` (at least 1).
fn count<T: std::str::FromStr + PartialOrd + From<u8>>(
    key: &str,
    value: &str,
) -> Result<T, SpecProblem> {
    match value.parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        _ => Err(SpecProblem::Count {
            key: key.to_string(),
            value: value.to_string(),
        }),
    }
}

/// Checks an `option.<Name>` key's name: one the engine reads as the name it is.
fn option_name(name: &str) -> Result<(), SpecProblem> {
    // `setoption name A value B value C` would set another option than named.
    if name
        .split_whitespace()
        .any(|w| w.eq_ignore_ascii_case("value"))
    {
        return Err(SpecProblem::OptionName {
            name: name.to_string(),
        });
    }
    Ok(())
}

/// Why `word` (a spec's `key=value` word, or a word of a bare spec's command line) cannot be
/// given, if it holds a control character: what is written to an engine is one line a command
/// (a line break in an option's value would be a second command), and the records keep each
/// spec on one line, where a line break would be read back as a space (another value).
fn control_character(word: &str, bare: bool) -> Option<SpecProblem> {
    let c = word.chars().find(|c| c.is_control())?;
    let what = match quoting::key_value(word) {
        _ if bare => format!("the command word {}", quoted(word)),
        (Some(key), _) if key.chars().any(char::is_control) => format!("the key {}", quoted(key)),
        (Some(key), value) => format!("the value of {key}, {},", quoted(value)),
        (None, _) => format!("the word {}", quoted(word)),
    };
    Some(SpecProblem::ControlCharacter { what, character: c })
}

/// The time control of a spec's `tc=`, `st=` or `movetime=` word.
fn time_key(key: &str, value: &str) -> Result<TimeControl, SpecProblem> {
    let parsed = match key {
        "tc" => TimeControl::parse_tc(value),
        "st" => TimeControl::parse_st(value),
        _ => {
            let ms: u64 = count(key, value)?;
            return Ok(TimeControl::MoveTime(std::time::Duration::from_millis(ms)));
        }
    };
    parsed.map_err(|source| SpecProblem::Time {
        key: key.to_string(),
        value: value.to_string(),
        source: Box::new(source),
    })
}

/// What the key=value words of a spec (and of `--each`) set, before the defaults.
#[derive(Default)]
struct Keys {
    command: Vec<String>,
    extra: Vec<String>,
    name: Option<String>,
    dir: Option<PathBuf>,
    notation: Option<Convention>,
    rules_by: Option<RulesBy>,
    proto: Option<Proto>,
    options: Vec<(String, String)>,
    time: Option<TimeControl>,
    nodes: Option<u64>,
    depth: Option<u32>,
}

/// The error of a key no spec has: for cutechess-cli's keys whose meaning moulin has
/// elsewhere, where; else the keys there are.
fn cutechess_key(key: &str) -> SpecProblem {
    let instead = match key {
        "timemargin" => "moulin's margin for a late answer is --grace MS, for every engine",
        "conf" => "moulin reads no engines file: give cmd= (and name=, option.<Name>=)",
        "restart" => {
            "moulin keeps an engine running from game to game, and starts it again \
                      after it ends"
        }
        _ => {
            return SpecProblem::UnknownKey {
                key: key.to_string(),
            }
        }
    };
    SpecProblem::Cutechess {
        key: key.to_string(),
        instead,
    }
}

impl Keys {
    /// Reads one word: a key given again replaces its value (for `option.<Name>`, the same
    /// name), `arg` adds one.
    fn read(&mut self, word: &str) -> Result<(), SpecProblem> {
        let (key, value) = quoting::key_value(word);
        let Some(key) = key else {
            return Err(SpecProblem::NotKeyValue {
                word: word.to_string(),
            });
        };
        match key {
            "cmd" => self.command = quoting::split(value)?,
            "arg" => self.extra.push(value.to_string()),
            "name" => {
                if value.trim().is_empty() {
                    return Err(SpecProblem::EmptyName);
                }
                self.name = Some(value.trim().to_string());
            }
            "dir" => self.dir = Some(PathBuf::from(value)),
            "notation" => {
                self.notation =
                    Some(
                        Convention::parse(value).ok_or_else(|| SpecProblem::Notation {
                            value: value.to_string(),
                        })?,
                    );
            }
            "rules" => self.rules_by = Some(RulesBy::parse(value)?),
            "proto" => self.proto = Some(Proto::parse(value)?),
            "tc" | "st" | "movetime" => self.time = Some(time_key(key, value)?),
            "nodes" => self.nodes = Some(count(key, value)?),
            "depth" => self.depth = Some(count(key, value)?),
            k => match k.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() => {
                    option_name(opt)?;
                    self.options.retain(|(name, _)| name != opt);
                    self.options.push((opt.to_string(), value.to_string()));
                }
                _ => return Err(cutechess_key(k)),
            },
        }
        Ok(())
    }

    /// The spec these keys make, with the defaults: the program's file name as its name, the
    /// turn notation, the rules told by their variant, the UCI-style protocol.
    fn into_spec(mut self) -> Result<EngineSpec, SpecProblem> {
        if self.command.is_empty() {
            return Err(SpecProblem::NoCommand);
        }
        let proto = self.proto.unwrap_or(Proto::Uci);
        proto.check(self.notation, self.rules_by)?;
        let program = self.command.remove(0);
        let mut args = self.command;
        args.extend(self.extra);
        let name = self.name.unwrap_or_else(|| {
            std::path::Path::new(&program)
                .file_name()
                .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            program,
            args,
            dir: self.dir,
            notation: self.notation.unwrap_or(Convention::Turn),
            rules_by: self.rules_by.unwrap_or(RulesBy::Variant),
            options: self.options,
            if_announced: Vec::new(),
            time: self.time,
            nodes: self.nodes,
            depth: self.depth,
            proto,
        })
    }
}

impl EngineSpec {
    /// Reads one spec.
    pub fn parse(text: &str) -> Result<EngineSpec, SpecError> {
        EngineSpec::parse_with(text, &[])
    }

    /// Reads a spec for a command that sets each search itself (`moulin openings`, `moulin
    /// train suite`): the keys that bound a match's searches are refused, not ignored.
    pub fn parse_unbounded(text: &str, command: &str) -> Result<EngineSpec, SpecError> {
        let spec = EngineSpec::parse(text)?;
        if spec.time.is_some() || spec.nodes.is_some() || spec.depth.is_some() {
            return Err(SpecError {
                spec: text.to_string(),
                problem: SpecProblem::Bounded {
                    command: command.to_string(),
                },
                place: Place::Spec,
            });
        }
        Ok(spec)
    }

    /// Reads one spec after the words `each` (those of `--each`), which it may override: a key
    /// given again takes the spec's value (for `option.<Name>`, the same name), and `arg` words
    /// add to those of `each`.
    pub fn parse_with(text: &str, each: &[String]) -> Result<EngineSpec, SpecError> {
        let at = |place: Place| {
            move |problem: SpecProblem| SpecError {
                spec: text.to_string(),
                problem,
                place,
            }
        };
        let err = at(Place::Spec);
        let own = quoting::split(text).map_err(|e| err(e.into()))?;
        if own.is_empty() {
            return Err(err(SpecProblem::Empty));
        }
        let mut keys = Keys::default();
        // A bare spec is a command line, to which `each` adds its keys.
        let bare = own.iter().all(|w| !w.contains('='));
        // Every word, so the name (given, or the program's file name) too: it is written on one
        // line (a records file's title, a PGN tag).
        if let Some(m) = each.iter().find_map(|w| control_character(w, false)) {
            return Err(at(Place::FromEach)(m));
        }
        if let Some(m) = own.iter().find_map(|w| control_character(w, bare)) {
            return Err(err(m));
        }
        let keyed = if bare {
            keys.command.clone_from(&own);
            &own[..0]
        } else {
            &own[..]
        };
        if let Some(m) = repeated_key(each) {
            return Err(at(Place::InEach)(m));
        }
        if let Some(m) = repeated_key(keyed) {
            return Err(err(m));
        }
        for (i, word) in each.iter().chain(keyed).enumerate() {
            let place = if i < each.len() {
                Place::FromEach
            } else {
                Place::Spec
            };
            keys.read(word).map_err(at(place))?;
        }
        keys.into_spec().map_err(err)
    }

    /// What bounds its searches: its own time control, else `default` (the match's), with its
    /// nodes and depth.
    pub fn control(&self, default: TimeControl) -> Control {
        Control {
            time: self.time.unwrap_or(default),
            nodes: self.nodes,
            depth: self.depth,
        }
    }
}

/// The time controls of `specs` (`default` for those that give none), as titles and summaries
/// show them: the one control when all share it, else each engine's (`a 10+0.1, b movetime 50
/// ms`).
pub fn show_controls(specs: &[EngineSpec], default: TimeControl) -> String {
    let controls: Vec<Control> = specs.iter().map(|s| s.control(default)).collect();
    match controls.first() {
        Some(first) if controls.iter().all(|c| c == first) => first.to_string(),
        _ => specs
            .iter()
            .zip(&controls)
            .map(|(s, c)| format!("{} {c}", s.name))
            .collect::<Vec<_>>()
            .join(", "),
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
    use std::time::Duration;

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
            ("cmd=x \"option.Foo value X\"=1", "holds the word 'value'"),
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
            assert!(e.message().contains("control character"), "{spec}: {e}");
        }
        assert_eq!(EngineSpec::parse("name=\"a b\" cmd=x").unwrap().name, "a b");
    }

    #[test]
    fn control_characters_are_refused_in_every_word() {
        for (spec, needle) in [
            (
                "cmd=x option.Hash=\"8\nquit\"",
                "the value of option.Hash, '8\\nquit',",
            ),
            ("cmd=x option.\"A\tB\"=1", "the key 'option.A\\tB'"),
            ("cmd=\"x\u{0}\"", "the value of cmd"),
            ("cmd=x arg=\"a\rb\"", "control character '\\r'"),
            ("cmd=x dir=\"d\u{1b}\"", "'\\u{1b}'"),
            ("'x\u{7f}' -v", "the command word"),
        ] {
            let e = EngineSpec::parse(spec).unwrap_err().to_string();
            assert!(e.contains(needle) && !e.contains('\n'), "{spec}: {e}");
        }
        let e = EngineSpec::parse_with("cmd=x", &["option.A=\"\n\"".to_string()]).unwrap_err();
        assert!(e.message().ends_with("(from --each)"), "{e}");
        // White space between words is free; in a value, it is kept.
        let s = EngineSpec::parse("cmd=x\n\toption.A=\"1 2\"\r\n").unwrap();
        assert_eq!(s.options, [("A".to_string(), "1 2".to_string())]);
    }

    #[test]
    fn a_key_given_twice_is_refused() {
        for (spec, needle) in [
            ("cmd=x name=a name=z", "name given twice"),
            ("cmd=x tc=1 st=0.01", "one of tc, st and movetime"),
            (
                "cmd=x option.Hash=8 option.Hash=16",
                "option.Hash given twice",
            ),
            ("cmd=x cmd=y", "cmd given twice"),
        ] {
            let e = EngineSpec::parse(spec).unwrap_err().to_string();
            assert!(e.contains(needle), "{spec}: {e}");
        }
        let each = ["tc=1".to_string(), "st=2".to_string()];
        let e = EngineSpec::parse_with("cmd=x", &each)
            .unwrap_err()
            .to_string();
        assert!(e.contains("(in --each)"), "{e}");
        // What adds up, or overrides --each, is fine.
        let s = EngineSpec::parse_with(
            "cmd=x arg=-a arg=-b option.A=1 option.B=2 st=0.1",
            &["tc=1".to_string(), "option.A=0".to_string()],
        )
        .unwrap();
        assert_eq!(s.args, ["-a", "-b"]);
        assert_eq!(s.options.len(), 2);
    }

    #[test]
    fn commands_that_set_their_searches_refuse_time_keys() {
        assert!(EngineSpec::parse_unbounded("cmd=x option.Hash=8", "moulin openings").is_ok());
        for spec in [
            "cmd=x tc=1+0.1",
            "cmd=x st=1",
            "cmd=x nodes=5",
            "cmd=x depth=3",
        ] {
            let e = EngineSpec::parse_unbounded(spec, "moulin openings").unwrap_err();
            assert!(
                e.to_string().contains("moulin openings sets each search"),
                "{e}"
            );
        }
    }

    #[test]
    fn time_keys_and_each() {
        let each: Vec<String> = ["tc=40/60+0.5", "option.Hash=64", "arg=--x", "nodes=100"]
            .map(String::from)
            .to_vec();
        let s = EngineSpec::parse_with("cmd=prog arg=--y option.Hash=8 st=0.05", &each).unwrap();
        // The spec's own values win; `arg` adds to --each's.
        assert_eq!(
            s.time,
            Some(TimeControl::MoveTime(Duration::from_millis(50)))
        );
        assert_eq!(s.options, vec![("Hash".to_string(), "8".to_string())]);
        assert_eq!(s.args, vec!["--x", "--y"]);
        assert_eq!(s.nodes, Some(100));
        // A bare spec gets --each's keys too.
        let s = EngineSpec::parse_with("prog -v", &each).unwrap();
        assert_eq!(
            (s.program.as_str(), s.args.clone()),
            ("prog", vec!["-v".to_string(), "--x".to_string()])
        );
        let default = TimeControl::MoveTime(Duration::from_millis(5));
        let c = s.control(default);
        assert_eq!(c.to_string(), "40/60+0.5 nodes 100");
        let s = EngineSpec::parse("cmd=x movetime=20 depth=7").unwrap();
        assert_eq!(s.control(default).to_string(), "movetime 20 ms depth 7");
        assert_eq!(
            EngineSpec::parse("cmd=x").unwrap().control(default),
            Control {
                time: default,
                nodes: None,
                depth: None
            }
        );
        let e = EngineSpec::parse_with("cmd=x", &["tc=1+y".to_string()]).unwrap_err();
        assert!(
            e.message().contains("'y'") && e.message().ends_with("(from --each)"),
            "{e}"
        );
        let specs = [
            EngineSpec::parse("name=a cmd=x tc=1+0.1").unwrap(),
            EngineSpec::parse("name=b cmd=x").unwrap(),
        ];
        assert_eq!(show_controls(&specs, default), "a 1+0.1, b movetime 5 ms");
        assert_eq!(show_controls(&specs[..1], default), "1+0.1");
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
