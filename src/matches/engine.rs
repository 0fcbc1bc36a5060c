//! The engine process driver: spawns an engine, talks its protocol line by line, and never trusts
//! it. A reader thread turns the engine's stdout into a channel so that every wait has a
//! deadline; a process that misbehaves is killed and reported as an `EngineFault`.

use super::spec::{EngineSpec, RulesBy};
use crate::rules::notation::Convention;
use crate::rules::Rules;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// What went wrong with an engine; each one loses the game it happened in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// The process could not be started at all.
    Spawn(String),
    /// No answer before the deadline (the process is killed).
    Timeout { waiting_for: String, ms: u64 },
    /// The process ended: `crashed` when by a signal or a non-zero status.
    Exited { crashed: bool, status: String },
    /// Writing to the engine failed.
    Pipe(String),
}

impl EngineFault {
    /// The short word that records use for the end of a game.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineFault::Spawn(_) => "spawn",
            EngineFault::Timeout { .. } => "timeout",
            EngineFault::Exited { crashed: true, .. } => "crash",
            EngineFault::Exited { crashed: false, .. } => "exit",
            EngineFault::Pipe(_) => "crash",
        }
    }
}

impl fmt::Display for EngineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineFault::Spawn(e) => write!(f, "could not start: {e}"),
            EngineFault::Timeout { waiting_for, ms } => {
                write!(f, "no {waiting_for} within {ms} ms")
            }
            EngineFault::Exited {
                crashed: true,
                status,
            } => write!(f, "crashed ({status})"),
            EngineFault::Exited {
                crashed: false,
                status,
            } => write!(f, "exited early ({status})"),
            EngineFault::Pipe(e) => write!(f, "stopped reading its input ({e})"),
        }
    }
}

/// A running engine.
pub struct Engine {
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The option names the engine announced, lower-cased.
    announced: Vec<String>,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move tokens after `bestmove` (one, or the step and its removals in the two-token
    /// form), up to `ponder`.
    pub tokens: Vec<String>,
    /// The last score reported by an `info` line, from the side to move's view.
    pub score: Option<Score>,
    /// How long the answer took.
    pub elapsed: Duration,
}

/// A search score as `info ... score` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
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

impl Engine {
    /// Starts the engine and runs the handshake: `uci` until `uciok`, the spec's options and the
    /// rules, then `isready` until `readyok`, each wait at most `timeout`.
    pub fn start(
        spec: &EngineSpec,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<Engine, EngineFault> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineFault::Spawn(format!("{}: {e}", spec.program)))?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::channel();
        let name = spec.name.clone();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log::trace!("{name} > {line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let name = spec.name.clone();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                log::debug!("{name} (stderr) > {line}");
            }
        });
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            announced: Vec::new(),
        };
        engine.handshake(rules, timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, rules: &Rules, timeout: Duration) -> Result<(), EngineFault> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv(deadline, "uciok", timeout)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => break,
                Some("option") => {
                    if let Some(name) = option_name(&line) {
                        self.announced.push(name.to_ascii_lowercase());
                    }
                }
                _ => {}
            }
        }
        if self.announces("MoveNotation") {
            self.set_option("MoveNotation", self.spec.notation.name())?;
        } else if self.spec.notation == Convention::Action {
            log::debug!(
                "{}: speaks action notation but announces no MoveNotation option",
                self.spec.name
            );
        }
        let by = self.spec.rules_by;
        if matches!(by, RulesBy::Variant | RulesBy::Both) {
            match rules.preset_name() {
                Some(preset) => self.set_option("Variant", preset)?,
                None => log::warn!("rules match no preset: Variant not sent"),
            }
        }
        if matches!(by, RulesBy::Options | RulesBy::Both) {
            for (name, value) in rules.options() {
                self.set_option(name, &value)?;
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.set_option(&name, &value)?;
        }
        self.sync(timeout)
    }

    fn announces(&self, option: &str) -> bool {
        self.announced
            .iter()
            .any(|o| o.eq_ignore_ascii_case(option))
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineFault> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` until `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv(deadline, "readyok", timeout)?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// `ucinewgame`, then waits until the engine is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        log::trace!("{} < {line}", self.spec.name);
        let result = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        result.map_err(|e| match self.exit_fault() {
            Some(f) => f,
            None => EngineFault::Pipe(e.to_string()),
        })
    }

    /// Sends `position` and `go`, then reads until `bestmove`, waiting at most `limit`.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, EngineFault> {
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let deadline = started + limit;
        let mut score = None;
        loop {
            let line = self.recv(deadline, "bestmove", limit)?;
            if let Some(s) = parse_score(&line) {
                score = Some(s);
            }
            if let Some(tokens) = parse_bestmove(&line) {
                return Ok(Answer {
                    tokens,
                    score,
                    elapsed: started.elapsed(),
                });
            }
        }
    }

    /// The next line, before `deadline`; on time-out the process is killed.
    fn recv(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        limit: Duration,
    ) -> Result<String, EngineFault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(EngineFault::Timeout {
                    waiting_for: waiting_for.to_string(),
                    ms: limit.as_millis() as u64,
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                // The output closed: the process is ending; give it a moment to report how.
                let until = Instant::now() + Duration::from_millis(500);
                while Instant::now() < until {
                    if let Some(f) = self.exit_fault() {
                        return Err(f);
                    }
                    thread::sleep(Duration::from_millis(5));
                }
                self.kill();
                Err(EngineFault::Exited {
                    crashed: true,
                    status: "closed its output".into(),
                })
            }
        }
    }

    fn exit_fault(&mut self) -> Option<EngineFault> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(EngineFault::Exited {
                crashed: !status.success(),
                status: status.to_string(),
            }),
            _ => None,
        }
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the engine to quit, and kills it if it has not within a short while.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// The name in an `option name <Name> type ...` line.
fn option_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words.iter().position(|&w| w == "name")? + 1;
    let end = words
        .iter()
        .skip(start)
        .position(|&w| w == "type")
        .map_or(words.len(), |p| p + start);
    (start < end).then(|| words[start..end].join(" "))
}

/// The move tokens of a line holding `bestmove`, anywhere in it (some engines print it at the end
/// of an `info` line). Tokens after the first are kept while they are removals (`xb4`), so the
/// two-token form `bestmove d6 xb4` reads as one turn.
pub fn parse_bestmove(line: &str) -> Option<Vec<String>> {
    let at = line.find("bestmove")?;
    let rest = &line[at + "bestmove".len()..];
    let mut words = rest.split_whitespace();
    let first = words.next()?;
    let mut tokens = vec![first.to_string()];
    for w in words {
        if w.len() > 1 && (w.starts_with('x') || w.starts_with('X')) {
            tokens.push(w.to_string());
        } else {
            break;
        }
    }
    Some(tokens)
}

/// The score of an `info ... score cp X` or `score mate N` line.
pub fn parse_score(line: &str) -> Option<Score> {
    let words: Vec<&str> = line.split_whitespace().collect();
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
        assert_eq!(
            option_name("option name Move Overhead type spin default 10").as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(option_name("option name"), None);
    }
}
