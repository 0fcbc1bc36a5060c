//! The engine process driver: spawns an engine, talks its protocol line by line, and never trusts
//! it. A reader thread turns the engine's stdout into a channel so that every wait has a
//! deadline; a process that misbehaves is killed and reported as an `EngineFault`.
//!
//! What an engine can do to the runner is bounded: its output is decoded lossily (bad bytes never
//! end a read), a line longer than `MAX_LINE` is a `Flood` fault, at most `QUEUED_LINES` lines
//! wait unread (the engine then blocks on its own pipe), stderr is read to its end whatever it
//! holds, and the engine runs in its own process group, which is ended whole: no helper process
//! outlives it.
//!
//! It speaks either protocol of the spec (`Proto`): moulin's UCI-style one, or the GBGP dialect
//! of the Nine Morris 3D GUI (`gbgp`/`gbgpok`, `newgame`, `go` without increments; `gbgp`), with
//! the same safety.

use super::gbgp;
use super::spec::{EngineSpec, Proto, RulesBy};
use crate::rules::notation::Convention;
use crate::rules::Rules;
use std::fmt;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::os::unix::process::CommandExt;
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
        /// How it ended, as the system says it.
        status: String,
    },
    /// Writing to the engine failed.
    Pipe(String),
    /// A line of output longer than `MAX_LINE` bytes.
    Flood,
}

/// The longest line an engine may write (1 MiB); a longer one is a `Flood` fault.
pub const MAX_LINE: usize = 1 << 20;

/// How many lines of an engine's output may wait unread; past that the reader waits, and the
/// engine blocks on its full pipe. With `MAX_LINE`, this bounds what one engine can make the
/// runner hold.
pub const QUEUED_LINES: usize = 64;

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
            EngineFault::Spawn(_) => "spawn",
            EngineFault::Timeout { .. } => "timeout",
            EngineFault::Exited { crashed: true, .. } | EngineFault::Pipe(_) => "crash",
            EngineFault::Exited { crashed: false, .. } => "exit",
            EngineFault::Flood => "flood",
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
            EngineFault::Flood => write!(f, "wrote a line longer than {MAX_LINE} bytes (flood)"),
        }
    }
}

impl std::error::Error for EngineFault {}

