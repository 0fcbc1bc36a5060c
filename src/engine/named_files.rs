//! A file the user named in a setting (`EvalFile`, `OpeningSolution`, `TablesPath`,
//! `BookFile`), read as the engine would read it, before anything is played: the user named it,
//! so a file that cannot be used is an error that ends the command, not a fallback noted later.
//! `none` and the empty default are no files.

use super::options::Settings;
use super::report::{LoadError, Part};
use crate::box_error::BoxError;
use crate::rules::Rules;
use std::path::Path;

/// Whether the setting of `part` in `settings` names a file, and reads it as the engine would
/// under `settings`' rules: a packed set is opened (its manifest and headers, quick); a folder
/// of built tables is listed, not read (checking every byte of the whole game's 11.9 GB is the
/// engine's work, whose errors name the file).
///
/// # Errors
///
/// The file named cannot be used: why.
pub fn check_named(settings: &Settings, part: Part) -> Result<(), LoadError> {
    let named = |value: &str| crate::shipped::names_a_file(value.as_ref());
    let rules = &settings.rules;
    let failed = |e: BoxError| LoadError::Failed(e);
    match part {
        Part::Network if named(&settings.eval_file) => {
            crate::search::eval::network::Network::read(Path::new(&settings.eval_file), rules)
                .map(drop)
                .map_err(|e| failed(e.into()))
        }
        Part::OpeningSolution if named(&settings.opening_solution) => {
            crate::tables::placing::opening::read(Path::new(&settings.opening_solution), rules)
                .map(drop)
                .map_err(|e| failed(e.into()))
        }
        Part::Tables
            if named(&settings.tables_path)
                && !crate::tables::pack::is_installed_word(&settings.tables_path) =>
        {
            tables_there(Path::new(&settings.tables_path), rules).map_err(failed)
        }
        Part::Book if named(&settings.book_file) => {
            crate::book::Book::load(Path::new(&settings.book_file))
                .map(drop)
                .map_err(|e| failed(e.into()))
        }
        _ => Ok(()),
    }
}

/// Whether `dir` holds tables for `rules`.
fn tables_there(dir: &Path, rules: &Rules) -> Result<(), BoxError> {
    use crate::tables::{file, pack, TablesError};
    if pack::is_set(dir) {
        return pack::open(dir, rules).map(drop).map_err(Into::into);
    }
    if file::list(dir)?.is_empty() {
        return Err(TablesError::NoTables {
            dir: dir.to_path_buf(),
        }
        .into());
    }
    Ok(())
}
