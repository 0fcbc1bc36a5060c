//! What the handlers' arguments share, below the dispatch in `mod.rs`: the bound of a search's
//! threads, the opening's solution of the commands that use tables, and the error of a value
//! that clap's own parsers do not check.

use super::failure::Failure;
use crate::rules::Rules;
use crate::search::eval::network::{self, Network};
use crate::tables::placing::opening;
use crate::tables::placing::solution::Solution;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// The network evaluation of a command that searches (`analyse`, `play`): the file `flag` names
/// (`none`: none), else the one that ships for the variant `rules` are (none for custom rules),
/// found as the book is, read and checked, as the engine's `EvalFile` does. A file the user named
/// that cannot be used ends the command; the shipped one that cannot is said in one line on
/// stderr, and the command evaluates without it.
pub(crate) fn network(flag: Option<&Path>, rules: &Rules) -> Result<Option<Arc<Network>>, Failure> {
    let Some(path) = network::chosen_path(flag.map_or("".as_ref(), Path::as_os_str), rules) else {
        return Ok(None);
    };
    match Network::read(&path, rules) {
        Ok(net) => Ok(Some(Arc::new(net))),
        Err(e) if flag.is_some() => Err(Failure::from(e).context("--eval-file").into_usage()),
        Err(e) => {
            eprintln!("moulin: {e}; evaluating without it");
            Ok(None)
        }
    }
}

/// The opening's solution of a command that uses tables (`analyse`, `play`): the file `flag`
/// names (`none`: none), else the default of the variant `rules` are (none for custom rules)
/// found as the book is (`shipped::find_shipped`), read and checked. A file the user named that
/// cannot be used ends the command; the shipped one that cannot is said in one line on stderr,
/// and the command goes on without it.
pub(crate) fn opening_solution(
    flag: Option<&Path>,
    rules: &Rules,
) -> Result<Option<Arc<Solution>>, Failure> {
    let path: PathBuf = match flag {
        Some(p) if p.as_os_str().eq_ignore_ascii_case("none") => return Ok(None),
        Some(p) => p.to_path_buf(),
        None => {
            let Some(name) = rules.preset_name() else {
                return Ok(None);
            };
            let Some(found) = crate::shipped::find_shipped(&opening::file_name(name)) else {
                return Ok(None);
            };
            found
        }
    };
    match opening::read(&path, rules) {
        Ok(o) => {
            log::info!(
                "opening solution {}: plies 0 to {} exact, read in {:.3} s",
                path.display(),
                o.plies,
                o.secs
            );
            Ok(Some(Arc::new(o.solution)))
        }
        Err(e) if flag.is_some() => {
            Err(Failure::from(e).context("--opening-solution").into_usage())
        }
        Err(e) => {
            eprintln!("moulin: opening solution: {e}; going on without it");
            Ok(None)
        }
    }
}
