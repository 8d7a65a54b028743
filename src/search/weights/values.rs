//! The linear evaluation weights, written by `veil tune` (see `mod.rs`).
//! Hand-set values, before any tuning.

use super::S;

/// Material by role (pawn, knight, bishop, rook, queen, king).
#[rustfmt::skip]
pub const MATERIAL: [S; 6] = [S(90, 120), S(330, 310), S(350, 330), S(480, 540), S(1000, 980), S(0, 0)];

/// Piece-square tables by role, from White's side, square a1 first.
#[rustfmt::skip]
pub const PST: [[S; 64]; 6] = [
    // pawn, rank 1 first
    [
        S(-33, -30), S(-30, -30), S(-30, -30), S(-30, -30), S(-30, -30), S(-30, -30), S(-30, -30), S(-33, -30),
        S(-3, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(-3, 0),
        S(-3, 0), S(0, 0), S(0, 0), S(3, 0), S(3, 0), S(0, 0), S(0, 0), S(-3, 0),
        S(1, 4), S(4, 4), S(9, 4), S(16, 4), S(16, 4), S(9, 4), S(4, 4), S(1, 4),
        S(7, 10), S(10, 10), S(15, 10), S(22, 10), S(22, 10), S(15, 10), S(10, 10), S(7, 10),
        S(17, 18), S(20, 18), S(20, 18), S(20, 18), S(20, 18), S(20, 18), S(20, 18), S(17, 18),
        S(32, 28), S(35, 28), S(35, 28), S(35, 28), S(35, 28), S(35, 28), S(35, 28), S(32, 28),
        S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    ],
    // knight, rank 1 first
    [
        S(-36, -24), S(-36, -24), S(-36, -24), S(-36, -24), S(-36, -24), S(-36, -24), S(-36, -24), S(-36, -24),
        S(-30, -24), S(-6, -4), S(-6, -4), S(-6, -4), S(-6, -4), S(-6, -4), S(-6, -4), S(-30, -24),
        S(-30, -24), S(-6, -4), S(8, 6), S(8, 6), S(8, 6), S(8, 6), S(-6, -4), S(-30, -24),
        S(-30, -24), S(-6, -4), S(8, 6), S(18, 12), S(18, 12), S(8, 6), S(-6, -4), S(-30, -24),
        S(-24, -24), S(0, -4), S(14, 6), S(24, 12), S(24, 12), S(14, 6), S(0, -4), S(-24, -24),
        S(-24, -24), S(0, -4), S(14, 6), S(14, 6), S(14, 6), S(14, 6), S(0, -4), S(-24, -24),
        S(-30, -24), S(-6, -4), S(-6, -4), S(-6, -4), S(-6, -4), S(-6, -4), S(-6, -4), S(-30, -24),
        S(-30, -24), S(-30, -24), S(-30, -24), S(-30, -24), S(-30, -24), S(-30, -24), S(-30, -24), S(-30, -24),
    ],
    // bishop, rank 1 first
    [
        S(-8, -8), S(-14, -8), S(-14, -8), S(-14, -8), S(-14, -8), S(-14, -8), S(-14, -8), S(-8, -8),
        S(-10, -8), S(6, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(6, 0), S(-10, -8),
        S(-10, -8), S(0, 0), S(12, 4), S(6, 4), S(6, 4), S(12, 4), S(0, 0), S(-10, -8),
        S(-10, -8), S(0, 0), S(6, 4), S(16, 8), S(16, 8), S(6, 4), S(0, 0), S(-10, -8),
        S(-10, -8), S(0, 0), S(6, 4), S(16, 8), S(16, 8), S(6, 4), S(0, 0), S(-10, -8),
        S(-10, -8), S(0, 0), S(12, 4), S(6, 4), S(6, 4), S(12, 4), S(0, 0), S(-10, -8),
        S(-10, -8), S(6, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(6, 0), S(-10, -8),
        S(-4, -8), S(-10, -8), S(-10, -8), S(-10, -8), S(-10, -8), S(-10, -8), S(-10, -8), S(-4, -8),
    ],
    // rook, rank 1 first
    [
        S(-4, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(-4, 0),
        S(0, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0),
        S(0, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0),
        S(0, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0),
        S(0, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0),
        S(0, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0),
        S(16, 10), S(16, 10), S(18, 10), S(22, 10), S(22, 10), S(18, 10), S(16, 10), S(16, 10),
        S(0, 0), S(0, 0), S(2, 0), S(6, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0),
    ],
    // queen, rank 1 first
    [
        S(-8, -14), S(-8, -14), S(-8, -14), S(-8, -14), S(-8, -14), S(-8, -14), S(-8, -14), S(-8, -14),
        S(-6, -14), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(-6, -14),
        S(-6, -14), S(0, 0), S(3, 6), S(3, 6), S(3, 6), S(3, 6), S(0, 0), S(-6, -14),
        S(-6, -14), S(0, 0), S(3, 6), S(4, 12), S(4, 12), S(3, 6), S(0, 0), S(-6, -14),
        S(-6, -14), S(0, 0), S(3, 6), S(4, 12), S(4, 12), S(3, 6), S(0, 0), S(-6, -14),
        S(-6, -14), S(0, 0), S(3, 6), S(3, 6), S(3, 6), S(3, 6), S(0, 0), S(-6, -14),
        S(-6, -14), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(-6, -14),
        S(-6, -14), S(-6, -14), S(-6, -14), S(-6, -14), S(-6, -14), S(-6, -14), S(-6, -14), S(-6, -14),
    ],
    // king, rank 1 first
    [
        S(15, -28), S(25, -28), S(8, -28), S(-8, -28), S(-5, -28), S(-8, -28), S(25, -28), S(15, -28),
        S(5, -28), S(5, 0), S(-10, 0), S(-20, 0), S(-20, 0), S(-10, 0), S(5, 0), S(5, -28),
        S(-25, -28), S(-25, 0), S(-25, 14), S(-25, 14), S(-25, 14), S(-25, 14), S(-25, 0), S(-25, -28),
        S(-37, -28), S(-37, 0), S(-37, 14), S(-37, 28), S(-37, 28), S(-37, 14), S(-37, 0), S(-37, -28),
        S(-49, -28), S(-49, 0), S(-49, 14), S(-49, 28), S(-49, 28), S(-49, 14), S(-49, 0), S(-49, -28),
        S(-61, -28), S(-61, 0), S(-61, 14), S(-61, 14), S(-61, 14), S(-61, 14), S(-61, 0), S(-61, -28),
        S(-61, -28), S(-61, 0), S(-61, 0), S(-61, 0), S(-61, 0), S(-61, 0), S(-61, 0), S(-61, -28),
        S(-61, -28), S(-61, -28), S(-61, -28), S(-61, -28), S(-61, -28), S(-61, -28), S(-61, -28), S(-61, -28),
    ],
];

/// Mobility per reachable square (not own-occupied, not attacked by enemy pawns), counted
/// from the typical number in `MOBILITY_CENTRE`, by role.
#[rustfmt::skip]
pub const MOBILITY: [S; 6] = [S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)];

/// A covered piece is worth its pool's mean material less this (it is undeveloped, and a
/// reveal may put the drawn role on a poor square).
pub const COVERED_DISCOUNT: S = S(15, 10);

/// Pawn shield on the three files around the king: a pawn one rank ahead,
pub const SHIELD_NEAR: S = S(14, 0);

/// two ranks ahead,
pub const SHIELD_FAR: S = S(7, 0);

/// or none.
pub const SHIELD_MISSING: S = S(-14, 0);

/// An isolated pawn.
pub const ISOLATED: S = S(-10, -12);

/// A pawn with another of its side ahead on its file.
pub const DOUBLED: S = S(-8, -20);

/// Passed pawn by rank from its own side (0 = own back rank).
#[rustfmt::skip]
pub const PASSED: [S; 8] = [S(0, 0), S(0, 5), S(2, 10), S(8, 22), S(20, 42), S(38, 72), S(60, 115), S(0, 0)];

/// Two revealed bishops.
pub const BISHOP_PAIR: S = S(30, 50);

/// A rook on a file without pawns,
pub const ROOK_OPEN_FILE: S = S(25, 10);

/// or without pawns of its side.
pub const ROOK_SEMI_OPEN_FILE: S = S(12, 6);

/// A piece attacked by an enemy pawn,
pub const THREAT_BY_PAWN: S = S(-40, -30);

/// a rook or queen attacked by an enemy minor.
pub const THREAT_BY_MINOR: S = S(-25, -20);
