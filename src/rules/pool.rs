//! A side's pool: how many of each role its covered pieces may still reveal as.

use super::Role;

/// Counts of the roles not yet revealed by one side (never a king).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool {
    counts: [u8; 5],
}

impl Pool {
    /// The pool a side starts with: Q1 R2 B2 N2 P8.
    pub const START: Pool = Pool {
        counts: [8, 2, 2, 2, 1],
    };

    pub const EMPTY: Pool = Pool { counts: [0; 5] };

    /// The largest count each role can have: its count in the start pool.
    #[inline]
    pub const fn max_count(role: Role) -> u8 {
        Pool::START.counts[role.index()]
    }

    /// How many of `role` are left; 0 for the king.
    #[inline]
    pub const fn count(&self, role: Role) -> u8 {
        match role {
            Role::King => 0,
            _ => self.counts[role.index()],
        }
    }

    #[inline]
    pub fn set(&mut self, role: Role, count: u8) {
        debug_assert!(role != Role::King);
        self.counts[role.index()] = count;
    }

    #[inline]
    pub fn contains(&self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// The number of roles left in all.
    #[inline]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// How many different roles a reveal can draw: the branching factor of a reveal.
    #[inline]
    pub fn distinct(&self) -> u32 {
        self.counts.iter().filter(|&&c| c > 0).count() as u32
    }

    /// Takes one `role` out of the pool, as a reveal does.
    #[inline]
    pub fn remove(&mut self, role: Role) {
        debug_assert!(self.contains(role));
        self.counts[role.index()] -= 1;
    }

    /// The roles a reveal can draw with their counts, in role order (pawn first).
    pub fn outcomes(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| (Role::from_index(i), c))
    }

    /// The chance that a reveal draws `role`.
    pub fn probability(&self, role: Role) -> f64 {
        match self.total() {
            0 => 0.0,
            total => self.count(role) as f64 / total as f64,
        }
    }
}
