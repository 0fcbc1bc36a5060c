//! A stand-in engine for testing `moulin match` and `moulin openings`: it speaks the protocol,
//! plays random legal moves, and misbehaves on request, so the match tool's handling of
//! untrusted engines can be tested without a real engine.
//!
//! Flags (`N` counts `go` commands over the life of the process, from 1):
//! `--seed S`, `--name NAME`, `--delay MS` (before each answer), `--crash-at N` (abort),
//! `--exit-at N` (exit cleanly, early), `--illegal-at N`, `--garbage-at N` (unparsable move),
//! `--hang-at N` (never answer), `--none-at N` (`bestmove none` in a live game), `--no-uciok`,
//! `--info-bestmove` (print `bestmove` at the end of an `info` line), `--two-token` (`bestmove
//! d6 xb4` in the turn notation), `--hash-scores` (scores from the position key, some mates,
//! instead of material), `--greedy` (take a piece whenever a move can: a stronger random
//! player), `--gbgp` (speak the GBGP dialect of the Nine Morris 3D GUI instead: `gbgp`/`gbgpok`
//! with the option `TwelveMensMorris`, `newgame`, `position pos <string>`; UCI's own words are
//! errors; `--no-uciok` then means no `gbgpok`), `--log FILE` (append every line received to
//! FILE), `--ply-depth` (report the depth `1 + the number of moves played in the game`, so a
//! test can tell what depth each move had), `--spawn-child` (start a helper that sleeps for
//! good) and `--daemon-child` (the same helper in a session of its own, `setsid`).

use moulin::rng::Rng;
use moulin::rules::notation::Convention;
use moulin::rules::{gbgp_position, movegen};
use moulin::{Color, Game, Rules};
use std::io::{BufRead, Write};
use std::time::Duration;

/// The flags that take no value.
const SWITCHES: [&str; 15] = [
    "--gbgp",
    "--ply-depth",
    "--no-uciok",
    "--info-bestmove",
    "--two-token",
    "--hash-scores",
    "--greedy",
    "--bad-stdout",
    "--bad-stderr",
    "--flood-stderr",
    "--stray-bestmove",
    "--duplicate-bestmove",
    "--ignore-quit",
    "--spawn-child",
    "--daemon-child",
];

/// Bytes that are not UTF-8.
const BAD: &[u8] = b"\xff\xfe\xc3(\x80";

// One flag a misbehaviour, each set from the command line.
#[allow(clippy::struct_excessive_bools)]
#[derive(Default)]
struct Flags {
    seed: u64,
    name: String,
    delay: u64,
    crash_at: Option<u64>,
    exit_at: Option<u64>,
    illegal_at: Option<u64>,
    garbage_at: Option<u64>,
    hang_at: Option<u64>,
    none_at: Option<u64>,
    no_uciok: bool,
    info_bestmove: bool,
    two_token: bool,
    hash_scores: bool,
    greedy: bool,
    bad_stdout: bool,
    bad_stderr: bool,
    flood_at: Option<u64>,
    flood_stderr: bool,
    stray_bestmove: bool,
    duplicate_bestmove: bool,
    slow_start: u64,
    ignore_quit: bool,
    spawn_child: bool,
    daemon_child: bool,
    helper: bool,
    gbgp: bool,
    log: Option<String>,
    ply_depth: bool,
}

