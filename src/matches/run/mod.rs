//! A match or a tournament played, and its records: who plays which game (`lineup`), one line
//! per game (`game_line`, what is wrong with one in `line_error`), the file of those lines
//! (`records_file`), what the games add up to (`standings`), the runner that plays them
//! (`runner`), their replay (`replay`) and the summary (`summary`).

pub mod game_line;
pub mod line_error;
pub mod lineup;
pub mod records_file;
pub mod replay;
pub mod runner;
pub mod standings;
pub mod summary;
