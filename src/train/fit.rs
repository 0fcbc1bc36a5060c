//! Fitting the evaluation (`moulin train fit`): learns the linear placing terms' weights
//! (`LinearWeights`) from labelled positions.
//!
//! The method is logistic regression in the manner of Texel tuning, against the deep search's
//! score rather than the game's result: for each placing position (hands not empty, the first
//! position of each class of positions only), the evaluation `e = s L + (1 - s) H + 4 s (1 - s) C`,
//! with `L` the placing evaluation (material, plus the weighted inputs of both sides, plus a
//! bias), `H` the hand-written one, `C` the late correction (the same inputs with weights of its
//! own, plus a bias; `--no-late` keeps it at zero) and `s = h / T` the share of all `T` pieces still
//! in hand, is brought near the label
//! `s` by minimising the mean of `(σ(e / K) - σ(s / K))²`, where `σ` is the logistic function and
//! `K` the scale (`--scale`): an error of 50 centi-pieces weighs more in a balanced position than
//! in one a piece up. Labels that are wins or losses count as ±`CAP`. Full-batch gradient descent
//! with Adam from `LinearWeights::HAND` (the hand-written evaluation's equivalent, so the same
//! data give the same weights), with a small pull towards it (`--l2`); every tenth
//! position is held out, and the held-out loss is reported before and after. The weights are
//! rounded to whole centi-pieces and written as Rust source (`src/search/eval/fitted_weights.rs`) with the
//! command and the data that made them.

use super::label::{read_labels, Labelled, CAP};
use super::TrainError;
use crate::search::eval::{self, LinearTerms, LinearWeights, Weights, INPUTS, INPUT_NAMES};
use crate::search::Score;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::PathBuf;

/// The label journals named, or every `labels-*.txt` of the variant's cache directory.
pub fn label_files(variant: &str, named: &[PathBuf]) -> Result<Vec<PathBuf>, TrainError> {
    let files = if named.is_empty() {
        let dir = super::cache_dir(variant);
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|source| TrainError::NoLabelDir {
                dir: dir.clone(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("labels-"))
                    && p.extension().is_some_and(|e| e == "txt")
            })
            .collect();
        found.sort();
        found
    } else {
        named.to_vec()
    };
    // A position labelled in several journals keeps its first label (`run_fit`): the deepest
    // journals come first, so that a deeper round supersedes a shallower one.
    let mut files = files;
    files.sort_by_key(|f| std::cmp::Reverse(journal_depth(f)));
    if files.is_empty() {
        return Err(TrainError::NoLabelFiles);
    }
    Ok(files)
}

/// The depth a label journal's header names (`depth N`), 0 when it names none or cannot be read
/// (its first line is read, at most `input_file::MAX_LINE` bytes of it).
fn journal_depth(path: &std::path::Path) -> u32 {
    let header = crate::input_file::open_lines(path)
        .ok()
        .and_then(|mut lines| lines.next()?.ok())
        .map(|(_, line)| line)
        .unwrap_or_default();
    let words: Vec<&str> = header.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "depth")
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(0)
}

/// The weights fitted: those of the placing evaluation (the inputs of the side to move, of the
/// other side, the bias), then the late correction's in the same order.
const PARAMS: usize = 2 * (2 * INPUTS + 1);

/// One training example.
struct Example {
    /// The inputs of the side to move, then of the other side, then 1 (the bias), each scaled by
    /// the share of the placing evaluation `s = h / T`; then the same scaled by the late
    /// correction's weight `4 s (1 - s)`.
    x: [f64; PARAMS],
    /// The part of the evaluation that is not fitted.
    fixed: f64,
    /// The label, in centi-pieces.
    target: f64,
    /// The mean score of the side to move in the games that reached the position (1 a win,
    /// 1/2 a draw), and its share of the goal (`--lambda`; 0 without `--results`).
    result: f64,
    lambda: f64,
}

