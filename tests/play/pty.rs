//! The harness: `moulin play` on a real pseudo-terminal (openpty), written to as a person's
//! terminal would (a whole burst in one write, as a paste or a fast typist sends it), with
//! everything it has shown kept for the checks.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

/// `moulin play` with a pseudo-terminal for its standard input, output and error.
pub(crate) struct Pty {
    master: File,
    child: Child,
    /// Everything the program wrote, escape sequences included.
    shown: Arc<Mutex<String>>,
}

impl Pty {
    /// Starts `moulin play ARGS` on a new pseudo-terminal of 120 columns and 50 rows.
    pub(crate) fn start(args: &str) -> Pty {
        Pty::start_with(&args.split_whitespace().collect::<Vec<_>>())
    }

    /// `moulin play` with `args` as given (one of them may hold spaces).
    pub(crate) fn start_with(args: &[&str]) -> Pty {
        let (master, slave) = crate::shared::terminal::open(50, 120);
        let mut cmd = crate::shared::moulin();
        cmd.arg("play")
            .args(args)
            .stdin(slave.try_clone().unwrap())
            .stdout(slave.try_clone().unwrap())
            .stderr(slave)
            .env("TERM", "xterm")
            .env_remove("NO_COLOR");
        // SAFETY: only async-signal-safe calls between fork and exec: the child leads a session
        // of its own whose controlling terminal is the pseudo-terminal (its standard input).
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("moulin play starts");
        // The parent's copies of the terminal's side close here, so that reading the master
        // ends when the program does.
        drop(cmd);
        let shown = Arc::new(Mutex::new(String::new()));
        let mut reader = master.try_clone().unwrap();
        let into = Arc::clone(&shown);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                into.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Pty {
            master,
            child,
            shown,
        }
    }

    /// Writes `bytes` to the terminal in one write, as a paste arrives.
    pub(crate) fn burst(&self, bytes: &str) {
        let n = (&self.master).write(bytes.as_bytes()).unwrap();
        assert_eq!(n, bytes.len(), "one write");
    }

    /// Types `text` and Enter, in one write.
    pub(crate) fn keys(&self, text: &str) {
        self.burst(&format!("{text}\r"));
    }

    /// Types `line` and Enter (one write) and waits until what follows satisfies `done`.
    pub(crate) fn answer(&self, line: &str, what: &str, done: impl Fn(&str) -> bool) -> String {
        let mark = self.mark();
        self.keys(line);
        self.wait_since(mark, what, done)
    }

    /// Everything shown so far.
    pub(crate) fn text(&self) -> String {
        self.shown.lock().unwrap().clone()
    }

    /// How much has been shown: a mark for `since`.
    pub(crate) fn mark(&self) -> usize {
        self.shown.lock().unwrap().len()
    }

    /// What was shown after `mark`.
    pub(crate) fn since(&self, mark: usize) -> String {
        self.shown.lock().unwrap()[mark..].to_string()
    }

    /// Waits until what was shown after `mark` satisfies `done`, and returns it.
    pub(crate) fn wait_since(
        &self,
        mark: usize,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> String {
        let until = Instant::now() + TIMEOUT;
        loop {
            let t = self.since(mark);
            if done(&t) {
                return t;
            }
            assert!(
                Instant::now() < until,
                "waited for {what}; the terminal shows since then:\n{t}"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until everything shown satisfies `done`.
    pub(crate) fn wait(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        self.wait_since(0, what, done)
    }

    /// Waits up to five seconds for the program to end; its exit status.
    pub(crate) fn wait_end(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Some(s) = self.child.try_wait().unwrap() {
                return Some(s);
            }
            thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
