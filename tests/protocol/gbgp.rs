//! The GBGP dialect as the Nine Morris 3D GUI drives it (GBGP.md): the handshake and its time
//! limits, games at the GUI's clock with the engine as each colour, a new game in the middle of
//! a search, the analysis of a saved game with `stop`, the endings the GUI referees (threefold
//! repetition, 100 quiet plies, blocking, material) answered `bestmove none` exactly when the
//! GUI says the game is over, CRLF input, errors, and `quit`.
//!
//! The referee here counts the GUI's draw rules on its own (positions and quiet plies since the
//! last placement or capture), apart from the engine's `Game`, whose legal moves it uses.

use super::harness::{shared, Engine};
use moulin::rng::Rng;
use moulin::rules::movegen;
use moulin::{Bitboard, Color, Convention, Game, Rules};
use std::time::{Duration, Instant};

/// The GUI's time limit for `gbgpok` and for `readyok`.
const GUI_LIMIT: Duration = Duration::from_secs(5);

/// The rules the GUI plays: nine men, or its twelve men's morris (a full board is a loss).
fn gui_rules(twelve: bool) -> Rules {
    if twelve {
        let mut r = Rules::preset("twelve").unwrap();
        r.full_board = moulin::rules::FullBoard::Blocked;
        r
    } else {
        Rules::nine()
    }
}

/// The GUI's board, as far as the end of the game goes.
pub(crate) struct Referee {
    pub(crate) game: Game,
    pub(crate) moves: Vec<String>,
    /// Plies of plain moves since the last placement or capture.
    quiet: u32,
    /// The boards (with the side to move) since the last placement or capture, this one included.
    seen: Vec<(Bitboard, Bitboard, Color)>,
}

impl Referee {
    pub(crate) fn new(twelve: bool) -> Referee {
        let game = Game::new(gui_rules(twelve));
        let first = board(&game);
        Referee {
            game,
            moves: Vec::new(),
            quiet: 0,
            seen: vec![first],
        }
    }

    /// Plays one move in the GUI's notation; what is wrong with it otherwise.
    pub(crate) fn play(&mut self, token: &str) -> Result<(), String> {
        if let Some(reason) = self.over() {
            return Err(format!("{token} after the end ({reason})"));
        }
        let mv = self
            .game
            .play_token(token)
            .map_err(|e| format!("{token}: {e}"))?;
        if self.game.position().pending_removals() > 0 {
            return Err(format!("{token} leaves a removal to make"));
        }
        if mv.is_placement() || mv.removal_count() > 0 {
            self.quiet = 0;
            self.seen.clear();
        } else {
            self.quiet += 1;
        }
        self.seen.push(board(&self.game));
        self.moves.push(token.to_string());
        Ok(())
    }

    /// Why the GUI says the game is over, if it is.
    pub(crate) fn over(&self) -> Option<&'static str> {
        let pos = self.game.position();
        let side = pos.side_to_move();
        let placing_done = pos.in_hand(Color::White) == 0 && pos.in_hand(Color::Black) == 0;
        if placing_done && pos.on_board(side) < 3 {
            return Some("material");
        }
        if movegen::legal_moves(pos, Convention::Turn).is_empty() {
            return Some("blocked");
        }
        let now = board(&self.game);
        if self.seen.iter().filter(|&&b| b == now).count() >= 3 {
            return Some("threefold");
        }
        if self.quiet >= 100 {
            return Some("quiet");
        }
        None
    }

    /// `position pos w:w:b:1 [moves ...]`, as the GUI writes it.
    pub(crate) fn position_command(&self) -> String {
        if self.moves.is_empty() {
            "position pos w:w:b:1".into()
        } else {
            format!("position pos w:w:b:1 moves {}", self.moves.join(" "))
        }
    }

    /// Whether `token` would end the game by threefold repetition (its board, with the side to
    /// move, already seen twice since the last placement or capture).
    pub(crate) fn repeats(&self, token: &str) -> bool {
        let mut game = self.game.clone();
        let Ok(mv) = game.play_token(token) else {
            return false;
        };
        let now = board(&game);
        !mv.is_placement()
            && mv.removal_count() == 0
            && self.seen.iter().filter(|&&b| b == now).count() >= 2
    }

    pub(crate) fn legal(&self) -> Vec<String> {
        movegen::legal_moves(self.game.position(), Convention::Turn)
            .into_iter()
            .map(moulin::Move::turn_notation)
            .collect()
    }
}

