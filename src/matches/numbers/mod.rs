//! The numbers of a match: the score, its Elo difference with an interval and the SPRT
//! (`stats`), and a tournament's ratings by maximum likelihood (`ratings`).

pub mod ratings;
pub mod stats;
