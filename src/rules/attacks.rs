//! Attack sets of every piece kind, looked up in tables that `build.rs` generates.

use super::{Bitboard, Color, Role, Square};

struct Magic {
    mask: u64,
    multiplier: u64,
    shift: u32,
    offset: usize,
}

mod tables {
    use super::Magic;
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

#[inline]
pub fn knight_attacks(square: Square) -> Bitboard {
    Bitboard(tables::KNIGHT[square.index()])
}

#[inline]
pub fn king_attacks(square: Square) -> Bitboard {
    Bitboard(tables::KING[square.index()])
}

/// The squares a pawn of `color` on `square` captures on.
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    Bitboard(tables::PAWN[color.index() * 64 + square.index()])
}

#[inline]
fn magic_lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & magic.mask).wrapping_mul(magic.multiplier) >> magic.shift) as usize;
    // The generator sized each square's slice to hold every index this can produce.
    Bitboard(tables::SLIDING[magic.offset + index])
}

#[inline]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&tables::BISHOP_MAGICS[square.index()], occupied)
}

#[inline]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&tables::ROOK_MAGICS[square.index()], occupied)
}

#[inline]
pub fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(square, occupied) | rook_attacks(square, occupied)
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line through `a` and `b` (edge to edge) if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::LINE[a.index() * 64 + b.index()])
}

/// The attacks of a piece moving as `role` (a pawn of `color`).
#[inline]
pub fn attacks(role: Role, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, square),
        Role::Knight => knight_attacks(square),
        Role::Bishop => bishop_attacks(square, occupied),
        Role::Rook => rook_attacks(square, occupied),
        Role::Queen => queen_attacks(square, occupied),
        Role::King => king_attacks(square),
    }
}
