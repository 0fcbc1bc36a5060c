//! The network evaluation: a small network in the NNUE manner, learned from the solution's
//! exact values (`moulin train net`, `src/train/net.rs`), read from a file found like the book.
//!
//! **Inputs.** Each side's view of a position is [`INPUTS`] sparse features: one for each point
//! its own pieces hold, one for each point the other side's pieces hold, one for its own hand's
//! count and one for the other hand's, and one for each mill line that is a threat: two of one
//! side's pieces and its third point empty (two of a mill, or two to block), or a closed mill:
//! eight a line (`THREAT`, `line_feature`); any other filling of a line is no feature, so most
//! steps change no line's row. The lines are the standard board's 16, whatever the rules' board
//! (a network for a board with diagonals would not see its diagonal mills; only the standard
//! game ships one). Both views are made of the same weights (the side is what differs), so one
//! position has two views, White's and Black's, of about twenty features each.
//!
//! **The accumulator.** The first layer is a sum of the weight rows of the features that are on
//! plus a bias: [`HIDDEN`] integers per view, kept for each view in an [`Accumulator`]. A move
//! changes a few features (a point filled or emptied, a hand's count), so a search updates the
//! accumulator of a position from that of a position near it (its parent, or its sibling) by
//! adding and subtracting the rows of the features that differ (`Network::update`), in `i16`,
//! instead of summing every row again.
//!
//! **The output.** Each view's sums are clipped to `[0, QA]` (a clipped `ReLU`), the side to
//! move's view first, and weighed by one of [`BUCKETS`] output layers chosen by the phase
//! (early placing, late placing, moving, flying: `bucket`): an `i32` sum, scaled into
//! centi-pieces (`Network::output`). Every number is an integer: the loops are written over
//! fixed-size arrays so that the compiler makes them SIMD (SSE2 or AVX2 on x86-64, NEON on
//! ARM), and any machine gives the same numbers.
//!
//! **The file** (little-endian): the magic `MOULNNUE`, the format's version, the rules'
//! fingerprint (`tables::placing::fingerprint`: every option that changes a value), the
//! variant's name, the shape (inputs, hidden, buckets), the scale and the two quantization
//! factors, the command that made it, then the weights (input rows, bias, output layers, output
//! biases) and a checksum of everything before it. A file of another shape, version or rules, or
//! damaged, is refused with the reason (`NetworkError`).

use super::score::EVAL_LIMIT;
use crate::rules::board::{Color, POINTS};
use crate::rules::position::Position;
use crate::rules::Rules;
use std::path::{Path, PathBuf};

/// The counts a hand may hold: 0 to 12.
pub const HANDS: usize = 13;
/// The mill lines of the standard board, whose threats are features (`THREAT`).
pub const LINES: usize = 16;
/// The features of a line: the view's side's two pieces and the third point empty (one for
/// each point that may be the empty one), the same of the other side, and a closed mill of each.
const THREATS: usize = 8;
/// The first line feature.
const LINE_BASE: usize = 2 * POINTS + 2 * HANDS;
/// The features of one view: own pieces, the other's pieces, own hand, the other's hand, and
/// each mill line's threat.
pub const INPUTS: usize = LINE_BASE + LINES * THREATS;
/// The first layer's width, per view.
pub const HIDDEN: usize = 256;
/// The output layers, one per phase (`bucket`).
pub const BUCKETS: usize = 4;
/// The first layer's quantization: 1.0 is `QA`, and the clipped `ReLU` clips at `QA`.
pub const QA: i32 = 255;
/// The output layer's quantization: 1.0 is `QB`.
pub const QB: i32 = 256;
/// The largest weight a quantized layer holds, as a float (so that no sum overflows).
pub const WEIGHT_LIMIT: f32 = 1.98;
/// The features on in one view at most: every point, two hands and every line.
pub const MAX_ACTIVE: usize = POINTS + 2 + LINES;

/// The bytes every network file begins with (what a writer recognises as its own output).
pub const MAGIC: &[u8; 8] = b"MOULNNUE";
const VERSION: u32 = 1;
/// The most bytes a network file may have: the header's text is short, the weights fixed.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// The file name of a variant's network, looked for like the book (`shipped::find_shipped`).
pub fn file_name(variant: &str) -> String {
    format!("{variant}.nnue")
}

