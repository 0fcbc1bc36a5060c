//! The summary of a match: the results from the first engine's view (W/D/L, score, draw ratio,
//! Elo with its interval, LOS, pairs), how the games ended, the forfeits, the SPRT's verdict, and
//! the time taken. That of a tournament: the ranking by rating (maximum likelihood over all its
//! games), the crosstable, and each pairing's results.

use super::runner::Plan;
use super::standings::Standings;
use crate::matches::numbers::ratings::Rating;
use crate::matches::numbers::stats::{self, Tally};
use crate::text::count;
use std::fmt::Write as _;

/// The results from the first engine's (`a`) view: W/D/L, score, draw ratio, Elo with its
/// interval (`n/a` when the samples cannot give one), LOS, pairs.
#[must_use]
pub fn results(a: &str, t: &Tally) -> String {
    let mut out = format!(
        "W {}  D {}  L {}  (from {a}'s view)\n",
        t.wins, t.draws, t.losses
    );
    if let Some(e) = t.estimate() {
        out.push_str(&format!("Score: {}\n", stats::show_percent(t.score())));
        out.push_str(&format!(
            "Draw ratio: {}\n",
            stats::show_percent(t.draw_ratio())
        ));
        out.push_str(&format!(
            "Elo difference: {}  95% interval {}  ({}: {})\n",
            stats::show_estimate(&e),
            stats::show_interval(e.interval),
            e.model,
            count(e.samples, "sample", "samples")
        ));
        out.push_str(&format!("LOS: {}\n", stats::show_percent(e.los)));
    }
    if t.pair_count() > 0 {
        let p = t.pairs;
        out.push_str(&format!(
            "Pairs by {a}'s points (0, 0.5, 1, 1.5, 2): {} {} {} {} {}\n",
            p[0], p[1], p[2], p[3], p[4]
        ));
    }
    out
}

/// The summary of a match (or a tournament) played by `plan`, whose games add up to
/// `standings` (resumed records included), `played` of them in `secs` seconds; `stopped`: where
/// its SPRT decided.
#[must_use]
pub fn summary(
    plan: &Plan,
    standings: &Standings,
    stopped: Option<&super::runner::SprtStop>,
    played: u32,
    secs: f64,
) -> String {
    if let Some(t) = plan.tournament {
        return tournament_summary(plan, t, standings, played, secs);
    }
    let recap = &standings.recaps[0];
    let (a, b) = (&plan.specs[0].name, &plan.specs[1].name);
    let t = &recap.tally;
    let (ends, forfeits) = (&recap.ends, recap.forfeits);
    let mut out = String::new();
    let n = t.games();
    out.push_str(&format!(
        "{a} vs {b}: {}, {} {}\n",
        count(n, "game", "games"),
        plan.variant,
        crate::matches::engines::spec::show_controls(&plan.specs, plan.settings.tc)
    ));
    out.push_str(&results(a, t));
    let ends: Vec<String> = ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.push_str(&format!("Ends: {}\n", ends.join(", ")));
    out.push_str(&format!(
        "Forfeits: {a} {}, {b} {}\n",
        forfeits[0], forfeits[1]
    ));
    if let Some(sprt) = &plan.sprt {
        let (llr, decision) = sprt.test(t);
        let (lo, hi) = sprt.bounds();
        let model = t.estimate().map_or(stats::Model::Trinomial, |e| e.model);
        // The match is over: an undecided test did not "continue", the games ran out (or the
        // match stopped) first.
        // The verdict is where the test first crossed a bound: games in flight then still end and
        // count, and may take the LLR back inside the bounds, but a sequential test stopped.
        let verdict = match (stopped, decision) {
            (Some(stop), _) if stop.games < n => format!(
                "{} after {} (LLR {:.3}); {} more ended after it",
                stop.decision,
                count(stop.games, "game", "games"),
                stop.llr,
                n - stop.games
            ),
            (Some(stop), _) => stop.decision.to_string(),
            (None, stats::Decision::Continue) => {
                format!(
                    "no decision after {}{}",
                    count(n, "game", "games"),
                    undecidable(t, llr, sprt)
                )
            }
            (None, decided) => decided.to_string(),
        };
        out.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={} ({model}, logistic Elo): LLR {llr:.3} (bounds {lo:.3}, {hi:.3}): {verdict}\n",
            stats::show_parameter(sprt.elo0),
            stats::show_parameter(sprt.elo1),
            stats::show_parameter(sprt.alpha),
            stats::show_parameter(sprt.beta)
        ));
    }
    out.push_str(&time_taken(n, played, secs));
    out
}

