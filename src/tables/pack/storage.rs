//! What a packed set stores: a table whose every value can be found from stored successors is
//! left out (derived when probed), but for those a search probes most (`kept_though_derivable`).
//! Read when a set is packed (`packing`) and when it is opened (`open` checks that what the
//! manifest derives can be).

use crate::rules::Rules;
use crate::tables::groups::Group;
use crate::tables::{Tables, Values};

/// The fewest pieces on the board of a table of one piece apart that is stored though it could
/// be derived (8-9 in the standard game): the moving phase of a game without a removal in the
/// placing begins there and in its mirror, so a search from the late placing probes it more than
/// any other, and a derived position costs a probe of each successor. Storing it (187 MB) made
/// such a search with memory short 1.2 times faster; storing 7-8 as well (176 MB more) gained
/// little and took the set past 2 GB (docs/results.md, 2026-11-29).
const HOT_PIECES: usize = 17;

/// How many pieces fewer the mover of a table must have for it to be stored though it could be
/// derived, in tables of at most `BEHIND_PIECES` pieces: a side far behind (flying, in the
/// standard game, at three pieces) has many moves, and a search from the placing reaches such
/// tables through its lines of captures, each derived position a probe of every successor.
/// They pack small (3-6 to 4-9 and 5-8: 84 MB of the standard game's set; 5-9 and 6-9, 70 MB
/// more, would take it past 2 GB): storing them made a search from the late placing probe the
/// tables 2.5 times less often (every successor of a derived position a probe) and run about
/// 1.1 times faster (docs/results.md, 2026-11-29).
const BEHIND: usize = 3;
/// The most pieces of a table stored because its mover is `BEHIND`.
const BEHIND_PIECES: usize = 13;

/// Whether the moving table `(m, o)` need not be stored: its mover has fewer pieces, so each of
/// its positions' successors lies in a stored table: the mirror `(o, m)` after a step that
/// removes nothing, `(o - 1, m)` after a removal (`(o - 2, m)` after two, where the rules allow
/// them), or the game is over.
pub fn pair_derivable(tables: &Tables, rules: &Rules, m: usize, o: usize) -> bool {
    // A move removes one piece, or one a mill closed (two at most) where the rules say so; the
    // successors after each count of removals must be stored, and so not derived themselves.
    let most = if rules.multi_mill == crate::rules::MultiMill::OnePerMill {
        2
    } else {
        1
    };
    let stored = |a: usize, b: usize| {
        tables.has(a, b) && !matches!(tables.values(a, b), Some(Values::Derived(..)))
    };
    m < o && stored(o, m) && (1..=most).all(|k| o < 3 + k || (o - k >= m && stored(o - k, m)))
}

/// Whether the placing group `g` need not be stored: an even count of placements left, where
/// every move places a piece (so each successor lies in the group after it, stored).
pub fn group_derivable(rules: &Rules, g: Group) -> bool {
    rules.placing_moves == crate::rules::PlacingMoves::PlaceOnly && g.left.is_multiple_of(2)
}

/// Whether the moving table `(m, o)` is stored though it could be derived: the table the moving
/// phase mostly begins in (`HOT_PIECES`) or one whose mover is far behind (`BEHIND`).
pub fn kept_though_derivable(m: usize, o: usize) -> bool {
    (o == m + 1 && m + o >= HOT_PIECES) || (o >= m + BEHIND && m + o <= BEHIND_PIECES)
}
