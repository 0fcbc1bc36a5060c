//! Helpers that more than one part of the suite uses: `bounded` runs moulin on a hostile input
//! under a memory and time limit, `terminal` opens a pseudo-terminal.

pub(crate) mod bounded;
pub(crate) mod terminal;

/// The moulin binary as a command, with a cache folder of its own where nothing is installed
/// (`XDG_CACHE_HOME`): a packed set installed on the machine would otherwise be its tables, and
/// a test's answers would depend on the machine it runs on. A test that wants another cache
/// folder sets its own.
pub(crate) fn moulin() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_moulin"));
    command.env("XDG_CACHE_HOME", empty_cache());
    command
}

/// The cache folder `moulin()` gives the binary: nothing is ever installed there.
pub(crate) fn empty_cache() -> std::path::PathBuf {
    std::env::temp_dir()
        .join(format!("moulin-tests-{}", std::process::id()))
        .join("empty-cache")
}

/// The names in `dir`, sorted: what a command left there.
pub(crate) fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
