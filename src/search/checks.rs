//! Whether a move gives check, without playing it: a direct check by the moved piece from
//! its new square, or a discovered check by a slider the move uncovers. Castling, en passant
//! and promotions count as possible checks (they are rare, and pruning them is not worth
//! the care). A covered piece is judged by its cover, the only role known before it moves.

use crate::rules::attacks::{attacks, bishop_attacks, rook_attacks};
use crate::rules::{Bitboard, Move, MoveKind, Position};

/// Whether `m` checks the opponent's king (or may, for the special moves).
pub fn gives_check(position: &Position, m: Move) -> bool {
    if m.kind() != MoveKind::Normal && m.kind() != MoveKind::DoublePush {
        return true;
    }
    let us = position.side_to_move();
    let king = position.king(!us);
    let Some(role) = position.mover_at(m.from()) else {
        return false;
    };
    let occupied = (position.occupied() ^ Bitboard::from_square(m.from())) | Bitboard::from_square(m.to());
    if attacks(role, us, m.to(), occupied).contains(king) {
        return true;
    }
    let ours = position.us() & !Bitboard::from_square(m.from());
    let diagonal = bishop_attacks(king, occupied) & position.diagonal_sliders();
    let straight = rook_attacks(king, occupied) & position.straight_sliders();
    ((diagonal | straight) & ours).any()
}
