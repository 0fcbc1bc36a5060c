//! What the engine plays from besides its search, read as the settings name it: the endgame
//! tables with the opening's solution as their placing part (`loaded_tables`), and the network
//! evaluation. The engine reads them for a conversation (the tables on a thread of its own); a
//! front end that analyses rather than converses reads them at once, here.

use super::loaded_tables;
use super::options::Settings;
use super::report::{Listener, LoadError, Note, Part};
use crate::search::eval::network::{self, Network};
use crate::tables::Tables;
use std::sync::Arc;

/// The tables and the network the settings name, read.
pub struct Knowledge {
    /// The endgame tables with the opening's solution as their placing part, or the opening's
    /// solution alone; none when the settings name neither or none can be used.
    pub tables: Option<Arc<Tables>>,
    /// The network evaluation; none for the hand-written evaluation.
    pub network: Option<Arc<Network>>,
}

impl Knowledge {
    /// Reads at once, on the caller's thread, what `settings` name (their rules' defaults where
    /// they name nothing: the installed tables, the shipped opening's solution and network);
    /// what is not there or cannot be used is noted to `listener` and left out.
    pub fn read(settings: &Settings, listener: &dyn Listener) -> Knowledge {
        Knowledge {
            tables: loaded_tables::read_now(settings, listener).map(Arc::new),
            network: read_network(settings, listener),
        }
    }
}

/// Reads the network `EvalFile` names (empty: the default of the variant, found as shipped
/// data is; `none`: none). A file that cannot be used is noted, and the search evaluates
/// without it.
pub(super) fn read_network(settings: &Settings, listener: &dyn Listener) -> Option<Arc<Network>> {
    let path = network::chosen_path(settings.eval_file.as_ref(), &settings.rules)?;
    match Network::read(&path, &settings.rules) {
        Ok(net) => Some(Arc::new(net)),
        Err(e) => {
            listener.note(Note::Unusable {
                part: Part::Network,
                error: LoadError::Failed(e.into()),
            });
            None
        }
    }
}
