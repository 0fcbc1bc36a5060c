//! The ratings of a tournament's engines by maximum likelihood over all its games, as Ordo does:
//! a logistic Elo model, draws counted as half a win and half a loss, one engine anchored.
//!
//! Model: engine i scores against engine j with the expectation `p = 1 / (1 + 10^((rj - ri) /
//! 400))`; the log-likelihood of the games is `Σ S_ij ln p_ij + (N_ij - S_ij) ln(1 - p_ij)` over
//! the ordered pairs, `N_ij` the games of i and j and `S_ij` the points i took from them (a draw
//! is half a point, so a draw ratio does not enter: the Bradley-Terry model with ties split, as
//! Ordo's default). It is maximised by Newton's method with step halving (the log-likelihood is
//! concave, and strictly so once the anchor is fixed and the games link every engine both ways),
//! and the 95% error of each rating is `1.96 σ`, σ² the diagonal of the inverse Fisher
//! information (the negative Hessian) with the anchor fixed: the error of a rating is that of its
//! difference to the anchor, whose own error is none.
//!
//! A finite maximum exists only for the engines that are linked to the anchor both ways by the
//! games (i scored against j, who scored against ..., who scored against i): an engine that won
//! every game against the others has no finite rating (the likelihood grows without bound as it
//! moves up); such engines are reported as above or below the rated ones, never as a number.

use super::distributions::Z95;

/// The largest rating an anchor may be given, either way (`--anchor-elo`): the ratings are the
/// anchor's plus differences of a few hundred Elo, which far beyond it are lost in the anchor's
/// rounding (at 1e20, an engine 191 Elo weaker got the anchor's very rating), and printed with
/// hundreds of digits.
pub const MAX_ANCHOR_ELO: f64 = 10_000.0;

/// Elo points per natural-log unit of the logistic model.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The games and points between the engines of a tournament, by pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scores {
    /// `games[i][j]`: the games of engine i against engine j.
    games: Vec<Vec<f64>>,
    /// `points[i][j]`: the points engine i took from them.
    points: Vec<Vec<f64>>,
}

/// One engine's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rating {
    /// A finite rating and its 95% error (none for the anchor, whose rating is fixed).
    Finite {
        /// The rating in Elo.
        elo: f64,
        /// Half the width of its 95% interval, in Elo.
        error: Option<f64>,
    },
    /// No finite rating: it scored every point against the rated engines, directly or through
    /// engines that did (the likelihood grows without bound as it moves up).
    Above,
    /// No finite rating: it lost every point to the rated engines, directly or through engines
    /// that did.
    Below,
    /// No rating: its games do not link it to the anchor.
    Unlinked,
}

impl Scores {
    /// No games between `n` engines.
    #[must_use]
    pub fn new(n: usize) -> Scores {
        Scores {
            games: vec![vec![0.0; n]; n],
            points: vec![vec![0.0; n]; n],
        }
    }

    /// Adds a game between engines `i` and `j` in which `i` took `points` (1, ½ or 0).
    pub fn add(&mut self, i: usize, j: usize, points: f64) {
        self.add_games(i, j, 1.0, points);
    }

    /// Adds `games` games between engines `i` and `j` in which `i` took `points` in all.
    pub fn add_games(&mut self, i: usize, j: usize, games: f64, points: f64) {
        self.games[i][j] += games;
        self.games[j][i] += games;
        self.points[i][j] += points;
        self.points[j][i] += games - points;
    }

    /// The engines.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are no engines.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games of `i` against `j`, and the points `i` took from them.
    #[must_use]
    pub fn between(&self, i: usize, j: usize) -> (f64, f64) {
        (self.games[i][j], self.points[i][j])
    }

    /// The ratings of every engine, `anchor` at `anchor_elo` (an anchor out of range is read as
    /// the first engine).
    #[must_use]
    pub fn ratings(&self, anchor: usize, anchor_elo: f64) -> Vec<Rating> {
        let n = self.len();
        let anchor = if anchor < n { anchor } else { 0 };
        let reach = self.reach();
        let linked: Vec<usize> = (0..n)
            .filter(|&i| i == anchor || reach[anchor][i] && reach[i][anchor])
            .collect();
        let fitted = self.fit(&linked, anchor);
        (0..n)
            .map(|i| match linked.iter().position(|&k| k == i) {
                Some(k) => Rating::Finite {
                    elo: anchor_elo + fitted[k].0 * ELO_PER_NAT,
                    error: fitted[k].1.map(|sd| Z95 * sd * ELO_PER_NAT),
                },
                None if reach[i][anchor] && !reach[anchor][i] => Rating::Above,
                None if reach[anchor][i] && !reach[i][anchor] => Rating::Below,
                None => Rating::Unlinked,
            })
            .collect()
    }

