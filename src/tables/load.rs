//! Tables opened from a folder, whichever kind it holds: a packed set (its manifest:
//! `pack::open`) or built tables (`Tables::open_built`). Above both, so that the loaded tables
//! (`table_set`) know nothing of the packed set that fills them.

use super::pack;
use super::scope::unsupported;
use super::table_set::Tables;
use super::tables_error::TablesError;
use crate::rules::Rules;
use std::path::Path;

impl Tables {
    /// The tables of a packed set when `dir` is one (`pack::open`), else the built tables of
    /// `dir` with their placing solution when it is there whole (`Tables::open_built`).
    pub fn open(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
        if pack::is_set(dir) {
            return pack::open(dir, rules);
        }
        Tables::open_built(dir, rules)
    }

    /// The moving tables of `dir`, a packed set's (without its placing) or built ones
    /// (`Tables::open_built_moving`).
    pub fn open_moving(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
        if let Some(why) = unsupported(rules) {
            return Err(why);
        }
        if pack::is_set(dir) {
            // A packed set serves its moving tables as the built ones do.
            let mut tables = pack::open(dir, rules)?;
            tables.drop_placing();
            return Ok(tables);
        }
        Tables::open_built_moving(dir, rules)
    }
}
