//! The bench signature the manual quotes is the one the search has: docs/search.md states the
//! node count `moulin bench` prints after a fixed phrase, and this test runs the built binary's
//! `bench` (about a second in the dev profile) and compares the two.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use std::path::Path;

/// The phrase of docs/search.md that the node count follows, as `**4,071,763 nodes**`.
const PHRASE: &str = "The current signature is **";

/// The node count docs/search.md quotes after [`PHRASE`], commas removed.
fn quoted_nodes() -> u64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/search.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut found = text
        .match_indices(PHRASE)
        .map(|(at, _)| &text[at + PHRASE.len()..]);
    let after = found
        .next()
        .unwrap_or_else(|| panic!("docs/search.md no longer holds {PHRASE:?}<nodes> nodes**"));
    assert!(
        found.next().is_none(),
        "docs/search.md states the signature twice: once is the rule"
    );
    let figure = after.split(" nodes**").next().unwrap();
    figure
        .replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("docs/search.md quotes {figure:?} as the bench nodes: {e}"))
}

/// The node count of the last line of `moulin bench`, `<nodes> nodes <nps> nps`.
fn bench_nodes() -> u64 {
    let out = crate::shared::moulin().arg("bench").output().unwrap();
    assert!(out.status.success(), "moulin bench failed: {out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert!(
        words.len() == 4 && words[1] == "nodes" && words[3] == "nps",
        "moulin bench ended with {last:?}, not `<nodes> nodes <nps> nps`"
    );
    words[0].parse().unwrap()
}

#[test]
fn the_manual_quotes_the_bench_signature_the_search_has() {
    let quoted = quoted_nodes();
    let printed = bench_nodes();
    assert_eq!(
        quoted, printed,
        "docs/search.md quotes {quoted} bench nodes but `moulin bench` prints {printed}: \
         update the figure after {PHRASE:?} in docs/search.md (a commit that changes the \
         search says `Bench: {printed}` in its message)"
    );
}
