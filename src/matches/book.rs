//! `moulin openings`: makes a balanced opening book with any engine. It enumerates every
//! placement opening of a few turns, keeps one per class of positions equal under the board's
//! 16 symmetries, asks the engine through its protocol (`go depth D`) for each, and keeps those
//! whose last reported score is a centipawn score within the margin: neither won nor lost within
//! the reach of the search. With `--out`, each score is journaled (`durable::Journal`) so that
//! a stopped run resumes without searching again, and the file is written whole or not at all.
//!
//! With `--exact`, no engine is asked: the exact solver of the placing (`search::exact`) gives
//! each opening its true value from the endgame tables, and the draws are kept.

use super::engine::{Engine, Score};
use super::referee;
use super::spec::EngineSpec;
use crate::durable::{self, Journal};
use crate::record::openings::Opening;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The flags of `moulin openings`.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// The engine that scores the openings (a spec, as for `moulin match`).
    #[arg(long, required_unless_present = "exact", conflicts_with = "exact")]
    pub engine: Option<String>,
    /// Instead of an engine, value each opening exactly with the solver of the placing and the
    /// endgame tables in this folder (which must cover every moving position: `moulin tables
    /// build --pieces 9` for nine), and keep the drawn ones. Minutes an opening of 3 turns.
    #[arg(long, value_name = "TABLES")]
    pub exact: Option<PathBuf>,
    /// Only the openings of this openings file (e.g. book/openings-nine.txt), each as its class
    /// under the board's symmetries, instead of every opening of --plies turns.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Only the first N openings (of --from's file, or of the enumeration): e.g. those a match
    /// of 2N games plays. The journal of a run with every opening serves this one, and back.
    #[arg(long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub first: Option<usize>,
    /// Solver threads for --exact (each solves one opening at a time).
    #[arg(long, default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub threads: usize,
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Turns in each opening (placements, with their removals if a mill closes; 1 to 6: the
    /// enumeration grows twentyfold with each turn).
    #[arg(long, default_value_t = 3,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=6))]
    pub plies: usize,
    /// Search depth given to the engine (`go depth D`; 1 to 64).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Keep openings whose score is within ±this many centipawns (mate scores are never kept;
    /// 0 to 10000).
    #[arg(long, value_name = "CP", default_value_t = 50,
          value_parser = clap::value_parser!(i32).range(0..=10_000))]
    pub margin: i32,
    /// Write the book here instead of stdout, whole or not at all (a temporary file renamed
    /// over it). Each finished search is journaled in <out>.partial: a run that is stopped
    /// resumes there when started again with the same engine, variant, plies and depth.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Time allowed for one search, in milliseconds (at most a day, 86400000).
    #[arg(long, value_name = "MS", default_value_t = 600_000,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub search_timeout: u64,
    /// Time allowed for the handshake and each isready, in milliseconds (at most an hour,
    /// 3600000).
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub ready_timeout: u64,
}

/// Every opening of `plies` turns from the start position while pieces are being placed, one
/// for each class of symmetric positions (the first met in move-generation order), leaving out
/// those where the game is over.
pub fn enumerate(rules: &Rules, plies: usize) -> Vec<Opening> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut line = Vec::new();
    walk(&Game::new(*rules), plies, &mut line, &mut seen, &mut out);
    out
}

fn walk(
    game: &Game,
    left: usize,
    line: &mut Vec<String>,
    seen: &mut HashSet<u64>,
    out: &mut Vec<Opening>,
) {
    if game.outcome().is_some() {
        return;
    }
    if left == 0 {
        if seen.insert(crate::rules::symmetry::fold(game.position()).key) {
            out.push(Opening {
                fen: None,
                moves: line.clone(),
            });
        }
        return;
    }
    for mv in movegen::legal_moves(game.position(), Convention::Turn) {
        if !mv.is_placement() {
            continue;
        }
        let mut next = game.clone();
        next.play(mv);
        line.push(mv.turn_notation());
        walk(&next, left - 1, line, seen, out);
        line.pop();
    }
}

/// A journaled score: `cp 12` or `mate -3`, as `Score` writes it; or an exact value, `win`,
/// `draw` or `loss` (kept as mate 1, cp 0 and mate -1).
fn parse_score(text: &str) -> Option<Score> {
    if let Some(v) = crate::search::exact::from_name(text) {
        return Some(exact_score(v));
    }
    match text.split_once(' ')? {
        ("cp", n) => n.parse().ok().map(Score::Cp),
        ("mate", n) => n.parse().ok().map(Score::Mate),
        _ => None,
    }
}

