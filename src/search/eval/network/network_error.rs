//! A network that cannot be used: its file cannot be read, or its bytes are not a network for
//! these rules (`Flaw`).

use super::nnue_file::Flaw;
use crate::shipped::Origin;

/// A network that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be opened or read.
    #[error("network: {origin}: cannot read: {source}")]
    Read {
        /// The file.
        origin: Origin,
        /// The system's error.
        source: std::io::Error,
    },
    /// The bytes are not a network this engine can use.
    #[error("network: {origin}: not used: {flaw}")]
    Flawed {
        /// The file, or the built-in data.
        origin: Origin,
        /// What is wrong with it.
        flaw: Flaw,
    },
}
