//! Measures what each technique would buy the packed set's bytes, on samples of blocks drawn from
//! built table files (`.tbl`) and placing groups (`.plc`): today's zstd frames (level 19, one a
//! block of 4 KiB) against the same blocks with a dictionary per table, blocks of 8 KiB, the
//! spare slots of symmetric classes (and the placing's slots that hold no position) filled from
//! their neighbours, transforms of the value bytes (byte planes, ranks by frequency, the
//! win/draw/loss apart from the distances) and "don't care" wins in one ply (`Win(1)`, a
//! position whose mill-closing move wins, found again by a probe's look at its removals). Each
//! technique's bytes are given as a ratio to today's on the same blocks. Reads the files only
//! (the blocks sampled, with `pread`).
//!
//! `cargo run --release --example pack_study -- [--blocks N] [--seed S] [--frames] FILE...`
//! (N: blocks of 8 KiB drawn from each file to compress, 600 by default; as many again of
//! 4 KiB, elsewhere in the file, train its dictionaries; `--frames`: frames of 4 to 32 KiB of
//! values, N of 32 KiB a file, with the time to unpack one);
//! `... -- --dont-care DIR M-O [POSITIONS]` (what a probe of table M-O of the build DIR would
//! cost with its wins in one ply left "don't care");
//! `... -- --pack OUT FILE...` (each file packed whole in format 3 into OUT, against format 2's
//! bytes, and checked back);
//! `... -- --orders [--blocks N] FILE...` (moving tables: runs of 8192 positions in the index's
//! order against the points numbered otherwise, or the mover's set varying fastest);
//! `... -- --features RUNS FILE...` (narrow moving tables: a static model of each value by the
//! value before it and the position's features, against zstd).

use moulin::rng::Rng;
use moulin::tables::index::{Classes, PairIndex};
use std::collections::HashMap;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The bytes of a values file's header (a table's and a placing group's alike).
const HEADER: u64 = 40;

/// Whether the file `name` is a placing group's (`.plc`), not a moving table's (`.tbl`).
fn is_placing(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("plc"))
}

/// How one file's values are laid out.
#[derive(Clone, Copy)]
enum Kind {
    /// A moving table of this many bytes a value (1 or 2).
    Moving(usize),
    /// A placing group: four codes of two bits a byte.
    Placing,
}

/// How the values of a block are rewritten before zstd.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Transform {
    /// As stored.
    Raw,
    /// A moving table's win/draw/loss in two bits a value, then the distances of the values not
    /// drawn (a wide table's low bytes, then their high bytes); a placing group's codes a byte
    /// each.
    Split,
    /// Each value replaced by its rank by frequency in the table (a wide table's ranks from 255
    /// on escaped: 255 then the code).
    Rank,
    /// A wide table's values in a byte each as a narrow table's (`Value::byte`) where their
    /// distance is at most 126 plies, else an escape (127 a win, 255 a loss) and the code.
    Escape,
}

/// One sampled file.
struct Sample {
    name: String,
    kind: Kind,
    /// The canonical-slot test's pair (mover, other).
    pair: (usize, usize),
    /// Blocks of 8 KiB to compress, and their first byte in the values.
    test: Vec<(u64, Vec<u8>)>,
    /// Blocks of 4 KiB to train dictionaries on.
    train: Vec<(u64, Vec<u8>)>,
    /// The table's values by frequency, most frequent first (codes).
    ranks: HashMap<u16, u16>,
}

/// Nothing filled.
const NONE: Fill = Fill {
    spare: false,
    win1: false,
};
/// The spare slots filled.
const SPARE: Fill = Fill {
    spare: true,
    win1: false,
};
/// The spare slots and the wins in one ply filled.
const WIN1: Fill = Fill {
    spare: true,
    win1: true,
};

/// Which filling of unneeded values applies.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Fill {
    /// The spare slots (not canonical) and the placing's slots that hold no position.
    spare: bool,
    /// Wins in one ply (moving tables).
    win1: bool,
}

fn codes_of(kind: Kind, bytes: &[u8]) -> Vec<u16> {
    match kind {
        Kind::Moving(1) => bytes.iter().map(|&b| u16::from(b)).collect(),
        Kind::Moving(_) => bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
        Kind::Placing => bytes
            .iter()
            .flat_map(|&b| (0..4).map(move |i| u16::from((b >> (2 * i)) & 3)))
            .collect(),
    }
}

fn bytes_of(kind: Kind, codes: &[u16]) -> Vec<u8> {
    match kind {
        Kind::Moving(1) => codes.iter().map(|&c| c as u8).collect(),
        Kind::Moving(_) => codes.iter().flat_map(|c| c.to_le_bytes()).collect(),
        Kind::Placing => codes
            .chunks(4)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |b, (i, &x)| b | (x as u8) << (2 * i))
            })
            .collect(),
    }
}

/// The values per byte of a kind's storage: codes a byte.
fn per_byte(kind: Kind) -> (u64, u64) {
    match kind {
        Kind::Moving(w) => (1, w as u64),
        Kind::Placing => (4, 1),
    }
}

