//! Tables opened from a folder, whichever kind it holds: a packed set (its manifest:
//! `pack::open`) or built tables (`Tables::open_built`). Above both, so that the loaded tables
//! (`table_set`) know nothing of the packed set that fills them. And the whole placing solution
//! of a folder of either kind, to read group by group (`Tables::whole_placing`).

use super::pack;
use super::placing::solution::{Found, Solution};
use super::scope::unsupported;
use super::table_key::Key;
use super::table_set::Tables;
use super::tables_error::TablesError;
use crate::rules::Rules;
use std::path::Path;
use std::sync::Arc;

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

    /// The whole placing solution of `dir` (a packed set's, or a built one's), `None` when it
    /// has none.
    ///
    /// # Errors
    ///
    /// A set or a solution that cannot be read; a packed set whose placing groups are half
    /// derived from the next (`PlacingDerived`); a built solution with some of its groups only
    /// (`PlacingPartial`).
    pub fn whole_placing(dir: &Path, rules: &Rules) -> Result<Option<Arc<Solution>>, TablesError> {
        if pack::is_set(dir) {
            let manifest = pack::Manifest::read(dir)?;
            if manifest
                .derived
                .iter()
                .any(|d| matches!(d.key, Key::Placing(_)))
            {
                return Err(TablesError::PlacingDerived {
                    dir: dir.to_path_buf(),
                });
            }
            let tables = Tables::open(dir, rules)?;
            return Ok(tables.placing_shared().filter(|s| s.is_whole()));
        }
        match Solution::open(dir, rules)? {
            Found::Whole(s) => Ok(Some(Arc::new(s))),
            Found::Nothing => Ok(None),
            Found::Partial(have, all) => Err(TablesError::PlacingPartial {
                dir: dir.to_path_buf(),
                have,
                all,
            }),
        }
    }
}
