//! One run of the network's training (`moulin train net`), its steps in order: the data made
//! distinct and split into training and held-out positions (`Data::of`), the epochs run from the
//! checkpoint beside the data when there is one of these settings (`train`), and the trained
//! network quantized at the scale of the hand-written evaluation (`quantize`).

use super::net::{self, Example, Plan, State};
use super::net_data::Sample;
use crate::durable::{self, DurableError};
use crate::job_progress::Progress;
use crate::rules::position::Position;
use crate::rules::Rules;
use crate::search::eval::network::{self, Network};
use crate::search::eval::{self, Weights};
use std::path::Path;

/// The data as a run trains on it.
pub struct Data {
    /// The positions drawn.
    pub drawn: usize,
    /// The distinct ones.
    pub samples: Vec<Sample>,
    /// Those trained on.
    pub train: Vec<Example>,
    /// Those held out, as drawn (`Example::held_out`).
    pub held: Vec<Sample>,
    /// Those held out, as examples.
    pub held_examples: Vec<Example>,
}

impl Data {
    /// The data of `samples` under `rules`: each position once (a position drawn again adds no
    /// truth, only weight: the start and the first placements of the players' games would
    /// otherwise be a good part of the data), split into training and held-out positions.
    pub fn of(mut samples: Vec<Sample>, rules: &Rules) -> Data {
        let drawn = samples.len();
        let mut seen = rustc_hash::FxHashSet::default();
        samples.retain(|s| seen.insert((s.pieces, s.hands, s.side)));
        let (mut train, mut held) = (Vec::new(), Vec::new());
        for s in &samples {
            let e = Example::of(&s.position(rules), s.wdl());
            if e.held_out() {
                held.push(*s);
            } else {
                train.push(e);
            }
        }
        let held_examples = held
            .iter()
            .map(|s| Example::of(&s.position(rules), s.wdl()))
            .collect();
        Data {
            drawn,
            samples,
            train,
            held,
            held_examples,
        }
    }
}

/// One epoch trained: its number (from 1), the training loss and the held-out loss.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// The epochs trained so far.
    pub epochs: usize,
    /// The mean training loss of this one.
    pub loss: f64,
    /// The loss on the held-out positions after it.
    pub held_loss: f64,
}

/// Trains on `data` by `plan`, from the checkpoint beside the data file `data_file` if there is
/// one of these settings, writing it after each epoch; each epoch told to `each`, each batch to
/// `progress`.
///
/// # Errors
///
/// A checkpoint that cannot be written; what `each` returns.
pub fn train<E: From<DurableError>>(
    plan: &Plan,
    data_file: &Path,
    data: &Data,
    progress: &dyn Progress,
    mut each: impl FnMut(Epoch) -> Result<(), E>,
) -> Result<State, E> {
    let checkpoint = data_file.with_extension(format!(
        "p{}-b{}-r{}-{}x{}x{}.ckpt",
        data.train.len(),
        plan.batch,
        plan.rate,
        network::INPUTS,
        network::HIDDEN,
        network::BUCKETS
    ));
    let mut state = match std::fs::read(&checkpoint)
        .ok()
        .and_then(|b| State::from_bytes(&b))
    {
        Some(s) => {
            progress.note(&format!(
                "resuming after epoch {} from {}",
                s.epochs,
                checkpoint.display()
            ));
            s
        }
        None => State::new(plan.seed),
    };
    while state.epochs < plan.epochs {
        progress.stage(
            data.train.len() as u64,
            0,
            &format!("epoch {}/{} ", state.epochs + 1, plan.epochs),
            "positions",
        );
        let loss = net::epoch(&mut state, &data.train, plan, |n| progress.advance(n));
        progress.finish();
        durable::write_atomic(&checkpoint, &state.to_bytes())?;
        each(Epoch {
            epochs: state.epochs,
            loss,
            held_loss: net::loss(&state.net, &data.held_examples),
        })?;
    }
    Ok(state)
}

/// The evaluation without a network: the hand-written one with the fitted linear terms.
pub fn hand_written(pos: &Position) -> i32 {
    eval::evaluate(pos, &Weights::DEFAULT.for_rules(pos.rules()))
}

/// The trained `state` quantized, at the scale that best matches the hand-written evaluation
/// on (up to 100,000 of) the data's positions, for `variant`, made by `command`; and the scale.
pub fn quantize(
    state: &State,
    data: &Data,
    rules: &Rules,
    variant: &str,
    command: &str,
) -> (Network, i32) {
    let (ex, reference): (Vec<Example>, Vec<i32>) = data
        .samples
        .iter()
        .step_by((data.samples.len() / 100_000).max(1))
        .map(|s| {
            let pos = s.position(rules);
            (Example::of(&pos, s.wdl()), hand_written(&pos))
        })
        .unzip();
    let scale = net::scale(&state.net, &ex, &reference);
    (state.net.quantized(rules, variant, command, scale), scale)
}
