//! `moulin replay`: re-checks a match's records (or PGN-shaped records) under moulin's rules,
//! every move and every result; with `--drawn`, also lists the games lost from openings labelled
//! drawn.

use crate::commands::failure::{Context, Failure};
use crate::commands::output::{out, outln};
use moulin::matches::run::replay::{self, Replayed};
use moulin::matches::run::summary;
use moulin::text::{count, escaped_lines};
use std::path::{Path, PathBuf};

/// The flags of `moulin replay`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Prints one line per game that does not replay, a count, then the results as the match\nprinted them, from the first engine's view (the engine with White in game 1): W/D/L,\nscore, draw ratio, Elo difference with its 95% interval, LOS, pairs. The same lines for\na --records file and a --pgn file of one match (the games of a PGN file are paired by\ntheir Round tags). A file whose games name more than two engines (a tournament's) gets a tournament's results:\nratings anchored on the first engine named, crosstable, pairings.\n\nExit status: 0 every game replayed, 1 one did not (or the file cannot be read), 2 usage."
)]
pub struct ReplayArgs {
    /// A records file written by `moulin match --records`, or PGN-shaped records (`moulin match
    /// --pgn`, docs/matches.md "Game records (PGN)"): told apart by their first bytes.
    pub file: PathBuf,
    /// An openings file whose openings are labelled drawn (e.g. book/openings-nine-d16.txt, the
    /// openings a depth-16 search keeps within ±50 cp): also list every game lost from one of
    /// them (the same opening up to the board's symmetries), by the engine that lost it.
    #[arg(long, value_name = "OPENINGS")]
    pub drawn: Option<PathBuf>,
}

/// Runs `moulin replay`.
pub(crate) fn run(args: &ReplayArgs) -> Result<(), Failure> {
    // The report is made first, so that a bad openings file is the only thing printed.
    let report = match &args.drawn {
        Some(openings) => {
            let records = moulin::input_file::open_regular(&args.file)
                .with_context(|| format!("cannot read records {}", args.file.display()))?;
            let records = std::io::BufReader::new(records);
            let source = args.file.display().to_string();
            Some(replay::losses_from_drawn(records, &source, openings)?)
        }
        None => None,
    };
    let replayed = replay_file(&args.file);
    out!("{}", report.unwrap_or_default())?;
    replayed
}

/// Replays the file: prints every failing record (or game), a summary, and the results as the
/// match printed them (W/D/L, score, draw ratio, Elo with its interval, LOS, pairs), from the
/// first engine's view, for match records and PGN-shaped records alike; an error when any failed.
fn replay_file(path: &Path) -> Result<(), Failure> {
    match replay::replay_file(path)? {
        Replayed::Records(r) => {
            for failure in &r.errors {
                outln!("line {}: {failure}", failure.line)?;
            }
            outln!(
                "replayed {}, {}: {} consistent, {} failed",
                count(r.games, "game", "games"),
                count(r.plies, "move", "moves"),
                r.games - r.errors.len(),
                r.errors.len()
            )?;
            match summary::tournament_report(path)? {
                Some(tournament) => out!("{}", escaped_lines(&tournament))?,
                None => {
                    if let Some([a, _]) = &r.names {
                        let results = summary::results(a, &r.recap.tally);
                        out!("{}", escaped_lines(&results))?;
                    }
                }
            }
            Ok(r.verdict()?)
        }
        Replayed::Pgn(r) => {
            for f in &r.failed {
                outln!("{f}")?;
            }
            outln!(
                "replayed {}, {}: {} consistent, {} failed",
                count(r.games, "game", "games"),
                count(r.plies, "move", "moves"),
                r.games - r.failed.len(),
                r.failed.len()
            )?;
            if r.engines().len() > 2 {
                let standings = r.standings();
                outln!(
                    "{} engines: {} (ratings anchored on the first engine named)",
                    r.engines().len(),
                    count(standings.games(), "game", "games")
                )?;
                let results = summary::tournament_results(&standings, 0, 0.0);
                out!("{}", escaped_lines(&results))?;
            } else if let Some([a, _]) = &r.names {
                out!("{}", escaped_lines(&summary::results(a, &r.recap.tally)))?;
            }
            Ok(r.verdict()?)
        }
    }
}