fn board(game: &Game) -> (Bitboard, Bitboard, Color) {
    let pos = game.position();
    (
        pos.pieces(Color::White),
        pos.pieces(Color::Black),
        pos.side_to_move(),
    )
}

/// Reads lines until one starts with `prefix`, failing after `limit`.
fn until_within(e: &Engine, prefix: &str, limit: Duration) -> Vec<String> {
    let deadline = Instant::now() + limit;
    let mut out = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = e
            .next_line(left)
            .unwrap_or_else(|| panic!("no '{prefix}' within {limit:?}; so far: {out:?}"));
        let end = line.starts_with(prefix);
        out.push(line);
        if end {
            return out;
        }
    }
}

/// Checks a line as the GUI's reader takes it: split on spaces and tabs only, no `\r`; an `info`
/// line's fields read as numbers, its score as `eval N` or `win N` (N not 0), `pv` last.
pub(crate) fn gui_reads(line: &str) {
    assert!(!line.contains('\r'), "{line:?}");
    let tokens: Vec<&str> = line.split([' ', '\t']).filter(|t| !t.is_empty()).collect();
    if tokens.first() != Some(&"info") || tokens.get(1) == Some(&"string") {
        return;
    }
    let after = |key: &str| {
        tokens
            .iter()
            .position(|t| *t == key)
            .map(|i| tokens.get(i + 1).copied().unwrap_or(""))
    };
    for key in ["depth", "time", "nodes"] {
        if let Some(v) = after(key) {
            assert!(v.parse::<u32>().is_ok(), "{key} {v:?} in {line}");
        }
    }
    let score = after("score").unwrap_or_else(|| panic!("no score: {line}"));
    let i = tokens.iter().position(|t| *t == "score").unwrap();
    let n: i32 = tokens[i + 2].parse().unwrap_or_else(|_| panic!("{line}"));
    match score {
        "eval" => {}
        "win" => assert_ne!(n, 0, "{line}"),
        other => panic!("score {other}: {line}"),
    }
    if let Some(p) = tokens.iter().position(|t| *t == "pv") {
        for mv in &tokens[p + 1..] {
            assert!(
                mv.len() >= 2
                    && mv
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-x".contains(c)),
                "pv {mv:?}: {line}"
            );
        }
    }
}

