//! Does the search keep the value of covered endgames? Each position is searched for a fixed
//! time and the move played is judged by the tables: kept when its result has the position's
//! value (a win stays a win, a draw a draw, a loss a loss), optimal when it also has the best
//! distance. `moulin tables keep` runs it and words the counts.

use super::{Control, Limits, Searcher};
use crate::job_progress::Progress;
use crate::rules::game::Game;
use crate::tables::{perfect_play, Tables, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// What happened to the positions of one pair of piece counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeepCounts {
    /// Positions searched.
    pub positions: u32,
    /// Moves whose result kept the position's kind of value.
    pub kept: u32,
    /// Moves whose result kept the exact value, distance too.
    pub optimal: u32,
    /// Positions won or lost.
    pub decisive: u32,
    /// Of those, the moves that kept the win or the loss.
    pub decisive_kept: u32,
}

impl KeepCounts {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &KeepCounts) {
        self.positions += other.positions;
        self.kept += other.kept;
        self.optimal += other.optimal;
        self.decisive += other.decisive;
        self.decisive_kept += other.decisive_kept;
    }
}

/// A position the measure cannot judge: the `index`-th of those given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeepError {
    /// The tables have no value for it.
    NotCovered {
        /// Its index among those given.
        index: usize,
    },
    /// The search found no move in it.
    NoMove {
        /// Its index among those given.
        index: usize,
    },
    /// The move played leads out of the tables.
    OutOfTables {
        /// Its index among those given.
        index: usize,
    },
}

impl KeepError {
    /// The index of the position, among those given.
    pub fn index(&self) -> usize {
        match *self {
            KeepError::NotCovered { index }
            | KeepError::NoMove { index }
            | KeepError::OutOfTables { index } => index,
        }
    }
}

impl fmt::Display for KeepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeepError::NotCovered { .. } => write!(f, "not covered by the tables"),
            KeepError::NoMove { .. } => write!(f, "a covered position with no move"),
            KeepError::OutOfTables { .. } => write!(f, "its move leads out of the tables"),
        }
    }
}

impl std::error::Error for KeepError {}

/// Whether two values are both wins, both draws or both losses.
fn same_kind(a: Value, b: Value) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

/// Searches each of `games` for `movetime` ms (probing `tables` unless `without_tables`) and
/// judges the move played by `tables`; the counts by pair (pieces of the side to move, of the
/// other). One stage of `progress`, counted in positions.
pub fn measure(
    tables: &Arc<Tables>,
    games: &[Game],
    movetime: u64,
    without_tables: bool,
    progress: &dyn Progress,
) -> Result<BTreeMap<(u32, u32), KeepCounts>, KeepError> {
    let mut searcher = Searcher::new(16, 1);
    if !without_tables {
        searcher.options.tables = Some(Arc::clone(tables));
    }
    progress.stage(games.len() as u64, 0, "", "positions");
    let mut by_pair: BTreeMap<(u32, u32), KeepCounts> = BTreeMap::new();
    for (index, game) in games.iter().enumerate() {
        let pos = *game.position();
        let us = pos.side_to_move();
        let value = tables.probe(&pos).ok_or(KeepError::NotCovered { index })?;
        searcher.new_game();
        let limits = Limits {
            movetime: Some(movetime),
            ..Limits::default()
        };
        let result = searcher.search(game, &limits, &Control::new(), &mut |_| {});
        let best = result.best.ok_or(KeepError::NoMove { index })?;
        let played = perfect_play::value_of_move(tables, &pos, best)
            .ok_or(KeepError::OutOfTables { index })?;
        let k = by_pair
            .entry((pos.on_board(us), pos.on_board(!us)))
            .or_default();
        k.positions += 1;
        k.kept += u32::from(same_kind(played, value));
        k.optimal += u32::from(played == value);
        if value != Value::Draw {
            k.decisive += 1;
            k.decisive_kept += u32::from(same_kind(played, value));
        }
        progress.advance(1);
    }
    progress.finish();
    Ok(by_pair)
}