fn flags() -> Flags {
    let mut f = Flags {
        name: "fake".into(),
        ..Flags::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || -> u64 {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("fake_engine: {} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--seed" => f.seed = value(),
            "--delay" => f.delay = value(),
            "--crash-at" => f.crash_at = Some(value()),
            "--exit-at" => f.exit_at = Some(value()),
            "--illegal-at" => f.illegal_at = Some(value()),
            "--garbage-at" => f.garbage_at = Some(value()),
            "--hang-at" => f.hang_at = Some(value()),
            "--none-at" => f.none_at = Some(value()),
            "--flood-at" => f.flood_at = Some(value()),
            "--slow-start" => f.slow_start = value(),
            "--tag" => {}
            "--helper" => f.helper = true,
            "--log" => f.log = args.get(i + 1).cloned(),
            "--ply-depth" => f.ply_depth = true,
            "--name" => {
                f.name = args.get(i + 1).cloned().unwrap_or_default();
            }
            "--gbgp" => f.gbgp = true,
            "--no-uciok" => f.no_uciok = true,
            "--info-bestmove" => f.info_bestmove = true,
            "--two-token" => f.two_token = true,
            "--hash-scores" => f.hash_scores = true,
            "--greedy" => f.greedy = true,
            "--bad-stdout" => f.bad_stdout = true,
            "--bad-stderr" => f.bad_stderr = true,
            "--flood-stderr" => f.flood_stderr = true,
            "--stray-bestmove" => f.stray_bestmove = true,
            "--duplicate-bestmove" => f.duplicate_bestmove = true,
            "--ignore-quit" => f.ignore_quit = true,
            "--spawn-child" => f.spawn_child = true,
            "--daemon-child" => f.daemon_child = true,
            other => panic!("fake_engine: unknown flag {other}"),
        }
        i += if SWITCHES.contains(&args[i].as_str()) || args[i] == "--helper" {
            1
        } else {
            2
        };
    }
    f
}

/// Sleeps for good, whatever comes in.
fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(1000));
    }
}

/// Writes raw bytes to stdout (and flushes).
fn raw(out: &mut impl Write, bytes: &[u8]) {
    let _ = out.write_all(bytes);
    let _ = out.flush();
}

/// The hostile things done at start.
fn start(f: &Flags) {
    if f.helper {
        sleep_forever();
    }
    if f.spawn_child || f.daemon_child {
        // The helper keeps the same stdout and stderr, as a careless engine's helper would; it
        // is never waited for, on purpose: it must outlive this process unless the runner ends
        // the whole group, or, daemonized (`setsid`: a session and a group of its own), unless
        // the runner adopts it.
        let me = std::env::current_exe().expect("own path");
        let mut args: Vec<String> = std::env::args().skip(1).collect();
        args.retain(|a| a != "--spawn-child" && a != "--daemon-child");
        args.push("--helper".into());
        let mut helper = std::process::Command::new(me);
        helper.args(args).stdin(std::process::Stdio::null());
        if f.daemon_child {
            use std::os::unix::process::CommandExt;
            // SAFETY: `setsid` is async-signal-safe, and all the child does before exec.
            unsafe {
                helper.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
        }
        #[allow(clippy::zombie_processes)]
        helper.spawn().expect("helper started");
    }
    if f.flood_stderr {
        let mut err = std::io::stderr();
        let _ = err.write_all(&vec![b'e'; 3 << 20]);
        let _ = err.write_all(b"\n");
    }
    if f.slow_start > 0 {
        std::thread::sleep(Duration::from_millis(f.slow_start));
    }
}

fn main() {
    let f = flags();
    start(&f);
    let mut rng = Rng::new(f.seed ^ u64::from(std::process::id()));
    let mut rules = Rules::nine();
    let mut notation = Convention::Turn;
    let mut game = Game::new(rules);
    let mut gos = 0u64;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut log = f.log.as_ref().map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("fake_engine: --log file")
    });
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(log) = log.as_mut() {
            let _ = writeln!(log, "{line}");
        }
        if f.bad_stderr {
            // A log line per command: `eprintln!` fails (and the engine dies) if the runner no
            // longer reads stderr.
            let _ = std::io::stderr().write_all(BAD);
            eprintln!(" fake_engine: read '{line}'");
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply: Vec<String> = match words.first().copied() {
            Some("uci" | "ucinewgame") if f.gbgp => {
                vec![format!("info string error: {} is not GBGP", words[0])]
            }
            Some("gbgp" | "newgame") if !f.gbgp => {
                vec![format!("info string error: {} is not UCI", words[0])]
            }
            Some("uci") => uci_lines(&f, &mut out),
            Some("gbgp") => gbgp_lines(&f),
            Some("isready") => vec!["readyok".into()],
            Some("ucinewgame" | "newgame") => {
                game = Game::new(rules);
                vec![]
            }
            Some("setoption") => {
                let reply = set_option(&words, &mut rules, &mut notation);
                game = Game::new(rules);
                reply
            }
            Some("position") => match position(&words, rules, f.gbgp) {
                Ok(g) => {
                    game = g;
                    vec![]
                }
                Err(e) => vec![format!("info string error: {e}")],
            },
            Some("go") => {
                gos += 1;
                answer_go(&f, &mut out, &game, notation, gos, &mut rng)
            }
            Some("quit") if f.ignore_quit => vec![],
            Some("quit") => break,
            Some("stop") | None => vec![],
            Some(other) => vec![format!("info string error: unknown command {other}")],
        };
        for r in reply {
            let _ = writeln!(out, "{r}");
        }
        let _ = out.flush();
    }
    if f.ignore_quit {
        sleep_forever();
    }
}

