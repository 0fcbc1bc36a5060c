//! The jobs the engine runs on threads of their own: a search (`go`), perft and the bench. Each
//! reports to the front end's `Listener` as it goes and hands its end back (`Done`); `stop`
//! reaches it through the shared `Control`.

use super::report::{panic_message, BookAnswer, Done, EngineError, Listener, Note};
use crate::rules::board::ByColor;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::notation::{self, Convention};
use crate::rules::perft;
use crate::rules::position::Position;
use crate::search::{bench, Control, Info, Limits, SearchResult, Searcher};
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// The arguments of `go`. as the protocol reads it (its numbers
/// already clamped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N`: plies to search.
    pub depth: Option<u32>,
    /// `nodes N`: positions to search.
    pub nodes: Option<u64>,
    /// `movetime MS`: time for this move.
    pub movetime: Option<u64>,
    /// `wtime MS`: White's time left.
    pub wtime: Option<u64>,
    /// `btime MS`: Black's time left.
    pub btime: Option<u64>,
    /// `winc MS`: White's increment.
    pub winc: Option<u64>,
    /// `binc MS`: Black's increment.
    pub binc: Option<u64>,
    /// `movestogo N`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Move tokens, checked later against the position.
    pub searchmoves: Vec<String>,
    /// `perft N`: count instead of search.
    pub perft: Option<u32>,
}

/// What ends a search, `stop` aside.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ends {
    /// Its limits: `go` gave a depth, nodes, a time or a clock.
    AtLimits,
    /// Only its deepest ply: `go` gave no limit (it answers when done, which may be never).
    Unlimited,
    /// Nothing: `go infinite` holds its result until `stop`.
    Infinite,
}

impl Ends {
    /// What ends the search `go` asks for.
    pub(super) fn of(go: &Go) -> Ends {
        let limits = [
            go.depth.map(u64::from),
            go.nodes,
            go.movetime,
            go.wtime,
            go.btime,
        ];
        if go.infinite {
            Ends::Infinite
        } else if limits.iter().any(Option::is_some) {
            Ends::AtLimits
        } else {
            Ends::Unlimited
        }
    }
}

/// A search in progress, or finished and waiting to be released.
pub(super) struct SearchJob {
    /// `go` gave the side to move's clock: the answer's time teaches the overhead.
    pub(super) clocked: bool,
    pub(super) ends: Ends,
    /// Pondering, and no `ponderhit` yet.
    pub(super) pondering: bool,
    /// `stop` came.
    pub(super) stopped: bool,
    /// The result, held back while the search is infinite or pondering (UCI).
    pub(super) held: Option<SearchResult>,
    pub(super) notation: Convention,
    /// The root, to tell whether the best move ends our turn (then a ponder move is shown).
    pub(super) root: Position,
    /// A legal move to answer with if the search thread dies.
    pub(super) fallback: Option<Move>,
}

impl SearchJob {
    pub(super) fn may_answer(&self) -> bool {
        self.stopped || (self.ends != Ends::Infinite && !self.pondering)
    }
}

/// A search's answer, for the front end to say: the root and notation it answers in, and the
/// result.
pub struct SearchAnswer {
    /// The position searched.
    pub root: Position,
    /// The notation in force when the search began.
    pub notation: Convention,
    /// The result.
    pub result: SearchResult,
}

/// The job running: a search, perft or the bench.
pub(super) enum Job {
    Search(Box<SearchJob>),
    Perft { depth: u32, stopped: bool },
    Bench { stopped: bool },
}

impl Job {
    pub(super) fn stopped(&self) -> bool {
        match self {
            Job::Search(j) => j.stopped,
            Job::Perft { stopped, .. } | Job::Bench { stopped } => *stopped,
        }
    }

    /// Whether the job ends and answers without `stop`: a search with limits that is neither
    /// infinite nor pondering, perft, or the bench.
    pub(super) fn ends_alone(&self) -> bool {
        match self {
            Job::Search(j) => j.ends == Ends::AtLimits && !j.pondering,
            Job::Perft { .. } | Job::Bench { .. } => true,
        }
    }

    /// Whether the job ends with no more `stop`: it ends alone, or it was told to stop.
    pub(super) fn ends_without_stop(&self) -> bool {
        self.stopped() || self.ends_alone()
    }
}

/// The limits of a `go` in `root`.
pub(super) fn limits(go: &Go, root: &Position) -> Result<Limits, EngineError> {
    Ok(Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime,
        time: ByColor::new(go.wtime, go.btime),
        inc: ByColor::new(go.winc.unwrap_or(0), go.binc.unwrap_or(0)),
        movestogo: go.movestogo,
        infinite: go.infinite,
        ponder: go.ponder,
        searchmoves: search_moves(root, &go.searchmoves)?,
        reserve: 0,
        reserve_peak: 0,
    })
}

/// What a job thread needs of the engine to report back.
pub(super) struct Reporting {
    pub(super) control: Arc<Control>,
    pub(super) listener: Arc<dyn Listener>,
}

