//! The engine process driver (`EngineProcess`): spawns an engine, talks its protocol line by
//! line, and never trusts it. A reader thread turns the engine's stdout into a channel so that
//! every wait has a deadline; a process that misbehaves is killed and reported as an
//! `EngineFault`.
//!
//! What an engine can do to the runner is bounded: its output is decoded lossily (bad bytes never
//! end a read), a line longer than `MAX_LINE` is a `Flood` fault, at most `QUEUED_LINES` lines
//! wait unread (the engine then blocks on its own pipe), stderr is read to its end whatever it
//! holds, and the engine runs in its own process group, which is ended whole: no helper process
//! in it outlives it (one that leaves the group is adopted and ended by `live_engines`).
//!
//! It speaks either protocol of the spec (`Proto`): moulin's UCI-style one, or the GBGP dialect
//! of the Nine Morris 3D GUI (`gbgp`/`gbgpok`, `newgame`, `go` without increments;
//! `gbgp_engine`), with the same safety. Its output's lines are read by `engine_output`; the
//! process groups a signal must end are kept by `live_engines`.

use super::engine_output::{
    is_error, option_name, parse_bestmove, parse_depth, parse_score, read_lines, Score,
};
use super::gbgp_engine;
use super::live_engines;
use super::spec::{EngineSpec, Proto, RulesBy};
use crate::rules::notation::Convention;
use crate::rules::Rules;
use crate::text::{printable, quoted};
use std::fmt;
use std::io::{BufReader, ErrorKind, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A system error kept by its kind and code, so that a fault stays comparable and can be copied
/// into a game's record; said as the system says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemError {
    kind: ErrorKind,
    code: Option<i32>,
}

impl From<&std::io::Error> for SystemError {
    fn from(e: &std::io::Error) -> SystemError {
        SystemError {
            kind: e.kind(),
            code: e.raw_os_error(),
        }
    }
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.code {
            Some(code) => std::io::Error::from_raw_os_error(code).fmt(f),
            None => std::io::Error::from(self.kind).fmt(f),
        }
    }
}

/// Why an engine's process was not started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnCause {
    /// The system refused to start it.
    System(SystemError),
    /// The match is ending: no engine is started any more.
    Ending,
    /// No thread could be started to read its output.
    NoReader(SystemError),
}

/// What went wrong with an engine; each one loses the game it happened in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// The process could not be started at all.
    Spawn {
        /// The program (`cmd=`).
        program: String,
        /// Why not.
        cause: SpawnCause,
    },
    /// The working folder of the spec (`dir=`) cannot be used, so the process was not started.
    Dir {
        /// The folder, as the spec gives it.
        dir: PathBuf,
        /// What is wrong with it.
        problem: DirProblem,
    },
    /// No answer before the deadline (the process is killed).
    Timeout {
        /// What was awaited (`uciok`, `readyok`, `bestmove`...).
        waiting_for: String,
        /// The time allowed, in milliseconds.
        ms: u64,
    },
    /// The process ended: `crashed` when by a signal or a non-zero status.
    Exited {
        /// Whether it ended by a signal or a non-zero status.
        crashed: bool,
        /// How it ended, as the system reports it (`None`: it closed its output and had not
        /// ended half a second later).
        status: Option<std::process::ExitStatus>,
    },
    /// Writing to the engine failed.
    Pipe(SystemError),
    /// A line of output longer than `MAX_LINE` bytes.
    Flood,
    /// The engine answered an `option.` key of its spec with an error line (`is_error`), so
    /// the setting the match names would not hold.
    Refused {
        /// The option's name.
        option: String,
        /// The value it was given.
        value: String,
        /// The engine's own line.
        answer: String,
    },
}

/// What is wrong with an engine's working folder (`dir=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirProblem {
    /// Nothing is there.
    Missing,
    /// Something other than a folder is there.
    NotAFolder,
    /// It cannot be entered or looked at: the system's reason.
    Unusable(SystemError),
}

