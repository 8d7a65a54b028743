//! Mean and variance of a tally: the score of each trinomial and pentanomial cell, and the
//! moments of a tally over those scores (the Elo estimates and the SPRT both start here).

/// Mean and variance of the scores `values` drawn with the (not necessarily normalized)
/// weights `weights`; `None` when the weights sum to nothing.
pub(super) fn mean_and_variance<const N: usize>(values: &[f64; N], weights: &[f64; N]) -> Option<(f64, f64)> {
    let total: f64 = weights.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    let mean = values.iter().zip(weights).map(|(a, w)| a * w).sum::<f64>() / total;
    let variance = values
        .iter()
        .zip(weights)
        .map(|(a, w)| w * (a - mean) * (a - mean))
        .sum::<f64>()
        / total;
    Some((mean, variance))
}

/// The scores of the trinomial cells (per game) and of the pentanomial cells (per game of the
/// pair, i.e. the pair's total halved).
pub(super) const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
pub(super) const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

pub(super) fn as_weights<const N: usize>(counts: [u64; N]) -> [f64; N] {
    counts.map(|n| n as f64)
}
