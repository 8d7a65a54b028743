//! The fit: the logistic scale `k` that best maps static scores to results, then the weights
//! by full-batch gradient descent with Adam on the mean squared error
//! `mean((target - sigmoid(k * score))^2)`. The target is the game's result, or with
//! [`Dataset::blend`] a mix of the result and what the playing engine's search said of the
//! position (`lambda * result + (1 - lambda) * sigmoid(k * search score)`): a deeper look at
//! the same position, far less noisy than one game's result.

use super::data::Sample;
use crate::search::weights::PHASE_TOTAL;

/// One sample reduced to what the loss needs: the score is
/// `constant + sum(count * (mg * mg_share + eg * eg_share))`.
struct Row {
    counts: Vec<(u16, f32)>,
    constant: f64,
    mg_share: f64,
    eg_share: f64,
    result: f64,
    /// The search's score for White, if the game recorded one.
    searched: Option<f64>,
    /// What the prediction is fitted to (the result until [`Dataset::blend`]).
    target: f64,
}

/// The samples ready for fitting.
pub struct Dataset {
    rows: Vec<Row>,
}

impl Dataset {
    pub fn new(samples: &[Sample]) -> Dataset {
        let total = PHASE_TOTAL as f64;
        let rows = samples
            .iter()
            .map(|s| {
                let t = &s.trace;
                let mg_share = t.phase as f64 / total;
                let eg_share = t.scale as f64 / 64.0 * (total - t.phase as f64) / total;
                Row {
                    counts: t.counts.clone(),
                    constant: t.fixed.0 as f64 * mg_share
                        + t.fixed.1 as f64 * eg_share
                        + t.side as f64 * crate::search::weights::TEMPO as f64,
                    mg_share,
                    eg_share,
                    result: s.result,
                    searched: s.score.map(f64::from),
                    target: s.result,
                }
            })
            .collect();
        Dataset { rows }
    }

    /// Fits to `lambda * result + (1 - lambda) * sigmoid(k * search score)` where the search
    /// score is known (the result alone elsewhere); `lambda = 1` is the plain Texel fit.
    pub fn blend(&mut self, k: f64, lambda: f64) {
        for row in &mut self.rows {
            row.target = match row.searched {
                Some(score) => lambda * row.result + (1.0 - lambda) * sigmoid(k * score),
                None => row.result,
            };
        }
    }