impl DirProblem {
    /// What is wrong with `dir` as a working folder, if anything.
    fn of(dir: &Path) -> Option<DirProblem> {
        match std::fs::metadata(dir) {
            Err(e) if e.kind() == ErrorKind::NotFound => Some(DirProblem::Missing),
            Err(e) => Some(DirProblem::Unusable(SystemError::from(&e))),
            Ok(m) if !m.is_dir() => Some(DirProblem::NotAFolder),
            Ok(_) => {
                let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
                // SAFETY: `c` is a valid NUL-terminated string; `access` only reads it.
                let enterable = unsafe { libc::access(c.as_ptr(), libc::X_OK) } == 0;
                (!enterable).then(|| {
                    DirProblem::Unusable(SystemError::from(&std::io::Error::last_os_error()))
                })
            }
        }
    }
}

/// The fault of a process that could not be started (`e`): its working folder's, when that is
/// what is wrong, else the program's.
fn spawn_fault(spec: &EngineSpec, e: &std::io::Error) -> EngineFault {
    if let Some(dir) = &spec.dir {
        if let Some(problem) = DirProblem::of(dir) {
            return EngineFault::Dir {
                dir: dir.clone(),
                problem,
            };
        }
    }
    EngineFault::Spawn {
        program: spec.program.clone(),
        cause: SpawnCause::System(SystemError::from(e)),
    }
}

/// The longest line an engine may write (1 MiB); a longer one is a `Flood` fault.
pub const MAX_LINE: usize = 1 << 20;

/// How many lines of an engine's output may wait unread; past that the reader waits, and the
/// engine blocks on its full pipe. With `MAX_LINE`, this bounds what one engine can make the
/// runner hold.
pub const QUEUED_LINES: usize = 64;

/// The most characters of an engine's error line that a `Refused` fault shows.
const MAX_SHOWN_ANSWER: usize = 400;

/// The most error lines kept from one wait for `readyok`.
const MAX_ERRORS: usize = 8;

/// What the stdout reader passes on.
enum Output {
    Line(String),
    /// A line passed `MAX_LINE`: nothing more is passed on.
    Flood,
}

impl EngineFault {
    /// The short word that records use for the end of a game.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineFault::Spawn { .. } | EngineFault::Dir { .. } => "spawn",
            EngineFault::Timeout { .. } => "timeout",
            EngineFault::Exited { crashed: true, .. } | EngineFault::Pipe(_) => "crash",
            EngineFault::Exited { crashed: false, .. } => "exit",
            EngineFault::Flood => "flood",
            EngineFault::Refused { .. } => "refused",
        }
    }
}

impl fmt::Display for EngineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineFault::Spawn { program, cause } => match cause {
                SpawnCause::System(e) => write!(f, "could not start: {program}: {e}"),
                SpawnCause::Ending => write!(f, "could not start: {program}: the match is ending"),
                SpawnCause::NoReader(e) => {
                    write!(
                        f,
                        "could not start: no thread to read {program}'s output: {e}"
                    )
                }
            },
            EngineFault::Dir { dir, problem } => {
                let dir = quoted(&dir.to_string_lossy());
                match problem {
                    DirProblem::Missing => {
                        write!(
                            f,
                            "could not start: its working folder dir={dir} does not exist"
                        )
                    }
                    DirProblem::NotAFolder => {
                        write!(
                            f,
                            "could not start: its working folder dir={dir} is not a folder"
                        )
                    }
                    DirProblem::Unusable(e) => {
                        write!(
                            f,
                            "could not start: its working folder dir={dir} cannot be entered: {e}"
                        )
                    }
                }
            }
            EngineFault::Timeout { waiting_for, ms } => {
                write!(f, "no {waiting_for} within {ms} ms")
            }
            EngineFault::Exited {
                crashed: true,
                status: Some(status),
            } => write!(f, "crashed ({status})"),
            EngineFault::Exited {
                crashed: true,
                status: None,
            } => write!(f, "crashed (closed its output)"),
            EngineFault::Exited {
                crashed: false,
                status,
            } => match status {
                Some(status) => write!(f, "exited early ({status})"),
                None => write!(f, "exited early"),
            },
            EngineFault::Pipe(e) => write!(f, "stopped reading its input ({e})"),
            EngineFault::Flood => write!(f, "wrote a line longer than {MAX_LINE} bytes (flood)"),
            EngineFault::Refused {
                option,
                value,
                answer,
            } => write!(
                f,
                "refused option.{option}={value}, answering \"{}\"",
                printable(answer, MAX_SHOWN_ANSWER)
            ),
        }
    }
}

