//! Labelling positions (`moulin train label`): the truth the engine makes itself.
//!
//! Position `i` of a run is drawn from its own random stream (`seed`, `i`), so a run is the same
//! wherever it stops: half of them come from random openings (every move drawn at random), half
//! from noisy self-play (a depth-4 search's move, or one at random one time in five), stopped
//! after 2 to 26 turns: the placing phase and the first turns of the moving phase. Each is then
//! searched to `--depth` from an empty table (one thread, so the label is reproducible), probing
//! the endgame tables where the line reaches them, and one line is appended to the journal:
//!
//! ```text
//! <index> <source r|s> <plies> <score cp N|mate N> <best move> <position string>
//! ```
//!
//! With `--games`, position `i` is instead the `i`-th distinct placing position of the games
//! read (`positions_of_games`), source `g`: the positions strong play reaches. With `--moving`
//! as well, they are the positions of the first turns of the moving phase instead.
//!
//! With `--exact`, each label is instead the position's exact value (±1500 cp for a win or a
//! loss, 0 for a draw) by the exact solver of the placing with the endgame tables (`exact_label`),
//! within a budget of positions; a position it does not value in time is journaled `unsolved`.
//!
//! The journal is the data: a stopped run resumes where it stopped when given the same
//! settings, and a larger `--positions` extends it.

use super::{LineFlaw, TrainError};
use crate::durable::{DurableError, Journal};
use crate::job_progress::Progress;
use crate::matches::run::replay::GameRead;
use crate::parallel;
use crate::rng::{mix, Rng};
use crate::rules::board::Color;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::{fen, Rules};
use crate::search::exact::{self, Memory, Solver, Wdl};
use crate::search::{Score, Searcher};
use crate::tables::Tables;
use rustc_hash::FxHashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The depth an exact journal's header names: above any search's (`train fit` prefers the
/// labels of the deepest journal).
pub const EXACT_DEPTH: u32 = 99;

/// Positions each thread's exact solver remembers (16 bytes each) with --exact.
const EXACT_MEMORY: usize = 1 << 22;

/// The most turns before a position is taken.
pub const MAX_PLIES: usize = 26;

/// A win or loss label counts as this many centi-pieces (in `train fit`, and in the exact
/// labels written).
pub const CAP: f64 = 1500.0;

/// Where a drawn position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A random opening: every move drawn at random.
    Random,
    /// Noisy self-play: a small search's move, or one at random one time in five.
    SelfPlay,
    /// A position of a game read from a file (`--games`).
    Games,
}

impl Source {
    fn letter(self) -> char {
        match self {
            Source::Random => 'r',
            Source::SelfPlay => 's',
            Source::Games => 'g',
        }
    }
}

/// Position `index` of the stream `seed`: `None` when its game ended before the ply drawn.
/// `player` is a small searcher for the self-play moves; it is cleared first, so the position
/// depends on `seed` and `index` only.
pub fn draw_position(
    rules: &Rules,
    seed: u64,
    index: u64,
    player: &mut Searcher,
) -> Option<(Position, Source, usize)> {
    let mut rng = Rng::new(mix(seed ^ mix(index)));
    let source = if rng.below(2) == 0 {
        Source::Random
    } else {
        Source::SelfPlay
    };
    let plies = 2 + rng.below(MAX_PLIES - 1);
    let mut game = Game::new(*rules);
    player.new_game();
    // The hand-written evaluation plays, so that a draw does not change when the weights do.
    player.options.learned = false;
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let legal = movegen::legal_moves(game.position(), Convention::Turn);
        let random = source == Source::Random || rng.below(5) == 0;
        let mv = if random {
            legal[rng.below(legal.len())]
        } else {
            player
                .search_to_depth(game.position(), 4, Vec::new())
                .best?
        };
        game.play(mv);
    }
    if game.outcome().is_some() {
        return None;
    }
    Some((*game.position(), source, plies))
}

/// Which positions of a game are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The placing positions after 2 turns or more.
    Placing,
    /// The positions of the first this many turns of the moving phase in which neither side
    /// flies.
    Moving(usize),
}

