//! Static exchange evaluation: whether the capture sequence on a move's target square, each
//! side recapturing with its least valuable attacker and free to stop, leaves the mover at
//! least a given gain (the swap algorithm, with x-ray attackers uncovered as pieces leave).
//!
//! A covered piece attacks by its cover and is worth its pool's mean value, as a victim and
//! as a recapturer: whatever it reveals as, that is its expected worth. Pins are ignored.

use super::eval::{pool_mean, role_value};
use crate::rules::attacks::{bishop_attacks, rook_attacks};
use crate::rules::{Bitboard, MoveKind, Position, Role, Square};
use crate::rules::{Color, Move};

/// Roles in the order recaptures are tried: least valuable first, which is role order.
const RECAPTURE_ORDER: [Role; 6] = Role::ALL;

/// Expected value of the piece on `square` (0 if empty).
fn value_at(position: &Position, square: Square) -> i32 {
    if position.covered().contains(square) {
        let color = if position.pieces(Color::White).contains(square) {
            Color::White
        } else {
            Color::Black
        };
        return pool_mean(position.pool(color));
    }
    position.mover_at(square).map_or(0, role_value)
}

/// Whether playing `m` wins at least `threshold` centipawns of material by exchange.
pub fn see_ge(position: &Position, m: Move, threshold: i32) -> bool {
    match m.kind() {
        MoveKind::Castle => return threshold <= 0,
        MoveKind::EnPassant => return role_value(Role::Pawn) >= threshold,
        _ => {}
    }
    let (from, to) = (m.from(), m.to());
    let mut swap = value_at(position, to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value_at(position, from) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = position.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    let mut side = position.side_to_move();
    let mut attackers = position.attackers_to(to, occupied);
    let diagonal = position.diagonal_sliders();
    let straight = position.straight_sliders();
    // 1 while the side that made the last capture is ahead of the threshold.
    let mut result = 1;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & position.pieces(side);
        if ours.is_empty() {
            break;
        }
        result ^= 1;
        let Some((role, square)) = RECAPTURE_ORDER.into_iter().find_map(|role| {
            let candidates = ours & position.movers(role);
            candidates.any().then(|| (role, candidates.first()))
        }) else {
            break;
        };
        if role == Role::King {
            // The king may recapture only if nothing can take it back.
            return if (attackers & position.pieces(!side)).any() {
                result ^ 1 == 1
            } else {
                result == 1
            };
        }
        swap = value_at(position, square) - swap;
        if swap < result {
            break;
        }
        occupied ^= Bitboard::from_square(square);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result == 1
}
