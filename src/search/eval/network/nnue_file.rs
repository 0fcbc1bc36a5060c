//! The network's file (`.nnue`, little-endian): the magic `MOULNNUE`, the format's version, the
//! rules' fingerprint (`tables::placing::fingerprint`: every option that changes a value), the
//! shape (inputs, hidden, buckets), the scale and the two quantization factors, the variant's
//! name, the command that made it, then the weights (input rows, bias, output layers, output
//! biases) and a checksum of everything before it; its name, and where it is found
//! (`shipped`). The magic, version and fingerprint are the shared header's (`shipped::header`,
//! `LAYOUT`), the fields read by the shared reader (`shipped::le_bytes`). A file of another
//! shape, version or rules, or damaged, is refused with the reason (`Flaw`).

use super::features::INPUTS;
use super::layers::{Layers, BUCKETS, HIDDEN, QA, QB};
use crate::rules::Rules;
use crate::shipped::le_bytes::{Cut, Reader};
use crate::shipped::{HeaderError, Layout, Source};
use std::ffi::OsStr;

/// The bytes every network file begins with (what a writer recognises as its own output).
pub const MAGIC: &[u8; 8] = b"MOULNNUE";
const VERSION: u32 = 1;
/// A network file's header: its checksum is the file's last 8 bytes, of all before them.
pub(super) static LAYOUT: Layout = Layout {
    what: "a moulin network (no MOULNNUE header)",
    magic: *MAGIC,
    version: Some(VERSION),
    fingerprint_at: 12,
    checksum_at: None,
    covers: "its header and weights",
    len: 20,
};
/// The most bytes a network file may have: the header's text is short, the weights fixed.
pub(super) const MAX_FILE_BYTES: u64 = 4 << 20;

/// The file name of a variant's network (`book/<variant>.nnue`, built in where it ships).
pub fn file_name(variant: &str) -> String {
    format!("{variant}.nnue")
}

/// The network a setting names (`EvalFile`, `--eval-file`), as `shipped::chosen` reads a
/// setting: the one built in for the preset of `rules` by default (custom rules have none).
pub fn chosen(setting: &OsStr, rules: &Rules) -> Option<Source> {
    crate::shipped::chosen(setting, rules.preset_name().map(file_name).as_deref())
}

/// What a network file says of itself before its weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The fingerprint of the rules it was trained for (`tables::placing::fingerprint`).
    pub print: u64,
    /// The name of the variant it was trained for.
    pub variant: String,
    /// The command that made it.
    pub command: String,
    /// Centi-pieces per unit of the output (before quantization).
    pub scale: i32,
}

/// The file of a network: its header and its layers.
pub fn to_bytes(header: &Header, layers: &Layers) -> Vec<u8> {
    let mut b = LAYOUT.blank(header.print);
    for n in [INPUTS, HIDDEN, BUCKETS] {
        b.extend_from_slice(&(n as u32).to_le_bytes());
    }
    for n in [header.scale, QA, QB] {
        b.extend_from_slice(&n.to_le_bytes());
    }
    for text in [&header.variant, &header.command] {
        b.extend_from_slice(&(text.len() as u32).to_le_bytes());
        b.extend_from_slice(text.as_bytes());
    }
    for row in &layers.input {
        b.extend(row.iter().flat_map(|w| w.to_le_bytes()));
    }
    b.extend(layers.bias.iter().flat_map(|w| w.to_le_bytes()));
    for row in layers.output.iter() {
        b.extend(row.iter().flat_map(|w| w.to_le_bytes()));
    }
    b.extend(layers.out_bias.iter().flat_map(|w| w.to_le_bytes()));
    let sum = crate::tables::checksum::checksum(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// The header and layers in `bytes`, checked: magic, version, shape, quantization, checksum.
pub fn from_bytes(bytes: &[u8]) -> Result<(Header, Layers), Flaw> {
    let head = LAYOUT.read(bytes)?;
    let mut r = Reader::starting_at(bytes, LAYOUT.len);
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
    let variant = text(&mut r, "variant's name")?;
    let command = text(&mut r, "command")?;
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
    let body = r.position();
    let sum = r.u64()?;
    if r.left() != 0 {
        return Err(Flaw::Trailing(r.left()));
    }
    LAYOUT.check_sum(sum, crate::tables::checksum::checksum(&bytes[..body]))?;
    let header = Header {
        print: head.fingerprint,
        variant,
        command,
        scale,
    };
    let layers = Layers {
        input,
        bias,
        output,
        out_bias,
    };
    Ok((header, layers))
}

/// What is wrong with a network file's bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Flaw {
    /// Its header is not a network's of this version, or its checksum does not match
    /// (`shipped::header`).
    #[error("{0}")]
    Header(#[from] HeaderError),
    /// It ends before its weights do.
    #[error("{0}")]
    Cut(#[from] Cut),
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
    /// It was made for other rules.
    #[error("made for other rules ({variant}), not these")]
    Rules {
        /// The variant it names.
        variant: String,
    },
}

/// A text field: its length (a `u32`), then its bytes, UTF-8.
fn text(r: &mut Reader, what: &'static str) -> Result<String, Flaw> {
    let n = r.u32()? as usize;
    let bytes = r.take(n)?;
    String::from_utf8(bytes.to_vec()).map_err(|_| Flaw::Text(what))
}
