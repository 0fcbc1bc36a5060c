//! The learned weights of the placing phase (see `eval::Learned`). Written by `moulin train fit`;
//! these are its starting point, which equals the hand-written evaluation.

use super::eval::Learned;

pub const LEARNED: Learned = Learned::HAND;
