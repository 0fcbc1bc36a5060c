//! Perft suites as data (`tests/data/perft.txt`, format described in its header), run through
//! `moulin::rules::perft::perft`; and the `moulin perft` command line.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::rules::notation::Convention;
use moulin::rules::{fen, perft};
use moulin::{Game, Position, Rules};

/// One block of the data file.
struct Block {
    id: String,
    variant: String,
    fen: String,
    moves: Vec<String>,
    /// (convention, depth, nodes, slow)
    figures: Vec<(Convention, u32, u64, bool)>,
}

fn blocks() -> Vec<Block> {
    let text = include_str!("data/perft.txt");
    let mut out: Vec<Block> = Vec::new();
    let mut current: Option<Block> = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            out.extend(current.take());
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let b = current.get_or_insert_with(|| Block {
            id: String::new(),
            variant: String::new(),
            fen: "start".into(),
            moves: Vec::new(),
            figures: Vec::new(),
        });
        match key {
            "id" => b.id = rest.into(),
            "variant" => b.variant = rest.into(),
            "fen" => b.fen = rest.into(),
            "moves" => b.moves = rest.split_whitespace().map(String::from).collect(),
            "turn" | "action" => {
                let f: Vec<&str> = rest.split_whitespace().collect();
                b.figures.push((
                    Convention::parse(key).unwrap(),
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                    f.get(2) == Some(&"slow"),
                ));
            }
            other => panic!("unknown key '{other}' in perft.txt"),
        }
    }
    out.extend(current);
    out
}

fn position(b: &Block) -> Position {
    let rules = Rules::preset(&b.variant).unwrap_or_else(|| panic!("{}: variant", b.id));
    let mut game = if b.fen == "start" {
        Game::new(rules)
    } else {
        Game::from_fen(&b.fen, rules).unwrap_or_else(|e| panic!("{}: {e}", b.id))
    };
    game.play_tokens(b.moves.iter().map(String::as_str))
        .unwrap_or_else(|(i, e)| panic!("{}: move {i}: {e}", b.id));
    *game.position()
}

