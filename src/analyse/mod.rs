//! `moulin analyse`: grades every move of a game, or (with `--position`) values every legal move
//! of one position, for a person studying a game (README, "Analysis").
//!
//! A game is analysed position by position: each position before a move is searched once, so
//! that the value before a move is that search's score, and the value after it is the next
//! search's score, negated (both from the mover's side). The loss of a move is the difference;
//! its label follows the thresholds below. Positions the endgame tables cover (`--tables`) get
//! their exact value.

mod html;

use crate::record;
use crate::rules::fen;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use crate::search::{Control, Info, Limits, Score, Searcher};
use crate::tables::Tables;
use std::path::PathBuf;
use std::sync::Arc;

/// A drop of this many centi-pieces or more is a blunder (as is a win or a draw thrown away).
pub const BLUNDER: i32 = 300;
/// A mistake.
pub const MISTAKE: i32 = 120;
/// An inaccuracy.
pub const INACCURACY: i32 = 50;

/// The flags of `moulin analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// A game record (PGN-shaped, README "Game records"); its first game unless --game.
    pub file: Option<PathBuf>,
    /// Which game of the file (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// The moves of a game (or, with --position, of the way to the position), instead of a
    /// file.
    #[arg(long, num_args = 1.., conflicts_with = "file")]
    pub moves: Vec<String>,
    /// Start from this position string (protocol.md §3) instead of the empty board.
    #[arg(long, conflicts_with = "file")]
    pub fen: Option<String>,
    /// Rule preset for --moves and --fen: nine, twelve, lasker, morabaraba, no-reform,
    /// protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Show every legal move of the position reached (after --moves, or the --fen), valued,
    /// best first, instead of grading a game.
    #[arg(long)]
    pub position: bool,
    /// Search time per position, in milliseconds (1 to 600000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: u64,
    /// Search depth per position instead of a time (1 to 64).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Endgame tables: covered positions get their exact value.
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub hash: u64,
    /// With --position in the placing phase: the exact value (win, draw or loss) of every legal
    /// move, by searching every placement left to the end of the placing with the endgame
    /// tables (--tables, which must cover every moving position) at the leaves. Cheap from the
    /// middle of the placing (about ply 9 on), dear before.
    #[arg(long, requires_all = ["position", "tables"])]
    pub exact: bool,
    /// Print JSON (one object) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the analysis as one HTML page (works offline): the moves, an SVG graph of the
    /// value, an SVG board for each blunder and mistake.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// How a move is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// A value as people read it: `+35` centi-pieces, or `W12` / `L12` (a win or loss in that many
/// of the mover's turns), from the side named.
pub fn shown(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{c:+}"),
        Score::Mate(m) if m > 0 => format!("W{m}"),
        Score::Mate(m) => format!("L{}", -m),
    }
}

/// A score on one line for comparing: wins far above any centi-pieces, sooner ones higher.
fn rank(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-20_000, 20_000),
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Won (1), lost (-1) or neither (0).
fn class(score: Score) -> i32 {
    match score {
        Score::Mate(m) if m > 0 => 1,
        Score::Mate(_) => -1,
        Score::Cp(_) => 0,
    }
}

/// The label of a move that took the mover from `before` to `after` (both from the mover's
/// side), `best` when it is the move the search preferred.
pub fn label(before: Score, after: Score, best: bool) -> Label {
    let loss = rank(before).saturating_sub(rank(after));
    if best || loss <= 0 {
        return if best { Label::Best } else { Label::Good };
    }
    if class(after) < class(before) || loss >= BLUNDER {
        Label::Blunder
    } else if loss >= MISTAKE {
        Label::Mistake
    } else if loss >= INACCURACY {
        Label::Inaccuracy
    } else {
        Label::Good
    }
}

/// One searched position: its value for the side to move, the best move and line.
#[derive(Clone, Debug)]
pub struct Searched {
    pub score: Score,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    pub exact: bool,
}

/// One graded move.
#[derive(Clone, Debug)]
pub struct Graded {
    pub ply: usize,
    /// The position the move was played in.
    pub pos: crate::rules::position::Position,
    pub mover: &'static str,
    pub fen: String,
    pub played: String,
    pub before: Score,
    pub after: Score,
    pub best: String,
    pub line: Vec<String>,
    pub label: Label,
    pub exact: bool,
}

/// What analyses: the searcher and its limits.
pub struct Analyst {
    searcher: Searcher,
    limits: Limits,
}