    /// `reach[i][j]`: whether i scored against j, or against an engine that reaches j.
    fn reach(&self) -> Vec<Vec<bool>> {
        let n = self.len();
        let mut reach: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..n).map(|j| self.points[i][j] > 0.0).collect())
            .collect();
        // Warshall's transitive closure.
        for k in 0..n {
            let via = reach[k].clone();
            for row in &mut reach {
                if row[k] {
                    for (to, &by) in row.iter_mut().zip(&via) {
                        *to = *to || by;
                    }
                }
            }
        }
        reach
    }

    /// The log-likelihood of the games among `engines` at strengths `x` (natural-log units).
    fn log_likelihood(&self, engines: &[usize], x: &[f64]) -> f64 {
        let mut sum = 0.0;
        for (a, &i) in engines.iter().enumerate() {
            for (b, &j) in engines.iter().enumerate() {
                if self.points[i][j] > 0.0 {
                    // ln p, p = 1 / (1 + e^(xj - xi)), computed without overflow.
                    sum -= self.points[i][j] * ln_1p_exp(x[b] - x[a]);
                }
            }
        }
        sum
    }

    /// The gradient of the log-likelihood and the Fisher information (its negative Hessian) at
    /// `x`, without the row and column of the anchor (index `fixed` in `engines`).
    fn derivatives(&self, engines: &[usize], x: &[f64], fixed: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
        let free: Vec<usize> = (0..engines.len()).filter(|&a| a != fixed).collect();
        let mut gradient = vec![0.0; free.len()];
        let mut info = vec![vec![0.0; free.len()]; free.len()];
        for (r, &a) in free.iter().enumerate() {
            for (b, &j) in engines.iter().enumerate() {
                let i = engines[a];
                if b == a || self.games[i][j] == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (x[b] - x[a]).exp());
                let w = self.games[i][j] * p * (1.0 - p);
                gradient[r] += self.points[i][j] - self.games[i][j] * p;
                info[r][r] += w;
                if let Some(c) = free.iter().position(|&f| f == b) {
                    info[r][c] -= w;
                }
            }
        }
        (gradient, info)
    }

    /// The maximum-likelihood strengths (natural-log units, the anchor at 0) of `engines`, all
    /// linked both ways, each with its standard error (none for the anchor).
    fn fit(&self, engines: &[usize], anchor: usize) -> Vec<(f64, Option<f64>)> {
        let fixed = engines.iter().position(|&i| i == anchor).unwrap_or(0);
        let mut x = vec![0.0; engines.len()];
        let free: Vec<usize> = (0..engines.len()).filter(|&a| a != fixed).collect();
        for _ in 0..200 {
            let (gradient, info) = self.derivatives(engines, &x, fixed);
            let Some(step) = solve(info, gradient) else {
                break;
            };
            let before = self.log_likelihood(engines, &x);
            let mut scale = 1.0;
            let mut next = x.clone();
            // Step halving: Newton's step, shortened until the likelihood does not fall.
            for _ in 0..60 {
                for (r, &a) in free.iter().enumerate() {
                    next[a] = x[a] + scale * step[r];
                }
                if self.log_likelihood(engines, &next) >= before {
                    break;
                }
                scale /= 2.0;
            }
            let moved = free
                .iter()
                .map(|&a| (next[a] - x[a]).abs())
                .fold(0.0, f64::max);
            x = next;
            if moved < 1e-12 {
                break;
            }
        }
        let (_, info) = self.derivatives(engines, &x, fixed);
        let variances = inverse_diagonal(&info);
        let mut out: Vec<(f64, Option<f64>)> = x.iter().map(|&v| (v, None)).collect();
        for (r, &a) in free.iter().enumerate() {
            out[a].1 = variances
                .as_ref()
                .and_then(|v| v.get(r))
                .filter(|v| v.is_finite() && **v >= 0.0)
                .map(|v| v.sqrt());
        }
        out
    }
}

/// `ln(1 + e^t)` without overflow.
fn ln_1p_exp(t: f64) -> f64 {
    if t > 0.0 {
        t + (-t).exp().ln_1p()
    } else {
        t.exp().ln_1p()
    }
}