impl std::error::Error for EngineFault {}

/// A running engine process (moulin or any other engine a match plays), spoken to over its pipes.
pub struct EngineProcess {
    /// The spec it was started from.
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    /// Whether the process has been waited for (its process group is then no longer ours).
    reaped: bool,
    /// Its entry in `live_engines`, while it has one.
    live_slot: Option<usize>,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move tokens after `bestmove` (one, or the step and its removals in the two-token
    /// form), up to `ponder`.
    pub tokens: Vec<String>,
    /// The last score reported by an `info` line, from the side to move's view.
    pub score: Option<Score>,
    /// The last depth reported by an `info` line.
    pub depth: Option<u32>,
    /// How long the answer took.
    pub elapsed: Duration,
}

impl EngineProcess {
    /// Starts the engine and runs the handshake: `uci` until `uciok`, the rules and `isready`
    /// until `readyok`, then each of the spec's options followed by `isready` (`handshake`),
    /// each wait at most `timeout`.
    pub fn start(
        spec: &EngineSpec,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineFault> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so that ending the engine ends its helpers too.
            .process_group(0);
        // SAFETY: between fork and exec the child only calls `signal` and `pthread_sigmask`,
        // which are async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                live_engines::child_defaults();
                Ok(())
            });
        }
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Started and noted as one step, so that a signal ending the runner cannot fall between
        // the two and leave the engine running.
        let spawning = live_engines::Spawning::enter().ok_or_else(|| EngineFault::Spawn {
            program: spec.program.clone(),
            cause: SpawnCause::Ending,
        })?;
        let mut child = cmd.spawn().map_err(|e| spawn_fault(spec, &e))?;
        let live_slot = libc::pid_t::try_from(child.id())
            .ok()
            .and_then(live_engines::add);
        drop(spawning);
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        // Built first, so that an error below ends the process (`Drop`).
        let mut engine = EngineProcess {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            reaped: false,
            live_slot,
        };
        let name = spec.name.clone();
        let out_reader = move || {
            let mut open = true;
            read_lines(BufReader::new(stdout), MAX_LINE, |line| {
                if !open {
                    return;
                }
                let out = if let Some(bytes) = line {
                    let line = String::from_utf8_lossy(bytes);
                    log::trace!("{name} > {line}");
                    Output::Line(line.into_owned())
                } else {
                    open = false;
                    Output::Flood
                };
                // The runner no longer listens: keep reading so that the engine never blocks.
                open &= tx.send(out).is_ok();
            });
        };
        let name = spec.name.clone();
        let err_reader = move || {
            read_lines(BufReader::new(stderr), MAX_LINE, |line| match line {
                Some(bytes) => log::debug!("{name} (stderr) > {}", String::from_utf8_lossy(bytes)),
                None => log::debug!("{name} (stderr): a line longer than {MAX_LINE} bytes skipped"),
            });
        };
        thread::Builder::new()
            .spawn(out_reader)
            .and_then(|_| thread::Builder::new().spawn(err_reader))
            .map_err(|e| EngineFault::Spawn {
                program: spec.program.clone(),
                cause: SpawnCause::NoReader(SystemError::from(&e)),
            })?;
        engine.handshake(rules, timeout)?;
        Ok(engine)
    }

    /// The protocol's handshake and the runner's own settings (the notation, the rules, those
    /// of `if_announced` the engine announced), then each `option.` key of the spec followed by
    /// `isready`: an error line before `readyok`
    /// (`is_error`) is the engine refusing that option, a `Refused` fault, so that a match never
    /// runs with a setting its records name but the engine does not hold. A refusal of the
    /// runner's own settings is a warning (an engine may know the rules by itself).
    fn handshake(&mut self, rules: &Rules, timeout: Duration) -> Result<(), EngineFault> {
        let names = match self.spec.proto {
            Proto::Uci => self.uci_handshake(rules, timeout)?,
            Proto::Gbgp => self.gbgp_handshake(rules, timeout)?,
        };
        for (option, value) in self.spec.if_announced.clone() {
            if names.iter().any(|n| n.eq_ignore_ascii_case(&option)) {
                self.set_option(&option, &value)?;
            }
        }
        for answer in self.ready(timeout)? {
            log::warn!(
                "{}: answered the rules or the runner's settings with \"{}\"",
                self.spec.name,
                printable(&answer, MAX_SHOWN_ANSWER)
            );
        }
        for (option, value) in self.spec.options.clone() {
            self.set_option(&option, &value)?;
            if let Some(answer) = self.ready(timeout)?.into_iter().next() {
                return Err(EngineFault::Refused {
                    option,
                    value,
                    answer,
                });
            }
        }
        Ok(())
    }

    /// Sends `hello` and reads until `ok`: the names of the options the engine announced (`id`
    /// lines and the rest are dropped).
    fn announced_options(
        &mut self,
        hello: &str,
        ok: &str,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineFault> {
        self.send(hello)?;
        let deadline = after(Instant::now(), timeout);
        let mut names = Vec::new();
        loop {
            let line = self.recv(deadline, ok, timeout)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some(w) if w == ok => return Ok(names),
                Some("option") => names.extend(option_name(&line)),
                _ => {}
            }
        }
    }

    /// `uci` until `uciok`, then the notation and the rules as the spec says; the options the
    /// engine announced.
    fn uci_handshake(
        &mut self,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineFault> {
        let names = self.announced_options("uci", "uciok", timeout)?;
        if names.iter().any(|n| n.eq_ignore_ascii_case("MoveNotation")) {
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
        Ok(names)
    }

    /// `gbgp` until `gbgpok`, then `TwelveMensMorris` when the engine announced it, as the Nine
    /// Morris 3D GUI does. The variant was checked before the match (`gbgp_engine::check`). The
    /// options the engine announced.
    fn gbgp_handshake(
        &mut self,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineFault> {
        let names = self.announced_options(gbgp_engine::HELLO, gbgp_engine::HELLO_DONE, timeout)?;
        let twelve = gbgp_engine::twelve(rules).unwrap_or(false);
        if names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(gbgp_engine::TWELVE))
        {
            self.set_option(gbgp_engine::TWELVE, if twelve { "true" } else { "false" })?;
        } else if twelve {
            log::warn!(
                "{}: announces no option {}, so it is not told the game is twelve men's morris",
                self.spec.name,
                gbgp_engine::TWELVE
            );
        }
        Ok(names)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineFault> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` until `readyok`; every line before it is dropped, so this also drains what is
    /// left over from an earlier command (a second `bestmove`, late `info` lines).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        self.ready(timeout).map(drop)
    }

    /// `isready` until `readyok`: the error lines (`is_error`) that came before it, the first
    /// `MAX_ERRORS` of them.
    fn ready(&mut self, timeout: Duration) -> Result<Vec<String>, EngineFault> {
        self.send("isready")?;
        let deadline = after(Instant::now(), timeout);
        let mut errors = Vec::new();
        loop {
            let line = self.recv(deadline, "readyok", timeout)?;
            if line.trim() == "readyok" {
                return Ok(errors);
            }
            if errors.len() < MAX_ERRORS && is_error(&line) {
                errors.push(line);
            }
        }
    }

    /// `ucinewgame` (for GBGP `stop` and `newgame`, as the Nine Morris 3D GUI sends them), then
    /// waits until the engine is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        match self.spec.proto {
            Proto::Uci => self.send("ucinewgame")?,
            Proto::Gbgp => {
                self.send("stop")?;
                self.send("newgame")?;
            }
        }
        self.sync(timeout)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        log::trace!("{} < {line}", self.spec.name);
        let result = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        result.map_err(|e| match self.exit_fault() {
            Some(f) => f,
            None => EngineFault::Pipe(SystemError::from(&e)),
        })
    }

    /// Sends `position` and `go` (for GBGP without the words it lacks: `gbgp_engine::go_line`), then
    /// reads until `bestmove`, waiting at most `limit`.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, EngineFault> {
        self.send(position)?;
        match self.spec.proto {
            Proto::Uci => self.send(go)?,
            Proto::Gbgp => self.send(&gbgp_engine::go_line(go))?,
        }
        let started = Instant::now();
        let deadline = after(started, limit);
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.recv(deadline, "bestmove", limit)?;
            score = parse_score(&line).or(score);
            depth = parse_depth(&line).or(depth);
            if let Some(tokens) = parse_bestmove(&line) {
                return Ok(Answer {
                    tokens,
                    score,
                    depth,
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
            Ok(Output::Line(line)) => Ok(line),
            Ok(Output::Flood) => {
                self.kill();
                Err(EngineFault::Flood)
            }
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
                    status: None,
                })
            }
        }
    }

    fn exit_fault(&mut self) -> Option<EngineFault> {
        let status = self.exit_status()?;
        Some(EngineFault::Exited {
            crashed: !status.success(),
            status: Some(status),
        })
    }

    /// How the process ended, if it has, without reaping it: while it is not reaped its process
    /// id, which names its group, cannot be given to another process.
    fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        if self.reaped {
            return self.child.try_wait().ok().flatten();
        }
        // SAFETY: `siginfo_t` is plain data, and `waitid` fills it for a child of ours; WNOWAIT
        // leaves the child waitable, so `Child::wait` still reaps it later.
        let exited = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let done = libc::waitid(
                libc::P_PID,
                self.child.id(),
                &raw mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            done == 0 && info.si_pid() != 0
        };
        if !exited {
            return None;
        }
        self.end_group();
        self.reaped = true;
        self.child.wait().ok()
    }

    /// Kills every process of the engine's group (the engine and any helper it started that is
    /// still in the group). Only while the engine is not reaped, so that the group is ours.
    fn end_group(&mut self) {
        if self.reaped {
            return;
        }
        let Ok(group) = libc::pid_t::try_from(self.child.id()) else {
            let _ = self.child.kill();
            return;
        };
        // SAFETY: `kill` only sends a signal; the group is the one the engine leads, and its id
        // cannot be reused while the engine is unreaped.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        if let Some(slot) = self.live_slot.take() {
            live_engines::remove(slot);
        }
    }

    /// Ends the process and its group at once (and reaps what earlier groups left dead:
    /// `live_engines::reap_dead_orphans`).
    pub fn kill(&mut self) {
        self.end_group();
        if !self.reaped {
            self.reaped = true;
            let _ = self.child.wait();
            live_engines::reap_dead_orphans();
        }
    }

    /// Asks the engine to quit, and kills it if it has not within a short while; then ends what
    /// is left of its process group.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until && self.exit_status().is_none() {
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `start + d`, or a far future when that cannot be represented (`--movetime` of `u64::MAX`).
pub fn after(start: Instant, d: Duration) -> Instant {
    start
        .checked_add(d)
        .or_else(|| start.checked_add(Duration::from_hours(100 * 365 * 24)))
        .unwrap_or(start)
}