impl Sample {
    /// The codes of a block starting at byte `at`, unneeded ones filled from the previous one
    /// kept (or the next one kept, at the start).
    fn filled(&self, at: u64, bytes: &[u8], fill: Fill, classes: &Classes) -> (Vec<u16>, usize) {
        let mut codes = codes_of(self.kind, bytes);
        let (num, den) = per_byte(self.kind);
        let first = at * num / den;
        let index = PairIndex::new(self.pair.0, self.pair.1, classes);
        let len = index.len();
        let free: Vec<bool> = codes
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let slot = first + i as u64;
                let spare = fill.spare && (slot >= len || !index.is_canonical(slot));
                if slot < len
                    && matches!(self.kind, Kind::Placing)
                    && c == 0
                    && index.is_canonical(slot)
                {
                    println!("{}: canonical slot {slot} holds no position", self.name);
                }
                let win1 = fill.win1 && matches!(self.kind, Kind::Moving(_)) && c == 1;
                spare || win1
            })
            .collect();
        let freed = free.iter().filter(|&&f| f).count();
        let mut last = codes
            .iter()
            .zip(&free)
            .find(|(_, &f)| !f)
            .map_or(0, |(&c, _)| c);
        for (c, &f) in codes.iter_mut().zip(&free) {
            if f {
                *c = last;
            } else {
                last = *c;
            }
        }
        (codes, freed)
    }

    /// A block's bytes rewritten by `t`.
    fn rewrite(&self, codes: &[u16], t: Transform) -> Vec<u8> {
        match (t, self.kind) {
            // A placing group's codes a byte each.
            (Transform::Split, Kind::Placing) => codes.iter().map(|&c| c as u8).collect(),
            (Transform::Raw, k) | (_, k @ Kind::Placing) => bytes_of(k, codes),
            (Transform::Split, Kind::Moving(w)) => {
                let wdl: Vec<u16> = codes
                    .iter()
                    .map(|&c| match c {
                        0 => 0,
                        c if c >= 0x8000 || (w == 1 && c >= 128) => 2,
                        _ => 1,
                    })
                    .collect();
                let mut out = bytes_of(Kind::Placing, &wdl);
                let d: Vec<u16> = codes
                    .iter()
                    .filter(|&&c| c != 0)
                    .map(|&c| if w == 1 { c & 0x7f } else { c & 0x7fff })
                    .collect();
                out.extend(d.iter().map(|&x| x as u8));
                if w == 2 {
                    out.extend(d.iter().map(|&x| (x >> 8) as u8));
                }
                out
            }
            (Transform::Escape, Kind::Moving(w)) => {
                let mut out = Vec::with_capacity(codes.len() * w);
                for &c in codes {
                    let (loss, d) = (c >= 0x8000, c & 0x7fff);
                    if d < 127 {
                        out.push(if loss { 128 + d as u8 } else { d as u8 });
                    } else {
                        out.push(if loss { 255 } else { 127 });
                        out.extend_from_slice(&c.to_le_bytes());
                    }
                }
                out
            }
            (Transform::Rank, Kind::Moving(w)) => {
                let mut out = Vec::with_capacity(codes.len() * w);
                for &c in codes {
                    let r = self.ranks.get(&c).copied().unwrap_or(u16::MAX);
                    if w == 1 {
                        out.push(r.min(255) as u8);
                    } else if r < 255 {
                        out.push(r as u8);
                    } else {
                        out.push(255);
                        out.extend_from_slice(&c.to_le_bytes());
                    }
                }
                out
            }
        }
    }
}

fn open(path: &Path, blocks: usize, seed: u64, chunk: u64) -> Sample {
    let name = path
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let file = std::fs::File::open(path).expect("open");
    let mut head = [0u8; 40];
    file.read_exact_at(&mut head, 0).expect("header");
    let fields: Vec<usize> = name
        .trim_end_matches(".tbl")
        .trim_end_matches(".plc")
        .split('-')
        .map(|s| s.parse().expect("a number"))
        .collect();
    let (kind, pair) = if is_placing(&name) {
        (Kind::Placing, (fields[1], fields[2]))
    } else {
        (Kind::Moving(head[18] as usize), (fields[0], fields[1]))
    };
    let len = file.metadata().expect("its size").len() - HEADER;
    let mut rng = Rng::new(seed ^ len);
    let mut read = |size: u64| {
        let at = (rng.next_u64() % (len / size).max(1)) * size;
        let n = size.min(len - at) as usize;
        let mut b = vec![0u8; n];
        file.read_exact_at(&mut b, HEADER + at).expect("read");
        (at, b)
    };
    let test: Vec<_> = (0..blocks).map(|_| read(chunk)).collect();
    let train: Vec<_> = (0..blocks).map(|_| read(4096)).collect();
    let mut counts: HashMap<u16, u64> = HashMap::new();
    for (_, b) in &train {
        for c in codes_of(kind, b) {
            *counts.entry(c).or_default() += 1;
        }
    }
    let mut order: Vec<(u16, u64)> = counts.into_iter().collect();
    order.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    let ranks = order
        .iter()
        .enumerate()
        .map(|(r, &(c, _))| (c, r as u16))
        .collect();
    Sample {
        name,
        kind,
        pair,
        test,
        train,
        ranks,
    }
}

