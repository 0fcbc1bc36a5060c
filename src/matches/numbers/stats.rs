//! Match statistics: the score, its Elo difference with a 95% interval, and the sequential
//! probability ratio test (SPRT).
//!
//! Games are played in pairs (one opening, colours swapped), so the preferred model is the
//! pentanomial one: each pair scores 0, 0.5, 1, 1.5 or 2 points, and the variance is taken over
//! pairs. This is what makes draw-heavy, opening-biased results come out right: a pair won by
//! White each time (1 point each) carries no evidence, and the trinomial model over single
//! games would count it twice as noise. The trinomial model (win/draw/loss per game) is used
//! when no pair is complete.
//!
//! Formulas (normal approximation; see M. Van den Bergh, "Normalized Elo" and fishtest's
//! statistics notes):
//! - Elo of a score s: `-400 log10(1/s - 1)`.
//! - Interval: `s ± t σ/√n`, mapped through the Elo formula (n games or n pairs, σ² the sample
//!   variance (over n - 1) of one game or of one pair's score divided by 2, t the 97.5% quantile
//!   of Student's t with n - 1 degrees of freedom: 12.7 for two samples, 1.96 for many). An end
//!   past a score of 0 or 1 is no bound (`Interval::Above`, `Below`); both past, or fewer than
//!   two samples, and the games are too few for an interval (`TooFew`). None when every sample
//!   is alike (`Alike`): the data then say nothing of the spread, and a zero-width interval
//!   would be a false precision.
//! - A full score (every sample won, or every one lost) has no finite Elo. Its bound: a sample
//!   in [0, 1] of mean μ is 1 with a chance of at most μ (Markov's inequality), so n samples all
//!   at 1 have a chance of at most μⁿ, below 2.5% for every μ under `0.025^(1/n)`: the Elo is
//!   above that score's, one-sided at 97.5% as each end of the interval (`Above`), whatever the
//!   samples' spread; and below the mirror bound for every sample lost.
//! - LOS, the likelihood of superiority (that the first engine is the stronger):
//!   `T((s - 1/2) / (σ/√n))` over the same samples, T the distribution function of Student's t
//!   with n - 1 degrees of freedom, as the interval (cutechess-cli and fastchess use the normal
//!   one, which is 99.9% sure of 2 samples); none when there is no spread.
//! - SPRT on logistic Elo bounds elo0 < elo1, with s0, s1 their expected scores:
//!   `LLR = n (s1 - s0)(2 s̄ - s0 - s1) / (2 σ²)`, accepted H1 at `ln((1-β)/α)`, H0 at
//!   `ln(β/(1-α))`. Empty cells are given a count of 1e-3 (as fishtest does) so that the
//!   variance is never zero, and no decision is taken while every sample is alike (the variance
//!   observed is zero: the data say nothing yet about the spread).

use super::distributions::{t975, t_cdf};
use std::fmt;

/// An SPRT (`--sprt`) that cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A word that is not `key=value`.
    #[error("sprt: '{word}' is not key=value")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A value that is not a number.
    #[error("sprt: '{value}' in '{word}' is not a number")]
    NotNumber {
        /// The value.
        value: String,
        /// The word it is in.
        word: String,
    },
    /// A key that is not one of `elo0`, `elo1`, `alpha`, `beta`.
    #[error("sprt: unknown key '{key}' (elo0, elo1, alpha, beta)")]
    Key {
        /// The key.
        key: String,
    },
    /// No `elo0` or no `elo1`.
    #[error("sprt: give elo0=<a> elo1=<b>")]
    Bounds,
    /// A hypothesis beyond `MAX_SPRT_ELO` either way.
    #[error("sprt: {name}={elo} is out of range (-{max} to {max} Elo)")]
    Elo {
        /// `elo0` or `elo1`.
        name: &'static str,
        /// The value given (`show_parameter`).
        elo: String,
        /// The bound.
        max: f64,
    },
    /// An `elo0` not below its `elo1`.
    #[error("sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order {
        /// The hypothesis H0 (`show_parameter`).
        elo0: String,
        /// The hypothesis H1.
        elo1: String,
    },
    /// An error probability not between 0 and 0.5.
    #[error("sprt: {name}={p} must be above 0 and below 0.5")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given (`show_parameter`).
        p: String,
    },
}

/// The results so far, from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The first engine's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// The first engine's losses.
    pub losses: u32,
    /// Completed pairs by the first engine's points in them: 0, 0.5, 1, 1.5, 2.
    pub pairs: [u32; 5],
}

