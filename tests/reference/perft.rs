//! Naive perft against the figures of docs/rules.md, "Perft" and the data file.

use super::games::preset;
use super::naive::{NState, Naive};
use moulin::Rules;

#[test]
fn naive_perft_agrees_with_rules_md() {
    let n = Naive::new(&Rules::nine());
    let s = n.start();
    let turn = [24, 552, 12_144, 255_024];
    for (d, &want) in turn.iter().enumerate() {
        assert_eq!(n.perft(&s, d as u32 + 1, true), want, "turn {}", d + 1);
        assert_eq!(n.perft(&s, d as u32 + 1, false), want, "action {}", d + 1);
    }
}

/// Plays one token (either form of docs/rules.md, "Notation") in the naive model: a step alone or a
/// lone removal is an action; a step with its removals is a whole turn.
fn naive_token(n: &Naive, s: &mut NState, token: &str) {
    let mut parts = token.split('x');
    let step = parts.next().unwrap().to_string();
    let mut rem: Vec<&str> = parts.collect();
    rem.sort_unstable();
    let want = rem.iter().fold(step, |t, r| t + "x" + r);
    let m = n
        .moves(s, false)
        .into_iter()
        .chain(n.moves(s, true))
        .find(|m| m.text() == want)
        .unwrap_or_else(|| panic!("naive: no move {token}"));
    n.play(s, &m);
}

/// The figures of tests/data/perft.txt (format in its header): (id, variant, fen, moves,
/// convention is turn, depth, nodes).
type Figure = (String, String, String, Vec<String>, bool, u32, u64);

fn data_figures() -> Vec<Figure> {
    let mut out = Vec::new();
    let (mut id, mut variant, mut fen_text, mut moves) =
        (String::new(), String::new(), String::new(), Vec::new());
    for line in include_str!("../data/perft.txt").lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap();
        match key {
            "id" => {
                id = rest.to_string();
                fen_text = "start".into();
                moves = Vec::new();
            }
            "variant" => variant = rest.to_string(),
            "fen" => fen_text = rest.to_string(),
            "moves" => moves = rest.split_whitespace().map(String::from).collect(),
            _ => {
                let f: Vec<&str> = rest.split_whitespace().collect();
                out.push((
                    id.clone(),
                    variant.clone(),
                    fen_text.clone(),
                    moves.clone(),
                    key == "turn",
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                ));
            }
        }
    }
    out
}

/// Runs the naive perft on every figure of the data file up to `limit` nodes.
fn naive_data_file(limit: u64) -> usize {
    let mut checked = 0;
    for (id, variant, fen_text, moves, turn, depth, nodes) in data_figures() {
        if nodes > limit {
            continue;
        }
        let n = Naive::new(&preset(&variant));
        let mut s = if fen_text == "start" {
            n.start()
        } else {
            n.read_fen(&fen_text)
        };
        for t in &moves {
            naive_token(&n, &mut s, t);
        }
        let conv = if turn { "turn" } else { "action" };
        assert_eq!(n.perft(&s, depth, turn), nodes, "{id} {conv} {depth}");
        checked += 1;
    }
    checked
}

#[test]
fn naive_perft_agrees_with_data_file() {
    let t = std::time::Instant::now();
    let checked = naive_data_file(300_000);
    eprintln!(
        "{checked} figures agreed by the naive perft in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(checked > 250);
}

/// Every figure, the slow ones too (minutes).
#[test]
#[ignore = "slow: every figure, minutes"]
fn naive_perft_agrees_with_data_file_all() {
    let checked = naive_data_file(u64::MAX);
    assert_eq!(checked, data_figures().len());
}
