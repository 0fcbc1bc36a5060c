//! The network's data (`moulin train net`, its first stage): positions of every phase and
//! material balance, each labelled with its exact value by the solution (the placing solution
//! and the moving tables, under the rules without draw rules, as they are solved).
//!
//! **Where the positions come from.** Block `k` of a run ([`BLOCK`] positions) is drawn from its
//! own random stream (`seed`, `k`), so a run is the same wherever it stops and on any number of
//! threads. Of each block:
//! - 35% from games of a noisy 1-ply player (the move whose result the evaluation likes best, or
//!   one at random one time in four): the positions play reaches, placing and moving;
//! - 25% from games of random moves: the positions of weak play, and unusual ones;
//! - 25% drawn uniformly in the moving phase: for a pair of piece counts drawn uniformly (3 to
//!   the game's pieces each, so that rare balances are not forgotten), the pieces on random
//!   points, either side to move;
//! - 15% drawn uniformly in the placing phase: the placements left drawn uniformly (1 to twice
//!   the pieces, less one), up to two pieces of each side taken off, the rest on random points;
//!   a draw outside the solution's groups is drawn again.
//!
//! Every position of a game with no removal pending and not over is taken (from its first
//! move), until the game ends or 200 plies; a position the solution does not value is left out.
//!
//! **The file.** A header of 32 bytes (the magic `MOULNDAT`, the format's version, the rules'
//! fingerprint `tables::placing::fingerprint`, the seed, the block size), then records of 12
//! bytes, little-endian: White's pieces (u32), Black's (u32), White's hand, Black's hand, the
//! side to move and the value (bits 0-1: 0 a loss, 1 a draw, 2 a win for the side to move; bit 2
//! Black to move), and the source (0 the 1-ply player, 1 random moves, 2 uniform moving, 3
//! uniform placing). The magic, version and fingerprint are the shared header's
//! (`shipped::header`, `LAYOUT`; the format has no checksum). Blocks are appended whole and
//! synced; a run that stopped resumes after the last whole block (a cut one
//! is dropped), and a larger `--positions` extends the file.

use super::{DataFlaw, TrainError};
use crate::durable::DurableError;
use crate::job_progress::Progress;
use crate::rng::Rng;
use crate::rules::board::{Bitboard, ByColor, Color, Point, POINTS};
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::search::eval::{self, Weights};
use crate::search::exact::Wdl;
use crate::shipped::le_bytes::{put_u32, put_u64, u32_at, u64_at};
use crate::shipped::Layout;
use crate::tables::placing::solution::Solution;
use crate::tables::placing_play::known;
use crate::tables::Tables;
use rayon::prelude::*;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Positions a block.
pub const BLOCK: usize = 4096;
/// Bytes a record.
pub const RECORD: usize = 12;
/// A data file's header: the seed at byte 20 and the block size at 28 are its own; no
/// checksum (a run resumes after its last whole block).
static LAYOUT: Layout = Layout {
    what: "a moulin network data file",
    magic: *b"MOULNDAT",
    version: Some(1),
    fingerprint_at: 12,
    checksum_at: None,
    covers: "",
    len: 32,
};
const HEADER: usize = LAYOUT.len;
/// The longest game a block plays, in plies.
const MAX_GAME: usize = 200;

/// Where a position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A game of the noisy 1-ply player.
    Player,
    /// A game of random moves.
    Random,
    /// Drawn uniformly in the moving phase.
    Uniform,
    /// Drawn uniformly in the placing phase.
    Placing,
}

impl Source {
    const ALL: [Source; 4] = [
        Source::Player,
        Source::Random,
        Source::Uniform,
        Source::Placing,
    ];

    fn code(self) -> u8 {
        Source::ALL.iter().position(|&s| s == self).expect("listed") as u8
    }
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// White's and Black's pieces.
    pub pieces: [u32; 2],
    /// White's and Black's hands.
    pub hands: [u8; 2],
    /// The side to move.
    pub side: Color,
    /// The value for the side to move.
    pub value: Wdl,
    /// Where it came from.
    pub source: Source,
}

