//! The protocol of protocol.md, spoken with the real binary: scripted conversations for every
//! command, both move forms, the pending removal, every error path, a fuzz of 100,000 random and
//! mutated lines, and the stop and quit latencies.

use moulin::rng::Rng;
use moulin::{Game, Rules};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

/// The latency tests measure alone (write lock); every other test shares (read lock), so that the
/// few cores of a test machine are not busy with other engines while a latency is timed.
static GATE: RwLock<()> = RwLock::new(());

fn shared() -> RwLockReadGuard<'static, ()> {
    GATE.read().unwrap_or_else(|e| e.into_inner())
}

fn alone() -> RwLockWriteGuard<'static, ()> {
    GATE.write().unwrap_or_else(|e| e.into_inner())
}

/// A running engine and its output, line by line.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<thread::JoinHandle<String>>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_moulin"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_LOG", "warn")
            .spawn()
            .expect("the engine starts");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut pending = Vec::new();
            let mut buf = [0u8; 65536];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        pending.extend_from_slice(&buf[..n]);
                        while let Some(i) = pending.iter().position(|&b| b == b'\n') {
                            let line = String::from_utf8(pending[..i].to_vec())
                                .expect("the engine writes UTF-8");
                            pending.drain(..=i);
                            if tx.send(line).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let stderr = thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().unwrap();
    }

    fn next_line(&self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .next_line(left)
                .unwrap_or_else(|| panic!("no answer; so far: {out:?}"));
            let end = done(&line);
            out.push(line);
            if end {
                return out;
            }
        }
    }

    /// Sends `cmd` then `isready`: the lines `cmd` answered (without the `readyok`).
    fn ask(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        if cmd != "isready" {
            self.send("isready");
        }
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// `ask` without the search's `info depth` lines.
    fn ask_quiet(&mut self, cmd: &str) -> Vec<String> {
        let mut lines = self.ask(cmd);
        lines.retain(|l| !l.starts_with("info depth"));
        lines
    }

    /// The one line `cmd` answers.
    fn ask_one(&mut self, cmd: &str) -> String {
        let lines = self.ask(cmd);
        assert_eq!(lines.len(), 1, "{cmd}: {lines:?}");
        lines.into_iter().next().unwrap()
    }

    /// Sends a `go` and returns its lines up to `bestmove`, which is last.
    fn go(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        self.until(|l| l.starts_with("bestmove"))
    }

    fn bestmove(&mut self, cmd: &str) -> String {
        let lines = self.go(cmd);
        lines.last().unwrap().clone()
    }

    fn fen(&mut self) -> String {
        self.ask_one("fen")
    }

    /// Asserts that `cmd` is refused with exactly one error line and leaves the position as it
    /// was.
    fn refused(&mut self, cmd: &str) -> String {
        let before = self.fen();
        let line = self.ask_one(cmd);
        assert!(
            line.starts_with("info string error: "),
            "{cmd:?} answered {line:?}"
        );
        assert_eq!(self.fen(), before, "{cmd:?} changed the position");
        line
    }

    fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// `quit`, and checks a clean exit with nothing alarming on stderr.
    fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit(TIMEOUT).expect("the engine quits");
        assert!(status.success(), "{status:?}");
        let stderr = self.stderr.take().unwrap().join().unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const START: &str = "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1";
const PENDING: &str = "********/********/OO**@@*O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3";
const MOVING: &str = "O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10";

fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key)?;
    words.next()
}

/// Plays `moves` (tokens) and then `answer` (tokens) on the standard start position: true if
/// all are legal.
fn legal(rules: Rules, moves: &str, answer: &str) -> bool {
    let mut game = Game::new(rules);
    game.play_tokens(moves.split_whitespace()).unwrap();
    game.play_tokens(answer.split_whitespace()).is_ok()
}

