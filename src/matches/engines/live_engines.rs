//! The process groups of the engines running now, so that a signal that ends the runner (Ctrl-C,
//! `kill`, a closed terminal) ends them too: in groups of their own, they are out of reach of the
//! terminal's signals, and a hostile one would not end when its input closes.

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
