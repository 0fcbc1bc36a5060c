//! What the engine plays from besides its search, read as the settings name it: the endgame
//! tables with the opening's solution as their placing part (`loaded_tables`), and the network
//! evaluation. The engine reads them for a conversation (the tables on a thread of its own); a
//! front end that analyses rather than converses reads them at once, here.

use super::inventory::{Absent, BookKnown, Evaluation, Inventory};
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
    /// What each part is, said in one line each (the book: none read here).
    pub inventory: Inventory,
}

impl Knowledge {
    /// Reads at once, on the caller's thread, what `settings` name (their rules' defaults where
    /// they name nothing: the installed tables, the built-in opening's solution and network);
    /// what is not there or cannot be used is noted to `listener` and left out.
    pub fn read(settings: &Settings, listener: &dyn Listener) -> Knowledge {
        let (tables, (tables_known, opening)) = loaded_tables::read_now(settings, listener);
        let (network, evaluation) = read_network(settings, listener);
        Knowledge {
            tables: tables.map(Arc::new),
            network,
            inventory: Inventory {
                limited: None,
                evaluation,
                opening,
                book: BookKnown::Absent(Absent::TurnedOff),
                tables: tables_known,
            },
        }
    }
}

/// Reads the network `EvalFile` names (`built-in` or empty: the variant's, built in; `none`:
/// none), and says what the evaluation is. A file that cannot be used is noted, and the search
/// evaluates without it.
pub(super) fn read_network(
    settings: &Settings,
    listener: &dyn Listener,
) -> (Option<Arc<Network>>, Evaluation) {
    let Some(source) = network::chosen(settings.eval_file.as_ref(), &settings.rules) else {
        let why = if crate::shipped::is_none(settings.eval_file.as_ref()) {
            Absent::TurnedOff
        } else {
            Absent::NoneForTheseRules
        };
        return (None, Evaluation::HandWritten(why));
    };
    match Network::load(&source, &settings.rules) {
        Ok((net, loaded)) => {
            log::info!("{loaded}");
            (Some(Arc::new(net)), Evaluation::Network(loaded))
        }
        Err(e) => {
            listener.note(Note::Unusable {
                part: Part::Network,
                error: LoadError::Failed(e.into()),
            });
            (None, Evaluation::HandWritten(Absent::Unusable))
        }
    }
}