#[test]
fn uci_handshake_lists_every_option() {
    let _gate = shared();
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert_eq!(
        lines[0],
        format!("id name moulin {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "MoveOverhead",
        "Ponder",
        "Style",
        "MoveNotation",
        "Variant",
        "FirstPlayer",
        "Pieces",
        "Diagonals",
        "Flying",
        "MillProtection",
        "DoubleMill",
        "Reform",
        "NoCapture",
        "Repetition",
        "MovingInPlacing",
        "FullBoard",
        "OwnBook",
        "BookFile",
        "BookVariety",
    ] {
        let line = options
            .iter()
            .find(|l| word_after(l, "name") == Some(name))
            .unwrap_or_else(|| panic!("no option {name}"));
        assert!(
            line.contains(" type ") && line.contains(" default "),
            "{line}"
        );
    }
    assert_eq!(options.len(), 22);
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1024".into()));
    assert!(lines.contains(&"option name Ponder type check default false".into()));
    assert!(lines.contains(&"option name Style type combo default full var full var plain".into()));
    assert!(lines
        .contains(&"option name MoveNotation type combo default turn var turn var action".into()));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    assert_eq!(e.ask("debug on"), Vec::<String>::new());
    e.quit();
}

#[test]
fn help_lists_commands_and_subcommands() {
    let _gate = shared();
    let out = Command::new(env!("CARGO_BIN_EXE_moulin"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("perft"), "{text}");
    let mut e = Engine::start();
    let help = e.ask("help").join("\n");
    for cmd in [
        "uci",
        "isready",
        "setoption",
        "ucinewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "quit",
        "perft",
        "eval",
        "moves",
        "fen",
    ] {
        assert!(help.contains(cmd), "help lacks {cmd}");
    }
    e.quit();
}

#[test]
fn positions_in_both_token_forms() {
    let _gate = shared();
    let mut e = Engine::start();
    assert_eq!(e.fen(), START);
    let after8 = "********/O*@*O*@*/@*O*@*O* w p p 4 5 4 5 0 0 -1 -1 -1 -1 0 0 5";
    e.ask("position startpos moves d6 f4 d2 b4 g4 d7 a4 d1");
    assert_eq!(e.fen(), after8);
    e.ask(&format!(
        "position fen {START} moves d6 f4 d2 b4 g4 d7 a4 d1"
    ));
    assert_eq!(e.fen(), after8);
    e.ask("position startpos moves d6 f4 d2 b4 g4 d7 a4 d1 d5 d3 e4 f6 f2 b2 b6 g7 a7 c3");
    assert_eq!(e.fen(), MOVING);
    // The pending removal: a valid position of its own.
    e.ask("position startpos moves d7 a1 g7 d1 a7");
    assert_eq!(e.fen(), PENDING);
    assert_eq!(e.ask_one("moves"), "moves xd1 xa1");
    e.ask(&format!("position fen {PENDING}"));
    assert_eq!(e.fen(), PENDING);
    // One token or two, the same position.
    e.ask("position startpos moves d7 a1 g7 d1 a7xd1");
    let one = e.fen();
    e.ask("position startpos moves d7 a1 g7 d1 a7 xd1");
    assert_eq!(e.fen(), one);
    e.ask(&format!("position fen {PENDING} moves xd1"));
    assert_eq!(e.fen(), one);
    // Case does not matter in commands nor moves.
    e.ask("POSITION STARTPOS MOVES D6");
    assert!(e.fen().starts_with("********/O*******/"));
    // The trailing ids marker is accepted.
    e.ask(&format!("position fen {START} ids:nodes"));
    assert_eq!(e.fen(), START);
    // ucinewgame goes back to the start.
    e.ask("position startpos moves d6");
    assert_eq!(e.ask("ucinewgame"), Vec::<String>::new());
    assert_eq!(e.fen(), START);
    e.quit();
}

#[test]
fn go_with_a_pending_removal_answers_the_removal() {
    let _gate = shared();
    let mut e = Engine::start();
    for (how, notation) in [("moves d7 a1 g7 d1 a7", "turn"), ("fen x", "action")] {
        e.ask(&format!("setoption name MoveNotation value {notation}"));
        if how == "fen x" {
            e.ask(&format!("position fen {PENDING}"));
        } else {
            e.ask(&format!("position startpos {how}"));
        }
        let best = e.bestmove("go depth 3");
        assert!(
            best == "bestmove xd1"
                || best.starts_with("bestmove xd1 ponder ")
                || best == "bestmove xa1"
                || best.starts_with("bestmove xa1 ponder "),
            "{best}"
        );
    }
    e.quit();
}

#[test]
fn turn_and_action_notation() {
    let _gate = shared();
    let mut e = Engine::start();
    let before = "d7 a1 g7 d1";
    e.ask(&format!("position startpos moves {before}"));
    // Turn: the mill and its removal are one token.
    let lines = e.go("go depth 2 searchmoves a7");
    let best = word_after(lines.last().unwrap(), "bestmove").unwrap();
    assert!(best == "a7xd1" || best == "a7xa1", "{best}");
    for l in &lines[..lines.len() - 1] {
        let pv: Vec<&str> = l.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert!(pv[0].starts_with("a7x"), "{l}");
        assert!(legal(Rules::nine(), before, &pv.join(" ")), "{l}");
    }
    // Action: the step alone; the removal comes from the next go.
    e.ask("setoption name movenotation value ACTION");
    let lines = e.go("go depth 2 searchmoves a7");
    assert_eq!(lines.last().unwrap(), "bestmove a7");
    for l in &lines[..lines.len() - 1] {
        let pv = l.split(" pv ").nth(1).unwrap();
        assert!(pv.starts_with("a7 x"), "{l}");
        assert!(legal(Rules::nine(), before, pv), "{l}");
    }
    e.ask(&format!("position startpos moves {before} a7"));
    let best = e.bestmove("go depth 2");
    assert!(
        best.starts_with("bestmove xd1") || best.starts_with("bestmove xa1"),
        "{best}"
    );
    // searchmoves in two tokens names one turn.
    e.ask(&format!("position startpos moves {before}"));
    e.ask("setoption name MoveNotation value turn");
    let best = e.bestmove("go depth 2 searchmoves a7 xa1");
    assert!(best.starts_with("bestmove a7xa1"), "{best}");
    // A turn without removal prints a ponder move of the opponent.
    e.ask("position startpos");
    let best = e.bestmove("go depth 3");
    let mv = word_after(&best, "bestmove").unwrap();
    let ponder = word_after(&best, "ponder").expect("a ponder move");
    assert!(
        legal(Rules::nine(), "", &format!("{mv} {ponder}")),
        "{best}"
    );
    e.quit();
}

#[test]
fn info_lines_have_every_field() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask(&format!("position fen {MOVING}"));
    e.ask("setoption name MultiPV value 3");
    let lines = e.go("go depth 4");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    let mut multipvs = std::collections::BTreeSet::new();
    for l in &infos {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[1], "depth", "{l}");
        assert_eq!(w[3], "seldepth", "{l}");
        assert_eq!(w[5], "multipv", "{l}");
        assert_eq!(w[7], "score", "{l}");
        assert!(w[8] == "cp" || w[8] == "mate", "{l}");
        w[9].parse::<i32>().unwrap();
        let mut i = 10;
        if w[i] == "lowerbound" || w[i] == "upperbound" {
            i += 1;
        }
        for key in ["nodes", "nps", "hashfull", "time"] {
            assert_eq!(w[i], key, "{l}");
            w[i + 1].parse::<u64>().unwrap();
            i += 2;
        }
        assert_eq!(w[i], "pv", "{l}");
        multipvs.insert(w[6].parse::<u32>().unwrap());
        let mut game = Game::from_fen(MOVING, Rules::nine()).unwrap();
        game.play_tokens(w[i + 1..].iter().copied()).unwrap();
    }
    assert_eq!(multipvs.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    e.quit();
}

#[test]
fn search_limits() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask(&format!("position fen {MOVING}"));
    for go in [
        "go depth 1",
        "go nodes 2000",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 3000 btime 3000 movestogo 20",
        "go wtime -100 btime 50",
        "go nodes 99999999999999999999999999 depth 2",
        "go wtime 99999999999999999999 btime 99999999999999999 winc 999999999999999999 binc 9999999999999999999 depth 2",
    ] {
        let t = Instant::now();
        let best = e.bestmove(go);
        let mv = word_after(&best, "bestmove").unwrap();
        let mut game = Game::from_fen(MOVING, Rules::nine()).unwrap();
        game.play_token(mv).unwrap_or_else(|err| panic!("{go}: {best}: {err}"));
        assert!(t.elapsed() < Duration::from_secs(5), "{go} took {:?}", t.elapsed());
    }
    // Huge depths are clamped and run until stop.
    e.send("go depth 999999");
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    // The other styles and options search too.
    for option in [
        "setoption name Style value plain",
        "setoption name Threads value 2",
        "setoption name MoveOverhead value 0",
        "setoption name Ponder value true",
        "setoption name Hash value 1",
    ] {
        assert_eq!(e.ask(option), Vec::<String>::new(), "{option}");
        let best = e.bestmove("go depth 3");
        let mut game = Game::from_fen(MOVING, Rules::nine()).unwrap();
        game.play_token(word_after(&best, "bestmove").unwrap())
            .unwrap();
    }
    e.quit();
}

