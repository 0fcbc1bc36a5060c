//! The summary of a match: the results from the first engine's view (W/D/L, score, draw ratio,
//! Elo with its interval, LOS, pairs), how the games ended, the forfeits, the SPRT's verdict, and
//! the time taken.

use super::results_file::Recap;
use super::runner::Plan;
use super::stats::{self, Tally};

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
            "Elo difference: {}  95% interval {}  ({}: {} samples)\n",
            stats::show_elo(e.elo),
            stats::show_interval(e.interval),
            e.model,
            e.samples
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

/// The summary of a match played by `plan`, whose games add up to `recap`, in `secs` seconds.
#[must_use]
pub fn summary(plan: &Plan, recap: &Recap, secs: f64) -> String {
    let (a, b) = (&plan.specs[0].name, &plan.specs[1].name);
    let t = &recap.tally;
    let (ends, forfeits) = (&recap.ends, recap.forfeits);
    let mut out = String::new();
    let n = t.games();
    out.push_str(&format!(
        "{a} vs {b}: {n} games, {} {}\n",
        plan.variant,
        super::spec::show_controls(&plan.specs, plan.settings.tc)
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
        let verdict = match decision {
            stats::Decision::Continue => format!("no decision after {n} games"),
            decided => decided.to_string(),
        };
        out.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={} ({model}, logistic Elo): LLR {llr:.3} (bounds {lo:.3}, {hi:.3}): {verdict}\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    out.push_str(&format!(
        "Time: {secs:.1} s, {:.1} games/min\n",
        f64::from(n) * 60.0 / secs.max(1e-9)
    ));
    out
}
