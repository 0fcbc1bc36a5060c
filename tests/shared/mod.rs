//! Helpers that more than one part of the suite uses: `bounded` runs moulin on a hostile input
//! under a memory and time limit, `terminal` opens a pseudo-terminal.

pub(crate) mod bounded;
pub(crate) mod terminal;
