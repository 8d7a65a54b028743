//! The cover baseline: a search that takes every covered piece as its cover for good, so it
//! sees no chance nodes and no pools, only the plain-chess position of
//! [`Position::covers_as_pieces`]. It plays covered chess as if reveals did not exist, and
//! exists to measure what the chance model is worth (`setoption name CoverBaseline`).

use crate::rules::{Move, Position};

/// The job's position as the baseline sees it, or `None` when nothing is covered (then the
/// position is its own baseline and keeps its repetition history).
pub fn baseline_position(position: &Position) -> Option<Position> {
    (!position.covered().is_empty()).then(|| position.covers_as_pieces())
}

/// The baseline's moves for the real position's `moves` (a `searchmoves` list).
pub fn baseline_moves(baseline: &Position, moves: &[Move]) -> Vec<Move> {
    let legal = baseline.legal_moves();
    legal
        .iter()
        .copied()
        .filter(|b| moves.iter().any(|m| m.from() == b.from() && m.to() == b.to()))
        .collect()
}

/// The legal move of `position` that plays the baseline's move `m`: the same squares, and the
/// same promotion; a covered piece that reaches its last rank and may reveal as a pawn has
/// only promotion versions, and the baseline's plain move maps to the queen's.
pub fn real_move(position: &Position, m: Move) -> Option<Move> {
    let legal = position.legal_moves();
    let same_squares = || {
        legal
            .iter()
            .copied()
            .filter(|c| c.from() == m.from() && c.to() == m.to())
    };
    same_squares()
        .find(|c| c.promotion_role() == m.promotion_role())
        .or_else(|| same_squares().find(|c| c.promotion_role() == Some(crate::rules::Role::Queen)))
        .or_else(|| same_squares().next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_plain_chess() {
        let baseline = baseline_position(&Position::covered_start()).expect("covered pieces");
        assert_eq!(baseline, Position::standard_start());
        assert_eq!(baseline.hash(), Position::standard_start().hash());
        assert!(baseline_position(&Position::standard_start()).is_none());
    }

    #[test]
    fn every_baseline_move_is_a_real_move() {
        let fens = [
            // A covered rook that can reach the last rank while the pool holds pawns.
            "4k3/8/8/8/8/8/8/X3K3 w - - 0 1 Q1P1",
            "xxxxkxxx/xxxxxxxx/8/8/4P3/8/XXXX1XXX/XXXXKXXX b KQkq - 0 1 Q1R2B2N2P7q1r2b2n2p8",
        ];
        for fen in fens {
            let position = Position::from_fen(fen).expect("a valid FEN");
            let baseline = position.covers_as_pieces();
            for m in baseline.legal_moves().iter().copied() {
                let real = real_move(&position, m).expect("a real move");
                assert!(position.legal_moves().contains(real), "{fen}: {m:?}");
            }
        }
    }
}