impl Example {
    /// What the fit brings `σ(e / k)` near: the label's `σ(s / k)`, blended with the games'
    /// result by `lambda`.
    fn goal(&self, k: f64) -> f64 {
        (1.0 - self.lambda) * sigmoid(self.target / k) + self.lambda * self.result
    }
}

fn capped(score: Score) -> f64 {
    match score {
        Score::Cp(x) => f64::from(x).clamp(-CAP, CAP),
        Score::Mate(n) if n > 0 => CAP,
        Score::Mate(_) => -CAP,
    }
}

fn example(l: &Labelled, terms: &LinearTerms) -> Example {
    let pos = &l.pos;
    let us = pos.side_to_move();
    let hands = f64::from(pos.in_hand(us) + pos.in_hand(!us));
    let share = hands / (2.0 * f64::from(pos.rules().pieces));
    let [ours, theirs] = eval::both_inputs(pos, us, &terms.by_degree);
    let bump = 4.0 * share * (1.0 - share);
    let half = 2 * INPUTS + 1;
    let mut x = [0.0; PARAMS];
    for i in 0..INPUTS {
        x[i] = share * f64::from(ours[i]);
        x[INPUTS + i] = share * f64::from(theirs[i]);
        x[half + i] = bump * f64::from(ours[i]);
        x[half + INPUTS + i] = bump * f64::from(theirs[i]);
    }
    x[2 * INPUTS] = share;
    x[PARAMS - 1] = bump;
    let written = f64::from(eval::hand_written(pos, &Weights::DEFAULT));
    Example {
        x,
        fixed: share * f64::from(eval::material(pos)) + (1.0 - share) * written,
        target: capped(l.score),
        result: 0.5,
        lambda: 0.0,
    }
}

/// A training example of the moving correction: the inputs of the side to move, of the other
/// side and 1 (the bias) in the first `2 INPUTS + 1` places, faded as the evaluation fades them
/// under the fade `fade` (`eval::moving_share`), over the hand-written evaluation.
fn moving_example(l: &Labelled, terms: &LinearTerms, fade: i32) -> Example {
    let pos = &l.pos;
    let us = pos.side_to_move();
    let [ours, theirs] = eval::both_inputs(pos, us, &terms.by_degree);
    let (share, whole) = eval::moving_share(pos, fade);
    let share = f64::from(share) / f64::from(whole);
    let mut x = [0.0; PARAMS];
    for i in 0..INPUTS {
        x[i] = share * f64::from(ours[i]);
        x[INPUTS + i] = share * f64::from(theirs[i]);
    }
    x[2 * INPUTS] = share;
    Example {
        x,
        fixed: f64::from(eval::hand_written(pos, &Weights::DEFAULT)),
        target: capped(l.score),
        result: 0.5,
        lambda: 0.0,
    }
}

/// Whether `pos` is one the moving correction serves: the moving phase, no removal pending,
/// neither side flying.
fn is_moving(pos: &crate::Position) -> bool {
    !pos.is_placing()
        && pos.pending_removals() == 0
        && !pos.can_fly(crate::Color::White)
        && !pos.can_fly(crate::Color::Black)
}

/// For each class of placing positions (`rules::symmetry::fold`) the games reached, the side to move's
/// total score in them and how many they are; games without a result (`*`) count for nothing.
fn results_of_games(
    games: &[crate::matches::run::replay::GameRead],
    rules: &crate::Rules,
) -> Result<FxHashMap<u64, (f64, usize)>, TrainError> {
    let mut out = FxHashMap::default();
    super::label::each_position(games, rules, super::label::Phase::Placing, |n, pos, _| {
        let white = match games[n].2.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return,
        };
        let r = if pos.side_to_move() == crate::Color::White {
            white
        } else {
            1.0 - white
        };
        let slot = out
            .entry(crate::rules::symmetry::fold(pos).key)
            .or_insert((0.0, 0));
        slot.0 += r;
        slot.1 += 1;
    })?;
    Ok(out)
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

fn predict(e: &Example, w: &[f64]) -> f64 {
    e.fixed + e.x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>()
}