impl Sample {
    fn of(pos: &Position, value: Wdl, source: Source) -> Sample {
        Sample {
            pieces: [pos.pieces(Color::White).0, pos.pieces(Color::Black).0],
            hands: [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
            side: pos.side_to_move(),
            value,
            source,
        }
    }

    /// The position under `rules` (no removal pending, no count of quiet plies).
    pub fn position(&self, rules: &Rules) -> Position {
        Position::from_parts(
            *rules,
            ByColor::new(Bitboard(self.pieces[0]), Bitboard(self.pieces[1])),
            ByColor::new(self.hands[0], self.hands[1]),
            self.side,
            0,
            0,
            1,
            ByColor::new(0, 0),
        )
    }

    /// The value as -1, 0, 1.
    pub fn wdl(&self) -> i8 {
        self.value.signum()
    }

    fn to_bytes(self) -> [u8; RECORD] {
        let mut b = [0u8; RECORD];
        b[0..4].copy_from_slice(&self.pieces[0].to_le_bytes());
        b[4..8].copy_from_slice(&self.pieces[1].to_le_bytes());
        b[8] = self.hands[0];
        b[9] = self.hands[1];
        b[10] = (self.wdl() + 1) as u8 | u8::from(self.side == Color::Black) << 2;
        b[11] = self.source.code();
        b
    }

    fn from_bytes(b: &[u8], rules: &Rules) -> Option<Sample> {
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (white, black) = (word(0), word(4));
        let board = (1u32 << POINTS) - 1;
        let pieces = u32::from(rules.pieces);
        let fits = |p: u32, hand: u8| p & !board == 0 && p.count_ones() + u32::from(hand) <= pieces;
        if white & black != 0 || !fits(white, b[8]) || !fits(black, b[9]) || b[10] & 3 == 3 {
            return None;
        }
        Some(Sample {
            pieces: [white, black],
            hands: [b[8], b[9]],
            side: if b[10] & 4 == 0 {
                Color::White
            } else {
                Color::Black
            },
            value: (b[10] & 3) as i8 - 1,
            source: *Source::ALL.get(usize::from(b[11]))?,
        })
    }
}

/// What labels the positions: the placing solution and the moving tables.
pub struct Truth<'a> {
    /// The placing solution, whole.
    pub solution: &'a Solution,
    /// The moving tables.
    pub tables: &'a Tables,
}

impl Truth<'_> {
    /// The value of `pos` for its side to move, if the solution holds it.
    fn value(&self, pos: &Position) -> Option<Wdl> {
        known(pos, Some(self.solution), self.tables)
    }
}

/// The positions of block `k` of the run seeded with `seed`.
pub fn block(rules: &Rules, truth: &Truth, seed: u64, k: u64) -> Vec<Sample> {
    let rules = rules.without_draw_rules();
    let mut rng = Rng::new(crate::rng::mix(seed ^ crate::rng::mix(k + 1)));
    let weights = Weights::DEFAULT.for_rules(&rules);
    let mut out = Vec::with_capacity(BLOCK);
    let quotas = [
        (Source::Player, BLOCK * 35 / 100),
        (Source::Random, BLOCK * 60 / 100),
    ];
    for (source, until) in quotas {
        while out.len() < until {
            game(&rules, truth, &weights, source, &mut rng, &mut out, until);
        }
    }
    while out.len() < BLOCK * 85 / 100 {
        out.extend(uniform(&rules, truth, &mut rng));
    }
    while out.len() < BLOCK {
        out.extend(uniform_placing(&rules, truth, &mut rng));
    }
    out
}

/// Plays one game of `source`'s kind, taking its positions into `out` (at most `until` in
/// all).
fn game(
    rules: &Rules,
    truth: &Truth,
    weights: &Weights,
    source: Source,
    rng: &mut Rng,
    out: &mut Vec<Sample>,
    until: usize,
) {
    let mut pos = Position::start(*rules);
    let mut moves = Vec::new();
    for _ in 0..MAX_GAME {
        if out.len() >= until || pos.quick_outcome().is_some() {
            return;
        }
        moves.clear();
        movegen::generate(&pos, Convention::Turn, &mut moves);
        if moves.is_empty() {
            return;
        }
        let random = source == Source::Random || rng.below(4) == 0;
        let mv = if random {
            moves[rng.below(moves.len())]
        } else {
            // The move after which the opponent's evaluation is lowest.
            let score = |mv| {
                let mut child = pos;
                child.play(mv);
                match child.quick_outcome() {
                    Some(_) => i32::MIN,
                    None => eval::evaluate(&child, weights),
                }
            };
            moves
                .iter()
                .copied()
                .min_by_key(|&mv| score(mv))
                .expect("a move")
        };
        pos.play(mv);
        if pos.pending_removals() == 0 && pos.quick_outcome().is_none() {
            if let Some(v) = truth.value(&pos) {
                out.push(Sample::of(&pos, v, source));
            }
        }
    }
}