/// The network file that ships for the preset `variant`, where it is found (as the book is).
pub fn shipped_path(variant: &str) -> Option<std::path::PathBuf> {
    crate::shipped::find_shipped(&file_name(variant))
}

/// The network file a setting names (`EvalFile`, `--eval-file`): `none` (any case) for none,
/// empty for the one that ships for the preset of `rules` (custom rules have none), else the
/// path it gives.
pub fn chosen_path(setting: &std::ffi::OsStr, rules: &Rules) -> Option<std::path::PathBuf> {
    if setting.is_empty() {
        shipped_path(rules.preset_name()?)
    } else if setting.eq_ignore_ascii_case("none") {
        None
    } else {
        Some(setting.into())
    }
}

/// The feature of `perspective`'s view that a piece of `owner` on point `point` sets.
#[inline]
pub fn piece_feature(perspective: Color, owner: Color, point: usize) -> usize {
    if owner == perspective {
        point
    } else {
        POINTS + point
    }
}

/// The feature of `perspective`'s view that `owner`'s hand of `count` pieces sets.
#[inline]
pub fn hand_feature(perspective: Color, owner: Color, count: u8) -> usize {
    let count = usize::from(count).min(HANDS - 1);
    if owner == perspective {
        2 * POINTS + count
    } else {
        2 * POINTS + HANDS + count
    }
}

/// The points of each mill line of the standard board, lowest first, and the lines through
/// each point (a bit a line).
struct Lines {
    points: [[u8; 3]; LINES],
    through: [u16; POINTS],
}

impl Lines {
    /// The lines through any point of `points` (a bit a line).
    #[inline]
    fn through_any(&self, points: u32) -> u16 {
        let mut points = points & ((1 << POINTS) - 1);
        let mut out = 0;
        while points != 0 {
            out |= self.through[points.trailing_zeros() as usize];
            points &= points - 1;
        }
        out
    }

    /// The points of `set` on line `l`, as three bits (a bit for each of its points, lowest
    /// point first).
    #[inline]
    fn on(&self, l: usize, set: u32) -> usize {
        let [a, b, c] = self.points[l];
        ((set >> a) & 1 | ((set >> b) & 1) << 1 | ((set >> c) & 1) << 2) as usize
    }

    /// The threat features of line `l` in White's view and in Black's (`NO_THREAT` for none)
    /// where White holds `white` and Black `black`.
    #[inline]
    fn threats(&self, l: usize, white: u32, black: u32) -> [u8; 2] {
        let (w, b) = (self.on(l, white), self.on(l, black));
        [THREAT[w | b << 3], THREAT[b | w << 3]]
    }
}

fn lines() -> &'static Lines {
    static LINES_OF: std::sync::OnceLock<Lines> = std::sync::OnceLock::new();
    LINES_OF.get_or_init(|| {
        let topology = crate::rules::board::BoardKind::Standard.topology();
        debug_assert_eq!(topology.line_count, LINES);
        let mut out = Lines {
            points: [[0; 3]; LINES],
            through: [0; POINTS],
        };
        for (l, line) in topology.lines[..LINES].iter().enumerate() {
            let mut bits = line.0;
            for k in 0..3 {
                let p = bits.trailing_zeros() as u8;
                out.points[l][k] = p;
                out.through[p as usize] |= 1 << l;
                bits &= bits - 1;
            }
        }
        out
    })
}

/// No threat on a line (`THREAT`).
const NO_THREAT: u8 = u8::MAX;

/// A line's threat feature (`0..THREATS`) by its filling, `own | theirs << 3` (the view's
/// side's points of the line and the other's, three bits each): 0 to 2 for two of the view's
/// side's pieces with that point of the line empty, 3 to 5 for two of the other's, 6 and 7 for
/// a closed mill of either; `NO_THREAT` for any other filling (most steps change no line's
/// feature).
const THREAT: [u8; 64] = {
    let mut out = [NO_THREAT; 64];
    let mut empty = 0;
    while empty < 3 {
        let two = 7 & !(1 << empty);
        out[two] = empty as u8;
        out[two << 3] = 3 + empty as u8;
        empty += 1;
    }
    out[7] = 6;
    out[7 << 3] = 7;
    out
};

