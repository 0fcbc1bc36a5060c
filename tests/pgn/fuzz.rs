//! The fuzz: random and mutated records through `moulin replay`, none of which may panic, hang,
//! take more than a bounded memory, or put a control byte on the terminal.

use super::harness::{file, head, run, tags};
use moulin::rng::Rng;

/// Records to mutate: tags (with escapes and a non-ASCII value), comments of both kinds,
/// nested variations, glyphs, a removal written apart, a set-up start, `%` lines, CRLF.
const SEEDS: [&str; 7] = [
    "[Event \"moulin match: new vs old\"]\n[Site \"?\"]\n[Date \"2026.11.23\"]\n[Round \"3\"]\n\
     [White \"new\"]\n[Black \"old\"]\n[Result \"1-0\"]\n[Variant \"nine\"]\n\
     [Termination \"adjudication\"]\n\n1. d2 a7 2. d3 g4 {end of the opening} 3. d5 e5 4. \
     d1xa7 g7 5. b4 f4 6. g1 e4xd5 7. b2 d6! (7... f6 8. f2) 8. d5 $14 f2 1-0\n\n",
    "[Event \"a \\\"b\\\" c\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n{before} 1. d6! f4 {a \
     comment} (1... d2 $14 2. b4 (2. b6)) 2. d2?! $1 ; to the end\n b4 1/2-1/2\n",
    "1.d7 a1 2.g7 d1 3.a7 xd1 (3. a4 b4 (3... b6) 4. a7xb4) *\n% skipped\n",
    "[Variant \"lasker\"]\n1. d6 f4 2. d6-d5 *\n\n[Variant \"morabaraba\"]\n1. d6 *\n",
    "[SetUp \"1\"]\n[FEN \"O*O*@@**/O@@OO@@O/@@O*@*OO w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10\"]\n\
     10. d5-e5 *\n",
    "[White \"\u{e9}\u{1f600}\"]\n1. d6 0-1\n*\n1. d6 f4 *\n",
    "\u{feff}1. d6 (f4) (d2 (b4)) f4 *\n",
];

/// Bytes the mutations insert: the syntax, move letters, blanks, control and non-UTF-8 bytes.
const BYTES: &[u8] = b"[]{}()$;%\"\\!?.-x 0123456789abcdefgxd6\n\r\t*/\x07\x1b\x00\xef\xbb\xbf\xff";

/// A record to read: random bytes, or a seed mutated (bytes changed, inserted, deleted, a piece
/// repeated, cut short), or rarely a huge one (deep, long, many tags or glyphs).
fn fuzz_record(rng: &mut Rng) -> Vec<u8> {
    let pick = |rng: &mut Rng| BYTES[rng.below(BYTES.len())];
    match rng.below(20) {
        0 | 1 => return (0..rng.below(300)).map(|_| pick(rng)).collect(),
        2 => return huge(rng).into_bytes(),
        _ => {}
    }
    let mut bytes = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
    for _ in 0..=rng.below(2) {
        let i = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 => bytes.insert(i, pick(rng)),
            1 if i < bytes.len() => bytes[i] = pick(rng),
            2 if i < bytes.len() => drop(bytes.remove(i)),
            3 => bytes.truncate(i),
            4 => {
                let j = rng.below(bytes.len() + 1);
                let piece = bytes[i.min(j)..i.max(j)].to_vec();
                for _ in 0..=rng.below(3) {
                    bytes.splice(i..i, piece.iter().copied());
                }
            }
            _ => {
                let word: &[u8] =
                    [&b"("[..], b")", b"{", b"}", b"[", b"]", b" xb4 ", b" 1-0 "][rng.below(8)];
                bytes.splice(i..i, word.iter().copied());
            }
        }
    }
    bytes
}

/// A record far from any the writer makes: at the limits of the reader and beyond.
fn huge(rng: &mut Rng) -> String {
    let n = 1000 + rng.below(300_000);
    match rng.below(6) {
        0 => format!("1. d6 {}{} *", "(d6 ".repeat(n), ")".repeat(n)),
        1 => format!("1. {} *", "d".repeat(n * 4)),
        2 => tags(n / 10) + "*",
        3 => format!("1. d6{} *", "!?".repeat(n)),
        4 => format!("1. d6 {{{}", "a".repeat(n * 4)),
        _ => "1. d6 *\n".repeat(n / 8),
    }
}

#[test]
fn fuzz_400_records_through_replay() {
    let mut rng = Rng::new(0x5eed_0033);
    let path = file("fuzz.pgn", b"");
    let path = path.to_str().unwrap();
    let (mut read, mut refused, mut slowest) = (0, 0, 0.0f64);
    for case in 0..400 {
        let bytes = fuzz_record(&mut rng);
        std::fs::write(path, &bytes).unwrap();
        let what = format!("case {case}: {:?}", head(&String::from_utf8_lossy(&bytes)));
        let r = run(&["replay", path], b"");
        // Two seconds where a replay takes milliseconds: only a hang or a blow-up passes it.
        r.sane(&what, 2.0, 64);
        for out in [r.stdout.as_bytes(), &r.stderr] {
            let raw = out.iter().find(|&&b| b < 0x20 && b != b'\n');
            assert_eq!(raw, None, "{what}: {}", head(&String::from_utf8_lossy(out)));
        }
        assert!(r.stderr.len() < 1000, "{what}: {}", head(&r.err()));
        if r.stdout.contains("replayed ") {
            read += 1;
        } else {
            refused += 1;
        }
        slowest = slowest.max(r.secs);
    }
    println!("fuzz: 400 records, {read} read, {refused} refused, slowest {slowest:.3} s");
    assert!(read > 40 && refused > 100, "{read} read, {refused} refused");
}
