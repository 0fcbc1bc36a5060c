//! `moulin perft`: count the positions after a number of plies, or each root move's share.

use crate::rules::notation::Convention;
use crate::rules::{fen, perft};
use crate::{Game, Rules};
use std::time::Instant;

/// Runs `moulin perft`.
pub(super) fn run(
    depth: u32,
    fen_text: Option<String>,
    moves: Vec<String>,
    variant: &str,
    convention: &str,
    divide: bool,
) -> Result<(), String> {
    let rules = Rules::named(variant).map_err(|e| e.to_string())?;
    let conv = Convention::parse(convention)
        .ok_or_else(|| format!("unknown convention '{convention}' (expected turn or action)"))?;
    let mut game = match fen_text {
        Some(text) => Game::from_fen(&text, rules).map_err(|e| e.to_string())?,
        None => Game::new(rules),
    };
    let tokens: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    game.play_tokens(tokens).map_err(|(_, e)| e.to_string())?;
    let pos = *game.position();
    let started = Instant::now();
    let nodes = if divide {
        let mut each = |mv: crate::Move, n| println!("{} {n}", mv.written_at(&pos, conv));
        perft::divide(&pos, depth, conv, &|| false, &mut each).unwrap_or(0)
    } else {
        perft::perft(&pos, depth, conv)
    };
    let secs = started.elapsed().as_secs_f64();
    log::info!(
        "perft {depth} of {}: {nodes} in {secs:.3} s",
        fen::write(&pos)
    );
    eprintln!(
        "{:.3} s, {:.0} leaves/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    println!("nodes {nodes}");
    Ok(())
}
