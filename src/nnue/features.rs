//! The network's inputs, seen from one side (a *perspective*): the board is turned so that
//! the perspective's pieces stand at the bottom (squares mirrored vertically for Black) and
//! its pieces come before the other side's.
//!
//! | range | feature |
//! |---|---|
//! | 0..768 | a revealed piece: side (own, other) × role × square |
//! | 768..896 | a covered piece: side × square (its cover follows from the square) |
//! | 896..928 | the pools: side × 16 slots, "the pool holds at least k of a role" (pawns k = 1..8, knights, bishops and rooks k = 1..2, queen k = 1; one slot unused) |
//!
//! A position's features are a [`Snapshot`]: fourteen bitboards and two pools. Two snapshots
//! differ by the features that came and went, which is how the accumulator is updated (a
//! move, a capture, a promotion and a reveal are each a handful of features).

use crate::rules::{Bitboard, ByColor, Color, Pool, Position, Role, Square};

/// Inputs per perspective.
pub const INPUTS: usize = 928;
const COVERED_BASE: usize = 768;
const POOL_BASE: usize = 896;
/// Pool slots per side.
const POOL_SLOTS: usize = 16;

/// The first pool slot of each role (pawn, knight, bishop, rook, queen) and how many it has.
const POOL_SLOT: [(usize, u8); 5] = [(0, 8), (8, 2), (10, 2), (12, 2), (14, 1)];

/// The roles a pool holds, in index order.
const POOL_ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Which side's pieces and which board orientation a feature index speaks of.
#[inline]
fn oriented(perspective: Color, color: Color, square: Square) -> (usize, usize) {
    let side = (color != perspective) as usize;
    let square = match perspective {
        Color::White => square.index(),
        Color::Black => square.index() ^ 56,
    };
    (side, square)
}

/// The feature of a revealed `role` of `color` on `square`.
#[inline]
pub fn revealed(perspective: Color, color: Color, role: Role, square: Square) -> usize {
    let (side, square) = oriented(perspective, color, square);
    side * 384 + role.index() * 64 + square
}

/// The feature of a covered piece of `color` on `square`.
#[inline]
pub fn covered(perspective: Color, color: Color, square: Square) -> usize {
    let (side, square) = oriented(perspective, color, square);
    COVERED_BASE + side * 64 + square
}

/// The feature "`color`'s pool holds at least `k` of `role`" (1 <= k <= the start count).
#[inline]
pub fn pool_at_least(perspective: Color, color: Color, role: Role, k: u8) -> usize {
    let side = (color != perspective) as usize;
    POOL_BASE + side * POOL_SLOTS + POOL_SLOT[role.index()].0 + (k as usize - 1)
}

/// What the features of a position are made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Revealed pieces by colour and role.
    pub revealed: [[Bitboard; 6]; 2],
    /// Covered pieces by colour.
    pub covered: [Bitboard; 2],
    pub pools: ByColor<Pool>,
}

impl Snapshot {
    pub fn of(position: &Position) -> Snapshot {
        let mut revealed = [[Bitboard::EMPTY; 6]; 2];
        let covered_all = position.covered();
        for color in Color::ALL {
            let pieces = position.pieces(color);
            for role in Role::ALL {
                revealed[color.index()][role.index()] = pieces & position.movers(role) & !covered_all;
            }
        }
        Snapshot {
            revealed,
            covered: [
                position.pieces(Color::White) & covered_all,
                position.pieces(Color::Black) & covered_all,
            ],
            pools: ByColor::new(*position.pool(Color::White), *position.pool(Color::Black)),
        }
    }

    /// Calls `f(color, role_or_covered, square)` for every piece: `Some(role)` for a revealed
    /// piece, `None` for a covered one.
    fn for_each_piece(&self, mut f: impl FnMut(Color, Option<Role>, Square)) {
        for color in Color::ALL {
            for role in Role::ALL {
                for square in self.revealed[color.index()][role.index()] {
                    f(color, Some(role), square);
                }
            }
            for square in self.covered[color.index()] {
                f(color, None, square);
            }
        }
    }

