//! Match statistics for `veil match`: game and game-pair tallies, Elo with its 95% error bar,
//! normalized Elo, likelihood of superiority and the sequential probability ratio test (SPRT).
//!
//! The formulas are the ones the engine-testing tools use, so a match here reads like a match
//! there:
//!
//! - Logistic Elo and its error bar follow fastchess (`app/src/matchmaking/elo/elo_wdl.cpp`
//!   and `elo_pentanomial.cpp`): the mean score, the variance of one game's (or one pair's)
//!   score, a 95% normal interval on the mean, and both ends mapped through
//!   `Elo(s) = -400 log10(1/s - 1)`; the error is half the width of the mapped interval.
//! - Normalized Elo is Michel Van den Bergh's (used by fishtest, `server/fishtest/stats/
//!   LLRcalc.py`, and fastchess): `nElo = (s - 1/2) / sigma * 800 / ln 10`, where `sigma` is
//!   the standard deviation of one game's score; from pairs it is `sqrt(2)` times the standard
//!   deviation of the pair's mean score.
//! - The likelihood of superiority is cutechess's (`projects/lib/src/elo.cpp`), computed from
//!   the decisive games alone.
//! - The SPRT log-likelihood ratio is the generalized (maximum-likelihood) one computed by both
//!   fishtest (`LLRcalc.py`: `LLR_logistic`, `LLR_normalized`) and fastchess
//!   (`app/src/matchmaking/sprt/sprt.cpp`): the empirical distribution of game (or pair)
//!   scores is projected onto each hypothesis by maximum likelihood, and the LLR is the number
//!   of samples times the mean log ratio of the two projections. The projections solve the
//!   "secular equation" of Van den Bergh's notes *Comparing the approximations for the
//!   generalized log likelihood ratio of a multinomial distribution* (Proposition 1.1, a given
//!   expected score) and *Comments on normalized Elo* (Section 4.1, a given t-value). Empty
//!   cells are regularized to 1e-3 games first, as both tools do.
//!
//! Counts are always from the first engine's point of view. Nothing here panics: degenerate
//! tallies (no games, all wins, all draws) give the documented values below, never NaN.

use std::fmt;
use std::ops::{Add, AddAssign};

/// The two-sided 95% quantile of the standard normal distribution.
const Z_95: f64 = 1.959963984540054;

/// Normalized Elo per unit of t-value ((score - 1/2) / sigma): 800 / ln 10.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// What an empty cell counts as in the LLR, so that every logarithm stays finite.
const EMPTY_CELL: f64 = 1e-3;

/// The result of one game for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// Points scored: 1, 1/2 or 0.
    pub fn points(self) -> f64 {
        self.half_points() as f64 / 2.0
    }

    /// Points scored in half points: 2, 1 or 0.
    pub fn half_points(self) -> usize {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Wins, draws and losses of the first engine: the per-game (trinomial) tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Trinomial {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Trinomial {
        Trinomial { wins, draws, losses }
    }

    /// Counts one more game.
    pub fn add_game(&mut self, outcome: Outcome) {
        let count = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    pub fn games(&self) -> u64 {
        self.wins.saturating_add(self.draws).saturating_add(self.losses)
    }

    /// Points of the first engine: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean points per game, in [0, 1]; 1/2 when no game was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            games => self.points() / games as f64,
        }
    }

    /// The same games from the second engine's point of view.
    pub fn reversed(&self) -> Trinomial {
        Trinomial::new(self.losses, self.draws, self.wins)
    }

    /// The counts ordered by score: losses, draws, wins.
    fn by_score(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

impl AddAssign for Trinomial {
    fn add_assign(&mut self, other: Trinomial) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }
}

impl Add for Trinomial {
    type Output = Trinomial;

    fn add(mut self, other: Trinomial) -> Trinomial {
        self += other;
        self
    }
}

/// Game pairs played from the same opening with colours swapped, counted by the first
/// engine's total over the pair in half points: index 0 is LL, 1 is LD, 2 is DD or WL,
/// 3 is WD, 4 is WW.
///
/// Pairs cancel most of an opening's bias, so their spread is smaller than that of single
/// games and the error bars tighter (fishtest and fastchess report these when playing pairs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts one more pair, given the first engine's result in each of its two games.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        let count = &mut self.0[first.half_points() + second.half_points()];
        *count = count.saturating_add(1);
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().fold(0u64, |sum, &n| sum.saturating_add(n))
    }

    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    /// Points of the first engine over all pairs.
    pub fn points(&self) -> f64 {
        self.0
            .iter()
            .enumerate()
            .map(|(half_points, &n)| half_points as f64 * 0.5 * n as f64)
            .sum()
    }

    /// Mean points per game, in [0, 1]; 1/2 when no pair was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            games => self.points() / games as f64,
        }
    }

    /// The same pairs from the second engine's point of view.
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.0;
        counts.reverse();
        Pentanomial(counts)
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        for (count, extra) in self.0.iter_mut().zip(other.0) {
            *count = count.saturating_add(extra);
        }
    }
}