/// The positions of `games` in `phase` (see `LabelArgs::games`), each with its turn count: no
/// removal pending, the game not over, and one per class of positions equal under the board's
/// symmetries (the first met). A game under other rules than `rules`, or a move that is not
/// legal, is an error naming the game.
pub fn positions_of_games(
    games: &[GameRead],
    rules: &Rules,
    phase: Phase,
) -> Result<Vec<(Position, usize)>, TrainError> {
    let mut out = Vec::new();
    each_position(games, rules, phase, |_, pos, ply| out.push((*pos, ply)))?;
    let mut seen = FxHashSet::default();
    out.retain(|(pos, _)| seen.insert(crate::rules::symmetry::fold(pos).key));
    Ok(out)
}

/// Calls `each(game index, position, turns)` for every position of every game in `phase` (no
/// removal pending, the game not over), symmetric ones included. A game under other rules than
/// `rules`, or a move that is not legal, is an error naming the game.
pub fn each_position(
    games: &[GameRead],
    rules: &Rules,
    phase: Phase,
    mut each: impl FnMut(usize, &Position, usize),
) -> Result<(), TrainError> {
    for (n, (start, moves, _)) in games.iter().enumerate() {
        if start.rules() != rules {
            return Err(TrainError::GameRules { game: n + 1 });
        }
        let mut game = start.clone();
        // Turns played since the placing ended.
        let mut moving = 0;
        for (ply, token) in moves.iter().enumerate() {
            game.play_token(token)
                .map_err(|source| TrainError::GameMove {
                    game: n + 1,
                    turn: ply + 1,
                    source,
                })?;
            let pos = game.position();
            let taken = match phase {
                Phase::Placing if !pos.is_placing() => break,
                Phase::Placing => ply + 1 >= 2,
                Phase::Moving(_) if pos.is_placing() => false,
                Phase::Moving(turns) => {
                    moving += 1;
                    if moving > turns {
                        break;
                    }
                    !pos.can_fly(Color::White) && !pos.can_fly(Color::Black)
                }
            };
            if taken && pos.pending_removals() == 0 && game.outcome().is_none() {
                each(n, pos, ply + 1);
            }
        }
    }
    Ok(())
}

/// The games of these files (see `games_of_file`).
pub fn games_of_files(files: &[PathBuf]) -> Result<Vec<GameRead>, TrainError> {
    let mut games = Vec::new();
    for f in files {
        games.extend(crate::matches::run::replay::games_of_file(f).map_err(TrainError::Games)?);
    }
    Ok(games)
}

/// The positions of `--games`, read from their files.
pub fn read_games(
    files: &[PathBuf],
    rules: &Rules,
    phase: Phase,
) -> Result<Vec<(Position, usize)>, TrainError> {
    let games = games_of_files(files)?;
    let found = positions_of_games(&games, rules, phase)?;
    if found.is_empty() {
        let what = match phase {
            Phase::Placing => "placing",
            Phase::Moving(_) => "moving",
        };
        return Err(TrainError::NoPositions {
            phase: what,
            games: games.len(),
        });
    }
    Ok(found)
}

/// The labelling search of `pos`: its score and best move.
pub fn label(searcher: &mut Searcher, pos: &Position, depth: u32) -> (Score, Option<crate::Move>) {
    searcher.new_game();
    let r = searcher.search_to_depth(pos, depth, Vec::new());
    (r.score, r.best)
}

/// The exact label of `pos`: its value for the side to move (-1, 0, 1) and the move that proved
/// it, by the tables in the moving phase (no move named) and by the exact solver of the placing
/// (within `budget` positions) before (no move named where every move loses); `None` when it is
/// not valued (out of budget, or a position on the way the tables do not cover).
pub fn exact_label(
    tables: &Tables,
    memory: &mut Memory,
    pos: &Position,
    budget: u64,
) -> Option<(Wdl, Option<crate::Move>)> {
    if !pos.is_placing() && pos.pending_removals() == 0 {
        let v = tables.probe_in_game(pos).or_else(|| tables.probe(pos))?;
        return Some((exact::wdl(v), None));
    }
    let stop = move |nodes: u64| nodes >= budget;
    let mut solver = Solver::new(tables, memory, &stop);
    let v = solver.value(pos)?;
    Some((v, solver.proving_move(pos, v)))
}