#[test]
fn infinite_and_ponder_hold_bestmove() {
    let _gate = shared();
    let mut e = Engine::start();
    // These positions are in the opening book: search them.
    e.ask("setoption name OwnBook value false");
    e.ask("position startpos moves d6 f4");
    // A search that ends by itself still waits for stop.
    e.send("go infinite depth 2");
    e.until(|l| l.starts_with("info depth 2"));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    thread::sleep(Duration::from_millis(150));
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.len(), 1, "{lines:?}");
    // Pondering: held until ponderhit.
    e.send("go ponder depth 2");
    e.until(|l| l.starts_with("info depth 2"));
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.send("ponderhit");
    e.until(|l| l.starts_with("bestmove"));
    // A ponder search that is still running goes on under its limits after ponderhit.
    e.send("go ponder movetime 100");
    thread::sleep(Duration::from_millis(200));
    let lines = e.ask("isready");
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    e.send("ponderhit");
    let t = Instant::now();
    e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(2));
    // stop without a search, ponderhit without pondering: nothing.
    assert_eq!(e.ask("stop"), Vec::<String>::new());
    assert_eq!(e.ask("ponderhit"), Vec::<String>::new());
    // A new go right after stop waits for the old search instead of refusing.
    e.send("go infinite");
    e.send("stop");
    e.send("go depth 1");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    e.until(|l| l.starts_with("bestmove"));
    e.quit();
}

#[test]
fn game_over_answers_none_with_the_reason() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("position fen O*O*****/********/@@@***** w m s 2 0 3 0 0 0 -1 -1 -1 -1 0 0 20");
    let lines = e.go("go depth 3");
    assert_eq!(
        lines,
        vec![
            "info string game over: 0-1 black wins: white has fewer than three pieces",
            "bestmove none"
        ]
    );
    assert_eq!(e.ask_one("moves"), "moves");
    let err = e.refused(
        "position fen O*O*****/********/@@@***** w m s 2 0 3 0 0 0 -1 -1 -1 -1 0 0 20 moves d5-d6",
    );
    assert!(err.contains("game is over"), "{err}");
    // Held in infinite mode like any result.
    e.send("go infinite");
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.send("stop");
    assert_eq!(e.until(|l| l.starts_with("bestmove")).len(), 2);
    e.quit();
}