/// The mean loss and the mean absolute error in centi-pieces.
fn loss(examples: &[&Example], w: &[f64], k: f64) -> (f64, f64) {
    let n = examples.len().max(1) as f64;
    let (mut l, mut abs) = (0.0, 0.0);
    for e in examples {
        let p = predict(e, w);
        let d = sigmoid(p / k) - e.goal(k);
        l += d * d;
        abs += (p - e.target).abs();
    }
    (l / n, abs / n)
}

fn as_vector(l: &LinearWeights) -> Vec<f64> {
    let mut w: Vec<f64> = l.us.iter().chain(&l.them).map(|&v| f64::from(v)).collect();
    w.push(f64::from(l.tempo));
    w.extend(l.late_us.iter().chain(&l.late_them).map(|&v| f64::from(v)));
    w.push(f64::from(l.late_tempo));
    w
}

/// The moving correction's weights as a vector of `PARAMS` (the second half zero, unused).
fn as_moving_vector(l: &LinearWeights) -> Vec<f64> {
    let mut w: Vec<f64> = l
        .moving_us
        .iter()
        .chain(&l.moving_them)
        .map(|&v| f64::from(v))
        .collect();
    w.push(f64::from(l.moving_tempo));
    w.resize(PARAMS, 0.0);
    w
}

/// The weights of a fitted vector (see `PARAMS`) and of a fitted moving vector (see
/// `as_moving_vector`), rounded to whole centi-pieces, with the moving correction's fade.
fn as_weights(variant: &'static str, w: &[f64], mw: &[f64], fade: i32) -> LinearWeights {
    let at = |i: usize| w[i].round() as i32;
    let mat = |i: usize| mw[i].round() as i32;
    let half = 2 * INPUTS + 1;
    LinearWeights {
        moving_us: std::array::from_fn(mat),
        moving_them: std::array::from_fn(|i| mat(INPUTS + i)),
        moving_tempo: mat(2 * INPUTS),
        moving_fade: fade,
        variant,
        us: std::array::from_fn(at),
        them: std::array::from_fn(|i| at(INPUTS + i)),
        tempo: at(2 * INPUTS),
        late_us: std::array::from_fn(|i| at(half + i)),
        late_them: std::array::from_fn(|i| at(half + INPUTS + i)),
        late_tempo: at(PARAMS - 1),
    }
}

/// Full-batch gradient descent with Adam from `start`: the weights that bring the examples'
/// evaluations nearest their labels (see the module's comment). Without `late`, the late
/// correction's weights keep their starting values.
fn descend(
    train: &[&Example],
    start: &[f64],
    k: f64,
    steps: usize,
    l2: f64,
    late: bool,
) -> Vec<f64> {
    let moving = if late { start.len() } else { 2 * INPUTS + 1 };
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (lr, b1, b2) = (0.5, 0.9, 0.999);
    let n = train.len().max(1) as f64;
    for step in 1..=steps {
        let mut grad = vec![0.0; w.len()];
        for e in train {
            let s = sigmoid(predict(e, &w) / k);
            let g = 2.0 * (s - e.goal(k)) * s * (1.0 - s) / k / n;
            for (gi, xi) in grad.iter_mut().zip(&e.x) {
                *gi += g * xi;
            }
        }
        for i in 0..moving {
            let gi = grad[i] + 2.0 * l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    w
}

/// The examples to fit (nine in ten) and those held out (every tenth, from the first).
fn split(examples: &[Example]) -> (Vec<&Example>, Vec<&Example>) {
    let train = examples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 10 != 0)
        .map(|(_, e)| e)
        .collect();
    (train, examples.iter().step_by(10).collect())
}

/// How a fit goes (see the module's comment).
#[derive(Clone, Copy, Debug)]
pub struct FitPlan {
    /// The scale K of the logistic function, in centi-pieces.
    pub scale: f64,
    /// Gradient steps.
    pub steps: usize,
    /// Pull of each weight towards its starting value (L2).
    pub l2: f64,
    /// The games' results' share of the goal where they have them.
    pub lambda: f64,
    /// Fit the late correction too.
    pub late: bool,
    /// Fit the moving correction too.
    pub moving: bool,
    /// The moving correction's fade.
    pub fade: i32,
}

/// The losses of a fit (see `loss`): the mean loss and the mean absolute error in
/// centi-pieces, before and after.
#[derive(Clone, Copy, Debug)]
pub struct Losses {
    /// Before the fit (the starting weights).
    pub before: (f64, f64),
    /// After it (the rounded weights).
    pub after: (f64, f64),
}

/// What a fit found: the weights, the examples it used and the losses.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The weights, rounded.
    pub weights: LinearWeights,
    /// Labelled positions read.
    pub read: usize,
    /// Placing examples (one a class of positions), and how many were fitted and held out.
    pub placing: (usize, usize, usize),
    /// Of the placing examples, those reached by the games with results.
    pub with_results: usize,
    /// Moving examples, and how many were fitted and held out.
    pub moving: (usize, usize, usize),
    /// The losses on the placing examples fitted.
    pub fitted_loss: Losses,
    /// The losses on the placing examples held out.
    pub held_loss: Losses,
    /// The losses on the moving examples held out.
    pub moving_loss: Losses,
}

