//! `moulin play` driven through a real terminal (tmux): a whole game typed move by move, an
//! illegal move, undo, save, new and load, and quit.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

use moulin::rng::Rng;
use moulin::rules::movegen;
use moulin::{Convention, Game, Rules};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

struct Pane {
    /// A tmux server of the test's own (its socket name), whose panes keep all their history.
    socket: String,
    name: String,
}

impl Pane {
    fn start(args: &str) -> Pane {
        static PANES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PANES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("moulin-play-{}-{n}", std::process::id());
        let config =
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{socket}.conf"));
        // The whole game's text must stay in the pane's history, where the moves are counted.
        std::fs::write(&config, "set -g history-limit 200000\n").unwrap();
        let cmd = format!("{} play {args}", env!("CARGO_BIN_EXE_moulin"));
        let ok = Command::new("tmux")
            .args(["-L", &socket, "-f", config.to_str().unwrap()])
            .args([
                "new-session",
                "-d",
                "-s",
                "play",
                "-x",
                "120",
                "-y",
                "50",
                &cmd,
            ])
            .status()
            .expect("tmux is installed (Debian package tmux): the play test needs a terminal");
        assert!(ok.success());
        Pane {
            socket,
            name: "play".into(),
        }
    }

    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    /// Types `text` and Enter, a key at a time, each once the one before shows: keys that
    /// arrive together wait in the line editor's buffer until the next one comes (rustyline
    /// 17.0.2 with an external printer, its issue 976).
    fn keys(&self, text: &str) {
        for (i, key) in text.char_indices() {
            self.send(&["-l", &key.to_string()]);
            let typed = &text[..i + key.len_utf8()];
            let until = Instant::now() + Duration::from_secs(20);
            while !self.screen().trim_end().ends_with(typed.trim_end()) {
                assert!(Instant::now() < until, "{typed} never shows");
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.send(&["Enter"]);
    }

    fn send(&self, keys: &[&str]) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// What the pane shows now.
    fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-J", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Everything the pane has shown.
    fn text(&self) -> String {
        let out = self
            .tmux()
            .args([
                "capture-pane",
                "-p",
                "-J",
                "-t",
                &self.name,
                "-S",
                "-200000",
            ])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the pane's text satisfies `done`.
    fn wait(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let t = self.text();
            if done(&t) {
                return t;
            }
            assert!(Instant::now() < until, "waited for {what}; the pane:\n{t}");
            thread::sleep(Duration::from_millis(30));
        }
    }

    /// Types `quit` and checks that the program ends.
    fn quit(&self) {
        self.keys("quit");
        let until = Instant::now() + Duration::from_secs(5);
        while self.alive() && Instant::now() < until {
            thread::sleep(Duration::from_millis(20));
        }
        assert!(!self.alive(), "quit ends the program");
    }

    fn alive(&self) -> bool {
        self.tmux()
            .args(["has-session", "-t", &self.name])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self
            .tmux()
            .arg("kill-server")
            .stderr(std::process::Stdio::null())
            .status();
    }
}

/// The moves moulin announced, in order.
fn engine_moves(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split("moulin plays ").nth(1))
        .filter_map(|m| m.split_whitespace().next())
        .map(String::from)
        .collect()
}

#[test]
fn a_whole_game_typed_at_the_terminal_then_undo_save_load_and_quit() {
    let pane = Pane::start("--level 1 --movetime 20 --plain");
    pane.wait("the first board", |t| t.contains("white (you) to move"));
    // An illegal move: what was wrong and the legal choices; nothing changes.
    pane.keys("d9");
    let t = pane.wait("the refusal", |t| t.contains("Legal moves:"));
    assert!(t.contains("'d9' is not a legal move here"), "{t}");
    let mut game = Game::new(Rules::nine());
    let mut rng = Rng::new(17);
    let mut seen = 0;
    let mut typed = 0;
    while game.outcome().is_none() && typed < 400 {
        let legal = movegen::legal_moves(game.position(), Convention::Turn);
        let mv = legal[rng.below(legal.len())];
        let text = mv.written_at(game.position(), Convention::Turn);
        game.play(mv);
        pane.keys(&text);
        typed += 1;
        if game.outcome().is_some() {
            break;
        }
        let t = pane.wait("moulin's answer", |t| engine_moves(t).len() > seen);
        let answer = engine_moves(&t)[seen].clone();
        seen += 1;
        game.play_token(&answer)
            .unwrap_or_else(|e| panic!("moulin played {answer}: {e}\n{t}"));
    }
    // At least the whole placing was typed.
    assert!(typed >= 9, "{typed} moves typed");
    println!(
        "a game of {} plies typed at the terminal",
        game.moves().len()
    );
    let t = pane.wait("the end of the game", |t| t.contains("Game over: "));
    let end = game.outcome().expect("the game ended").score();
    assert!(t.contains(&format!("Game over: {end}")), "{t}");
    // Undo after the end: the game goes on from the player's last turn.
    pane.keys("undo");
    let t = pane.wait("the undo", |t| t.contains("Took back"));
    assert!(
        t.trim_end().ends_with('>') || t.contains("white (you) to move"),
        "{t}"
    );
    // Save, start a new game, load the saved one.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pgn");
    pane.keys(&format!("save {}", file.display()));
    pane.wait("the save", |t| t.contains("saved "));
    let saved = moulin::record::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved.len(), 1);
    let moves = saved[0].moves.len();
    assert!(moves > 0 && saved[0].tag("White") == Some("you"));
    pane.keys("new");
    pane.wait("the new game", |t| t.contains("A new game."));
    pane.keys(&format!("load {}", file.display()));
    let t = pane.wait("the load", |t| t.contains("loaded "));
    assert!(t.contains(&format!("loaded {moves} moves")), "{t}");
    pane.quit();
}

#[test]
fn load_refuses_a_record_nested_too_deep_and_reads_one_with_a_byte_order_mark() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("moulin-play-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 100,000 nested variations overflowed the stack.
    let deep = dir.join("deep.pgn");
    let n = 100_000;
    let text = format!("1. d6 {}{} *\n", "(d6 ".repeat(n), ")".repeat(n));
    std::fs::write(&deep, text).unwrap();
    let bom = dir.join("bom.pgn");
    std::fs::write(&bom, "\u{feff}[Event \"e\"]\n\n1. d6 f4 *\n").unwrap();
    let pane = Pane::start("--level 1 --movetime 20 --plain");
    pane.wait("the first board", |t| t.contains("white (you) to move"));
    pane.keys(&format!("load {}", deep.display()));
    let t = pane.wait("the refusal", |t| t.contains("deeper than"));
    assert!(
        t.contains("line 1, column 407: variations nest deeper than the 100 levels"),
        "{t}"
    );
    pane.keys(&format!("load {}", bom.display()));
    let t = pane.wait("the load", |t| t.contains("loaded "));
    assert!(t.contains("loaded 2 moves"), "{t}");
    pane.quit();
}