/// Why an SPRT whose LLR is past a bound has not decided, to follow "no decision after N
/// games": its samples are all alike, which leave its variance nothing to go on (empty when the
/// LLR is within the bounds, or the samples differ).
#[must_use]
pub fn undecidable(t: &Tally, llr: f64, sprt: &stats::Sprt) -> String {
    let (lo, hi) = sprt.bounds();
    match t.alike() {
        Some((model, value)) if llr <= lo || llr >= hi => {
            let what = match model {
                stats::Model::Pentanomial => format!(
                    "every pair scored alike ({} of 2 points)",
                    stats::show_parameter(value * 2.0)
                ),
                stats::Model::Trinomial => format!(
                    "every game scored alike ({} of 1 point)",
                    stats::show_parameter(value)
                ),
            };
            format!(
                " ({what}: results that never differ have no variance for the test to judge; \
                 the LLR is past its bound but it decides only once they differ)"
            )
        }
        _ => String::new(),
    }
}

/// The results of the tournament whose records are in the file at `path` (`tournament_results`,
/// after a line naming the tournament); `None` for a match's records.
///
/// # Errors
///
/// A file that cannot be read.
pub fn tournament_report(
    path: &std::path::Path,
) -> Result<Option<String>, super::records_file::RecordsError> {
    let Some(t) = super::standings::tournament_of_records(path)? else {
        return Ok(None);
    };
    let mut out = format!(
        "{} of {} engines: {}\n",
        t.tournament,
        t.standings.names.len(),
        count(t.standings.games(), "game", "games")
    );
    out.push_str(&tournament_results(&t.standings, t.anchor, t.anchor_elo));
    Ok(Some(out))
}

/// The summary's last line: the time taken, and the pace of the `played` games of `games` that
/// this run played (a resumed match's others were played before).
fn time_taken(games: u32, played: u32, secs: f64) -> String {
    let pace = f64::from(played) * 60.0 / secs.max(1e-9);
    if played == games {
        format!("Time: {secs:.1} s, {pace:.1} games/min\n")
    } else {
        format!(
            "Time: {secs:.1} s for the {} played now, {pace:.1} games/min\n",
            count(played, "game", "games")
        )
    }
}

/// The summary of a tournament of kind `kind`.
fn tournament_summary(
    plan: &Plan,
    kind: super::lineup::Tournament,
    standings: &Standings,
    played: u32,
    secs: f64,
) -> String {
    let n = standings.games();
    let mut out = format!(
        "{kind} of {} engines: {}, {} {}\n",
        plan.specs.len(),
        count(n, "game", "games"),
        plan.variant,
        crate::matches::engines::spec::show_controls(&plan.specs, plan.settings.tc)
    );
    out.push_str(&tournament_results(standings, plan.anchor.0, plan.anchor.1));
    let ends: Vec<String> = standings
        .ends()
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    out.push_str(&format!("Ends: {}\n", ends.join(", ")));
    let forfeits: Vec<String> = standings
        .names
        .iter()
        .zip(standings.forfeits())
        .map(|(name, k)| format!("{name} {k}"))
        .collect();
    out.push_str(&format!("Forfeits: {}\n", forfeits.join(", ")));
    out.push_str(&time_taken(n, played, secs));
    out
}

/// One engine's line of the ranking.
struct Entry {
    engine: usize,
    rating: Rating,
    games: f64,
    points: f64,
    draws: u32,
}

