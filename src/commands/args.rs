//! What the handlers' arguments share, below the dispatch in `mod.rs`: the bound of a search's
//! threads, the engine's settings and files of the commands that play or analyse, and the error
//! of a value that clap's own parsers do not check.

use super::failure::{Context, Failure};
use moulin::engine::{self, Done, Listener, Note, Part, Settings};
use moulin::rules::Rules;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// The value parser of the `--threads` of a command whose threads search one position
/// together or solve one each (`bench`, `analyse`, `solve`, `openings`, `book cover`, `book
/// exact`): 1 to the search's `MAX_THREADS` (64), the bound of the protocol's `Threads`.
pub(crate) fn search_threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=moulin::search::MAX_THREADS as u64)
}

/// A value of the command line refused by a parser of ours (`--clock`, a pair, perft's depth):
/// what was expected, as clap shows it after the value.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BadValue(pub(crate) String);

/// The files a command that plays or analyses names (`--tables`, `--opening-solution`,
/// `--eval-file`); one not named is the engine's default (the installed tables, the shipped
/// opening's solution and network), `none` none.
pub(crate) struct EngineFiles<'a> {
    pub(crate) tables: Option<&'a Path>,
    pub(crate) opening_solution: Option<&'a Path>,
    pub(crate) eval_file: Option<&'a Path>,
}

/// The engine's settings of a command that plays or analyses under `rules`, with the files
/// `files` name, each named one read as the engine would: one that cannot be used ends the
/// command (a usage error naming the flag and the file).
pub(crate) fn engine_settings(rules: Rules, files: &EngineFiles) -> Result<Settings, Failure> {
    let shown = |p: Option<&Path>| p.map_or(String::new(), |p| p.to_string_lossy().into_owned());
    let mut settings = Settings {
        rules,
        ..Settings::default()
    };
    let named = [
        ("TablesPath", Part::Tables, "--tables", files.tables),
        (
            "OpeningSolution",
            Part::OpeningSolution,
            "--opening-solution",
            files.opening_solution,
        ),
        ("EvalFile", Part::Network, "--eval-file", files.eval_file),
    ];
    for (option, _, flag, path) in named {
        settings
            .set(option, Some(&shown(path)))
            .context(format!("{flag} {}", shown(path)))?;
    }
    for (_, part, flag, path) in named {
        if path.is_some() {
            engine::check_named(&settings, part).map_err(|e| {
                Failure::from(e)
                    .context(format!("{flag} {}", shown(path)))
                    .into_usage()
            })?;
        }
    }
    Ok(settings)
}

/// The engine's files that `settings` name, read at once (`analyse`): one of the defaults that
/// cannot be used is said in one line on stderr and left out; one of the files `files` name ends
/// the command.
pub(crate) fn read_knowledge(
    settings: &Settings,
    files: &EngineFiles,
) -> Result<engine::Knowledge, Failure> {
    let ears = Collected::default();
    let knowledge = engine::Knowledge::read(settings, &ears);
    let notes = ears.0.into_inner().unwrap_or_else(PoisonError::into_inner);
    for note in notes {
        let named = match &note {
            Note::Missing { part, .. } | Note::Unusable { part, .. } => match part {
                Part::Tables => Some(("--tables", files.tables)),
                Part::OpeningSolution => Some(("--opening-solution", files.opening_solution)),
                Part::Network => Some(("--eval-file", files.eval_file)),
                Part::Book => None,
            },
            _ => None,
        };
        match named {
            Some((flag, Some(path))) => {
                let what = format!("{flag} {}", path.display());
                return Err(Failure::from(note.to_string()).context(&what).into_usage());
            }
            _ if note.is_error() => eprintln!("moulin: {note}"),
            _ => log::info!("{note}"),
        }
    }
    Ok(knowledge)
}

/// Ears that keep what the engine notes, to be said once it is read.
#[derive(Default)]
struct Collected(Mutex<Vec<Note>>);

impl Listener for Collected {
    fn note(&self, note: Note) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(note);
    }

    fn done(&self, _: Done) {}
}
