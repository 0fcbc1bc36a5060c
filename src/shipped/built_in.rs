//! The data built into the binary, as Stockfish builds its default network in: the standard
//! game's book, network and opening's solution, read from the checkout's `book/` when the binary
//! is compiled (a changed file rebuilds it). A binary installed with `cargo install` or copied
//! alone to another machine plays, benches and grades as the checkout does, and never reads a
//! checkout's `book/` that a later `git pull` may change.

/// One piece of data built into the binary.
#[derive(Debug)]
pub struct BuiltIn {
    /// Its file name in `book/` (`nine.nnue`).
    pub name: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

impl PartialEq for BuiltIn {
    /// One name, one piece of data: the bytes need no comparing.
    fn eq(&self, other: &BuiltIn) -> bool {
        self.name == other.name
    }
}

impl Eq for BuiltIn {}

/// Every piece of data built in: `book/<name>` at compile time.
static ALL: [BuiltIn; 3] = [
    BuiltIn {
        name: "nine.book",
        bytes: include_bytes!("../../book/nine.book"),
    },
    BuiltIn {
        name: "nine.nnue",
        bytes: include_bytes!("../../book/nine.nnue"),
    },
    BuiltIn {
        name: "nine-opening.sol",
        bytes: include_bytes!("../../book/nine-opening.sol"),
    },
];

/// The data built in under the file name `name` (`nine.nnue`), if any.
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    ALL.iter().find(|b| b.name == name)
}

/// Every piece of data built in.
pub fn all() -> &'static [BuiltIn] {
    &ALL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_data_is_the_checkouts() {
        for b in all() {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("book")
                .join(b.name);
            assert_eq!(std::fs::read(&path).unwrap(), b.bytes, "{}", b.name);
            assert_eq!(built_in(b.name), Some(b));
        }
        assert_eq!(built_in("twelve.nnue"), None);
    }
}
