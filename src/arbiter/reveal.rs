//! The arbiter's reveal draws. Every reveal is drawn here, with a seeded generator, and an
//! engine learns it only from the next `position ... moves ...=X`.
//!
//! Common random numbers: each colour of each pair has its own stream of uniform numbers,
//! and a side's k-th reveal uses the k-th number of its colour's stream. Both games of a
//! colour-swapped pair read the same streams, so when the engines swap colours each of them
//! meets the luck its opponent had; the chance adds less variance to the pair's score. The
//! same seed replays the same draws.

use crate::rules::splitmix::mix;
use crate::rules::{ByColor, Color, Pool, Role};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The reveal streams of one game.
pub struct RevealDraws {
    streams: ByColor<Xoshiro256PlusPlus>,
}

impl RevealDraws {
    /// The streams of round `round` of a match seeded with `seed` (both games of a pair share
    /// them, and so do all the pairings of one round).
    pub fn new(seed: u64, round: u64) -> RevealDraws {
        let stream = |color: Color| {
            let key =
                mix(mix(seed) ^ mix(round.wrapping_add(1)) ^ (color as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407));
            Xoshiro256PlusPlus::seed_from_u64(key)
        };
        RevealDraws {
            streams: ByColor::new(stream(Color::White), stream(Color::Black)),
        }
    }

    /// Draws the role of `color`'s next reveal from `pool` (which must not be empty), each
    /// role with probability count / total.
    pub fn draw(&mut self, color: Color, pool: &Pool) -> Role {
        let uniform: f64 = self.streams[color].gen();
        pick(pool, uniform)
    }
}

/// The role a uniform number in [0, 1) selects from `pool`, roles in a fixed order.
pub fn pick(pool: &Pool, uniform: f64) -> Role {
    let total = pool.total();
    debug_assert!(total > 0, "a reveal needs a pool");
    let mut target = ((uniform * total as f64) as u32).min(total.saturating_sub(1));
    let mut last = Role::Pawn;
    for (role, count) in pool.outcomes() {
        if target < count as u32 {
            return role;
        }
        target -= count as u32;
        last = role;
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_follow_the_pool() {
        let mut draws = RevealDraws::new(7, 0);
        let mut counts = [0u32; 6];
        for _ in 0..15_000 {
            counts[draws.draw(Color::White, &Pool::START).index()] += 1;
        }
        // Expect P 8000, N/B/R 2000 each, Q 1000 (15 in the pool).
        let expected = [8000.0, 2000.0, 2000.0, 2000.0, 1000.0];
        for (count, expect) in counts.iter().zip(expected) {
            assert!((*count as f64 - expect).abs() < 5.0 * expect.sqrt(), "{counts:?}");
        }
        assert_eq!(counts[Role::King.index()], 0);
    }

    #[test]
    fn streams_are_per_colour_and_seeded() {
        let sequence = |seed, round, color| {
            let mut draws = RevealDraws::new(seed, round);
            (0..32).map(|_| draws.draw(color, &Pool::START)).collect::<Vec<_>>()
        };
        assert_eq!(sequence(1, 2, Color::White), sequence(1, 2, Color::White));
        assert_ne!(sequence(1, 2, Color::White), sequence(1, 2, Color::Black));
        assert_ne!(sequence(1, 2, Color::White), sequence(1, 3, Color::White));
        assert_ne!(sequence(1, 2, Color::White), sequence(2, 2, Color::White));
        // One colour's draws do not depend on the other colour's.
        let mut draws = RevealDraws::new(1, 2);
        let interleaved: Vec<Role> = (0..32)
            .map(|_| {
                draws.draw(Color::Black, &Pool::START);
                draws.draw(Color::White, &Pool::START)
            })
            .collect();
        assert_eq!(interleaved, sequence(1, 2, Color::White));
    }

    #[test]
    fn pick_covers_the_unit_interval() {
        let mut pool = Pool::EMPTY;
        pool.set(Role::Queen, 1);
        pool.set(Role::Pawn, 3);
        assert_eq!(pick(&pool, 0.0), Role::Pawn);
        assert_eq!(pick(&pool, 0.74), Role::Pawn);
        assert_eq!(pick(&pool, 0.75), Role::Queen);
        assert_eq!(pick(&pool, 0.999_999_999), Role::Queen);
    }
}
