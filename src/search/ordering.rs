//! Move ordering: the hash move, captures that do not lose material by exchange (most
//! valuable victim, least valuable attacker), queen promotions, killer moves, the counter
//! move, quiet moves by history and continuation history, and last the captures that lose
//! material. Capture history adds to a capture's key up to a little more than a pawn of
//! victim, so it orders the captures of one victim and of victims of near value.

use super::eval::{pool_mean, role_value};
use super::history::{History, PieceTo};
use super::see::see_ge;
use crate::rules::{Move, MoveList, Piece, Position, Role, MAX_MOVES};

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const PROMOTION: i32 = 1_900_000;
const KILLER: i32 = 1_800_000;
const COUNTER: i32 = 1_700_000;
const BAD_CAPTURE: i32 = -2_000_000;
/// Capture history points per ordering point (a full entry is worth a little more than a
/// pawn of victim).
const CAPTURE_HISTORY_DIVISOR: i32 = 16;

/// The value of whatever stands on the move's target (covered: its pool's mean).
pub fn victim_value(position: &Position, m: Move) -> i32 {
    if m.kind() == crate::rules::MoveKind::EnPassant {
        return role_value(Role::Pawn);
    }
    match position.piece_at(m.to()) {
        Some(Piece::Revealed { role, .. }) => role_value(role),
        Some(Piece::Covered { color }) => pool_mean(position.pool(color)),
        None => 0,
    }
}

/// The value of the moving piece (covered: its pool's mean).
pub fn attacker_value(position: &Position, m: Move) -> i32 {
    match position.piece_at(m.from()) {
        Some(Piece::Revealed { role, .. }) => role_value(role),
        Some(Piece::Covered { color }) => pool_mean(position.pool(color)),
        None => 0,
    }
}

/// What the ordering knows at a node.
pub struct OrderContext<'a> {
    pub hash_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    pub history: &'a History,
    pub previous: [Option<PieceTo>; 2],
}

/// Moves handed out best first as the search asks for them.
///
/// Most nodes cut off after a move or two, so the moves are not sorted up front: the first
/// [`PICKS`] calls of [`Iterator::next`] each pick the best of those left, and only a node
/// that goes on sorts the rest. A move's key is its score, then its place in the generated
/// list (earlier first among equal scores): keys are unique, and the largest first is
/// exactly the order of a stable sort by score, best first.
pub struct Ordered<'a> {
    moves: &'a mut [Move],
    keys: &'a mut [i32],
    next: usize,
}

/// Moves picked one by one before the rest are sorted.
const PICKS: usize = 3;

/// Scores beyond this are clamped to it in a key (every ordering score lies well within).
const MAX_SCORE: i32 = (1 << 22) - 1;

/// The ordering keys of one node's moves.
pub type Keys = [i32; MAX_MOVES];

impl<'a> Ordered<'a> {
    /// `moves` with `score` giving each its ordering score, keyed in `keys`.
    fn new(moves: &'a mut MoveList, keys: &'a mut Keys, mut score: impl FnMut(Move) -> i32) -> Ordered<'a> {
        let moves = moves.as_mut_slice();
        let keys = &mut keys[..moves.len()];
        for (index, (key, &m)) in keys.iter_mut().zip(moves.iter()).enumerate() {
            let place = (MAX_MOVES - 1 - index) as i32;
            *key = score(m).clamp(-MAX_SCORE, MAX_SCORE) * MAX_MOVES as i32 + place;
        }
        Ordered { moves, keys, next: 0 }
    }
}

impl Iterator for Ordered<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let next = self.next;
        let keys = self.keys.get_mut(next..)?;
        let moves = &mut self.moves[next..];
        match next.cmp(&PICKS) {
            std::cmp::Ordering::Less => {
                let best = keys.iter().copied().max()?;
                let at = keys.iter().position(|&key| key == best).unwrap_or(0);
                keys.swap(0, at);
                moves.swap(0, at);
            }
            std::cmp::Ordering::Equal => insertion_sort(moves, keys),
            std::cmp::Ordering::Greater => {}
        }
        self.next += 1;
        moves.first().copied()
    }
}

/// Insertion sort, largest key first: what is left of a list is short and often nearly
/// sorted.
fn insertion_sort(moves: &mut [Move], keys: &mut [i32]) {
    for i in 1..moves.len() {
        let (key, m) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = m;
    }
}

/// `moves` best first: the hash move, good captures, queen promotions, killers, the counter
/// move, quiet moves by history, bad captures.
pub fn order<'a>(
    position: &Position,
    moves: &'a mut MoveList,
    keys: &'a mut Keys,
    context: &OrderContext,
) -> Ordered<'a> {
    let color = position.side_to_move();
    Ordered::new(moves, keys, |m| {
        if Some(m) == context.hash_move {
            HASH_MOVE
        } else if position.is_capture(m) {
            let mvv_lva = victim_value(position, m) * 8 - attacker_value(position, m) / 8
                + context.history.capture_score(position, m) / CAPTURE_HISTORY_DIVISOR;
            if see_ge(position, m, 0) {
                GOOD_CAPTURE + mvv_lva
            } else {
                BAD_CAPTURE + mvv_lva
            }
        } else if m.promotion_role() == Some(Role::Queen) {
            PROMOTION
        } else if context.killers[0] == Some(m) {
            KILLER + 1
        } else if context.killers[1] == Some(m) {
            KILLER
        } else if context.counter == Some(m) {
            COUNTER
        } else {
            context
                .history
                .quiet_score(color, m, PieceTo::of(position, m), context.previous)
        }
    })
}

/// Captures (and queen promotions) for quiescence, most valuable victim first.
pub fn order_captures<'a>(position: &Position, moves: &'a mut MoveList, keys: &'a mut Keys) -> Ordered<'a> {
    Ordered::new(moves, keys, |m| {
        victim_value(position, m) * 8 - attacker_value(position, m) / 8
            + if m.promotion_role().is_some() { 5_000 } else { 0 }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::splitmix::mix;

    /// Picking gives exactly a stable sort by score, best first, whatever the scores (ties
    /// included) and wherever the picks give way to the sort.
    #[test]
    fn picks_in_the_order_of_a_stable_sort() {
        for seed in 0..200u64 {
            let mut moves = Position::standard_start().legal_moves();
            let score = |m: Move| (mix(seed ^ u64::from(m.to_u16())) % 7) as i32 * 1_000 - 3_000;
            let mut expected: Vec<Move> = moves.iter().copied().collect();
            expected.sort_by_key(|&m| std::cmp::Reverse(score(m)));
            let mut keys = [0; MAX_MOVES];
            let picked: Vec<Move> = Ordered::new(&mut moves, &mut keys, score).collect();
            assert_eq!(picked, expected, "seed {seed}");
        }
    }
}
