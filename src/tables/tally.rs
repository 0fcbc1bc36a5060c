//! The tally of a table: its wins, losses and draws for the side to move, counted up to
//! symmetry, with the longest distances (`moulin tables stats`).

use super::index::{Classes, PairIndex};
use super::values::{Value, Values};
use rayon::prelude::*;

/// The tally of one table, counted up to symmetry.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Positions drawn.
    pub draws: u64,
    /// The longest distance of a win, in plies.
    pub max_win: u16,
    /// The longest distance of a loss, in plies.
    pub max_loss: u16,
}

/// Counts a table's values over its canonical slots (on the current thread pool).
pub fn tally(classes: &Classes, mover: usize, other: usize, values: &Values) -> Tally {
    let index = PairIndex::new(mover, other, classes);
    (0..values.len())
        .into_par_iter()
        .filter(|&slot| index.is_canonical(slot as u64))
        .fold(Tally::default, |mut t, slot| {
            match values.get(slot) {
                Value::Win(d) => {
                    t.wins += 1;
                    t.max_win = t.max_win.max(d);
                }
                Value::Loss(d) => {
                    t.losses += 1;
                    t.max_loss = t.max_loss.max(d);
                }
                Value::Draw => t.draws += 1,
            }
            t
        })
        .reduce(Tally::default, |x, y| Tally {
            wins: x.wins + y.wins,
            losses: x.losses + y.losses,
            draws: x.draws + y.draws,
            max_win: x.max_win.max(y.max_win),
            max_loss: x.max_loss.max(y.max_loss),
        })
}