/// Starts the engine and runs the GUI's handshake: `gbgp` within 5 s, `debug on`, `newgame`,
/// `isready` within 5 s, then its mode.
pub(crate) fn gui_start(twelve: bool) -> Engine {
    let mut e = Engine::start();
    e.send("gbgp");
    let lines = until_within(&e, "gbgpok", GUI_LIMIT);
    for l in &lines {
        gui_reads(l);
    }
    assert!(
        lines.iter().any(|l| l.starts_with("id name moulin")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name TwelveMensMorris type check default false"),
        "{lines:?}"
    );
    for l in lines.iter().filter(|l| l.starts_with("option ")) {
        let words: Vec<&str> = l.split(' ').collect();
        let has = |w: &str| words.contains(&w);
        assert!(has("name") && has("type") && has("default"), "{l}");
        let default = words[words.iter().position(|w| *w == "default").unwrap() + 1];
        assert!(!default.is_empty(), "{l}");
    }
    e.send("debug on");
    e.send("newgame");
    e.send("isready");
    until_within(&e, "readyok", GUI_LIMIT);
    e.send(&format!("setoption name TwelveMensMorris value {twelve}"));
    e
}

/// The GUI's new-game sequence: `stop`, `newgame`, `isready`; the lines before `readyok`.
pub(crate) fn gui_new_game(e: &mut Engine) -> Vec<String> {
    e.send("stop");
    e.send("newgame");
    e.send("isready");
    let mut lines = until_within(e, "readyok", GUI_LIMIT);
    lines.pop();
    lines
}

/// The engine's turn: `position` and `go wtime W btime B`; its move, the time it took and the
/// count of `info` lines.
pub(crate) fn engine_turn(
    e: &mut Engine,
    r: &Referee,
    clock: [u64; 2],
) -> (String, Duration, usize) {
    e.send(&r.position_command());
    let started = Instant::now();
    e.send(&format!("go wtime {} btime {}", clock[0], clock[1]));
    let lines = until_within(e, "bestmove", Duration::from_mins(1));
    let took = started.elapsed();
    let mut infos = 0;
    for l in &lines {
        gui_reads(l);
        infos += usize::from(l.starts_with("info"));
    }
    let best = lines
        .last()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap_or("")
        .to_string();
    (best, took, infos)
}

/// After the GUI's board ends the game: `go movetime 100` must answer `bestmove none`.
pub(crate) fn gui_game_over(e: &mut Engine, r: &Referee) {
    e.send(&r.position_command());
    e.send("go movetime 100");
    let lines = until_within(e, "bestmove", Duration::from_secs(10));
    assert_eq!(
        lines.last().unwrap(),
        "bestmove none",
        "{:?} after {}",
        r.over(),
        r.moves.join(" ")
    );
}

/// A game at the GUI's clock (`clock_ms` each, no increment) against a random mover.
fn clock_game(e: &mut Engine, engine: Color, twelve: bool, clock_ms: u64, seed: u64) {
    assert!(gui_new_game(e).is_empty());
    let mut r = Referee::new(twelve);
    let mut rng = Rng::new(seed);
    let mut clock = [clock_ms, clock_ms];
    let side_index = |c: Color| usize::from(c == Color::Black);
    while r.over().is_none() {
        let side = r.game.position().side_to_move();
        if side == engine {
            let (best, took, infos) = engine_turn(e, &r, clock);
            assert_ne!(best, "none", "the game goes on after {}", r.moves.join(" "));
            let i = side_index(engine);
            let used = took.as_millis() as u64;
            assert!(
                used < clock[i],
                "lost on time: {used} ms of {} left",
                clock[i]
            );
            clock[i] -= used;
            // One line per frame at 60 frames a second would keep up.
            let frames = took.as_millis() as usize / 16 + 2;
            assert!(infos <= frames, "{infos} info lines in {took:?}");
            r.play(&best).unwrap_or_else(|m| panic!("illegal: {m}"));
        } else {
            let legal = r.legal();
            let mv = legal[rng.below(legal.len())].clone();
            r.play(&mv).unwrap();
        }
    }
    gui_game_over(e, &r);
}

#[test]
fn games_at_the_guis_clock_with_the_engine_as_each_colour() {
    let _gate = shared();
    let mut e = gui_start(false);
    clock_game(&mut e, Color::Black, false, 10_000, 1);
    clock_game(&mut e, Color::White, false, 10_000, 2);
    e.send("setoption name TwelveMensMorris value true");
    clock_game(&mut e, Color::Black, true, 10_000, 3);
    e.quit();
}

/// A game played by `choose` (from the legal moves of the referee) until it ends by `reason`;
/// `None` if it ended otherwise.
fn playout(
    twelve: bool,
    rng: &mut Rng,
    choose: impl Fn(&Referee, &mut Rng) -> String,
    reason: &str,
) -> Option<Referee> {
    let mut r = Referee::new(twelve);
    for _ in 0..2000 {
        if let Some(why) = r.over() {
            return (why == reason).then_some(r);
        }
        let mv = choose(&r, rng);
        r.play(&mv).unwrap();
    }
    None
}

/// The move that leaves the opponent fewest moves (captures first), or a random one.
pub(crate) fn greedy(r: &Referee, rng: &mut Rng) -> String {
    let legal = r.legal();
    if rng.below(4) == 0 {
        return legal[rng.below(legal.len())].clone();
    }
    legal
        .iter()
        .min_by_key(|mv| {
            let mut after = r.game.clone();
            after.play_token(mv).unwrap();
            let replies = movegen::legal_moves(after.position(), Convention::Turn).len();
            (usize::from(!mv.contains('x')), replies)
        })
        .unwrap()
        .clone()
}

/// A quiet move that repeats no board a third time (anything when there is none).
fn shuffle(r: &Referee, rng: &mut Rng) -> String {
    let legal = r.legal();
    if r.game.position().is_placing() {
        return legal[rng.below(legal.len())].clone();
    }
    let fresh: Vec<&String> = legal
        .iter()
        .filter(|mv| {
            let mut after = Referee {
                game: r.game.clone(),
                moves: Vec::new(),
                quiet: r.quiet,
                seen: r.seen.clone(),
            };
            !mv.contains('x') && after.play(mv).is_ok() && after.over().is_none_or(|w| w == "quiet")
        })
        .collect();
    if fresh.is_empty() {
        legal[rng.below(legal.len())].clone()
    } else {
        fresh[rng.below(fresh.len())].clone()
    }
}

/// A quiet move back and forth: the repetition comes soon.
fn repeat(r: &Referee, rng: &mut Rng) -> String {
    let legal = r.legal();
    if r.game.position().is_placing() {
        return legal[rng.below(legal.len())].clone();
    }
    // Undo the own last move when possible.
    if r.moves.len() >= 2 {
        let last = &r.moves[r.moves.len() - 2];
        if let Some((a, b)) = last.split_once('-') {
            let back = format!("{b}-{a}");
            if legal.contains(&back) {
                return back;
            }
        }
    }
    let quiet: Vec<&String> = legal.iter().filter(|m| !m.contains('x')).collect();
    if quiet.is_empty() {
        legal[rng.below(legal.len())].clone()
    } else {
        quiet[rng.below(quiet.len())].clone()
    }
}

/// Picks the next move of a scripted game.
type Chooser = fn(&Referee, &mut Rng) -> String;

#[test]
fn the_engine_says_the_game_is_over_exactly_when_the_gui_does() {
    let _gate = shared();
    let mut rng = Rng::new(11);
    let mut cases: Vec<(bool, &str, Referee)> = Vec::new();
    let wanted: [(bool, &str, Chooser); 6] = [
        (false, "threefold", repeat),
        (false, "quiet", shuffle),
        (false, "blocked", greedy),
        (false, "material", greedy),
        (true, "blocked", greedy),
        (true, "material", greedy),
    ];
    for (twelve, reason, choose) in wanted {
        let found = (0..300).find_map(|_| playout(twelve, &mut rng, choose, reason));
        let r = found.unwrap_or_else(|| panic!("no game ending by {reason} found"));
        cases.push((twelve, reason, r));
    }
    let mut e = gui_start(false);
    for (twelve, reason, r) in &cases {
        e.send(&format!("setoption name TwelveMensMorris value {twelve}"));
        gui_new_game(&mut e);
        gui_game_over(&mut e, r);
        // One ply before the end, the game goes on: a real, legal move.
        let mut before = Referee::new(*twelve);
        for mv in &r.moves[..r.moves.len() - 1] {
            before.play(mv).unwrap();
        }
        assert!(before.over().is_none());
        e.send(&before.position_command());
        e.send("go movetime 50");
        let best = until_within(&e, "bestmove", Duration::from_secs(10));
        let mv = best.last().unwrap().split(' ').nth(1).unwrap().to_string();
        assert!(
            before.play(&mv).is_ok(),
            "{reason}: {mv} one ply before the end"
        );
    }
    e.quit();
}

#[test]
fn a_new_game_in_the_middle_of_a_search_answers_before_readyok() {
    let _gate = shared();
    let mut e = gui_start(false);
    for pause in [0u64, 30, 150] {
        e.send("position pos w:w:b:1 moves d2 d6 f4");
        e.send("go wtime 600000 btime 600000");
        std::thread::sleep(Duration::from_millis(pause));
        let lines = gui_new_game(&mut e);
        let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, 1, "{lines:?}");
        // Nothing comes after `readyok`.
        assert_eq!(e.next_line(Duration::from_millis(300)), None);
    }
    // `stop` when idle, as the GUI sends it before every game: nothing but `readyok`.
    assert!(gui_new_game(&mut e).is_empty());
    e.quit();
}