/// A position of the moving phase drawn uniformly: piece counts, points, the side to move.
fn uniform(rules: &Rules, truth: &Truth, rng: &mut Rng) -> Option<Sample> {
    let most = usize::from(rules.pieces);
    let counts = [3 + rng.below(most - 2), 3 + rng.below(most - 2)];
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    labelled(rules, truth, rng, counts, [0, 0], side, Source::Uniform)
}

/// A position of the placing phase drawn uniformly: the placements left, the pieces taken off
/// each side (none, one or two), the points.
fn uniform_placing(rules: &Rules, truth: &Truth, rng: &mut Rng) -> Option<Sample> {
    let pieces = rules.pieces;
    let left = 1 + rng.below(usize::from(2 * pieces) - 1) as u8;
    let (mover, other) = crate::tables::groups::hands(left);
    // White places first: with an even count left, White is to move.
    let side = if left.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    let hands = match side {
        Color::White => [mover, other],
        Color::Black => [other, mover],
    };
    let on_board = |hand: u8, rng: &mut Rng| {
        let placed = usize::from(pieces - hand);
        placed - rng.below(3).min(placed)
    };
    let counts = [on_board(hands[0], rng), on_board(hands[1], rng)];
    labelled(rules, truth, rng, counts, hands, side, Source::Placing)
}

/// The position of `counts` pieces a side on random points with `hands` and `side` to move,
/// labelled (`None` if it is over or the solution does not hold it).
fn labelled(
    rules: &Rules,
    truth: &Truth,
    rng: &mut Rng,
    counts: [usize; 2],
    hands: [u8; 2],
    side: Color,
    source: Source,
) -> Option<Sample> {
    let mut points: Vec<u32> = Point::all().map(|p| p.index() as u32).collect();
    let n = points.len();
    if counts[0] + counts[1] > n {
        return None;
    }
    for i in 0..counts[0] + counts[1] {
        points.swap(i, i + rng.below(n - i));
    }
    let mask = |s: &[u32]| s.iter().fold(0u32, |m, &p| m | 1 << p);
    let sample = Sample {
        pieces: [
            mask(&points[..counts[0]]),
            mask(&points[counts[0]..counts[0] + counts[1]]),
        ],
        hands,
        side,
        value: 0,
        source,
    };
    let pos = sample.position(rules);
    if pos.quick_outcome().is_some() {
        return None;
    }
    let value = truth.value(&pos)?;
    Some(Sample { value, ..sample })
}

fn header(rules: &Rules, seed: u64) -> Vec<u8> {
    let mut h = LAYOUT.blank(crate::tables::placing::fingerprint(rules));
    put_u64(&mut h, 20, seed);
    put_u32(&mut h, 28, BLOCK as u32);
    h
}

fn flawed(path: &Path, flaw: impl Into<DataFlaw>) -> TrainError {
    TrainError::Data {
        path: path.to_path_buf(),
        flaw: flaw.into(),
    }
}

/// Checks a data file's header against `rules`; its seed.
fn check_header(path: &Path, bytes: &[u8], rules: &Rules) -> Result<u64, TrainError> {
    let head = LAYOUT.read(bytes).map_err(|e| flawed(path, e))?;
    head.check_rules(crate::tables::placing::fingerprint(rules))
        .map_err(|e| flawed(path, e))?;
    let block = u32_at(bytes, 28);
    if block as usize != BLOCK {
        return Err(flawed(
            path,
            DataFlaw::Block {
                found: block,
                reads: BLOCK,
            },
        ));
    }
    Ok(u64_at(bytes, 20))
}