/// The score an exact label is written with: a win or a loss as `train fit` counts one.
fn exact_score(v: Wdl) -> Score {
    Score::Cp(i32::from(v) * CAP as i32)
}

/// One journal line.
fn line_text(
    index: usize,
    source: Source,
    plies: usize,
    pos: &Position,
    score: Score,
    best: Option<crate::Move>,
) -> String {
    let best = best.map_or("none".to_string(), |m| m.written_at(pos, Convention::Turn));
    format!(
        "{index} {} {plies} {score} {best} {}",
        source.letter(),
        fen::write(pos)
    )
}

/// Opens the tables a labelling run probes: those named, or the default directory's if it holds
/// any, or none.
pub fn open_tables(
    variant: &str,
    rules: &Rules,
    dir: Option<PathBuf>,
    none: bool,
) -> Result<Option<Arc<Tables>>, TrainError> {
    if none || crate::tables::unsupported(rules).is_some() {
        return Ok(None);
    }
    if let Some(d) = dir {
        Tables::open(&d, rules)
            .map(|t| Some(Arc::new(t)))
            .map_err(TrainError::Tables)
    } else {
        let d = crate::tables::default_dir(variant);
        Ok(Tables::open(&d, rules).ok().map(Arc::new))
    }
}

/// What a labelling run labels, and how.
pub struct LabelPlan {
    /// The rules' preset name.
    pub variant: String,
    /// The rules.
    pub rules: Rules,
    /// Positions to label in all.
    pub positions: usize,
    /// Depth (turns) of each labelling search.
    pub depth: u32,
    /// Seed of the positions drawn.
    pub seed: u64,
    /// Hash table of each search, in MB.
    pub hash_mb: u32,
    /// Worker threads.
    pub threads: usize,
    /// The endgame tables probed (and solved with, for exact labels).
    pub tables: Option<Arc<Tables>>,
    /// The positions of games to label, with their turns, instead of drawn ones.
    pub games: Option<Vec<(Position, usize)>>,
    /// Exact labels, each within this many solver positions, instead of searched ones.
    pub exact_nodes: Option<u64>,
}

impl LabelPlan {
    /// The most pieces a side of the tables (0: none).
    fn largest(&self) -> usize {
        self.tables
            .as_ref()
            .and_then(|t| t.pairs().iter().map(|&(a, b)| a.max(b)).max())
            .unwrap_or(0)
    }

    /// The settings its journal's header names, so that a journal resumes only on the same.
    fn settings(&self) -> Result<String, TrainError> {
        // The positions of games are named by how many and a digest of them, so that a journal
        // resumes only on the same list.
        let drawn = match &self.games {
            Some(g) => {
                let digest = g.iter().fold(0u64, |h, (p, _)| {
                    mix(h ^ crate::rules::symmetry::fold(p).key)
                });
                format!("games {} digest {digest:016x}", g.len())
            }
            None => format!("seed {}", self.seed),
        };
        let largest = self.largest();
        let tables_text = if largest == 0 {
            "none".to_string()
        } else {
            format!("up to {largest}")
        };
        Ok(match self.exact_nodes {
            Some(nodes) => {
                if largest < self.rules.pieces as usize {
                    return Err(TrainError::ExactTables {
                        pieces: self.rules.pieces,
                        largest,
                    });
                }
                format!(
                    "variant {} depth {EXACT_DEPTH} exact nodes {nodes} {drawn} tables {tables_text}",
                    self.variant
                )
            }
            None => format!(
                "variant {} depth {} {drawn} hash {} tables {tables_text}",
                self.variant, self.depth, self.hash_mb
            ),
        })
    }