/// The bytes of `blocks` as zstd frames at level 19, one a block, with the dictionary `dict` if
/// any.
fn frames(blocks: &[Vec<u8>], dict: Option<&[u8]>) -> u64 {
    let mut c = match dict {
        Some(d) => zstd::bulk::Compressor::with_dictionary(19, d).expect("context"),
        None => zstd::bulk::Compressor::new(19).expect("context"),
    };
    c.set_parameter(zstd::zstd_safe::CParameter::DictIdFlag(false))
        .expect("parameter");
    blocks
        .iter()
        .map(|b| c.compress(b).expect("compress").len() as u64)
        .sum()
}

/// The cross-entropy, in bytes, of the codes of `test` under a static model trained on `train`
/// whose context is the `order` codes before (0: none), counts smoothed by half a count.
fn entropy(train: &[Vec<u16>], test: &[Vec<u16>], order: usize) -> u64 {
    let key = |b: &[u16], i: usize| -> u64 {
        (1..=order).fold(0u64, |k, j| {
            (k << 16) | u64::from(if i >= j { b[i - j] } else { 0xffff })
        })
    };
    let mut counts: HashMap<(u64, u16), f64> = HashMap::new();
    let mut totals: HashMap<u64, f64> = HashMap::new();
    let mut alphabet = std::collections::HashSet::new();
    for b in train {
        for i in 0..b.len() {
            let k = key(b, i);
            *counts.entry((k, b[i])).or_default() += 1.0;
            *totals.entry(k).or_default() += 1.0;
            alphabet.insert(b[i]);
        }
    }
    let symbols = alphabet.len().max(2) as f64 + 1.0;
    let mut bits = 0.0;
    for b in test {
        for i in 0..b.len() {
            let k = key(b, i);
            let n = counts.get(&(k, b[i])).copied().unwrap_or(0.0);
            let t = totals.get(&k).copied().unwrap_or(0.0);
            bits -= ((n + 0.5) / (t + 0.5 * symbols)).log2();
        }
    }
    (bits / 8.0) as u64
}

/// Frames of 4 to 32 KiB of values: for each file, today's coding, the candidate format's (a
/// wide table's values escaped to a byte, a placing group's spare slots filled) and the same
/// with wins in one ply left "don't care" (moving tables): the bytes as a ratio to today's at
/// 4 KiB, and the time to unpack a frame (zstd through the C library, then the escape's
/// inverse), in microseconds.
fn frame_sizes(files: &[String], blocks: usize, seed: u64) {
    let classes = Classes::new(9);
    let mut totals: HashMap<String, (u64, u64)> = HashMap::new();
    println!("file  coding  frame  bytes  ratio-to-today-4K  us-a-frame  us-a-4K");
    for f in files {
        let s = open(Path::new(f), blocks, seed, 32768);
        let wide = matches!(s.kind, Kind::Moving(2));
        let (none, spare, win1) = (NONE, SPARE, WIN1);
        let mut codings = vec![("today", none, Transform::Raw)];
        let t = if wide {
            Transform::Escape
        } else {
            Transform::Raw
        };
        match s.kind {
            Kind::Placing => codings.push(("format 3", spare, t)),
            Kind::Moving(_) => {
                codings.push(("format 3", none, t));
                codings.push(("format 3 + win1", win1, t));
            }
        }
        let mut base = 0;
        for (name, fill, t) in codings {
            for kib in [4usize, 8, 16, 32] {
                let mut frames = Vec::new();
                for (at, b) in &s.test {
                    for (i, part) in b.chunks(kib << 10).enumerate() {
                        let at = at + (i * (kib << 10)) as u64;
                        let codes = s.filled(at, part, fill, &classes).0;
                        frames.push((s.rewrite(&codes, t), part.len()));
                    }
                }
                let mut c = zstd::bulk::Compressor::new(19).expect("context");
                let packed: Vec<(Vec<u8>, usize, usize)> = frames
                    .iter()
                    .map(|(b, n)| (c.compress(b).expect("compress"), b.len(), *n))
                    .collect();
                let bytes: u64 = packed.iter().map(|p| p.0.len() as u64).sum();
                if base == 0 {
                    base = bytes;
                }
                let mut d = zstd::bulk::Decompressor::new().expect("context");
                let start = std::time::Instant::now();
                for (frame, coded, n) in &packed {
                    let plain = d.decompress(frame, *coded).expect("a frame");
                    if t == Transform::Escape {
                        let values = moulin::tables::packed_coding::unescape(&plain, *n);
                        std::hint::black_box(values.expect("the values"));
                    }
                    std::hint::black_box(&plain);
                }
                let us = start.elapsed().as_secs_f64() * 1e6 / packed.len() as f64;
                let ratio = bytes as f64 / base as f64;
                println!(
                    "{}  {name}  {kib}K  {bytes}  {ratio:.3}  {us:.1}  {:.1}",
                    s.name,
                    us * 4.0 / kib as f64
                );
                let row = totals.entry(format!("{name} {kib}K")).or_default();
                row.0 += bytes;
                row.1 += base;
            }
        }
    }
    println!("\nall files: coding frame  ratio-to-today-4K");
    let mut rows: Vec<_> = totals.into_iter().collect();
    rows.sort();
    for (what, (bytes, base)) in rows {
        println!("{what}  {:.3}", bytes as f64 / base as f64);
    }
}

