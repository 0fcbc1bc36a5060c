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
//! `memory_limit` is the memory this process may use, which sizes such caches by default.

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
    /// `len` words, all zero.
    pub fn zeroed(len: usize) -> Words {
        #[cfg(target_os = "linux")]
        if let Some(w) = Self::mapped(len, 0) {
            return w;
        }
        Self::heap(len)
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

    fn heap(len: usize) -> Words {
        Words {
            inner: Inner::Heap((0..len).map(|_| AtomicU64::new(0)).collect()),
        }
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
            let w = Words::zeroed(len);
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
    fn discarded_words_read_as_zero_and_the_others_keep_theirs() {
        let len = 10_000;
        let mut all = vec![Words::zeroed(len)];
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
