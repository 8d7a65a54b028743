//! Perft (RULES.md §9): the number of leaves of the tree of all `depth`-ply sequences, where
//! a reveal branches once per role its pool holds (unweighted). Bulk counting at the last ply:
//! moves are counted as they are generated, never played.

use super::movegen::MoveSink;
use super::{Bitboard, Move, Position, Square};

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
    fn push_castle(&mut self, _: Move, corner: Square) {
        self.leaves += if self.covered.contains(corner) {
            self.reveal_branches
        } else {
            1
        };
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
}

/// perft(depth) from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_until(position, depth, &|| false).unwrap_or(0)
}

/// perft split by root move (summed over each move's reveals), in generation order.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut split = Vec::new();
    divide_each(position, depth, &|| false, |m, leaves| split.push((m, leaves)));
    split
}

/// perft split by root move, handing each root move's count to `visit` as soon as it is
/// known. `stop` is asked now and then (never in the last two plies); once it answers true
/// the count ends, without the root move it was counting.
pub fn divide_each(position: &Position, depth: u32, stop: &impl Fn() -> bool, mut visit: impl FnMut(Move, u64)) {
    if depth == 0 {
        return;
    }
    for &m in position.legal_moves().iter() {
        match branches_until(position, m, depth - 1, stop) {
            Some(leaves) => visit(m, leaves),
            None => return,
        }
    }
}

/// The leaves below `m` (all its reveals), or `None` if `stop` answered true.
fn branches_until(position: &Position, m: Move, depth: u32, stop: &impl Fn() -> bool) -> Option<u64> {
    if !position.is_reveal(m) {
        return perft_until(&position.play(m, None), depth, stop);
    }
    let mut leaves = 0;
    for (role, _) in position.pool(position.side_to_move()).outcomes() {
        leaves += perft_until(&position.play(m, Some(role)), depth, stop)?;
    }
    Some(leaves)
}

/// perft(depth), or `None` if `stop` answered true before the count was done. `stop` is
/// not asked in the last two plies, where subtrees are small.
pub fn perft_until(position: &Position, depth: u32, stop: &impl Fn() -> bool) -> Option<u64> {
    match depth {
        0 => return Some(1),
        1 => return Some(position.count_leaves()),
        3.. if stop() => return None,
        _ => {}
    }
    let mut leaves = 0;
    for &m in position.legal_moves().iter() {
        leaves += branches_until(position, m, depth - 1, stop)?;
    }
    Some(leaves)
}