/// The feature of line `l`'s threat `t` (`THREAT`).
#[inline]
fn line_feature(l: usize, t: u8) -> usize {
    LINE_BASE + l * THREATS + usize::from(t)
}

/// What the network sees of a position: each side's pieces and hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Seen {
    /// The pieces of White and Black.
    pub pieces: [u32; 2],
    /// The hands of White and Black.
    pub hands: [u8; 2],
}

impl Seen {
    /// What the network sees of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Seen {
        Seen {
            pieces: [pos.pieces(Color::White).0, pos.pieces(Color::Black).0],
            hands: [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
        }
    }

    /// The features of `perspective`'s view that are on, into `out`; their number.
    pub fn features(&self, perspective: Color, out: &mut [usize; MAX_ACTIVE]) -> usize {
        let mut n = 0;
        for owner in [Color::White, Color::Black] {
            let mut bits = self.pieces[owner as usize];
            while bits != 0 && n < POINTS {
                out[n] = piece_feature(perspective, owner, bits.trailing_zeros() as usize);
                bits &= bits - 1;
                n += 1;
            }
        }
        for owner in [Color::White, Color::Black] {
            out[n] = hand_feature(perspective, owner, self.hands[owner as usize]);
            n += 1;
        }
        let lines = lines();
        for l in 0..LINES {
            let t = lines.threats(l, self.pieces[0], self.pieces[1])[perspective as usize];
            if t != NO_THREAT {
                out[n] = line_feature(l, t);
                n += 1;
            }
        }
        n
    }

    /// The features that differ between `self` and `to` in each view (White's, then Black's):
    /// those to remove and those to add, into the arrays; their numbers. The features removed
    /// are some of those on in `self`, those added some of those on in `to`, and a view has at
    /// most `MAX_ACTIVE` on (every point, two hands, every line), so no list overflows; the
    /// bounds checked below only keep a `Seen` of no position from writing past them.
    fn changes(
        &self,
        to: &Seen,
        removed: &mut Changes,
        added: &mut Changes,
    ) -> [(usize, usize); 2] {
        let mut n = [(0, 0); 2];
        for owner in [Color::White, Color::Black] {
            let (was, is) = (self.pieces[owner as usize], to.pieces[owner as usize]);
            for view in [Color::White, Color::Black] {
                let (v, (r, a)) = (view as usize, &mut n[view as usize]);
                push_points(&mut removed[v], r, was & !is, |p| {
                    piece_feature(view, owner, p)
                });
                push_points(&mut added[v], a, is & !was, |p| {
                    piece_feature(view, owner, p)
                });
            }
        }
        for owner in [Color::White, Color::Black] {
            let (was, is) = (self.hands[owner as usize], to.hands[owner as usize]);
            if was == is {
                continue;
            }
            for view in [Color::White, Color::Black] {
                let (r, a) = &mut n[view as usize];
                if *r < MAX_ACTIVE && *a < MAX_ACTIVE {
                    removed[view as usize][*r] = hand_feature(view, owner, was) as u16;
                    added[view as usize][*a] = hand_feature(view, owner, is) as u16;
                    *r += 1;
                    *a += 1;
                }
            }
        }
        let lines = lines();
        let moved = (self.pieces[0] ^ to.pieces[0]) | (self.pieces[1] ^ to.pieces[1]);
        let mut changed = lines.through_any(moved);
        while changed != 0 {
            let l = changed.trailing_zeros() as usize;
            let was = lines.threats(l, self.pieces[0], self.pieces[1]);
            let is = lines.threats(l, to.pieces[0], to.pieces[1]);
            for v in 0..2 {
                let (r, a) = &mut n[v];
                if was[v] != NO_THREAT && *r < MAX_ACTIVE {
                    removed[v][*r] = line_feature(l, was[v]) as u16;
                    *r += 1;
                }
                if is[v] != NO_THREAT && *a < MAX_ACTIVE {
                    added[v][*a] = line_feature(l, is[v]) as u16;
                    *a += 1;
                }
            }
            changed &= changed - 1;
        }
        n
    }