#[test]
fn perft_in_both_conventions() {
    let _gate = shared();
    let mut e = Engine::start();
    let lines = e.go_until("perft 3", "nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 12144");
    assert_eq!(lines.iter().filter(|l| l.ends_with(" 506")).count(), 24);
    let lines = e.go_until("go perft 5", "nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 5140800");
    e.ask("setoption name MoveNotation value action");
    let lines = e.go_until("go perft 5", "nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 5100480");
    e.ask(&format!("position fen {MOVING}"));
    e.ask("setoption name MoveNotation value turn");
    assert_eq!(
        e.go_until("perft 4", "nodes ").last().unwrap(),
        "nodes 1152"
    );
    assert_eq!(e.go_until("perft 0", "nodes ").last().unwrap(), "nodes 1");
    // A deep perft stops at once.
    e.ask("position startpos");
    e.send("perft 12");
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.until(|l| l == "info string perft stopped");
    e.quit();
}

impl Engine {
    fn go_until(&mut self, cmd: &str, prefix: &str) -> Vec<String> {
        self.send(cmd);
        self.until(|l| l.starts_with(prefix))
    }
}

#[test]
fn display_eval_moves() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("position startpos moves a7 g1");
    let d = e.ask("d");
    assert_eq!(d[0], "7  O-----------.-----------.");
    assert_eq!(d[12], "1  .-----------.-----------@");
    assert!(d
        .iter()
        .any(|l| l == &format!("Position: {}", e_fen_after(&["a7", "g1"]))));
    for needle in [
        "Side to move: white",
        "Phase: placing",
        "white: 1 on board, 8 in hand",
        "No-capture plies: 0",
        "Rules: nine",
    ] {
        assert!(d.iter().any(|l| l.contains(needle)), "{needle}: {d:?}");
    }
    let eval = e.ask("eval");
    assert!(eval[0].starts_with("term"));
    assert!(eval.iter().any(|l| l.starts_with("material")));
    assert!(eval.last().unwrap().starts_with("Evaluation: "), "{eval:?}");
    let moves = e.ask_one("moves");
    assert_eq!(moves.split_whitespace().count(), 1 + 22);
    e.ask("position startpos moves d7 a1 g7 d1");
    let moves = e.ask_one("moves");
    assert!(
        moves.contains(" a7xd1 ") && moves.contains(" a7xa1"),
        "{moves}"
    );
    e.ask("setoption name MoveNotation value action");
    let moves = e.ask_one("moves");
    assert!(moves.contains(" a7") && !moves.contains('x'), "{moves}");
    e.ask("setoption name Variant value twelve");
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.contains('\\')), "{d:?}");
    assert!(d.iter().any(|l| l.contains("Rules: twelve")), "{d:?}");
    e.quit();
}

fn e_fen_after(moves: &[&str]) -> String {
    let mut g = Game::new(Rules::nine());
    g.play_tokens(moves.iter().copied()).unwrap();
    moulin::rules::fen::write(g.position())
}

#[test]
fn rule_options_reset_the_position() {
    let _gate = shared();
    let mut e = Engine::start();
    for (option, value, check) in [
        ("Pieces", "12", " 0 12 0 12 "),
        ("FirstPlayer", "black", " b p p "),
        ("Variant", "lasker", " 0 10 0 10 "),
        ("Diagonals", "true", ""),
        ("Flying", "never", ""),
        ("MillProtection", "always", ""),
        ("DoubleMill", "per-mill", ""),
        ("Reform", "illegal", ""),
        ("NoCapture", "0", ""),
        ("Repetition", "off", ""),
        ("MovingInPlacing", "true", ""),
        ("FullBoard", "blocked", ""),
        ("variant", "NINE", " 0 9 0 9 "),
    ] {
        e.ask("position startpos moves d6");
        assert_eq!(
            e.ask(&format!("setoption name {option} value {value}")),
            Vec::<String>::new()
        );
        let fen = e.fen();
        assert!(
            fen.starts_with("********/********/******** "),
            "{option}: {fen}"
        );
        assert!(fen.contains(check), "{option}: {fen}");
    }
    // Under 12 pieces, a position string must fit the rules in force.
    e.ask("setoption name Pieces value 12");
    e.ask("position startpos moves d6 d7");
    assert!(e.fen().contains(" 1 11 1 11 "));
    e.quit();
}