/// Which model an estimate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Over game pairs (the same opening, colours swapped): five outcomes of a pair.
    Pentanomial,
    /// Over games: win, draw or loss.
    Trinomial,
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Model::Pentanomial => "pentanomial, over game pairs",
            Model::Trinomial => "trinomial, over games",
        })
    }
}

/// The 95% interval of an Elo difference, as far as the samples give one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interval {
    /// Both ends, low first.
    Between(f64, f64),
    /// Only a low end: the interval reaches past a full score (or every sample was won).
    Above(f64),
    /// Only a high end: the interval reaches past an empty score (or every sample was lost).
    Below(f64),
    /// Too few samples for an end: fewer than two, or both ends past the scores.
    TooFew,
    /// Every sample alike, short of a full or an empty score: nothing is known of the spread.
    Alike,
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The model it comes from.
    pub model: Model,
    /// Samples: pairs or games.
    pub samples: u32,
    /// The first engine's score, 0 to 1.
    pub score: f64,
    /// The Elo difference: infinite for a full or an empty score, whose bound is the interval's
    /// one end.
    pub elo: f64,
    /// The 95% interval of the Elo difference.
    pub interval: Interval,
    /// The likelihood of superiority, 0 to 1; `None` when the samples have no spread.
    pub los: Option<f64>,
}

impl Tally {
    /// Adds one game: 1, 0.5 or 0 points for the first engine.
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Adds a completed pair: 0 to 2 points for the first engine.
    pub fn add_pair(&mut self, points: f64) {
        let cell = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[cell] += 1;
    }

    /// The games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The complete pairs.
    #[must_use]
    pub fn pair_count(&self) -> u32 {
        self.pairs.iter().sum()
    }

    /// The first engine's score (0 to 1), if any game was played.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Sample counts and values of the model: pairs (score/2) when any pair is complete, else
    /// games.
    fn samples(&self) -> (Model, Vec<(f64, f64)>) {
        if self.pair_count() > 0 {
            let values = [0.0, 0.25, 0.5, 0.75, 1.0];
            (
                Model::Pentanomial,
                self.pairs
                    .iter()
                    .zip(values)
                    .map(|(&c, v)| (f64::from(c), v))
                    .collect(),
            )
        } else {
            (
                Model::Trinomial,
                vec![
                    (f64::from(self.losses), 0.0),
                    (f64::from(self.draws), 0.5),
                    (f64::from(self.wins), 1.0),
                ],
            )
        }
    }

    /// The model and the one value of its samples when every sample is the same (every pair,
    /// or every game before any pair is complete, scored alike: no variance, so that neither an
    /// interval nor the SPRT can judge them); `None` when they differ or there are none.
    #[must_use]
    pub fn alike(&self) -> Option<(Model, f64)> {
        let (model, cells) = self.samples();
        let (_, mean, var) = moments(&cells)?;
        (var <= 0.0).then_some((model, mean))
    }

    /// The share of drawn games (0 to 1), if any game was played.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| f64::from(self.draws) / f64::from(n))
    }

    /// The Elo estimate, its 95% interval and the LOS, as far as the samples allow.
    pub fn estimate(&self) -> Option<Estimate> {
        let (model, cells) = self.samples();
        let (n, mean, var) = moments(&cells)?;
        let samples = n as u32;
        // The standard error of the mean, from the sample variance; none when it is nothing.
        let se = (samples >= 2 && var > 0.0).then(|| (var / (n - 1.0)).sqrt());
        // Below this chance, n samples all at a full score (Markov's inequality, above).
        let full = 0.025f64.powf(1.0 / n);
        let interval = match se {
            _ if mean >= 1.0 => Interval::Above(elo(full)),
            _ if mean <= 0.0 => Interval::Below(elo(1.0 - full)),
            None if samples < 2 => Interval::TooFew,
            None => Interval::Alike,
            Some(se) => {
                let half = t975(samples - 1) * se;
                match (mean - half > 0.0, mean + half < 1.0) {
                    (true, true) => Interval::Between(elo(mean - half), elo(mean + half)),
                    (true, false) => Interval::Above(elo(mean - half)),
                    (false, true) => Interval::Below(elo(mean + half)),
                    (false, false) => Interval::TooFew,
                }
            }
        };
        Some(Estimate {
            model,
            samples,
            score: mean,
            elo: elo(mean),
            interval,
            los: se.map(|se| t_cdf((mean - 0.5) / se, samples - 1)),
        })
    }
}