/// The games' results by class of placing positions (see `results_of_games`).
#[derive(Clone, Debug, Default)]
pub struct GameResults(FxHashMap<u64, (f64, usize)>);

/// The games' results by class of placing positions, from the game files given to `--results`.
pub fn game_results(files: &[PathBuf], rules: &crate::Rules) -> Result<GameResults, TrainError> {
    Ok(GameResults(results_of_games(
        &super::label::games_of_files(files)?,
        rules,
    )?))
}

/// The examples of the label journals `files`: the placing positions (each class once, with the
/// games' `results` blended in by `plan.lambda`) and, with `plan.moving`, the moving ones; with
/// the count of labels read. Too few of either is an error.
fn examples(
    files: &[PathBuf],
    rules: &crate::Rules,
    terms: &LinearTerms,
    results: &GameResults,
    plan: &FitPlan,
) -> Result<(Vec<Example>, Vec<Example>, usize), TrainError> {
    let mut seen = FxHashSet::default();
    let mut examples = Vec::new();
    let mut moving = Vec::new();
    let mut read = 0;
    for f in files {
        for l in read_labels(f, rules)? {
            read += 1;
            let canonical = crate::rules::symmetry::fold(&l.pos).key;
            if l.pos.is_placing() && l.pos.pending_removals() == 0 && seen.insert(canonical) {
                let mut e = example(&l, terms);
                if let Some(&(sum, n)) = results.0.get(&canonical) {
                    e.result = sum / n as f64;
                    e.lambda = plan.lambda;
                }
                examples.push(e);
            } else if plan.moving && is_moving(&l.pos) && seen.insert(canonical) {
                moving.push(moving_example(&l, terms, plan.fade));
            }
        }
    }
    if plan.moving && moving.len() < 100 {
        return Err(TrainError::TooFewMoving {
            found: moving.len(),
        });
    }
    if examples.len() < 100 {
        return Err(TrainError::TooFewPlacing {
            found: examples.len(),
            read,
        });
    }
    Ok((examples, moving, read))
}

