//! Measures the cost of a probe of the tables of the standard rules (`nine`): a built tables
//! directory or a packed set, the same positions either way. Draws positions evenly over the
//! moving tables (by their size) and the placing groups, asks the files to leave the page cache
//! first (`posix_fadvise`, so the first pass reads the disk as a fresh machine does), then probes
//! them twice: the first pass cold, the second warm. Prints the time to open the tables and the
//! mean cost of a probe in each pass, by kind.
//!
//! `cargo run --release --example probe_bench -- DIR [POSITIONS] [SEED] [--keep-cache]
//! [--left L]` (POSITIONS 20,000 by default; `--keep-cache` leaves the page cache as it is;
//! `--left L` draws the placing positions from the groups of `L` placements left only).

use moulin::rng::Rng;
use moulin::rules::position::Position;
use moulin::tables::groups;
use moulin::tables::index::{Classes, PairIndex};
use moulin::tables::Tables;
use moulin::Rules;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// Asks the system to drop every regular file under `dir` from its page cache.
fn leave_cache(dir: &Path) {
    use std::os::unix::io::AsRawFd;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            leave_cache(&path);
        } else if let Ok(f) = std::fs::File::open(&path) {
            // SAFETY: advice on an open file descriptor; a failure only leaves pages cached.
            unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: probe_bench DIR [POSITIONS] [SEED] [--keep-cache]");
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| -> u64 {
        args.get(i)
            .filter(|a| !a.starts_with("--") && args.get(i - 1).is_none_or(|p| p != "--left"))
            .map_or(default, |a| a.parse().unwrap_or(default))
    };
    let (n, seed) = (number(1, 20_000), number(2, 1));
    let dir = Path::new(dir);
    if !args.iter().any(|a| a == "--keep-cache") {
        leave_cache(dir);
    }
    let rules = Rules::nine();
    let start = Instant::now();
    let tables = Tables::open(dir, &rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let opened = start.elapsed().as_secs_f64();
    let mut draw = Rng::new(seed);
    // Moving positions: a pair drawn by its size, a canonical slot in it.
    let pairs: Vec<(usize, usize, PairIndex)> = tables
        .pairs()
        .into_iter()
        .map(|(m, o)| (m, o, PairIndex::new(m, o, tables.classes())))
        .collect();
    let total: u64 = pairs.iter().map(|p| p.2.len()).sum();
    let mut moving: Vec<(u32, u32)> = Vec::new();
    while (moving.len() as u64) < n {
        let mut at = draw.next_u64() % total;
        for (_, _, index) in &pairs {
            if at < index.len() {
                if index.is_canonical(at) {
                    moving.push(index.position(at));
                }
                break;
            }
            at -= index.len();
        }
    }
    let classes = Classes::new(9);
    let left: Option<u8> = args
        .iter()
        .position(|a| a == "--left")
        .and_then(|i| args.get(i + 1)?.parse().ok());
    let all: Vec<_> = groups::all(&rules)
        .into_iter()
        .filter(|g| left.is_none_or(|l| g.left == l))
        .collect();
    let mut placing: Vec<Position> = Vec::new();
    if tables
        .placing()
        .is_some_and(moulin::tables::placing::solution::Solution::is_whole)
    {
        while (placing.len() as u64) < n {
            let g = all[(draw.next_u64() % all.len() as u64) as usize];
            let index = PairIndex::new(g.mover as usize, g.other as usize, &classes);
            let slot = draw.next_u64() % index.len();
            if index.is_canonical(slot) {
                let (ours, theirs) = index.position(slot);
                placing.push(moulin::tables::groups::position(&rules, g, ours, theirs));
            }
        }
    }
    println!(
        "{}: opened in {opened:.3} s; {} moving positions, {} placing positions",
        dir.display(),
        moving.len(),
        placing.len()
    );
    for pass in ["cold", "warm"] {
        let t = Instant::now();
        let mut known = 0u64;
        for &(ours, theirs) in &moving {
            known += u64::from(black_box(tables.value(ours, theirs)).is_some());
        }
        let per_moving = t.elapsed().as_secs_f64() * 1e6 / moving.len().max(1) as f64;
        let t = Instant::now();
        for pos in &placing {
            known += u64::from(black_box(tables.placing_value(pos)).is_some());
        }
        let per_placing = t.elapsed().as_secs_f64() * 1e6 / placing.len().max(1) as f64;
        println!(
            "{pass}: moving {per_moving:.2} us a probe, placing {per_placing:.2} us a probe ({known} known)"
        );
    }
}
