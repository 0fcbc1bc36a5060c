//! What goes wrong with endgame tables, each naming the file or directory and the cause.

use super::groups::Group;
use super::packed_flaw::PackedFlaw;
use crate::box_error::BoxError;
use crate::shipped::HeaderError;
use std::io;
use std::path::PathBuf;

/// What goes wrong with endgame tables: rules they cannot serve, a directory or a file that
/// cannot be read, a file that is damaged or made for other rules, a table missing.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// The rules make a position's value depend on its history (`unsupported`).
    #[error(
        "endgame tables need rules where a re-formed mill is an ordinary mill (Reform allowed): \
         under the others a position's value depends on its history"
    )]
    Unsupported,
    /// The tables directory cannot be listed.
    #[error("cannot read the tables directory {}: {source}", dir.display())]
    ReadDir {
        /// The directory.
        dir: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The disk has less free space than a build is estimated to need.
    #[error(
        "{}: about {:.1} GB are needed for what is left to build and {:.1} GB are free: free \
         some space, give --dir on a larger disk, or --skip-disk-check to start anyway",
        dir.display(),
        *needed as f64 / 1e9,
        *free as f64 / 1e9
    )]
    DiskShort {
        /// The directory built into.
        dir: PathBuf,
        /// The bytes the build is estimated to need.
        needed: u64,
        /// The bytes free.
        free: u64,
    },
    /// A directory holds no table.
    #[error("no endgame tables in {}", dir.display())]
    NoTables {
        /// The directory.
        dir: PathBuf,
    },
    /// A table file cannot be opened, or its size read.
    #[error("{}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A table file's header cannot be read.
    #[error("{}: cannot read a table header: {source}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A table's or a placing group's file whose header (`shipped::header`) is not one of a
    /// table for these rules, or whose values do not give its checksum.
    #[error("{}: {fault}{}", path.display(), advice(fault))]
    HeaderFault {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        fault: HeaderError,
    },
    /// A file whose header names another pair than its name.
    #[error("{}: holds pair {held_mover}-{held_other}, its name says {mover}-{other}", path.display())]
    WrongPair {
        /// The file.
        path: PathBuf,
        /// The mover's pieces in the header.
        held_mover: usize,
        /// The other side's pieces in the header.
        held_other: usize,
        /// The mover's pieces in the file's name.
        mover: usize,
        /// The other side's pieces in the file's name.
        other: usize,
    },
    /// A file that is not a regular file (a named pipe, a folder, a device...).
    #[error("{}: {kind}, not a regular file: not a table", path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is, in words.
        kind: &'static str,
    },
    /// A header whose count of values cannot be the pair's.
    #[error(
        "{}: the header says {slots} values; a {mover}-{other} table has {expected}: the file is \
         damaged; delete it and build it again",
        path.display()
    )]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// The values the header counts.
        slots: u64,
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
        /// The values a table of the pair has.
        expected: u64,
    },
    /// A header whose width byte (bytes per value) is neither 1 nor 2.
    #[error(
        "{}: the header's width byte is {width}; a table has 1 or 2 bytes a value: the header \
         is damaged; delete the file and build it again",
        path.display()
    )]
    BadWidth {
        /// The file.
        path: PathBuf,
        /// The bytes per value the header says.
        width: u8,
    },
    /// A header whose width byte disagrees with the file, which holds its values at the other
    /// width.
    #[error(
        "{}: the header's width byte is {width}, but the file's {bytes} bytes of values are \
         {slots} values of width {}: the header is damaged; delete the file and build it again",
        path.display(),
        3 - width
    )]
    WidthMismatch {
        /// The file.
        path: PathBuf,
        /// The bytes per value the header says.
        width: u8,
        /// The bytes of values in the file.
        bytes: usize,
        /// The values the header counts.
        slots: u64,
    },
    /// A file that ends at or before the end of its header.
    #[error(
        "{}: {len} bytes, no values after the {start}-byte header: the file is cut; build it again",
        path.display()
    )]
    NoValues {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        len: usize,
        /// The header's length in bytes.
        start: usize,
    },
    /// The system refuses to map a file into memory.
    #[error(
        "{}: cannot map the table into memory: {source}{}",
        path.display(),
        map_hint(source)
    )]
    Map {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A file with fewer bytes of values than its header says.
    #[error(
        "{}: {bytes} bytes of values where the header says {slots} values of {width}: the file \
         is cut; build it again",
        path.display()
    )]
    Cut {
        /// The file.
        path: PathBuf,
        /// The bytes of values in the file.
        bytes: usize,
        /// The values the header counts.
        slots: u64,
        /// The bytes per value the header says.
        width: u8,
    },
    /// A file with more bytes of values than its header says.
    #[error(
        "{}: {bytes} bytes of values where the header says {slots} values of {width}: the file \
         has bytes past its values, it is damaged; delete it and build it again",
        path.display()
    )]
    Overlong {
        /// The file.
        path: PathBuf,
        /// The bytes of values in the file.
        bytes: usize,
        /// The values the header counts.
        slots: u64,
        /// The bytes per value the header says.
        width: u8,
    },
    /// A file of a packed set (a packed table, its manifest) that cannot be used: what is
    /// wrong with it.
    #[error("{}: {flaw}", path.display())]
    Packed {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        flaw: PackedFlaw,
    },
    /// A table file cannot be written.
    #[error(transparent)]
    Write(#[from] crate::durable::DurableError),
    /// A removal leads to a pair whose table is not loaded.
    #[error("the table {mover}-{other} is needed first")]
    Missing {
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
    },
    /// A build needs a pair whose table is not in the directory.
    #[error("the table {mover}-{other} is needed first (build it, or build with --pieces)")]
    NotBuilt {
        /// The mover's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
    },
    /// A placing file whose header disagrees with what its name says it holds.
    #[error(
        "{}: {fault}: the file is damaged or misnamed; delete it and build it again",
        path.display()
    )]
    PlacingHeader {
        /// The file.
        path: PathBuf,
        /// What disagrees.
        fault: PlacingFault,
    },
    /// A group of the placing solution needs a group that is not solved yet.
    #[error("the placing group {group} is needed first (build with --placing)")]
    PlacingMissing {
        /// The group, as `<left>-<mover>-<other>`.
        group: String,
    },
    /// A packed set whose placing groups are half derived: not a whole solution to read
    /// group by group.
    #[error(
        "{}: a packed set finds half its placing groups from the next one when probed; use the \
         built solution's directory here",
        dir.display()
    )]
    PlacingDerived {
        /// The set's folder.
        dir: PathBuf,
    },
    /// A placing solution with some of its groups only.
    #[error(
        "{}: the placing solution has {have} of its {all} groups (moulin tables build --placing)",
        dir.display()
    )]
    PlacingPartial {
        /// The tables' folder.
        dir: PathBuf,
        /// The groups there.
        have: usize,
        /// The groups of a whole solution.
        all: usize,
    },
    /// Rules the placing solution cannot be built for.
    #[error("the placing solution is built for rules whose placing has no moves (not lasker) and nine pieces a side at most: {why}")]
    PlacingUnsupported {
        /// What the rules have.
        why: String,
    },
    /// An opening's solution file (`placing::opening`) that is damaged, cut short, made for
    /// other rules or in another format: not used.
    #[error("{origin}: not used: {what}")]
    Opening {
        /// The file, or the built-in data.
        origin: crate::shipped::Origin,
        /// What is wrong with it (`placing::opening::Flaw`).
        what: BoxError,
    },
    /// A distance too long for a table's codes.
    #[error("a distance of more than {max} plies: a table cannot hold it")]
    TooLong {
        /// The longest distance a table holds.
        max: u16,
    },
}