fn position(words: &[&str], rules: Rules, gbgp: bool) -> Result<Game, String> {
    let (mut game, rest) = match words.get(1).copied() {
        Some("pos") if gbgp && words.len() >= 3 => {
            let pos = gbgp_position::read(words[2], &rules).map_err(|e| e.to_string())?;
            (Game::from_position(pos), &words[3..])
        }
        Some("startpos" | "fen") if gbgp => return Err("GBGP says position pos".into()),
        Some("startpos") => (Game::new(rules), &words[2..]),
        Some("fen") if words.len() >= 19 => (
            Game::from_fen(&words[2..19].join(" "), rules).map_err(|e| e.to_string())?,
            &words[19..],
        ),
        _ => return Err("position startpos|fen <17 fields> [moves ...]".into()),
    };
    let rest = match rest.first() {
        Some(&"moves") => &rest[1..],
        _ => rest,
    };
    game.play_tokens(rest.iter().copied())
        .map_err(|(_, e)| e.to_string())?;
    Ok(game)
}

fn go(f: &Flags, game: &Game, notation: Convention, gos: u64, rng: &mut Rng) -> Vec<String> {
    let pos = game.position();
    let us = pos.side_to_move();
    let material = |c: Color| pos.on_board(c) as i32 + i32::from(pos.in_hand(c));
    let score = if f.hash_scores {
        let k = pos.key();
        if k.is_multiple_of(13) {
            "mate 7".to_string()
        } else {
            format!("cp {}", (k % 301) as i32 - 150)
        }
    } else {
        format!("cp {}", 100 * (material(us) - material(!us)))
    };
    let chosen = if game.outcome().is_some() || f.none_at == Some(gos) {
        "none".to_string()
    } else if f.garbage_at == Some(gos) {
        "hello".to_string()
    } else if f.illegal_at == Some(gos) {
        match pos.occupied().first() {
            Some(p) => p.name().to_string(),
            None => "xd6".to_string(),
        }
    } else {
        let mut legal = movegen::legal_moves(pos, Convention::Turn);
        if f.greedy && legal.iter().any(|m| m.removal_count() > 0) {
            legal.retain(|m| m.removal_count() > 0);
        }
        let mv = legal[rng.below(legal.len())];
        match notation {
            Convention::Action if mv.is_removal_only() => mv.turn_notation(),
            Convention::Action => mv.step_notation(),
            // Removals as tokens of their own must come in an order that reads back.
            Convention::Turn if f.two_token => mv.action_tokens_at(pos).join(" "),
            Convention::Turn => mv.turn_notation(),
        }
    };
    let depth = if f.ply_depth {
        game.moves().len() + 1
    } else {
        1
    };
    let info = format!("info depth {depth} score {score} nodes 1 pv {chosen}");
    if f.info_bestmove {
        vec![format!("{info} bestmove {chosen}")]
    } else {
        vec![info, format!("bestmove {chosen}")]
    }
}

