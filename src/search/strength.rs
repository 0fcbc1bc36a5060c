//! Playing below full strength, for people: a level from 1 to 20 (20 is the full engine). A
//! weaker level searches fewer nodes (so it misses deep tactics) and picks among the search's
//! best root moves (a dozen at level 1, three at level 19) by their scores plus a Gaussian noise (so it chooses plausible but worse
//! moves now and then, more often and by more the lower the level, and never a move the search
//! did not rank among its best). It never takes more time than the full engine would: the node
//! budget only adds to the time limits of `go`. Levels may be fractional (`UCI_Elo` falls between
//! two levels); the figures run smoothly between the whole ones.

use crate::rng::Rng;

/// The full engine's level.
pub const FULL: f64 = 20.0;

/// A playing strength below the full engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    level: f64,
}

impl Strength {
    /// The strength of `level` (1 to 20); `None` at 20 or above: the full engine.
    pub fn level(level: f64) -> Option<Strength> {
        (level < FULL).then_some(Strength {
            level: level.max(1.0),
        })
    }

    /// The level, from 1 to just below 20.
    pub fn value(self) -> f64 {
        self.level
    }

    /// The root moves searched (as `MultiPV` lines) for the level to choose from: the best 12 at
    /// level 1, one fewer each two levels up, 3 at level 19.
    pub fn candidates(self) -> usize {
        3 + ((FULL - self.level) / 2.0) as usize
    }

    /// The nodes one move may search: 100 at level 1 and 1.35 times more at each level up to
    /// 14 (about 4,900), then twice as many at each level up (about 157,000 at level 19, some
    /// 60 ms of the full engine's search). A search of one more ply costs some 7 times more
    /// nodes, so the levels gain about a quarter of a ply each up to 14 and a third of one
    /// each above.
    pub fn nodes(self) -> u64 {
        let low = self.level.min(14.0) - 1.0;
        let high = (self.level - 14.0).max(0.0);
        (100.0 * 1.35f64.powf(low) * 2f64.powf(high)) as u64
    }

    /// The standard deviation of the noise added to each candidate's score, in centi-pieces:
    /// 300 at level 1, 0.82 times that at each level up (about 50 at level 10, 10 at level 19).
    pub fn noise(self) -> f64 {
        300.0 * 0.82f64.powf(self.level - 1.0)
    }

    /// The index of the candidate to play: the best of `scores` (internal, for the side to move)
    /// once each has its noise.
    pub fn choose(self, scores: &[i32], rng: &mut Rng) -> usize {
        let sigma = self.noise();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &s) in scores.iter().enumerate() {
            let noisy = f64::from(s) + sigma * gaussian(rng);
            if noisy > best.1 {
                best = (i, noisy);
            }
        }
        best.0
    }
}

/// The Elo of each level, 1 to 20 (20: the full engine at 100 ms a move, set at 2000), measured
/// by `book/levels/calibrate.sh` (120 games between each level and the next one up) and
/// chained down from the full engine by `sh book/levels/table.sh 2000` (docs/levels.md).
pub const CALIBRATION: [f64; 20] = [
    166.0, 210.0, 239.0, 306.0, 362.0, 414.0, 518.0, 591.0, 680.0, 747.0, 851.0, 940.0, 1087.0,
    1211.0, 1406.0, 1533.0, 1660.0, 1730.0, 1750.0, 2000.0,
];

/// The lowest `UCI_Elo`: the level 1.
pub const ELO_MIN: u64 = CALIBRATION[0] as u64;
/// The highest `UCI_Elo`: the level 20.
pub const ELO_MAX: u64 = CALIBRATION[19] as u64;

/// The level (fractional between two measured ones) whose Elo is `elo` on `table` (the Elo of
/// levels 1 to 20, rising); the ends beyond the table.
pub fn level_of_elo(elo: f64, table: &[f64; 20]) -> f64 {
    if elo <= table[0] {
        return 1.0;
    }
    for (i, w) in table.windows(2).enumerate() {
        if elo <= w[1] {
            let span = (w[1] - w[0]).max(1e-9);
            return 1.0 + i as f64 + (elo - w[0]) / span;
        }
    }
    FULL
}

/// A standard normal draw (Box-Muller).
fn gaussian(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(f64::MIN_POSITIVE);
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_in_nodes_and_shrink_in_noise() {
        assert!(Strength::level(20.0).is_none());
        let all: Vec<Strength> = (1..20)
            .map(|l| Strength::level(f64::from(l)).unwrap())
            .collect();
        assert_eq!(all[0].nodes(), 100);
        for w in all.windows(2) {
            assert!(w[1].nodes() > w[0].nodes());
            assert!(w[1].noise() < w[0].noise());
        }
        assert!((all[0].noise() - 300.0).abs() < 1e-9);
    }

    #[test]
    #[allow(clippy::float_cmp)] // The levels out of the table's range are exactly its ends.
    fn an_elo_falls_between_the_levels_around_it() {
        let table: [f64; 20] = std::array::from_fn(|i| 500.0 + 100.0 * i as f64);
        assert_eq!(level_of_elo(100.0, &table), 1.0);
        assert_eq!(level_of_elo(500.0, &table), 1.0);
        assert!((level_of_elo(550.0, &table) - 1.5).abs() < 1e-9);
        assert!((level_of_elo(1400.0, &table) - 10.0).abs() < 1e-9);
        assert_eq!(level_of_elo(2400.0, &table), 20.0);
        assert_eq!(level_of_elo(9000.0, &table), 20.0);
        for w in CALIBRATION.windows(2) {
            assert!(w[1] > w[0], "the calibration rises: {CALIBRATION:?}");
        }
    }

    #[test]
    fn the_noise_picks_worse_moves_in_proportion() {
        let mut rng = Rng::new(3);
        // A move 100 cp worse than the best: often at level 1, rarely at level 15, never a
        // move not offered.
        let picks = |level: f64, rng: &mut Rng| {
            let s = Strength::level(level).unwrap();
            (0..2000).filter(|_| s.choose(&[0, -100], rng) == 1).count()
        };
        let low = picks(1.0, &mut rng);
        let high = picks(15.0, &mut rng);
        assert!(low > 400 && low < 1000, "{low}");
        assert!(high < 100, "{high}");
        let s = Strength::level(1.0).unwrap();
        assert!((0..100).all(|_| s.choose(&[5], &mut rng) == 0));
    }
}
