//! Running moulin on a file or on input, with its wall time and its peak memory.

use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

/// What a run of moulin did.
pub(crate) struct Run {
    /// The exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    /// The standard output.
    pub stdout: String,
    /// The standard error, as bytes (to see control bytes as they came).
    pub stderr: Vec<u8>,
    /// Wall time, in seconds.
    pub secs: f64,
    /// Peak resident memory, in KB.
    pub peak_kb: i64,
}

impl Run {
    /// The standard error as text.
    pub fn err(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// Checks that moulin ended by itself, with no panic and no crash, within `secs` and
    /// `peak_mb` of memory; `what` names the case in a failure.
    pub fn sane(&self, what: &str, secs: f64, peak_mb: i64) {
        let head = super::harness::head(&self.err());
        assert!(
            matches!(self.code, Some(0 | 1)),
            "{what}: exit {:?}: {head}",
            self.code
        );
        assert!(!head.contains("panicked"), "{what}: {head}");
        assert!(self.secs < secs, "{what}: {:.2} s: {head}", self.secs);
        assert!(
            self.peak_kb < peak_mb << 10,
            "{what}: {} KB at the peak: {head}",
            self.peak_kb
        );
    }
}

/// The first 300 characters of `text`, for a failure message.
pub(crate) fn head(text: &str) -> String {
    text.chars().take(300).collect()
}

/// A path in this run's temporary folder (emptied once per run).
pub(crate) fn temp(name: &str) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("moulin-pgn-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    });
    dir.join(name)
}

/// Writes `bytes` to the temporary file `name`; its path.
pub(crate) fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs moulin with `args` and `input` on its standard input, killed after a minute.
pub(crate) fn run(args: &[&str], input: &[u8]) -> Run {
    let started = Instant::now();
    let mut child = crate::shared::moulin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let reader = crate::shared::bounded::drain(child.stdout.take().unwrap());
    let err_reader = crate::shared::bounded::drain(child.stderr.take().unwrap());
    let (code, peak_kb) = crate::shared::bounded::wait(&mut child, Duration::from_mins(1), 4 << 10);
    let stdout = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let stderr = err_reader.join().unwrap();
    let _ = writer.join();
    Run {
        code,
        stdout,
        stderr,
        secs: started.elapsed().as_secs_f64(),
        peak_kb,
    }
}

/// `n` tag pairs, each named differently, one a line.
pub(crate) fn tags(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("[T{i} \"v\"]\n"));
    }
    text
}