impl Reporting {
    /// Runs `job` on a thread named `name`.
    fn spawn(
        self,
        name: &str,
        job: impl FnOnce(Reporting) + Send + 'static,
    ) -> Result<(), EngineError> {
        thread::Builder::new()
            .name(name.into())
            .spawn(move || job(self))
            .map(|_| ())
            .map_err(EngineError::Thread)
    }
}

/// Searches on a thread of its own, telling the listener its progress; the searcher comes back
/// with the result in `Done::Search`. A book answer is checked first: it is the result (said
/// in `Note::BookMove`) unless the exact solver proves its move gives value away.
pub(super) fn spawn_search(
    mut searcher: Searcher,
    game: Game,
    limits: Limits,
    book: Option<BookAnswer>,
    notation: Convention,
    to: Reporting,
) -> Result<(), EngineError> {
    to.spawn("moulin-go", move |to| {
        let Reporting { control, listener } = &to;
        let root = *game.position();
        let mut report = |info: &Info| listener.info(&root, notation, info);
        let done = panic::catch_unwind(AssertUnwindSafe(|| {
            if let Some(answer) = book {
                let mv = answer.result.best.unwrap_or(Move::NULL);
                if searcher.move_keeps_value(&game, mv, &limits, control) == Some(false) {
                    log::info!(
                        "book {} gives value away (exact): searching",
                        mv.turn_notation()
                    );
                    listener.note(Note::BookRefused { mv });
                } else {
                    let result = answer.result.clone();
                    listener.note(Note::BookMove {
                        root,
                        notation,
                        answer: Box::new(answer),
                    });
                    return (searcher, result);
                }
            }
            let result = searcher.search(&game, &limits, control, &mut report);
            (searcher, result)
        }));
        listener.done(match done {
            Ok((searcher, result)) => Done::Search(Box::new(searcher), result),
            Err(p) => Done::SearchPanicked(panic_message(&*p)),
        });
    })
}

/// Counts perft on a thread of its own, telling the listener each root move's leaves; the
/// total comes back in `Done::Perft`.
pub(super) fn spawn_perft(
    pos: Position,
    depth: u32,
    conv: Convention,
    to: Reporting,
) -> Result<(), EngineError> {
    to.spawn("moulin-perft", move |to| {
        let started = Instant::now();
        let stopped = || to.control.is_stopped();
        let mut each = |mv: Move, leaves| {
            let mv = mv.written_at(&pos, conv);
            to.listener.note(Note::PerftMove { mv, leaves });
        };
        let done = perft::divide(&pos, depth, conv, &stopped, &mut each)
            .map(|total| (total, started.elapsed()));
        to.listener.done(Done::Perft(done));
    })
}

/// Runs the bench of `moulin bench` (`crate::search::bench`: one thread, 16 MB, at `depth` if
/// given) on a thread of its own, telling the listener each position's line; the total comes
/// back in `Done::Bench` (`None` when stopped before the last position).
pub(super) fn spawn_bench(depth: Option<u32>, to: Reporting) -> Result<(), EngineError> {
    to.spawn("moulin-bench", move |to| {
        let each = |line: &bench::BenchLine| {
            to.listener.note(Note::BenchLine(line.clone()));
            ControlFlow::Continue(())
        };
        let lines = bench::run(depth, 1, bench::default_network(), &to.control, each);
        let done = (lines.len() == bench::POSITIONS.len()).then(|| bench::BenchTotal::of(&lines));
        to.listener.done(Done::Bench(done));
    })
}

/// The root moves `searchmoves` names. A step given alone stands for every turn made of it; a
/// step followed by its removals as tokens of their own (`d6 xb4`) is one turn.
pub(super) fn search_moves(root: &Position, tokens: &[String]) -> Result<Vec<Move>, EngineError> {
    let legal = movegen::legal_moves(root, Convention::Turn);
    let mut chosen = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let mut token = tokens[i].clone();
        i += 1;
        let is_removal = |t: &str| t.starts_with(['x', 'X']);
        if !is_removal(&token) {
            while i < tokens.len() && is_removal(&tokens[i]) {
                token.push_str(&tokens[i]);
                i += 1;
            }
        }
        let mv = notation::parse_move(root, &token).map_err(EngineError::SearchMove)?;
        let before = chosen.len();
        for &t in &legal {
            let matches = t == mv || (mv.removal_count() == 0 && t.without_removals() == mv);
            if matches && !chosen.contains(&t) {
                chosen.push(t);
            }
        }
        if chosen.len() == before && !legal.contains(&mv) {
            return Err(EngineError::NotInSearch(token));
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::Rules;
    #[test]
    fn searchmoves_accept_both_forms() {
        let mut game = Game::new(Rules::nine());
        game.play_tokens(["d7", "a1", "g7", "d1"]).unwrap();
        let pos = *game.position();
        let all_a7 = search_moves(&pos, &["a7".into()]).unwrap();
        assert_eq!(all_a7.len(), 2);
        let one = search_moves(&pos, &["a7".into(), "xd1".into()]).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].turn_notation(), "a7xd1");
        assert!(search_moves(&pos, &["d7".into()]).is_err());
        assert!(search_moves(&pos, &["zz".into()]).is_err());
    }
}
