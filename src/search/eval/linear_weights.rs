//! The linear terms' weights, their shape: the counts the linear terms weigh (`INPUTS`, named by
//! `INPUT_NAMES`) and the weights of each (`LinearWeights`). `moulin train fit` writes the
//! weights of this build into `fitted_weights.rs`; the linear terms (`linear`) read them there.

/// How many counts `inputs` gives for each side.
pub const INPUTS: usize = 12;

/// The names of the inputs, in order.
pub const INPUT_NAMES: [&str; INPUTS] = [
    "in-hand",
    "on-2-points",
    "on-3-points",
    "on-4-points",
    "mobility",
    "blocked",
    "open-mills",
    "double-threats",
    "in-mills",
    "lines-of-one",
    "lines-blocked",
    "own-empties",
];

/// The linear terms' weights: each input of the side to move (`us`) and of the other side
/// (`them`), and a bias for having the move, in centi-pieces; the material (`PIECE` a piece on
/// the board or in hand) is not fitted. Written by `moulin train fit` into `fitted_weights.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearWeights {
    /// The preset the weights were fitted for; they serve its rules, whatever the draw rules
    /// and the side that starts.
    pub variant: &'static str,
    /// The weight of each input of the side to move.
    pub us: [i32; INPUTS],
    /// The weight of each input of the other side.
    pub them: [i32; INPUTS],
    /// The bias for having the move.
    pub tempo: i32,
    /// The late correction's weights (`late_us`, `late_them`, `late_tempo`), on the same inputs:
    /// added to the tapered evaluation with the weight 4 s (1 - s), s the share of the pieces
    /// still in hand, so that it corrects the hand-written evaluation where it has taken over
    /// half the weight and vanishes where the placing starts and ends.
    pub late_us: [i32; INPUTS],
    /// The late correction's weight of each input of the other side.
    pub late_them: [i32; INPUTS],
    /// The late correction's bias for having the move.
    pub late_tempo: i32,
    /// The moving correction's weights, on the same inputs: added to the hand-written
    /// evaluation in the moving phase while neither side flies.
    pub moving_us: [i32; INPUTS],
    /// The moving correction's weight of each input of the other side.
    pub moving_them: [i32; INPUTS],
    /// The moving correction's bias for having the move.
    pub moving_tempo: i32,
    /// The moving correction's fade: how many pieces the side nearer to flying must be able to
    /// lose before it flies for the correction to count in full; with fewer, it counts that
    /// many `moving_fade`ths (`moving_share`). 0: in full until a side flies.
    pub moving_fade: i32,
}

impl LinearWeights {
    /// The weights that make the placing evaluation equal the hand-written one (with
    /// `Weights::DEFAULT`) in the placing phase: where `moulin train fit` starts.
    pub const HAND: LinearWeights = LinearWeights {
        variant: "nine",
        us: [0, 0, 0, 0, 12, -25, 0, 0, 0, 0, 0, 0],
        them: [0, 0, 0, 0, -12, 25, 0, 0, 0, 0, 0, 0],
        tempo: 10,
        late_us: [0; INPUTS],
        late_them: [0; INPUTS],
        late_tempo: 0,
        moving_us: [0; INPUTS],
        moving_them: [0; INPUTS],
        moving_tempo: 0,
        moving_fade: 0,
    };

    /// Whether the late correction weighs anything.
    pub fn has_late(&self) -> bool {
        self.late_tempo != 0
            || self.late_us.iter().any(|&w| w != 0)
            || self.late_them.iter().any(|&w| w != 0)
    }

    /// Whether the moving correction weighs anything.
    pub fn has_moving(&self) -> bool {
        self.moving_tempo != 0
            || self.moving_us.iter().any(|&w| w != 0)
            || self.moving_them.iter().any(|&w| w != 0)
    }
}
