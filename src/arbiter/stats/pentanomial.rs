//! The tally of colour-swapped game pairs (the pentanomial): pairs counted by the first
//! engine's total over the pair.

use super::tally::Outcome;
use std::ops::{Add, AddAssign};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
