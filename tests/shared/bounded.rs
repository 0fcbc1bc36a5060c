//! Running moulin on an input that never ends or is huge (`/dev/zero`, a sparse 4 GiB file),
//! watched: its peak memory is read while it runs, and it is killed once past a memory or time
//! limit, so that a reader without a bound fails the test instead of eating the machine.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The most memory a refusal of a hostile input may take (the largest whole-file cap, a book's
/// 64 MB, read once, and the program itself).
pub(crate) const PEAK_MB: i64 = 256;

/// The most time it may take, generous for a shared 2-core machine (it takes well under 1 s).
pub(crate) const SECS: u64 = 30;

/// Waits for `child`, killing it after `limit` or once its peak memory passes `peak_mb`: its
/// exit code (`None` when a signal ended it) and its peak memory in KB.
///
/// The peak is the child's `VmHWM`, read every millisecond while it runs: `getrusage` would
/// count the test process's own memory, which the child shares until its `exec`.
pub(crate) fn wait(child: &mut Child, limit: Duration, peak_mb: i64) -> (Option<i32>, i64) {
    let until = Instant::now() + limit;
    let mut peak = 0;
    loop {
        peak = peak.max(high_water(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), peak);
        }
        if Instant::now() > until || peak > peak_mb << 10 {
            let _ = child.kill();
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// A thread reading `from` to its end (a child's output, which must be read while it runs):
/// join it for the bytes.
pub(crate) fn drain(mut from: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

/// The peak resident memory of moulin running as `pid`, in KB (0 before its `exec` or after
/// its end).
fn high_water(pid: u32) -> i64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    if !status
        .lines()
        .any(|l| l.starts_with("Name:") && l.ends_with("moulin"))
    {
        return 0;
    }
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Runs moulin with `args` (in `dir`, with `XDG_CACHE_HOME` there) and checks that it refuses
/// them at once: it ends by itself within [`SECS`] and [`PEAK_MB`], with exit status 1, no
/// panic, and one line on stderr holding every one of `said`. `what` names the case.
pub(crate) fn refused_in_bounds<S: AsRef<OsStr>>(
    args: &[S],
    dir: &Path,
    what: &str,
    said: &[&str],
) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_moulin"))
        .args(args)
        .current_dir(dir)
        .env("XDG_CACHE_HOME", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = drain(child.stderr.take().unwrap());
    let (code, peak_kb) = wait(&mut child, Duration::from_secs(SECS), PEAK_MB);
    let secs = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let head: String = stderr.chars().take(300).collect();
    assert!(
        peak_kb <= PEAK_MB << 10,
        "{what}: {peak_kb} KB at the peak: {head}"
    );
    assert!(
        secs < SECS as f64,
        "{what}: did not end in {SECS} s: {head}"
    );
    assert_eq!(code, Some(1), "{what}: {head}");
    assert!(!stderr.contains("panicked"), "{what}: {head}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {head}");
    for word in said {
        assert!(stderr.contains(word), "{what}: no {word:?} in {head}");
    }
}

/// The hostile inputs every input file is tried with, made in `dir`: a device that never ends
/// (`/dev/zero`), a sparse 4 GiB file of zero bytes, and one whose first line is a comment (so
/// that it reads as match records or lines, not as PGN) followed by 4 GiB without a line break.
pub(crate) fn hostile_inputs(dir: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let (huge, headed) = (dir.join("huge"), dir.join("headed"));
    std::fs::write(&huge, "").unwrap();
    std::fs::write(&headed, "# a comment\n").unwrap();
    for file in [&huge, &headed] {
        let f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
        f.set_len(4 << 30).unwrap();
    }
    vec![PathBuf::from("/dev/zero"), huge, headed]
}

/// Runs moulin with `args`, in which `INPUT` stands for each of the hostile inputs in turn
/// (made in `dir`, see [`hostile_inputs`]), and checks that each is refused at once
/// ([`refused_in_bounds`]), the error naming the input and holding every one of `said`.
pub(crate) fn hostile_inputs_refused(args: &[&str], dir: &Path, said: &[&str]) {
    for input in hostile_inputs(dir) {
        let args: Vec<&OsStr> = args
            .iter()
            .map(|&a| {
                if a == "INPUT" {
                    input.as_os_str()
                } else {
                    OsStr::new(a)
                }
            })
            .collect();
        let name = input.file_name().unwrap().to_str().unwrap();
        let shown: Vec<_> = args.iter().map(|a| a.to_string_lossy()).collect();
        let what = shown.join(" ");
        let mut words = vec![name];
        // A device is refused by what it is, before a byte is read.
        if input.starts_with("/dev") {
            words.push("a character device");
        } else {
            words.extend(said);
        }
        refused_in_bounds(&args, dir, &what, &words);
    }
}