impl Entry {
    /// The key the ranking sorts by: above the rated, the rated by rating, below them, and
    /// those with no rating last; the score breaks ties.
    fn key(&self) -> (u8, f64) {
        let score = self.points / self.games.max(1.0);
        match self.rating {
            Rating::Above => (0, -score),
            Rating::Finite { elo, .. } => (1, -elo),
            Rating::Below => (2, -score),
            Rating::Unlinked => (3, -score),
        }
    }
}

/// A tournament's results: the ranking (rating, its 95% error, games, score, draws), the engines
/// with no finite rating and why, the crosstable, and each pairing's results. The ratings are
/// anchored on engine `anchor` at `anchor_elo`.
#[must_use]
pub fn tournament_results(standings: &Standings, anchor: usize, anchor_elo: f64) -> String {
    let entries = ranked(standings, anchor, anchor_elo);
    let mut out = ranking(&standings.names, &entries, anchor_elo);
    out.push_str(&crosstable(standings, &entries));
    out.push_str(&pairwise(standings));
    out
}

/// A tournament's ranking alone (`tournament_results`' first table, with its lines on the
/// engines with no finite rating): every engine's rating, its 95% error, games, score and
/// draws, as cutechess-cli prints its table every `-ratinginterval` games of a tournament.
#[must_use]
pub fn ranking_table(standings: &Standings, anchor: usize, anchor_elo: f64) -> String {
    ranking(
        &standings.names,
        &ranked(standings, anchor, anchor_elo),
        anchor_elo,
    )
}