#[test]
fn the_analysis_of_a_saved_game_reads_scores_from_whites_side() {
    let _gate = shared();
    let mut e = gui_start(false);
    let game = "d2 d6 f4 b4 d7 a4 g4 a7 a1 g1 f6 e4 e3 c4 d3 b2 c3 e5";
    let moves: Vec<&str> = game.split(' ').collect();
    for ply in [4usize, 9, 18] {
        e.send(&format!(
            "position pos w:w:b:1 moves {}",
            moves[..ply].join(" ")
        ));
        e.send("go movetime 7000");
        std::thread::sleep(Duration::from_millis(400));
        let started = Instant::now();
        e.send("stop");
        let lines = until_within(&e, "bestmove", Duration::from_secs(2));
        assert!(started.elapsed() < Duration::from_millis(500));
        for l in &lines {
            gui_reads(l);
        }
    }
    // A long analysis writes few lines: at most one each 200 ms from the start, and the last
    // one held back, at the end.
    e.send("position pos w:w:b:1 moves d2 d6");
    e.send("go movetime 1000");
    let lines = until_within(&e, "bestmove", Duration::from_secs(5));
    let infos = lines.iter().filter(|l| l.starts_with("info")).count();
    assert!((1..=7).contains(&infos), "{lines:?}");
    // The last line before `bestmove` is the deepest.
    let depth = |l: &String| -> u32 {
        let w: Vec<&str> = l.split(' ').collect();
        w[w.iter().position(|x| *x == "depth").unwrap() + 1]
            .parse()
            .unwrap()
    };
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    let deepest = infos.iter().map(|l| depth(l)).max().unwrap();
    assert_eq!(depth(infos.last().unwrap()), deepest, "{lines:?}");
    // White is a whole piece ahead (a mill closed and a piece removed) whoever is to move: the
    // score is positive for either side to move. Searched, not from the book, which holds these
    // positions proven to keep at least a draw only (`eval 0`).
    e.send("setoption name OwnBook value false");
    for side_line in ["d2 a1 d3 g1 d1xg1", "d2 a1 d3 g1 d1xg1 a4"] {
        e.send(&format!("position pos w:w:b:1 moves {side_line}"));
        e.send("go movetime 300");
        let lines = until_within(&e, "bestmove", Duration::from_secs(5));
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .unwrap_or_else(|| panic!("{lines:?}"));
        let words: Vec<&str> = last.split(' ').collect();
        let i = words.iter().position(|w| *w == "score").unwrap();
        let n: i32 = words[i + 2].parse().unwrap();
        assert!(n > 0, "{side_line}: {last}");
    }
    e.quit();
}

