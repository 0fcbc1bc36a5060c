//! The words of the GBGP dialect (the protocol of the Nine Morris 3D GUI) that both of its
//! speakers use: the engine that answers in it (`protocol::gbgp`) and the match runner that
//! talks to engines in it (`matches::engines::gbgp_engine`). They live here, beside the
//! dialect's position string (`gbgp_position`), below both, so that the two cannot drift apart.

/// The first line, which starts the dialect (UCI's `uci`).
pub const HELLO: &str = "gbgp";

/// The line that ends the engine's answer to `HELLO` (UCI's `uciok`).
pub const HELLO_DONE: &str = "gbgpok";

/// The option that tells an engine the game is twelve men's morris (`true`) or nine (`false`).
pub const TWELVE: &str = "TwelveMensMorris";