/// The answer to `uci`: the engine's name and options, and `uciok` unless told otherwise.
fn uci_lines(f: &Flags, out: &mut impl Write) -> Vec<String> {
    if f.bad_stdout {
        raw(out, b"id name bad ");
        raw(out, BAD);
        raw(out, b"\n");
    }
    let mut r = vec![
            format!("id name {}", f.name),
            "id author moulin tests".into(),
            "option name Variant type combo default nine var nine var twelve var lasker var morabaraba var no-reform var protected-mills".into(),
            "option name MoveNotation type combo default turn var turn var action".into(),
            "option name Hash type spin default 16 min 1 max 1024".into(),
        ];
    if !f.no_uciok {
        r.push("uciok".into());
    }
    r
}

/// The answer to `gbgp`: the engine's name, the option the Nine Morris 3D GUI requires, and
/// `gbgpok` unless told otherwise.
fn gbgp_lines(f: &Flags) -> Vec<String> {
    let mut r = vec![
        format!("id name {}", f.name),
        "id author moulin tests".into(),
        "option name TwelveMensMorris type check default false".into(),
    ];
    if !f.no_uciok {
        r.push("gbgpok".into());
    }
    r
}

/// `setoption`: the rules, the notation and `Hash` (any value, ignored), or an error line, as
/// moulin words it, for any other option.
fn set_option(words: &[&str], rules: &mut Rules, notation: &mut Convention) -> Vec<String> {
    let at = |w: &str| words.iter().position(|&x| x == w);
    match (at("name"), at("value")) {
        (Some(n), Some(v)) if n < v => {
            let name = words[n + 1..v].join(" ");
            let value = words[v + 1..].join(" ");
            let result = match name.to_ascii_lowercase().as_str() {
                "variant" => Rules::preset(&value)
                    .map(|r| *rules = r)
                    .ok_or_else(|| format!("unknown variant {value}")),
                "twelvemensmorris" => match value.as_str() {
                    "true" => Rules::preset("twelve")
                        .map(|r| *rules = r)
                        .ok_or_else(|| "no twelve preset".to_string()),
                    "false" => {
                        *rules = Rules::nine();
                        Ok(())
                    }
                    _ => Err(format!("TwelveMensMorris takes true or false, not {value}")),
                },
                // Any value, ignored: tests give it odd ones.
                "hash" => Ok(()),
                "movenotation" => Convention::parse(&value)
                    .map(|c| *notation = c)
                    .ok_or_else(|| format!("bad notation {value}")),
                _ => rules.set(&name, &value).map_err(|e| e.to_string()),
            };
            match result {
                Ok(()) => vec![],
                Err(e) => vec![format!("info string error: {e}")],
            }
        }
        _ => vec!["info string error: setoption name <n> value <v>".into()],
    }
}

/// `go`: the misbehaviour the flags ask for at this `go`, else a move.
fn answer_go(
    f: &Flags,
    out: &mut impl Write,
    game: &Game,
    notation: Convention,
    gos: u64,
    rng: &mut Rng,
) -> Vec<String> {
    if f.delay > 0 {
        std::thread::sleep(Duration::from_millis(f.delay));
    }
    if f.crash_at == Some(gos) {
        std::process::abort();
    }
    if f.exit_at == Some(gos) {
        std::process::exit(0);
    }
    if f.hang_at == Some(gos) {
        sleep_forever();
    }
    if f.flood_at == Some(gos) {
        raw(out, b"info string ");
        let chunk = vec![b'x'; 1 << 16];
        while out.write_all(&chunk).is_ok() {}
        std::process::exit(1);
    }
    if f.bad_stdout {
        raw(out, b"info string ");
        raw(out, BAD);
        raw(out, b" bad bytes\n");
    }
    if f.stray_bestmove {
        let stray = [
            "info string nobestmove here",
            "info string bestmove will follow",
            "info depth 1 string see bestmove d1",
        ];
        for s in stray {
            let _ = writeln!(out, "{s}");
        }
    }
    let mut answer = go(f, game, notation, gos, rng);
    if f.duplicate_bestmove {
        answer.extend(answer.clone());
    }
    answer
}
