//! The bytes free on a file system, as a job that writes large files checks before it starts
//! (an install, a table build).

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The bytes free for this user on the file system of `dir` (which must exist).
pub fn free_bytes(dir: &Path) -> io::Result<u64> {
    let c = CString::new(dir.as_os_str().as_bytes())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let mut s = std::mem::MaybeUninit::<libc::statvfs>::zeroed();
    // SAFETY: `c` is a NUL-terminated path that outlives the call, and `s` is a buffer of the
    // struct's size that statvfs fills when it returns 0.
    let r = unsafe { libc::statvfs(c.as_ptr(), s.as_mut_ptr()) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: statvfs returned 0, so it filled the struct.
    let s = unsafe { s.assume_init() };
    // The fields are u32 on some targets, u64 on others.
    #[allow(clippy::useless_conversion)]
    Ok(u64::from(s.f_bavail).saturating_mul(u64::from(s.f_frsize)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_folder_has_some_bytes_free_and_a_missing_one_is_an_error() {
        let tmp = std::env::temp_dir();
        assert!(super::free_bytes(&tmp).unwrap() > 0);
        assert!(super::free_bytes(&tmp.join("no-such-folder-here/x")).is_err());
    }
}