/// The solution of `a x = b` by Gaussian elimination with partial pivoting; `None` when `a` is
/// singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The diagonal of the inverse of `a`, column by column; `None` when `a` is singular.
fn inverse_diagonal(a: &[Vec<f64>]) -> Option<Vec<f64>> {
    let n = a.len();
    (0..n)
        .map(|k| {
            let unit = (0..n).map(|r| f64::from(u8::from(r == k))).collect();
            solve(a.to_vec(), unit).map(|col| col[k])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(n: usize, results: &[(usize, usize, f64, u32)]) -> Scores {
        let mut s = Scores::new(n);
        for &(i, j, points, times) in results {
            for _ in 0..times {
                s.add(i, j, points);
            }
        }
        s
    }

    fn finite(r: Rating) -> (f64, Option<f64>) {
        match r {
            Rating::Finite { elo, error } => (elo, error),
            other => panic!("not finite: {other:?}"),
        }
    }

    #[test]
    fn two_engines_at_75_percent_are_191_elo_apart() {
        // 40 wins, 10 draws, 10 losses: 45 points of 60.
        let s = scores(2, &[(0, 1, 1.0, 40), (0, 1, 0.5, 10), (0, 1, 0.0, 10)]);
        let r = s.ratings(1, 0.0);
        let (a, error) = finite(r[0]);
        assert!((a - 400.0 * 3f64.log10()).abs() < 1e-6, "{a}");
        assert!((a - 190.848_501_887_865).abs() < 1e-6, "{a}");
        // The Fisher information of 60 games at p = 3/4: 60 * 3/16; σ = 1/√11.25 nats.
        let sd = (1.0 / (60.0 * 0.75 * 0.25f64)).sqrt();
        assert!((error.unwrap() - Z95 * sd * ELO_PER_NAT).abs() < 1e-6);
        assert_eq!(finite(r[1]), (0.0, None));
    }

    #[test]
    fn symmetric_results_give_equal_ratings_and_the_anchor_holds() {
        // A round-robin in which every pair scores 50%: all equal, at the anchor's rating.
        let s = scores(
            3,
            &[
                (0, 1, 1.0, 3),
                (0, 1, 0.0, 3),
                (0, 2, 0.5, 6),
                (1, 2, 1.0, 2),
                (1, 2, 0.0, 2),
                (1, 2, 0.5, 2),
            ],
        );
        for (anchor, at) in [(0, 0.0), (2, 1500.0)] {
            let r = s.ratings(anchor, at);
            for (i, rating) in r.iter().enumerate() {
                let (elo, error) = finite(*rating);
                assert!((elo - at).abs() < 1e-6, "{i}: {elo}");
                assert_eq!(error.is_none(), i == anchor);
            }
        }
    }

    /// The log-likelihood at Elo ratings `elo` (the games of all engines).
    fn likelihood_at(s: &Scores, elo: &[f64]) -> f64 {
        let all: Vec<usize> = (0..s.len()).collect();
        let x: Vec<f64> = elo.iter().map(|e| e / ELO_PER_NAT).collect();
        s.log_likelihood(&all, &x)
    }

    #[test]
    fn agrees_with_a_brute_force_maximisation() {
        let s = scores(
            3,
            &[
                (0, 1, 1.0, 5),
                (0, 1, 0.5, 3),
                (0, 1, 0.0, 2),
                (0, 2, 1.0, 2),
                (0, 2, 0.0, 6),
                (1, 2, 0.5, 4),
                (1, 2, 0.0, 1),
                (1, 2, 1.0, 1),
            ],
        );
        let r: Vec<f64> = s.ratings(0, 0.0).into_iter().map(|r| finite(r).0).collect();
        // A grid of 1-Elo steps, then one of 0.01 Elo around its best point.
        let mut best = (f64::NEG_INFINITY, 0.0, 0.0);
        for (step, (c1, c2), half) in [(1.0, (0.0, 0.0), 600), (0.01, (0.0, 0.0), 100)] {
            let centre = if step < 1.0 {
                (best.1, best.2)
            } else {
                (c1, c2)
            };
            for a in -half..=half {
                for b in -half..=half {
                    let e1 = centre.0 + f64::from(a) * step;
                    let e2 = centre.1 + f64::from(b) * step;
                    let l = likelihood_at(&s, &[0.0, e1, e2]);
                    if l > best.0 {
                        best = (l, e1, e2);
                    }
                }
            }
        }
        assert!((r[1] - best.1).abs() < 0.02, "{r:?} {best:?}");
        assert!((r[2] - best.2).abs() < 0.02, "{r:?} {best:?}");
        assert!(likelihood_at(&s, &r) >= best.0 - 1e-9);
    }

    /// A weaker engine got the anchor's very rating at `--anchor-elo 1e20`: its 191 Elo were
    /// lost in the anchor's rounding. At the bound, every difference is kept.
    #[test]
    fn differences_survive_the_anchors_rating_within_its_bound() {
        let s = scores(2, &[(0, 1, 1.0, 10), (0, 1, 0.0, 30)]);
        let weaker = |at: f64| finite(s.ratings(1, at)[0]).0;
        assert!((weaker(1e20) - 1e20).abs() < 1.0);
        for at in [-MAX_ANCHOR_ELO, 0.0, 1500.0, MAX_ANCHOR_ELO] {
            assert!(
                (weaker(at) - (at - 190.848_501_887_865)).abs() < 1e-6,
                "{at}"
            );
        }
    }

    #[test]
    fn a_perfect_score_has_no_finite_rating() {
        // Engine 2 wins every game; 0 and 1 share theirs.
        let s = scores(
            3,
            &[
                (0, 1, 1.0, 2),
                (0, 1, 0.0, 2),
                (2, 0, 1.0, 4),
                (2, 1, 1.0, 4),
            ],
        );
        let r = s.ratings(0, 0.0);
        assert!(finite(r[0]).0.abs() < 1e-9 && finite(r[1]).0.abs() < 1e-9);
        assert_eq!(r[2], Rating::Above);
        // Anchored on the winner, the others have no finite rating either.
        let r = s.ratings(2, 0.0);
        assert_eq!(r[0], Rating::Below);
        assert_eq!(r[1], Rating::Below);
        assert_eq!(finite(r[2]), (0.0, None));
        // An engine that played no game is not linked.
        let s = scores(3, &[(0, 1, 0.5, 2)]);
        assert_eq!(s.ratings(0, 0.0)[2], Rating::Unlinked);
    }
}