    /// About how many features differ between `self` and `to` (in either view: the same
    /// number): the points and hands exactly, and two more for each point that differs (the
    /// threats of the two lines through it may come, go or change; counting them would cost
    /// more than the choice this number makes, whether to update or to sum from nothing).
    #[inline]
    pub fn distance(&self, to: &Seen) -> u32 {
        let pieces = (self.pieces[0] ^ to.pieces[0]).count_ones()
            + (self.pieces[1] ^ to.pieces[1]).count_ones();
        let hands =
            2 * (u32::from(self.hands[0] != to.hands[0]) + u32::from(self.hands[1] != to.hands[1]));
        3 * pieces + hands
    }
}

/// The features of each view (White's, then Black's) to remove or to add in an update.
type Changes = [[u16; MAX_ACTIVE]; 2];

/// The features `feature` gives the points of `points`, put into `list` after its `n`.
#[inline]
fn push_points(
    list: &mut [u16; MAX_ACTIVE],
    n: &mut usize,
    mut points: u32,
    feature: impl Fn(usize) -> usize,
) {
    while points != 0 && *n < MAX_ACTIVE {
        list[*n] = feature(points.trailing_zeros() as usize) as u16;
        *n += 1;
        points &= points - 1;
    }
}

/// The output layer of a position: 0 early in the placing (more than `pieces` placements
/// left), 1 late in the placing, 2 moving, 3 when a side flies.
#[inline]
pub fn bucket(pos: &Position) -> usize {
    if pos.is_placing() {
        usize::from(pos.placements_left() <= u32::from(pos.rules().pieces))
    } else if pos.can_fly(Color::White) || pos.can_fly(Color::Black) {
        3
    } else {
        2
    }
}

/// The first layer's sums of both views, White's then Black's, for one `Seen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// What they were summed for.
    pub seen: Seen,
    /// White's view, then Black's.
    pub sums: [[i16; HIDDEN]; 2],
}

/// A network file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be opened or read.
    #[error("network: {}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file is not a network this engine can use.
    #[error("network: {}: not used: {flaw}", path.display())]
    Flawed {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        flaw: Flaw,
    },
}

/// What is wrong with a network file's bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Flaw {
    /// It does not start with the magic.
    #[error("not a moulin network (no MOULNNUE header)")]
    Magic,
    /// It is of another format's version.
    #[error("format version {0}, this engine reads version {VERSION}")]
    Version(u32),
    /// It ends before its weights do.
    #[error("cut short: {0} bytes, the header and weights need more")]
    Short(usize),
    /// It is longer than its weights and checksum.
    #[error("{0} bytes after the checksum")]
    Trailing(usize),
    /// Its shape is not this engine's.
    #[error(
        "its shape is {inputs} inputs x {hidden} x {buckets} buckets, this engine's is \
         {INPUTS} x {HIDDEN} x {BUCKETS}"
    )]
    Shape {
        /// The inputs it has.
        inputs: u32,
        /// The hidden width it has.
        hidden: u32,
        /// The buckets it has.
        buckets: u32,
    },
    /// Its quantization is not this engine's.
    #[error("quantized by {qa} and {qb}, this engine's by {QA} and {QB}")]
    Quantization {
        /// The first layer's factor.
        qa: i32,
        /// The output's factor.
        qb: i32,
    },
    /// Its scale is not a positive number.
    #[error("scale {0} (must be 1 to 10000)")]
    Scale(i32),
    /// A text field is not UTF-8.
    #[error("its {0} is not text")]
    Text(&'static str),
    /// The checksum does not match.
    #[error("checksum mismatch (damaged)")]
    Checksum,
    /// It was made for other rules.
    #[error("made for other rules ({variant}), not these")]
    Rules {
        /// The variant it names.
        variant: String,
    },
}

/// A network, quantized, ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The fingerprint of the rules it was trained for (`tables::placing::fingerprint`).
    pub print: u64,
    /// The name of the variant it was trained for.
    pub variant: String,
    /// The command that made it.
    pub command: String,
    /// Centi-pieces per unit of the output (before quantization).
    pub scale: i32,
    /// The first layer: one row per feature (`INPUTS` rows).
    input: Box<[[i16; HIDDEN]]>,
    /// The first layer's bias.
    bias: [i16; HIDDEN],
    /// The output layers: the side to move's view's weights, then the other's.
    output: Box<[[i16; 2 * HIDDEN]; BUCKETS]>,
    /// The output biases, in units of `QA * QB`.
    out_bias: [i32; BUCKETS],
}