impl Analyst {
    pub fn new(args: &AnalyseArgs, rules: &Rules) -> Result<Analyst, String> {
        let mut searcher = Searcher::new(args.hash as usize, args.threads as usize);
        if let Some(dir) = &args.tables {
            let t = Tables::open(dir, rules)
                .map_err(|e| format!("endgame tables {}: {e}", dir.display()))?;
            searcher.options.tables = Some(Arc::new(t));
        }
        let limits = Limits {
            depth: args.depth,
            movetime: args.depth.is_none().then_some(args.movetime),
            ..Limits::default()
        };
        Ok(Analyst { searcher, limits })
    }

    /// Searches the game's position, every root move's line when `all`.
    pub fn search(&mut self, game: &Game, all: bool) -> (Searched, Vec<(Score, Vec<Move>)>) {
        let legal = crate::rules::movegen::legal_moves(game.position(), Convention::Turn).len();
        self.searcher.options.multipv = if all { legal.max(1) } else { 1 };
        let mut lines: Vec<Option<(u32, Score, Vec<Move>)>> = vec![None; legal.max(1)];
        let result = self
            .searcher
            .search(game, &self.limits, &Control::new(), &mut |i: &Info| {
                if let Some(slot) = lines.get_mut(i.multipv - 1) {
                    *slot = Some((i.depth, i.score, i.pv.clone()));
                }
            });
        let first = lines.first().cloned().flatten();
        let pv = match (&first, result.best) {
            (Some((_, _, pv)), Some(b)) if pv.first() == Some(&b) => pv.clone(),
            (_, Some(b)) => vec![b],
            _ => Vec::new(),
        };
        let searched = Searched {
            score: result.score,
            best: result.best,
            pv,
            exact: result.table.is_some(),
        };
        let mut all_lines: Vec<(Score, Vec<Move>)> = lines
            .into_iter()
            .flatten()
            .map(|(_, s, pv)| (s, pv))
            .collect();
        all_lines.sort_by_key(|(s, _)| -rank(*s));
        (searched, all_lines)
    }
}

/// The start and the moves to analyse: from the record file or the flags.
fn game_and_moves(args: &AnalyseArgs) -> Result<(Game, Vec<String>), String> {
    if let Some(path) = &args.file {
        let text =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let games = record::read(&String::from_utf8_lossy(&text))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let count = games.len();
        let r = games
            .into_iter()
            .nth(args.game.wrapping_sub(1))
            .ok_or_else(|| {
                format!(
                    "{}: no game {} (the file holds {count})",
                    path.display(),
                    args.game
                )
            })?;
        return Ok((r.start().map_err(|e| e.to_string())?, r.move_texts()));
    }
    let rules = crate::Rules::named(&args.variant).map_err(|e| e.to_string())?;
    let game = match &args.fen {
        Some(text) => Game::from_fen(text, rules).map_err(|e| format!("--fen: {e}"))?,
        None => Game::new(rules),
    };
    if args.moves.is_empty() && args.fen.is_none() && !args.position {
        return Err(
            "nothing to analyse: give a record file, or --moves (or --fen with --position)".into(),
        );
    }
    Ok((game, args.moves.clone()))
}

