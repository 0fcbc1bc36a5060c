//! A mapped table file cut short (or unreadable: a disk error) while it is read: the system
//! answers a read of a page past the file's new end with SIGBUS, whose default ends the process.
//! Once `catch_faults` has run, a SIGBUS at an address of a registered mapping (`register`)
//! instead marks that mapping (`Guard::faulted`) and puts a page of zeros where the page was, so
//! the read goes on and its reader, seeing the mark, drops the value. A SIGBUS anywhere else goes
//! to the handler that was there before (Rust's own, or the default), as if this one were not.
//!
//! The registry is a fixed array of address ranges read with atomics only, as a signal handler
//! may; `mmap` in the handler is a plain system call on Linux (not on POSIX's list of
//! async-signal-safe functions, but it takes no lock in user space).

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// How many mappings can be guarded at once (the tables up to 9 pieces a side are 49 files; a
/// set being read again lives beside the one in force).
const SLOTS: usize = 1024;

/// One guarded mapping: the bytes `start..end` (`start` 0: the slot is free).
struct Slot {
    taken: AtomicBool,
    start: AtomicUsize,
    end: AtomicUsize,
    faulted: AtomicBool,
}

static REGISTRY: [Slot; SLOTS] = [const {
    Slot {
        taken: AtomicBool::new(false),
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
    }
}; SLOTS];

/// The page size, read when the handler is put in place.
static PAGE: AtomicUsize = AtomicUsize::new(0);

/// The SIGBUS handler in place before ours; `Err` the system's error number if ours could not
/// be put in place.
static PREVIOUS: OnceLock<Result<libc::sigaction, i32>> = OnceLock::new();

/// A mapping's place in the registry, given back when dropped.
#[derive(Debug)]
pub struct Guard(usize);

impl Guard {
    /// Whether a page of the mapping was cut away while read (and now reads as zeros).
    #[inline]
    pub fn faulted(&self) -> bool {
        REGISTRY[self.0].faulted.load(Ordering::Acquire)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let slot = &REGISTRY[self.0];
        slot.start.store(0, Ordering::Release);
        slot.end.store(0, Ordering::Release);
        slot.faulted.store(false, Ordering::Release);
        slot.taken.store(false, Ordering::Release);
    }
}

/// Registers the mapped bytes `start..start + len`; `None` when every slot is taken (the
/// mapping is then not guarded: a SIGBUS in it ends the process, as without `catch_faults`).
pub fn register(start: usize, len: usize) -> Option<Guard> {
    let i = REGISTRY.iter().position(|s| {
        s.taken
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    })?;
    let slot = &REGISTRY[i];
    slot.faulted.store(false, Ordering::Release);
    // The end first: the handler reads `start` (not 0) before `end`.
    slot.end.store(start + len, Ordering::Release);
    slot.start.store(start, Ordering::Release);
    Some(Guard(i))
}

/// Puts the SIGBUS handler in place, once for the process; the error if the system refused.
pub fn catch_faults() -> io::Result<()> {
    let done = PREVIOUS.get_or_init(|| {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        PAGE.store(usize::try_from(page).unwrap_or(4096), Ordering::Release);
        // SAFETY: zeroed `sigaction`s are valid values to fill; `sigaction` reads `new` and
        // writes `old`, both live for the call. The handler only touches atomics and makes
        // system calls.
        unsafe {
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_sigbus as *const () as usize;
            new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&raw mut new.sa_mask);
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGBUS, &raw const new, &raw mut old) == 0 {
                Ok(old)
            } else {
                Err(io::Error::last_os_error().raw_os_error().unwrap_or(0))
            }
        }
    });
    match done {
        Ok(_) => Ok(()),
        Err(code) => Err(io::Error::from_raw_os_error(*code)),
    }
}

/// The registered slot whose bytes hold `addr`.
fn slot_of(addr: usize) -> Option<usize> {
    REGISTRY.iter().position(|s| {
        let start = s.start.load(Ordering::Acquire);
        start != 0 && start <= addr && addr < s.end.load(Ordering::Acquire)
    })
}

extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid `siginfo_t` to an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    if let Some(i) = slot_of(addr) {
        REGISTRY[i].faulted.store(true, Ordering::SeqCst);
        let page = PAGE.load(Ordering::Acquire).max(1);
        let at = addr & !(page - 1);
        // SAFETY: replaces one page inside a registered mapping (it stays registered until
        // unmapped, and the guard goes first) with a private page of zeros: the read that
        // faulted, run again on return, reads 0.
        let zeros = unsafe {
            libc::mmap(
                at as *mut libc::c_void,
                page,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if zeros != libc::MAP_FAILED {
            return;
        }
    }
    // SAFETY: the arguments are the kernel's, passed on unchanged.
    unsafe { pass_on(sig, info, context) };
}

/// Hands a SIGBUS that is not ours to the handler that was in place before; for the default (or
/// none), puts the default back, so the fault, met again on return, ends the process as it
/// would have.
unsafe fn pass_on(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    let previous = match PREVIOUS.get() {
        Some(Ok(old)) if old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN => {
            Some(*old)
        }
        _ => None,
    };
    match previous {
        // SAFETY: a handler the system held for this signal, called as its flags say it takes
        // its arguments.
        Some(old) if old.sa_flags & libc::SA_SIGINFO != 0 => unsafe {
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                std::mem::transmute(old.sa_sigaction);
            handler(sig, info, context);
        },
        // SAFETY: as above, a handler of one argument.
        Some(old) => unsafe {
            let handler: extern "C" fn(libc::c_int) = std::mem::transmute(old.sa_sigaction);
            handler(sig);
        },
        // SAFETY: `signal` is async-signal-safe.
        None => unsafe {
            libc::signal(sig, libc::SIG_DFL);
        },
    }
}