/// The engine's score of one opening, from a fresh game; the engine is (re)started as needed.
fn score_opening(
    engine: &mut Option<Engine>,
    spec: &EngineSpec,
    rules: &Rules,
    opening: &Opening,
    args: &OpeningsArgs,
) -> Result<Score, String> {
    let ready = Duration::from_millis(args.ready_timeout);
    let limit = Duration::from_millis(args.search_timeout);
    let game = opening.game(rules).map_err(|e| e.to_string())?;
    let position = referee::position_command(&game, &Opening::startpos(), spec.notation);
    let go = format!("go depth {}", args.depth);
    for _attempt in 0..2 {
        if engine.is_none() {
            *engine =
                Some(Engine::start(spec, rules, ready).map_err(|e| format!("{}: {e}", spec.name))?);
        }
        let e = engine.as_mut().expect("started above");
        match e.new_game(ready).and_then(|()| e.go(&position, &go, limit)) {
            Ok(answer) => {
                return answer.score.ok_or_else(|| {
                    format!(
                        "{} reported no score for '{opening}' (expected 'info ... score cp X')",
                        spec.name
                    )
                })
            }
            Err(f) => {
                log::warn!("{}: {f} on '{opening}'; restarting it", spec.name);
                *engine = None;
            }
        }
    }
    Err(format!("{} failed twice on '{opening}'", spec.name))
}

/// An exact value as a score: a win as mate 1, a loss as mate -1, a draw as 0 cp.
fn exact_score(v: crate::search::exact::Wdl) -> Score {
    match v {
        0 => Score::Cp(0),
        v => Score::Mate(i32::from(v)),
    }
}

