//! Move ordering: the hash move, captures by most valuable victim / least valuable attacker,
//! promotions, killer moves, then quiet moves by history.

use super::eval::{pool_mean, role_value};
use crate::rules::{Move, MoveList, Piece, Position, Role, MAX_MOVES};

const HASH_MOVE: i32 = 1_000_000;
const CAPTURE: i32 = 100_000;
const PROMOTION: i32 = 90_000;
const KILLER: i32 = 80_000;

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

/// Scores and sorts `moves` best first.
pub fn order(
    position: &Position,
    moves: &mut MoveList,
    hash_move: Option<Move>,
    killers: &[Option<Move>; 2],
    history: &[[i32; 64]; 64],
) {
    let moves = moves.as_mut_slice();
    let mut scores = [0i32; MAX_MOVES];
    for (score, &m) in scores.iter_mut().zip(moves.iter()) {
        *score = if Some(m) == hash_move {
            HASH_MOVE
        } else if position.is_capture(m) {
            CAPTURE + victim_value(position, m) * 8 - attacker_value(position, m) / 8
        } else if m.promotion_role() == Some(Role::Queen) {
            PROMOTION
        } else if killers.contains(&Some(m)) {
            KILLER
        } else {
            history[m.from().index()][m.to().index()]
        };
    }
    // Insertion sort, best first, stable: move lists are short and often nearly sorted.
    for i in 1..moves.len() {
        let (score, m) = (scores[i], moves[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < score {
            scores[j] = scores[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        scores[j] = score;
        moves[j] = m;
    }
}
