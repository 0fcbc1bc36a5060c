//! Words of memory hit at random: the search's transposition table and the packed set's memo of
//! derived values are arrays of `AtomicU64` of tens of megabytes or more, each probe a word
//! anywhere in them. In pages of 4 KiB every such probe also misses the processor's table of
//! pages (a walk of the page tables, itself a few loads from memory); in huge pages (2 MiB on
//! x86-64 Linux) the pages of 64 MiB are 32, which that table holds.
//!
//! `Words` is such an array, zero at first: on Linux an anonymous mapping advised to be backed by
//! huge pages (transparent huge pages, where the system allows them: `madvise` mode is the common
//! default), whose pages the kernel gives zeroed when first touched, so a large table costs
//! nothing until it is used; elsewhere, or when the mapping fails, an ordinary allocation.
//!
//! Memory can be refused: under an address-space limit (`ulimit -v`, `RLIMIT_AS`, which counts
//! every mapping, reserved or not) or strict overcommit, a mapping or an allocation fails. So
//! `Words` are made fallibly (`zeroed`, `zeroed_at_most`: `None`, or fewer words, never an
//! abort), and each cache or table sizes itself first: `memory_limit` is the memory this process
//! may use (the machine's, or its control group's), `room_left` the address space (or commit) it
//! may still take, and `within_limits` the share of both that one cache may take now.

use std::sync::atomic::AtomicU64;

/// A fixed number of `AtomicU64`, all zero at first.
pub struct Words {
    inner: Inner,
}

enum Inner {
    /// An anonymous mapping of `len` words.
    #[cfg(target_os = "linux")]
    Mapped { base: *mut AtomicU64, len: usize },
    /// An ordinary allocation.
    Heap(Box<[AtomicU64]>),
}

// SAFETY: the mapping is owned by this value alone and only reached through `&[AtomicU64]`,
// which is `Send` and `Sync` (atomics).
unsafe impl Send for Words {}
// SAFETY: as above.
unsafe impl Sync for Words {}

impl Words {
    /// `len` words, all zero; `None` when the memory is refused (an address-space limit, strict
    /// overcommit): the caller goes without, or asks for fewer.
    pub fn zeroed(len: usize) -> Option<Words> {
        #[cfg(target_os = "linux")]
        if let Some(w) = Self::mapped(len, 0) {
            return Some(w);
        }
        Self::heap(len)
    }

    /// No words.
    pub fn empty() -> Words {
        Words {
            inner: Inner::Heap(Box::default()),
        }
    }

    /// The most words that can be had of `len`, `len / 2`, `len / 4`... down to `least`, all
    /// zero, made by `make` (`Words::zeroed`, or `Words::reserved` where room may be reserved);
    /// none (`Words::empty`) when not even `least` can be had.
    pub fn at_most(len: usize, least: usize, make: impl Fn(usize) -> Option<Words>) -> Words {
        let mut len = len;
        while len >= least.max(1) {
            if let Some(w) = make(len) {
                return w;
            }
            len /= 2;
        }
        Words::empty()
    }

    /// Up to `len` words, all zero, of which only those written to take memory: on Linux a
    /// mapping whose memory is not set aside in advance (`MAP_NORESERVE`), so that a cache
    /// may reserve room for its largest size and use what its size of the moment allows;
    /// `None` elsewhere (the caller allocates what it uses now).
    pub fn reserved(len: usize) -> Option<Words> {
        #[cfg(target_os = "linux")]
        return Self::mapped(len, libc::MAP_NORESERVE);
        #[cfg(not(target_os = "linux"))]
        return {
            let _ = len;
            None
        };
    }

    /// `len` words of the heap, zeroed by the allocator (a large allocation is a fresh mapping
    /// whose pages are taken when first touched); `None` when the allocator refuses.
    fn heap(len: usize) -> Option<Words> {
        let inner = Inner::Heap(zeroed_box(len)?);
        Some(Words { inner })
    }