/// Every engine's line of the ranking, best first.
fn ranked(standings: &Standings, anchor: usize, anchor_elo: f64) -> Vec<Entry> {
    let scores = standings.scores();
    let ratings = scores.ratings(anchor, anchor_elo);
    let names = &standings.names;
    let mut entries: Vec<Entry> = (0..names.len())
        .map(|i| {
            let (games, points) = (0..names.len())
                .map(|j| scores.between(i, j))
                .fold((0.0, 0.0), |(g, p), (a, b)| (g + a, p + b));
            let draws = standings
                .pairings
                .iter()
                .zip(&standings.recaps)
                .filter(|((a, b), _)| *a == i || *b == i)
                .map(|(_, r)| r.tally.draws)
                .sum();
            Entry {
                engine: i,
                rating: ratings[i],
                games,
                points,
                draws,
            }
        })
        .collect();
    entries.sort_by(|a, b| {
        a.key()
            .partial_cmp(&b.key())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    entries
}

/// The width of the engines' column: the longest name, and at least that of `Engine`.
fn name_width(names: &[String]) -> usize {
    names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(6)
}

/// The ranking table, and a line for each kind of engine with no finite rating.
fn ranking(names: &[String], entries: &[Entry], anchor_elo: f64) -> String {
    let width = name_width(names);
    let mut out = format!(
        "Ratings (maximum likelihood, logistic Elo, draws half a point; ± is the 95% error):\n{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>6}  {:>6}\n",
        "Rank", "Engine", "Rating", "±", "Games", "Score", "Draws"
    );
    let show = |elo: f64| {
        if anchor_elo == 0.0 {
            stats::show_elo(elo)
        } else {
            format!("{elo:.1}")
        }
    };
    let mut unrated: [Vec<&str>; 3] = Default::default();
    for (rank, e) in entries.iter().enumerate() {
        let (rating, error) = match e.rating {
            Rating::Finite { elo, error } => (
                show(elo),
                error.map_or_else(|| "anchor".to_string(), |x| format!("{x:.1}")),
            ),
            other => {
                let k = match other {
                    Rating::Above => 0,
                    Rating::Below => 1,
                    _ => 2,
                };
                unrated[k].push(&names[e.engine]);
                ("n/a".to_string(), "n/a".to_string())
            }
        };
        let share = |x: f64| stats::show_percent((e.games > 0.0).then(|| x / e.games));
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {rating:>8}  {error:>7}  {:>6}  {:>6}  {:>6}",
            rank + 1,
            names[e.engine],
            e.games,
            share(e.points),
            share(f64::from(e.draws))
        );
    }
    let why = [
        "won every game against the rated engines (directly or through engines that did): no finite rating, above them",
        "lost every game to the rated engines (directly or through engines that did): no finite rating, below them",
        "no games link them to the anchor: no rating",
    ];
    for (list, why) in unrated.iter().zip(why) {
        if !list.is_empty() {
            let _ = writeln!(out, "n/a: {} {why}", list.join(", "));
        }
    }
    out
}

/// The crosstable, in the ranking's order: the row's points against the column's, of the games
/// they played (blank for engines that did not meet).
fn crosstable(standings: &Standings, entries: &[Entry]) -> String {
    let scores = standings.scores();
    let names = &standings.names;
    let width = name_width(names);
    let cell = 9;
    let mut out = format!(
        "Crosstable (the row's points against the column's, of their games):\n{:>4}  {:<width$}",
        "", "Engine"
    );
    for k in 1..=entries.len() {
        let _ = write!(out, "  {k:>cell$}");
    }
    out.push('\n');
    for (rank, row) in entries.iter().enumerate() {
        let _ = write!(out, "{:>4}  {:<width$}", rank + 1, names[row.engine]);
        for col in entries {
            let (games, points) = scores.between(row.engine, col.engine);
            let text = if col.engine == row.engine {
                "-".to_string()
            } else if games > 0.0 {
                format!("{points}/{games}")
            } else {
                String::new()
            };
            let _ = write!(out, "  {text:>cell$}");
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out
}

/// Each pairing's results from its first engine's view: W/D/L, score, Elo difference with its
/// 95% interval (pentanomial over the pairs), LOS.
fn pairwise(standings: &Standings) -> String {
    let mut out = "Pairings (from the first engine's view; Elo over game pairs):\n".to_string();
    for (&(i, j), r) in standings.pairings.iter().zip(&standings.recaps) {
        let t = &r.tally;
        let _ = write!(
            out,
            "{} vs {}: W {}  D {}  L {}",
            standings.names[i], standings.names[j], t.wins, t.draws, t.losses
        );
        if let Some(e) = t.estimate() {
            let _ = write!(
                out,
                "  score {}  Elo {}  95% {}  LOS {}  ({}: {})",
                stats::show_percent(t.score()),
                stats::show_estimate(&e),
                stats::show_interval(e.interval),
                stats::show_percent(e.los),
                e.model,
                count(e.samples, "sample", "samples")
            );
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{time_taken, undecidable};
    use crate::matches::numbers::stats::{Sprt, Tally};

    #[test]
    fn an_sprt_past_its_bound_says_why_it_does_not_decide() {
        let sprt = Sprt::parse(&["elo0=0".to_string(), "elo1=5".to_string()]).unwrap();
        let mut t = Tally::default();
        for _ in 0..3 {
            t.add_game(1.0);
            t.add_game(0.5);
            t.add_pair(1.5);
        }
        let (llr, decision) = sprt.test(&t);
        assert_eq!(decision, crate::matches::numbers::stats::Decision::Continue);
        assert!(llr > sprt.bounds().1, "{llr}");
        let why = undecidable(&t, llr, &sprt);
        assert!(
            why.contains("every pair scored alike (1.5 of 2 points)"),
            "{why}"
        );
        // Within the bounds, nothing to explain.
        assert_eq!(undecidable(&t, 0.0, &sprt), "");
    }

    #[test]
    fn a_resumed_match_paces_only_the_games_it_played() {
        assert_eq!(
            time_taken(200, 200, 600.0),
            "Time: 600.0 s, 20.0 games/min\n"
        );
        assert_eq!(
            time_taken(200, 23, 690.0),
            "Time: 690.0 s for the 23 games played now, 2.0 games/min\n"
        );
    }
}
