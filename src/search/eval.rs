//! Static evaluation: material, piece-square bonuses, and the expected value of covered
//! pieces (the mean value of their side's pool, since every covered piece is an equal draw
//! from it). Scores are centipawns from the side to move's point of view.

use crate::rules::{Bitboard, Color, Pool, Position, Role};

/// Centipawn value of each role (the king's is never counted).
pub const ROLE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Tempo bonus for the side to move.
const TEMPO: i32 = 10;

/// A covered piece is worth its pool's mean value, less this for being still undeveloped.
const COVERED_DISCOUNT: i32 = 15;

/// Centre bonus by distance ring (0 = the four centre squares) for knights and bishops.
const MINOR_CENTRE: [i32; 4] = [20, 12, 4, -8];
/// Pawn advance bonus by rank from the pawn's own side (0 = own back rank).
const PAWN_ADVANCE: [i32; 8] = [-10, 0, 4, 10, 20, 35, 60, 0];
/// King shelter: a king on its back rank away from the centre files while queens remain.
const KING_HOME: i32 = 15;

#[inline]
pub fn role_value(role: Role) -> i32 {
    ROLE_VALUE[role.index()]
}

/// Mean value of a draw from `pool` (0 when empty), in centipawns.
pub fn pool_mean(pool: &Pool) -> i32 {
    let total = pool.total() as i32;
    if total == 0 {
        return 0;
    }
    let sum: i32 = pool
        .outcomes()
        .map(|(role, count)| count as i32 * role_value(role))
        .sum();
    sum / total
}

fn centre_ring(square: crate::rules::Square) -> usize {
    let file = square.file() as i32;
    let rank = square.rank() as i32;
    let distance = (2 * file - 7).abs().max((2 * rank - 7).abs()) / 2;
    distance as usize
}

fn side_score(position: &Position, color: Color) -> i32 {
    let ours = position.pieces(color);
    let covered = position.covered() & ours;
    let mut score = covered.count() as i32 * (pool_mean(position.pool(color)) - COVERED_DISCOUNT);
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let pieces = position.revealed(role) & ours;
        score += pieces.count() as i32 * role_value(role);
        match role {
            Role::Pawn => {
                for square in pieces {
                    let rank = match color {
                        Color::White => square.rank(),
                        Color::Black => 7 - square.rank(),
                    };
                    score += PAWN_ADVANCE[rank as usize];
                }
            }
            Role::Knight | Role::Bishop => {
                for square in pieces {
                    score += MINOR_CENTRE[centre_ring(square)];
                }
            }
            _ => {}
        }
    }
    let queens_left = (position.movers(Role::Queen) & !position.covered()).any() || position.covered().any();
    let king = position.king(color);
    let home = match color {
        Color::White => Bitboard::RANK_1,
        Color::Black => Bitboard::RANK_8,
    };
    if queens_left {
        if home.contains(king) && !(3..=4).contains(&king.file()) {
            score += KING_HOME;
        }
    } else {
        score += 2 * MINOR_CENTRE[centre_ring(king)];
    }
    score
}

/// The static score of `position` for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    let us = position.side_to_move();
    side_score(position, us) - side_score(position, !us) + TEMPO
}
