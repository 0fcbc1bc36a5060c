//! What a loaded piece of data is, said in one line: its kind, where it came from (built into
//! the binary, or a file), its size, the rules it was made for and its checksum. The formats
//! make one as they read a file; the engine names it in its log and its `info string` lines.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where loaded data came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary, under its file name in `book/`.
    BuiltIn(&'static str),
    /// A file.
    File(PathBuf),
}

impl Origin {
    /// The file, if it came from one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Origin::BuiltIn(_) => None,
            Origin::File(path) => Some(path),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::BuiltIn(name) => write!(f, "built-in {name}"),
            Origin::File(path) => path.display().fmt(f),
        }
    }
}

/// What was loaded: `network book/nine.nnue: 108212 bytes, rules 1dc548e062afa670, checksum
/// 0123456789abcdef`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// What it is (`network`, `opening solution`).
    pub kind: &'static str,
    /// Where it came from.
    pub origin: Origin,
    /// Its bytes.
    pub bytes: u64,
    /// The fingerprint of the rules it was made for.
    pub fingerprint: u64,
    /// Its checksum, where its format has one.
    pub checksum: Option<u64>,
}

impl fmt::Display for Loaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {} bytes, rules {:016x}",
            self.kind, self.origin, self.bytes, self.fingerprint
        )?;
        match self.checksum {
            Some(sum) => write!(f, ", checksum {sum:016x}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_loaded_reads_in_one_line() {
        let mut loaded = Loaded {
            kind: "network",
            origin: Origin::File("book/nine.nnue".into()),
            bytes: 108_212,
            fingerprint: 0x1dc5,
            checksum: Some(0xabc),
        };
        assert_eq!(
            loaded.to_string(),
            "network book/nine.nnue: 108212 bytes, rules 0000000000001dc5, checksum \
             0000000000000abc"
        );
        loaded.origin = Origin::BuiltIn("nine.nnue");
        loaded.checksum = None;
        assert_eq!(
            loaded.to_string(),
            "network built-in nine.nnue: 108212 bytes, rules 0000000000001dc5"
        );
    }
}