/// What a placing file's header says that its name contradicts.
#[derive(Debug, thiserror::Error)]
pub enum PlacingFault {
    /// Another group, or a game of other pieces a side.
    #[error(
        "holds group {held} of a game of {held_pieces} pieces a side, not {group} of {pieces}"
    )]
    OtherGroup {
        /// The group its header names.
        held: Group,
        /// The pieces a side its header names.
        held_pieces: u8,
        /// The group its name says.
        group: Group,
        /// The pieces a side of the game.
        pieces: u8,
    },
    /// A count of values that is not the group's.
    #[error("{slots} values, a group {group} has {expected}")]
    Slots {
        /// The values its header counts.
        slots: u64,
        /// The group.
        group: Group,
        /// The values the group has.
        expected: u64,
    },
    /// Bytes of values that are not what its values take.
    #[error("{bytes} bytes of values, {slots} values take {need}")]
    Bytes {
        /// The bytes of values in the file.
        bytes: usize,
        /// The values its header counts.
        slots: u64,
        /// The bytes they take.
        need: usize,
    },
}

/// What to do about a table file whose header is refused.
fn advice(fault: &HeaderError) -> &'static str {
    match fault {
        HeaderError::NotThisKind { .. } | HeaderError::Version { .. } => "",
        HeaderError::OtherRules { .. } => ": build tables for these rules in another directory",
        HeaderError::Checksum { .. } => "; delete it and build it again",
        HeaderError::Cut { .. } => ": not a whole table; delete it and build it again",
    }
}

/// What a refused mapping most likely means, where it is the address space that ran out: a
/// mapping takes the file's size of it, whatever is read.
fn map_hint(e: &io::Error) -> &'static str {
    if e.raw_os_error() == Some(libc::ENOMEM) {
        "; the address space this process may use is too small for the tables (its limit, \
         `ulimit -v`, counts every table mapped, or the system commits no more)"
    } else {
        ""
    }
}