/// A network in floats, as a trainer holds it: row-major, the shapes of `Network`.
#[derive(Clone, Debug, PartialEq)]
pub struct Floats {
    /// `INPUTS * HIDDEN`: the row of feature `f` is `input[f * HIDDEN..][..HIDDEN]`.
    pub input: Vec<f32>,
    /// `HIDDEN`.
    pub bias: Vec<f32>,
    /// `BUCKETS * 2 * HIDDEN`.
    pub output: Vec<f32>,
    /// `BUCKETS`.
    pub out_bias: Vec<f32>,
}

impl Floats {
    /// Weights drawn uniformly from `(-half, half)` by the stream of `seed`: a network of noise,
    /// for tests.
    pub fn uniform(seed: u64, half: f32) -> Floats {
        let mut rng = crate::rng::Rng::new(seed);
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.unit() as f32 * 2.0 - 1.0) * half)
                .collect()
        };
        Floats {
            input: draw(INPUTS * HIDDEN),
            bias: draw(HIDDEN),
            output: draw(BUCKETS * 2 * HIDDEN),
            out_bias: draw(BUCKETS),
        }
    }
}

fn quantize(x: f32, factor: i32) -> i16 {
    (x.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT) * factor as f32).round() as i16
}

impl Network {
    /// The network of the float weights `f`, quantized; made for `rules` (named `variant`) by
    /// `command`, with `scale` centi-pieces per unit of output.
    pub fn quantized(
        f: &Floats,
        rules: &Rules,
        variant: &str,
        command: &str,
        scale: i32,
    ) -> Network {
        let mut input = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for (row, w) in input.iter_mut().zip(f.input.chunks_exact(HIDDEN)) {
            for (q, &x) in row.iter_mut().zip(w) {
                *q = quantize(x, QA);
            }
        }
        let mut bias = [0i16; HIDDEN];
        for (q, &x) in bias.iter_mut().zip(&f.bias) {
            *q = quantize(x, QA);
        }
        let mut output = Box::new([[0i16; 2 * HIDDEN]; BUCKETS]);
        for (row, w) in output.iter_mut().zip(f.output.chunks_exact(2 * HIDDEN)) {
            for (q, &x) in row.iter_mut().zip(w) {
                *q = quantize(x, QB);
            }
        }
        let mut out_bias = [0i32; BUCKETS];
        for (q, &x) in out_bias.iter_mut().zip(&f.out_bias) {
            *q = (x * (QA * QB) as f32).round() as i32;
        }
        Network {
            print: crate::tables::placing::fingerprint(rules),
            variant: variant.to_string(),
            command: command.to_string(),
            scale,
            input,
            bias,
            output,
            out_bias,
        }
    }

    /// Whether the network was made for `rules` (every option that changes a value).
    pub fn serves(&self, rules: &Rules) -> bool {
        crate::tables::placing::fingerprint(rules) == self.print
    }

    /// The accumulator of `seen`, summed from nothing.
    pub fn refresh(&self, seen: &Seen) -> Accumulator {
        let mut acc = Accumulator {
            seen: *seen,
            sums: [[0; HIDDEN]; 2],
        };
        self.refresh_into(&mut acc, seen);
        acc
    }

    /// `acc` made the accumulator of `seen`, summed from nothing.
    pub fn refresh_into(&self, acc: &mut Accumulator, seen: &Seen) {
        let mut active = [0usize; MAX_ACTIVE];
        for view in [Color::White, Color::Black] {
            let n = seen.features(view, &mut active);
            let sums = &mut acc.sums[view as usize];
            *sums = self.bias;
            apply::<usize>(sums, &self.input, &active[..n], &[]);
        }
        acc.seen = *seen;
    }

    /// `acc`, summed for `acc.seen`, made the accumulator of `to`: the rows of the features
    /// that differ subtracted and added.
    pub fn update(&self, acc: &mut Accumulator, to: &Seen) {
        let mut removed = [[0u16; MAX_ACTIVE]; 2];
        let mut added = [[0u16; MAX_ACTIVE]; 2];
        let n = acc.seen.changes(to, &mut removed, &mut added);
        for v in 0..2 {
            let (r, a) = n[v];
            apply(
                &mut acc.sums[v],
                &self.input,
                &added[v][..a],
                &removed[v][..r],
            );
        }
        acc.seen = *to;
    }

