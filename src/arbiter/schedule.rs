//! Which games a match plays: the pairings (round robin, a gauntlet of the first engine
//! against the others, or a ladder of each engine against the next), colour-swapped pairs, openings and reveal streams by round, and the
//! slice of them a shard plays. Everything here depends on the seed and the settings alone,
//! so a match split into shards plays exactly the games the whole match would.

use crate::rules::splitmix::mix;

/// Two engines (indices into the match's list) that meet; `first` has White in the first game
/// of each pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encounter {
    pub first: usize,
    pub second: usize,
}

/// One colour-swapped pair of games (or a single game, when the match has an odd number of
/// games per encounter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairJob {
    /// The pair's number in the whole match, from 0.
    pub pair: u64,
    /// Rounds share an opening and reveal streams across all encounters.
    pub round: u64,
    pub encounter: Encounter,
    /// 2, or 1 for the last pair of an odd number of games.
    pub games: u8,
    /// Index into the opening list.
    pub opening: usize,
}

/// `i` of `n` shards (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Reads `i/n` with 0 <= i < n.
    fn from_str(text: &str) -> Result<Shard, String> {
        let parsed = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)));
        match parsed {
            Some((index, count)) if index < count => Ok(Shard { index, count }),
            _ => Err(format!("invalid shard '{text}' (expected i/n with 0 <= i < n)")),
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Who meets whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pairing {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
    /// Each engine against the next in the list: the pairings that measure the steps of a
    /// ladder of strengths (such as the levels) with the fewest games.
    Ladder,
}

/// The pairings of `engines` engines.
pub fn encounters(engines: usize, pairing: Pairing) -> Vec<Encounter> {
    let mut list = Vec::new();
    for first in 0..engines {
        for second in first + 1..engines {
            let meets = match pairing {
                Pairing::RoundRobin => true,
                Pairing::Gauntlet => first == 0,
                Pairing::Ladder => second == first + 1,
            };
            if meets {
                list.push(Encounter { first, second });
            }
        }
    }
    list
}

/// The rounds of an encounter of `games_per_encounter` games: one colour-swapped pair each
/// (the last a single game when the count is odd), each round on the next opening.
pub fn rounds(games_per_encounter: u64) -> u64 {
    games_per_encounter.div_ceil(2)
}

/// Every pair of the match in order (round by round), or the shard's share of them.
pub fn pair_jobs(
    engines: usize,
    pairing: Pairing,
    games_per_encounter: u64,
    openings: usize,
    seed: u64,
    shard: Option<Shard>,
) -> Vec<PairJob> {
    let encounters = encounters(engines, pairing);
    let rounds = rounds(games_per_encounter);
    let first_opening = if openings == 0 {
        0
    } else {
        (mix(seed) % openings as u64) as usize
    };
    let mut jobs = Vec::new();
    for round in 0..rounds {
        for (e, &encounter) in encounters.iter().enumerate() {
            let pair = round * encounters.len() as u64 + e as u64;
            if shard.is_some_and(|s| pair % s.count != s.index) {
                continue;
            }
            let games = if 2 * (round + 1) > games_per_encounter { 1 } else { 2 };
            jobs.push(PairJob {
                pair,
                round,
                encounter,
                games,
                opening: if openings == 0 {
                    0
                } else {
                    (first_opening + round as usize) % openings
                },
            });
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet() {
        assert_eq!(encounters(2, Pairing::RoundRobin).len(), 1);
        assert_eq!(encounters(4, Pairing::RoundRobin).len(), 6);
        let gauntlet = encounters(4, Pairing::Gauntlet);
        assert_eq!(gauntlet.len(), 3);
        assert!(gauntlet.iter().all(|e| e.first == 0));
        let ladder = encounters(5, Pairing::Ladder);
        assert_eq!(ladder.len(), 4);
        assert!(ladder.iter().all(|e| e.second == e.first + 1));
    }

    #[test]
    fn shards_partition_the_match() {
        let whole = pair_jobs(3, Pairing::RoundRobin, 9, 5, 42, None);
        assert_eq!(whole.len(), 15);
        assert_eq!(whole.iter().map(|j| j.games as u64).sum::<u64>(), 27);
        let mut parts: Vec<PairJob> = (0..4)
            .flat_map(|index| pair_jobs(3, Pairing::RoundRobin, 9, 5, 42, Some(Shard { index, count: 4 })))
            .collect();
        parts.sort_by_key(|j| j.pair);
        assert_eq!(parts, whole);
        assert!("4/4".parse::<Shard>().is_err());
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
    }
}
