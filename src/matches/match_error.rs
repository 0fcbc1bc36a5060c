//! What can go wrong in a match and around it, one error type by input boundary, each beside
//! what returns it: time controls (`TimeControlError`), engine specs (`SpecError`), the GBGP
//! dialect's checks (`GbgpError`), an engine at run time (`EngineFault`), the SPRT
//! (`SprtError`), the adjudication flags (`AdjudicationError`), a records line (`LineError`), a
//! records file (`RecordsError`), a replay (`ReplayError`), a match's run (`RunError`) and the
//! making of a balanced opening book (`OpeningsError`). `MatchError` wraps them all, each with
//! its message and its source unchanged, for a caller that takes any of them.

use crate::matches::engines::engine::EngineFault;
use crate::matches::engines::gbgp_engine::GbgpError;
use crate::matches::engines::spec::SpecError;
use crate::matches::engines::time_control::TimeControlError;
use crate::matches::games::adjudicate::AdjudicationError;
use crate::matches::games::balanced_openings::OpeningsError;
use crate::matches::numbers::stats::SprtError;
use crate::matches::run::line_error::LineError;
use crate::matches::run::records_file::RecordsError;
use crate::matches::run::replay::ReplayError;
use crate::matches::run::runner::RunError;

/// Any error of the matches room.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A time control cannot be read.
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// An engine spec cannot be read.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A GBGP engine cannot play the match.
    #[error(transparent)]
    Gbgp(#[from] GbgpError),
    /// An engine failed.
    #[error(transparent)]
    Engine(#[from] EngineFault),
    /// An SPRT cannot be read.
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// `--resign` or `--draw` cannot be read.
    #[error(transparent)]
    Adjudication(#[from] AdjudicationError),
    /// A records line cannot be read, or does not replay.
    #[error(transparent)]
    Line(#[from] LineError),
    /// A records file cannot be opened, resumed or written.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// A replay stopped.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A match stopped.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A balanced opening book cannot be made.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
}
