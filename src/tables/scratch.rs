//! What the tests of the tables and of their users share: a scratch folder, removed when
//! dropped, and the small tables up to 4 a side, built once.

use crate::rules::Rules;
use crate::tables::{schedule, Tables};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// A scratch folder of its own (named after the test and the process), removed when dropped.
pub struct Scratch(pub PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh, empty scratch folder for the test `name`.
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("moulin-tables-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    Scratch(dir)
}

/// The tables up to 4 a side of the standard game (no draw rules), built once.
pub(crate) fn four_a_side() -> &'static Arc<Tables> {
    static BUILT: OnceLock<Arc<Tables>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let rules = Rules::nine().without_draw_rules();
        let mut t = Tables::empty(&rules, 4);
        for (a, b) in [(3, 3), (3, 4), (4, 4)] {
            schedule::solve_into(&mut t, &rules, a, b).unwrap();
        }
        Arc::new(t)
    })
}
