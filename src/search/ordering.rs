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

/// Scores and sorts `moves` best first.
pub fn order(position: &Position, moves: &mut MoveList, context: &OrderContext) {
    let color = position.side_to_move();
    let moves = moves.as_mut_slice();
    let mut scores = [0i32; MAX_MOVES];
    for (score, &m) in scores.iter_mut().zip(moves.iter()) {
        *score = if Some(m) == context.hash_move {
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
        };
    }
    sort(moves, &mut scores);
}

/// Scores captures (and queen promotions) for quiescence: most valuable victim first.
pub fn order_captures(position: &Position, moves: &mut MoveList) {
    let moves = moves.as_mut_slice();
    let mut scores = [0i32; MAX_MOVES];
    for (score, &m) in scores.iter_mut().zip(moves.iter()) {
        *score = victim_value(position, m) * 8 - attacker_value(position, m) / 8
            + if m.promotion_role().is_some() { 5_000 } else { 0 };
    }
    sort(moves, &mut scores);
}

/// Insertion sort, best first, stable: move lists are short and often nearly sorted.
fn sort(moves: &mut [Move], scores: &mut [i32; MAX_MOVES]) {
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
