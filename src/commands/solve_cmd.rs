//! `moulin solve`: proves the value of a placing position, the start by default, by search
//! with the moving endgame tables at the leaves (docs/solving.md).

use super::output::outln;
use crate::commands::failure::{Context, Failure};
use moulin::rules::game::Game;
use moulin::rules::movegen;
use moulin::rules::notation::Convention;
use moulin::rules::position::Position;
use moulin::search::exact::proof::{self, Proof, ProofMemory};
use moulin::search::exact::{name, outcome, wdl};
use moulin::tables::{default_dir, Tables};
use moulin::text::quoted;
use std::path::PathBuf;
use std::time::Instant;

/// The flags of `moulin solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The moves from the start (or from the --fen) to the position to prove (none: the start
    /// itself), in either notation (`d6xb4` or `d6 xb4`).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Start from this position string (protocol.md §3) instead of the empty board: a placing
    /// position between turns, the side to move holding as many pieces in hand as the other
    /// side or one more.
    #[arg(long)]
    pub fen: Option<String>,
    /// Prove first the position after each legal move, one for each class of moves the
    /// board's symmetries make alike, each from an empty memory: the move's value for its
    /// mover, and what its proof cost.
    #[arg(long)]
    pub each: bool,
    /// Rule preset: one whose placing only places pieces and whose mills remove one piece
    /// (nine, protected-mills), with tables built for it. Draw rules do not enter: the values
    /// are the tables' (a game nobody can force to a win is a draw).
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// The moving endgame tables: every pair of piece counts the placing can end in, for the
    /// start every pair from 3-3 to 9-9 (default: ~/.cache/moulin/tables/<variant>). The
    /// placing solution (its `placing` folder) is not read.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Memory for what the proof establishes, in MB, 1 to 4096 (8 bytes a position; the
    /// start's proof keeps about 2.2 million).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub memory: u64,
    /// Threads searching the proof together, 1 to 64.
    #[arg(long, default_value_t = 2, value_parser = super::args::search_threads())]
    pub threads: usize,
}

/// The position the moves lead to from the start or the --fen.
fn position(args: &SolveArgs) -> Result<Position, Failure> {
    let rules = moulin::Rules::named(&args.variant)
        .usage()?
        .without_draw_rules();
    let mut game = match &args.fen {
        Some(text) => Game::from_fen(text, rules).context("--fen").usage()?,
        None => Game::new(rules),
    };
    game.play_tokens(args.moves.iter().map(String::as_str))
        .map_err(|(i, e)| {
            Failure::usage(e).context(format!(
                "--moves: move {} {}",
                i + 1,
                quoted(&args.moves[i])
            ))
        })?;
    Ok(*game.position())
}

/// Runs `moulin solve`.
pub(super) fn run(args: &SolveArgs) -> Result<(), Failure> {
    let pos = position(args)?;
    let dir = args
        .tables
        .clone()
        .unwrap_or_else(|| default_dir(&args.variant));
    let start = Instant::now();
    // The moving tables only: the proof is by search over the placing, not read from its solution.
    let tables = Tables::open_moving(&dir, pos.rules())
        .with_context(|| format!("--tables {}", dir.display()))?;
    let opened = start.elapsed().as_secs_f64();
    proof::provable(&tables, &pos)?;
    let memory = ProofMemory::new(usize::try_from(args.memory << 20).unwrap_or(usize::MAX));
    let threads = args.threads;
    outln!("position: {}", moulin::rules::fen::write(&pos))?;
    if args.each {
        each_move(&tables, &pos, &memory, threads)?;
    }
    memory.clear();
    let proof = proof::prove(&tables, &pos, &memory, threads)?;
    outln!(
        "value: {} for {}, to move",
        name(proof.value),
        pos.side_to_move().name()
    )?;
    for t in &proof.tests {
        outln!(
            "{}: {}, {} positions, {:.2} s",
            if t.bar == 0 { "draw at least" } else { "win" },
            if t.holds { "yes" } else { "no" },
            t.nodes,
            t.secs
        )?;
    }
    let shares = if threads > 1 {
        let busiest: u64 = proof.tests.iter().map(|t| t.busiest).sum();
        format!(" on {threads} threads (the busiest visited {busiest})")
    } else {
        " on 1 thread".to_string()
    };
    outln!(
        "proof: {} positions in {:.2} s{shares}; tables opened in {opened:.2} s",
        proof.nodes(),
        proof.secs()
    )
}

/// Proves the position after each move of `pos`, one a class of moves alike under the board's
/// symmetries, and prints the move's value for its mover with the proof's cost.
fn each_move(
    tables: &Tables,
    pos: &Position,
    memory: &ProofMemory,
    threads: usize,
) -> Result<(), Failure> {
    let mut seen = std::collections::HashSet::new();
    for mv in movegen::legal_moves(pos, Convention::Turn) {
        let mut child = *pos;
        child.play(mv);
        if !seen.insert(moulin::rules::symmetry::fold(&child).key) {
            continue;
        }
        let (value, cost) = if let Some(v) = outcome(&child) {
            (-v, "the game is over".to_string())
        } else if !child.is_placing() {
            let v = tables.probe(&child).ok_or("a table of the moving phase")?;
            (
                -wdl(v),
                "the placing is over: the tables' value".to_string(),
            )
        } else {
            memory.clear();
            let proof: Proof = proof::prove(tables, &child, memory, threads)?;
            let cost = format!("{} positions, {:.2} s", proof.nodes(), proof.secs());
            (-proof.value, cost)
        };
        outln!("move {mv}: {} ({cost})", name(value))?;
    }
    Ok(())
}