    /// The journal line of position `index`: its label, `unsolved` or `over`.
    fn line_of(
        &self,
        index: usize,
        player: &mut Searcher,
        searcher: &mut Searcher,
        memory: Option<&mut Memory>,
    ) -> String {
        let drawn = match &self.games {
            Some(g) => Some((g[index].0, Source::Games, g[index].1)),
            None => draw_position(&self.rules, self.seed, index as u64, player),
        };
        match (drawn, &self.tables, memory, self.exact_nodes) {
            (Some((pos, source, plies)), Some(t), Some(memory), Some(nodes)) => {
                match exact_label(t, memory, &pos, nodes) {
                    Some((v, best)) => line_text(index, source, plies, &pos, exact_score(v), best),
                    None => format!("{index} unsolved"),
                }
            }
            (Some((pos, source, plies)), _, _, _) => {
                let (score, best) = label(searcher, &pos, self.depth);
                line_text(index, source, plies, &pos, score, best)
            }
            (None, _, _, _) => format!("{index} over"),
        }
    }
}

/// Labels the plan's positions into the journal `out`, resuming what it holds.
pub fn label_all(plan: &LabelPlan, out: &Path, progress: &dyn Progress) -> Result<(), TrainError> {
    let (mut journal, lines) = Journal::open(out, "label", &plan.settings()?)?;
    let done: FxHashSet<usize> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    let positions = plan.positions;
    let todo: Vec<usize> = (0..positions).filter(|i| !done.contains(i)).collect();
    let threads = plan.threads;
    let how = if plan.exact_nodes.is_some() {
        "exact".to_string()
    } else {
        format!("depth {}", plan.depth)
    };
    log::info!(
        "labelling {} positions ({} done before), {how}, with {threads} threads into {}",
        todo.len(),
        positions - todo.len(),
        out.display()
    );
    progress.stage(
        positions as u64,
        (positions - todo.len()) as u64,
        &format!("{how} "),
        "positions",
    );
    let labelled = parallel::run(
        &todo,
        threads,
        || {
            let player = Searcher::new(1, 1);
            let mut searcher = Searcher::new(plan.hash_mb as usize, 1);
            searcher.options.tables.clone_from(&plan.tables);
            let memory = plan.exact_nodes.map(|_| Memory::new(EXACT_MEMORY));
            (player, searcher, memory)
        },
        |(player, searcher, memory), &index| plan.line_of(index, player, searcher, memory.as_mut()),
        |_, text| {
            journal.append(&text)?;
            progress.advance(1);
            Ok::<_, DurableError>(())
        },
    );
    progress.finish();
    labelled?;
    journal.sync()?;
    Ok(())
}

/// One labelled position read back from a journal.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// The position.
    pub pos: Position,
    /// The turns played to reach it.
    pub plies: usize,
    /// Its label.
    pub score: Score,
}

