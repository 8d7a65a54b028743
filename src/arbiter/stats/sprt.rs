//! The sequential probability ratio test: the generalized log-likelihood ratio of fishtest
//! and fastchess, for the logistic and the normalized Elo models, on single games or pairs.

use super::elo::{elo_to_score, NELO_PER_T};
use super::moments::{mean_and_variance, PENTANOMIAL_SCORES, TRINOMIAL_SCORES};
use super::pentanomial::Pentanomial;
use super::tally::Trinomial;
use std::fmt;

/// What an empty cell counts as in the LLR, so that every logarithm stays finite.
const EMPTY_CELL: f64 = 1e-3;

/// How the SPRT's Elo bounds are expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Normalized Elo (the fishtest default): the bounds do not depend on the draw rate.
    Normalized,
    /// Logistic Elo: the bounds are the Elo the match reports.
    Logistic,
}

impl SprtModel {
    /// `normalized` or `logistic`, as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }

    pub fn from_name(name: &str) -> Option<SprtModel> {
        match name {
            "normalized" => Some(SprtModel::Normalized),
            "logistic" => Some(SprtModel::Logistic),
            _ => None,
        }
    }
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtVerdict {
    /// The Elo difference is at most `elo0`: the LLR reached the lower bound.
    AcceptH0,
    /// The Elo difference is at least `elo1`: the LLR reached the upper bound.
    AcceptH1,
}

/// Why SPRT parameters were refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtError {
    /// A parameter is NaN or infinite.
    NotFinite,
    /// `elo0` must be below `elo1`.
    EloBoundsOrder { elo0: f64, elo1: f64 },
    /// `alpha` must lie strictly between 0 and 1.
    Alpha(f64),
    /// `beta` must lie strictly between 0 and 1.
    Beta(f64),
    /// `alpha + beta` must be below 1.
    ErrorSum { alpha: f64, beta: f64 },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotFinite => write!(f, "SPRT parameters must be finite numbers"),
            SprtError::EloBoundsOrder { elo0, elo1 } => {
                write!(f, "SPRT elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::Alpha(alpha) => write!(f, "SPRT alpha ({alpha}) must be between 0 and 1"),
            SprtError::Beta(beta) => write!(f, "SPRT beta ({beta}) must be between 0 and 1"),
            SprtError::ErrorSum { alpha, beta } => {
                write!(f, "SPRT alpha + beta ({alpha} + {beta}) must be less than 1")
            }
        }
    }
}

impl std::error::Error for SprtError {}

