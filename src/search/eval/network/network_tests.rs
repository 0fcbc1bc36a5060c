use super::features::{line_feature, lines, LINE_BASE, NO_THREAT, THREAT, THREATS};
use super::simd::{apply, apply_portable, clipped_dot, clipped_dot_portable};
use super::*;
use crate::rng::Rng;
use crate::rules::board::ByColor;
use crate::rules::board::Color;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::notation::Convention;

/// A network of random weights, uniform in `(-0.5, 0.5)` before their quantization (those the
/// trainer's `Floats::uniform(seed, 0.5)` quantizes to).
pub(crate) fn random_network(seed: u64, rules: &Rules) -> Network {
    let mut rng = Rng::new(seed);
    let mut draw = |factor: i32| ((rng.unit() as f32 * 2.0 - 1.0) * 0.5 * factor as f32).round();
    let mut input = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
    input
        .iter_mut()
        .flatten()
        .for_each(|w| *w = draw(QA) as i16);
    let bias = std::array::from_fn(|_| draw(QA) as i16);
    let mut output = Box::new([[0i16; 2 * HIDDEN]; BUCKETS]);
    output
        .iter_mut()
        .flatten()
        .for_each(|w| *w = draw(QB) as i16);
    let out_bias = std::array::from_fn(|_| draw(QA * QB) as i32);
    let layers = Layers {
        input,
        bias,
        output,
        out_bias,
    };
    Network::new(layers, rules, "nine", "a test", 300)
}

/// Positions of random games: every position of each.
fn random_positions(seed: u64, rules: Rules, games: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(rules);
        out.push(*game.position());
        for _ in 0..120 {
            let moves = movegen::legal_moves(game.position(), Convention::Turn);
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(moves[rng.below(moves.len())]);
            out.push(*game.position());
        }
    }
    out
}

/// Along random games of `rules`, an accumulator updated from the previous position, and from
/// there to one further away, equals the one summed from nothing.
fn updates_equal_refreshes(rules: Rules, seed: u64, games: usize) {
    let net = random_network(seed, &rules);
    let positions = random_positions(seed + 1, rules, games);
    let mut acc = net.refresh(&Seen::of(&positions[0]));
    for (i, pos) in positions.iter().enumerate() {
        let seen = Seen::of(pos);
        net.update(&mut acc, &seen);
        assert_eq!(acc, net.refresh(&seen), "position {i}");
        assert_eq!(net.output(&acc, pos), net.evaluate(pos));
        let far = &positions[(i * 7 + 3) % positions.len()];
        let mut there = acc.clone();
        net.update(&mut there, &Seen::of(far));
        assert_eq!(
            there,
            net.refresh(&Seen::of(far)),
            "position {i} to a far one"
        );
    }
}

#[test]
fn an_accumulator_updated_from_any_other_equals_one_summed_from_nothing() {
    updates_equal_refreshes(Rules::nine(), 1, 20);
    // Fuller boards (up to 24 pieces): the most features a view can have.
    updates_equal_refreshes(Rules::preset("twelve").unwrap(), 8, 10);
}

#[test]
fn the_threat_table_numbers_each_of_the_eight_threats_once() {
    let mut used: Vec<u8> = THREAT.iter().copied().filter(|&t| t != NO_THREAT).collect();
    used.sort_unstable();
    assert_eq!(used, (0..THREATS as u8).collect::<Vec<_>>());
}

/// The line features of `perspective`'s view of `seen`.
fn line_features(seen: &Seen, perspective: Color) -> Vec<usize> {
    let mut out = [0usize; MAX_ACTIVE];
    let n = seen.features(perspective, &mut out);
    out[..n]
        .iter()
        .copied()
        .filter(|&f| f >= LINE_BASE)
        .collect()
}

