//! A scratch folder for the tables' tests, removed when dropped.

use std::path::PathBuf;

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
