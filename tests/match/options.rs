//! An engine's `option.` keys hold, or the match stops: an engine that answers one with an error
//! line, in any of the forms engines write them, stops the run before its first game with that
//! line, the engine and the option named, and no records made as if the option applied.

use super::harness::*;
use super::hostile::against;

/// Runs a match of the fake engine (`good`) against `other` (a spec) with `--records`, and
/// checks that it stopped before its first game with one error line naming `name`, `option`
/// and holding `answer` (the engine's own words); returns that line.
fn stopped_by_refusal(other: &str, name: &str, option: &str, answer: &str) -> String {
    let records = temp(&format!("refused-{name}.txt"));
    let pgn = temp(&format!("refused-{name}.pgn"));
    let _ = std::fs::remove_file(&records);
    let (records_path, pgn_path) = (records.to_str().unwrap(), pgn.to_str().unwrap());
    let out = against(other, 4, &["--records", records_path, "--pgn", pgn_path]);
    let (code, stdout, stderr) = (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(code, Some(1), "{other}: {stdout}{stderr}");
    assert!(stdout.is_empty(), "{other}: nothing played: {stdout}");
    assert!(!stderr.contains("Finished game"), "{other}: {stderr}");
    assert!(!records.exists() && !pgn.exists(), "{other}: no records");
    let error = stderr
        .lines()
        .find(|l| l.starts_with("moulin: "))
        .unwrap_or_else(|| panic!("{other}: no error line in {stderr}"))
        .to_string();
    assert!(
        error.contains(&format!("engine '{name}' failed before its first game"))
            && error.contains(&format!("refused option.{option}"))
            && error.contains(answer),
        "{other}: {error}"
    );
    error
}

#[test]
fn moulin_refusing_its_network_stops_the_match() {
    let net = temp("nets/new-typo.nnue");
    let net = net.to_str().unwrap();
    for proto in ["uci", "gbgp"] {
        let spec = format!(
            "name=new cmd={} proto={proto} option.Hash=8 option.EvalFile={net}",
            moulin().display()
        );
        let error = stopped_by_refusal(
            &spec,
            "new",
            &format!("EvalFile={net}"),
            "\"info string error: ",
        );
        // The engine's own reason, the file it could not read.
        assert!(error.contains("new-typo.nnue"), "{proto}: {error}");
        // The tables and the opening's solution, read after `readyok` in GBGP, are refused
        // before it when they are not there.
        for (option, file) in [
            ("TablesPath", "tables/typo"),
            ("OpeningSolution", "book/typo.sol"),
        ] {
            let path = temp(file);
            let path = path.to_str().unwrap();
            let spec = format!(
                "name=new cmd={} proto={proto} option.{option}={path}",
                moulin().display()
            );
            let error = stopped_by_refusal(
                &spec,
                "new",
                &format!("{option}={path}"),
                "\"info string error: ",
            );
            assert!(error.contains("no such file or folder"), "{proto}: {error}");
        }
    }
}

#[test]
fn every_form_of_refusal_stops_the_match() {
    let f = fake().display().to_string();
    // The stand-in engine takes `Hash` and knows no `Contempt`; in the GBGP dialect too.
    for (spec, name) in [
        (
            format!("name=fake cmd={f} option.Hash=8 option.Contempt=2"),
            "fake",
        ),
        (
            format!("name=fakeg cmd=\"{f} --gbgp\" proto=gbgp option.Contempt=2"),
            "fakeg",
        ),
    ] {
        stopped_by_refusal(&spec, name, "Contempt=2", "\"info string error: ");
    }
    // Stockfish's forms: a bare `No such option:` line, and `info string ERROR:`.
    for (name, answer) in [
        ("bare", "No such option: EvalFile"),
        ("loud", "info string ERROR: The network file was not loaded"),
    ] {
        let script = format!(
            "while read -r l; do case $l in uci) echo uciok;; isready) echo readyok;; \
             setoption*EvalFile*) echo '{answer}';; quit) exit;; esac; done"
        );
        let spec = format!("name={name} cmd=sh arg=-c arg=\"{script}\" option.EvalFile=x.nnue");
        stopped_by_refusal(&spec, name, "EvalFile=x.nnue", answer);
    }
}

#[test]
fn options_the_engine_takes_let_the_match_run() {
    // The same engine, given options it holds, plays: only a refusal stops a match.
    let spec = format!(
        "name=new cmd={} option.Hash=8 option.Threads=1",
        moulin().display()
    );
    let out = against(&spec, 2, &[]);
    let stdout = succeeded_with_forfeits(&out, &spec, "good 0, new 0");
    let (w, d, l) = wdl(&stdout);
    assert_eq!(w + d + l, 2, "{stdout}");
}
