//! What the handlers' arguments share, below the dispatch in `mod.rs`: the bound of a search's
//! threads, and the error of a value that clap's own parsers do not check.

/// The value parser of the `--threads` of a command whose threads search one position
/// together or solve one each (`bench`, `analyse`, `solve`, `openings`, `book cover`, `book
/// exact`): 1 to the search's `MAX_THREADS` (64), the bound of the protocol's `Threads`.
pub(crate) fn search_threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=crate::search::MAX_THREADS as u64)
}

/// A value of the command line refused by a parser of ours (`--clock`, a pair, perft's depth):
/// what was expected, as clap shows it after the value.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BadValue(pub(crate) String);
