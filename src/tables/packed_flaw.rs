//! What is wrong with a file of a packed set (`TablesError::Packed`, which names the file): a
//! packed table's header, index or blocks, the manifest, or a file against what the manifest
//! says of it. Each says it in words; below the error, above the table's key and the frame.

use super::frame::FrameError;
use super::table_key::Key;
use crate::shipped::HeaderError;

/// Why a block of a packed table is not used.
#[derive(Debug, thiserror::Error)]
pub enum BlockFault {
    /// The index no longer points inside the file.
    #[error("lies outside the file: it changed")]
    Outside,
    /// Its frame does not unpack to the block's bytes.
    #[error("{0}")]
    Frame(#[from] FrameError),
    /// Its bytes do not give the index's checksum.
    #[error("checksum mismatch")]
    Checksum,
    /// It unpacks to bytes that are not its values' coding (`packed_coding`).
    #[error("does not decode to its values")]
    Coding,
}

/// What is wrong with a file of a packed set.
#[derive(Debug, thiserror::Error)]
pub enum PackedFlaw {
    /// A table file whose header is not a packed table's of this version, made for the rules
    /// in force, or whose header and index do not give their checksum (`shipped::header`).
    #[error("{0}")]
    Header(#[from] HeaderError),
    /// A header whose key bytes name no table.
    #[error("its header names no table")]
    NoKey,
    /// A table file that holds another table than its name's.
    #[error("holds {held}, not {want}")]
    OtherTable {
        /// The table its header names.
        held: Key,
        /// The table asked for.
        want: Key,
    },
    /// A header whose width, block size or length cannot be.
    #[error("its header is damaged")]
    DamagedHeader,
    /// A file shorter than its index.
    #[error("cut: {bytes} bytes, its index alone takes {index}")]
    CutIndex {
        /// The file's bytes.
        bytes: u64,
        /// The bytes up to the end of its index.
        index: u64,
    },
    /// A file of another length than its index says.
    #[error(
        "{bytes} bytes where its index says {expected}: the file is cut or has bytes after its end"
    )]
    Length {
        /// The file's bytes.
        bytes: u64,
        /// The bytes its index says.
        expected: u64,
    },
    /// An index whose offsets do not rise.
    #[error("its index is damaged")]
    DamagedIndex,
    /// The frames take more bytes than the index can say (format 3: four bytes an offset).
    #[error("its frames take {bytes} bytes, more than a packed table's index holds (4 GiB)")]
    TooLarge {
        /// The frames' bytes.
        bytes: u64,
    },
    /// A block that does not unpack to its checksum.
    #[error("frame {block} {fault}: the file is damaged")]
    Block {
        /// The frame (a block in format 2; one or more in format 3).
        block: usize,
        /// What is wrong with it.
        fault: BlockFault,
    },
    /// The values do not give the checksum of the table file they were made from.
    #[error("checksum mismatch of its values: the file is damaged")]
    ValuesChecksum,
    /// A manifest without its end line.
    #[error("not a whole manifest (no end line): the file is cut")]
    ManifestCut,
    /// A manifest whose lines do not give its end line's checksum.
    #[error("checksum mismatch: the manifest is damaged")]
    ManifestChecksum,
    /// A file whose first line is not a set manifest's.
    #[error("not the manifest of a moulin packed set")]
    NotManifest,
    /// A manifest line missing or out of place.
    #[error("expected a '{name}' line, found '{found}'")]
    ExpectedLine {
        /// The line's name.
        name: &'static str,
        /// The line found instead.
        found: String,
    },
    /// A manifest of another format.
    #[error("format {found}; this moulin reads format {reads}")]
    ManifestFormat {
        /// The format it names.
        found: String,
        /// The format this build reads.
        reads: u32,
    },
    /// A fingerprint line that does not read.
    #[error("a damaged fingerprint line: '{line}'")]
    FingerprintLine {
        /// The line's words after its name.
        line: String,
    },
    /// A pieces line that does not read.
    #[error("a damaged pieces line")]
    PiecesLine,
    /// A file or derived line that does not read.
    #[error("a damaged line: '{line}'")]
    DamagedLine {
        /// The line.
        line: String,
    },
    /// The manifest cannot be read.
    #[error("{0}")]
    Unreadable(std::io::Error),
    /// The manifest is not text.
    #[error("not text: not a manifest")]
    NotText,
    /// A set made for other rules.
    #[error("made for other rules ({made_for}; the rules in force: {in_force})")]
    OtherRules {
        /// The rules its manifest names.
        made_for: String,
        /// The rules in force, as a manifest names them.
        in_force: String,
    },
    /// A manifest that lists a table the game has not.
    #[error("lists a table this game has not: the manifest is damaged")]
    ForeignTable,
    /// A derived table whose slots are not its key's.
    #[error("says {key} has {said} slots, not {has}")]
    DerivedSlots {
        /// The table.
        key: Key,
        /// The slots the manifest says.
        said: u64,
        /// The slots its key's table has.
        has: u64,
    },
    /// A derived moving table without the stored tables its values come from.
    #[error("derives {key} without the tables it needs")]
    DerivesWithoutTables {
        /// The table.
        key: Key,
    },
    /// A derived placing group without a stored group or moving table its placements lead to
    /// (or under rules whose placing moves pieces too).
    #[error("derives {key} without the groups or tables its placements lead to")]
    DerivesWithoutGroup {
        /// The group.
        key: Key,
    },
    /// A file of another size than the manifest lists.
    #[error("{bytes} bytes, the manifest says {listed}: the file is cut or altered")]
    Size {
        /// The file's bytes.
        bytes: u64,
        /// The bytes listed.
        listed: u64,
    },
    /// A placing group's table whose slots are not its group's.
    #[error("says {said} slots; {key} has {has}")]
    Slots {
        /// The slots its header says.
        said: u64,
        /// The group.
        key: Key,
        /// The group's slots.
        has: u64,
    },
    /// A table whose values are not as long as its key's table.
    #[error("{bytes} bytes of values; {key} has {want}")]
    ValuesLength {
        /// The bytes of values its header says.
        bytes: u64,
        /// The table.
        key: Key,
        /// The bytes of values its key's table has.
        want: u64,
    },
    /// A file that changed while it was read whole.
    #[error("changed while read ({read} bytes of {len})")]
    ChangedWhileRead {
        /// The bytes read.
        read: u64,
        /// The bytes it had when opened.
        len: u64,
    },
    /// A file whose size or checksum is not what the manifest lists.
    #[error("{size} bytes, checksum {sum:016x}; the manifest says {listed_size} bytes, {listed_sum:016x}: the file is cut or altered")]
    Altered {
        /// The file's bytes.
        size: u64,
        /// Its checksum.
        sum: u64,
        /// The bytes listed.
        listed_size: u64,
        /// The checksum listed.
        listed_sum: u64,
    },
    /// A moving table whose header's longest distance is not its values'.
    #[error("says its longest distance is {said}; its values hold {held}")]
    Longest {
        /// The header's.
        said: u64,
        /// The values'.
        held: u16,
    },
}