/// Each file packed whole, as `moulin tables pack` packs it (`packed_table::write`, format 3,
/// into `out`), against its bytes in format 2 (a header, sixteen bytes of index a block of 4 KiB,
/// each block a zstd frame at level 19); then the table of format 3 opened, every frame unpacked
/// and checked against the build's checksum of its values, timed.
fn pack_whole(files: &[String], out: &Path) {
    use moulin::tables::groups::Group;
    use moulin::tables::packed_table::{self as table, Meta, PackedTable};
    use moulin::tables::table_key::Key;
    use rayon::prelude::*;
    println!("file  values  format-2  format-3  ratio  check-s");
    let (mut two, mut three) = (0u64, 0u64);
    for f in files {
        let path = Path::new(f);
        let bytes = std::fs::read(path).expect("read");
        let (head, values) = bytes.split_at(HEADER as usize);
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let fields: Vec<u8> = name
            .trim_end_matches(".tbl")
            .trim_end_matches(".plc")
            .split('-')
            .map(|s| s.parse().expect("a number"))
            .collect();
        let (key, width) = if is_placing(&name) {
            let g = Group {
                left: fields[0],
                mover: fields[1],
                other: fields[2],
            };
            (Key::Placing(g), 0)
        } else {
            (Key::Moving(fields[0], fields[1]), head[18])
        };
        let meta = Meta {
            key,
            fingerprint: u64::from_le_bytes(head[8..16].try_into().expect("8 bytes")),
            width,
            len: values.len() as u64,
            extra: 0,
            checksum: u64::from_le_bytes(head[32..40].try_into().expect("8 bytes")),
        };
        let blocks = values.len().div_ceil(4096) as u64;
        let frames: u64 = values
            .par_chunks(4096)
            .map(|b| zstd::bulk::compress(b, 19).expect("compress").len() as u64)
            .sum();
        let v2 = 64 + 16 * blocks + 8 + frames;
        let file = out.join(format!("{name}.pk"));
        let v3 = table::write(
            &file,
            &meta,
            values,
            table::Cut::DEFAULT,
            moulin::tables::frame::Effort::Strong,
        )
        .expect("write");
        let start = std::time::Instant::now();
        let t = PackedTable::open(&file, key, meta.fingerprint, &std::sync::Arc::default())
            .expect("open");
        t.check_all(|_| ()).expect("the build's values");
        let secs = start.elapsed().as_secs_f64();
        std::fs::remove_file(&file).expect("remove");
        println!(
            "{name}  {}  {v2}  {v3}  {:.3}  {secs:.1}",
            values.len(),
            v3 as f64 / v2 as f64
        );
        two += v2;
        three += v3;
    }
    println!("all  {two}  {three}  {:.3}", three as f64 / two as f64);
}

