//! The tally of single games: one game's outcome for the first engine, and the wins, draws
//! and losses of a match (the trinomial).

use std::ops::{Add, AddAssign};

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
    pub(super) fn by_score(&self) -> [u64; 3] {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
