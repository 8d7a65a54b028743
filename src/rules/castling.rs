//! Castling rights (`KQkq`) and the squares castling involves.

use super::{Bitboard, Color, Square};

/// The four castling rights as bits: White king side, White queen side, Black king side,
/// Black queen side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(u8);

/// One castling: a side and a wing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castling {
    pub color: Color,
    pub king_side: bool,
}

impl Castling {
    pub const ALL: [Castling; 4] = [
        Castling::new(Color::White, true),
        Castling::new(Color::White, false),
        Castling::new(Color::Black, true),
        Castling::new(Color::Black, false),
    ];

    pub const fn new(color: Color, king_side: bool) -> Castling {
        Castling { color, king_side }
    }

    const fn bit(self) -> u8 {
        1 << (self.color as u8 * 2 + if self.king_side { 0 } else { 1 })
    }

    const fn back_rank(self, file: u8) -> Square {
        Square::from_coords(
            file,
            match self.color {
                Color::White => 0,
                Color::Black => 7,
            },
        )
    }

    /// e1 or e8.
    pub const fn king_from(self) -> Square {
        self.back_rank(4)
    }

    /// g1, c1, g8 or c8.
    pub const fn king_to(self) -> Square {
        self.back_rank(if self.king_side { 6 } else { 2 })
    }

    /// The corner square: h1, a1, h8 or a8.
    pub const fn corner(self) -> Square {
        self.back_rank(if self.king_side { 7 } else { 0 })
    }

    /// Where the corner piece lands: f1, d1, f8 or d8.
    pub const fn corner_to(self) -> Square {
        self.back_rank(if self.king_side { 5 } else { 3 })
    }

    /// Squares that must be empty: between king and corner.
    pub const fn must_be_empty(self) -> Bitboard {
        match self.king_side {
            true => Bitboard(Bitboard::from_square(self.back_rank(5)).0 | Bitboard::from_square(self.back_rank(6)).0),
            false => Bitboard(
                Bitboard::from_square(self.back_rank(1)).0
                    | Bitboard::from_square(self.back_rank(2)).0
                    | Bitboard::from_square(self.back_rank(3)).0,
            ),
        }
    }

    /// The king's passage and destination, which must not be attacked (its start square
    /// is covered by the rule against castling out of check).
    pub const fn must_be_safe(self) -> [Square; 2] {
        match self.king_side {
            true => [self.back_rank(5), self.back_rank(6)],
            false => [self.back_rank(3), self.back_rank(2)],
        }
    }

    /// The castling a king move `from -> to` stands for, if any.
    pub fn from_king_move(from: Square, to: Square) -> Option<Castling> {
        Castling::ALL
            .into_iter()
            .find(|c| c.king_from() == from && c.king_to() == to)
    }

    /// The FEN letter: `K Q k q`.
    pub const fn char(self) -> char {
        match (self.color, self.king_side) {
            (Color::White, true) => 'K',
            (Color::White, false) => 'Q',
            (Color::Black, true) => 'k',
            (Color::Black, false) => 'q',
        }
    }
}

/// For each square, the rights that survive a move from or to it.
const fn keep_masks() -> [u8; 64] {
    let mut masks = [0x0F; 64];
    masks[Square::E1.index()] = 0x0F & !0x03;
    masks[Square::H1.index()] = 0x0F & !0x01;
    masks[Square::A1.index()] = 0x0F & !0x02;
    masks[Square::E8.index()] = 0x0F & !0x0C;
    masks[Square::H8.index()] = 0x0F & !0x04;
    masks[Square::A8.index()] = 0x0F & !0x08;
    masks
}

const KEEP: [u8; 64] = keep_masks();

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(0x0F);

    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn has(self, castling: Castling) -> bool {
        self.0 & castling.bit() != 0
    }

    #[inline]
    pub fn add(&mut self, castling: Castling) {
        self.0 |= castling.bit();
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Any right of `color`.
    #[inline]
    pub const fn any_for(self, color: Color) -> bool {
        self.0 & (0x03 << (color as u8 * 2)) != 0
    }

    /// The rights left after a move from `from` to `to`: moving the king loses both of its
    /// side's rights, moving from or landing on a corner loses that corner's right.
    #[inline]
    pub const fn after_move(self, from: Square, to: Square) -> CastlingRights {
        CastlingRights(self.0 & KEEP[from.index()] & KEEP[to.index()])
    }

    /// Removes both rights of `color`.
    #[inline]
    pub fn clear(&mut self, color: Color) {
        self.0 &= !(0x03 << (color as u8 * 2));
    }
}