/// Fits the weights to the labels of the journals `files` under `rules` (see the module's
/// comment).
pub fn fit(
    files: &[PathBuf],
    rules: &crate::Rules,
    terms: &LinearTerms,
    results: &GameResults,
    plan: &FitPlan,
) -> Result<Fitted, TrainError> {
    let (examples, moving, read) = self::examples(files, rules, terms, results, plan)?;
    let (train, held) = split(&examples);
    let start = as_vector(&LinearWeights::HAND);
    let k = plan.scale;
    let before = (loss(&train, &start, k), loss(&held, &start, k));
    let w = descend(&train, &start, k, plan.steps, plan.l2, plan.late);
    let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
    let after = (loss(&train, &rounded, k), loss(&held, &rounded, k));
    // The moving correction: its own examples, its own weights (the first half of a vector).
    let (mtrain, mheld) = split(&moving);
    let mstart = as_moving_vector(&LinearWeights::HAND);
    let mw = if plan.moving {
        descend(&mtrain, &mstart, k, plan.steps, plan.l2, false)
    } else {
        mstart.clone()
    };
    let mrounded: Vec<f64> = mw.iter().map(|x| x.round()).collect();
    Ok(Fitted {
        weights: as_weights(terms.weights.variant, &rounded, &mrounded, plan.fade),
        read,
        placing: (examples.len(), train.len(), held.len()),
        with_results: examples.iter().filter(|e| e.lambda > 0.0).count(),
        moving: (moving.len(), mtrain.len(), mheld.len()),
        fitted_loss: Losses {
            before: before.0,
            after: after.0,
        },
        held_loss: Losses {
            before: before.1,
            after: after.1,
        },
        moving_loss: Losses {
            before: loss(&mheld, &mstart, k),
            after: loss(&mheld, &mrounded, k),
        },
    })
}

/// What the weights' source file begins with, as `train fit` recognises its own output
/// (`durable::Role::ReplacesOwn`).
pub const OWN: crate::durable::Own = crate::durable::Own {
    magic: b"//! The learned weights of the placing phase",
    name: "a file of weights written by moulin train fit",
};

