//! Input files read with a bound on memory, whatever the path names: a regular file, a device
//! that never ends (`/dev/zero`), a named pipe, a huge sparse file. A file is read a line at a
//! time, each line at most a stated length ([`lines`], [`read_line`]), or whole up to a stated
//! size ([`read_to_string`]). A longer line is an error naming it by number, a larger file one
//! stating the cap, both within the memory of the cap: the size a file's metadata gives is never
//! trusted (a device gives 0). The errors travel inside an `io::Error` (kind `InvalidData`), so
//! each reader's own error, which names the file, says them.
//!
//! Every data file is opened here without waiting and refused if it is not a regular file
//! ([`open_regular`], [`not_regular`]): a named pipe would make a reader wait forever, a device
//! read without end. The outputs' counterpart is `durable`, which refuses the same files.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufRead, BufReader, ErrorKind, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// What a file that is not a regular file is, in words (`a named pipe`), or `None` for a
/// regular file: a command reads and writes only regular files, and names what is there
/// instead.
pub fn not_regular(m: &Metadata) -> Option<&'static str> {
    let t = m.file_type();
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "a special file"
    })
}

/// A file a command reads or writes is not a regular file: the error inside the I/O error of
/// `open_regular` and `write_atomic`, so that each caller's error names the file as for any
/// other failure (`cannot read x: it is a named pipe, not a regular file`).
#[derive(Debug, thiserror::Error)]
#[error("it is {kind}, not a regular file")]
pub struct NotRegular {
    /// What it is, in words (`not_regular`).
    pub kind: &'static str,
}

impl NotRegular {
    /// The I/O error of a file that is `kind`.
    pub(crate) fn error(kind: &'static str) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidInput, NotRegular { kind })
    }

    /// What the file was, if `e` is the error of one that is not a regular file.
    pub fn kind_in(e: &io::Error) -> Option<&'static str> {
        e.get_ref()?.downcast_ref::<NotRegular>().map(|n| n.kind)
    }
}

/// Opens `path` (a regular file, or a link to one) for reading without waiting: a named pipe or
/// a device opens at once, never waiting for a writer, and anything but a regular file is then
/// refused (`NotRegular`), so that a reader neither waits forever nor reads without end.
pub fn open_regular(path: &Path) -> io::Result<File> {
    open_regular_with(File::options().read(true), path)
}

/// Opens `path` as `open_regular` does, with `options` (to read and write a file in place, as
/// a resumed match's records are).
pub fn open_regular_with(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    regular(options.custom_flags(libc::O_NONBLOCK).open(path)?)
}

/// The open `file` if it is a regular file, else the error naming what it is.
pub(crate) fn regular(file: File) -> io::Result<File> {
    match not_regular(&file.metadata()?) {
        Some(kind) => Err(NotRegular::error(kind)),
        None => Ok(file),
    }
}

/// The longest line of a line-based input file (match records, labels, critical suites,
/// journals): far beyond any line moulin writes (a records line of a 1,000-turn game, with
/// its notes, is under 100 kB), and small enough that a file without a line break is refused
/// at once.
pub const MAX_LINE: usize = 1 << 20;

/// Why an input was not read (inside an `io::Error` of kind `InvalidData`).
#[derive(Debug, thiserror::Error)]
pub enum Bound {
    /// A line longer than the cap.
    #[error("line {line} is longer than the {} a line may be: not read", size(*max as u64))]
    LineTooLong {
        /// Its number, from 1.
        line: usize,
        /// The cap, in bytes.
        max: usize,
    },
    /// A line that is not UTF-8 text.
    #[error("line {line} is not UTF-8 text")]
    NotText {
        /// Its number, from 1.
        line: usize,
    },
    /// A file larger than the cap.
    #[error("larger than the {} it may be: not read", size(*max))]
    TooLarge {
        /// The cap, in bytes.
        max: u64,
    },
}

impl From<Bound> for io::Error {
    fn from(b: Bound) -> io::Error {
        io::Error::new(ErrorKind::InvalidData, b)
    }
}

/// A size as an error states it: `64 MB`, or bytes when it is not a whole number of MB.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Appends to `buf` what `input` holds up to and including its next line break, as
/// `BufRead::read_until` does, but never more than `max` bytes before the break: a longer
/// line is the error [`Bound::LineTooLong`], naming it as line `number`. Returns the bytes
/// read, 0 at the end of the input.
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
    number: usize,
) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let used = newline.map_or(available.len(), |n| n + 1);
        if read + newline.unwrap_or(available.len()) > max {
            return Err(Bound::LineTooLong { line: number, max }.into());
        }
        buf.extend_from_slice(&available[..used]);
        input.consume(used);
        read += used;
        if newline.is_some() {
            return Ok(read);
        }
    }
}

