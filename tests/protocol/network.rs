//! `EvalFile`: the network evaluation read, used where it serves the rules, and refused in one
//! line when it cannot be used, the engine evaluating as before.

use super::harness::{scratch, word_after, Engine};
use moulin::rules::Rules;
use moulin::search::network::{Floats, Network};

/// A network of random weights for `rules`, written to a scratch file named `name`.
fn random_network_file(name: &str, rules: &Rules) -> std::path::PathBuf {
    let net = Network::quantized(
        &Floats::uniform(11, 0.5),
        rules,
        "nine",
        "a protocol test",
        300,
    );
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
        said.len() == 1 && said[0].contains("checksum mismatch (damaged)"),
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