    /// Every active feature of `perspective`, in no particular order.
    pub fn features(&self, perspective: Color, out: &mut Vec<u16>) {
        out.clear();
        self.for_each_piece(|color, role, square| {
            out.push(feature_of(perspective, color, role, square) as u16);
        });
        for color in Color::ALL {
            for (role, count) in self.pools[color].outcomes() {
                for k in 1..=count {
                    out.push(pool_at_least(perspective, color, role, k) as u16);
                }
            }
        }
    }

    /// How many features come and go between `self` and `next` (each counted once, for both
    /// perspectives alike): the cost of an incremental update.
    pub fn distance(&self, next: &Snapshot) -> u32 {
        let mut changes = 0;
        for color in 0..2 {
            for role in 0..6 {
                changes += (self.revealed[color][role] ^ next.revealed[color][role]).count();
            }
            changes += (self.covered[color] ^ next.covered[color]).count();
        }
        for color in Color::ALL {
            for role in POOL_ROLES {
                changes += self.pools[color].count(role).abs_diff(next.pools[color].count(role)) as u32;
            }
        }
        changes
    }

    /// Calls `change(added, [white's index, black's index])` for every feature that comes
    /// (`added`) or goes from `self` to `next`.
    pub fn diff(&self, next: &Snapshot, mut change: impl FnMut(bool, [usize; 2])) {
        let both = |color: Color, role: Option<Role>, square: Square| {
            [
                feature_of(Color::White, color, role, square),
                feature_of(Color::Black, color, role, square),
            ]
        };
        for color in Color::ALL {
            let c = color.index();
            for role in Role::ALL {
                let (old, new) = (self.revealed[c][role.index()], next.revealed[c][role.index()]);
                for square in old & !new {
                    change(false, both(color, Some(role), square));
                }
                for square in new & !old {
                    change(true, both(color, Some(role), square));
                }
            }
            let (old, new) = (self.covered[c], next.covered[c]);
            for square in old & !new {
                change(false, both(color, None, square));
            }
            for square in new & !old {
                change(true, both(color, None, square));
            }
            for role in POOL_ROLES {
                let (old, new) = (self.pools[color].count(role), next.pools[color].count(role));
                let pool_pair = |k: u8| {
                    [
                        pool_at_least(Color::White, color, role, k),
                        pool_at_least(Color::Black, color, role, k),
                    ]
                };
                for k in new + 1..=old {
                    change(false, pool_pair(k));
                }
                for k in old + 1..=new {
                    change(true, pool_pair(k));
                }
            }
        }
    }
}

#[inline]
fn feature_of(perspective: Color, color: Color, role: Option<Role>, square: Square) -> usize {
    match role {
        Some(role) => revealed(perspective, color, role, square),
        None => covered(perspective, color, square),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_in_range_and_distinct() {
        let position = Position::covered_start();
        let snapshot = Snapshot::of(&position);
        for perspective in Color::ALL {
            let mut features = Vec::new();
            snapshot.features(perspective, &mut features);
            // 30 covered pieces, 2 kings, 15 pool slots a side.
            assert_eq!(features.len(), 32 + 30);
            let mut sorted = features.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), features.len());
            assert!(features.iter().all(|&f| (f as usize) < INPUTS));
        }
    }

    #[test]
    fn the_start_looks_the_same_from_both_sides() {
        for position in [Position::covered_start(), Position::standard_start()] {
            let snapshot = Snapshot::of(&position);
            let (mut white, mut black) = (Vec::new(), Vec::new());
            snapshot.features(Color::White, &mut white);
            snapshot.features(Color::Black, &mut black);
            white.sort_unstable();
            black.sort_unstable();
            assert_eq!(white, black);
        }
    }
}
