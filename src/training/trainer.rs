//! The network trainer behind `veil train`: the network of [`crate::nnue`] in floating
//! point, fitted by Adam (Kingma & Ba 2015) on mini-batches split over every core.
//!
//! Each position's target is `λ · result + (1 − λ) · σ(score / K)` (the blend `veil tune
//! --lambda` uses), its prediction `σ(evaluation / K)`, where the evaluation in centipawns is
//! the output times SCALE and K (the *WDL scale*) is how many centipawns make one logistic
//! unit of winning chances; each sample carries its own K, so that plain and covered
//! positions may differ (docs/networks.md); the loss is the squared error. The first layer is sparse: the
//! forward pass adds the rows of the active features, the backward pass adds the gradient to
//! those rows only. Each thread keeps its own gradient; they are summed per batch.
//!
//! A network whose base is the hand-written evaluation ([`Base::HandWritten`]) is trained
//! as a correction: each sample carries that evaluation of its position, and the prediction
//! is `σ((base + evaluation) / K)`.
//!
//! A network with an output layer per bucket of pieces ([`FloatNetwork::bucketed`]) trains
//! each position's layer only; the feature layer learns from every position.

use super::format::Record;
use crate::nnue::features::{Snapshot, INPUTS};
use crate::nnue::network::{
    output_bucket, Base, Network, OutputLayer, HIDDEN, MAX_OUTPUT_WEIGHT, MAX_QB, OUTPUT_BUCKETS, QA, QB, SCALE,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Most features a perspective can have (32 pieces and 30 pool slots).
const MAX_FEATURES: usize = 64;
/// Where a fresh unit's feature weights and bias are drawn from.
const INITIAL_WEIGHTS: std::ops::Range<f32> = -0.15..0.15;
const INITIAL_BIASES: std::ops::Range<f32> = 0.0..0.2;
/// Weights are kept within this, so that the quantised accumulator cannot overflow.
const CLIP: f32 = 1.98;

/// One training position: its features for the side to move and the other side, and the
/// target.
#[derive(Clone)]
pub struct Sample {
    features: [[u16; MAX_FEATURES]; 2],
    counts: [u8; 2],
    target: f32,
    /// Output units per logistic unit of the prediction: SCALE / the sample's WDL scale.
    slope: f32,
    /// What the network's output is added to, in output units (0 unless the network is a
    /// correction).
    base: f32,
    /// Pieces on the board, which pick the output layer of a network with several.
    pieces: u8,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// The sample of `record`, with `λ = lambda` and centipawns per logistic unit
    /// `wdl_scale`, for a network whose output is added to `base_cp` centipawns (the side to
    /// move's view; 0 for a whole evaluation).
    pub fn from_record(record: &Record, lambda: f32, wdl_scale: f32, base_cp: i32) -> Sample {
        let snapshot = Snapshot::of(&record.position);
        let mover = record.position.side_to_move();
        let mut features = [[0u16; MAX_FEATURES]; 2];
        let mut counts = [0u8; 2];
        let mut list = Vec::with_capacity(MAX_FEATURES);
        for (i, perspective) in [mover, !mover].into_iter().enumerate() {
            snapshot.features(perspective, &mut list);
            let n = list.len().min(MAX_FEATURES);
            features[i][..n].copy_from_slice(&list[..n]);
            counts[i] = n as u8;
        }
        let result = record.result as f32 / 2.0;
        let score = sigmoid(record.score as f32 / wdl_scale);
        Sample {
            features,
            counts,
            target: lambda * result + (1.0 - lambda) * score,
            slope: SCALE as f32 / wdl_scale,
            base: base_cp as f32 / SCALE as f32,
            pieces: record.position.occupied().count() as u8,
        }
    }

    fn active(&self, side: usize) -> &[u16] {
        &self.features[side][..self.counts[side] as usize]
    }
}

/// The network in floating point (one unit = 1.0; `SCALE` centipawns per output unit).
#[derive(Clone)]
pub struct FloatNetwork {
    /// `INPUTS × HIDDEN`, input-major.
    pub feature_weights: Vec<f32>,
    pub feature_bias: Vec<f32>,
    /// `2 × HIDDEN` per output layer: the side to move's half, then the other's.
    pub output_weights: Vec<f32>,
    /// One per output layer (1 or [`OUTPUT_BUCKETS`]).
    pub output_bias: Vec<f32>,
    pub base: Base,
}

impl FloatNetwork {
    /// Random weights. A correction (any `base` but [`Base::Nothing`]) starts with its output
    /// layer at zero, so that it evaluates as its base alone and training starts from there.
    pub fn random(seed: u64, base: Base) -> FloatNetwork {
        use rand::Rng;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        FloatNetwork {
            feature_weights: (0..INPUTS * HIDDEN).map(|_| rng.gen_range(INITIAL_WEIGHTS)).collect(),
            feature_bias: (0..HIDDEN).map(|_| rng.gen_range(INITIAL_BIASES)).collect(),
            output_weights: (0..2 * HIDDEN).map(|_| rng.gen_range(-0.3..0.3)).collect(),
            output_bias: vec![0.0],
            base: Base::Nothing,
        }
        .correcting(base)
    }

    /// How many output layers the network has.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The network with an output layer per bucket of [`OUTPUT_BUCKETS`], each a copy of its
    /// one layer: it evaluates as before, and each layer can then learn its own part of the
    /// game. A network that has them already is returned as it is.
    pub fn bucketed(mut self) -> FloatNetwork {
        if self.buckets() == 1 {
            self.output_weights = self.output_weights.repeat(OUTPUT_BUCKETS);
            self.output_bias = self.output_bias.repeat(OUTPUT_BUCKETS);
        }
        self
    }

    /// The output layer that scores `sample` (as [`Network::bucket_of`] picks it).
    fn layer(&self, sample: &Sample) -> usize {
        output_bucket(u32::from(sample.pieces), self.buckets())
    }

    /// This network as a correction to `base`. If it was a whole network (or becomes one),
    /// its output layer starts at zero, so that the corrected evaluation starts as the base
    /// itself; the feature layer is kept (what it learnt is a start for the correction's
    /// features). A correction to another base keeps its output layer: what it corrected is
    /// a start for what it must now correct.
    pub fn correcting(mut self, base: Base) -> FloatNetwork {
        if self.base != base && (self.base == Base::Nothing || base == Base::Nothing) {
            self.output_weights.fill(0.0);
            self.output_bias.fill(0.0);
        }
        self.base = base;
        self
    }

    /// A quantised network turned back to floating point (to fine-tune it). The units a
    /// narrower network left at zero get small random feature weights and biases (drawn from
    /// `seed`) and keep their output weights at zero: the network evaluates as before, and
    /// the new units can learn (a unit with no inputs and no output has no gradient).
    pub fn from_quantised(network: &Network, seed: u64) -> FloatNetwork {
        use rand::Rng;
        let mut float = FloatNetwork {
            feature_weights: network
                .feature_weights
                .iter()
                .flat_map(|row| row.iter().map(|&w| w as f32 / QA as f32))
                .collect(),
            feature_bias: network.feature_bias.iter().map(|&b| b as f32 / QA as f32).collect(),
            output_weights: network
                .outputs
                .iter()
                .flat_map(|layer| layer.weights.iter().flatten())
                .map(|&w| w as f32 / network.output_scale as f32)
                .collect(),
            output_bias: network
                .outputs
                .iter()
                .map(|layer| layer.bias as f32 / (QA * network.output_scale) as f32)
                .collect(),
            base: network.base,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for j in network.width..HIDDEN {
            for feature in 0..INPUTS {
                float.feature_weights[feature * HIDDEN + j] = rng.gen_range(INITIAL_WEIGHTS);
            }
            float.feature_bias[j] = rng.gen_range(INITIAL_BIASES);
        }
        float
    }

    /// The finest output scale, a power of two from [`QB`] to [`MAX_QB`], at which every
    /// output weight rounds within [`MAX_OUTPUT_WEIGHT`]. The output weights are small (a
    /// hidden unit moves the score by a few centipawns), so at [`QB`] alone most would round
    /// to a handful of values and lose much of what training taught them.
    pub fn output_scale(&self) -> i32 {
        let largest = self.output_weights.iter().fold(0.0f32, |most, w| most.max(w.abs()));
        let mut scale = QB;
        while scale < MAX_QB && largest * (2 * scale) as f32 <= (MAX_OUTPUT_WEIGHT - 1) as f32 {
            scale *= 2;
        }
        scale
    }

    /// Rounds to the inference network.
    pub fn quantise(&self, generation: u32, description: &str) -> Network {
        let output_scale = self.output_scale();
        let q = |value: f32, scale: i32| (value * scale as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let mut feature_weights = vec![[0i16; HIDDEN]; INPUTS];
        for (feature, row) in feature_weights.iter_mut().enumerate() {
            for (j, weight) in row.iter_mut().enumerate() {
                *weight = q(self.feature_weights[feature * HIDDEN + j], QA);
            }
        }
        let mut feature_bias = [0i16; HIDDEN];
        for (j, bias) in feature_bias.iter_mut().enumerate() {
            *bias = q(self.feature_bias[j], QA);
        }
        let outputs = (0..self.buckets())
            .map(|layer| OutputLayer {
                weights: std::array::from_fn(|half| {
                    std::array::from_fn(|j| q(self.output_weights[(2 * layer + half) * HIDDEN + j], output_scale))
                }),
                bias: (self.output_bias[layer] * (QA * output_scale) as f32).round() as i32,
            })
            .collect();
        let network = Network {
            generation,
            base: self.base,
            description: description.to_string(),
            feature_weights,
            feature_bias,
            outputs,
            output_scale,
            width: HIDDEN,
            checksum: 0,
        };
        // Read back, so that the checksum is the file's.
        Network::from_bytes(&network.to_bytes()).expect("a network just written reads back")
    }

    fn hidden(&self, features: &[u16], acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.feature_bias);
        for &feature in features {
            let row = &self.feature_weights[feature as usize * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (before the sigmoid) and both perspectives' accumulators.
    fn forward(&self, sample: &Sample, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let layer = self.layer(sample);
        let mut out = self.output_bias[layer];
        for (side, acc) in acc.iter_mut().enumerate() {
            self.hidden(sample.active(side), acc);
            let weights = &self.output_weights[(2 * layer + side) * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter().zip(weights) {
                let h = a.clamp(0.0, 1.0);
                out += h * h * w;
            }
        }
        out
    }

    /// The evaluation in centipawns of a position's sample (for tests).
    pub fn evaluate(&self, sample: &Sample) -> f32 {
        let mut acc = [[0.0; HIDDEN]; 2];
        self.forward(sample, &mut acc) * SCALE as f32
    }

    fn parameters(&self) -> usize {
        self.feature_weights.len() + self.feature_bias.len() + self.output_weights.len() + self.output_bias.len()
    }

    /// Where the output biases start in a [`Gradient`].
    fn output_bias_at(&self) -> usize {
        OUTPUT_AT + self.output_weights.len()
    }
}

/// Gradients in the same layout as [`FloatNetwork`], flattened:
/// feature weights, feature biases, output weights, output biases.
struct Gradient {
    values: Vec<f32>,
    loss: f64,
}

impl Gradient {
    fn new(size: usize) -> Gradient {
        Gradient {
            values: vec![0.0; size],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.values.fill(0.0);
        self.loss = 0.0;
    }
}

const BIAS_AT: usize = INPUTS * HIDDEN;
const OUTPUT_AT: usize = BIAS_AT + HIDDEN;

/// Adds the gradient of one batch slice's squared error to `gradient`.
fn accumulate(network: &FloatNetwork, samples: &[&Sample], gradient: &mut Gradient) {
    let mut acc = [[0.0f32; HIDDEN]; 2];
    for sample in samples {
        let slope = sample.slope;
        let out = network.forward(sample, &mut acc) + sample.base;
        let prediction = sigmoid(out * slope);
        let error = prediction - sample.target;
        gradient.loss += (error * error) as f64;
        let g = 2.0 * error * prediction * (1.0 - prediction) * slope;
        let layer = network.layer(sample);
        gradient.values[network.output_bias_at() + layer] += g;
        for (side, acc) in acc.iter().enumerate() {
            let at = (2 * layer + side) * HIDDEN;
            let weights = &network.output_weights[at..][..HIDDEN];
            let mut d_acc = [0.0f32; HIDDEN];
            {
                let output_gradient = &mut gradient.values[OUTPUT_AT + at..][..HIDDEN];
                for j in 0..HIDDEN {
                    let a = acc[j];
                    let h = a.clamp(0.0, 1.0);
                    output_gradient[j] += g * h * h;
                    d_acc[j] = if a > 0.0 && a < 1.0 {
                        g * weights[j] * 2.0 * a
                    } else {
                        0.0
                    };
                }
            }
            for (b, d) in gradient.values[BIAS_AT..BIAS_AT + HIDDEN].iter_mut().zip(&d_acc) {
                *b += d;
            }
            for &feature in sample.active(side) {
                let row = &mut gradient.values[feature as usize * HIDDEN..][..HIDDEN];
                for (r, d) in row.iter_mut().zip(&d_acc) {
                    *r += d;
                }
            }
        }
    }
}

/// Mean squared error of `network` over `samples`.
pub fn loss(network: &FloatNetwork, samples: &[Sample]) -> f64 {
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let out = network.forward(sample, &mut acc) + sample.base;
            let error = sigmoid(out * sample.slope) - sample.target;
            (error * error) as f64
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// How a training run goes.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    /// The rate falls along a cosine to this share of itself: at the last epoch, or at the
    /// last step ([`Decay`]).
    pub final_rate_share: f32,
    /// What the cosine counts: epochs (the rate changes between them) or Adam steps.
    pub decay: Decay,
    pub threads: usize,
    pub seed: u64,
}

/// What the step size's cosine counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Decay {
    /// Epoch e of E runs at the cosine's point (e − 1) / E: a one-epoch run keeps the full
    /// rate.
    #[default]
    ByEpoch,
    /// Step s of S (over every epoch) runs at the point s / S, so the rate falls within an
    /// epoch too and reaches the final share at the last step.
    ByStep,
}

impl Schedule {
    /// Adam steps an epoch of `positions` takes: one a batch.
    pub fn steps_an_epoch(&self, positions: usize) -> usize {
        positions.div_ceil(self.batch.max(1))
    }

    /// The step size at `progress` (0 at the start, 1 at the end) along the cosine.
    fn rate_at(&self, progress: f32) -> f32 {
        let share = self.final_rate_share;
        self.rate * (share + (1.0 - share) * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()))
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub held_out_loss: f64,
    pub seconds: f64,
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    fn apply(&mut self, network: &mut FloatNetwork, gradient: &[f32], rate: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        let mut update = |i: usize, param: &mut f32, clip: f32| {
            let g = gradient[i] * scale;
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            let step = rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            *param = (*param - step).clamp(-clip, clip);
        };
        for (i, w) in network.feature_weights.iter_mut().enumerate() {
            update(i, w, CLIP);
        }
        for (j, b) in network.feature_bias.iter_mut().enumerate() {
            update(BIAS_AT + j, b, CLIP);
        }
        let output_bias_at = network.output_bias_at();
        for (j, w) in network.output_weights.iter_mut().enumerate() {
            update(OUTPUT_AT + j, w, CLIP);
        }
        for (j, b) in network.output_bias.iter_mut().enumerate() {
            update(output_bias_at + j, b, 1e6);
        }
    }
}

/// Trains `network` on `train`, reporting each epoch's losses (the held-out one on
/// `held_out`) to `report`.
pub fn train(
    network: &mut FloatNetwork,
    train: &[Sample],
    held_out: &[Sample],
    schedule: &Schedule,
    mut report: impl FnMut(&EpochReport),
) {
    let size = network.parameters();
    let threads = schedule.threads.max(1);
    let mut gradients: Vec<Gradient> = (0..threads).map(|_| Gradient::new(size)).collect();
    let mut adam = Adam {
        m: vec![0.0; size],
        v: vec![0.0; size],
        step: 0,
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(schedule.seed);
    let batch = schedule.batch.max(1);
    let steps_an_epoch = schedule.steps_an_epoch(train.len());
    let last_step = (steps_an_epoch * schedule.epochs).saturating_sub(1).max(1);
    for epoch in 1..=schedule.epochs {
        let started = Instant::now();
        let epoch_rate = schedule.rate_at((epoch - 1) as f32 / schedule.epochs.max(1) as f32);
        order.shuffle(&mut rng);
        let mut epoch_loss = 0.0;
        for (step, chunk) in order.chunks(batch).enumerate() {
            let rate = match schedule.decay {
                Decay::ByEpoch => epoch_rate,
                Decay::ByStep => {
                    let done = (epoch - 1) * steps_an_epoch + step;
                    schedule.rate_at(done as f32 / last_step as f32)
                }
            };
            let samples: Vec<&Sample> = chunk.iter().map(|&i| &train[i]).collect();
            let per_thread = samples.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (part, gradient) in samples.chunks(per_thread).zip(gradients.iter_mut()) {
                    let network = &*network;
                    scope.spawn(move || {
                        gradient.clear();
                        accumulate(network, part, gradient);
                    });
                }
            });
            let used = samples.len().div_ceil(per_thread);
            let (first, rest) = gradients.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (a, b) in first[0].values.iter_mut().zip(&other.values) {
                    *a += b;
                }
                first[0].loss += other.loss;
            }
            epoch_loss += first[0].loss;
            adam.apply(network, &first[0].values, rate, 1.0 / samples.len() as f32);
        }
        report(&EpochReport {
            epoch,
            train_loss: epoch_loss / train.len().max(1) as f64,
            held_out_loss: loss(network, held_out),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cosine starts at the rate and ends at its final share, by epoch or by step alike.
    #[test]
    fn the_rate_falls_from_the_first_to_the_final_share() {
        let schedule = Schedule {
            epochs: 1,
            batch: 1,
            rate: 0.001,
            final_rate_share: 0.1,
            decay: Decay::ByStep,
            threads: 1,
            seed: 1,
        };
        assert!((schedule.rate_at(0.0) - 0.001).abs() < 1e-9);
        assert!((schedule.rate_at(0.5) - 0.00055).abs() < 1e-9);
        assert!((schedule.rate_at(1.0) - 0.0001).abs() < 1e-9);
    }

    /// Small output weights are written at a finer scale, so that rounding keeps them; a
    /// network with a large one keeps the least scale.
    #[test]
    fn the_output_scale_is_the_finest_that_keeps_the_weights_in_range() {
        let mut float = FloatNetwork::random(3, Base::HandWritten);
        float
            .output_weights
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = 0.04 * ((i % 7) as f32 - 3.0) / 3.0);
        assert_eq!(float.output_scale(), 2048);
        let network = float.quantise(1, "fine");
        assert_eq!(network.output_scale, 2048);
        let back = FloatNetwork::from_quantised(&network, 1);
        for (a, b) in float.output_weights.iter().zip(&back.output_weights) {
            assert!((a - b).abs() <= 0.5 / 2048.0 + 1e-7);
        }
        float.output_weights[5] = -CLIP;
        assert_eq!(float.output_scale(), QB);
        assert!(float.quantise(1, "coarse").outputs[0].weights[0]
            .iter()
            .all(|w| w.unsigned_abs() <= 127));
    }
}
