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

mod elo;
mod los;
mod moments;
mod pentanomial;
mod sprt;
mod tally;

pub use elo::{elo, elo_penta, elo_to_score, nelo, nelo_penta, score_to_elo, Estimate};
pub use los::{erf, los};
pub use pentanomial::Pentanomial;
pub use sprt::{Sprt, SprtError, SprtModel, SprtVerdict};
pub use tally::{Outcome, Trinomial};

/// Checks a figure against its expected value within a tolerance (for the tests).
#[cfg(test)]
fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: got {actual}, expected {expected} ± {tolerance}"
    );
}

#[cfg(test)]
mod tests {
    //! Every figure at once on degenerate tallies: no games, all wins, all draws.

    use super::*;

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
}