#[test]
fn every_error_is_one_line_and_changes_nothing() {
    let _gate = shared();
    let mut e = Engine::start();
    // The searches below are of positions in the opening book: search them.
    e.ask("setoption name OwnBook value false");
    e.ask("position startpos moves d6 f4");
    for bad in [
        "bogus",
        "uci now",
        "isready please",
        "setoption",
        "setoption Hash 3",
        "setoption name",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name Colour value red",
        "setoption name Hash value 0",
        "setoption name Hash value 1000000000000",
        "setoption name Hash value big",
        "setoption name Threads value 0",
        "setoption name Threads value 65",
        "setoption name MultiPV value -1",
        "setoption name Ponder value maybe",
        "setoption name Style value fancy",
        "setoption name MoveNotation value both",
        "setoption name Variant value chess",
        "setoption name Pieces value 13",
        "setoption name Pieces value 2",
        "setoption name FirstPlayer value red",
        "setoption name Diagonals value sometimes",
        "setoption name Flying value 2",
        "setoption name MillProtection value maybe",
        "setoption name DoubleMill value three",
        "setoption name Reform value perhaps",
        "setoption name NoCapture value 10001",
        "setoption name Repetition value twofold",
        "setoption name MovingInPlacing value 2",
        "setoption name FullBoard value lost",
        "position",
        "position startpos d6",
        "position fen",
        "position fen nonsense",
        "position fen ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0",
        "position fen ********/********/******** w p p 0 10 0 9 0 0 -1 -1 -1 -1 0 0 1",
        "position nowhere",
        "position startpos moves d6 d6",
        "position startpos moves d6 f4 d9",
        "position startpos moves d6-d5",
        "position startpos moves xd6",
        "position startpos moves d7 a1 g7 d1 a7 d6",
        "position startpos moves d7 a1 g7 d1 a7xg7",
        "position startpos moves d6xf4",
        "position startpos moves é",
        "go depth",
        "go depth deep",
        "go movetime 1e3",
        "go fast",
        "go searchmoves",
        "go searchmoves d6",
        "go depth 1 searchmoves a7 xd6",
        "go searchmoves zz",
        "go perft",
        "go perft 21",
        "perft",
        "perft -1",
        "perft 99",
        "perft 3 4",
        "d now",
        "fen please",
        "moves all",
        "eval me",
        "help me",
        "stop now",
        "ponderhit now",
        "quit now",
        "ucinewgame again",
        "debug maybe",
    ] {
        e.refused(bad);
    }
    // A refused setoption keeps the value: the table size did not change, nor the rules.
    assert!(e.ask("d").iter().any(|l| l.starts_with("Rules: nine")));
    // A position string that does not read and one that reads but is no position are told apart,
    // and both name the field.
    let syntax =
        e.refused("position fen ********/********/******** x p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1");
    assert!(syntax.contains("bad position string, field 2"), "{syntax}");
    let impossible =
        e.refused("position fen ********/********/******** w p p 0 10 0 9 0 0 -1 -1 -1 -1 0 0 1");
    assert!(
        impossible.contains("impossible position, field 6"),
        "{impossible}"
    );
    // Invalid UTF-8 and control characters.
    e.send_bytes(b"\xff\xfe\xfd go\n");
    let line = e.next_line(TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string error: unknown command"),
        "{line}"
    );
    e.send_bytes(b"\x01\x02\x1b[2J\n");
    let line = e.next_line(TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string error: ") && !line.contains('\x1b'),
        "{line}"
    );
    // A line far too long.
    let mut long = b"position startpos moves".to_vec();
    long.extend(" d6".repeat(100_000).as_bytes());
    long.push(b'\n');
    e.send_bytes(&long);
    let line = e.next_line(TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string error: line too long"),
        "{line}"
    );
    // Blank lines are ignored.
    assert_eq!(e.ask(""), Vec::<String>::new());
    assert_eq!(e.ask(" \t \r"), Vec::<String>::new());
    // Commands that need the engine idle are refused during a search, others answer.
    e.send("go infinite");
    for busy in [
        "go depth 1",
        "perft 1",
        "setoption name Hash value 2",
        "ucinewgame",
    ] {
        let lines = e.ask_quiet(busy);
        assert_eq!(
            lines,
            vec!["info string error: a search is running: send stop first"]
        );
    }
    assert_eq!(e.ask_quiet("fen").len(), 1);
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    assert!(e.fen().starts_with("********/O*@*****/"));
    e.quit();
}

#[test]
fn quit_and_end_of_input_end_a_search_at_once() {
    let _gate = alone();
    for how in ["quit", "eof"] {
        let mut e = Engine::start();
        e.ask(&format!("position fen {MOVING}"));
        e.send("go infinite");
        e.until(|l| l.starts_with("info depth 5"));
        thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        if how == "quit" {
            e.send("quit");
        } else {
            e.stdin = None;
        }
        let status = e.wait_exit(Duration::from_secs(5)).expect("exits");
        let took = t.elapsed();
        println!(
            "{how} during a search: exit after {:.1} ms",
            took.as_secs_f64() * 1000.0
        );
        assert!(status.success(), "{status:?}");
        assert!(took < Duration::from_millis(100), "{how}: {took:?}");
    }
}

#[test]
fn stop_latency_worst_of_200() {
    let _gate = alone();
    let mut e = Engine::start();
    e.ask(&format!("position fen {MOVING}"));
    let mut worst = Duration::ZERO;
    let mut all = Vec::new();
    for i in 0..200 {
        e.send("go infinite");
        e.until(|l| l.starts_with("info depth 3"));
        thread::sleep(Duration::from_millis(i % 7));
        let t = Instant::now();
        e.send("stop");
        e.until(|l| l.starts_with("bestmove"));
        let took = t.elapsed();
        worst = worst.max(took);
        all.push(took);
    }
    all.sort();
    println!(
        "stop latency over 200 tries: median {:.2} ms, worst {:.2} ms",
        all[100].as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0
    );
    assert!(
        worst < Duration::from_millis(50),
        "worst stop latency {worst:?}"
    );
    e.quit();
}

/// Picks one of `items`.
fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