/// Makes (or extends, or resumes) the data file `path` to `positions` positions (rounded up
/// to whole blocks), seeded with `seed`; blocks are made `threads` at a time.
pub fn make(
    path: &Path,
    rules: &Rules,
    truth: &Truth,
    seed: u64,
    positions: usize,
    progress: &dyn Progress,
) -> Result<(), TrainError> {
    let io = |source: std::io::Error| {
        TrainError::Journal(DurableError::Write {
            path: path.to_path_buf(),
            source,
        })
    };
    let blocks = positions.div_ceil(BLOCK) as u64;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let done = if len == 0 {
        file.write_all(&header(rules, seed)).map_err(io)?;
        0
    } else {
        let mut head = Vec::with_capacity(HEADER);
        (&file)
            .take(HEADER as u64)
            .read_to_end(&mut head)
            .map_err(io)?;
        let theirs = check_header(path, &head, rules)?;
        if theirs != seed {
            return Err(flawed(path, DataFlaw::Seed { theirs, ours: seed }));
        }
        let whole = (len - HEADER as u64) / (BLOCK * RECORD) as u64;
        if whole * ((BLOCK * RECORD) as u64) + HEADER as u64 != len {
            progress.note(&format!(
                "{}: a cut block dropped, resuming after {whole} whole blocks",
                path.display()
            ));
        }
        file.set_len(HEADER as u64 + whole * (BLOCK * RECORD) as u64)
            .map_err(io)?;
        whole
    };
    file.seek(SeekFrom::End(0)).map_err(io)?;
    progress.stage(
        blocks * BLOCK as u64,
        done.min(blocks) * BLOCK as u64,
        "",
        "positions",
    );
    let round = rayon::current_num_threads().max(1) as u64 * 2;
    let mut k = done;
    while k < blocks {
        let end = (k + round).min(blocks);
        let made: Vec<Vec<Sample>> = (k..end)
            .into_par_iter()
            .map(|b| block(rules, truth, seed, b))
            .collect();
        let mut bytes = Vec::with_capacity((end - k) as usize * BLOCK * RECORD);
        for s in made.iter().flatten() {
            bytes.extend_from_slice(&s.to_bytes());
        }
        file.write_all(&bytes).map_err(io)?;
        file.sync_data().map_err(io)?;
        progress.advance((end - k) * BLOCK as u64);
        k = end;
    }
    progress.finish();
    Ok(())
}

