//! A pseudo-terminal (openpty), for the tests that run moulin on a terminal: the master side the
//! test writes to and reads from as the person at the terminal, and the terminal side the
//! program gets as its standard input (and output).

use std::fs::File;
use std::os::fd::FromRawFd;

/// A new pseudo-terminal of `cols` columns and `rows` rows: (master, terminal).
pub(crate) fn open(rows: u16, cols: u16) -> (File, File) {
    let (mut master, mut terminal) = (-1, -1);
    let size = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: the pointers are to live locals; openpty writes the two descriptors.
    let r = unsafe {
        libc::openpty(
            &raw mut master,
            &raw mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            &raw const size,
        )
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // openpty leaves the descriptors open across exec: closed there, an engine that another test
    // of the suite starts meanwhile does not keep the terminal open after its program has ended.
    for fd in [master, terminal] {
        // SAFETY: fcntl on descriptors openpty has just given us.
        let r = unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        assert_eq!(r, 0, "fcntl: {}", std::io::Error::last_os_error());
    }
    // SAFETY: openpty gave these descriptors to us alone.
    unsafe { (File::from_raw_fd(master), File::from_raw_fd(terminal)) }
}