/// What a probe of table `M-O` (a stored one) would cost with its wins in one ply left "don't
/// care": `positions` canonical positions drawn evenly, their removals' results valued from the
/// table they lead to (`O-1`-`M`, read from the built directory `dir`). Prints the share of
/// positions with a mill-closing move (which a probe must look at), of wins in one ply, and the
/// removals looked at until a winning one (all of them where none wins), with the successors a
/// removal's result has (each a probe where that table is derived in the set).
fn dont_care(dir: &Path, pair: &str, positions: u64) {
    use moulin::tables::retrograde::{successors, Successor};
    use moulin::tables::{file, fingerprint, Tables, Value};
    let (m, o) = pair
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .expect("a pair M-O");
    let rules = moulin::Rules::nine();
    let mut tables = Tables::empty(&rules, 9);
    let print = fingerprint(&rules);
    for (a, b) in [(m, o), (o - 1, m)] {
        let values = file::read(&file::path(dir, a, b), print, a, b).expect("a table");
        tables.insert(a, b, values);
    }
    let index = PairIndex::new(m, o, tables.classes());
    let len = index.len();
    let (mut looked, mut closing, mut win1, mut removals, mut removals_all, mut succ) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut next, mut inner) = (Vec::new(), Vec::new());
    let none = |_: u32, _: u32| Some(Value::Draw);
    for i in 0..positions {
        let slot = i * len / positions;
        if !index.is_canonical(slot) {
            continue;
        }
        looked += 1;
        let (ours, theirs) = index.position(slot);
        let exits = std::cell::RefCell::new(Vec::new());
        let exit = |a: u32, b: u32| {
            exits.borrow_mut().push((a, b));
            tables.value(a, b)
        };
        successors(&rules, ours, theirs, &exit, &mut next).expect("successors");
        let exits = exits.into_inner();
        let won: Vec<bool> = next
            .iter()
            .filter_map(|s| match s {
                // The result's value is for the other side: a loss for it wins.
                Successor::Exit(v) => Some(matches!(v, Value::Loss(_))),
                Successor::Stay { .. } => None,
            })
            .collect();
        if won.is_empty() {
            continue;
        }
        closing += 1;
        let until = won.iter().position(|&w| w).map_or(won.len(), |p| p + 1);
        win1 += u64::from(won.contains(&true));
        removals += until as u64;
        removals_all += won.len() as u64;
        for &(a, b) in exits.iter().take(until) {
            successors(&rules, a, b, &none, &mut inner).expect("successors");
            succ += inner.len() as u64;
        }
    }
    let per = |x: u64, n: u64| x as f64 / n.max(1) as f64;
    println!(
        "{m}-{o}: {looked} positions; {:.1}% with a mill-closing move, {:.1}% won by a removal; \
         a look probes {:.2} removals' results until a winning one ({:.2} all of them), \
         each with {:.1} successors (probes, where {}-{m} is derived)",
        100.0 * per(closing, looked),
        100.0 * per(win1, looked),
        per(removals, closing),
        per(removals_all, closing),
        per(succ, removals),
        o - 1
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--pack") {
        pack_whole(&args[2..], Path::new(&args[1]));
        return;
    }
    if args.first().map(String::as_str) == Some("--dont-care") {
        let n = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20_000);
        dont_care(Path::new(&args[1]), &args[2], n);
        return;
    }
    let (mut blocks, mut seed, mut files) = (600usize, 1u64, Vec::new());
    let (mut frames_only, mut orders_only) = (false, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--blocks" => blocks = it.next().and_then(|s| s.parse().ok()).expect("--blocks N"),
            "--seed" => seed = it.next().and_then(|s| s.parse().ok()).expect("--seed S"),
            "--frames" => frames_only = true,
            "--orders" => orders_only = true,
            f => files.push(f.to_string()),
        }
    }
    if args.first().map(String::as_str) == Some("--features") {
        let runs = args
            .get(1)
            .and_then(|s| s.parse().ok())
            .expect("--features RUNS FILE...");
        feature_study(&args[2..], runs, 1);
        return;
    }
    if orders_only {
        orders(&files, blocks, seed);
        return;
    }
    if frames_only {
        frame_sizes(&files, blocks, seed);
        return;
    }
    techniques(&files, blocks, seed);
}

/// Every technique measured on each file, and the ratios over all the files.
fn techniques(files: &[String], blocks: usize, seed: u64) {
    let classes = Classes::new(9);
    println!("file  kind  technique  bytes  ratio-to-today  (blocks of 8 KiB: {blocks} a file)");
    let mut totals: HashMap<String, (u64, u64)> = HashMap::new();
    for f in files {
        let s = open(Path::new(f), blocks, seed, 8192);
        file_techniques(&s, &classes, &mut totals);
    }
    println!("\nall files: technique  ratio-to-today");
    let mut rows: Vec<_> = totals.into_iter().collect();
    rows.sort();
    for (what, (bytes, base)) in rows {
        println!("{what}  {:.3}", bytes as f64 / base as f64);
    }
}

/// Every technique measured on the sample `s`, each ratio added to `totals`.
fn file_techniques(s: &Sample, classes: &Classes, totals: &mut HashMap<String, (u64, u64)>) {
    let kind = match s.kind {
        Kind::Moving(w) => format!("moving/{w}"),
        Kind::Placing => "placing".to_string(),
    };
    let raw: Vec<Vec<u8>> = s.test.iter().map(|(_, b)| b.clone()).collect();
    let halves: Vec<Vec<u8>> = raw
        .iter()
        .flat_map(|b| b.chunks(4096).map(<[u8]>::to_vec))
        .collect();
    let base = frames(&halves, None);
    let values: u64 = raw.iter().map(|b| b.len() as u64).sum();
    let mut say = |what: &str, bytes: u64| {
        let ratio = bytes as f64 / base as f64;
        println!("{}  {kind}  {what}  {bytes}  {ratio:.3}", s.name);
        let t = totals.entry(what.to_string()).or_default();
        t.0 += bytes;
        t.1 += base;
    };
    say("today (4 KiB, level 19)", base);
    println!(
        "{}  {kind}  values {values} bytes: today {:.2} bits a value byte",
        s.name,
        base as f64 * 8.0 / values as f64
    );
    let (none, spare, win1) = (NONE, SPARE, WIN1);
    let transforms: &[Transform] = match s.kind {
        Kind::Placing | Kind::Moving(1) => &[Transform::Raw, Transform::Split],
        Kind::Moving(_) => &[
            Transform::Raw,
            Transform::Split,
            Transform::Rank,
            Transform::Escape,
        ],
    };
    let fills: &[Fill] = match s.kind {
        Kind::Placing => &[none, spare],
        Kind::Moving(_) => &[none, spare, win1],
    };
    for &fill in fills {
        let mut counted = (0usize, 0usize);
        for &t in transforms {
            technique(s, fill, t, classes, &mut say, &mut counted);
            if t == Transform::Raw && fill != none {
                println!(
                    "{}  {kind}  {fill:?}: {:.2}% of the values free",
                    s.name,
                    100.0 * counted.0 as f64 / counted.1 as f64
                );
            }
        }
    }
}