/// The samples of the data file `path`, made for `rules`.
pub fn read(path: &Path, rules: &Rules) -> Result<Vec<Sample>, TrainError> {
    let bytes = std::fs::read(path).map_err(|source| TrainError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    check_header(path, &bytes, rules)?;
    let body = &bytes[HEADER..];
    if body.len() % RECORD != 0 {
        return Err(flawed(path, DataFlaw::Cut(body.len() % RECORD)));
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| Sample::from_bytes(r, rules).ok_or_else(|| flawed(path, DataFlaw::Record(i))))
        .collect()
}

/// The default data file of a run: `net-data-<seed>.bin` in the variant's cache directory.
pub fn default_path(variant: &str, seed: u64) -> PathBuf {
    super::cache_dir(variant).join(format!("net-data-{seed}.bin"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_reads_back_from_its_record_and_a_foreign_record_does_not() {
        let rules = Rules::nine();
        let pos = Position::start(rules);
        for value in [-1, 0, 1] {
            let s = Sample::of(&pos, value, Source::Uniform);
            assert_eq!(Sample::from_bytes(&s.to_bytes(), &rules), Some(s));
            assert_eq!(s.position(&rules).in_hand(Color::White), 9);
        }
        let mut b = Sample::of(&pos, 1, Source::Player).to_bytes();
        b[8] = 10;
        assert_eq!(Sample::from_bytes(&b, &rules), None, "ten in hand");
        let mut b = Sample::of(&pos, 1, Source::Player).to_bytes();
        b[0] = 1;
        b[4] = 1;
        assert_eq!(Sample::from_bytes(&b, &rules), None, "a point held by both");
    }

    /// The game of three pieces a side under `nine`'s rules otherwise, solved in memory (the
    /// moving tables) and into `dir` (the placing solution).
    fn three_a_side(dir: &Path) -> (Rules, Solution, Tables) {
        use crate::tables::placing::solution::Found;
        use crate::tables::placing_build::Build;
        use crate::tables::schedule::solve_in_memory;
        let rules = Rules {
            pieces: 3,
            ..Rules::nine()
        };
        let mut build = Build::over(solve_in_memory(&rules, 3).unwrap(), dir, &rules).unwrap();
        for g in build.groups() {
            build.step(g).unwrap();
        }
        let Found::Whole(solution) = Solution::open(dir, &rules).unwrap() else {
            panic!("the build left the solution incomplete");
        };
        (rules, solution, solve_in_memory(&rules, 3).unwrap())
    }

    #[test]
    fn a_block_holds_every_source_each_position_labelled_by_the_solution_and_is_repeatable() {
        let dir = std::env::temp_dir().join(format!("moulin-netblock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (rules, solution, tables) = three_a_side(&dir);
        let truth = Truth {
            solution: &solution,
            tables: &tables,
        };
        let a = block(&rules, &truth, 7, 3);
        assert_eq!(a.len(), BLOCK);
        assert_eq!(a, block(&rules, &truth, 7, 3), "the same seed and block");
        assert_ne!(a, block(&rules, &truth, 7, 4), "another block");
        let mut by_source = [0usize; 4];
        let mut values = [0usize; 3];
        for s in &a {
            by_source[usize::from(s.source.code())] += 1;
            values[(s.wdl() + 1) as usize] += 1;
            let pos = s.position(&rules);
            assert!(pos.quick_outcome().is_none() && pos.pending_removals() == 0);
            assert_eq!(
                known(&pos, Some(&solution), &tables),
                Some(s.value),
                "{s:?}"
            );
            if s.source == Source::Placing {
                assert!(pos.is_placing(), "{s:?}");
            }
            if s.source == Source::Uniform {
                assert!(!pos.is_placing(), "{s:?}");
            }
        }
        assert_eq!(by_source, [1433, 1024, 1024, 615], "the quotas");
        assert!(
            values.iter().all(|&n| n > 0),
            "wins, draws and losses: {values:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_data_file_of_other_rules_or_cut_is_refused_naming_it() {
        let rules = Rules::nine();
        let dir = std::env::temp_dir().join(format!("moulin-netdata-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let s = Sample::of(&Position::start(rules), 0, Source::Random);
        let mut bytes = header(&rules, 3);
        bytes.extend_from_slice(&s.to_bytes());
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(&path, &rules).unwrap(), vec![s]);
        let twelve = Rules::preset("twelve").unwrap();
        let e = read(&path, &twelve).unwrap_err().to_string();
        assert!(e.contains("data.bin") && e.contains("other rules"), "{e}");
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let e = read(&path, &rules).unwrap_err().to_string();
        assert!(e.contains("cut"), "{e}");
        std::fs::write(&path, b"MOULTBL1").unwrap();
        let e = read(&path, &rules).unwrap_err().to_string();
        assert!(e.contains("not a moulin network data file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The fixture, written by the code before the shared header: two records.
    fn fixture() -> (PathBuf, Vec<Sample>) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shipped/net-data.bin");
        let pos = Position::start(Rules::nine());
        let samples = vec![
            Sample::of(&pos, 0, Source::Random),
            Sample::of(&pos, 1, Source::Player),
        ];
        (path, samples)
    }

    #[test]
    fn a_data_file_of_the_old_code_reads_back_and_its_header_is_written_as_it_was() {
        let (path, samples) = fixture();
        let rules = Rules::nine();
        assert_eq!(read(&path, &rules).unwrap(), samples);
        assert_eq!(header(&rules, 3), std::fs::read(&path).unwrap()[..HEADER]);
    }

    /// Each fault of the header (the format has no checksum) is refused naming the file.
    #[test]
    fn each_fault_of_a_data_files_header_is_refused_in_its_words() {
        let (path, _) = fixture();
        let good = std::fs::read(&path).unwrap();
        let mut version = good.clone();
        version[8] = 2;
        let mut block = good.clone();
        block[29] = 0x20;
        let dir = crate::tables::scratch::scratch("net-data-faults");
        let file = dir.0.join("faulty.bin");
        let twelve = Rules::preset("twelve").unwrap();
        for (bytes, rules, said) in [
            (&good[..], &twelve, "made for other rules (fingerprint "),
            (
                &version[..],
                &Rules::nine(),
                "format version 2, this engine reads version 1",
            ),
            (&block[..], &Rules::nine(), "blocks of 8192, not 4096"),
            (
                &good[..20],
                &Rules::nine(),
                "cut inside its header (20 bytes of 32)",
            ),
        ] {
            std::fs::write(&file, bytes).unwrap();
            let e = read(&file, rules).unwrap_err().to_string();
            assert!(e.contains("faulty.bin: ") && e.contains(said), "{e}");
        }
    }
}