/// The lines of an input (see [`lines`]).
pub struct Lines<R> {
    input: R,
    max: usize,
    number: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Iterator for Lines<R> {
    /// A line's number (from 1) and its text, without its line break nor a `\r` before it.
    type Item = io::Result<(usize, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.number += 1;
        self.buf.clear();
        let line = match read_line(&mut self.input, &mut self.buf, self.max, self.number) {
            Ok(0) => None,
            Ok(_) => {
                let text = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
                let text = text.strip_suffix(b"\r").unwrap_or(text);
                Some(
                    std::str::from_utf8(text)
                        .map(str::to_string)
                        .map_err(|_| Bound::NotText { line: self.number }.into()),
                )
            }
            Err(e) => Some(Err(e)),
        };
        // After an error the input's place is lost: the lines end there.
        self.done = !matches!(line, Some(Ok(_)));
        line.map(|r| r.map(|text| (self.number, text)))
    }
}

/// The lines of `input`, numbered from 1, each at most `max` bytes: a longer line, or one that
/// is not UTF-8, is an error and the last item.
pub fn lines<R: BufRead>(input: R, max: usize) -> Lines<R> {
    Lines {
        input,
        max,
        number: 0,
        buf: Vec::new(),
        done: false,
    }
}

/// The lines of the file at `path`, each at most [`MAX_LINE`] bytes (see [`lines`]).
pub fn open_lines(path: &Path) -> io::Result<Lines<BufReader<File>>> {
    Ok(lines(BufReader::new(open_regular(path)?), MAX_LINE))
}

/// At most `max` bytes of `input`: more is the error [`Bound::TooLarge`], found after reading
/// `max + 1` bytes, never more.
pub fn read_capped(input: impl Read, max: u64) -> io::Result<Vec<u8>> {
    read_capped_into(input, max, Vec::new())
}

/// The bytes of the regular file `file` (at most `max`, else [`Bound::TooLarge`]), read into
/// a buffer of its size at once: no growing copies of a large file.
pub fn read_file_capped(file: File, max: u64) -> io::Result<Vec<u8>> {
    let size = file.metadata()?.len().min(max.saturating_add(1));
    let capacity = usize::try_from(size).unwrap_or(0);
    read_capped_into(file, max, Vec::with_capacity(capacity))
}

/// `read_capped` into `bytes`, already sized.
fn read_capped_into(input: impl Read, max: u64, mut bytes: Vec<u8>) -> io::Result<Vec<u8>> {
    input.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(Bound::TooLarge { max }.into());
    }
    Ok(bytes)
}

/// The text of the regular file at `path` (`open_regular`: a named pipe or a device is
/// refused without waiting), when it holds at most `max` bytes of UTF-8 (else an error,
/// [`Bound::TooLarge`] stating the cap).
pub fn read_to_string(path: &Path, max: u64) -> io::Result<String> {
    text(read_capped(open_regular(path)?, max)?)
}

/// The text of whatever `path` names, a named pipe included (read until its writer closes it:
/// for a reader on a thread of its own, such as the engine's book), at most `max` bytes of
/// UTF-8 as [`read_to_string`] reads.
pub fn read_stream_to_string(path: &Path, max: u64) -> io::Result<String> {
    text(read_capped(File::open(path)?, max)?)
}

/// `bytes` as text, or the error saying they are not.
fn text(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes).map_err(|_| io::Error::new(ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], max: usize) -> Vec<Result<(usize, String), String>> {
        lines(text, max)
            .map(|l| l.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn lines_are_numbered_and_lose_their_breaks() {
        assert_eq!(
            all(b"a\r\n\nbc", 4),
            vec![
                Ok((1, "a".into())),
                Ok((2, String::new())),
                Ok((3, "bc".into()))
            ]
        );
        assert!(all(b"", 4).is_empty());
    }

    #[test]
    fn a_line_longer_than_the_cap_is_the_last_item_and_names_its_number() {
        assert_eq!(
            all(b"abcd\nabcde\nx\n", 4),
            vec![
                Ok((1, "abcd".into())),
                Err("line 2 is longer than the 4 bytes a line may be: not read".into())
            ]
        );
        // A line break never counts: a cap of 0 takes empty lines only.
        assert_eq!(all(b"\n\n", 0).len(), 2);
    }

    #[test]
    fn an_endless_input_without_a_break_ends_at_the_cap() {
        let zeros = io::repeat(0).take(u64::MAX);
        let got: Vec<_> = lines(BufReader::new(zeros), MAX_LINE).collect();
        assert_eq!(got.len(), 1);
        let e = got.into_iter().next().unwrap().unwrap_err().to_string();
        assert_eq!(e, "line 1 is longer than the 1 MB a line may be: not read");
    }

    #[test]
    fn a_line_not_utf8_is_named() {
        assert_eq!(
            all(b"ok\n\xff\n", 8)[1],
            Err("line 2 is not UTF-8 text".into())
        );
    }

    #[test]
    fn read_capped_reads_at_most_one_byte_past_the_cap() {
        assert_eq!(read_capped(&b"abcd"[..], 4).unwrap(), b"abcd");
        let e = read_capped(io::repeat(0), 64 << 20).unwrap_err();
        assert_eq!(e.to_string(), "larger than the 64 MB it may be: not read");
        let e = read_capped(&b"abcde"[..], 4).unwrap_err();
        assert_eq!(e.to_string(), "larger than the 4 bytes it may be: not read");
    }
}