/// The technique of `fill` and `t` measured on the sample `s` (`say` tells each figure;
/// `counts`, the values freed and all, with `Transform::Raw`).
fn technique(
    s: &Sample,
    fill: Fill,
    t: Transform,
    classes: &Classes,
    say: &mut dyn FnMut(&str, u64),
    counts: &mut (usize, usize),
) {
    let none = NONE;
    // Each block of values rewritten alone: 4 KiB of values, or 8 KiB.
    let (mut test4, mut test8) = (Vec::new(), Vec::new());
    for (at, b) in &s.test {
        let (codes, n) = s.filled(*at, b, fill, classes);
        if t == Transform::Raw {
            counts.0 += n;
            counts.1 += codes.len();
        }
        let half = codes.len() / 2;
        test4.push(s.rewrite(&codes[..half], t));
        test4.push(s.rewrite(&codes[half..], t));
        test8.push(s.rewrite(&codes, t));
    }
    let train: Vec<Vec<u8>> = s
        .train
        .iter()
        .map(|(at, b)| s.rewrite(&s.filled(*at, b, fill, classes).0, t))
        .collect();
    let tag = format!("{t:?} spare={} win1={}", fill.spare, fill.win1);
    if fill != none || t != Transform::Raw {
        say(&format!("{tag} 4K"), frames(&test4, None));
    }
    say(&format!("{tag} 8K"), frames(&test8, None));
    if t == Transform::Raw {
        let codes = |v: &[(u64, Vec<u8>)]| -> Vec<Vec<u16>> {
            v.iter()
                .map(|(at, b)| s.filled(*at, b, fill, classes).0)
                .collect()
        };
        let (tr, te) = (codes(&s.train), codes(&s.test));
        for order in [0, 1, 2] {
            say(
                &format!("{tag} entropy order {order}"),
                entropy(&tr, &te, order),
            );
        }
    }
    for kib in [16usize, 64] {
        let Ok(dict) = zstd::dict::from_samples(&train, kib << 10) else {
            continue;
        };
        say(
            &format!("{tag} 4K dict {kib}K"),
            frames(&test4, Some(&dict)),
        );
        if kib == 64 {
            say(
                &format!("{tag} 8K dict {kib}K"),
                frames(&test8, Some(&dict)),
            );
        }
    }
}

/// The next larger number with as many set bits (Gosper's hack).
fn next_set(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// The set of `k` of the points `0..` at colex rank `r`.
fn set_at(mut r: u64, k: usize) -> u32 {
    let mut out = 0;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while moulin::tables::index::binomial(p + 1, i) <= r {
            p += 1;
        }
        r -= moulin::tables::index::binomial(p, i);
        out |= 1 << p;
    }
    out
}

/// The low bits of `packed` onto the set bits of `mask`, one at a time.
fn spread(mut packed: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while packed != 0 && mask != 0 {
        let low = mask & mask.wrapping_neg();
        if packed & 1 != 0 {
            out |= low;
        }
        packed >>= 1;
        mask ^= low;
    }
    out
}

/// A moving table's file `f` opened: its name, the file, and its pair (from the name).
fn open_table(f: &str) -> (String, std::fs::File, (usize, usize)) {
    let path = Path::new(f);
    let name = path
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let file = std::fs::File::open(path).expect("open");
    let ab: Vec<usize> = name
        .trim_end_matches(".tbl")
        .split('-')
        .map(|s| s.parse().expect("a number"))
        .collect();
    (name, file, (ab[0], ab[1]))
}

/// A numbering of the points: its name, and each point's new number.
type Numbering = (&'static str, fn(u32) -> u32);

/// A table file's bytes, mapped read-only for the process's life.
fn map_whole(file: &std::fs::File) -> &'static [u8] {
    let len = file.metadata().expect("its size").len() as usize;
    // SAFETY: a read-only private mapping of a file no one writes while it is studied, never
    // unmapped.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_PRIVATE,
            std::os::fd::AsRawFd::as_raw_fd(file),
            0,
        );
        assert!(p != libc::MAP_FAILED, "mmap");
        std::slice::from_raw_parts(p as *const u8, len)
    }
}

