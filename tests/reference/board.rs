//! The board, from docs/rules.md, "Board", in the naive model's own order (rows top to bottom).

pub(crate) const NAMES: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

const EDGES: [(&str, &str); 32] = [
    // Outer square.
    ("a7", "d7"),
    ("d7", "g7"),
    ("g7", "g4"),
    ("g4", "g1"),
    ("g1", "d1"),
    ("d1", "a1"),
    ("a1", "a4"),
    ("a4", "a7"),
    // Middle square.
    ("b6", "d6"),
    ("d6", "f6"),
    ("f6", "f4"),
    ("f4", "f2"),
    ("f2", "d2"),
    ("d2", "b2"),
    ("b2", "b4"),
    ("b4", "b6"),
    // Inner square.
    ("c5", "d5"),
    ("d5", "e5"),
    ("e5", "e4"),
    ("e4", "e3"),
    ("e3", "d3"),
    ("d3", "c3"),
    ("c3", "c4"),
    ("c4", "c5"),
    // Spokes.
    ("d7", "d6"),
    ("d6", "d5"),
    ("g4", "f4"),
    ("f4", "e4"),
    ("d1", "d2"),
    ("d2", "d3"),
    ("a4", "b4"),
    ("b4", "c4"),
];

const DIAGONAL_EDGES: [(&str, &str); 8] = [
    ("a7", "b6"),
    ("b6", "c5"),
    ("g7", "f6"),
    ("f6", "e5"),
    ("g1", "f2"),
    ("f2", "e3"),
    ("a1", "b2"),
    ("b2", "c3"),
];

const MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["g7", "g4", "g1"],
    ["g1", "d1", "a1"],
    ["a1", "a4", "a7"],
    ["b6", "d6", "f6"],
    ["f6", "f4", "f2"],
    ["f2", "d2", "b2"],
    ["b2", "b4", "b6"],
    ["c5", "d5", "e5"],
    ["e5", "e4", "e3"],
    ["e3", "d3", "c3"],
    ["c3", "c4", "c5"],
    ["d7", "d6", "d5"],
    ["g4", "f4", "e4"],
    ["d1", "d2", "d3"],
    ["a4", "b4", "c4"],
];

const DIAGONAL_MILLS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["g1", "f2", "e3"],
    ["a1", "b2", "c3"],
];

pub(crate) fn idx(name: &str) -> usize {
    NAMES
        .iter()
        .position(|&n| n == name)
        .unwrap_or_else(|| panic!("unknown point {name}"))
}

/// Neighbour lists and mill lists of one board shape.
pub(crate) struct Board {
    pub(crate) neighbours: Vec<Vec<usize>>,
    pub(crate) mills: Vec<[usize; 3]>,
}

impl Board {
    pub(crate) fn new(diagonals: bool) -> Board {
        let mut neighbours = vec![Vec::new(); 24];
        let mut edges: Vec<(&str, &str)> = EDGES.to_vec();
        let mut mills: Vec<[&str; 3]> = MILLS.to_vec();
        if diagonals {
            edges.extend_from_slice(&DIAGONAL_EDGES);
            mills.extend_from_slice(&DIAGONAL_MILLS);
        }
        for (a, b) in edges {
            neighbours[idx(a)].push(idx(b));
            neighbours[idx(b)].push(idx(a));
        }
        let mills = mills
            .iter()
            .map(|m| [idx(m[0]), idx(m[1]), idx(m[2])])
            .collect();
        Board { neighbours, mills }
    }
}