    /// The evaluation of `pos` for its side to move, in centi-pieces, from its accumulator
    /// `acc` (summed for `Seen::of(pos)`), within the evaluation's range (`EVAL_LIMIT`: a file
    /// whose weights would reach beyond it is still never read as a mate or a table win).
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let us = pos.side_to_move() as usize;
        let w = &self.output[bucket(pos)];
        let (ours, theirs) = w.split_at(HIDDEN);
        let sum = clipped_dot(&acc.sums[us], ours) + clipped_dot(&acc.sums[1 - us], theirs);
        let y = i64::from(sum) + i64::from(self.out_bias[bucket(pos)]);
        let cp = y * i64::from(self.scale) / i64::from(QA * QB);
        cp.clamp(i64::from(-EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// The evaluation of `pos` for its side to move, summed from nothing.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(&Seen::of(pos)), pos)
    }

    /// The network's file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&self.print.to_le_bytes());
        for n in [INPUTS, HIDDEN, BUCKETS] {
            b.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for n in [self.scale, QA, QB] {
            b.extend_from_slice(&n.to_le_bytes());
        }
        for text in [&self.variant, &self.command] {
            b.extend_from_slice(&(text.len() as u32).to_le_bytes());
            b.extend_from_slice(text.as_bytes());
        }
        for row in &self.input {
            b.extend(row.iter().flat_map(|w| w.to_le_bytes()));
        }
        b.extend(self.bias.iter().flat_map(|w| w.to_le_bytes()));
        for row in self.output.iter() {
            b.extend(row.iter().flat_map(|w| w.to_le_bytes()));
        }
        b.extend(self.out_bias.iter().flat_map(|w| w.to_le_bytes()));
        let sum = crate::tables::checksum::checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The network in `bytes`, checked: magic, version, shape, quantization, checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, Flaw> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(Flaw::Magic);
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(Flaw::Version(version));
        }
        let print = r.u64()?;
        let (inputs, hidden, buckets) = (r.u32()?, r.u32()?, r.u32()?);
        if (inputs as usize, hidden as usize, buckets as usize) != (INPUTS, HIDDEN, BUCKETS) {
            return Err(Flaw::Shape {
                inputs,
                hidden,
                buckets,
            });
        }
        let (scale, qa, qb) = (r.i32()?, r.i32()?, r.i32()?);
        if (qa, qb) != (QA, QB) {
            return Err(Flaw::Quantization { qa, qb });
        }
        if !(1..=10_000).contains(&scale) {
            return Err(Flaw::Scale(scale));
        }
        let variant = r.text("variant's name")?;
        let command = r.text("command")?;
        let mut input = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for row in &mut input {
            r.i16s(row)?;
        }
        let mut bias = [0i16; HIDDEN];
        r.i16s(&mut bias)?;
        let mut output = Box::new([[0i16; 2 * HIDDEN]; BUCKETS]);
        for row in output.iter_mut() {
            r.i16s(row)?;
        }
        let mut out_bias = [0i32; BUCKETS];
        for b in &mut out_bias {
            *b = r.i32()?;
        }
        let body = r.at;
        let sum = r.u64()?;
        if r.at != bytes.len() {
            return Err(Flaw::Trailing(bytes.len() - r.at));
        }
        if crate::tables::checksum::checksum(&bytes[..body]) != sum {
            return Err(Flaw::Checksum);
        }
        Ok(Network {
            print,
            variant,
            command,
            scale,
            input,
            bias,
            output,
            out_bias,
        })
    }

    /// Reads and checks the network file at `path` for `rules`.
    pub fn read(path: &Path, rules: &Rules) -> Result<Network, NetworkError> {
        let cannot = |source| NetworkError::Read {
            path: path.to_path_buf(),
            source,
        };
        let flawed = |flaw| NetworkError::Flawed {
            path: path.to_path_buf(),
            flaw,
        };
        let file = crate::input_file::open_regular(path).map_err(cannot)?;
        let bytes = crate::input_file::read_file_capped(file, MAX_FILE_BYTES).map_err(cannot)?;
        let net = Network::from_bytes(&bytes).map_err(flawed)?;
        if !net.serves(rules) {
            let variant = net.variant.clone();
            return Err(flawed(Flaw::Rules { variant }));
        }
        Ok(net)
    }
}

