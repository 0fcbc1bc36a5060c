//! How the search plays, as data: a `Style` names a set of `Features`, and the search reads the
//! set, never the style. `Full` is the engine; `Plain` is the baseline that matches measure
//! against (plain alpha-beta: no table, no ordering heuristics, no quiescence, no reductions, a
//! material-only evaluation).

/// A named way of playing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// The engine: every feature.
    Full,
    /// The baseline: plain alpha-beta on material.
    Plain,
}

/// The parts of the search that are switched on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[allow(clippy::struct_excessive_bools)] // Independent switches, each read on its own.
pub struct Features {
    /// Probe the shared transposition table, and store in it.
    pub table: bool,
    /// Order moves (table move, mill closes, blocks, killers, history) and learn killers and
    /// history from cut-offs; otherwise moves are searched in generation order.
    pub ordering: bool,
    /// Search mill closes (and threats) past the horizon; otherwise evaluate there.
    pub quiescence: bool,
    /// Late move reductions for quiet moves.
    pub reductions: bool,
    /// The full evaluation; otherwise material only.
    pub full_evaluation: bool,
}

impl Style {
    /// The one place where a style becomes what the search does.
    pub const fn features(self) -> Features {
        let full = matches!(self, Style::Full);
        Features {
            table: full,
            ordering: full,
            quiescence: full,
            reductions: full,
            full_evaluation: full,
        }
    }
}