/// `moulin analyse`.
pub fn run_analyse(args: AnalyseArgs) -> Result<(), String> {
    let (start, moves) = game_and_moves(&args)?;
    let mut analyst = Analyst::new(&args, start.rules())?;
    // Every move is checked before any search.
    let mut game = start.clone();
    let mut played = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let before = game.clone();
        let mv = game
            .play_token(m)
            .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        if game.position().pending_removals() > 0 {
            return Err(format!(
                "move {} '{m}' closes a mill: give its removal ('{m}x..')",
                i + 1
            ));
        }
        played.push((before, mv));
    }
    if args.position && args.exact {
        return solve_moves(&analyst, &game, args.json);
    }
    if args.position {
        return advise(&mut analyst, &game, args.json);
    }
    let bar = crate::progress::bar(played.len() as u64 + 1, 0, "analysing ", "positions");
    let mut searched = Vec::new();
    for (before, _) in &played {
        searched.push(analyst.search(before, false).0);
        bar.inc(1);
    }
    let end = if game.outcome().is_some() {
        None
    } else {
        Some(analyst.search(&game, false).0)
    };
    bar.finish_and_clear();
    let mut graded = Vec::new();
    for (i, (before, mv)) in played.iter().enumerate() {
        let now = &searched[i];
        let after_score = match (searched.get(i + 1), &end) {
            (Some(next), _) => negate(next.score),
            (None, Some(last)) => negate(last.score),
            (None, None) => outcome_score(&game, before),
        };
        let pos = before.position();
        let best = now.best == Some(*mv);
        graded.push(Graded {
            ply: i + 1,
            pos: *pos,
            mover: pos.side_to_move().name(),
            fen: fen::write(pos),
            played: mv.written_at(pos, Convention::Turn),
            before: now.score,
            after: after_score,
            best: now
                .best
                .map_or("-".into(), |b| b.written_at(pos, Convention::Turn)),
            line: line_text(pos, &now.pv),
            label: label(now.score, after_score, best),
            exact: now.exact,
        });
    }
    if let Some(path) = &args.html {
        let title = match &args.file {
            Some(f) => format!("moulin analysis: {} game {}", f.display(), args.game),
            None => "moulin analysis".to_string(),
        };
        std::fs::write(path, html::page(&graded, &game, &title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        println!("{}", json_game(&graded, &game));
    } else {
        print!("{}", text_game(&graded, &game));
    }
    Ok(())
}

/// The value for the mover of a game the last move ended.
fn outcome_score(game: &Game, before: &Game) -> Score {
    let mover = before.position().side_to_move();
    match game.outcome() {
        Some(crate::rules::position::Outcome::Win(c, _)) if c == mover => Score::Mate(1),
        Some(crate::rules::position::Outcome::Win(..)) => Score::Mate(-1),
        _ => Score::Cp(0),
    }
}

fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        // A win in n of the opponent's turns is a loss in n of ours, and the other way round.
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// Moves as text, each written in the position it is played from.
fn line_text(from: &crate::rules::position::Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *from;
    moves
        .iter()
        .map(|m| {
            let t = m.written_at(&pos, Convention::Turn);
            pos.play(*m);
            t
        })
        .collect()
}

fn text_game(graded: &[Graded], game: &Game) -> String {
    let mut out =
        String::from("ply  side   move          before  after   label       best (line)\n");
    for g in graded {
        let best = if g.label == Label::Best {
            String::new()
        } else {
            format!("{} ({})", g.best, g.line.join(" "))
        };
        out.push_str(&format!(
            "{:>3}  {:<5}  {:<12}  {:>6}  {:>6}  {:<10}  {}{}\n",
            g.ply,
            g.mover,
            g.played,
            shown(g.before),
            shown(g.after),
            g.label.name(),
            best,
            if g.exact { " [tables]" } else { "" }
        ));
    }
    let count = |side: &str, l: Label| {
        graded
            .iter()
            .filter(|g| g.mover == side && g.label == l)
            .count()
    };
    for side in ["white", "black"] {
        out.push_str(&format!(
            "{side}: {} blunders, {} mistakes, {} inaccuracies\n",
            count(side, Label::Blunder),
            count(side, Label::Mistake),
            count(side, Label::Inaccuracy)
        ));
    }
    if let Some(o) = game.outcome() {
        out.push_str(&format!("{} {}\n", o.score(), o.describe()));
    }
    out.push_str(&format!(
        "values for the side to move: centi-pieces, or W/L n for a win/loss in n turns; labels \
         by the value lost: blunder {BLUNDER}+ (or a win or draw thrown away), mistake \
         {MISTAKE}+, inaccuracy {INACCURACY}+\n"
    ));
    out
}

/// A JSON string.
fn js(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A score as JSON: `{"cp": n}` or `{"win": n}` (negative: a loss), for the side to move.
fn js_score(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{{\"cp\":{c}}}"),
        Score::Mate(m) => format!("{{\"win\":{m}}}"),
    }
}

fn json_game(graded: &[Graded], game: &Game) -> String {
    let moves: Vec<String> = graded
        .iter()
        .map(|g| {
            format!(
                "{{\"ply\":{},\"side\":{},\"fen\":{},\"move\":{},\"before\":{},\"after\":{},\
                 \"label\":{},\"best\":{},\"line\":[{}],\"exact\":{}}}",
                g.ply,
                js(g.mover),
                js(&g.fen),
                js(&g.played),
                js_score(g.before),
                js_score(g.after),
                js(g.label.name()),
                js(&g.best),
                g.line.iter().map(|m| js(m)).collect::<Vec<_>>().join(","),
                g.exact
            )
        })
        .collect();
    let result = game.outcome().map_or("*", |o| o.score());
    format!(
        "{{\"result\":{},\"thresholds\":{{\"blunder\":{BLUNDER},\"mistake\":{MISTAKE},\
         \"inaccuracy\":{INACCURACY}}},\"moves\":[{}]}}",
        js(result),
        moves.join(",")
    )
}

/// The position of a game to list the moves of: an error when the game is over.
fn open_position(game: &Game) -> Result<crate::rules::position::Position, String> {
    match game.outcome() {
        Some(o) => Err(format!("the game is over: {} {}", o.score(), o.describe())),
        None => Ok(*game.position()),
    }
}

/// The first line of a list of moves: who is to move, and the position string.
fn to_move_line(pos: &crate::rules::position::Position) -> String {
    format!("{} to move: {}", pos.side_to_move().name(), fen::write(pos))
}

/// `--position --exact`: every legal move with its exact value, best first.
fn solve_moves(analyst: &Analyst, game: &Game, json: bool) -> Result<(), String> {
    let pos = open_position(game)?;
    if !pos.is_placing() {
        return Err("--exact values placing positions: this one is in the moving phase".into());
    }
    let tables = analyst
        .searcher
        .options
        .tables
        .clone()
        .ok_or("--exact needs --tables")?;
    let moves = crate::rules::movegen::legal_moves(&pos, Convention::Turn);
    let start = std::time::Instant::now();
    let never = |_: u64| false;
    let mut memory = crate::search::exact::Memory::new(1 << 24);
    let mut solver = crate::search::exact::Solver::new(&tables, &mut memory, &never);
    let values = solver.values_of_moves(&pos, &moves);
    let values = values.ok_or(
        "a position on the way is not covered by the tables: give tables for every piece count",
    )?;
    let mut valued: Vec<(Move, i8)> = moves.into_iter().zip(values).collect();
    valued.sort_by_key(|&(_, v)| -v);
    let name = crate::search::exact::name;
    let secs = start.elapsed().as_secs_f64();
    let nodes = solver.nodes;
    if json {
        let items: Vec<String> = valued
            .iter()
            .map(|&(mv, v)| {
                format!(
                    "{{\"move\":{},\"value\":{}}}",
                    js(&mv.written_at(&pos, Convention::Turn)),
                    js(name(v))
                )
            })
            .collect();
        println!(
            "{{\"fen\":{},\"side\":{},\"nodes\":{},\"seconds\":{:.3},\"moves\":[{}]}}",
            js(&fen::write(&pos)),
            js(pos.side_to_move().name()),
            nodes,
            secs,
            items.join(",")
        );
        return Ok(());
    }
    println!("{}", to_move_line(&pos));
    for &(mv, v) in &valued {
        println!("{:<12}  {}", mv.written_at(&pos, Convention::Turn), name(v));
    }
    println!("exact: {nodes} positions in {secs:.2} s");
    Ok(())
}

/// `--position`: every legal move, valued, best first.
fn advise(analyst: &mut Analyst, game: &Game, json: bool) -> Result<(), String> {
    let pos = open_position(game)?;
    let (_, lines) = analyst.search(game, true);
    if json {
        let items: Vec<String> = lines
            .iter()
            .map(|(s, pv)| {
                let text = line_text(&pos, pv);
                format!(
                    "{{\"move\":{},\"value\":{},\"line\":[{}]}}",
                    js(text.first().map_or("", String::as_str)),
                    js_score(*s),
                    text.iter().map(|m| js(m)).collect::<Vec<_>>().join(",")
                )
            })
            .collect();
        println!(
            "{{\"fen\":{},\"side\":{},\"moves\":[{}]}}",
            js(&fen::write(&pos)),
            js(pos.side_to_move().name()),
            items.join(",")
        );
        return Ok(());
    }
    println!("{}", to_move_line(&pos));
    for (s, pv) in &lines {
        let text = line_text(&pos, pv);
        println!(
            "{:<12}  {:>6}  {}",
            text.first().map_or("", String::as_str),
            shown(*s),
            text[1..].join(" ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_value_lost() {
        assert_eq!(label(Score::Cp(20), Score::Cp(20), true), Label::Best);
        assert_eq!(label(Score::Cp(20), Score::Cp(0), false), Label::Good);
        assert_eq!(
            label(Score::Cp(20), Score::Cp(-40), false),
            Label::Inaccuracy
        );
        assert_eq!(label(Score::Cp(20), Score::Cp(-120), false), Label::Mistake);
        assert_eq!(label(Score::Cp(20), Score::Cp(-300), false), Label::Blunder);
        // A draw thrown away, however small the drop in numbers looks.
        assert_eq!(label(Score::Cp(0), Score::Mate(-30), false), Label::Blunder);
        assert_eq!(label(Score::Mate(5), Score::Cp(250), false), Label::Blunder);
        // A slower win is no blunder.
        assert_eq!(label(Score::Mate(3), Score::Mate(4), false), Label::Good);
        assert_eq!(shown(Score::Mate(-2)), "L2");
        assert_eq!(js("a\"b\n"), "\"a\\\"b\\u000a\"");
    }
}