/// Reads a network file's fields in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Flaw> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(Flaw::Short(self.bytes.len()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, Flaw> {
        let mut w = [0u8; 4];
        w.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(w))
    }

    fn i32(&mut self) -> Result<i32, Flaw> {
        Ok(self.u32()? as i32)
    }

    fn u64(&mut self) -> Result<u64, Flaw> {
        let mut w = [0u8; 8];
        w.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(w))
    }

    fn text(&mut self, what: &'static str) -> Result<String, Flaw> {
        let n = self.u32()? as usize;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| Flaw::Text(what))
    }

    fn i16s(&mut self, out: &mut [i16]) -> Result<(), Flaw> {
        let bytes = self.take(2 * out.len())?;
        for (w, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *w = i16::from_le_bytes([b[0], b[1]]);
        }
        Ok(())
    }
}

/// Lanes of the sums added to at once: their part of the sums stays in registers while every
/// row is added and subtracted (one pass over the sums, however many features changed).
const LANES: usize = 64;

/// `sum` plus the rows of `added`, minus those of `removed` (wrapping, as `i16` sums do): the
/// loop of `apply_portable` compiled for AVX2 where the processor has it (twice the lanes an
/// instruction of the x86-64 baseline adds; the same numbers, as every sum wraps alike).
#[inline]
fn apply<F: Copy + Into<usize>>(
    sum: &mut [i16; HIDDEN],
    input: &[[i16; HIDDEN]],
    added: &[F],
    removed: &[F],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { apply_avx2(sum, input, added, removed) };
        return;
    }
    apply_portable(sum, input, added, removed);
}

/// `apply_portable` for processors with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn apply_avx2<F: Copy + Into<usize>>(
    sum: &mut [i16; HIDDEN],
    input: &[[i16; HIDDEN]],
    added: &[F],
    removed: &[F],
) {
    apply_portable(sum, input, added, removed);
}

/// `apply`'s loop, for any processor. Always inlined, so that `apply_avx2` compiles it for AVX2.
#[allow(clippy::inline_always)]
#[inline(always)]
fn apply_portable<F: Copy + Into<usize>>(
    sum: &mut [i16; HIDDEN],
    input: &[[i16; HIDDEN]],
    added: &[F],
    removed: &[F],
) {
    for (part, c) in sum.chunks_exact_mut(LANES).zip((0..HIDDEN).step_by(LANES)) {
        let mut lanes: [i16; LANES] = part.try_into().expect("LANES wide");
        for &f in added {
            let row: &[i16; LANES] = input[f.into()][c..c + LANES]
                .try_into()
                .expect("LANES wide");
            for (s, w) in lanes.iter_mut().zip(row) {
                *s = s.wrapping_add(*w);
            }
        }
        for &f in removed {
            let row: &[i16; LANES] = input[f.into()][c..c + LANES]
                .try_into()
                .expect("LANES wide");
            for (s, w) in lanes.iter_mut().zip(row) {
                *s = s.wrapping_sub(*w);
            }
        }
        part.copy_from_slice(&lanes);
    }
}

/// The sum of `clamp(sums[i], 0, QA) * weights[i]`: `clipped_dot_portable` compiled for AVX2
/// where the processor has it (the same numbers: integer sums in any order).
#[inline]
fn clipped_dot(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { clipped_dot_avx2(sums, weights) };
    }
    clipped_dot_portable(sums, weights)
}

/// `clipped_dot_portable` for processors with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clipped_dot_avx2(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    clipped_dot_portable(sums, weights)
}

/// `clipped_dot`'s sum, for any processor. Always inlined, so that `clipped_dot_avx2` compiles
/// it for AVX2.
#[allow(clippy::inline_always)]
#[inline(always)]
fn clipped_dot_portable(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    sums.iter()
        .zip(weights)
        .map(|(&s, &w)| i32::from(s.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

#[cfg(test)]
#[path = "network_tests.rs"]
pub(crate) mod tests;