    /// An anonymous mapping of `len` words (with the extra mapping `flags`) advised for huge
    /// pages; `None` when it fails.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, flags: libc::c_int) -> Option<Words> {
        let bytes = len.checked_mul(std::mem::size_of::<AtomicU64>())?;
        if bytes == 0 {
            return None;
        }
        // SAFETY: a fresh private anonymous mapping, checked before use; its pages read as
        // zeros, which is an `AtomicU64` of 0.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | flags,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: advice on the mapping just made; where huge pages are off it is refused,
        // harmlessly.
        unsafe { libc::madvise(base, bytes, libc::MADV_HUGEPAGE) };
        Some(Words {
            inner: Inner::Mapped {
                base: base.cast(),
                len,
            },
        })
    }

    /// Gives back the memory of words `from..to` (they read as zero after): on Linux the whole
    /// pages among them are returned to the system; elsewhere, and at the edges, the words are
    /// set to zero. The caller makes sure nobody uses them meanwhile.
    pub fn discard(&self, from: usize, to: usize) {
        let to = to.min(self.len());
        if from >= to {
            return;
        }
        #[allow(unused_mut)]
        let (mut first, mut last) = (from, to);
        #[cfg(target_os = "linux")]
        if let Inner::Mapped { base, .. } = self.inner {
            // SAFETY: `sysconf` only reads the system's configuration.
            let page_bytes = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            let page = usize::try_from(page_bytes).unwrap_or(0) / std::mem::size_of::<AtomicU64>();
            if page > 0 {
                let (a, b) = (from.next_multiple_of(page), to / page * page);
                // SAFETY: whole pages inside the mapping; an anonymous private page given
                // back reads as zeros when next touched.
                let given_back = a < b
                    && unsafe {
                        libc::madvise(
                            base.add(a).cast(),
                            (b - a) * std::mem::size_of::<AtomicU64>(),
                            libc::MADV_DONTNEED,
                        )
                    } == 0;
                if given_back {
                    for w in &self[from..a] {
                        w.store(0, std::sync::atomic::Ordering::Relaxed);
                    }
                    (first, last) = (b, to);
                }
            }
        }
        for w in &self[first..last] {
            w.store(0, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The words.
    #[inline]
    pub fn as_slice(&self) -> &[AtomicU64] {
        match &self.inner {
            // SAFETY: `base` is a live mapping of `len` words (dropped only with `self`), read
            // and written through atomics only.
            #[cfg(target_os = "linux")]
            Inner::Mapped { base, len } => unsafe { std::slice::from_raw_parts(*base, *len) },
            Inner::Heap(words) => words,
        }
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        self.as_slice()
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Inner::Mapped { base, len } = self.inner {
            // SAFETY: the mapping made in `mapped`, of that many bytes, no longer borrowed.
            unsafe {
                libc::munmap(base.cast(), len * std::mem::size_of::<AtomicU64>());
            }
        }
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Words({})", self.len())
    }
}

/// `len` zero `AtomicU64` of the heap; `None` when the allocator refuses.
fn zeroed_box(len: usize) -> Option<Box<[AtomicU64]>> {
    if len == 0 {
        return Some(Box::default());
    }
    let ptr = alloc_zeroed_array::<AtomicU64>(len)?;
    // SAFETY: an allocation of the global allocator with the layout of `len` `AtomicU64` (the
    // layout a box of them frees with), its bytes zero: `len` atomics holding 0.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) })
}

/// `len` words of the heap, all zero, or `None` when the allocator refuses (`vec![0; len]`
/// would end the process): a large one is a fresh mapping whose pages are taken when first
/// touched.
pub fn zeroed_vec(len: usize) -> Option<Vec<u64>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let ptr = alloc_zeroed_array::<u64>(len)?;
    // SAFETY: an allocation of the global allocator with the layout of `len` `u64` (the layout
    // a box of them frees with), its bytes zero: `len` words holding 0.
    let words = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
    Some(words.into_vec())
}

/// An allocation of `len` (at least one) `T`, its bytes zero; `None` when the allocator
/// refuses or the size overflows. The caller makes sure zero bytes are a `T`.
fn alloc_zeroed_array<T>(len: usize) -> Option<*mut T> {
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: a layout of non-zero size; the result is checked for null.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    (!ptr.is_null()).then_some(ptr)
}

/// The share of the memory this process may use, and of the room it has left (`room_left`),
/// that one cache or table made now may take of `wanted` bytes: half of each, so that what
/// comes after it (the threads, the other caches, the tables it maps) finds room too.
pub fn within_limits(wanted: usize) -> usize {
    let room = room_left().map_or(usize::MAX, |b| usize::try_from(b / 2).unwrap_or(usize::MAX));
    within_memory(wanted).min(room)
}

/// `wanted` bytes, or half the memory this process may use (`memory_limit`) if that is less:
/// the most one cache may keep.
pub fn within_memory(wanted: usize) -> usize {
    let memory =
        memory_limit().map_or(usize::MAX, |b| usize::try_from(b / 2).unwrap_or(usize::MAX));
    wanted.min(memory)
}

/// The bytes this process may still map now, where more than the machine's memory bounds it:
/// its address-space limit (`RLIMIT_AS`, `ulimit -v`, which counts every mapping, the reserved
/// ones too) less what it has mapped (`VmSize`), and under strict overcommit
/// (`vm.overcommit_memory` 2) what the system may still commit; `None` where neither bounds it.
pub fn room_left() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let address = address_space_limit()
            .map(|limit| limit.saturating_sub(kilobytes(&status, "VmSize:").unwrap_or(0)));
        let strict = std::fs::read_to_string("/proc/sys/vm/overcommit_memory")
            .is_ok_and(|mode| mode.trim() == "2");
        let commit = strict
            .then(|| std::fs::read_to_string("/proc/meminfo").ok())
            .flatten()
            .and_then(|info| commit_left(&info));
        match (address, commit) {
            (Some(a), Some(c)) => Some(a.min(c)),
            (a, c) => a.or(c),
        }
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The soft address-space limit (`RLIMIT_AS`) in bytes; `None` when there is none.
#[cfg(target_os = "linux")]
fn address_space_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes the limit into the struct given, which lives through the call.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &raw mut limit) } == 0;
    (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// The bytes of a `<field> <n> kB` line of a `/proc` file's `text`.
fn kilobytes(text: &str, field: &str) -> Option<u64> {
    let kb = text.lines().find_map(|l| l.strip_prefix(field))?;
    let kb: u64 = kb.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// What the system may still commit, from `/proc/meminfo`'s `info`: `CommitLimit` less
/// `Committed_AS` (the limit that strict overcommit enforces).
fn commit_left(info: &str) -> Option<u64> {
    let limit = kilobytes(info, "CommitLimit:")?;
    Some(limit.saturating_sub(kilobytes(info, "Committed_AS:")?))
}

/// The bytes of memory this process may use: the machine's, or less where its control group
/// (cgroup v1 or v2) sets a limit; `None` where it cannot be found.
pub fn memory_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` only reads the system's configuration.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let machine = (pages > 0 && size > 0).then(|| pages as u64 * size as u64);
        let group = std::fs::read_to_string("/proc/self/cgroup")
            .ok()
            .and_then(|groups| cgroup_limit(&groups, |path| std::fs::read_to_string(path).ok()));
        match (machine, group) {
            (Some(m), Some(g)) => Some(m.min(g)),
            (m, g) => m.or(g),
        }
    }
    #[cfg(not(unix))]
    None
}

/// The memory limit of the control group `groups` (the text of `/proc/self/cgroup`) names,
/// reading its files with `read`: the least of the limits of its group and every group above
/// it (a container often sees its own group as the root of the hierarchy: the root's file
/// then holds its limit), cgroup v2's `memory.max` or v1's `memory.limit_in_bytes` (no limit:
/// `max`, or a number past any machine's memory).
fn cgroup_limit(groups: &str, read: impl Fn(&str) -> Option<String>) -> Option<u64> {
    let mut least: Option<u64> = None;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (root, file) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
        } else {
            continue;
        };
        let mut group = path.trim_end_matches('/');
        loop {
            let limit = read(&format!("{root}{group}/{file}"))
                .and_then(|t| t.trim().parse::<u64>().ok())
                .filter(|&l| l < 1 << 60);
            if let Some(l) = limit {
                least = Some(least.map_or(l, |m| m.min(l)));
            }
            match group.rfind('/') {
                Some(i) => group = &group[..i],
                None => break,
            }
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn words_start_at_zero_and_keep_what_is_stored() {
        for len in [1, 1000, 1 << 20] {
            let w = Words::zeroed(len).expect("memory");
            assert_eq!(w.len(), len);
            assert!(w.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            w[0].store(u64::MAX, Ordering::Relaxed);
            w[len / 2].store(7, Ordering::Relaxed);
            assert_eq!(w[len / 2].load(Ordering::Relaxed), 7);
            assert_eq!(
                w[0].load(Ordering::Relaxed),
                if len == 1 { 7 } else { u64::MAX }
            );
        }
    }

    #[test]
    fn a_control_groups_memory_limit_is_found_in_either_version() {
        let files = |path: &str| match path {
            "/sys/fs/cgroup/memory/m8/memory.limit_in_bytes" => Some("8589934592\n".to_string()),
            "/sys/fs/cgroup/memory/memory.limit_in_bytes" => Some("9223372036854771712\n".into()),
            "/sys/fs/cgroup/user.slice/memory.max" => Some("4294967296\n".to_string()),
            "/sys/fs/cgroup/free/memory.max" => Some("max\n".to_string()),
            _ => None,
        };
        let v1 = "12:cpuset:/\n5:memory:/m8\n1:name=systemd:/x\n";
        assert_eq!(cgroup_limit(v1, files), Some(8 << 30));
        assert_eq!(cgroup_limit("5:cpu,memory:/\n", files), None, "no limit");
        assert_eq!(cgroup_limit("0::/user.slice\n", files), Some(4 << 30));
        assert_eq!(cgroup_limit("0::/free\n", files), None);
        assert_eq!(cgroup_limit("", files), None);
        assert_eq!(
            cgroup_limit("garbage\n0::/user.slice\n", files),
            Some(4 << 30)
        );
        // A group with no limit of its own under one that has one; a container whose own group
        // is the root it sees (the path names the host's group, whose file is not there).
        assert_eq!(cgroup_limit("0::/user.slice/a/b\n", files), Some(4 << 30));
        let container = |path: &str| {
            (path == "/sys/fs/cgroup/memory/memory.limit_in_bytes").then(|| "2147483648".into())
        };
        assert_eq!(
            cgroup_limit("4:memory:/docker/abc\n", container),
            Some(2 << 30)
        );
        assert!(memory_limit().is_some_and(|m| m > 1 << 20));
    }

    #[test]
    fn the_heap_gives_zeroed_words_or_none_and_a_shrinking_request_takes_what_it_can() {
        for len in [0, 1, 3, 1 << 20] {
            let w = Words::heap(len).expect("memory");
            assert_eq!(w.len(), len);
            assert!(w.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            let v = zeroed_vec(len).expect("memory");
            assert!(v.len() == len && v.iter().all(|&x| x == 0));
        }
        // More than any address space: refused, not an abort.
        assert!(Words::heap(usize::MAX / 8).is_none());
        assert!(Words::zeroed(1 << 60).is_none());
        assert!(zeroed_vec(1 << 60).is_none());
        // Halved until given: 1000 refused, 500 refused, 250 given.
        let w = Words::at_most(1000, 10, |n| (n <= 300).then(|| Words::zeroed(n)).flatten());
        assert_eq!(w.len(), 250);
        let none = Words::at_most(1000, 600, |n| {
            (n <= 300).then(|| Words::zeroed(n)).flatten()
        });
        assert!(none.is_empty());
        // Nothing left to keep: a cache takes nothing.
        assert!(within_limits(1 << 20) <= 1 << 20);
    }

    #[test]
    fn the_room_left_is_read_from_the_system_files() {
        let status = "Name:\tmoulin\nVmPeak:\t  500 kB\nVmSize:\t  441624 kB\nVmRSS:\t 39144 kB\n";
        assert_eq!(kilobytes(status, "VmSize:"), Some(441_624 * 1024));
        assert_eq!(kilobytes(status, "VmSwap:"), None);
        assert_eq!(kilobytes("VmSize: lots kB\n", "VmSize:"), None);
        let info = "MemTotal: 100 kB\nCommitLimit:    2000 kB\nCommitted_AS:   1500 kB\n";
        assert_eq!(commit_left(info), Some(500 * 1024));
        let over = "CommitLimit: 1000 kB\nCommitted_AS: 1500 kB\n";
        assert_eq!(commit_left(over), Some(0));
        assert_eq!(commit_left("CommitLimit: 1000 kB\n"), None);
    }

    #[test]
    fn discarded_words_read_as_zero_and_the_others_keep_theirs() {
        let len = 10_000;
        let mut all = vec![
            Words::zeroed(len).expect("memory"),
            Words::heap(len).expect("memory"),
        ];
        all.extend(Words::reserved(len));
        for w in &all {
            for (i, x) in w.iter().enumerate() {
                x.store(i as u64 + 1, Ordering::Relaxed);
            }
            w.discard(3, 9_000);
            for (i, x) in w.iter().enumerate() {
                let expected = if (3..9_000).contains(&i) {
                    0
                } else {
                    i as u64 + 1
                };
                assert_eq!(x.load(Ordering::Relaxed), expected, "word {i}");
            }
        }
    }
}
