//! Pieces: revealed (a colour and a role) or covered (a colour; it moves as its cover).

use super::{Bitboard, Color, Role, Square};

/// A piece on the board. A covered piece has no role: nobody can know it before it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Revealed { color: Color, role: Role },
    Covered { color: Color },
}

impl Piece {
    #[inline]
    pub const fn color(self) -> Color {
        match self {
            Piece::Revealed { color, .. } | Piece::Covered { color } => color,
        }
    }

    /// The FEN letter: role letters, `X`/`x` for covered pieces.
    pub fn char(self) -> char {
        let c = match self {
            Piece::Revealed { role, .. } => role.char(),
            Piece::Covered { .. } => 'x',
        };
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        if c.eq_ignore_ascii_case(&'x') {
            return Some(Piece::Covered { color });
        }
        Role::from_char(c).map(|role| Piece::Revealed { color, role })
    }
}

/// The start squares of the covered pieces of each side: rank 1 but e1 and rank 2 for White,
/// rank 8 but e8 and rank 7 for Black. A covered piece never leaves its start square.
pub const COVER_SQUARES: [Bitboard; 2] = [Bitboard(0xFFEF), Bitboard(0xEFFF << 48)];

/// The cover of a covered piece on `square`: the standard piece of that start square.
/// `None` for squares where no covered piece can stand.
pub const fn cover(square: Square) -> Option<Role> {
    let rank = square.rank();
    if rank == 1 || rank == 6 {
        return Some(Role::Pawn);
    }
    if rank != 0 && rank != 7 {
        return None;
    }
    match square.file() {
        0 | 7 => Some(Role::Rook),
        1 | 6 => Some(Role::Knight),
        2 | 5 => Some(Role::Bishop),
        3 => Some(Role::Queen),
        _ => None,
    }
}