fn run(slow: bool) {
    let started = std::time::Instant::now();
    let mut checked = 0;
    for b in blocks() {
        let pos = position(&b);
        for &(conv, depth, nodes, is_slow) in &b.figures {
            if is_slow != slow {
                continue;
            }
            assert_eq!(
                perft::perft(&pos, depth, conv),
                nodes,
                "{} {} {depth}",
                b.id,
                conv.name()
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
    eprintln!(
        "{checked} perft figures in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn data_file_covers_every_preset_and_phase() {
    let blocks = blocks();
    let mut ids: Vec<&str> = blocks.iter().map(|b| b.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "ids are unique");
    for preset in moulin::rules::PRESETS {
        for kind in ["start", "placing", "moving", "flying", "pending"] {
            let id = format!("{preset}-{kind}");
            let b = blocks
                .iter()
                .find(|b| b.id == id)
                .unwrap_or_else(|| panic!("no block {id}"));
            assert_eq!(b.variant, preset);
            for conv in [Convention::Turn, Convention::Action] {
                assert!(
                    b.figures.iter().any(|f| f.0 == conv),
                    "{id} {}",
                    conv.name()
                );
            }
        }
    }
    // The phase of each block's position is what its name says.
    for b in &blocks {
        let pos = position(b);
        let kind = b.id.rsplit('-').next().unwrap();
        let us = pos.side_to_move();
        match kind {
            "start" => assert_eq!(pos, Position::start(*pos.rules())),
            "placing" => assert!(pos.in_hand(us) > 0 && pos.pending_removals() == 0),
            "moving" => assert!(!pos.is_placing() && !pos.can_fly(us), "{}", b.id),
            "flying" => assert!(!pos.is_placing() && pos.can_fly(us), "{}", b.id),
            "pending" => assert!(pos.pending_removals() > 0, "{}", b.id),
            _ => panic!("{}", b.id),
        }
        assert!(pos.outcome().is_none() || pos.pending_removals() > 0);
    }
}

#[test]
fn perft_fast() {
    run(false);
}

#[test]
#[ignore = "slow: deep perft figures"]
fn perft_slow() {
    run(true);
}

#[test]
fn rules_md_examples() {
    // docs/rules.md, "Position string": the position strings its examples give.
    let examples = [
        ("", fen::START),
        (
            "d6 f4 d2 b4 g4 d7 a4 d1",
            "********/O*@*O*@*/@*O*@*O* w p p 4 5 4 5 0 0 -1 -1 -1 -1 0 0 5",
        ),
        (
            "d7 a1 g7 d1 a7",
            "********/********/OO**@@*O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3",
        ),
        (
            "d6 f4 d2 b4 g4 d7 a4 d1 d5 d3 e4 f6 f2 b2 b6 g7 a7 c3",
            "O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10",
        ),
    ];
    for (moves, want) in examples {
        let mut g = Game::new(Rules::nine());
        g.play_tokens(moves.split_whitespace()).unwrap();
        assert_eq!(fen::write(g.position()), want);
        let read = fen::read(want, &Rules::nine()).unwrap();
        assert_eq!(fen::write(&read), want);
    }
    // docs/rules.md, "Perft": the first moving position, read from its string.
    let pos = fen::read(
        "O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10",
        &Rules::nine(),
    )
    .unwrap();
    for (depth, nodes) in [(1, 6), (2, 32), (3, 193), (4, 1152), (5, 8555)] {
        assert_eq!(perft::perft(&pos, depth, Convention::Turn), nodes);
    }
}

// ---- The command line. ----

fn moulin_perft(args: &[&str]) -> Vec<String> {
    let out = crate::shared::moulin()
        .arg("perft")
        .args(args)
        .output()
        .expect("run moulin");
    assert!(
        out.status.success(),
        "moulin perft {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The count of the last line, `nodes <n>`.
fn nodes(lines: &[String]) -> u64 {
    let last = lines.last().expect("output");
    let n = last
        .strip_prefix("nodes ")
        .unwrap_or_else(|| panic!("{last}"));
    n.parse().unwrap()
}

/// Checks `--divide`: one `<move> <count>` line per root move, summing to the total.
fn divide(args: &[&str]) -> (u64, Vec<(String, u64)>) {
    let mut all = args.to_vec();
    all.push("--divide");
    let lines = moulin_perft(&all);
    let total = nodes(&lines);
    let rows: Vec<(String, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let (mv, n) = l.rsplit_once(' ').unwrap();
            (mv.to_string(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), total, "{args:?}");
    (total, rows)
}

#[test]
fn binary_perft() {
    assert_eq!(nodes(&moulin_perft(&["4"])), 255_024);
    let (total, rows) = divide(&["3"]);
    assert_eq!(total, 12144);
    assert_eq!(rows.len(), 24);
    assert!(rows.iter().all(|(_, n)| *n == 506));
    assert_eq!(
        nodes(&moulin_perft(&["5", "--convention", "action"])),
        5_100_480
    );
    assert_eq!(nodes(&moulin_perft(&["3", "--variant", "lasker"])), 13552);
    // From a position string, with a removal pending: in the action convention the root moves
    // are lone removals.
    let pending = "********/********/OO**@@*O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3";
    let (total, rows) = divide(&["3", "--fen", pending, "--convention", "action"]);
    assert_eq!(total, 760);
    let mut names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["xa1", "xd1"]);
    // The same position by moves; both token forms of a removal.
    let by_moves = nodes(&moulin_perft(&[
        "3", "--moves", "d7", "a1", "g7", "d1", "a7",
    ]));
    assert_eq!(by_moves, 760);
    let one = nodes(&moulin_perft(&["3", "--moves", "d7 a1 g7 d1 a7xd1"]));
    let two = nodes(&moulin_perft(&[
        "3", "--moves", "d7", "a1", "g7", "d1", "a7", "xd1",
    ]));
    assert_eq!(one, two);
    // The turn convention divides with removals in the move: d6xb4 form.
    let (_, rows) = divide(&["1", "--moves", "d7", "a1", "g7", "d1"]);
    assert!(
        rows.iter().any(|(m, n)| m == "a7xa1" && *n == 1),
        "{rows:?}"
    );
    // Options after --moves are options, not moves (README: `[--moves <m> ...] [--variant ..]`).
    let lasker = nodes(&moulin_perft(&[
        "2",
        "--moves",
        "d7",
        "a1",
        "--variant",
        "lasker",
    ]));
    let mut g = Game::new(Rules::preset("lasker").unwrap());
    g.play_tokens(["d7", "a1"]).unwrap();
    assert_eq!(lasker, perft::perft(g.position(), 2, Convention::Turn));
    // Errors: an unknown variant or an illegal move fails with a message.
    for bad in [
        vec!["2", "--variant", "chess"],
        vec!["2", "--moves", "d4"],
        vec!["2", "--convention", "sideways"],
    ] {
        let out = crate::shared::moulin()
            .arg("perft")
            .args(&bad)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad:?}");
    }
}

#[test]
fn binary_perft_refuses_depths_past_the_limit() {
    // These overflowed the stack and aborted allocating 103 GB.
    let limit = moulin::rules::perft::MAX_DEPTH;
    let past = (limit + 1).to_string();
    for depth in ["200000", "4294967295", &past] {
        let out = crate::shared::moulin()
            .args(["perft", depth])
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "perft {depth}: {e}");
        assert!(
            e.contains(&format!("past the limit of {limit}")),
            "perft {depth}: {e}"
        );
    }
    // One limit, told where a user looks: `--help` and protocol.md (the protocol's `perft`
    // takes the same: `protocol::errors`).
    let help = crate::shared::moulin()
        .args(["perft", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains(&format!("0 to {limit}")), "{help}");
    let manual =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let section = manual
        .split("### `perft <d>`")
        .nth(1)
        .and_then(|s| s.split("\n### ").next())
        .unwrap();
    assert!(section.contains(&format!("0 to {limit}")), "{section}");
}
