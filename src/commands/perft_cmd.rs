//! `moulin perft`: count the positions after a number of plies, or each root move's share.

use super::args::BadValue;
use super::failure::{Context, Failure};
use super::output::{outln, Report};
use moulin::rules::notation::Convention;
use moulin::rules::{fen, perft};
use moulin::{Game, Rules};
use std::time::Instant;

/// Reads a depth given on the command line: a whole number from 0 to `perft::MAX_DEPTH`.
pub(super) fn parse_depth(text: &str) -> Result<u32, BadValue> {
    const MAX: u32 = perft::MAX_DEPTH;
    match text.parse::<u64>() {
        Ok(d) if d <= u64::from(MAX) => Ok(d as u32),
        Ok(_) => Err(BadValue(format!("{text} plies is past the limit of {MAX}"))),
        Err(_) => Err(BadValue(format!(
            "'{text}' is not a depth (0 to {MAX} plies)"
        ))),
    }
}

/// The help of the depth, with its limit (`perft::MAX_DEPTH`, the protocol's `perft` too).
pub(super) fn depth_help() -> String {
    format!(
        "Plies to count (0 to {}, as the protocol's `perft`)",
        perft::MAX_DEPTH
    )
}

/// Runs `moulin perft`.
pub(super) fn run(
    depth: u32,
    fen_text: Option<String>,
    moves: &[String],
    variant: &str,
    convention: &str,
    divide: bool,
) -> Result<(), Failure> {
    let rules = Rules::named(variant).usage()?;
    let conv = Convention::parse(convention)
        .ok_or_else(|| format!("unknown convention '{convention}' (expected turn or action)"))
        .usage()?;
    let mut game = match fen_text {
        Some(text) => Game::from_fen(&text, rules).usage()?,
        None => Game::new(rules),
    };
    let tokens: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    game.play_tokens(tokens).map_err(|(_, e)| e).usage()?;
    let pos = *game.position();
    let started = Instant::now();
    let nodes = if divide {
        // Counting stops at the first line that cannot be written.
        let report = Report::default();
        let mut each =
            |mv: moulin::Move, n| report.line(format_args!("{} {n}", mv.written_at(&pos, conv)));
        let total = perft::divide(&pos, depth, conv, &|| report.failed(), &mut each);
        report.finish()?;
        total.unwrap_or(0)
    } else {
        perft::perft(&pos, depth, conv)
    };
    let secs = started.elapsed().as_secs_f64();
    log::info!(
        "perft {depth} of {}: {nodes} in {secs:.3} s",
        fen::write(&pos)
    );
    eprintln!(
        "perft {depth}: {nodes} leaves in {:.3} s ({:.0} leaves/s)",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    outln!("nodes {nodes}")
}

#[cfg(test)]
mod tests {
    use super::parse_depth;

    #[test]
    fn depths_past_the_limit_are_refused() {
        assert_eq!(parse_depth("40"), Ok(40));
        assert_eq!(parse_depth("0"), Ok(0));
        for bad in [
            "41",
            "200000",
            "4294967295",
            "99999999999999999999",
            "-1",
            "x",
        ] {
            let e = parse_depth(bad).unwrap_err();
            assert!(e.to_string().contains("40"), "{bad}: {e}");
        }
    }
}