/// Reads the labelled positions of journals (lines of games that ended, and of positions an
/// exact run did not value, are skipped), a line at a time; an unreadable line is an error
/// naming the file and the line.
pub fn read_labels(path: &Path, rules: &Rules) -> Result<Vec<Labelled>, TrainError> {
    let mut out = Vec::new();
    for line in super::lines_of(path)? {
        let (n, line) = line?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: LineFlaw| TrainError::LabelLine {
            path: path.to_path_buf(),
            line: n,
            what: Box::new(what),
            text: line.clone(),
        };
        let words: Vec<&str> = line.splitn(7, ' ').collect();
        if words.len() == 2 && (words[1] == "over" || words[1] == "unsolved") {
            continue;
        }
        if words.len() != 7 {
            return Err(bad(LineFlaw::Form(
                "<index> <source> <plies> <score> <best> <position>",
            )));
        }
        let plies = words[2]
            .parse()
            .map_err(|_| bad(LineFlaw::Field("bad ply count")))?;
        let value: i32 = words[4]
            .parse()
            .map_err(|_| bad(LineFlaw::Field("bad score")))?;
        let score = match words[3] {
            "cp" => Score::Cp(value),
            "mate" => Score::Mate(value),
            _ => return Err(bad(LineFlaw::Field("bad score kind"))),
        };
        let pos = fen::read(words[6], rules).map_err(|e| bad(e.into()))?;
        out.push(Labelled { pos, plies, score });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_labels_are_the_solvers_values_and_their_moves_keep_them() {
        use crate::search::exact::testing::{placing_positions, tables};
        let tables = tables();
        let never = |_: u64| false;
        let mut memory = Memory::new(1 << 20);
        let mut check = Memory::new(1 << 20);
        let mut seen = [0; 3];
        for pos in placing_positions(30, 41) {
            let (v, best) = exact_label(tables, &mut memory, &pos, u64::MAX).unwrap();
            let mut solver = Solver::new(tables, &mut check, &never);
            assert_eq!(solver.value(&pos), Some(v), "{}", fen::write(&pos));
            // Every move keeps a loss: the solver names none there.
            if v > -1 {
                let best = best.unwrap();
                assert_eq!(solver.move_at_least(&pos, best, v), Some(true));
            }
            seen[(v + 1) as usize] += 1;
            // The moving position after the last placement is labelled by the tables.
            let mut end = pos;
            while (end.is_placing() || end.pending_removals() > 0) && end.quick_outcome().is_none()
            {
                let Some(&first) = movegen::legal_moves(&end, Convention::Turn).first() else {
                    break;
                };
                end.play(first);
            }
            if !end.is_placing() && end.pending_removals() == 0 && end.quick_outcome().is_none() {
                let (w, _) = exact_label(tables, &mut memory, &end, u64::MAX).unwrap();
                let t = tables.probe_in_game(&end).or_else(|| tables.probe(&end));
                assert_eq!(Some(w), t.map(exact::wdl));
            }
            // Too small a budget values nothing.
            let mut fresh = Memory::new(1 << 10);
            assert_eq!(exact_label(tables, &mut fresh, &pos, 1), None);
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        assert_eq!(exact_score(1), Score::Cp(1500));
        assert_eq!(exact_score(-1), Score::Cp(-1500));
    }

    #[test]
    fn unsolved_lines_are_left_out_of_the_labels() {
        let dir = std::env::temp_dir().join(format!("moulin-exact-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("labels-exact-s1.txt");
        let fen = "O*OO@*@*/@****O*O/*****@** b p p 5 4 4 5 0 0 -1 -1 -1 -1 0 0 5";
        std::fs::write(
            &file,
            format!(
                "# moulin label journal: variant nine depth 99 exact nodes 10 seed 1\n\
                 0 unsolved\n1 over\n2 r 9 cp 1500 b4 {fen}\n"
            ),
        )
        .unwrap();
        let labels = read_labels(&file, &Rules::nine()).unwrap();
        assert_eq!(labels.len(), 1);
        assert_eq!(labels[0].score, Score::Cp(1500));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_position_depends_on_its_seed_and_index_only() {
        let rules = Rules::nine();
        let mut a = Searcher::new(1, 1);
        let mut b = Searcher::new(1, 1);
        let mut sources = FxHashSet::default();
        for index in 0..12 {
            // `b` has searched other positions first: its table holds other entries.
            let _ = draw_position(&rules, 9, index + 100, &mut b);
            let x = draw_position(&rules, 9, index, &mut a);
            let y = draw_position(&rules, 9, index, &mut b);
            assert_eq!(
                x.map(|p| p.0.key()),
                y.map(|p| p.0.key()),
                "position {index}"
            );
            if let Some((pos, source, plies)) = x {
                assert!((2..=MAX_PLIES).contains(&plies));
                assert!(pos.outcome().is_none());
                sources.insert(source.letter());
            }
        }
        assert_eq!(sources.len(), 2, "both sources drawn");
    }

    #[test]
    fn the_moving_positions_of_games_are_the_first_turns_after_the_placing() {
        let rules = Rules::nine();
        // Random games played out to 60 turns (or their end), written as tokens.
        let mut rng = Rng::new(5);
        let mut games = Vec::new();
        for _ in 0..20 {
            let mut game = Game::new(rules);
            let mut tokens = Vec::new();
            while tokens.len() < 60 && game.outcome().is_none() {
                let legal = movegen::legal_moves(game.position(), Convention::Turn);
                let mv = legal[rng.below(legal.len())];
                tokens.push(mv.written_at(game.position(), Convention::Turn));
                game.play(mv);
            }
            games.push((Game::new(rules), tokens, "*".to_string()));
        }
        let mut taken = 0;
        each_position(&games, &rules, Phase::Moving(4), |n, pos, ply| {
            taken += 1;
            assert!(!pos.is_placing() && pos.pending_removals() == 0, "game {n}");
            assert!(!pos.can_fly(Color::White) && !pos.can_fly(Color::Black));
            // The placing takes 18 turns (a removal is part of its turn): the positions taken
            // are those before the first four moving turns.
            assert!((18..=21).contains(&ply), "game {n} ply {ply}");
        })
        .unwrap();
        assert!(taken > 20, "{taken} moving positions taken");
        let distinct = positions_of_games(&games, &rules, Phase::Moving(4)).unwrap();
        assert!(!distinct.is_empty() && distinct.len() <= taken);
    }

    #[test]
    fn the_positions_of_games_are_their_placing_positions_once_each() {
        let rules = Rules::nine();
        let moves = |text: &str| text.split_whitespace().map(String::from).collect();
        // The second game is the first one mirrored (d6 is d2's mirror, b4 f4's): every
        // position it reaches is one the first reached.
        let games = vec![
            (Game::new(rules), moves("d2 d6 b4 f4 g4 g7 a1"), "*".into()),
            (Game::new(rules), moves("d6 d2 b4 f4 g4 g1 a7"), "*".into()),
        ];
        let found = positions_of_games(&games, &rules, Phase::Placing).unwrap();
        let plies: Vec<usize> = found.iter().map(|p| p.1).collect();
        assert_eq!(
            plies,
            vec![2, 3, 4, 5, 6, 7],
            "after 2 turns or more, once each"
        );
        let mut game = Game::new(rules);
        for t in ["d2", "d6", "b4"] {
            game.play_token(t).unwrap();
        }
        assert_eq!(found[1].0.key(), game.position().key());
        // A removal pending is not a position to label; the moving phase ends the list.
        let mill = vec![(Game::new(rules), moves("a1 b2 d1 b4 g1 xb2"), "*".into())];
        let found = positions_of_games(&mill, &rules, Phase::Placing).unwrap();
        assert!(found.iter().all(|(p, _)| p.pending_removals() == 0));
        let plies: Vec<usize> = found.iter().map(|p| p.1).collect();
        assert_eq!(
            plies,
            vec![2, 3, 4, 6],
            "not after g1, with the removal pending"
        );
        let bad = vec![(Game::new(rules), moves("d2 d2"), "*".into())];
        let err = positions_of_games(&bad, &rules, Phase::Placing)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("game 1, turn 2:"), "{err}");
        let twelve = vec![(
            Game::new(Rules::preset("twelve").unwrap()),
            moves("d2 d6"),
            "*".into(),
        )];
        assert!(positions_of_games(&twelve, &rules, Phase::Placing).is_err());
    }

    #[test]
    fn labels_are_read_back_and_bad_lines_named() {
        let rules = Rules::nine();
        let mut searcher = Searcher::new(1, 1);
        let mut player = Searcher::new(1, 1);
        let (pos, source, plies) = (0..)
            .find_map(|i| draw_position(&rules, 1, i, &mut player))
            .unwrap();
        let (score, best) = label(&mut searcher, &pos, 3);
        let dir = std::env::temp_dir().join(format!("moulin-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("labels.txt");
        let text = format!(
            "# moulin label journal: test\n{}\n7 over\n",
            line_text(5, source, plies, &pos, score, best)
        );
        std::fs::write(&path, &text).unwrap();
        let read = read_labels(&path, &rules).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].pos.key(), pos.key());
        assert_eq!((read[0].plies, read[0].score), (plies, score));
        std::fs::write(
            &path,
            "3 r 4 cp x d2 ********/********/******** w p p 0 9 0 9\n",
        )
        .unwrap();
        let err = read_labels(&path, &rules).unwrap_err().to_string();
        assert!(err.contains("labels.txt:1: bad score"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
