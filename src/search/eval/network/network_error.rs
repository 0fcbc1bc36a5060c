//! A network file that cannot be used: it cannot be read, or its bytes are not a network for
//! these rules (`Flaw`).

use super::nnue_file::Flaw;
use std::path::PathBuf;

/// A network file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be opened or read.
    #[error("network: {}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file is not a network this engine can use.
    #[error("network: {}: not used: {flaw}", path.display())]
    Flawed {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        flaw: Flaw,
    },
}
