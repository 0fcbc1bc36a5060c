//! An engine as a match knows it: how `--engine` names it (`spec`, its errors in
//! `spec_error`), how long it may think (`time_control`), the process that runs it and never
//! trusts it (`engine_process`, what it writes read by `engine_output`, its process group
//! ended by a signal that ends the runner in `live_engines`), and what is said to an engine of
//! the GBGP dialect (`gbgp_engine`).

pub mod engine_output;
pub mod engine_process;
pub mod gbgp_engine;
pub mod live_engines;
pub mod spec;
mod spec_error;
pub mod time_control;
