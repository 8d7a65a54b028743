//! Elo estimates with their 95% error bars: logistic Elo and normalized Elo, from single
//! games (fastchess `EloWDL`) or from game pairs (`EloPentanomial`).

use super::moments::{as_weights, mean_and_variance, PENTANOMIAL_SCORES, TRINOMIAL_SCORES};
use super::pentanomial::Pentanomial;
use super::tally::Trinomial;
use std::fmt;

/// The two-sided 95% quantile of the standard normal distribution.
const Z_95: f64 = 1.959963984540054;

/// Normalized Elo per unit of t-value ((score - 1/2) / sigma): 800 / ln 10.
pub(super) const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

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

#[cfg(test)]
mod tests {
    use super::super::assert_close;
    use super::*;

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
    fn an_interval_past_a_perfect_score_has_an_infinite_error() {
        // W 9, L 1: s = 0.9, var = 0.9 * 0.01 + 0.1 * 0.81 = 0.09, half-width
        // 1.959964 * sqrt(0.009) = 0.1859 -> the interval [0.7141, 1.0859] is clamped to 1.
        // Elo(0.9) = -400 log10(1/9) = 381.6970.
        let estimate = elo(&Trinomial::new(9, 0, 1));
        assert_close(estimate.value, 381.6970, 1e-3, "Elo");
        assert_eq!(estimate.error, f64::INFINITY);
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
