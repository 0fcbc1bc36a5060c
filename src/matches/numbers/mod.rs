//! The numbers of a match: the score, its Elo difference with an interval and the SPRT
//! (`stats`), and a tournament's ratings by maximum likelihood (`ratings`), over the normal and
//! Student's t distributions (`distributions`).

pub mod distributions;
pub mod ratings;
pub mod stats;
