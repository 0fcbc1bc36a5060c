//! What stops a proof.

/// Why a position's value could not be proven; each message says what to give instead.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The position is not one of the placing, between turns, with the hands a game deals.
    #[error(
        "not a position of the placing as a game reaches it (between turns, the side to move \
         holding as many pieces in hand as the other side or one more): give the moves from \
         the start"
    )]
    NotPlacing,
    /// The rules let pieces move in the placing, or a turn remove more than one piece.
    #[error(
        "the proof searches placing phases where every turn places a piece and removes one at \
         most (the standard game's): these rules differ"
    )]
    Rules,
    /// The tables do not serve the rules.
    #[error("the endgame tables were made for other rules")]
    OtherRules,
    /// A pair of piece counts the placing can end in has no table.
    #[error(
        "no endgame table {mover}-{other} (the side to move's pieces, then the other's): the \
         proof needs every pair from 3-3 to {most}-{most} (moulin tables build)"
    )]
    Missing {
        /// The side to move's pieces.
        mover: usize,
        /// The other side's pieces.
        other: usize,
        /// The pieces a side.
        most: usize,
    },
    /// A table file changed while the proof read it.
    #[error("an endgame table file changed during the proof: prove again")]
    Changed,
}
