//! The integration tests, one test binary: each file or folder under `tests/` is one module of
//! it, named for what it checks (`protocol`, `tables`, `reference`...), and `tests/data/` holds
//! their data. One binary links the library once, where a binary a file linked it twenty times
//! (Cargo.toml turns off cargo's discovery of `tests/*.rs` and names this file). Run a part
//! with a filter on the module path: `cargo test --test suite protocol::`, `cargo test --test
//! suite tables::agree`; the slow checks sit behind `#[ignore]` (README, "Slow checks").
//!
//! The modules share one process: each keeps its files under names of its own (with the process
//! id). `every_file_under_tests_is_a_module_of_the_suite` fails when a file under `tests/` is left
//! out, which cargo would otherwise never build.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod analyse;
mod bench_quoted;
mod book;
mod docs;
mod files;
// `match` is a keyword: the module of tests/match/ is `matches`, as src/matches/ is.
#[path = "match/mod.rs"]
mod matches;
mod output;
mod outputs;
mod perft;
mod pgn;
mod play;
mod protocol;
mod reference;
mod rules;
mod search;
mod shared;
mod solve;
mod tables;
mod train;
mod webdriver;

#[test]
fn every_file_under_tests_is_a_module_of_the_suite() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = std::fs::read_to_string(tests.join("suite.rs")).unwrap();
    let declared: Vec<&str> = suite
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let module = if path.is_dir() {
            if name == "data" {
                continue;
            }
            assert!(path.join("mod.rs").is_file(), "{name}/ has no mod.rs");
            if name == "match" {
                "matches".to_string()
            } else {
                name.clone()
            }
        } else if let Some(stem) = name.strip_suffix(".rs") {
            stem.to_string()
        } else {
            continue;
        };
        if module != "suite" && !declared.contains(&module.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "not modules of tests/suite.rs, so never built: {missing:?}"
    );
}