const SEEDS: [&str; 48] = [
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name MoveOverhead value 10",
    "setoption name Ponder value true",
    "setoption name Style value plain",
    "setoption name Style value full",
    "setoption name MoveNotation value action",
    "setoption name MoveNotation value turn",
    "setoption name Variant value twelve",
    "setoption name Variant value morabaraba",
    "setoption name Variant value nine",
    "setoption name Pieces value 10",
    "setoption name FirstPlayer value black",
    "setoption name Diagonals value true",
    "setoption name Flying value 4",
    "setoption name MillProtection value never",
    "setoption name DoubleMill value per-mill",
    "setoption name Reform value illegal",
    "setoption name NoCapture value 20",
    "setoption name Repetition value off",
    "setoption name MovingInPlacing value true",
    "setoption name FullBoard value blocked",
    "position startpos",
    "position startpos moves d6 f4 d2 b4 g4 d7 a4 d1",
    "position startpos moves d7 a1 g7 d1 a7",
    "position startpos moves d7 a1 g7 d1 a7xd1 b4",
    "position startpos moves d7 a1 g7 d1 a7 xd1 b4",
    "position fen ********/********/OO**@@*O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3",
    "position fen O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10 moves d5-e5",
    "go depth 2",
    "go nodes 500",
    "go movetime 5",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 5",
    "go infinite",
    "go ponder depth 1",
    "go depth 2 searchmoves d6 a7",
    "go perft 2",
    "perft 2",
    "stop",
    "ponderhit",
    "d",
    "fen",
    "moves",
    "eval",
];

/// One fuzz line: random bytes, or a seed line mutated (bytes changed, inserted, deleted,
/// truncated, words swapped or repeated, numbers made huge), or rarely a very long line.
fn fuzz_line(rng: &mut Rng) -> Vec<u8> {
    let line: Vec<u8> = match rng.below(10) {
        0 => (0..rng.below(80)).map(|_| rng.next_u64() as u8).collect(),
        1 => {
            let words: Vec<&str> = SEEDS.iter().flat_map(|s| s.split(' ')).collect();
            (0..1 + rng.below(8))
                .map(|_| pick(rng, &words))
                .collect::<Vec<_>>()
                .join(" ")
                .into_bytes()
        }
        2 if rng.below(500) == 0 => {
            let mut l = pick(rng, &SEEDS).as_bytes().to_vec();
            l.extend((0..70_000 + rng.below(70_000)).map(|_| b"ab d6-\xff "[rng.below(8)]));
            l
        }
        _ => {
            let mut l = pick(rng, &SEEDS).as_bytes().to_vec();
            for _ in 0..1 + rng.below(3) {
                match rng.below(7) {
                    0 if !l.is_empty() => {
                        let i = rng.below(l.len());
                        l[i] = rng.next_u64() as u8;
                    }
                    1 => {
                        let i = rng.below(l.len() + 1);
                        l.insert(i, rng.next_u64() as u8);
                    }
                    2 if !l.is_empty() => {
                        let i = rng.below(l.len());
                        l.remove(i);
                    }
                    3 => {
                        let i = rng.below(l.len() + 1);
                        l.truncate(i);
                    }
                    4 => {
                        let huge = pick(
                            rng,
                            &[
                                "99999999999999999999999999",
                                "-1",
                                "0",
                                "18446744073709551616",
                                "4294967296",
                            ],
                        );
                        let text = String::from_utf8_lossy(&l).to_string();
                        let swapped: Vec<String> = text
                            .split(' ')
                            .map(|w| {
                                if w.bytes().all(|b| b.is_ascii_digit()) && !w.is_empty() {
                                    huge.to_string()
                                } else {
                                    w.to_string()
                                }
                            })
                            .collect();
                        l = swapped.join(" ").into_bytes();
                    }
                    5 => {
                        let text = String::from_utf8_lossy(&l).to_string();
                        let mut words: Vec<&str> = text.split(' ').collect();
                        let (a, b) = (rng.below(words.len()), rng.below(words.len()));
                        words.swap(a, b);
                        l = words.join(" ").into_bytes();
                    }
                    _ => {
                        let text = String::from_utf8_lossy(&l).to_string();
                        let words: Vec<&str> = text.split(' ').collect();
                        let w = words[rng.below(words.len())];
                        l = format!("{text} {w} {w}").into_bytes();
                    }
                }
            }
            l
        }
    };
    // The fuzz must not end the engine, nor grow its hash table.
    let text = String::from_utf8_lossy(&line).to_ascii_lowercase();
    let first = text.split_whitespace().next().unwrap_or("");
    if first == "quit" || text.contains("hash") {
        return b"isready".to_vec();
    }
    line.into_iter().filter(|&b| b != b'\n').collect()
}