/// A running engine.
pub struct Engine {
    /// The spec it was started from.
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    /// Whether the process has been waited for (its process group is then no longer ours).
    reaped: bool,
    /// Its entry in `live`, while it has one.
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
            .stderr(Stdio::piped())
            // Its own process group, so that ending the engine ends its helpers too.
            .process_group(0);
        // SAFETY: between fork and exec the child only calls `signal` and `pthread_sigmask`,
        // which are async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                live::child_defaults();
                Ok(())
            });
        }
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Started and noted as one step, so that a signal ending the runner cannot fall between
        // the two and leave the engine running.
        let spawning = live::Spawning::enter();
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineFault::Spawn(format!("{}: {e}", spec.program)))?;
        let live_slot = libc::pid_t::try_from(child.id()).ok().and_then(live::add);
        drop(spawning);
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        // Built first, so that an error below ends the process (`Drop`).
        let mut engine = Engine {
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
            .map_err(|e| EngineFault::Spawn(format!("no thread to read {}: {e}", spec.name)))?;
        engine.handshake(rules, timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, rules: &Rules, timeout: Duration) -> Result<(), EngineFault> {
        match self.spec.proto {
            Proto::Uci => self.uci_handshake(rules, timeout)?,
            Proto::Gbgp => self.gbgp_handshake(rules, timeout)?,
        }
        for (name, value) in self.spec.options.clone() {
            self.set_option(&name, &value)?;
        }
        self.sync(timeout)
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

    /// `uci` until `uciok`, then the notation and the rules as the spec says.
    fn uci_handshake(&mut self, rules: &Rules, timeout: Duration) -> Result<(), EngineFault> {
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
        Ok(())
    }

    /// `gbgp` until `gbgpok`, then `TwelveMensMorris` when the engine announced it, as the Nine
    /// Morris 3D GUI does. The variant was checked before the match (`gbgp::check`).
    fn gbgp_handshake(&mut self, rules: &Rules, timeout: Duration) -> Result<(), EngineFault> {
        let names = self.announced_options(gbgp::HELLO, gbgp::HELLO_DONE, timeout)?;
        let twelve = gbgp::twelve(rules).unwrap_or(false);
        if names.iter().any(|n| n.eq_ignore_ascii_case(gbgp::TWELVE)) {
            self.set_option(gbgp::TWELVE, if twelve { "true" } else { "false" })?;
        } else if twelve {
            log::warn!(
                "{}: announces no option {}, so it is not told the game is twelve men's morris",
                self.spec.name,
                gbgp::TWELVE
            );
        }
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineFault> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` until `readyok`; every line before it is dropped, so this also drains what is
    /// left over from an earlier command (a second `bestmove`, late `info` lines).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        self.send("isready")?;
        let deadline = after(Instant::now(), timeout);
        loop {
            let line = self.recv(deadline, "readyok", timeout)?;
            if line.trim() == "readyok" {
                return Ok(());
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
            None => EngineFault::Pipe(e.to_string()),
        })
    }

    /// Sends `position` and `go` (for GBGP without the words it lacks: `gbgp::go_line`), then
    /// reads until `bestmove`, waiting at most `limit`.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, EngineFault> {
        self.send(position)?;
        match self.spec.proto {
            Proto::Uci => self.send(go)?,
            Proto::Gbgp => self.send(&gbgp::go_line(go))?,
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
                    status: "closed its output".into(),
                })
            }
        }
    }

    fn exit_fault(&mut self) -> Option<EngineFault> {
        let status = self.exit_status()?;
        Some(EngineFault::Exited {
            crashed: !status.success(),
            status: status.to_string(),
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
            live::remove(slot);
        }
    }

    /// Ends the process and its group at once.
    pub fn kill(&mut self) {
        self.end_group();
        if !self.reaped {
            self.reaped = true;
            let _ = self.child.wait();
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

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The process groups of the engines running now, so that a signal that ends the runner (Ctrl-C,
/// `kill`, a closed terminal) ends them too: in groups of their own, they are out of reach of the
/// terminal's signals, and a hostile one would not end when its input closes.
mod live {
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
    use std::sync::Once;

    /// Engines running at once: two per game thread, and room to spare.
    const SLOTS: usize = 1024;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    /// Set by the handler before it looks at `GROUPS`: no engine is started after that.
    static ENDING: AtomicBool = AtomicBool::new(false);
    /// Threads between starting an engine and noting its group; the handler waits for them.
    static SPAWNING: AtomicUsize = AtomicUsize::new(0);
    static HANDLERS: Once = Once::new();

    /// A thread starting an engine, from before the process exists until its group is noted.
    /// The ending signals are blocked in this thread meanwhile, so that the handler runs in
    /// another one and can wait for this section to end.
    pub struct Spawning {
        blocked: libc::sigset_t,
    }

    impl Spawning {
        /// Enters the section. Once the runner is ending it never returns: the handler is
        /// killing the engines and then ends the runner by its signal, and a start refused
        /// meanwhile must not end the match first as if an engine had failed (exit 1).
        pub fn enter() -> Spawning {
            HANDLERS.call_once(install);
            // SAFETY: the set is initialised by `sigemptyset` before use, and the mask change
            // concerns only this thread; `Drop` restores it.
            let blocked = unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&raw mut set);
                for signal in ENDING_SIGNALS {
                    libc::sigaddset(&raw mut set, signal);
                }
                let mut old: libc::sigset_t = std::mem::zeroed();
                libc::pthread_sigmask(libc::SIG_BLOCK, &raw const set, &raw mut old);
                old
            };
            let section = Spawning { blocked };
            SPAWNING.fetch_add(1, Ordering::SeqCst);
            // Either the handler sees this thread in the section, or this sees the handler.
            if ENDING.load(Ordering::SeqCst) {
                drop(section);
                loop {
                    std::thread::park();
                }
            }
            section
        }
    }

    impl Drop for Spawning {
        fn drop(&mut self) {
            SPAWNING.fetch_sub(1, Ordering::SeqCst);
            // SAFETY: restores the mask `enter` saved, for this thread only.
            unsafe {
                libc::pthread_sigmask(
                    libc::SIG_SETMASK,
                    &raw const self.blocked,
                    std::ptr::null_mut(),
                );
            }
        }
    }

    const ENDING_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// In a child between fork and exec: the ending signals back to their default action (an
    /// ignored one stays ignored) and unblocked, in this order, so that the engine gets them as
    /// any program does and a signal arriving now never runs the runner's handler in the child.
    pub fn child_defaults() {
        // SAFETY: `signal`, `sigemptyset`, `sigaddset` and `pthread_sigmask` are
        // async-signal-safe; the set is initialised before use.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&raw mut set);
            for signal in ENDING_SIGNALS {
                if libc::signal(signal, libc::SIG_DFL) == libc::SIG_IGN {
                    libc::signal(signal, libc::SIG_IGN);
                }
                libc::sigaddset(&raw mut set, signal);
            }
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &raw const set, std::ptr::null_mut());
        }
    }

    /// Notes a running engine's group (its process id); the slot to give back, if one was free.
    pub fn add(group: libc::pid_t) -> Option<usize> {
        HANDLERS.call_once(install);
        (0..SLOTS).find(|&i| {
            GROUPS[i]
                .compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    /// Forgets a group, before its leader is reaped.
    pub fn remove(slot: usize) {
        GROUPS[slot].store(0, Ordering::SeqCst);
    }

    extern "C" fn on_signal(signal: libc::c_int) {
        ENDING.store(true, Ordering::SeqCst);
        // Threads starting an engine finish noting it (at most a few seconds: a spawn that
        // hangs longer than that is not waited for).
        let pause = libc::timespec {
            tv_sec: 0,
            tv_nsec: 1_000_000,
        };
        for _ in 0..5_000 {
            if SPAWNING.load(Ordering::SeqCst) == 0 {
                break;
            }
            // SAFETY: `nanosleep` is a plain system call, safe in a handler.
            unsafe {
                libc::nanosleep(&raw const pause, std::ptr::null_mut());
            }
        }
        for group in &GROUPS {
            let group = group.load(Ordering::SeqCst);
            if group > 0 {
                // SAFETY: `kill` is async-signal-safe; the group's leader is not reaped yet.
                unsafe {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
        }
        // SAFETY: `signal` and `raise` are async-signal-safe; the default action then ends the
        // runner as the signal would have.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    fn install() {
        for signal in ENDING_SIGNALS {
            // SAFETY: `on_signal` does only async-signal-safe things (atomic loads and stores,
            // `nanosleep`, `kill`, `signal`, `raise`). A signal that was ignored (`nohup`) stays
            // ignored.
            unsafe {
                let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                if libc::signal(signal, handler) == libc::SIG_IGN {
                    libc::signal(signal, libc::SIG_IGN);
                }
            }
        }
    }
}

/// `start + d`, or a far future when that cannot be represented (`--movetime` of `u64::MAX`).
pub fn after(start: Instant, d: Duration) -> Instant {
    start
        .checked_add(d)
        .or_else(|| start.checked_add(Duration::from_hours(100 * 365 * 24)))
        .unwrap_or(start)
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
}
