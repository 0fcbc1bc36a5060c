//! Which table a file of a packed set holds: a moving table or a placing group, named by four
//! bytes in its header and by its path in the set.

use crate::tables::groups::Group;

/// Which table a packed table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// The moving table of `mover` pieces (the side to move's) against `other`.
    Moving(u8, u8),
    /// A group of the placing solution.
    Placing(Group),
}

impl Key {
    /// The four bytes a packed table's header names it by.
    pub fn bytes(self) -> [u8; 4] {
        match self {
            Key::Moving(m, o) => [1, m, o, 0],
            Key::Placing(g) => [2, g.left, g.mover, g.other],
        }
    }

    /// The table four header bytes name, if any.
    pub fn from_bytes(b: [u8; 4]) -> Option<Key> {
        match b {
            [1, m, o, 0] => Some(Key::Moving(m, o)),
            [2, left, mover, other] => Some(Key::Placing(Group { left, mover, other })),
            _ => None,
        }
    }

    /// The key of a file name as a set's manifest lists it (`file_name`).
    pub fn from_file_name(name: &str) -> Option<Key> {
        let stem = |prefix: &str| name.strip_prefix(prefix)?.strip_suffix(".pk");
        if let Some(pair) = stem("moving/") {
            let (m, o) = pair.split_once('-')?;
            return Some(Key::Moving(m.parse().ok()?, o.parse().ok()?));
        }
        Some(Key::Placing(Group::parse(stem("placing/")?)?))
    }

    /// The packed file's name in a packed set: `moving/<m>-<o>.pk`, `placing/<l>-<m>-<o>.pk`.
    pub fn file_name(self) -> String {
        match self {
            Key::Moving(m, o) => format!("moving/{m}-{o}.pk"),
            Key::Placing(g) => format!("placing/{g}.pk"),
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Moving(m, o) => write!(f, "moving {m}-{o}"),
            Key::Placing(g) => write!(f, "placing {g}"),
        }
    }
}