/// What the order of a table's positions does to its bytes: runs of 8192 positions in the
/// stored order (by the index) against runs where the points are numbered otherwise (the
/// colex order of each set then varies other points fastest), the mover's set or the other
/// side's varying fastest. Each run's values are a narrow table's bytes (a wide value escaped),
/// packed as one zstd frame at level 19.
fn orders(files: &[String], runs: usize, seed: u64) {
    let classes = Classes::new(9);
    // Point `8 * ring + k` (inner ring first, clockwise from the top middle) renumbered.
    let numberings: [Numbering; 4] = [
        ("rings", |p| p),
        ("spokes", |p| 3 * (p % 8) + p / 8),
        ("outer-first", |p| 8 * (2 - p / 8) + p % 8),
        ("middles-first", |p| {
            (p % 2) * 12 + (p / 8) * 4 + (p % 8) / 2
        }),
    ];
    println!("file  order  bytes  ratio-to-stored  ({runs} runs of 8192 positions a file)");
    let mut totals: Vec<(String, u64)> = Vec::new();
    for f in files {
        let (name, file, (a, b)) = open_table(f);
        let mut head = [0u8; 40];
        file.read_exact_at(&mut head, 0).expect("header");
        let width = head[18] as usize;
        let map = map_whole(&file);
        let len = map.len();
        let index = PairIndex::new(a, b, &classes);
        let value = |mover: u32, other: u32| -> Vec<u8> {
            let slot = index.slot(mover, other) as usize;
            let at = HEADER as usize + slot * width;
            let c = if width == 1 {
                let v = map[at];
                return vec![v];
            } else {
                u16::from_le_bytes([map[at], map[at + 1]])
            };
            let (loss, d) = (c >= 0x8000, c & 0x7fff);
            if d < 127 {
                vec![if loss { 128 + d as u8 } else { d as u8 }]
            } else {
                let mut v = vec![if loss { 255 } else { 127 }];
                v.extend_from_slice(&c.to_le_bytes());
                v
            }
        };
        let pack = |run: &[u8]| zstd::bulk::compress(run, 19).expect("zstd").len() as u64;
        let mut rng = Rng::new(seed ^ len as u64);
        let mut row: Vec<(String, u64)> = Vec::new();
        // The stored order.
        let mut bytes = 0;
        for _ in 0..runs {
            let start = rng.next_u64() % (index.len() - 8192);
            let mut run = Vec::new();
            for (_, m, o) in index.positions(start..start + 8192) {
                run.extend(value(m, o));
            }
            bytes += pack(&run);
        }
        row.push(("stored".into(), bytes));
        for (label, renumber) in numberings {
            let mut back = [0u32; 24];
            for p in 0..24 {
                back[renumber(p) as usize] = p;
            }
            for fast in ["other-fast", "mover-fast"] {
                let bytes = renumbered(&back, fast == "mover-fast", (a, b), runs, &mut rng, &value);
                row.push((format!("{label}/{fast}"), bytes));
            }
        }
        let base = row[0].1 as f64;
        for (label, bytes) in &row {
            println!("{name}  {label}  {bytes}  {:.3}", *bytes as f64 / base);
            match totals.iter_mut().find(|(l, _)| l == label) {
                Some(t) => t.1 += bytes,
                None => totals.push((label.clone(), *bytes)),
            }
        }
    }
    let base = totals[0].1 as f64;
    println!("\nall files:");
    for (label, bytes) in &totals {
        println!("{label}  {bytes}  {:.3}", *bytes as f64 / base);
    }
}

