//! The documents cite the repository as it is: every relative link of README.md, protocol.md,
//! book/README.md and docs/ leads to a file or folder that exists, and every repository path
//! they quote in backticks (`src/...`, `tests/...`, `docs/...`, `book/...`, `scripts/...`,
//! `examples/...`) exists too.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use std::path::{Path, PathBuf};

/// Files a command writes while it runs, which the documents name but the repository does not
/// hold.
const WRITTEN_AT_RUN: [&str; 1] = ["book/nine.book.expand.partial"];

/// The documents checked, relative to the repository's root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["README.md", "protocol.md", "book/README.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

/// The targets of the relative Markdown links `[text](target)` of `text`, without anchors.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split('#').next().unwrap_or("");
        let external = target.contains("://") || target.starts_with("mailto:");
        if !target.is_empty() && !external && !target.contains(char::is_whitespace) {
            out.push(target.to_string());
        }
    }
    out
}

/// The repository paths quoted in backticks in `text`.
fn quoted_paths(text: &str) -> Vec<String> {
    const ROOTS: [&str; 6] = ["src/", "tests/", "docs/", "book/", "scripts/", "examples/"];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| ROOTS.iter().any(|r| q.starts_with(r)))
        .filter(|q| {
            q.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
        })
        .map(|q| q.trim_end_matches('.').to_string())
        .collect()
}

#[test]
fn every_path_the_documents_cite_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        let dir = doc.parent().unwrap_or(Path::new(""));
        for target in links(&text) {
            if !root.join(dir).join(&target).exists() {
                missing.push(format!("{}: link {target}", doc.display()));
            }
        }
        for path in quoted_paths(&text) {
            let there = root.join(&path).exists()
                || root.join(format!("{path}.rs")).exists()
                || WRITTEN_AT_RUN.contains(&path.as_str());
            if !there {
                missing.push(format!("{}: `{path}`", doc.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited but not in the repository:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_checks_find_what_they_look_for() {
    assert_eq!(
        links("see [a](docs/a.md#x), [b](https://e.org) and [c](../c.md)"),
        ["docs/a.md", "../c.md"]
    );
    assert_eq!(
        quoted_paths("in `src/lib.rs`, `cargo test`, `tests/x.rs.` and `src/<layer>/`"),
        ["src/lib.rs", "tests/x.rs"]
    );
}