/// `moulin openings`.
pub fn run_openings(args: OpeningsArgs) -> Result<(), String> {
    let rules = crate::Rules::named(&args.variant).map_err(|e| e.to_string())?;
    let candidates = match &args.from {
        Some(file) => {
            // One opening per class, in the file's order.
            let mut seen = HashSet::new();
            let mut out = Vec::new();
            for o in
                crate::record::openings::read_book_file(file, &rules).map_err(|e| e.to_string())?
            {
                if seen.insert(
                    crate::rules::symmetry::fold(
                        o.game(&rules).map_err(|e| e.to_string())?.position(),
                    )
                    .key,
                ) {
                    out.push(o);
                }
            }
            out
        }
        None => enumerate(&rules, args.plies),
    };
    let candidates: Vec<_> = candidates
        .into_iter()
        .take(args.first.unwrap_or(usize::MAX))
        .collect();
    log::info!(
        "{} placement openings, distinct under symmetry",
        candidates.len()
    );
    let scorer = match (&args.exact, &args.engine) {
        (Some(dir), _) => {
            let tables = crate::tables::Tables::open(dir, &rules)
                .map_err(|e| format!("endgame tables {}: {e}", dir.display()))?;
            Scorer::Exact(std::sync::Arc::new(tables))
        }
        (None, Some(engine)) => {
            let mut spec = EngineSpec::parse(engine).map_err(|e| e.to_string())?;
            // The scores must come from a search: the engine's own book (UCI's OwnBook) is
            // turned off unless the spec says otherwise.
            if !spec
                .options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("OwnBook"))
            {
                spec.options.push(("OwnBook".into(), "false".into()));
            }
            Scorer::Engine(Box::new(spec))
        }
        (None, None) => return Err("give --engine or --exact".into()),
    };
    // Scores already journaled by an interrupted run with the same settings (the margin is
    // applied to the scores at the end, so it may change).
    let mut journal = None;
    let mut scores: HashMap<String, Score> = HashMap::new();
    if let Some(out) = &args.out {
        let path = durable::with_suffix(out, ".partial");
        let source = match &args.from {
            Some(f) => format!("from {}", f.display()),
            None => format!("plies {}", args.plies),
        };
        let settings = match &scorer {
            Scorer::Exact(_) => format!("variant {} {source} exact", args.variant),
            Scorer::Engine(_) => format!(
                "variant {} {source} depth {} engine {}",
                args.variant,
                args.depth,
                args.engine
                    .as_deref()
                    .unwrap_or("")
                    .replace(['\n', '\r'], " ")
            ),
        };
        let (j, lines) = Journal::open(&path, "openings", &settings)?;
        for line in &lines {
            match line
                .split_once(" | ")
                .and_then(|(score, opening)| Some((parse_score(score)?, opening)))
            {
                Some((score, opening)) => {
                    scores.insert(opening.to_string(), score);
                }
                None => log::warn!(
                    "{}: unreadable line '{}'; searched again",
                    path.display(),
                    crate::record::openings::excerpt(line)
                ),
            }
        }
        if !scores.is_empty() {
            eprintln!("{}: {} searches resumed", path.display(), scores.len());
        }
        journal = Some(j);
    }
    let bar = crate::progress::bar(candidates.len() as u64, 0, "", "openings");
    let mut record = |line: &str, text: &str| match journal.as_mut() {
        Some(j) => j.append(&format!("{text} | {line}")),
        None => Ok(()),
    };
    let mut results: Vec<Option<Score>> = candidates
        .iter()
        .map(|o| scores.get(&o.to_line()).copied())
        .collect();
    bar.inc(results.iter().filter(|r| r.is_some()).count() as u64);
    match &scorer {
        Scorer::Engine(spec) => {
            let mut engine: Option<Engine> = None;
            for (opening, result) in candidates.iter().zip(&mut results) {
                if result.is_none() {
                    let s = score_opening(&mut engine, spec, &rules, opening, &args)?;
                    record(&opening.to_line(), &s.to_string())?;
                    *result = Some(s);
                    bar.inc(1);
                }
            }
            if let Some(e) = engine {
                e.quit();
            }
        }
        Scorer::Exact(tables) => {
            let todo: Vec<usize> = (0..candidates.len())
                .filter(|&i| results[i].is_none())
                .collect();
            let positions = todo
                .iter()
                .map(|&i| {
                    Ok(*candidates[i]
                        .game(&rules)
                        .map_err(|e| e.to_string())?
                        .position())
                })
                .collect::<Result<Vec<_>, String>>()?;
            // A closure, not the method path: the path is not general over the solver's lifetimes.
            #[allow(clippy::redundant_closure_for_method_calls)]
            let solved = crate::search::exact::in_parallel(
                std::sync::Arc::clone(tables),
                positions,
                args.threads,
                OPENING_MEMORY,
                |solver, pos| solver.value(pos),
            );
            for (k, value) in solved {
                let i = todo[k];
                let value = value.ok_or_else(|| {
                    format!(
                        "'{}': a position on the way is not in the tables",
                        candidates[i]
                    )
                })?;
                record(&candidates[i].to_line(), crate::search::exact::name(value))?;
                results[i] = Some(exact_score(value));
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    let mut kept: Vec<(Opening, i32)> = Vec::new();
    let (mut won, mut lost) = (0, 0);
    let missing = results.iter().filter(|r| r.is_none()).count();
    if missing > 0 {
        return Err(format!(
            "{missing} openings were not scored (a solver thread failed)"
        ));
    }
    for (opening, score) in candidates.iter().zip(results.iter().flatten()) {
        match *score {
            Score::Cp(cp) if cp.abs() <= args.margin => kept.push((opening.clone(), cp)),
            Score::Cp(x) | Score::Mate(x) if x > 0 => won += 1,
            _ => lost += 1,
        }
    }
    let mut text = String::new();
    let how = match &scorer {
        Scorer::Exact(_) => {
            "exactly drawn (the solver of the placing with the endgame tables)".to_string()
        }
        Scorer::Engine(spec) => format!(
            "scored within ±{} cp for the side to move by {} at depth {}, and no mate",
            args.margin, spec.name, args.depth
        ),
    };
    let mut source = match &args.from {
        Some(f) => format!("the openings of {}", f.display()),
        None => format!("placement openings of {} turns", args.plies),
    };
    if let Some(n) = args.first {
        source = format!("the first {n} of {source}");
    }
    let header = format!(
        "moulin opening book, variant {}: {source}, one per class of positions equal under the \
         board's 16 symmetries ({} in all), kept when {how} ({} kept, {} better and {} worse for \
         the side to move left out). Format: book/README.md.",
        args.variant,
        candidates.len(),
        kept.len(),
        won,
        lost
    );
    // As comment lines of at most about 95 characters.
    let mut row = String::from("#");
    for word in header.split(' ') {
        if row.len() + 1 + word.len() > 95 {
            text.push_str(&row);
            text.push('\n');
            row = String::from("#");
        }
        row.push(' ');
        row.push_str(word);
    }
    text.push_str(&row);
    text.push('\n');
    for (o, cp) in &kept {
        match &scorer {
            Scorer::Exact(_) => text.push_str(&format!("{}  # draw\n", o.to_line())),
            Scorer::Engine(_) => text.push_str(&format!("{}  # cp {cp}\n", o.to_line())),
        }
    }
    match &args.out {
        Some(path) => {
            // The journal goes only once the file is on disk.
            durable::write_atomic(path, text.as_bytes())?;
            journal.map_or(Ok(()), Journal::finish)?;
        }
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    eprintln!(
        "{} of {} openings kept ({won} better, {lost} worse for the side to move)",
        kept.len(),
        candidates.len()
    );
    Ok(())
}

/// What values the openings.
enum Scorer {
    Engine(Box<EngineSpec>),
    Exact(std::sync::Arc<crate::tables::Tables>),
}

/// Positions each exact solve remembers (about 320 MB).
const OPENING_MEMORY: usize = 1 << 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_ply_openings_match_the_known_count() {
        // RULES.md §7: 428 positions after 3 plies, up to symmetry.
        assert_eq!(enumerate(&Rules::nine(), 3).len(), 428);
        assert_eq!(enumerate(&Rules::nine(), 1).len(), 4);
    }
}