#[test]
fn a_line_is_a_feature_when_two_pieces_face_its_empty_point_or_when_it_is_closed() {
    let [a, b, c] = lines().points[0];
    let seen = |white: u32, black: u32| Seen {
        pieces: [white, black],
        hands: [5, 5],
    };
    let (white, black) = (Color::White, Color::Black);
    // White on the line's first two points, the third empty: the third point's threat, of
    // White's own in White's view and of the other side's in Black's.
    let two = seen(1 << a | 1 << b, 0);
    assert_eq!(line_features(&two, white), [line_feature(0, 2)]);
    assert_eq!(line_features(&two, black), [line_feature(0, 5)]);
    // The middle point empty instead: another feature.
    let gap = seen(1 << a | 1 << c, 0);
    assert_eq!(line_features(&gap, white), [line_feature(0, 1)]);
    // Blocked by Black: no feature (the other lines through these points hold one piece).
    let blocked = seen(1 << a | 1 << b, 1 << c);
    assert!(line_features(&blocked, white).is_empty());
    assert!(line_features(&blocked, black).is_empty());
    // A closed mill: White's in White's view, the other's in Black's.
    let closed = seen(1 << a | 1 << b | 1 << c, 0);
    assert_eq!(line_features(&closed, white), [line_feature(0, 6)]);
    assert_eq!(line_features(&closed, black), [line_feature(0, 7)]);
    // One piece alone: nothing.
    assert!(line_features(&seen(1 << a, 1 << c), white).is_empty());
}

#[test]
fn the_features_of_a_view_are_those_of_the_other_view_with_the_sides_swapped() {
    let rules = Rules::nine();
    let mut a = [0usize; MAX_ACTIVE];
    let mut b = [0usize; MAX_ACTIVE];
    for pos in random_positions(3, rules, 5) {
        let seen = Seen::of(&pos);
        let swapped = Seen {
            pieces: [seen.pieces[1], seen.pieces[0]],
            hands: [seen.hands[1], seen.hands[0]],
        };
        let n = seen.features(Color::White, &mut a);
        let m = swapped.features(Color::Black, &mut b);
        let (mut x, mut y) = (a[..n].to_vec(), b[..m].to_vec());
        x.sort_unstable();
        y.sort_unstable();
        assert_eq!(x, y);
        assert_eq!(n, pos.occupied().count() as usize + 2 + naive_threats(&pos));
        assert!(x.iter().all(|&f| f < INPUTS));
    }
}

/// The mill lines where a side has two pieces and the third point is empty, or three pieces:
/// counted from the board's lines, point by point.
fn naive_threats(pos: &Position) -> usize {
    let topology = crate::rules::board::BoardKind::Standard.topology();
    let mut n = 0;
    for line in &topology.lines[..topology.line_count] {
        let count = |c: Color| (pos.pieces(c).0 & line.0).count_ones();
        let (w, b) = (count(Color::White), count(Color::Black));
        if (w + b == 3 && (w == 3 || b == 3)) || (w + b == 2 && (w == 2 || b == 2)) {
            n += 1;
        }
    }
    n
}

#[test]
fn the_evaluation_is_the_side_to_moves() {
    // The same board with the other side to move and the colours swapped is the same position
    // for the side to move: the same evaluation.
    let rules = Rules::nine();
    let net = random_network(4, &rules);
    for pos in random_positions(5, rules, 5) {
        if pos.pending_removals() > 0 {
            continue;
        }
        let (white, black) = (Color::White, Color::Black);
        let mirrored = Position::from_parts(
            rules,
            ByColor::new(pos.pieces(black), pos.pieces(white)),
            ByColor::new(pos.in_hand(black), pos.in_hand(white)),
            !pos.side_to_move(),
            0,
            0,
            1,
            ByColor::new(0, 0),
        );
        assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored));
    }
}

#[test]
fn a_network_reads_back_from_its_bytes() {
    let rules = Rules::nine();
    let net = random_network(6, &rules);
    let bytes = net.to_bytes();
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert!(back.serves(&rules));
    assert!(!back.serves(&Rules::preset("twelve").unwrap()));
    assert_eq!(back.header.command, "a test");
}

/// The network that ships, written by the code before the shared header, reads and is written
/// again byte for byte.
#[test]
fn the_shipped_network_reads_and_is_written_as_it_was() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/nine.nnue");
    let bytes = std::fs::read(&path).unwrap();
    let file = crate::shipped::Source::File(path.clone());
    let (net, loaded) = Network::load(&file, &Rules::nine()).unwrap();
    assert_eq!(net.to_bytes(), bytes);
    assert_eq!(
        (net.header.variant.as_str(), net.header.scale),
        ("nine", 77)
    );
    let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
    assert_eq!(
        loaded.to_string(),
        format!(
            "network {}: 108212 bytes, rules 1dc548e062afa670, checksum {sum:016x}",
            path.display()
        )
    );
}

