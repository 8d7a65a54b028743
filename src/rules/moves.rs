//! Moves packed in 16 bits, and a fixed-capacity move list.

use super::{Role, Square};
use std::fmt;
use std::num::NonZeroU16;

/// What kind of move: it decides what else happens besides `from -> to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    DoublePush = 1,
    /// The king's move of castling; the corner piece goes to the other side of the king.
    Castle = 2,
    EnPassant = 3,
    /// Promotion to the role in bits 12..15 (knight .. queen). For a covered piece it applies
    /// only if the reveal is a pawn.
    Promotion = 4,
}

/// A move as `from`, `to` and a kind, in 16 bits (never zero, since `from != to`), so
/// `Option<Move>` is as small as a `Move`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const KIND_SHIFT: u16 = 12;

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, code: u16) -> Move {
        let bits = from.index() as u16 | (to.index() as u16) << 6 | code << KIND_SHIFT;
        debug_assert!(bits != 0, "a move from a square to itself");
        // Every move has from != to, so the bits are never zero; a1a1 would map to 1.
        match NonZeroU16::new(bits) {
            Some(bits) => Move(bits),
            None => Move(NonZeroU16::MIN),
        }
    }

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move::pack(from, to, 0)
    }

    #[inline]
    pub const fn double_push(from: Square, to: Square) -> Move {
        Move::pack(from, to, 1)
    }

    /// Castling, written as the king's move (`e1g1`).
    #[inline]
    pub const fn castle(from: Square, to: Square) -> Move {
        Move::pack(from, to, 2)
    }

    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, 3)
    }

    /// A promotion to `role` (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        // Codes 4..7 stand for knight..queen.
        Move::pack(from, to, 3 + role as u16)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0.get() & 63) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0.get() >> 6 & 63) as u8)
    }

    #[inline]
    const fn code(self) -> u16 {
        self.0.get() >> KIND_SHIFT
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.code() {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::Castle,
            3 => MoveKind::EnPassant,
            _ => MoveKind::Promotion,
        }
    }

    /// The chosen promotion role, if this is a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.code() {
            4..=7 => Some(Role::from_index(self.code() as usize - 3)),
            _ => None,
        }
    }

    /// The raw 16 bits, for hash tables.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0.get()
    }

    /// The move from its raw bits, if they are not zero.
    #[inline]
    pub fn from_u16(bits: u16) -> Option<Move> {
        NonZeroU16::new(bits).map(Move)
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic notation without a reveal suffix (`e2e4`, `e7e8q`, `e1g1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most legal moves a covered-chess position can have fits well below this.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A1, Square::B1); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
