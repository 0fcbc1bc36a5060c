//! The games of a match: one game between two engines under a real clock, every move checked
//! by the rules (`referee`), ended early by the tables or the engines' scores (`adjudicate`),
//! and the balanced openings they may start from (`balanced_openings`).

pub mod adjudicate;
pub mod balanced_openings;
pub mod referee;
