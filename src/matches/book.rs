//! `moulin openings`: makes a balanced opening book with any engine. It enumerates every
//! placement opening of a few turns, keeps one per class of positions equal under the board's
//! 16 symmetries, asks the engine through its protocol (`go depth D`) for each, and keeps those
//! whose last reported score is a centipawn score within the margin: neither won nor lost within
//! the reach of the search.

use super::engine::{Engine, Score};
use super::openings::Opening;
use super::referee;
use super::rules_of;
use super::spec::EngineSpec;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::Rules;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The flags of `moulin openings`.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// The engine that scores the openings (a spec, as for `moulin match`).
    #[arg(long)]
    pub engine: String,
    /// Rule preset: nine, twelve, lasker, morabaraba, no-reform, protected-mills.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// Turns in each opening (placements, with their removals if a mill closes).
    #[arg(long, default_value_t = 3)]
    pub plies: usize,
    /// Search depth given to the engine (`go depth D`).
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Keep openings whose score is within ±this many centipawns (mate scores are never kept).
    #[arg(long, value_name = "CP", default_value_t = 50)]
    pub margin: i32,
    /// Write the book here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Time allowed for one search, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 600_000)]
    pub search_timeout: u64,
    /// Time allowed for the handshake and each isready, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
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
        if seen.insert(crate::book::fold(game.position()).key) {
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

/// `moulin openings`.
pub fn run_openings(args: OpeningsArgs) -> Result<(), String> {
    let rules = rules_of(&args.variant)?;
    let mut spec = EngineSpec::parse(&args.engine).map_err(|e| e.to_string())?;
    // The scores must come from a search: the engine's own book (UCI's OwnBook) is turned off
    // unless the spec says otherwise.
    if !spec
        .options
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("OwnBook"))
    {
        spec.options.push(("OwnBook".into(), "false".into()));
    }
    let ready = Duration::from_millis(args.ready_timeout);
    let limit = Duration::from_millis(args.search_timeout);
    let candidates = enumerate(&rules, args.plies);
    log::info!(
        "{} placement openings of {} turns, distinct under symmetry",
        candidates.len(),
        args.plies
    );
    let bar = ProgressBar::new(candidates.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} openings  {msg}  [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    let mut engine: Option<Engine> = None;
    let mut kept: Vec<(Opening, i32)> = Vec::new();
    let (mut won, mut lost) = (0, 0);
    for opening in &candidates {
        let game = opening.game(&rules)?;
        let position = referee::position_command(&game, &Opening::startpos(), spec.notation);
        let go = format!("go depth {}", args.depth);
        let mut answer = None;
        for _attempt in 0..2 {
            if engine.is_none() {
                engine = Some(
                    Engine::start(&spec, &rules, ready)
                        .map_err(|e| format!("{}: {e}", spec.name))?,
                );
            }
            let e = engine.as_mut().expect("started above");
            let result = e.new_game(ready).and_then(|_| e.go(&position, &go, limit));
            match result {
                Ok(a) => {
                    answer = Some(a);
                    break;
                }
                Err(f) => {
                    log::warn!("{}: {f} on '{opening}'; restarting it", spec.name);
                    engine = None;
                }
            }
        }
        let answer = answer.ok_or_else(|| format!("{} failed twice on '{opening}'", spec.name))?;
        match answer.score {
            Some(Score::Cp(cp)) if cp.abs() <= args.margin => kept.push((opening.clone(), cp)),
            Some(Score::Cp(cp)) | Some(Score::Mate(cp)) => {
                if cp > 0 {
                    won += 1
                } else {
                    lost += 1
                }
            }
            None => {
                return Err(format!(
                    "{} reported no score for '{opening}' (expected 'info ... score cp X')",
                    spec.name
                ))
            }
        }
        bar.inc(1);
        bar.set_message(format!("kept {}", kept.len()));
    }
    bar.finish_and_clear();
    if let Some(e) = engine {
        e.quit();
    }
    let mut text = String::new();
    text.push_str(&format!(
        "# moulin opening book, variant {}: placement openings of {} turns, one per class of\n\
         # positions equal under the board's 16 symmetries ({} in all), kept when {} at depth {}\n\
         # scores them within ±{} cp for the side to move, and no mate ({} kept, {} better and\n\
         # {} worse for the side to move left out). Format: book/README.md.\n",
        args.variant,
        args.plies,
        candidates.len(),
        spec.name,
        args.depth,
        args.margin,
        kept.len(),
        won,
        lost
    ));
    for (o, cp) in &kept {
        text.push_str(&format!("{}  # cp {cp}\n", o.to_line()));
    }
    match &args.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
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