/// A sequential probability ratio test of H0 "Elo difference = `elo0`" against H1 "Elo
/// difference = `elo1`", with false-positive rate `alpha` and false-negative rate `beta`.
///
/// Build it with [`Sprt::new`] to have the parameters checked. Every method stays panic-free
/// even on unchecked fields: at worst the bounds are NaN and no verdict is ever reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: SprtModel) -> Result<Sprt, SprtError> {
        if ![elo0, elo1, alpha, beta].iter().all(|x| x.is_finite()) {
            return Err(SprtError::NotFinite);
        }
        if elo0 >= elo1 {
            return Err(SprtError::EloBoundsOrder { elo0, elo1 });
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(SprtError::Alpha(alpha));
        }
        if !(beta > 0.0 && beta < 1.0) {
            return Err(SprtError::Beta(beta));
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorSum { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Wald's stopping bounds on the LLR: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0 from single games.
    ///
    /// 0 with no games and whenever the maximum-likelihood projections do not exist (bounds
    /// so extreme that no distribution has them, such as a logistic Elo of a million).
    pub fn llr_trinomial(&self, results: &Trinomial) -> f64 {
        self.llr(results.by_score(), &TRINOMIAL_SCORES, 1.0)
    }

    /// The generalized log-likelihood ratio of H1 against H0 from game pairs.
    ///
    /// The samples are pairs scored by their mean; in the normalized model a pair's t-value is
    /// `sqrt(2)` times a game's, since one game's deviation is `sqrt(2)` times the deviation
    /// of a pair's mean. 0 with no pairs and whenever the projections do not exist.
    pub fn llr_penta(&self, results: &Pentanomial) -> f64 {
        self.llr(results.0, &PENTANOMIAL_SCORES, std::f64::consts::SQRT_2)
    }

    /// `AcceptH1` once the LLR reaches the upper bound, `AcceptH0` once it reaches the lower
    /// one, `None` (keep playing) in between or when the LLR is NaN.
    pub fn verdict(&self, llr: f64) -> Option<SprtVerdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtVerdict::AcceptH1)
        } else if llr <= lower {
            Some(SprtVerdict::AcceptH0)
        } else {
            None
        }
    }

    /// `N * sum_i phat_i ln(p1_i / p0_i)`, with `phat` the regularized empirical distribution
    /// over the cells scored `scores` and `p0`, `p1` its maximum-likelihood projections onto
    /// the two hypotheses. `t_scale` turns a normalized Elo into the t-value of one
    /// sample (1 for games, sqrt 2 for pairs).
    fn llr<const N: usize>(&self, counts: [u64; N], scores: &[f64; N], t_scale: f64) -> f64 {
        if counts.iter().all(|&n| n == 0) {
            return 0.0;
        }
        let regularized = counts.map(|n| if n == 0 { EMPTY_CELL } else { n as f64 });
        let samples: f64 = regularized.iter().sum();
        let observed = regularized.map(|n| n / samples);
        let projections = match self.model {
            SprtModel::Logistic => (
                closest_with_mean(scores, &observed, elo_to_score(self.elo0)),
                closest_with_mean(scores, &observed, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => (
                closest_with_t_value(scores, &observed, t_scale * self.elo0 / NELO_PER_T),
                closest_with_t_value(scores, &observed, t_scale * self.elo1 / NELO_PER_T),
            ),
        };
        let (Some(h0), Some(h1)) = projections else {
            return 0.0;
        };
        let mean_log_ratio: f64 = (0..N).map(|i| observed[i] * (h1[i] / h0[i]).ln()).sum();
        let llr = samples * mean_log_ratio;
        if llr.is_finite() {
            llr
        } else {
            0.0
        }
    }
}

/// Solves the secular equation `sum_i p_i c_i / (1 + theta c_i) = 0` for the root `theta`
/// at which every `1 + theta c_i` stays positive (Van den Bergh, *Comparing the
/// approximations...*, eq. 1.3). The left side falls strictly from +inf to -inf across
/// `(-1 / max c, -1 / min c)`, so bisection finds the root whenever the `c_i` straddle 0 and
/// every `p_i` is positive; `None` otherwise.
fn solve_secular<const N: usize>(c: &[f64; N], p: &[f64; N]) -> Option<f64> {
    let smallest = c.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(smallest < 0.0 && largest > 0.0) {
        return None;
    }
    let (mut low, mut high) = (-1.0 / largest, -1.0 / smallest);
    for _ in 0..400 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        let value: f64 = (0..N).map(|i| p[i] * c[i] / (1.0 + middle * c[i])).sum();
        if value > 0.0 {
            low = middle;
        } else if value < 0.0 {
            high = middle;
        } else if value == 0.0 {
            return Some(middle);
        } else {
            return None;
        }
    }
    Some(0.5 * (low + high))
}

/// The distribution over `scores` closest to `observed` (maximum likelihood) among those
/// with mean score `mean`: `p_i = phat_i / (1 + theta (a_i - mean))` with `theta` the root
/// of the secular equation (Van den Bergh, *Comparing the approximations...*, Proposition
/// 1.1; fishtest `MLE_expected`).
fn closest_with_mean<const N: usize>(scores: &[f64; N], observed: &[f64; N], mean: f64) -> Option<[f64; N]> {
    let centred = scores.map(|a| a - mean);
    let theta = solve_secular(&centred, observed)?;
    Some(std::array::from_fn(|i| observed[i] / (1.0 + theta * centred[i])))
}