#[test]
fn a_damaged_cut_or_foreign_network_is_refused_with_its_flaw() {
    let rules = Rules::nine();
    let bytes = random_network(7, &rules).to_bytes();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    let said = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err().to_string();
    assert_eq!(
        said(&flipped),
        "checksum mismatch of its header and weights: the file is damaged"
    );
    let cut = bytes.len() - 3;
    assert_eq!(
        said(&bytes[..cut]),
        format!(
            "cut short at byte {cut}: 8 bytes wanted at byte {}",
            cut - 5
        )
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Network::from_bytes(&longer), Err(Flaw::Trailing(1)));
    assert_eq!(
        said(b"MOULTBL1 and more"),
        "not a moulin network (no MOULNNUE header)"
    );
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        said(&version),
        "format version 9, this engine reads version 1"
    );
    let mut shape = bytes.clone();
    shape[24] = 1;
    assert!(matches!(
        Network::from_bytes(&shape),
        Err(Flaw::Shape { hidden: 257, .. })
    ));
    assert_eq!(said(&[]), "cut inside its header (0 bytes of 20)");
    assert_eq!(
        said(&bytes[..30]),
        "cut short at byte 30: 4 bytes wanted at byte 28"
    );

    let dir = std::env::temp_dir().join(format!("moulin-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nine.nnue");
    std::fs::write(&path, &bytes).unwrap();
    assert!(Network::read(&path, &rules).is_ok());
    let twelve = Rules::preset("twelve").unwrap();
    let refused = Network::read(&path, &twelve).unwrap_err().to_string();
    assert!(
        refused.contains("nine.nnue") && refused.contains("other rules (nine)"),
        "{refused}"
    );
    std::fs::write(&path, &flipped).unwrap();
    let refused = Network::read(&path, &rules).unwrap_err().to_string();
    assert!(refused.contains("checksum"), "{refused}");
    let missing = Network::read(&dir.join("none.nnue"), &rules)
        .unwrap_err()
        .to_string();
    assert!(
        missing.contains("none.nnue") && missing.contains("cannot read"),
        "{missing}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_buckets_follow_the_phases() {
    let rules = Rules::nine();
    let positions = random_positions(8, rules, 10);
    assert_eq!(bucket(&positions[0]), 0);
    for pos in positions {
        let b = bucket(&pos);
        assert!(b < BUCKETS);
        assert_eq!(b >= 2, !pos.is_placing());
    }
}

#[test]
fn the_vector_paths_give_the_portable_loops_numbers() {
    let mut rng = Rng::new(54);
    let mut word = || (rng.next_u64() as u16) as i16;
    let input: Vec<[i16; HIDDEN]> = (0..40).map(|_| std::array::from_fn(|_| word())).collect();
    let start: [i16; HIDDEN] = std::array::from_fn(|_| word());
    let weights: Vec<i16> = (0..HIDDEN).map(|_| word() / 64).collect();
    let (added, removed) = ([3, 17, 39, 0, 22], [5, 17, 8]);
    let mut portable = start;
    apply_portable(&mut portable, &input, &added, &removed);
    let mut chosen = start;
    apply(&mut chosen, &input, &added, &removed);
    assert_eq!(portable, chosen);
    let mut expected = start;
    for (i, s) in expected.iter_mut().enumerate() {
        for &f in &added {
            *s = s.wrapping_add(input[f][i]);
        }
        for &f in &removed {
            *s = s.wrapping_sub(input[f][i]);
        }
    }
    assert_eq!(portable, expected, "every sum wraps as an i16");
    let naive: i32 = portable
        .iter()
        .zip(&weights)
        .map(|(&s, &w)| i32::from(s.clamp(0, QA as i16)) * i32::from(w))
        .sum();
    assert_eq!(clipped_dot_portable(&portable, &weights), naive);
    assert_eq!(clipped_dot(&portable, &weights), naive);
}
