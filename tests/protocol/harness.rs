//! The harness: a running engine driven over pipes, the gate that lets the latency tests measure
//! alone, and the positions and helpers the conversations share.

use moulin::{Game, Rules};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::{Duration, Instant};

pub(crate) const TIMEOUT: Duration = Duration::from_secs(20);

/// The latency tests measure alone (write lock); every other test shares (read lock), so that the
/// few cores of a test machine are not busy with other engines while a latency is timed.
static GATE: RwLock<()> = RwLock::new(());

pub(crate) fn shared() -> RwLockReadGuard<'static, ()> {
    GATE.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(crate) fn alone() -> RwLockWriteGuard<'static, ()> {
    GATE.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether `line` is one of the four that say what the engine knows besides its search (its
/// evaluation, opening's solution, book and tables: protocol.md, section 6).
pub(crate) fn is_inventory(line: &str) -> bool {
    [
        "evaluation: ",
        "opening solution",
        "opening book",
        "endgame tables",
    ]
    .iter()
    .any(|p| line.starts_with(&format!("info string {p}")))
}

/// A running engine and its output, line by line.
pub(crate) struct Engine {
    child: Child,
    pub(crate) stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<thread::JoinHandle<String>>,
}

impl Engine {
    pub(crate) fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts the engine without the opening's solution that ships with it (which answers
    /// every position of the first plies at once): for tests of the book, and of searches and
    /// their output in the opening.
    pub(crate) fn without_opening() -> Engine {
        Engine::start_with(&["--option", "OpeningSolution=none"])
    }

    /// Starts the engine with these command-line arguments, and a cache folder of its own
    /// where no packed set is installed (a set installed on the machine would be its tables).
    pub(crate) fn start_with(args: &[&str]) -> Engine {
        Engine::start_with_cache(args, &crate::shared::empty_cache())
    }

    /// Starts the engine with these command-line arguments and `cache` as its cache folder
    /// (`XDG_CACHE_HOME`: where it looks for an installed packed set).
    pub(crate) fn start_with_cache(args: &[&str], cache: &std::path::Path) -> Engine {
        let mut child = crate::shared::moulin()
            .args(args)
            .env("XDG_CACHE_HOME", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_LOG", "warn")
            .spawn()
            .expect("the engine starts");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut pending = Vec::new();
            let mut buf = vec![0u8; 65536];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        pending.extend_from_slice(&buf[..n]);
                        while let Some(i) = pending.iter().position(|&b| b == b'\n') {
                            let line = String::from_utf8(pending[..i].to_vec())
                                .expect("the engine writes UTF-8");
                            pending.drain(..=i);
                            if tx.send(line).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let stderr = thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        }
    }

    pub(crate) fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub(crate) fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().unwrap();
    }

    pub(crate) fn next_line(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first that satisfies `done`, without the lines that say
    /// what the engine knows (`is_inventory`: said at the first `isready` or `go` and when it
    /// changes; `until_all` keeps them).
    pub(crate) fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = self.until_all(done);
        lines.retain(|l| !is_inventory(l));
        lines
    }

    /// Lines up to and including the first that satisfies `done`, every one.
    pub(crate) fn until_all(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .next_line(left)
                .unwrap_or_else(|| panic!("no answer; so far: {out:?}"));
            let end = done(&line);
            out.push(line);
            if end {
                return out;
            }
        }
    }

    /// Sends `cmd` then `isready`: the lines `cmd` answered (without the `readyok`).
    pub(crate) fn ask(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        if cmd != "isready" {
            self.send("isready");
        }
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// `ask` without the search's `info depth` lines.
    pub(crate) fn ask_quiet(&mut self, cmd: &str) -> Vec<String> {
        let mut lines = self.ask(cmd);
        lines.retain(|l| !l.starts_with("info depth"));
        lines
    }

    /// The one line `cmd` answers.
    pub(crate) fn ask_one(&mut self, cmd: &str) -> String {
        let lines = self.ask(cmd);
        assert_eq!(lines.len(), 1, "{cmd}: {lines:?}");
        lines.into_iter().next().unwrap()
    }

    /// Sends a `go` and returns its lines up to `bestmove`, which is last.
    pub(crate) fn go(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        self.until(|l| l.starts_with("bestmove"))
    }

    pub(crate) fn bestmove(&mut self, cmd: &str) -> String {
        let lines = self.go(cmd);
        lines.last().unwrap().clone()
    }

    pub(crate) fn go_until(&mut self, cmd: &str, prefix: &str) -> Vec<String> {
        self.send(cmd);
        self.until(|l| l.starts_with(prefix))
    }

    pub(crate) fn fen(&mut self) -> String {
        self.ask_one("fen")
    }

    /// Asserts that `cmd` is refused with exactly one error line and leaves the position as it
    /// was.
    pub(crate) fn refused(&mut self, cmd: &str) -> String {
        let before = self.fen();
        let line = self.ask_one(cmd);
        assert!(
            line.starts_with("info string error: "),
            "{cmd:?} answered {line:?}"
        );
        assert_eq!(self.fen(), before, "{cmd:?} changed the position");
        line
    }

    pub(crate) fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// What the engine wrote on stderr, once it has ended (`wait_exit`).
    pub(crate) fn stderr(&mut self) -> String {
        self.stderr
            .take()
            .map(|h| h.join().unwrap())
            .unwrap_or_default()
    }

    /// `quit`, and checks a clean exit with nothing alarming on stderr.
    pub(crate) fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit(TIMEOUT).expect("the engine quits");
        assert!(status.success(), "{status:?}");
        let stderr = self.stderr.take().unwrap().join().unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The engine with its three streams piped, for a test that writes its input and reads its
/// output itself.
pub(crate) fn spawn_piped() -> Child {
    crate::shared::moulin()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts")
}

pub(crate) const START: &str = "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1";
pub(crate) const PENDING: &str = "********/********/OO**@@*O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3";
pub(crate) const MOVING: &str = "O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10";

pub(crate) fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key)?;
    words.next()
}

/// Plays `moves` (tokens) and then `answer` (tokens) on the standard start position: true if
/// all are legal.
pub(crate) fn legal(rules: Rules, moves: &str, answer: &str) -> bool {
    let mut game = Game::new(rules);
    game.play_tokens(moves.split_whitespace()).unwrap();
    game.play_tokens(answer.split_whitespace()).is_ok()
}

/// A path for this run's scratch files, named after the process so that concurrent runs keep
/// apart, under Cargo's temporary folder for tests (in `target/`, so nothing is left in the
/// system's temporary folder).
pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-{}-{name}", std::process::id()))
}
