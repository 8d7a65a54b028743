//! Perft (RULES.md §9): the number of leaves of the tree of all `depth`-ply sequences, where
//! a reveal branches once per role its pool holds (unweighted). Bulk counting at the last ply:
//! moves are counted as they are generated, never played.

use super::movegen::MoveSink;
use super::{Bitboard, Move, Position, Square};
use std::ops::ControlFlow;

/// Counts moves as perft leaves: a move of a covered piece counts once per distinct role.
struct LeafCounter {
    covered: Bitboard,
    reveal_branches: u64,
    leaves: u64,
}

impl MoveSink for LeafCounter {
    #[inline]
    fn push(&mut self, m: Move) {
        self.leaves += if self.covered.contains(m.from()) {
            self.reveal_branches
        } else {
            1
        };
    }

    #[inline]
    fn push_castle(&mut self, m: Move, corner: Square) {
        self.leaves += if self.covered.contains(corner) {
            self.reveal_branches
        } else {
            1
        };
        let _ = m;
    }

    #[inline]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        let weight = if self.covered.contains(from) {
            self.reveal_branches
        } else {
            1
        };
        self.leaves += targets.count() as u64 * weight;
    }
}

impl Position {
    /// The leaves one ply below: legal moves, each reveal counted once per possible role.
    pub fn count_leaves(&self) -> u64 {
        let mut counter = LeafCounter {
            covered: self.covered() & self.us(),
            reveal_branches: self.pool(self.side_to_move()).distinct() as u64,
            leaves: 0,
        };
        self.generate(&mut counter);
        counter.leaves
    }

    /// Calls `visit` with every (move, reveal) branch and the position it leads to.
    pub fn for_each_branch(&self, mut visit: impl FnMut(Move, Option<super::Role>, Position)) {
        let moves = self.legal_moves();
        for &m in moves.iter() {
            if self.is_reveal(m) {
                for (role, _) in self.pool(self.side_to_move()).outcomes() {
                    visit(m, Some(role), self.play(m, Some(role)));
                }
            } else {
                visit(m, None, self.play(m, None));
            }
        }
    }
}

/// perft(depth) from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_leaves(),
        _ => {
            let mut leaves = 0;
            position.for_each_branch(|_, _, child| leaves += perft(&child, depth - 1));
            leaves
        }
    }
}

/// perft split by root move (summed over each move's reveals), in generation order.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut split = Vec::new();
    divide_each(position, depth, |m, leaves| {
        split.push((m, leaves));
        ControlFlow::Continue(())
    });
    split
}

/// perft split by root move, handing each root move's count to `visit` as soon as it is
/// known; `visit` may break off the count.
pub fn divide_each(position: &Position, depth: u32, mut visit: impl FnMut(Move, u64) -> ControlFlow<()>) {
    if depth == 0 {
        return;
    }
    let side = position.side_to_move();
    for &m in position.legal_moves().iter() {
        let leaves = if !position.is_reveal(m) {
            perft(&position.play(m, None), depth - 1)
        } else {
            let pool = position.pool(side);
            pool.outcomes()
                .map(|(role, _)| perft(&position.play(m, Some(role)), depth - 1))
                .sum()
        };
        if visit(m, leaves).is_break() {
            return;
        }
    }
}
