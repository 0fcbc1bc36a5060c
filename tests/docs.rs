//! The documents cite the repository as it is: every relative link of README.md, protocol.md,
//! book/README.md and docs/ leads to a file or folder that exists, a link's `#anchor` into a
//! Markdown file names one of its headings, and every repository path they quote in backticks
//! (`src/...`, `tests/...`, `docs/...`, `book/...`, `scripts/...`, `examples/...`) exists too.
//! Nothing cites the rules file that used to live outside the repository: the rules are
//! docs/rules.md, whose example position strings and perft figures are the engine's.
//! docs/layout.md, the map of the source, names every file under `src/` and no other.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::rules::notation::Convention;
use moulin::rules::{fen, perft};
use moulin::{Game, Rules};
use std::collections::{BTreeSet, HashMap, HashSet};
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

/// The relative Markdown links `[text](target)` of `text`: each target's path (empty for a link
/// within the same file) and its anchor, if any.
fn anchored_links(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = &rest[..end];
        let external = target.contains("://") || target.starts_with("mailto:");
        if !target.is_empty() && !external && !target.contains(char::is_whitespace) {
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor.to_string())),
                None => (target, None),
            };
            out.push((path.to_string(), anchor));
        }
    }
    out
}

/// The anchor GitHub gives a heading: its text as shown (code spans and links reduced to their
/// text), in lower case, each space a `-`, every character but letters, digits, `-` and `_`
/// dropped.
fn slug(heading: &str) -> String {
    let mut shown = String::new();
    let mut rest = heading;
    // A link `[text](target)` shows its text only.
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        shown.push_str(&rest[..open]);
        shown.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    shown.push_str(rest);
    shown
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors a Markdown text offers: one per heading (`#` to `######`, outside fenced code),
/// a repeated one numbered `-1`, `-2`, ... as GitHub numbers them; and the `id` or `name` of
/// each HTML anchor `<a id="...">`.
fn anchors(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut fenced = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && line[level..].starts_with(' ') {
            let base = slug(line[level..].trim_end_matches('#'));
            let count = seen.entry(base.clone()).or_insert(0);
            out.insert(if *count == 0 {
                base.clone()
            } else {
                format!("{base}-{count}")
            });
            *count += 1;
        }
        for attribute in ["<a id=\"", "<a name=\""] {
            for (at, _) in line.match_indices(attribute) {
                let value = &line[at + attribute.len()..];
                out.insert(value[..value.find('"').unwrap_or(0)].to_string());
            }
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

/// What is wrong with the link `[...](target#anchor)` of the document `doc`, if anything: a
/// target that does not exist, or an anchor that names no heading of the Markdown file linked.
fn broken_link(root: &Path, doc: &Path, target: &str, anchor: Option<&str>) -> Option<String> {
    let file = if target.is_empty() {
        root.join(doc)
    } else {
        root.join(doc.parent().unwrap_or(Path::new("")))
            .join(target)
    };
    if !file.exists() {
        return Some(format!("{}: link {target}", doc.display()));
    }
    let anchor = anchor?;
    let markdown = file.extension().is_some_and(|e| e == "md");
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    (markdown && !anchors(&text).contains(anchor))
        .then(|| format!("{}: link {target}#{anchor} names no heading", doc.display()))
}

#[test]
fn every_path_and_anchor_the_documents_cite_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        for (target, anchor) in anchored_links(&text) {
            missing.extend(broken_link(root, &doc, &target, anchor.as_deref()));
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

/// The name of the rules file that lived outside the repository (`RULES` and `.md`), spelt in
/// two parts so that this file does not cite it.
const OLD_RULES: &str = concat!("RULES", ".md");

/// Every file under `dir` (`target` and hidden folders left out), recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files_under(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The lines of `text` that name the old rules file, as `line: text`.
fn old_rules_citations(text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.contains(OLD_RULES))
        .map(|(i, line)| format!("{}: {}", i + 1, line.trim()))
        .collect()
}

#[test]
fn nothing_cites_the_old_rules_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("src"), &mut files);
    files_under(&root.join("tests"), &mut files);
    let mut everything = Vec::new();
    files_under(root, &mut everything);
    files.extend(
        everything
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    files.sort();
    files.dedup();
    let mut found = Vec::new();
    for file in files {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        for line in old_rules_citations(&text) {
            let shown = file.strip_prefix(root).unwrap().display();
            found.push(format!("{shown}:{line}"));
        }
    }
    assert!(
        found.is_empty(),
        "cite {OLD_RULES}, which is not in the repository (the rules are docs/rules.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checks_find_what_they_look_for() {
    assert_eq!(
        quoted_paths("in `src/lib.rs`, `cargo test`, `tests/x.rs.` and `src/<layer>/`"),
        ["src/lib.rs", "tests/x.rs"]
    );
    assert_eq!(
        anchored_links("[a](docs/a.md#x), [b](#y), [c](c.md) and [d](https://e.org#z)"),
        [
            ("docs/a.md".to_string(), Some("x".to_string())),
            (String::new(), Some("y".to_string())),
            ("c.md".to_string(), None),
        ]
    );
    assert_eq!(slug(" 1. The conversation"), "1-the-conversation");
    assert_eq!(
        slug("`perft <d>` (also `go perft <d>`)"),
        "perft-d-also-go-perft-d"
    );
    assert_eq!(
        slug("The [GBGP](x.md) dialect: Nine Morris 3D"),
        "the-gbgp-dialect-nine-morris-3d"
    );
    let found = anchors(
        "# Format\n```\n# not a heading\n```\n## Format\n#nospace\n<a id=\"acc\"></a>**A**\n",
    );
    let want: HashSet<String> = ["format", "format-1", "acc"].map(String::from).into();
    assert_eq!(found, want);
    let cited = format!("a\nsee {OLD_RULES} §4\nb");
    assert_eq!(
        old_rules_citations(&cited),
        [format!("2: see {OLD_RULES} §4")]
    );
    assert!(old_rules_citations("docs/rules.md, \"Notation\"").is_empty());
    let named = layout_names(
        "- `src/cli/mod.rs`: x, `src/a/page.js`, `src/cli/`, `src/<c>_cmd.rs`, `tests/docs.rs`",
    );
    let want: BTreeSet<String> = ["cli/mod.rs", "a/page.js"].map(String::from).into();
    assert_eq!(named, want);
}

/// The source files docs/layout.md names: every path in backticks under `src/` that ends as a
/// source file does (`.rs`, `.css`, `.js`), from `src/`.
fn layout_names(text: &str) -> BTreeSet<String> {
    quoted_paths(text)
        .iter()
        .filter(|q| [".rs", ".css", ".js"].iter().any(|e| q.ends_with(e)))
        .filter_map(|q| q.strip_prefix("src/"))
        .map(String::from)
        .collect()
}

#[test]
fn the_layout_names_every_source_file_and_no_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("src"), &mut files);
    let there: BTreeSet<String> = files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(root.join("src")).unwrap();
            relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    let named = layout_names(&std::fs::read_to_string(root.join("docs/layout.md")).unwrap());
    let unnamed: Vec<_> = there.difference(&named).collect();
    let absent: Vec<_> = named.difference(&there).collect();
    assert!(
        unnamed.is_empty() && absent.is_empty(),
        "docs/layout.md is the map of src/: name each file there by its path, `src/...`\n\
         files under src/ it does not name: {unnamed:?}\n\
         files it names that are not under src/: {absent:?}"
    );
}

/// The rows of the Markdown tables under `heading` in `text` (up to the next heading), each as
/// its cells, trimmed.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|line| *line != heading)
        .skip(1)
        .take_while(|line| !line.starts_with('#'))
        .filter(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// The text between the first pair of backticks in `cell`, or nothing.
fn code(cell: &str) -> &str {
    cell.split('`').nth(1).unwrap_or("")
}

/// The rules a cell such as `` `nine`, `FirstPlayer black` `` names: a preset, then options.
fn rules_named(cell: &str) -> Rules {
    let mut parts = cell.split(',').map(code);
    let mut rules = Rules::named(parts.next().unwrap()).unwrap();
    for option in parts {
        let (name, value) = option.split_once(' ').unwrap();
        rules.set(name, value).unwrap();
    }
    rules
}

/// The text of docs/rules.md.
fn rules_page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md")).unwrap()
}

#[test]
fn the_rules_page_position_strings_are_the_engines() {
    let rows = table_rows(&rules_page(), "### Examples");
    let examples: Vec<_> = rows.iter().filter(|r| code(&r[2]).contains('/')).collect();
    assert!(examples.len() >= 5, "{rows:?}");
    for row in examples {
        let mut game = Game::new(rules_named(&row[0]));
        game.play_tokens(code(&row[1]).split_whitespace()).unwrap();
        assert_eq!(fen::write(game.position()), code(&row[2]), "{row:?}");
    }
}

#[test]
fn the_rules_page_perft_figures_are_the_engines() {
    // The counts of 7 plies from the start take seconds each: tests/perft.rs runs them under
    // --ignored.
    const MOST: u64 = 200_000_000;
    let mut start = Game::new(Rules::nine());
    let mut checked = 0;
    for row in table_rows(&rules_page(), "### Reference figures") {
        if row[0].starts_with("plies") {
            start = Game::new(Rules::nine());
            start.play_tokens(code(&row[0]).split_whitespace()).unwrap();
            continue;
        }
        let Some(convention) = Convention::parse(&row[0]) else {
            continue;
        };
        for (depth, cell) in (1..).zip(&row[1..]) {
            let nodes: u64 = cell.replace(',', "").parse().unwrap();
            if nodes < MOST {
                let counted = perft::perft(start.position(), depth, convention);
                assert_eq!(counted, nodes, "{} at depth {depth}", row[0]);
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} figures read");
}

/// The options `moulin` lists at `uci`, by name.
fn engine_options() -> Vec<String> {
    let mut child = crate::shared::moulin()
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"uci\nquit\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_engine_option_is_in_the_protocol_and_the_options_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let protocol = std::fs::read_to_string(root.join("protocol.md")).unwrap();
    let listed: BTreeSet<String> = table_rows(&protocol, "## 5. Options")
        .iter()
        .map(|row| code(&row[0]).to_string())
        .collect();
    let page = std::fs::read_to_string(root.join("docs/options.md")).unwrap();
    let options = engine_options();
    assert!(options.len() > 20, "{options:?}");
    for name in &options {
        assert!(
            listed.contains(name),
            "protocol.md section 5 has no row for {name}"
        );
        assert!(
            page.contains(&format!("`{name}`")),
            "docs/options.md does not name {name}"
        );
    }
}

/// The rooms a source room imports, read from its code: every `crate::<room>` in its files
/// (`moulin::<room>` in the binary's `main.rs`), comment lines left out; a room is a folder
/// under `src/` or a single file there (`src/memory.rs` is `memory`).
fn imports_of(root: &Path, room: &str) -> BTreeSet<String> {
    let (path, own) = match room.strip_suffix('/') {
        Some(folder) => (root.join("src").join(folder), folder.to_string()),
        None => (
            root.join("src").join(room),
            room.trim_end_matches(".rs").to_string(),
        ),
    };
    let mut files = Vec::new();
    if path.is_dir() {
        files_under(&path, &mut files);
    } else {
        files.push(path);
    }
    // The binary (main.rs and its command layer) reaches the library as `moulin::`.
    let binary = room == "main.rs" || room == "commands/";
    let prefix = if binary { "moulin::" } else { "crate::" };
    let mut found = BTreeSet::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (i, _) in line.match_indices(prefix) {
                let name: String = line[i + prefix.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() && name != own {
                    found.insert(name);
                }
            }
        }
    }
    found
}

/// The floors of docs/layout.md's drawing: each room (`protocol/`, `main.rs`) with its floor.
fn floors(text: &str) -> Vec<(String, u32)> {
    let drawing = text
        .split("## Floors")
        .nth(1)
        .and_then(|t| t.split("```text").nth(1))
        .and_then(|t| t.split("```").next())
        .unwrap_or("");
    let mut out = Vec::new();
    for line in drawing.lines() {
        let mut words = line.split_whitespace();
        let Some(floor) = words.next().and_then(|w| w.parse::<u32>().ok()) else {
            continue;
        };
        out.extend(words.map(|room| (room.to_string(), floor)));
    }
    out
}

/// The name a room is imported by: `protocol/` and `memory.rs` as `protocol` and `memory`.
fn room_name(room: &str) -> &str {
    room.trim_end_matches('/').trim_end_matches(".rs")
}

#[test]
fn the_layouts_floors_and_import_table_are_the_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/layout.md")).unwrap();
    let floors = floors(&text);
    assert!(
        floors.len() > 10,
        "the drawing of floors is read: {floors:?}"
    );
    let floor_of = |name: &str| {
        floors
            .iter()
            .find(|(r, _)| room_name(r) == name)
            .map(|f| f.1)
    };
    // Every room stands above every room it imports: nothing points back up.
    for (room, floor) in &floors {
        for import in imports_of(root, room) {
            let below = floor_of(&import);
            assert!(
                below.is_some_and(|b| b < *floor),
                "docs/layout.md: {room} (floor {floor}) imports {import} (floor {below:?}): \
                 a room imports only rooms on lower floors; move the room or what it takes"
            );
        }
    }
    // The table says what each room imports, as the code does.
    let rows = table_rows(&text, "## Floors");
    let mut checked = 0;
    for row in rows
        .iter()
        .filter(|r| r.len() == 2 && r[0].starts_with('`'))
    {
        let room = code(&row[0]).trim_start_matches("src/");
        if row[1] == "every room below it" {
            continue;
        }
        let written: BTreeSet<String> = if row[1].starts_with("nothing") {
            BTreeSet::new()
        } else {
            row[1].split(", ").map(String::from).collect()
        };
        let read = imports_of(root, room);
        assert_eq!(
            written, read,
            "docs/layout.md's import table, row {room}: what the code imports"
        );
        checked += 1;
    }
    assert!(checked > 8, "the import table is read: {checked} rows");
    // The ground floor imports nothing of the project.
    for (room, floor) in &floors {
        if *floor == 1 {
            assert_eq!(
                imports_of(root, room),
                BTreeSet::new(),
                "{room} is on the ground floor"
            );
        }
    }
}
