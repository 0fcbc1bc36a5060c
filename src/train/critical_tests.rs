//! Tests of `src/train/critical.rs`: critical positions found, a suite read, written and
//! measured.

use super::*;

fn scored(pos: &Position, scores: &[(&str, i32)]) -> Vec<(Move, i32)> {
    scores
        .iter()
        .map(|&(t, s)| {
            let mut g = Game::from_position(*pos);
            (g.play_token(t).unwrap(), s)
        })
        .collect()
}

#[test]
fn critical_means_few_moves_keep_and_most_lose() {
    let pos = Position::start(Rules::nine());
    let one = scored(
        &pos,
        &[("d6", 10), ("a7", -200), ("d7", -150), ("b6", -300)],
    );
    let c = judge(&pos, &one, 120, 0).expect("one move keeps the draw");
    assert_eq!((c.value, c.best, c.keep.len()), (Value::Draw, 10, 1));
    let many = scored(&pos, &[("d6", 10), ("a7", 5), ("d7", 0), ("b6", -300)]);
    assert!(judge(&pos, &many, 120, 0).is_none(), "three moves keep it");
    let even = scored(&pos, &[("d6", 10), ("a7", 5), ("d7", -200), ("b6", -300)]);
    assert!(judge(&pos, &even, 120, 0).is_some(), "two keep, two lose");
    let won = scored(&pos, &[("d6", 300), ("a7", 50), ("d7", 40)]);
    let c = judge(&pos, &won, 120, 0).unwrap();
    assert_eq!(c.value, Value::Win);
    // With a gap of 40: d6 keeps the draw clearly, a7 at -200 is clearly lost, but d7 at
    // -150 is only 30 beyond the boundary.
    assert!(judge(&pos, &one, 120, 40).is_none());
    let clear = scored(
        &pos,
        &[("d6", 10), ("a7", -200), ("d7", -170), ("b6", -300)],
    );
    assert!(judge(&pos, &clear, 120, 40).is_some());
    let near = scored(&pos, &[("d6", -100), ("a7", -200), ("d7", -170)]);
    assert!(
        judge(&pos, &near, 120, 40).is_none(),
        "the kept move is 20 above the boundary"
    );
}

#[test]
fn a_move_symmetric_to_a_kept_one_keeps_it() {
    let pos = Position::start(Rules::nine());
    let c = Critical {
        pos,
        value: Value::Draw,
        best: 0,
        keep: scored(&pos, &[("d6", 0)])
            .into_iter()
            .map(|x| x.0)
            .collect(),
    };
    let moves = scored(&pos, &[("b4", 0), ("f4", 0), ("d2", 0), ("d7", 0)]);
    let kept: Vec<bool> = moves.iter().map(|&(m, _)| c.keeps(m)).collect();
    assert_eq!(kept, [true, true, true, false]);
}

#[test]
fn suites_are_read_back_and_bad_lines_named() {
    let rules = Rules::nine();
    let pos = Position::start(rules);
    let c = Critical {
        pos,
        value: Value::Win,
        best: 250,
        keep: scored(&pos, &[("d6", 0), ("a7", 0)])
            .into_iter()
            .map(|x| x.0)
            .collect(),
    };
    let dir = std::env::temp_dir().join(format!("moulin-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("suite.txt");
    std::fs::write(&path, format!("# a suite\r\n{}\r\n", c.line())).unwrap();
    let read = read_suite(&path, &rules).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].line(), c.line());
    let bad = c.line().replace("d6,a7", "d6,z9");
    std::fs::write(&path, format!("# a suite\n{bad}\n")).unwrap();
    let err = read_suite(&path, &rules).unwrap_err().to_string();
    assert!(err.contains("suite.txt:2: kept move 'z9'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exact_critical_positions_and_exact_judging_of_a_suite() {
    use crate::search::exact::testing::{placing_positions, tables};
    let tables = tables();
    let never = |_: u64| false;
    let mut memory = Memory::new(1 << 20);
    let (mut critical, mut contradicted) = (0, 0);
    for pos in placing_positions(200, 41) {
        let scores = exact_scores(tables, &mut memory, &pos, u64::MAX).unwrap();
        // One entry per class of symmetric moves, each the solver's value, best first.
        let classes: FxHashSet<u64> = movegen::legal_moves(&pos, Convention::Turn)
            .into_iter()
            .map(|mv| child_key(&pos, mv))
            .collect();
        assert_eq!(scores.len(), classes.len());
        let mut solver = Solver::new(tables, &mut memory, &never);
        let truth = solver.value(&pos).unwrap();
        assert_eq!(scores[0].1, i32::from(truth) * EXACT_SCORE);
        for &(mv, score) in &scores {
            let v = solver.values_of_moves(&pos, &[mv]).unwrap()[0];
            assert_eq!(score, i32::from(v) * EXACT_SCORE);
        }
        let Some(c) = judge(&pos, &scores, 120, 40) else {
            continue;
        };
        critical += 1;
        assert!(c.keep.len() <= 2 && c.value != Value::Loss);
        let lost = scores.iter().filter(|s| s.1 < scores[0].1).count();
        assert!(2 * lost >= scores.len());
        // The suite's exact judge: the label agrees, a kept move keeps, a lost one does not.
        let mut solver = Solver::new(tables, &mut memory, &never);
        let lost_move = scores.last().unwrap().0;
        let t = truth_of(&mut solver, &c, Some(c.keep[0])).unwrap();
        assert!(t.label_agrees && t.kept && t.value == c.value);
        let t = truth_of(&mut solver, &c, Some(lost_move)).unwrap();
        assert!(t.label_agrees && !t.kept);
        assert!(!truth_of(&mut solver, &c, None).unwrap().kept);
        // A wrong label: the other value, or a lost move given as kept.
        let wrong = Critical {
            value: if c.value == Value::Win {
                Value::Draw
            } else {
                Value::Win
            },
            ..c.clone()
        };
        assert!(
            !truth_of(&mut solver, &wrong, Some(c.keep[0]))
                .unwrap()
                .label_agrees
        );
        let wrong = Critical {
            keep: vec![lost_move],
            ..c.clone()
        };
        let t = truth_of(&mut solver, &wrong, Some(c.keep[0])).unwrap();
        assert!(!t.label_agrees && t.kept);
        contradicted += 1;
    }
    assert!(critical >= 5, "{critical} critical positions of 200");
    assert_eq!(contradicted, critical);
    // Too few positions for the solver: passed over.
    let any = placing_positions(1, 5)[0];
    assert!(exact_scores(tables, &mut memory, &any, 10).is_none());
}