#[test]
fn crlf_input_errors_and_quit() {
    let _gate = shared();
    let mut e = Engine::start();
    e.send_bytes(b"gbgp\r\n");
    let lines = until_within(&e, "gbgpok", GUI_LIMIT);
    assert!(lines.iter().all(|l| !l.contains('\r')));
    e.send_bytes(b"newgame\r\nisready\r\n");
    assert_eq!(until_within(&e, "readyok", GUI_LIMIT), ["readyok"]);
    e.send_bytes(b"position pos w:w:b:1 moves d2 d6\r\n");
    assert_eq!(e.ask_one("fen"), "w:wd2:bd6:2");
    for bad in [
        "uci",
        "ucinewgame",
        "bogus pv",
        "position pos w:w:b:1 moves d2 d2",
        "position pos w:wa1:b:1",
        "position pos w-w-b-1",
        "position fen ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
        "setoption name TwelveMensMorris value maybe",
        "go depth x",
    ] {
        let lines = e.ask(bad);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:?}"
        );
        let words: Vec<&str> = lines[0].split(' ').collect();
        for w in &words[2..] {
            assert!(
                !["depth", "time", "nodes", "score", "pv"].contains(w),
                "{bad}: {lines:?}"
            );
        }
        assert_eq!(
            e.ask_one("fen"),
            "w:wd2:bd6:2",
            "{bad} changed the position"
        );
    }
    // `quit` in the middle of a search ends the process at once.
    e.send("go movetime 60000");
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    e.send("quit");
    let status = e
        .wait_exit(Duration::from_secs(5))
        .expect("the engine quits");
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn options_given_on_the_command_line_hold_in_either_dialect() {
    let _gate = shared();
    let mut e = Engine::start_with(&["--option", "MoveNotation=action", "--option", "Hash=8"]);
    e.ask("position startpos moves d7 a1 g7 d1");
    // The action notation lists the step that closes a mill alone.
    let moves = e.ask_one("moves");
    assert!(moves.split(' ').any(|m| m == "a7"), "{moves}");
    assert!(!moves.contains("a7x"), "{moves}");
    e.quit();
    let mut e = Engine::start_with(&[
        "--option",
        "OwnBook=false",
        "--option",
        "OpeningSolution=none",
    ]);
    e.send("gbgp");
    until_within(&e, "gbgpok", GUI_LIMIT);
    e.send("position pos w:w:b:1");
    e.send("go depth 2");
    let lines = until_within(&e, "bestmove", GUI_LIMIT);
    // Searched (a short search writes its last line alone), not the book's `info depth 0`.
    assert!(
        lines[0].starts_with("info depth ") && !lines[0].starts_with("info depth 0 "),
        "not from the book: {lines:?}"
    );
    e.quit();
    for bad in ["Hash=0", "Bogus=1", "Hash"] {
        let out = crate::shared::moulin()
            .args(["--option", bad])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--option"), "{bad}: {err}");
    }
}

/// A bad GBGP position string is refused with the field of that string named (side, White's
/// points, Black's points, move number), not a field of the protocol's own position string.
#[test]
fn position_errors_name_the_gbgp_fields() {
    let _gate = shared();
    let mut e = Engine::start();
    e.send("gbgp");
    until_within(&e, "gbgpok", GUI_LIMIT);
    for (bad, field) in [
        ("x:w:b:1", "field 1 (side to move)"),
        ("w:a1:b:1", "field 2 (White's points)"),
        ("w:wz9:b:1", "field 2 (White's points)"),
        ("w:wa1,a4:b:1", "field 2 (White's points)"),
        ("w:wa1:ba1:2", "field 3 (Black's points)"),
        ("w:w:bz9:1", "field 3 (Black's points)"),
        ("w:w:b:x", "field 4 (move number)"),
        ("w:w:b:0", "field 4 (move number)"),
    ] {
        let line = e.ask_one(&format!("position pos {bad}"));
        assert!(line.starts_with("info string error: "), "{bad}: {line}");
        assert!(line.contains(field), "{bad}: {line}");
    }
    e.quit();
}