    /// How many rows have a search score.
    pub fn searched(&self) -> usize {
        self.rows.iter().filter(|r| r.searched.is_some()).count()
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn score(row: &Row, values: &[(f64, f64)]) -> f64 {
        let mut score = row.constant;
        for &(p, c) in &row.counts {
            let (m, e) = values[p as usize];
            score += c as f64 * (m * row.mg_share + e * row.eg_share);
        }
        score
    }

    /// The mean squared error of the predictions with weights `values` and scale `k`.
    pub fn loss(&self, values: &[(f64, f64)], k: f64) -> f64 {
        if self.rows.is_empty() {
            return 0.0;
        }
        let sum: f64 = self
            .rows
            .iter()
            .map(|row| {
                let p = sigmoid(k * Self::score(row, values));
                (row.target - p).powi(2)
            })
            .sum();
        sum / self.rows.len() as f64
    }

    /// How many rows each parameter appears in.
    pub fn occurrences(&self, parameters: usize) -> Vec<usize> {
        let mut seen = vec![0; parameters];
        for row in &self.rows {
            for &(p, c) in &row.counts {
                if c != 0.0 {
                    seen[p as usize] += 1;
                }
            }
        }
        seen
    }

    /// The gradient of the loss by each weight's middlegame and endgame value.
    fn gradient(&self, values: &[(f64, f64)], k: f64) -> Vec<(f64, f64)> {
        let mut gradient = vec![(0.0, 0.0); values.len()];
        let n = self.rows.len().max(1) as f64;
        for row in &self.rows {
            let p = sigmoid(k * Self::score(row, values));
            let d = 2.0 * (p - row.target) * p * (1.0 - p) * k / n;
            for &(param, c) in &row.counts {
                let g = &mut gradient[param as usize];
                g.0 += d * c as f64 * row.mg_share;
                g.1 += d * c as f64 * row.eg_share;
            }
        }
        gradient
    }
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale `k` minimising the loss with the weights as they are (golden-section search on
/// its logarithm).
pub fn fit_k(data: &Dataset, values: &[(f64, f64)]) -> f64 {
    let (mut low, mut high) = ((1e-4f64).ln(), (0.1f64).ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - phi * (high - low);
        let b = low + phi * (high - low);
        if data.loss(values, a.exp()) < data.loss(values, b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Weight of the penalty `l2 * sum((w - start)^2)` that keeps the weights near where they
    /// started (0: none).
    pub l2: f64,
}

/// Fits the weights not `frozen`, from `start`, with scale `k`; `log` hears the training
/// loss every 100 epochs.
pub fn fit(
    data: &Dataset,
    start: &[(f64, f64)],
    frozen: &[bool],
    k: f64,
    schedule: Schedule,
    mut log: impl FnMut(usize, f64),
) -> Vec<(f64, f64)> {
    let (beta1, beta2, epsilon): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut values = start.to_vec();
    let mut m = vec![(0.0, 0.0); values.len()];
    let mut v = vec![(0.0, 0.0); values.len()];
    for epoch in 1..=schedule.epochs {
        let gradient = data.gradient(&values, k);
        let correction1 = 1.0 - beta1.powi(epoch as i32);
        let correction2 = 1.0 - beta2.powi(epoch as i32);
        for i in 0..values.len() {
            if frozen[i] {
                continue;
            }
            let (mut g0, mut g1) = gradient[i];
            g0 += 2.0 * schedule.l2 * (values[i].0 - start[i].0);
            g1 += 2.0 * schedule.l2 * (values[i].1 - start[i].1);
            m[i].0 = beta1 * m[i].0 + (1.0 - beta1) * g0;
            m[i].1 = beta1 * m[i].1 + (1.0 - beta1) * g1;
            v[i].0 = beta2 * v[i].0 + (1.0 - beta2) * g0 * g0;
            v[i].1 = beta2 * v[i].1 + (1.0 - beta2) * g1 * g1;
            values[i].0 -= schedule.rate * (m[i].0 / correction1) / ((v[i].0 / correction2).sqrt() + epsilon);
            values[i].1 -= schedule.rate * (m[i].1 / correction1) / ((v[i].1 / correction2).sqrt() + epsilon);
        }
        if epoch % 100 == 0 || epoch == schedule.epochs {
            log(epoch, data.loss(&values, k));
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::Trace;

    fn sample(count: f32, result: f64) -> Sample {
        Sample {
            trace: Trace {
                counts: vec![(0, count)],
                phase: PHASE_TOTAL,
                scale: 64,
                side: 0,
                ..Trace::default()
            },
            result,
            score: None,
            game: 0,
        }
    }

    /// Fits a single weight from zero, without an L2 pull.
    fn fit_one_weight(data: &Dataset, k: f64) -> Vec<(f64, f64)> {
        let schedule = Schedule {
            epochs: 3000,
            rate: 2.0,
            l2: 0.0,
        };
        fit(data, &[(0.0, 0.0)], &[false], k, schedule, |_, _| {})
    }

    /// One weight, positions with +1 or -1 of it, White winning three in four of the first:
    /// the fit puts the weight where sigmoid(k * w) = 3/4.
    #[test]
    fn the_fit_finds_the_weight_the_results_say() {
        let mut samples = Vec::new();
        for i in 0..400 {
            let win = if i % 4 == 0 { 0.0 } else { 1.0 };
            samples.push(sample(1.0, win));
            samples.push(sample(-1.0, 1.0 - win));
        }
        let data = Dataset::new(&samples);
        let k = 0.01;
        let values = fit_one_weight(&data, k);
        let expected = (3.0f64).ln() / k;
        assert!((values[0].0 - expected).abs() < 2.0, "{values:?} against {expected}");
    }

    /// With `lambda = 0` the target is the search's score: positions scored +60 by the
    /// search, whatever their games' results, pull the weight to 60.
    #[test]
    fn a_blend_of_zero_fits_the_search_scores() {
        let mut samples = Vec::new();
        for i in 0..400 {
            let result = if i % 2 == 0 { 1.0 } else { 0.0 };
            samples.push(Sample {
                score: Some(60),
                ..sample(1.0, result)
            });
        }
        let mut data = Dataset::new(&samples);
        let k = 0.01;
        data.blend(k, 0.0);
        assert_eq!(data.searched(), 400);
        let values = fit_one_weight(&data, k);
        assert!((values[0].0 - 60.0).abs() < 2.0, "{values:?}");
    }
}