/// The zstd bytes of `runs` runs of 8192 positions of table `(a, b)` whose points are numbered
/// by `back` (a new number's point), the other side's set varying fastest (or the mover's, with
/// `mover_fast`), each value as `value` gives it.
fn renumbered(
    back: &[u32; 24],
    mover_fast: bool,
    (a, b): (usize, usize),
    runs: usize,
    rng: &mut Rng,
    value: &dyn Fn(u32, u32) -> Vec<u8>,
) -> u64 {
    let unmap = |set: u32| {
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            out |= 1 << back[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        out
    };
    let (outer, inner) = if mover_fast { (b, a) } else { (a, b) };
    let binomial = moulin::tables::index::binomial;
    let all = 1u32 << 24;
    let limit = 1u32 << (24 - outer);
    let mut bytes = 0;
    for _ in 0..runs {
        let mut slow = set_at(rng.next_u64() % binomial(24, outer), outer);
        let mut fast = set_at(rng.next_u64() % binomial(24 - outer, inner), inner);
        let mut run = Vec::new();
        for _ in 0..8192 {
            let spread_fast = unmap(spread(fast, !slow & (all - 1)));
            let (m, o) = if mover_fast {
                (spread_fast, unmap(slow))
            } else {
                (unmap(slow), spread_fast)
            };
            run.extend(value(m, o));
            fast = next_set(fast);
            if fast >= limit {
                fast = (1 << inner) - 1;
                slow = next_set(slow);
                if slow >= all {
                    slow = (1 << outer) - 1;
                }
            }
        }
        bytes += zstd::bulk::compress(&run, 19).expect("zstd").len() as u64;
    }
    bytes
}

/// A moving position's features a coder could compute before it decodes the value: the mover's
/// and the other side's mill-closing steps (0, 1, 2 or more) and moves (none, 1-2, 3-5, 6-9,
/// 10 or more).
fn features(rules: &moulin::rules::Rules, ours: u32, theirs: u32) -> u16 {
    use moulin::rules::movegen::generate;
    use moulin::rules::notation::Convention;
    let look = |a: u32, b: u32| {
        let pos = moulin::tables::retrograde::position(rules, a, b);
        let mut moves = Vec::with_capacity(64);
        generate(&pos, Convention::Action, &mut moves);
        let closing = moves
            .iter()
            .filter(|&&mv| {
                let mut p = pos;
                p.play(mv);
                p.pending_removals() > 0
            })
            .count()
            .min(2) as u16;
        let mobility = match moves.len() {
            0 => 0,
            1..=2 => 1,
            3..=5 => 2,
            6..=9 => 3,
            _ => 4,
        };
        closing * 5 + mobility
    };
    look(ours, theirs) * 15 + look(theirs, ours)
}

/// Bits of `test` under a static model trained on `train`: each value by its context (the value
/// before it, and/or the position's features), counts smoothed towards the value's frequency
/// given the features alone, then alone.
fn model_bits(
    train: &[(u16, u16, u16)],
    test: &[(u16, u16, u16)],
    use_prev: bool,
    use_feat: bool,
) -> f64 {
    let mut full: HashMap<(u16, u16), HashMap<u16, f64>> = HashMap::new();
    let mut by_feat: HashMap<u16, HashMap<u16, f64>> = HashMap::new();
    let mut global: HashMap<u16, f64> = HashMap::new();
    let key = |&(prev, feat, _): &(u16, u16, u16)| {
        (
            if use_prev { prev } else { 0 },
            if use_feat { feat } else { 0 },
        )
    };
    for t in train {
        *full.entry(key(t)).or_default().entry(t.2).or_default() += 1.0;
        let f = if use_feat { t.1 } else { 0 };
        *by_feat.entry(f).or_default().entry(t.2).or_default() += 1.0;
        *global.entry(t.2).or_default() += 1.0;
    }
    let total: f64 = global.values().sum();
    let symbols = 300.0;
    let mut bits = 0.0;
    for t in test {
        let p0 = (global.get(&t.2).copied().unwrap_or(0.0) + 0.5) / (total + 0.5 * symbols);
        let f = if use_feat { t.1 } else { 0 };
        let p1 = by_feat.get(&f).map_or(p0, |h| {
            let n: f64 = h.values().sum();
            (h.get(&t.2).copied().unwrap_or(0.0) + 2.0 * p0) / (n + 2.0)
        });
        let p2 = full.get(&key(t)).map_or(p1, |h| {
            let n: f64 = h.values().sum();
            (h.get(&t.2).copied().unwrap_or(0.0) + 2.0 * p1) / (n + 2.0)
        });
        bits -= p2.log2();
    }
    bits
}

/// What a model of the position would buy: runs of 8192 values of narrow tables, zstd's bytes
/// against the static models' (the value before, the position's features, both).
fn feature_study(files: &[String], runs: usize, seed: u64) {
    let classes = Classes::new(9);
    let rules = moulin::rules::Rules::nine();
    println!(
        "file  zstd  prev  features  both  (bytes; {runs} runs of 8192 to test, as many to train)"
    );
    for f in files {
        let (name, file, (a, b)) = open_table(f);
        let index = PairIndex::new(a, b, &classes);
        let mut rng = Rng::new(seed ^ index.len());
        let mut sample = |n: usize| {
            let mut out = Vec::new();
            let mut zbytes = 0;
            for _ in 0..n {
                let start = rng.next_u64() % (index.len() - 8192);
                let mut bytes = vec![0u8; 8192];
                file.read_exact_at(&mut bytes, HEADER + start)
                    .expect("read");
                zbytes += zstd::bulk::compress(&bytes, 19).expect("zstd").len() as u64;
                let mut prev = 0u16;
                for ((_, m, o), &b) in index.positions(start..start + 8192).zip(&bytes) {
                    out.push((prev, features(&rules, m, o), u16::from(b)));
                    prev = u16::from(b);
                }
            }
            (out, zbytes)
        };
        let (train, _) = sample(runs);
        let (test, zbytes) = sample(runs);
        let bytes = |p, f| (model_bits(&train, &test, p, f) / 8.0) as u64;
        let (prev, feat, both) = (bytes(true, false), bytes(false, true), bytes(true, true));
        let r = |x: u64| x as f64 / zbytes as f64;
        println!(
            "{name}  {zbytes}  {prev} ({:.3})  {feat} ({:.3})  {both} ({:.3})",
            r(prev),
            r(feat),
            r(both)
        );
    }
}
