//! Positions mirrored left to right, so that training sees each game's positions twice.
//!
//! The mirror of a position is the same game, for the same result and search score, when
//! nothing in the rules tells the two wings apart: no castling rights are left, and no
//! covered piece stands on d1 or d8 (its mirror square, e1 or e8, is the king's, which no
//! covered piece can have; the other covers mirror into each other: a1/h1 rooks, b1/g1
//! knights, c1/f1 bishops, the second rank pawns).

use crate::rules::{Bitboard, Position, Square};

/// `position` mirrored left to right, if that is the same game (see the module's notes).
pub fn mirrored(position: &Position) -> Option<Position> {
    let queen_covers = Bitboard::from_square(Square::D1) | Bitboard::from_square(Square::D8);
    if !position.castling_rights().is_empty() || (position.covered() & queen_covers).any() {
        return None;
    }
    let fen = position.to_fen();
    let mut fields = fen.split(' ');
    let board: Vec<String> = fields
        .next()?
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let mut out = board.join("/");
    for (i, field) in fields.enumerate() {
        out.push(' ');
        // The en passant square is the third field: its file mirrors.
        match field.as_bytes() {
            [file @ b'a'..=b'h', rank] if i == 2 => {
                out.push(char::from(b'a' + b'h' - file));
                out.push(char::from(*rank));
            }
            _ => out.push_str(field),
        }
    }
    Position::from_fen(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_is_the_same_game_mirrored() {
        let position =
            Position::from_fen("4k3/xx3xxx/8/3pP3/8/8/XXX2XXX/1X2K1X1 w - d6 0 5 Q1R2B2N2P6q1r2b2n2p5").unwrap();
        let mirror = mirrored(&position).unwrap();
        assert_eq!(
            mirror.to_fen(),
            "3k4/xxx3xx/8/3Pp3/8/8/XXX2XXX/1X1K2X1 w - e6 0 5 Q1R2B2N2P6q1r2b2n2p5"
        );
        assert_eq!(mirrored(&mirror).unwrap().to_fen(), position.to_fen());
        assert_eq!(mirror.legal_moves().len(), position.legal_moves().len());
    }

    #[test]
    fn castling_rights_or_a_queen_cover_keep_a_position_unmirrored() {
        assert!(mirrored(&Position::covered_start()).is_none());
        assert!(mirrored(&Position::standard_start()).is_none());
        let queen_cover = Position::from_fen("3xk3/8/8/8/8/8/8/4K3 w - - 0 1 q1").unwrap();
        assert!(mirrored(&queen_cover).is_none());
    }
}