#[test]
fn fuzz_100k_lines_then_still_plays() {
    let _gate = shared();
    let mut e = Engine::start();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let started = Instant::now();
    let mut batch = Vec::new();
    for i in 0..100_000 {
        batch.extend(fuzz_line(&mut rng));
        batch.push(b'\n');
        if i % 1000 == 999 {
            e.send_bytes(&batch);
            batch.clear();
        }
    }
    e.send("stop");
    e.send("fuzz-is-over");
    let lines = e.until(|l| l.contains("fuzz-is-over"));
    assert!(
        lines.iter().all(|l| !l.contains("internal error")),
        "{:?}",
        lines.iter().find(|l| l.contains("internal error"))
    );
    println!(
        "fuzz: 100000 lines in {:.2} s, {} lines answered",
        started.elapsed().as_secs_f64(),
        lines.len()
    );
    // Whatever the fuzz left running ends before the setoption (which waits for a stopped job).
    e.send("stop");
    e.send("setoption name Variant value nine");
    e.send("fuzz-is-drained");
    e.until(|l| l.contains("fuzz-is-drained"));
    for reset in [
        "setoption name MoveNotation value turn",
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
    ] {
        assert_eq!(e.ask(reset), Vec::<String>::new(), "{reset}");
    }
    e.ask("position startpos moves d6 f4");
    let best = e.bestmove("go depth 3");
    let mv = word_after(&best, "bestmove").unwrap();
    assert!(legal(Rules::nine(), "d6 f4", mv), "{best}");
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    e.quit();
}

/// The shipped book of the standard game.
fn shipped_book() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/nine.book"))
        .expect("book/nine.book")
}

/// A file of the test's own in the temporary folder.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("moulin-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn book_moves_are_answered_at_once() {
    let _gate = shared();
    let mut e = Engine::start();
    // The start position is in the book: even a deep search is answered at once.
    let t = Instant::now();
    e.ask("position startpos");
    let lines = e.go("go depth 30");
    let elapsed = t.elapsed();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let info = &lines[0];
    let w: Vec<&str> = info.split_whitespace().collect();
    assert_eq!(&w[..3], ["info", "string", "book"], "{info}");
    assert_eq!(w[4], "score", "{info}");
    assert!(w[5] == "cp" || w[5] == "mate", "{info}");
    w[6].parse::<i32>().unwrap();
    assert_eq!(w[7], "weight", "{info}");
    w[8].parse::<u32>().unwrap();
    let best = word_after(&lines[1], "bestmove").unwrap();
    assert_eq!(best, w[3]);
    assert!(legal(Rules::nine(), "", best), "{lines:?}");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    // Deterministic by default; every first move of White has a book reply.
    assert_eq!(e.go("go depth 30"), lines);
    for first in ["a7", "d7", "d6", "c5", "b4", "e3", "g1"] {
        e.ask(&format!("position startpos moves {first}"));
        let lines = e.go("go depth 30");
        assert!(
            lines[0].starts_with("info string book "),
            "{first}: {lines:?}"
        );
        let best = word_after(lines.last().unwrap(), "bestmove").unwrap();
        assert!(legal(Rules::nine(), first, best), "{first}: {lines:?}");
    }
    // `go infinite` in a book position holds its bestmove until stop.
    e.ask("position startpos");
    e.send("go infinite");
    assert!(e
        .next_line(TIMEOUT)
        .unwrap()
        .starts_with("info string book "));
    assert_eq!(e.next_line(Duration::from_millis(200)), None);
    e.send("stop");
    assert!(e.next_line(TIMEOUT).unwrap().starts_with("bestmove "));
    // searchmoves asks for a search.
    let lines = e.go("go depth 2 searchmoves a7");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap().split_whitespace().nth(1), Some("a7"));
    // A weighted choice stays among the book moves of the position.
    e.ask("setoption name BookVariety value weighted");
    let start = shipped_book()
        .lines()
        .find(|l| l.starts_with(START))
        .unwrap()
        .to_string();
    let book_moves: Vec<&str> = start
        .split('|')
        .skip(1)
        .map(|m| m.split_whitespace().next().unwrap())
        .collect();
    for _ in 0..10 {
        let best = e.bestmove("go depth 30");
        let mv = word_after(&best, "bestmove").unwrap();
        // The start is symmetric (the rotations, reflections and the swap of the inner and
        // outer squares): any image of a book move will do.
        let class = |m: &str| match m {
            "d6" | "f4" | "d2" | "b4" => 0,
            "d5" | "e4" | "d3" | "c4" | "d7" | "g4" | "d1" | "a4" => 1,
            "f6" | "f2" | "b2" | "b6" => 2,
            _ => 3,
        };
        assert!(
            book_moves.iter().any(|b| class(b) == class(mv)),
            "{mv} is none of {book_moves:?}"
        );
    }
    e.quit();
}