/// The Rust source of `src/search/eval/fitted_weights.rs` holding `weights`.
pub fn source_text(weights: &LinearWeights, command: &str, about: &str) -> String {
    let list = |v: &[i32; INPUTS]| {
        v.iter()
            .map(std::string::ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "//! The learned weights of the placing phase and of the moving correction (see\n\
         //! `linear_weights::LinearWeights`), written by `moulin train fit`; do not edit by hand. Inputs, in order:\n\
         //! {}.\n\
         //!\n\
         //! Made by: `{command}`\n\
         //!\n\
         //! From: {about}.\n\
         \n\
         use super::linear_weights::LinearWeights;\n\
         \n\
         pub const FITTED: LinearWeights = LinearWeights {{\n    \
             variant: \"{}\",\n    \
             us: [{}],\n    \
             them: [{}],\n    \
             tempo: {},\n    \
             late_us: [{}],\n    \
             late_them: [{}],\n    \
             late_tempo: {},\n    \
             moving_us: [{}],\n    \
             moving_them: [{}],\n    \
             moving_tempo: {},\n    \
             moving_fade: {},\n\
         }};\n",
        INPUT_NAMES.join(", "),
        weights.variant,
        list(&weights.us),
        list(&weights.them),
        weights.tempo,
        list(&weights.late_us),
        list(&weights.late_them),
        weights.late_tempo,
        list(&weights.moving_us),
        list(&weights.moving_them),
        weights.moving_tempo,
        weights.moving_fade
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::movegen;
    use crate::rules::notation::Convention;
    use crate::rules::position::Position;

    /// 2,000 random placing positions (after 2 to `most` turns), each labelled by the
    /// hand-written evaluation plus `planted(inputs of the side to move, share of the pieces
    /// in hand)`.
    fn planted_examples(
        seed: u64,
        most: usize,
        planted: impl Fn(&[i32], f64) -> f64,
    ) -> Vec<Example> {
        let rules = crate::Rules::nine();
        let terms = LinearTerms::for_rules(&rules).unwrap();
        let mut rng = Rng::new(seed);
        let mut examples = Vec::new();
        while examples.len() < 2000 {
            let mut pos = Position::start(rules);
            for _ in 0..2 + rng.below(most - 1) {
                let legal = movegen::legal_moves(&pos, Convention::Turn);
                pos.play(legal[rng.below(legal.len())]);
            }
            if !pos.is_placing() {
                continue;
            }
            let us = pos.side_to_move();
            let x = eval::inputs(&pos, us, &terms.by_degree);
            let share = f64::from(pos.in_hand(us) + pos.in_hand(!us)) / 18.0;
            let extra = planted(&x, share).round() as i32;
            let l = Labelled {
                pos,
                plies: 0,
                score: Score::Cp(eval::hand_written(&pos, &Weights::DEFAULT) + extra),
            };
            examples.push(example(&l, &terms));
        }
        examples
    }

    /// Labels with 40 a piece on a point with four neighbours for the side to move (fading as
    /// the hands empty, as the placing evaluation does): the fit finds that weight.
    #[test]
    fn recovers_a_planted_weight() {
        let examples = planted_examples(7, 15, |x, share| 40.0 * f64::from(x[3]) * share);
        let refs: Vec<&Example> = examples.iter().collect();
        let start = as_vector(&LinearWeights::HAND);
        let w = descend(&refs, &start, 200.0, 3000, 0.0, false);
        // The counts of pieces on the three kinds of point, in hand (and the bias) add up to
        // nine a side while nothing is removed: only their differences are determined.
        let planted = w[3] - w[1];
        assert!(
            (planted - 40.0).abs() < 4.0,
            "4-points weigh {planted} more, not 40"
        );
        assert!(
            (w[2] - w[1]).abs() < 4.0,
            "3-points weigh {} more",
            w[2] - w[1]
        );
        let (before, _) = loss(&refs, &start, 200.0);
        let (after, error) = loss(&refs, &w, 200.0);
        assert!(after < before / 10.0, "loss {before} -> {after}");
        assert!(error < 3.0, "mean error {error} cp");
    }

    /// Moving positions of random games labelled with the hand-written evaluation plus 30 an
    /// open mill of the side to move, faded as the evaluation fades the moving correction: the
    /// moving fit finds that weight, and no placing weight
    /// is touched by moving examples.
    #[test]
    #[allow(clippy::float_cmp)] // the weights compared are whole numbers, exact in an f64
    fn recovers_a_planted_moving_weight() {
        let rules = crate::Rules::nine();
        let terms = LinearTerms::for_rules(&rules).unwrap();
        let mut rng = Rng::new(13);
        let mut examples = Vec::new();
        while examples.len() < 2000 {
            let mut pos = Position::start(rules);
            for _ in 0..18 + rng.below(30) {
                let legal = movegen::legal_moves(&pos, Convention::Turn);
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[rng.below(legal.len())]);
            }
            if !is_moving(&pos) || pos.outcome().is_some() {
                continue;
            }
            let x = eval::inputs(&pos, pos.side_to_move(), &terms.by_degree);
            let (share, whole) = eval::moving_share(&pos, 3);
            let faded = 30 * x[6] * share / whole;
            let l = Labelled {
                pos,
                plies: 0,
                score: Score::Cp(eval::hand_written(&pos, &Weights::DEFAULT) + faded),
            };
            examples.push(moving_example(&l, &terms, 3));
        }
        let refs: Vec<&Example> = examples.iter().collect();
        let start = as_moving_vector(&LinearWeights::HAND);
        assert!(start.iter().all(|&w| w == 0.0));
        let w = descend(&refs, &start, 200.0, 3000, 0.0, false);
        assert!((w[6] - 30.0).abs() < 3.0, "open mills weigh {}", w[6]);
        let (after, error) = loss(&refs, &w, 200.0);
        assert!(after < loss(&refs, &start, 200.0).0 / 10.0);
        assert!(error < 3.0, "mean error {error} cp");
        // The fitted vector lands in the moving weights, in their places.
        let weights = as_weights("nine", &as_vector(&LinearWeights::HAND), &w, 3);
        assert_eq!(weights.moving_us[6], w[6].round() as i32);
        assert_eq!(weights.moving_tempo, w[2 * INPUTS].round() as i32);
        assert_eq!(
            as_moving_vector(&weights)[6],
            f64::from(weights.moving_us[6])
        );
        assert_eq!(weights.moving_fade, 3);
    }

    /// Labels with a late bonus of 60 a piece on a 4-point for the side to move (weighed by
    /// 4 s (1 - s), as the late correction is): the fit with the late correction finds it, the
    /// one without cannot.
    #[test]
    #[allow(clippy::float_cmp)] // weights not fitted keep their starting values exactly
    fn recovers_a_planted_late_weight() {
        let examples =
            planted_examples(11, 16, |x, s| 4.0 * s * (1.0 - s) * 60.0 * f64::from(x[3]));
        let refs: Vec<&Example> = examples.iter().collect();
        let start = as_vector(&LinearWeights::HAND);
        let half = 2 * INPUTS + 1;
        let w = descend(&refs, &start, 200.0, 3000, 0.0, true);
        let planted = w[half + 3] - w[half + 1];
        assert!(
            (planted - 60.0).abs() < 6.0,
            "late 4-points weigh {planted} more, not 60"
        );
        let (_, with) = loss(&refs, &w, 200.0);
        let without = descend(&refs, &start, 200.0, 3000, 0.0, false);
        assert!(without[half..]
            .iter()
            .zip(&start[half..])
            .all(|(a, b)| a == b));
        let (_, tapered_only) = loss(&refs, &without, 200.0);
        assert!(
            with < 3.0 && tapered_only > with * 2.0,
            "{with} {tapered_only}"
        );
        let weights = as_weights("nine", &w, &as_moving_vector(&LinearWeights::HAND), 0);
        assert_eq!(weights.late_us[3], w[half + 3].round() as i32);
    }

    #[test]
    fn the_games_results_are_the_side_to_move_s_mean_score() {
        let rules = crate::Rules::nine();
        let game = |moves: &str, result: &str| {
            (
                crate::rules::game::Game::new(rules),
                moves.split_whitespace().map(String::from).collect(),
                result.to_string(),
            )
        };
        // The second game reaches the first one's positions mirrored; the third has no result.
        let games = vec![
            game("d2 d6 b4", "1-0"),
            game("d6 d2 b4", "1/2-1/2"),
            game("d2 d6 b4", "*"),
        ];
        let results = results_of_games(&games, &rules).unwrap();
        let mut pos = Position::start(rules);
        let mut keys = Vec::new();
        for t in ["d2", "d6", "b4"] {
            let mv = movegen::legal_moves(&pos, Convention::Turn)
                .into_iter()
                .find(|m| m.written_at(&pos, Convention::Turn) == t)
                .unwrap();
            pos.play(mv);
            keys.push(crate::rules::symmetry::fold(&pos).key);
        }
        // After 2 turns White is to move: a win and a draw, 0.75; after 3, Black: 0.25.
        assert!(
            !results.contains_key(&keys[0]),
            "after 1 turn: not a position to label"
        );
        assert_eq!(results[&keys[1]], (1.5, 2));
        assert_eq!(results[&keys[2]], (0.5, 2));
        // The goal blends the label's probability with the result by λ.
        let mut e = planted_examples(3, 5, |_, _| 0.0).remove(0);
        e.target = 0.0;
        e.result = 1.0;
        e.lambda = 0.5;
        assert!((e.goal(200.0) - 0.75).abs() < 1e-12);
    }

    #[test]
    fn the_deepest_journal_comes_first_so_its_labels_are_kept() {
        let dir = std::env::temp_dir().join(format!("moulin-fit-depth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (
            dir.join("labels-d13-games.txt"),
            dir.join("labels-d15-games.txt"),
        );
        std::fs::write(&a, "# moulin label journal: variant nine depth 13 seed 1\n").unwrap();
        std::fs::write(
            &b,
            "# moulin label journal: variant nine depth 15 games 3\n",
        )
        .unwrap();
        let files = label_files("nine", &[a.clone(), b.clone()]).unwrap();
        assert_eq!(files, vec![b, a]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_written_source_names_every_weight() {
        let text = source_text(&LinearWeights::HAND, "moulin train fit", "nothing");
        assert!(text.contains("us: [0, 0, 0, 0, 12, -25, 0, 0, 0, 0, 0, 0]"));
        assert!(text.contains("tempo: 10"));
        assert!(text.contains("late_us: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]"));
        assert!(text.contains("late_tempo: 0"));
        assert!(text.contains("moving_fade: 0"));
        assert!(text.contains("Made by: `moulin train fit`"));
    }
}