/// Count, mean and variance of weighted samples `(count, value)`.
fn moments(cells: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = cells.iter().map(|c| c.0).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = cells.iter().map(|(c, v)| c * v).sum::<f64>() / n;
    let var = cells
        .iter()
        .map(|(c, v)| c * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// The Elo difference that a score `s` (0 to 1) means; infinite at 0 and 1.
pub fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The largest Elo difference an SPRT hypothesis may state, either way: at 1000 Elo one engine
/// is expected to score 99.7%, so no test is needed beyond it.
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither hypothesis yet: play on.
    Continue,
    /// H0 (elo ≤ elo0) accepted.
    H0,
    /// H1 (elo ≥ elo1) accepted.
    H1,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Continue => "continue",
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; alpha and beta default to 0.05).
    ///
    /// # Errors
    ///
    /// A word that is not `key=value` with a known key and a number, missing bounds, bounds
    /// in the wrong order, or an error probability out of range.
    pub fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w.split_once('=').ok_or_else(|| SprtError::NotKeyValue {
                word: w.to_string(),
            })?;
            let x: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| !x.is_nan())
                .ok_or_else(|| SprtError::NotNumber {
                    value: v.to_string(),
                    word: w.to_string(),
                })?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(SprtError::Key { key: k.to_string() }),
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err(SprtError::Bounds);
        }
        for (name, elo) in [("elo0", s.elo0), ("elo1", s.elo1)] {
            if elo.abs() > MAX_SPRT_ELO {
                return Err(SprtError::Elo {
                    name,
                    elo: show_parameter(elo),
                    max: MAX_SPRT_ELO,
                });
            }
        }
        if s.elo0 >= s.elo1 {
            return Err(SprtError::Order {
                elo0: show_parameter(s.elo0),
                elo1: show_parameter(s.elo1),
            });
        }
        for (name, p) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError::Probability {
                    name,
                    p: show_parameter(p),
                });
            }
        }
        Ok(s)
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results, and whether it decides.
    pub fn test(&self, tally: &Tally) -> (f64, Decision) {
        let (_, cells) = tally.samples();
        let Some((_, _, raw_var)) = moments(&cells) else {
            return (0.0, Decision::Continue);
        };
        let regular: Vec<(f64, f64)> = cells
            .iter()
            .map(|&(c, v)| (if c == 0.0 { 1e-3 } else { c }, v))
            .collect();
        let (n, mean, var) = moments(&regular).expect("counts are positive");
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let (lower, upper) = self.bounds();
        let decision = if raw_var <= 0.0 {
            Decision::Continue
        } else if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        };
        (llr, decision)
    }
}

/// An Elo figure for people: `+12.3`, `-4.0`, `+inf`, and `0.0` for what rounds to zero
/// (zero has no sign).
pub fn show_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if format!("{:.1}", e.abs()) == "0.0" {
        "0.0".to_string()
    } else {
        format!("{e:+.1}")
    }
}

/// A parameter as given, for people: its shortest decimal form (`0.05`, `-2.5`), or its
/// exponent form when that is longer than 24 characters (`1e-300`, not 300 digits).
pub fn show_parameter(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() > 24 {
        format!("{x:e}")
    } else {
        plain
    }
}

/// A 95% interval for people: `[-12.0, +30.5]`, `[+189.5, +inf]` when it has one end only,
/// `n/a (too few games)`, or `n/a` when every sample is alike.
pub fn show_interval(interval: Interval) -> String {
    match interval {
        Interval::Between(low, high) => format!("[{}, {}]", show_elo(low), show_elo(high)),
        Interval::Above(low) => format!("[{}, +inf]", show_elo(low)),
        Interval::Below(high) => format!("[-inf, {}]", show_elo(high)),
        Interval::TooFew => "n/a (too few games)".to_string(),
        Interval::Alike => "n/a".to_string(),
    }
}

/// An estimate's Elo for people: `+12.3`; for a full or an empty score, which has no finite
/// Elo, its 97.5% bound: `> -290.0`, `< +290.0`.
pub fn show_estimate(e: &Estimate) -> String {
    match e.interval {
        Interval::Above(low) if e.elo.is_infinite() => format!("> {}", show_elo(low)),
        Interval::Below(high) if e.elo.is_infinite() => format!("< {}", show_elo(high)),
        _ => show_elo(e.elo),
    }
}

