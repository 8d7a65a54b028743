//! Whether a move gives check, without playing it: a direct check by the moved piece from
//! its new square, or a discovered check by a slider the move uncovers. Castling, en passant
//! and promotions count as possible checks (they are rare, and pruning them is not worth
//! the care). A covered piece may check as any role its side's pool holds: its reveal draws
//! one of them on the new square (judged by its cover alone, a covered rook whose reveal can
//! only be a pawn, and mates, would be pruned as a quiet move that does not check).

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
    let checks_as = |role| attacks(role, us, m.to(), occupied).contains(king);
    if position.covered().contains(m.from()) {
        if position.pool(us).outcomes().any(|(role, _)| checks_as(role)) {
            return true;
        }
    } else if checks_as(role) {
        return true;
    }
    let ours = position.us() & !Bitboard::from_square(m.from());
    let diagonal = bishop_attacks(king, occupied) & position.diagonal_sliders();
    let straight = rook_attacks(king, occupied) & position.straight_sliders();
    ((diagonal | straight) & ours).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks(fen: &str, uci: &str) -> bool {
        let position = Position::from_fen(fen).unwrap();
        let m = position.parse_uci_move(uci).unwrap();
        gives_check(&position, m)
    }

    #[test]
    fn a_covered_piece_checks_as_any_role_its_pool_holds() {
        // The covered h1 moves as a rook (its cover), which checks g6 from neither h4 nor
        // h5; what it checks as is what its reveal may draw.
        let pawns = "xx5x/1R6/2n2pkp/2pR4/2r5/5P2/5K2/7X w - - 0 32 P2b1p2";
        assert!(checks(pawns, "h1h5"), "a pawn on h5 mates");
        assert!(!checks(pawns, "h1h4"));
        let knight = "xx5x/1R6/2n2pkp/2pR4/2r5/5P2/5K2/7X w - - 0 32 N1b1p2";
        assert!(checks(knight, "h1h4"));
        assert!(!checks(knight, "h1h5"));
        let both = "xx5x/1R6/2n2pkp/2pR4/2r5/5P2/5K2/7X w - - 0 32 N1P1b1p2";
        assert!(checks(both, "h1h4") && checks(both, "h1h5"));
        assert!(!checks(both, "h1h3"));
    }
}
