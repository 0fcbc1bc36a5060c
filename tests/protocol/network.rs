//! `EvalFile`: the network evaluation read, used where it serves the rules, and refused in one
//! line when it cannot be used, the engine evaluating as before.

use super::harness::{scratch, word_after, Engine};
use moulin::rules::Rules;
use moulin::search::eval::network::Network;
use moulin::train::net_floats::Floats;

/// A network of random weights for `rules`, written to a scratch file named `name`.
fn random_network_file(name: &str, rules: &Rules) -> std::path::PathBuf {
    let net = Floats::uniform(11, 0.5).quantized(rules, "nine", "a protocol test", 300);
    let path = scratch(name);
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// The nodes and the best move of `go depth 6` from the start, in a new game.
fn search(engine: &mut Engine) -> (String, String) {
    engine.ask("ucinewgame");
    engine.ask("position startpos");
    let lines = engine.go("go depth 6");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 6 "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let nodes = word_after(info, "nodes").unwrap().to_string();
    (nodes, lines.last().unwrap().clone())
}

#[test]
fn a_network_that_serves_the_rules_evaluates_and_one_that_cannot_is_refused_in_one_line() {
    let _guard = super::harness::shared();
    let path = random_network_file("net-random.nnue", &Rules::nine());
    let mut engine = Engine::without_opening();
    engine.ask("setoption name OwnBook value false");
    engine.ask("setoption name EvalFile value none");
    let without = search(&mut engine);
    assert!(engine
        .ask(&format!("setoption name EvalFile value {}", path.display()))
        .is_empty());
    let with = search(&mut engine);
    assert_ne!(with.0, without.0, "the network changes the search");
    assert_eq!(search(&mut engine).0, with.0, "the same search again");

    // The same file under other rules is not used: the search is the hand-written one's.
    engine.ask("setoption name Variant value twelve");
    engine.ask("setoption name EvalFile value none");
    let twelve = search(&mut engine);
    let said = engine.ask(&format!("setoption name EvalFile value {}", path.display()));
    assert!(
        said.len() == 1
            && said[0].starts_with("info string error: network: ")
            && said[0].contains("made for other rules (nine)")
            && said[0].ends_with("evaluating without it"),
        "{said:?}"
    );
    assert_eq!(search(&mut engine), twelve);

    // A damaged file: one line, and the engine plays on as without it.
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 4;
    let damaged = scratch("net-damaged.nnue");
    std::fs::write(&damaged, &bytes).unwrap();
    engine.ask("setoption name Variant value nine");
    let said = engine.ask(&format!(
        "setoption name EvalFile value {}",
        damaged.display()
    ));
    assert!(
        said.len() == 1 && said[0].contains("checksum mismatch of its header and weights"),
        "{said:?}"
    );
    assert_eq!(search(&mut engine), without);
    let said = engine.ask("setoption name EvalFile value /no/such/file.nnue");
    assert!(
        said.len() == 1 && said[0].contains("/no/such/file.nnue: cannot read"),
        "{said:?}"
    );
    engine.quit();
    std::fs::remove_file(path).unwrap();
    std::fs::remove_file(damaged).unwrap();
}

#[test]
fn a_preset_without_a_network_evaluates_as_before() {
    let _guard = super::harness::shared();
    // No preset but nine may ever have a network file: the default is none, as `none` is.
    let mut engine = Engine::without_opening();
    engine.ask("setoption name OwnBook value false");
    engine.ask("setoption name Variant value lasker");
    let default = search(&mut engine);
    engine.ask("setoption name EvalFile value none");
    assert_eq!(search(&mut engine), default);
    engine.quit();
}

/// A network whose every weight sits at the trainer's clamp (`WEIGHT_LIMIT`), the largest
/// output a file that passes every check can give, at `scale`.
fn extreme_network_file(name: &str, scale: i32) -> std::path::PathBuf {
    use moulin::search::eval::network::{BUCKETS, HIDDEN, INPUTS};
    use moulin::train::net_floats::WEIGHT_LIMIT;
    let floats = Floats {
        input: vec![WEIGHT_LIMIT; INPUTS * HIDDEN],
        bias: vec![WEIGHT_LIMIT; HIDDEN],
        output: vec![WEIGHT_LIMIT; BUCKETS * 2 * HIDDEN],
        out_bias: vec![WEIGHT_LIMIT; BUCKETS],
    };
    let net = floats.quantized(&Rules::nine(), "nine", "a protocol test", scale);
    let path = scratch(name);
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

#[test]
fn a_network_at_its_weights_clamp_never_hangs_a_search_nor_reads_as_a_mate_or_a_table_win() {
    use moulin::search::{EVAL_LIMIT, TABLE_BOUND};
    let _guard = super::harness::shared();
    // At 77 (the shipped file's scale) `go depth 2` spun for ever in the aspiration loop; at 60
    // it reported `mate 340`, at 56 `cp 28292`: the raw output reached 78,000 centi-pieces.
    for scale in [56, 60, 77, 2000] {
        let path = extreme_network_file(&format!("net-extreme-{scale}.nnue"), scale);
        let net = Network::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let start = moulin::rules::position::Position::start(Rules::nine());
        assert_eq!(net.evaluate(&start), EVAL_LIMIT, "scale {scale}");
        let mut engine = Engine::without_opening();
        engine.ask("setoption name OwnBook value false");
        let said = engine.ask(&format!("setoption name EvalFile value {}", path.display()));
        assert!(said.is_empty(), "{said:?}");
        for position in [
            "position startpos",
            "position startpos moves d6 b4 d2 b6 f4 g7",
        ] {
            engine.ask(position);
            for go in ["go depth 2", "go depth 5", "go nodes 20000"] {
                let lines = engine.go(go);
                for line in lines.iter().filter(|l| l.contains(" score ")) {
                    assert!(!line.contains(" mate "), "scale {scale}, {go}: {line}");
                    let cp: i32 = word_after(line, "cp")
                        .unwrap_or_else(|| panic!("{line}"))
                        .parse()
                        .unwrap();
                    assert!(cp.abs() <= EVAL_LIMIT && cp.abs() < TABLE_BOUND, "{line}");
                }
            }
        }
        engine.quit();
        std::fs::remove_file(path).unwrap();
    }
}