impl Add for Pentanomial {
    type Output = Pentanomial;

    fn add(mut self, other: Pentanomial) -> Pentanomial {
        self += other;
        self
    }
}

/// An Elo difference and the half-width of its 95% interval: the `value ± error` users read.
///
/// Never NaN. With no games the value is 0 and the error infinite (nothing is known). A score
/// of exactly 0 or 1 has an infinite value and an infinite error. A logistic error is also
/// infinite whenever the 95% score interval reaches 0 or 1 (it is clamped there first), and
/// zero for a tally with no spread at all (only draws, or only pairs of one total). A
/// normalized error depends on the number of games alone; a normalized value with no spread
/// is 0 at a score of 1/2 and infinite (with an infinite error) at any other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub error: f64,
}

impl Estimate {
    const UNKNOWN: Estimate = Estimate {
        value: 0.0,
        error: f64::INFINITY,
    };
}

/// `+12.34 ± 5.67`: the value signed, two decimals unless a precision is given (`{:.1}`).
impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let precision = f.precision().unwrap_or(2);
        write!(f, "{:+.*} ± {:.*}", precision, self.value, precision, self.error)
    }
}

/// Mean and variance of the scores `values` drawn with the (not necessarily normalized)
/// weights `weights`; `None` when the weights sum to nothing.
fn mean_and_variance<const N: usize>(values: &[f64; N], weights: &[f64; N]) -> Option<(f64, f64)> {
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
const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn as_weights<const N: usize>(counts: [u64; N]) -> [f64; N] {
    counts.map(|n| n as f64)
}

/// Logistic Elo of a mean score: `-400 log10(1/s - 1)`, infinite at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Mean score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo from the mean score and the variance of that mean (one sample's variance over
/// the number of samples).
fn logistic_estimate(mean: f64, variance_of_mean: f64) -> Estimate {
    let value = score_to_elo(mean);
    let half_width = Z_95 * variance_of_mean.sqrt();
    if half_width == 0.0 {
        let error = if value.is_finite() { 0.0 } else { f64::INFINITY };
        return Estimate { value, error };
    }
    let upper = score_to_elo((mean + half_width).min(1.0));
    let lower = score_to_elo((mean - half_width).max(0.0));
    let error = if upper.is_finite() && lower.is_finite() {
        (upper - lower) / 2.0
    } else {
        f64::INFINITY
    };
    Estimate { value, error }
}

/// Normalized Elo from the mean score, one game's standard deviation and the number of games.
///
/// The error is fastchess's mapped interval, which for this linear map is `z * 800/ln 10 /
/// sqrt(games)` whatever the spread; with no spread at all the value is 0 for a mean of 1/2
/// and infinite (with an infinite error) otherwise.
fn normalized_estimate(mean: f64, deviation_per_game: f64, games: f64) -> Estimate {
    let error = Z_95 * NELO_PER_T / games.sqrt();
    if deviation_per_game > 0.0 {
        let value = (mean - 0.5) / deviation_per_game * NELO_PER_T;
        Estimate { value, error }
    } else if mean == 0.5 {
        Estimate { value: 0.0, error }
    } else {
        Estimate {
            value: f64::INFINITY.copysign(mean - 0.5),
            error: f64::INFINITY,
        }
    }
}

/// Logistic Elo of the first engine from single games, with its 95% error bar (fastchess
/// `EloWDL`): the interval is `s ± 1.96 sqrt(var / games)` with `var` one game's variance.
pub fn elo(results: &Trinomial) -> Estimate {
    let games = results.games();
    match mean_and_variance(&TRINOMIAL_SCORES, &as_weights(results.by_score())) {
        Some((mean, variance)) => logistic_estimate(mean, variance / games as f64),
        None => Estimate::UNKNOWN,
    }
}

/// Logistic Elo of the first engine from game pairs, with its 95% error bar (fastchess
/// `EloPentanomial`): the interval is `s ± 1.96 sqrt(var / pairs)` with `var` the variance of
/// one pair's mean score.
pub fn elo_penta(results: &Pentanomial) -> Estimate {
    let pairs = results.pairs();
    match mean_and_variance(&PENTANOMIAL_SCORES, &as_weights(results.0)) {
        Some((mean, variance)) => logistic_estimate(mean, variance / pairs as f64),
        None => Estimate::UNKNOWN,
    }
}

/// Normalized Elo from single games: `(s - 1/2) / sigma * 800/ln 10` with `sigma` one game's
/// standard deviation; error `1.96 * 800/ln 10 / sqrt(games)`.
pub fn nelo(results: &Trinomial) -> Estimate {
    let games = results.games();
    match mean_and_variance(&TRINOMIAL_SCORES, &as_weights(results.by_score())) {
        Some((mean, variance)) => normalized_estimate(mean, variance.sqrt(), games as f64),
        None => Estimate::UNKNOWN,
    }
}

/// Normalized Elo from game pairs: one game's deviation is taken as `sqrt(2 var)` with `var`
/// the variance of one pair's mean score (fishtest's `sigma_pg`); error
/// `1.96 * 800/ln 10 / sqrt(2 pairs)`.
pub fn nelo_penta(results: &Pentanomial) -> Estimate {
    let games = results.games();
    match mean_and_variance(&PENTANOMIAL_SCORES, &as_weights(results.0)) {
        Some((mean, variance)) => normalized_estimate(mean, (2.0 * variance).sqrt(), games as f64),
        None => Estimate::UNKNOWN,
    }
}

/// Likelihood of superiority of the first engine, in [0, 1], from the decisive games
/// (cutechess): `1/2 (1 + erf((W - L) / sqrt(2 (W + L))))`; 1/2 without a decisive game.
///
/// fastchess prints a different figure under the same name (the normal probability that the
/// mean score exceeds 1/2, draws included); the two agree closely on long matches.
pub fn los(results: &Trinomial) -> f64 {
    let decisive = results.wins as f64 + results.losses as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    let lead = results.wins as f64 - results.losses as f64;
    0.5 * (1.0 + erf(lead / (2.0 * decisive).sqrt()))
}

/// The error function, to about 1e-15.
///
/// Uses the everywhere-convergent series of positive terms
/// `erf x = 2/sqrt(pi) e^(-x^2) sum_n (2x^2)^n x / (1*3*...*(2n+1))` (Abramowitz and Stegun
/// 7.1.6), which has no cancellation; beyond |x| = 6 erf is ±1 to double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.abs() >= 6.0 {
        return 1f64.copysign(x);
    }
    let two_x_squared = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > sum.abs() * 1e-17 {
        n += 1.0;
        term *= two_x_squared / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

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
    use super::*;

    fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{what}: got {actual}, expected {expected} ± {tolerance}"
        );
    }

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
    fn trinomial_counts_and_merges() {
        let mut tally = Trinomial::default();
        for outcome in [Outcome::Win, Outcome::Win, Outcome::Draw, Outcome::Loss] {
            tally.add_game(outcome);
        }
        assert_eq!(tally, Trinomial::new(2, 1, 1));
        assert_eq!(tally.games(), 4);
        assert_eq!(tally.points(), 2.5);
        assert_eq!(tally.score(), 0.625);
        let mut merged = tally;
        merged += Trinomial::new(1, 2, 3);
        assert_eq!(merged, Trinomial::new(3, 3, 4));
        assert_eq!(tally + Trinomial::new(1, 2, 3), merged);
        assert_eq!(Trinomial::default().score(), 0.5);
        assert_eq!(tally.reversed(), Trinomial::new(1, 1, 2));
    }

    #[test]
    fn pentanomial_counts_pairs_by_their_total() {
        let mut tally = Pentanomial::default();
        tally.add_pair(Outcome::Loss, Outcome::Loss); // 0 points: LL
        tally.add_pair(Outcome::Draw, Outcome::Loss); // 1/2: LD
        tally.add_pair(Outcome::Win, Outcome::Loss); // 1: WL
        tally.add_pair(Outcome::Draw, Outcome::Draw); // 1: DD
        tally.add_pair(Outcome::Draw, Outcome::Win); // 3/2: WD
        tally.add_pair(Outcome::Win, Outcome::Win); // 2: WW
        assert_eq!(tally, Pentanomial([1, 1, 2, 1, 1]));
        assert_eq!(tally.pairs(), 6);
        assert_eq!(tally.games(), 12);
        // 0 + 0.5 + 1 + 1 + 1.5 + 2 = 6 points over 12 games.
        assert_eq!(tally.points(), 6.0);
        assert_eq!(tally.score(), 0.5);
        let merged = tally + Pentanomial([0, 0, 0, 0, 4]);
        assert_eq!(merged, Pentanomial([1, 1, 2, 1, 5]));
        let mut again = tally;
        again += Pentanomial([0, 0, 0, 0, 4]);
        assert_eq!(again, merged);
        assert_eq!(merged.reversed(), Pentanomial([5, 1, 2, 1, 1]));
    }

    #[test]
    fn elo_of_40_wins_30_draws_30_losses() {
        // N = 100; w = 0.40, d = 0.30, l = 0.30.
        // score s = 0.40 + 0.30 / 2 = 0.55.
        // variance per game = 0.40 (1 - 0.55)^2 + 0.30 (0.5 - 0.55)^2 + 0.30 (0 - 0.55)^2
        //                   = 0.40 * 0.2025 + 0.30 * 0.0025 + 0.30 * 0.3025
        //                   = 0.081 + 0.00075 + 0.09075 = 0.1725.
        // variance of the mean = 0.1725 / 100 = 0.001725; its sqrt = 0.0415331.
        // half-width = 1.959964 * 0.0415331 = 0.0814034;
        // interval = [0.4685966, 0.6314034].
        // Elo(0.55)      = -400 log10(1/0.55 - 1)      = -400 log10(0.818182) = -400 * -0.087150 = +34.8601.
        // Elo(0.6314034) = -400 log10(0.583773) = -400 * -0.233756 = +93.5022.
        // Elo(0.4685966) = -400 log10(1.134032) = -400 *  0.054625 = -21.8501.
        // error = (93.5022 - (-21.8501)) / 2 = 57.6762.
        let estimate = elo(&Trinomial::new(40, 30, 30));
        assert_close(estimate.value, 34.8601, 1e-3, "Elo");
        assert_close(estimate.error, 57.6762, 1e-3, "Elo error");
    }

    #[test]
    fn normalized_elo_of_40_wins_30_draws_30_losses() {
        // s = 0.55, variance per game 0.1725 (above); sigma = sqrt(0.1725) = 0.4153312.
        // t = (0.55 - 0.5) / 0.4153312 = 0.1203859; 800 / ln 10 = 347.43559.
        // nElo = 0.1203859 * 347.43559 = 41.8263.
        // error: the interval s ± 0.0814034 maps to t ± 0.0814034 / 0.4153312 = ± 0.1959964,
        // i.e. 1.959964 / sqrt(100) per unit of t: 0.1959964 * 347.43559 = 68.0961.
        let estimate = nelo(&Trinomial::new(40, 30, 30));
        assert_close(estimate.value, 41.8263, 1e-3, "nElo");
        assert_close(estimate.error, 68.0961, 1e-3, "nElo error");
    }

    #[test]
    fn elo_of_a_pentanomial() {
        // Pairs [LL 5, LD 20, DD+WL 40, WD 25, WW 10], 100 pairs; pair means 0, .25, .5, .75, 1
        // with frequencies 0.05, 0.20, 0.40, 0.25, 0.10.
        // s = 0.20 * 0.25 + 0.40 * 0.5 + 0.25 * 0.75 + 0.10 * 1 = 0.05 + 0.2 + 0.1875 + 0.1 = 0.5375.
        // deviations a - s: -0.5375, -0.2875, -0.0375, 0.2125, 0.4625; squared:
        // 0.28890625, 0.08265625, 0.00140625, 0.04515625, 0.21390625.
        // variance per pair = 0.05 * 0.28890625 + 0.20 * 0.08265625 + 0.40 * 0.00140625
        //                   + 0.25 * 0.04515625 + 0.10 * 0.21390625
        //                   = 0.0144453125 + 0.01653125 + 0.0005625 + 0.0112890625 + 0.021390625
        //                   = 0.06421875.
        // variance of the mean = 0.06421875 / 100; sqrt = 0.0253414.
        // half-width = 1.959964 * 0.0253414 = 0.0496683; interval [0.4878317, 0.5871683].
        // Elo(0.5375)    = -400 log10(0.860465) = -400 * -0.065267 = +26.1067.
        // Elo(0.5871683) = -400 log10(0.703089) = -400 * -0.152990 = +61.1958.
        // Elo(0.4878317) = -400 log10(1.049887) = -400 *  0.021143 =  -8.4570.
        // error = (61.1958 + 8.4570) / 2 = 34.8264.
        let results = Pentanomial([5, 20, 40, 25, 10]);
        let estimate = elo_penta(&results);
        assert_close(estimate.value, 26.1067, 1e-3, "Elo");
        assert_close(estimate.error, 34.8264, 1e-3, "Elo error");

        // nElo: one game's sigma = sqrt(2 * 0.06421875) = sqrt(0.1284375) = 0.3583818.
        // t = 0.0375 / 0.3583818 = 0.1046365; nElo = 0.1046365 * 347.43559 = 36.3546.
        // error = 1.959964 * 347.43559 / sqrt(200 games) = 680.96123 / 14.142136 = 48.1512.
        let estimate = nelo_penta(&results);
        assert_close(estimate.value, 36.3546, 1e-3, "nElo");
        assert_close(estimate.error, 48.1512, 1e-3, "nElo error");
    }

    #[test]
    fn elo_agrees_with_the_fastchess_test_suite() {
        // fastchess app/tests/elo_test.cpp, "EloWDL 2": W 136, L 96, D 111
        // -> Elo 40.70 ± 30.43, nElo 49.77 ± 36.77 (checked there to 1% relative).
        let results = Trinomial::new(136, 111, 96);
        let (logistic, normalized) = (elo(&results), nelo(&results));
        assert_close(logistic.value, 40.70, 0.01, "Elo");
        assert_close(logistic.error, 30.43, 0.01, "Elo error");
        assert_close(normalized.value, 49.77, 0.01, "nElo");
        assert_close(normalized.error, 36.77, 0.01, "nElo error");
        // "EloWDL 3": W 34, L 356, D 0 -> nElo -508.44 ± 34.48.
        let normalized = nelo(&Trinomial::new(34, 0, 356));
        assert_close(normalized.value, -508.44, 0.01, "nElo");
        assert_close(normalized.error, 34.48, 0.01, "nElo error");
        // "EloPentanomial 1": LL 34, LD 54, WL 31, DD 32, WD 64, WW 75
        // -> Elo 55.58 ± 27.65, nElo 57.94 ± 28.28.
        let results = Pentanomial([34, 54, 31 + 32, 64, 75]);
        let (logistic, normalized) = (elo_penta(&results), nelo_penta(&results));
        assert_close(logistic.value, 55.58, 0.01, "Elo");
        assert_close(logistic.error, 27.65, 0.01, "Elo error");
        assert_close(normalized.value, 57.94, 0.01, "nElo");
        assert_close(normalized.error, 28.28, 0.01, "nElo error");
        // "EloPentanomial 3": LL 7895, LD 8757, WL 5485, DD 200, WD 568, WW 9999
        // -> Elo -21.04 ± 2.95, nElo -19.01 ± 2.65.
        let results = Pentanomial([7895, 8757, 5485 + 200, 568, 9999]);
        let (logistic, normalized) = (elo_penta(&results), nelo_penta(&results));
        assert_close(logistic.value, -21.04, 0.01, "Elo");
        assert_close(logistic.error, 2.95, 0.01, "Elo error");
        assert_close(normalized.value, -19.01, 0.01, "nElo");
        assert_close(normalized.error, 2.65, 0.01, "nElo error");
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz and Stegun, table 7.1, and erf(-x) = -erf(x).
        let table = [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (-1.5, -0.9661051464753108),
            (2.0, 0.9953222650189527),
            (3.0, 0.9999779095030014),
            (4.5, 0.9999999998033839),
            (7.0, 1.0),
            (-40.0, -1.0),
        ];
        for (x, expected) in table {
            assert_close(erf(x), expected, 1e-14, &format!("erf({x})"));
        }
        assert!(erf(f64::NAN).is_nan());
        assert_eq!(erf(f64::INFINITY), 1.0);
    }

    #[test]
    fn los_of_10_wins_5_losses() {
        // x = (10 - 5) / sqrt(2 * 15) = 5 / 5.4772256 = 0.9128709.
        // erf x = 2/sqrt(pi) * (x - x^3/3 + x^5/10 - x^7/42 + x^9/216 - ...):
        // terms 0.91287093 - 0.25357526 + 0.06339381 - 0.01257814 + 0.00203812 - 0.00027793
        //       + 0.00003266 - 0.00000337 + 0.00000031 - 0.00000003 = 0.71190112;
        // erf x = 1.12837917 * 0.71190112 = 0.80329440.
        // LOS = (1 + 0.80329440) / 2 = 0.90164720.
        assert_close(los(&Trinomial::new(10, 0, 5)), 0.9016472, 1e-7, "LOS");
        // Draws do not count, and swapping the engines mirrors the figure.
        assert_close(los(&Trinomial::new(10, 37, 5)), 0.9016472, 1e-7, "LOS");
        assert_close(los(&Trinomial::new(5, 0, 10)), 1.0 - 0.9016472, 1e-7, "LOS");
        assert_eq!(los(&Trinomial::new(0, 12, 0)), 0.5);
        assert_eq!(los(&Trinomial::new(7, 0, 7)), 0.5);
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
    fn no_games_give_neutral_figures() {
        let empty = Trinomial::default();
        assert_eq!(
            elo(&empty),
            Estimate {
                value: 0.0,
                error: f64::INFINITY
            }
        );
        assert_eq!(
            nelo(&empty),
            Estimate {
                value: 0.0,
                error: f64::INFINITY
            }
        );
        assert_eq!(los(&empty), 0.5);
        let empty_pairs = Pentanomial::default();
        assert_eq!(
            elo_penta(&empty_pairs),
            Estimate {
                value: 0.0,
                error: f64::INFINITY
            }
        );
        assert_eq!(
            nelo_penta(&empty_pairs),
            Estimate {
                value: 0.0,
                error: f64::INFINITY
            }
        );
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
            assert_eq!(sprt.llr_trinomial(&empty), 0.0);
            assert_eq!(sprt.llr_penta(&empty_pairs), 0.0);
        }
    }

    #[test]
    fn all_wins_give_infinite_elo_and_a_finite_llr() {
        // s = 1: Elo = -400 log10(0) = +inf, and the interval cannot be mapped: error inf.
        let sweep = Trinomial::new(20, 0, 0);
        assert_eq!(
            elo(&sweep),
            Estimate {
                value: f64::INFINITY,
                error: f64::INFINITY
            }
        );
        assert_eq!(
            nelo(&sweep),
            Estimate {
                value: f64::INFINITY,
                error: f64::INFINITY
            }
        );
        assert_close(los(&sweep), 1.0, 1e-5, "LOS");
        let sweep_pairs = Pentanomial([0, 0, 0, 0, 10]);
        assert_eq!(elo_penta(&sweep_pairs).value, f64::INFINITY);
        assert_eq!(nelo_penta(&sweep_pairs).error, f64::INFINITY);
        // All losses mirror it.
        assert_eq!(elo(&Trinomial::new(0, 0, 20)).value, f64::NEG_INFINITY);
        assert_eq!(nelo(&Trinomial::new(0, 0, 20)).value, f64::NEG_INFINITY);
        // The LLR regularizes the empty cells and stays finite and positive.
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
            let llr = sprt.llr_trinomial(&sweep);
            assert!(llr.is_finite() && llr > 0.0, "{model:?}: {llr}");
            let llr = sprt.llr_penta(&sweep_pairs);
            assert!(llr.is_finite() && llr > 0.0, "{model:?}: {llr}");
        }
    }

    #[test]
    fn all_draws_give_zero_elo() {
        // s = 0.5 and no spread: Elo 0 with a collapsed interval; nElo 0 with the
        // spread-free error 1.959964 * 347.43559 / sqrt(100) = 68.0961.
        let draws = Trinomial::new(0, 100, 0);
        assert_eq!(elo(&draws), Estimate { value: 0.0, error: 0.0 });
        let normalized = nelo(&draws);
        assert_eq!(normalized.value, 0.0);
        assert_close(normalized.error, 68.0961, 1e-3, "nElo error");
        assert_eq!(los(&draws), 0.5);
        // Pairs all scoring 1/2 each (DD or WL) behave the same.
        let even_pairs = Pentanomial([0, 0, 50, 0, 0]);
        assert_eq!(elo_penta(&even_pairs), Estimate { value: 0.0, error: 0.0 });
        assert_eq!(nelo_penta(&even_pairs).value, 0.0);
        // Every pair LD: s = 0.25 and no spread. Logistic Elo is finite
        // (-400 log10(3) = -190.8485) with a zero error, nElo is -inf.
        let lopsided = Pentanomial([0, 30, 0, 0, 0]);
        let logistic = elo_penta(&lopsided);
        assert_close(logistic.value, -190.8485, 1e-3, "Elo");
        assert_eq!(logistic.error, 0.0);
        assert_eq!(nelo_penta(&lopsided).value, f64::NEG_INFINITY);
        // The LLR of a drawn-out match favours H0 (elo 0) over H1 (elo 5), without NaN.
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
            let llr = sprt.llr_trinomial(&draws);
            assert!(llr.is_finite() && llr < 0.0, "{model:?}: {llr}");
            let llr = sprt.llr_penta(&even_pairs);
            assert!(llr.is_finite() && llr < 0.0, "{model:?}: {llr}");
        }
    }

    #[test]
    fn an_interval_past_a_perfect_score_has_an_infinite_error() {
        // W 9, L 1: s = 0.9, var = 0.9 * 0.01 + 0.1 * 0.81 = 0.09, half-width
        // 1.959964 * sqrt(0.009) = 0.1859 -> the interval [0.7141, 1.0859] is clamped to 1.
        // Elo(0.9) = -400 log10(1/9) = 381.6970.
        let estimate = elo(&Trinomial::new(9, 0, 1));
        assert_close(estimate.value, 381.6970, 1e-3, "Elo");
        assert_eq!(estimate.error, f64::INFINITY);
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

    #[test]
    fn estimates_print_as_value_plus_or_minus_error() {
        let estimate = Estimate {
            value: 34.86007,
            error: 57.67617,
        };
        assert_eq!(estimate.to_string(), "+34.86 ± 57.68");
        assert_eq!(format!("{estimate:.1}"), "+34.9 ± 57.7");
        assert_eq!(
            Estimate {
                value: -8.5,
                error: 0.0
            }
            .to_string(),
            "-8.50 ± 0.00"
        );
        assert_eq!(Estimate::UNKNOWN.to_string(), "+0.00 ± inf");
        let sweep = Estimate {
            value: f64::INFINITY,
            error: f64::INFINITY,
        };
        assert_eq!(sweep.to_string(), "+inf ± inf");
    }
}
