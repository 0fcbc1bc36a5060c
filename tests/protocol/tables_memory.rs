//! A packed set under an address-space limit (`ulimit -v` of 1 GiB, which counts every mapping,
//! reserved or not): the engine's `go`, `tables verify`, `tables install` and `analyse --tables`
//! answer, with `Hash` and `TablesCache` at their largest, where the first probe used to end the
//! process (`memory allocation of 4294967296 bytes failed`, issue 69).

use super::harness::{scratch, shared};
use super::tables_packed::packed;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The limit: 1 GiB of address space, in the KiB `ulimit -v` takes.
const LIMIT_KB: u32 = 1 << 20;

/// moulin with `args` under the limit, fed `input`: its output once it ends.
fn limited(args: &[&str], input: &str) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_moulin"))
        .args(args)
        .env("XDG_CACHE_HOME", crate::shared::empty_cache())
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Its stdout and stderr, and a check that it ended by itself with success.
fn ended_well(o: &Output, what: &str) -> (String, String) {
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(
        o.status.success() && !err.contains("memory allocation"),
        "{what}: {:?}\n{out}\n{err}",
        o.status
    );
    (out, err)
}

#[test]
fn a_packed_set_under_an_address_space_limit_is_probed_verified_installed_and_analysed() {
    let _gate = shared();
    let set = packed("packed-limited");
    let s = set.to_str().unwrap();
    let fen = "OO******/**@@****/*O****@* w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 20";
    // The engine: the largest table and cache asked for are shrunk to what fits, and said so.
    let o = limited(
        &[],
        &format!(
            "uci\nsetoption name TablesPath value {s}\nsetoption name Hash value 1024\n\
             setoption name TablesCache value 65536\nposition fen {fen}\ngo depth 5\n\
             isready\nposition startpos\ngo depth 3\nisready\nquit\n"
        ),
    );
    let (out, _) = ended_well(&o, "go");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"info string tables win dtc 1"), "{out}");
    assert!(lines.contains(&"bestmove g7-c5xf4"), "{out}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        2
    );
    assert_eq!(lines.iter().filter(|l| **l == "readyok").count(), 2);
    for option in ["Hash: 1024 MB", "TablesCache: 65536 MB"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info string {option} do not fit"))),
            "{out}"
        );
    }
    // The same from the command line.
    let o = limited(
        &[
            "--option",
            "TablesCache=65536",
            "--option",
            &format!("TablesPath={s}"),
        ],
        &format!("uci\nposition fen {fen}\ngo depth 5\nquit\n"),
    );
    let (out, _) = ended_well(&o, "--option TablesCache=65536");
    assert!(out.contains("bestmove g7-c5xf4"), "{out}");
    // `tables verify` probes every table's sample.
    let o = limited(&["tables", "verify", "--dir", s], "");
    let (out, _) = ended_well(&o, "verify");
    assert!(out.contains("the set is sound"), "{out}");
    // `tables install` verifies, then copies.
    let to = scratch("packed-limited-installed");
    let _ = std::fs::remove_dir_all(&to);
    let o = limited(&["tables", "install", s, "--to", to.to_str().unwrap()], "");
    let (out, _) = ended_well(&o, "install");
    assert!(out.contains("installed in"), "{out}");
    // `analyse --tables`, with the largest table it takes.
    let o = limited(
        &[
            "analyse",
            "--fen",
            fen,
            "--position",
            "--tables",
            s,
            "--hash",
            "1024",
            "--depth",
            "4",
        ],
        "",
    );
    let (out, _) = ended_well(&o, "analyse");
    assert!(out.contains("g7-c5xf4") && out.contains("win 1"), "{out}");
}