/// A share for people, as a percentage (`73.2%`), or `n/a`.
pub fn show_percent(p: Option<f64>) -> String {
    p.map_or_else(|| "n/a".to_string(), |p| format!("{:.1}%", 100.0 * p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn games(w: u32, d: u32, l: u32) -> Tally {
        Tally {
            wins: w,
            draws: d,
            losses: l,
            pairs: [0; 5],
        }
    }

    // Expected values computed by hand (a few lines of Python with the formulas above).
    #[test]
    fn trinomial_estimates() {
        let e = games(30, 40, 30).estimate().unwrap();
        assert_eq!(e.model, Model::Trinomial);
        assert!(close(e.elo, 0.0));
        let Interval::Between(low, high) = e.interval else {
            panic!("{e:?}")
        };
        assert!(close(low, -54.101_836_231_533_02), "{low}");
        assert!(close(high, 54.101_836_231_533_05));
        assert!(close(e.los.unwrap(), 0.5));
        let e = games(10, 5, 5).estimate().unwrap();
        assert!(close(e.score, 0.625));
        assert!(close(e.elo, 88.739_499_846_542_51));
        let Interval::Between(low, high) = e.interval else {
            panic!("{e:?}")
        };
        assert!(close(low, -51.849_980_049_282_294), "{low}");
        assert!(close(high, 268.248_552_934_294), "{high}");
        // Student's t with 19 degrees of freedom (mpmath's integral of its density: 0.897797).
        assert!(close(e.los.unwrap(), 0.897_797_129_152_659), "{:?}", e.los);
        assert_eq!(games(0, 0, 0).estimate(), None);
        // Every sample alike: nothing is known of the spread.
        let e = games(2, 2, 0).estimate().unwrap();
        assert!(e.los.is_some());
        let e = games(0, 3, 0).estimate().unwrap();
        assert_eq!((e.interval, e.los), (Interval::Alike, None));
        assert_eq!(show_interval(e.interval), "n/a");
        let e = games(0, 1, 0).estimate().unwrap();
        assert_eq!(show_interval(e.interval), "n/a (too few games)");
    }

    #[test]
    fn a_full_score_has_a_bound_not_an_infinity() {
        // 4 games won: a mean of at most 0.025^(1/4) = 0.3976 gives them a chance under 2.5%.
        let e = games(4, 0, 0).estimate().unwrap();
        assert!(e.elo.is_infinite() && e.los.is_none());
        let Interval::Above(low) = e.interval else {
            panic!("{e:?}")
        };
        assert!(close(low, -72.149_785_865_725_82), "{low}");
        assert_eq!(show_estimate(&e), "> -72.1");
        assert_eq!(show_interval(e.interval), "[-72.1, +inf]");
        // The same 4 games as 2 pairs won: 2 samples, a looser bound.
        let mut t = games(4, 0, 0);
        t.pairs = [0, 0, 0, 0, 2];
        let e = t.estimate().unwrap();
        assert_eq!(show_estimate(&e), "> -290.5");
        // Every game lost: the mirror.
        let e = games(0, 0, 4).estimate().unwrap();
        assert_eq!(show_estimate(&e), "< +72.1");
        assert_eq!(show_interval(e.interval), "[-inf, +72.1]");
        // A finite Elo shows as itself.
        let e = games(10, 5, 5).estimate().unwrap();
        assert_eq!(show_estimate(&e), "+88.7");
    }

    #[test]
    fn two_samples_give_a_wide_interval() {
        let mut t = games(0, 0, 0);
        t.pairs = [0, 0, 1, 1, 0];
        let e = t.estimate().unwrap();
        assert!(close(e.elo, 88.739_499_846_542_51));
        // 12.7 standard errors either way: beyond both ends of the score, no interval at all.
        assert_eq!(e.interval, Interval::TooFew);
        assert_eq!(show_interval(e.interval), "n/a (too few games)");
        // One standard error above a half, by Student's t with 1 degree of freedom: 75%, where
        // the normal distribution says 84.1% (and 99.9% at 3).
        assert!(close(e.los.unwrap(), 0.75), "{:?}", e.los);
        // One end past a full score: the interval has its low end only.
        t.pairs = [0, 0, 2, 0, 8];
        let e = t.estimate().unwrap();
        assert!(
            matches!(e.interval, Interval::Above(low) if low > 0.0),
            "{e:?}"
        );
    }

    #[test]
    fn zero_has_no_sign() {
        assert_eq!(show_elo(-0.0), "0.0");
        assert_eq!(show_elo(0.04), "0.0");
        assert_eq!(show_elo(-0.04), "0.0");
        assert_eq!(show_elo(-0.06), "-0.1");
        assert_eq!(show_elo(12.34), "+12.3");
        assert_eq!(show_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(show_interval(Interval::Alike), "n/a");
        assert_eq!(show_percent(Some(0.5)), "50.0%");
    }

    #[test]
    fn pentanomial_estimates() {
        let mut t = games(0, 0, 0);
        t.pairs = [1, 3, 10, 4, 2];
        let e = t.estimate().unwrap();
        assert_eq!(e.model, Model::Pentanomial);
        assert_eq!(e.samples, 20);
        assert!(close(e.score, 0.5375));
        assert!(close(e.elo, 26.106_692_605_036_62));
        let Interval::Between(low, high) = e.interval else {
            panic!("{e:?}")
        };
        assert!(close(low, -54.724_305_657_989_89), "{low}");
        assert!(close(high, 109.917_611_899_227_04), "{high}");
        assert!(close(e.los.unwrap(), 0.747_308_752_112_652), "{:?}", e.los);
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let sprt = Sprt::parse(&["elo0=0 elo1=10".to_string()]).unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979_166_440_3) && close(hi, 2.944_438_979_166_440_3));
        let mut t = games(0, 0, 0);
        t.pairs = [1, 3, 10, 4, 2];
        let (llr, d) = sprt.test(&t);
        assert!(close(llr, 0.150_434_112_211_068_67), "{llr}");
        assert_eq!(d, Decision::Continue);
        let (llr, _) = sprt.test(&games(10, 5, 5));
        assert!(close(llr, 0.197_225_016_626_811), "{llr}");
        // Far more wins than losses: H1.
        t.pairs = [0, 2, 40, 60, 10];
        assert_eq!(sprt.test(&t).1, Decision::H1);
        t.pairs = [10, 60, 40, 2, 0];
        assert_eq!(sprt.test(&t).1, Decision::H0);
    }

    #[test]
    fn all_draws_decide_nothing_and_stay_finite() {
        let sprt = Sprt::parse(&["elo0=0".into(), "elo1=5".into()]).unwrap();
        let mut t = games(0, 200, 0);
        t.pairs = [0, 0, 100, 0, 0];
        let (llr, d) = sprt.test(&t);
        assert!(llr.is_finite());
        assert_eq!(d, Decision::Continue);
        let e = t.estimate().unwrap();
        assert!(close(e.elo, 0.0) && e.interval == Interval::Alike && e.los.is_none());
    }

    #[test]
    fn sprt_parse_errors() {
        for (bad, needle) in [
            ("elo0=5 elo1=0", "below"),
            ("elo1=5", "give elo0"),
            ("elo0=0 elo1=5 alpha=0.7", "alpha"),
            ("elo0=x elo1=5", "not a number"),
            ("gamma=1", "unknown key"),
            // Accepted before, and shown with 309 digits.
            (
                "elo0=-1e308 elo1=1e308",
                "sprt: elo0=-1e308 is out of range (-1000 to 1000 Elo)",
            ),
            ("elo0=0 elo1=1000.5", "elo1=1000.5 is out of range"),
            ("elo0=-inf elo1=5", "elo0=-inf is out of range"),
            ("elo0=NaN elo1=5", "'NaN' in 'elo0=NaN' is not a number"),
            ("elo0=1e-300 elo1=0", "elo0 (1e-300) must be below elo1 (0)"),
            (
                "elo0=0 elo1=5 beta=1e300",
                "beta=1e300 must be above 0 and below 0.5",
            ),
            (
                "elo0=0 elo1=5 alpha=0",
                "alpha=0 must be above 0 and below 0.5",
            ),
        ] {
            let e = Sprt::parse(&[bad.to_string()]).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        let edge = Sprt::parse(&["elo0=-1000 elo1=1000 alpha=0.001".to_string()]).unwrap();
        assert_eq!((edge.elo0, edge.elo1), (-1000.0, 1000.0));
    }

    #[test]
    fn parameters_are_shown_short() {
        for (x, shown) in [
            (0.05, "0.05"),
            (-2.5, "-2.5"),
            (1000.0, "1000"),
            (1e-300, "1e-300"),
            (-1e308, "-1e308"),
            (0.000_123_456_789, "0.000123456789"),
            (1.234_567_890_123_4e-7, "0.00000012345678901234"),
            (1.234_567_890_123_4e-12, "1.2345678901234e-12"),
        ] {
            assert_eq!(show_parameter(x), shown);
        }
    }
}
