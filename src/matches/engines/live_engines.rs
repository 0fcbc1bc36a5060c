//! The process groups of the engines running now, so that a signal that ends the runner (Ctrl-C,
//! `kill`, a closed terminal) ends them too: in groups of their own, they are out of reach of the
//! terminal's signals, and a hostile one would not end when its input closes.
//!
//! The signal kills the engines at once; then it ends the runner by its default action, or,
//! after [`defer_end`], is noted ([`interrupted`]) for the caller to finish what it shows and end
//! the process by it ([`end_by`]); a second signal ends it at once.
//!
//! A helper that leaves its engine's group (`setsid`, a daemon's double fork) is out of reach of
//! the group's end. After [`adopt_orphans`] (Linux: `PR_SET_CHILD_SUBREAPER`) such a helper,
//! orphaned, becomes the runner's child instead of init's: [`end_orphans`] kills and reaps
//! every one at the end, and the orphans of an ended engine's group, dead, are reaped as the
//! engine is ([`reap_dead_orphans`]), so that none piles up as a zombie over a long match.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Once;

/// Engines running at once: two per game thread, and room to spare.
const SLOTS: usize = 1024;
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
/// Set by the handler before it looks at `GROUPS`: no engine is started after that.
static ENDING: AtomicBool = AtomicBool::new(false);
/// Threads between starting an engine and noting its group; the handler waits for them.
static SPAWNING: AtomicUsize = AtomicUsize::new(0);
/// Set by `defer_end`: the handler leaves the end to the caller.
static DEFERRED: AtomicBool = AtomicBool::new(false);
/// The ending signal received, 0 before any.
static SIGNALLED: AtomicI32 = AtomicI32::new(0);
static HANDLERS: Once = Once::new();

/// A thread starting an engine, from before the process exists until its group is noted.
/// The ending signals are blocked in this thread meanwhile, so that the handler runs in
/// another one and can wait for this section to end.
pub struct Spawning {
    blocked: libc::sigset_t,
}

impl Spawning {
    /// Enters the section; `None` once an ending signal came and its end is deferred (no
    /// engine is started then). Once the runner is ending by the signal's default action it
    /// never returns: the handler is killing the engines and then ends the runner by its
    /// signal, and a start refused meanwhile must not end the match first as if an engine had
    /// failed (exit 1).
    pub fn enter() -> Option<Spawning> {
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
            if DEFERRED.load(Ordering::SeqCst) {
                return None;
            }
            loop {
                std::thread::park();
            }
        }
        Some(section)
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

/// Set by `adopt_orphans` once the runner is its engines' orphans' reaper.
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes the runner the parent of every orphan among its descendants (Linux:
/// `PR_SET_CHILD_SUBREAPER`), so that a helper that left its engine's group (`setsid`) is still
/// within reach: [`end_orphans`] ends them. For a process that starts no child of its own but
/// engines (a command, never a library's caller at large). Whether it holds: false off Linux or
/// when the system refuses.
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `prctl` with PR_SET_CHILD_SUBREAPER takes an integer and changes a flag of
        // this process only.
        let done = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0;
        ADOPTING.store(done, Ordering::SeqCst);
        done
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// A child of this process, as `/proc` shows it.
struct ChildProcess {
    pid: libc::pid_t,
    group: libc::pid_t,
    dead: bool,
}

/// The children of this process (read from `/proc`; none where it cannot be read).
fn children() -> Vec<ChildProcess> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`: the name may hold spaces and parentheses.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let (Some(state), Some(ppid), Some(group)) = (
            fields.first(),
            fields.get(1).and_then(|p| p.parse::<u32>().ok()),
            fields.get(2).and_then(|g| g.parse().ok()),
        ) else {
            continue;
        };
        if ppid == me {
            found.push(ChildProcess {
                pid,
                group,
                dead: matches!(*state, "Z" | "X"),
            });
        }
    }
    found
}

/// Reaps the dead orphans adopted from engines' groups: children whose group is neither their
/// own nor the runner's, which no engine is (an engine leads its group from its start; before
/// that it is in the runner's). Called as an engine is ended, from any thread.
pub fn reap_dead_orphans() {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    // SAFETY: `getpgrp` only reads this process's group.
    let own_group = unsafe { libc::getpgrp() };
    for child in children() {
        if child.dead && child.group != child.pid && child.group != own_group {
            // SAFETY: reaps one child of ours that is no engine, already dead: never blocks.
            unsafe {
                libc::waitpid(child.pid, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
    }
}

/// Kills and reaps every child of the runner that is not a running engine: the helpers its
/// engines left behind, adopted by [`adopt_orphans`] (and, in turn, the children of those).
/// For the end, once every engine has been ended and none is being started. The number reaped.
pub fn end_orphans() -> usize {
    if !ADOPTING.load(Ordering::SeqCst) {
        return 0;
    }
    let engines: Vec<libc::pid_t> = GROUPS
        .iter()
        .map(|g| g.load(Ordering::SeqCst))
        .filter(|&g| g > 0)
        .collect();
    let mut ended = 0;
    // A helper killed leaves its own children to the runner: rounds until none is left.
    for _ in 0..100 {
        let orphans: Vec<ChildProcess> = children()
            .into_iter()
            .filter(|c| !engines.contains(&c.pid))
            .collect();
        if orphans.is_empty() {
            break;
        }
        for orphan in &orphans {
            // SAFETY: the orphan is an unreaped child of ours, so neither its id nor the group
            // it leads can have been given to another process.
            unsafe {
                if orphan.group == orphan.pid {
                    libc::kill(-orphan.pid, libc::SIGKILL);
                }
                libc::kill(orphan.pid, libc::SIGKILL);
            }
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        for orphan in &orphans {
            loop {
                // SAFETY: waits for one child of ours, without blocking.
                let done =
                    unsafe { libc::waitpid(orphan.pid, std::ptr::null_mut(), libc::WNOHANG) };
                if done != 0 || std::time::Instant::now() > deadline {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            ended += 1;
        }
    }
    ended
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

/// From now on an ending signal kills the engines and is noted, and the process goes on: its
/// caller sees it in [`interrupted`], and ends the process by it with [`end_by`].
pub fn defer_end() {
    DEFERRED.store(true, Ordering::SeqCst);
    HANDLERS.call_once(install);
}

/// The ending signal received (SIGINT, SIGTERM, SIGHUP), if one came.
pub fn interrupted() -> Option<libc::c_int> {
    match SIGNALLED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Ends the process by `signal`, its default action restored first, as the signal would have
/// ended it.
pub fn end_by(signal: libc::c_int) -> ! {
    // SAFETY: restoring a signal's default action and raising it pass no memory.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
    // An ending signal blocked in this thread: the shell's status for it.
    std::process::exit(128 + signal)
}

extern "C" fn on_signal(signal: libc::c_int) {
    // A second signal, or an end not deferred: the default action once the engines are killed.
    let deferred = DEFERRED.load(Ordering::SeqCst) && !ENDING.load(Ordering::SeqCst);
    let _ = SIGNALLED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
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
    if deferred {
        return;
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