#[test]
fn own_book_false_searches() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name OwnBook value false");
    e.ask("position startpos");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2")),
        "{lines:?}"
    );
    // And back on.
    e.ask("setoption name OwnBook value true");
    let lines = e.go("go depth 2");
    assert!(lines[0].starts_with("info string book"), "{lines:?}");
    // Another variant has no book of its own: a search (and a warning on stderr only).
    assert_eq!(
        e.ask("setoption name Variant value twelve"),
        Vec::<String>::new()
    );
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert_eq!(
        e.ask("setoption name Variant value nine"),
        Vec::<String>::new()
    );
    let lines = e.go("go depth 2");
    assert!(lines[0].starts_with("info string book"), "{lines:?}");
    // A book of other rules is not used: nine.book under twelve's rules.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/book/nine.book");
    e.ask(&format!("setoption name BookFile value {path}"));
    e.ask("setoption name Variant value twelve");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn missing_or_corrupt_book_files_leave_the_engine_playing() {
    let _gate = shared();
    let mut e = Engine::start();
    // Missing: no line on stdout (a warning on stderr), and a search.
    assert_eq!(
        e.ask("setoption name BookFile value /no/such/dir/x.book"),
        Vec::<String>::new()
    );
    e.ask("position startpos");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    // Corrupt: one error line naming the line, then a search.
    let mut text: Vec<String> = shipped_book().lines().take(40).map(String::from).collect();
    let header = text
        .iter()
        .position(|l| l.starts_with("positions "))
        .unwrap();
    text[header] = format!("positions {}", text.len() - header - 1);
    text[header + 3] = text[header + 3].replace('|', "| zz9 0 1 |");
    let path = temp_file("corrupt.book", &text.join("\n"));
    let lines = e.ask(&format!("setoption name BookFile value {}", path.display()));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: opening book ")
            && lines[0].contains(&format!("line {}", header + 4))
            && lines[0].contains("zz9"),
        "{lines:?}"
    );
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert!(legal(
        Rules::nine(),
        "",
        word_after(lines.last().unwrap(), "bestmove").unwrap()
    ));
    // The same lines, intact, make a book the engine plays from.
    text[header + 3] = text[header + 3].replace("| zz9 0 1 |", "|");
    let good = temp_file("good.book", &text.join("\n"));
    assert_eq!(
        e.ask(&format!("setoption name BookFile value {}", good.display())),
        Vec::<String>::new()
    );
    let lines = e.go("go depth 2");
    assert!(lines[0].starts_with("info string book"), "{lines:?}");
    // `<empty>` is the variant's default book again.
    assert_eq!(
        e.ask("setoption name BookFile value <empty>"),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(good);
    e.quit();
}

#[test]
fn book_turns_in_the_action_notation() {
    let _gate = shared();
    let book = shipped_book();
    // A book position whose best move closes a mill.
    let line = book
        .lines()
        .find(|l| {
            l.split('|')
                .nth(1)
                .is_some_and(|m| m.split_whitespace().next().unwrap().contains('x'))
        })
        .expect("a book move that removes");
    let fen = line.split('|').next().unwrap().trim();
    let turn = line
        .split('|')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let (step, removal) = turn.split_at(turn.find('x').unwrap());
    let mut e = Engine::start();
    e.ask(&format!("position fen {fen}"));
    let lines = e.go("go depth 30");
    assert_eq!(lines[0].split_whitespace().nth(3), Some(turn), "{lines:?}");
    assert_eq!(word_after(&lines[1], "bestmove"), Some(turn));
    e.ask("setoption name MoveNotation value action");
    e.ask(&format!("position fen {fen}"));
    let lines = e.go("go depth 30");
    assert_eq!(lines[0].split_whitespace().nth(3), Some(turn), "{lines:?}");
    assert_eq!(lines[1], format!("bestmove {step}"));
    e.ask(&format!("position fen {fen} moves {step}"));
    let lines = e.go("go depth 30");
    assert!(lines[0].starts_with("info string book "), "{lines:?}");
    assert_eq!(
        word_after(lines.last().unwrap(), "bestmove"),
        Some(removal),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn readyok_waits_for_the_book_while_other_commands_are_answered() {
    let _gate = shared();
    // A named pipe as the book file: its reader waits until the test writes the book into it.
    let pipe = std::env::temp_dir().join(format!("moulin-{}-slow.book", std::process::id()));
    let _ = std::fs::remove_file(&pipe);
    let made = Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", pipe.display());
    let mut e = Engine::start();
    e.ask("isready");
    e.send(&format!("setoption name BookFile value {}", pipe.display()));
    e.send("isready");
    // The book is being read: commands are still answered, but the engine is not ready.
    e.send("fen");
    assert_eq!(e.next_line(TIMEOUT).as_deref(), Some(START));
    assert_eq!(
        e.next_line(Duration::from_millis(300)),
        None,
        "readyok too early"
    );
    let writer = {
        let pipe = pipe.clone();
        thread::spawn(move || std::fs::write(&pipe, shipped_book()))
    };
    assert_eq!(e.next_line(TIMEOUT).as_deref(), Some("readyok"));
    writer.join().unwrap().unwrap();
    // Ready: a book position is answered from the book.
    e.ask("position startpos");
    let lines = e.go("go wtime 100 btime 100");
    assert!(lines[0].starts_with("info string book "), "{lines:?}");
    let _ = std::fs::remove_file(&pipe);
}

#[test]
fn a_book_file_too_large_is_refused_with_one_error() {
    let _gate = shared();
    let path = std::env::temp_dir().join(format!("moulin-{}-huge.book", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(65 << 20).unwrap();
    let mut e = Engine::start();
    let lines = e.ask(&format!("setoption name BookFile value {}", path.display()));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: opening book ") && lines[0].contains("64 MB"),
        "{lines:?}"
    );
    // The engine plays on without a book.
    e.ask("position startpos");
    let lines = e.go("go depth 2");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_clock_for_the_other_side_only_still_limits_the_search() {
    let _gate = shared();
    let mut e = Engine::start();
    e.ask("setoption name OwnBook value false");
    // Black to move, only White's clock: the engine takes its own to be the same.
    e.ask("position startpos moves d6");
    let t = Instant::now();
    let lines = e.go("go wtime 1000");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    assert!(t.elapsed() < TIMEOUT);
}
