//! The likelihood of superiority (cutechess's, from the decisive games) and the error
//! function it needs.

use super::tally::Trinomial;

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

#[cfg(test)]
mod tests {
    use super::super::assert_close;
    use super::*;

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
}