/// The distribution over `scores` closest to `observed` (maximum likelihood) among those
/// with t-value `(mean - 1/2) / sigma = t`, found by the fixed-point iteration of Van den
/// Bergh's *Comments on normalized Elo*, Section 4.1 (fishtest `MLE_t_value`): starting from
/// the uniform distribution, solve a secular equation in
/// `phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mean) / sigma)^2) / 2` with the current mean and
/// sigma, and repeat until the distribution stops moving.
fn closest_with_t_value<const N: usize>(scores: &[f64; N], observed: &[f64; N], t: f64) -> Option<[f64; N]> {
    let mut current = [1.0 / N as f64; N];
    for _ in 0..100 {
        let (mean, variance) = mean_and_variance(scores, &current)?;
        let sigma = variance.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi = scores.map(|a| {
            let z = (a - mean) / sigma;
            a - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let theta = solve_secular(&phi, observed)?;
        let next: [f64; N] = std::array::from_fn(|i| observed[i] / (1.0 + theta * phi[i]));
        let change = (0..N).map(|i| (next[i] - current[i]).abs()).fold(0.0, f64::max);
        current = next;
        if change < 1e-13 {
            break;
        }
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::super::assert_close;
    use super::*;

    /// Van den Bergh's closed-form approximation of the logistic generalized LLR (*GSPRT
    /// approximation*; fishtest `LLR_alt2`): `N (s1 - s0) (2 s - s0 - s1) / (2 var)`.
    fn approximate_logistic_llr(samples: f64, mean: f64, variance: f64, elo0: f64, elo1: f64) -> f64 {
        let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
        samples * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The closed form of *Comments on normalized Elo*, Section 4.2 (fishtest
    /// `LLR_normalized_alt`): `games / 2 * ln((1 + (t - t0)^2) / (1 + (t - t1)^2))` with
    /// t-values per game.
    fn approximate_normalized_llr(games: f64, t: f64, nelo0: f64, nelo1: f64) -> f64 {
        let (t0, t1) = (nelo0 / NELO_PER_T, nelo1 / NELO_PER_T);
        games / 2.0 * ((1.0 + (t - t0) * (t - t0)) / (1.0 + (t - t1) * (t - t1))).ln()
    }

    #[test]
    fn sprt_bounds_at_five_percent() {
        // lower = ln(0.05 / 0.95) = ln(1/19) = -2.944439; upper = ln(0.95 / 0.05) = ln 19 = 2.944439.
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let (lower, upper) = sprt.bounds();
        assert_close(lower, -2.944439, 1e-6, "lower bound");
        assert_close(upper, 2.944439, 1e-6, "upper bound");
        assert_eq!(sprt.verdict(0.0), None);
        assert_eq!(sprt.verdict(2.94), None);
        assert_eq!(sprt.verdict(2.95), Some(SprtVerdict::AcceptH1));
        assert_eq!(sprt.verdict(-2.95), Some(SprtVerdict::AcceptH0));
        assert_eq!(sprt.verdict(f64::NAN), None);
        // Asymmetric rates: alpha 0.05, beta 0.10 -> (ln(0.10/0.95), ln(0.90/0.05))
        //                                            = (-2.251292, 2.890372).
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.10, SprtModel::Logistic).unwrap();
        let (lower, upper) = sprt.bounds();
        assert_close(lower, -2.251292, 1e-6, "lower bound");
        assert_close(upper, 2.890372, 1e-6, "upper bound");
    }

    #[test]
    fn logistic_llr_of_a_pentanomial() {
        // Pairs [5, 20, 40, 25, 10] (no empty cell, so no regularization): phat = (.05, .2, .4,
        // .25, .1) on pair means a = (0, .25, .5, .75, 1); N = 100, s = 0.5375, var = 0.06421875.
        // H0: elo 0 -> s0 = 0.5. H1: elo 5 -> s1 = 1 / (1 + 10^(-5/400)) = 1 / (1 + 0.9716280)
        //                                                                  = 0.5071951.
        //
        // H0 projection: solve f(θ) = Σ phat_i c_i / (1 + θ c_i) = 0 with c = a - s0
        // = (-.5, -.25, 0, .25, .5). Newton from θ = 0:
        //   f(0) = s - s0 = 0.0375, f'(0) = -Σ phat c^2 = -(.0125 + .0125 + 0 + .015625 + .025)
        //   = -0.065625 -> θ = 0.5714286; f = 2.431e-4, f' = -0.0686002 -> θ = 0.5749716;
        //   f = -1.7e-7 -> θ0 = 0.5749691.
        //   p0 = phat / (1 + θ0 c) = (.05/0.7125154, .2/0.8562577, .4, .25/1.1437423, .1/1.2874846)
        //      = (0.070174, 0.233575, 0.4, 0.218581, 0.077671); its mean is 0.5.
        // H1 projection: c = a - s1; f(0) = 0.5375 - 0.5071951 = 0.0303049,
        //   f'(0) = -(var + (s - s1)^2) = -0.0651371 -> θ = 0.4652479; f = 1.185e-4,
        //   f' = -0.0670958 -> θ1 = 0.4670133.
        //   p1 = (0.065519, 0.227302, 0.401349, 0.224539, 0.081291); its mean is s1.
        // ln(p1 / p0) = (-0.068631, -0.027221, 0.003366, 0.026893, 0.045557).
        // Σ phat ln(p1/p0) = -0.0034315 - 0.0054443 + 0.0013463 + 0.0067233 + 0.0045557
        //                  = 0.0037496.
        // LLR = 100 * 0.0037496 = 0.37496.
        let results = Pentanomial([5, 20, 40, 25, 10]);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let llr = sprt.llr_penta(&results);
        assert_close(llr, 0.37496, 1e-4, "logistic LLR");
        // The closed form: 100 * (s1 - s0) (2 s - s0 - s1) / (2 var)
        //   = 100 * 0.0071951 * (1.075 - 1.0071951) / 0.1284375 = 100 * 0.0037983 = 0.37983,
        // within 2% of the exact figure.
        let approximate = approximate_logistic_llr(100.0, 0.5375, 0.06421875, 0.0, 5.0);
        assert_close(approximate, 0.37983, 1e-4, "closed form");
        assert_close(llr, approximate, 0.02 * approximate, "exact vs closed form");
        assert_eq!(sprt.verdict(llr), None);
    }

    #[test]
    fn normalized_llr_of_a_pentanomial() {
        // Same pairs, normalized bounds 0 and 5 nElo. A pair's t-value is sqrt 2 times a
        // game's: t0 = 0, t1 = sqrt(2) * 5 / 347.43559 = 0.0203522.
        // H0 (t = 0): phi_i = a_i - 1/2 whatever sigma is, so one step gives the logistic H0
        //   projection above: p0 = (0.070174, 0.233575, 0.4, 0.218581, 0.077671).
        // H1: the fixed-point iteration settles on θ1 = 0.4963402 with
        //   phi = (-0.512775, -0.255194, -0.002598, 0.245013, 0.487640),
        //   p1 = phat / (1 + θ1 phi) = (0.067070, 0.229007, 0.400516, 0.222894, 0.080513),
        //   whose mean 0.5051933 and sigma 0.2551717 give t = 0.0051933 / 0.2551717
        //   = 0.0203522 = t1, as required.
        // ln(p1 / p0) = (-0.045239, -0.019750, 0.001290, 0.019540, 0.035939).
        // Σ phat ln(p1/p0) = -0.0022620 - 0.0039500 + 0.0005161 + 0.0048851 + 0.0035939
        //                  = 0.0027831.
        // LLR = 100 * 0.0027831 = 0.27831.
        let results = Pentanomial([5, 20, 40, 25, 10]);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let llr = sprt.llr_penta(&results);
        assert_close(llr, 0.27831, 1e-4, "normalized LLR");
        // The closed form of Section 4.2, per game: 200 games, t = 0.1046365 (see the Elo test),
        // t0 = 0, t1 = 5 / 347.43559 = 0.0143912:
        //   100 * ln((1 + 0.1046365^2) / (1 + 0.0902453^2)) = 100 * ln(1.0109488 / 1.0081442)
        //   = 100 * 0.0027781 = 0.27781.
        let approximate = approximate_normalized_llr(200.0, 0.1046365, 0.0, 5.0);
        assert_close(approximate, 0.27781, 1e-4, "closed form");
        assert_close(llr, approximate, 0.01 * approximate, "exact vs closed form");
    }

    #[test]
    fn trinomial_llr_is_near_its_closed_forms() {
        // W 40, D 30, L 30: s = 0.55, var = 0.1725, N = 100, bounds 0 and 10.
        // Logistic: s1 = 1 / (1 + 10^(-10/400)) = 0.5143872;
        //   100 * 0.0143872 * (1.1 - 1.0143872) / 0.345 = 0.35702 (exact: 0.35229).
        // Normalized: t = 0.1203859, t1 = 10 / 347.43559 = 0.0287823;
        //   50 * ln((1 + 0.1203859^2) / (1 + 0.0916036^2)) = 0.30163 (exact: 0.30263).
        let results = Trinomial::new(40, 30, 30);
        let logistic = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let normalized = Sprt {
            model: SprtModel::Normalized,
            ..logistic
        };
        let approximate = approximate_logistic_llr(100.0, 0.55, 0.1725, 0.0, 10.0);
        assert_close(approximate, 0.35702, 1e-4, "logistic closed form");
        assert_close(logistic.llr_trinomial(&results), 0.35229, 1e-4, "logistic LLR");
        let approximate = approximate_normalized_llr(100.0, 0.1203859, 0.0, 10.0);
        assert_close(approximate, 0.30163, 1e-4, "normalized closed form");
        assert_close(normalized.llr_trinomial(&results), 0.30263, 1e-4, "normalized LLR");
    }

    #[test]
    fn llr_agrees_with_the_fastchess_test_suite() {
        // fastchess app/tests/sprt_test.cpp, checked there to 1% relative; its W L D and
        // LL LD WL DD WD WW arguments are rewritten here as W D L and [LL, LD, WL + DD, WD, WW].
        fn games(model: SprtModel, elo0: f64, elo1: f64, [w, d, l]: [u64; 3], expected: f64) {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap();
            let llr = sprt.llr_trinomial(&Trinomial::new(w, d, l));
            assert_close(llr, expected, 0.01 * expected.abs(), &format!("{w} {d} {l}"));
        }
        fn pairs(model: SprtModel, elo0: f64, elo1: f64, counts: [u64; 5], expected: f64) {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap();
            let llr = sprt.llr_penta(&Pentanomial(counts));
            assert_close(llr, expected, 0.01 * expected.abs(), &format!("{counts:?}"));
        }
        use SprtModel::{Logistic, Normalized};
        games(Normalized, 0.0, 2.0, [36433, 68692, 36027], 0.92);
        games(Normalized, -1.75, 0.25, [10871, 20431, 10650], 2.30);
        games(Normalized, 0.0, 10.0, [4250, 0, 0], 120.56);
        games(Logistic, 0.5, 2.5, [21404, 40708, 21184], -1.57);
        games(Logistic, 0.0, 2.0, [57433, 106593, 57030], -2.59);
        pairs(Normalized, 0.0, 2.0, [365, 16618, 36229, 16974, 390], 2.25);
        pairs(Normalized, -1.75, 0.25, [127, 4883, 10712, 5150, 104], 3.01);
        pairs(Normalized, 0.0, 5.0, [0, 0, 0, 0, 5550], 111.82);
        pairs(Logistic, 0.5, 2.5, [223, 9863, 21279, 10037, 246], -3.07);
        pairs(Logistic, 0.0, 2.0, [871, 26175, 55983, 26678, 821], -4.98);
    }

    #[test]
    fn absurd_sprt_bounds_give_a_zero_llr() {
        // A logistic bound of 1e6 Elo rounds its score to exactly 1: no projection exists.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 1e6,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        assert_eq!(sprt.llr_trinomial(&Trinomial::new(40, 30, 30)), 0.0);
        // A normalized bound so large that no distribution on these cells has its t-value.
        let sprt = Sprt {
            elo1: 5000.0,
            model: SprtModel::Normalized,
            ..sprt
        };
        assert_eq!(sprt.llr_penta(&Pentanomial([5, 20, 40, 25, 10])), 0.0);
        // Unchecked rates give NaN bounds and never a verdict.
        let sprt = Sprt { alpha: -1.0, ..sprt };
        assert_eq!(sprt.verdict(1e9), None);
    }

    #[test]
    fn sprt_parameters_are_checked() {
        let model = SprtModel::Normalized;
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.05, model).is_ok());
        assert_eq!(
            Sprt::new(5.0, 5.0, 0.05, 0.05, model),
            Err(SprtError::EloBoundsOrder { elo0: 5.0, elo1: 5.0 })
        );
        assert_eq!(Sprt::new(0.0, 5.0, 0.0, 0.05, model), Err(SprtError::Alpha(0.0)));
        assert_eq!(Sprt::new(0.0, 5.0, 0.05, 1.0, model), Err(SprtError::Beta(1.0)));
        assert_eq!(
            Sprt::new(0.0, 5.0, 0.6, 0.4, model),
            Err(SprtError::ErrorSum { alpha: 0.6, beta: 0.4 })
        );
        assert_eq!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05, model), Err(SprtError::NotFinite));
        assert_eq!(SprtModel::from_name("logistic"), Some(SprtModel::Logistic));
        assert_eq!(SprtModel::from_name(SprtModel::Normalized.name()), Some(model));
        assert_eq!(SprtModel::from_name("bayesian"), None);
        assert!(SprtError::Alpha(2.0).to_string().contains("alpha"));
    }
}
