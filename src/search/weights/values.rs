//! The linear evaluation weights, written by `veil tune` (see `mod.rs`).
//! Fitted by `veil tune` to 1063479 positions of 15546 games (gc.pgn, gx.pgn, chess.pgn, covered.pgn, chess.pgn, covered.pgn, covered.pgn, covered.pgn, ch.pgn, se.pgn, cov.pgn, futility.pgn, iir.pgn, lmp.pgn, lmr.pgn, nullmove.pgn, qreveals.pgn, rfp.pgn, see.pgn), k = 0.005285, lambda 0.5,
//! 1500 epochs at rate 1, l2 0.000000001: mean squared error 0.02846 -> 0.02704 (held-out games: 0.02862 -> 0.02760).

use super::S;

/// Material by role (pawn, knight, bishop, rook, queen, king).
#[rustfmt::skip]
pub const MATERIAL: [S; 6] = [S(113, 154), S(292, 352), S(313, 370), S(402, 596), S(931, 1045), S(0, 0)];

/// Piece-square tables by role, from White's side, square a1 first.
#[rustfmt::skip]
pub const PST: [[S; 64]; 6] = [
    // pawn, rank 1 first
    [
        S(-52, -51), S(-87, -27), S(-72, -62), S(-57, -34), S(-70, -55), S(-59, -54), S(-56, -43), S(-43, -33),
        S(-33, -20), S(-27, -25), S(-29, -13), S(-34, -25), S(-30, -21), S(-13, -24), S(-10, -25), S(-22, -29),
        S(-29, -29), S(-34, -34), S(-24, -26), S(-35, -35), S(-29, -29), S(-30, -33), S(-20, -30), S(-31, -29),
        S(-28, -23), S(-22, -22), S(-14, -34), S(-8, -25), S(-11, -33), S(-9, -31), S(-17, -25), S(-14, -35),
        S(-7, -9), S(-11, -7), S(-13, -11), S(0, -32), S(-9, -23), S(6, -30), S(-25, 3), S(-7, -16),
        S(19, 11), S(-7, 7), S(27, 13), S(5, 0), S(6, -3), S(3, 17), S(9, 13), S(8, 4),
        S(36, 26), S(24, 38), S(29, 32), S(38, 14), S(22, 39), S(30, -10), S(33, 43), S(37, 15),
        S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    ],
    // knight, rank 1 first
    [
        S(-35, -23), S(-39, -33), S(-45, -24), S(-57, -32), S(-25, -14), S(-38, -44), S(-32, -21), S(-25, -24),
        S(-42, -31), S(-23, -28), S(-11, -1), S(1, -9), S(-5, 4), S(-11, -8), S(-20, -5), S(-10, -51),
        S(-28, -33), S(-2, 2), S(-8, 5), S(-3, 17), S(-2, 13), S(-1, 9), S(-2, -9), S(-27, -13),
        S(-9, -9), S(-21, 4), S(-4, 7), S(3, 28), S(13, 15), S(-3, 12), S(-16, 2), S(-4, -19),
        S(-4, -22), S(-8, 5), S(-9, 23), S(30, 12), S(11, 31), S(18, 22), S(4, -4), S(0, 3),
        S(-21, -15), S(-8, -10), S(21, 15), S(31, 9), S(11, 11), S(12, 4), S(3, 6), S(-1, -14),
        S(-35, -14), S(-10, 1), S(-7, -5), S(-4, -1), S(3, 6), S(2, -1), S(1, 9), S(-33, -22),
        S(-32, -37), S(-30, -15), S(-28, -17), S(-32, -26), S(-27, -24), S(-28, -24), S(-33, -25), S(-27, -18),
    ],
    // bishop, rank 1 first
    [
        S(4, -4), S(-36, -17), S(-12, -5), S(-24, -11), S(-21, -8), S(-25, -5), S(-25, -10), S(-3, -2),
        S(-8, -23), S(16, -8), S(-2, -16), S(8, -6), S(8, -17), S(-5, 8), S(9, 2), S(9, -29),
        S(-13, 8), S(-7, -11), S(16, 5), S(-5, 0), S(4, 16), S(8, 7), S(-4, -6), S(0, -4),
        S(-19, -13), S(-8, 3), S(3, 3), S(8, 10), S(11, -5), S(0, 5), S(-12, 18), S(-2, -9),
        S(1, -24), S(6, 8), S(12, 9), S(25, 0), S(13, 16), S(0, -3), S(10, -4), S(14, 7),
        S(-10, -4), S(-5, 11), S(15, 1), S(19, 16), S(8, -6), S(20, 6), S(-2, 6), S(16, -15),
        S(-27, -6), S(-9, -7), S(13, 14), S(10, 11), S(8, 5), S(-15, 6), S(-3, 8), S(-11, -19),
        S(-17, -2), S(-7, -9), S(-4, -1), S(1, 7), S(-2, -3), S(-6, 3), S(-19, -19), S(-17, -11),
    ],
    // rook, rank 1 first
    [
        S(-8, -5), S(-3, -9), S(4, -5), S(14, -17), S(7, -10), S(8, -3), S(4, -15), S(-11, -7),
        S(-1, -12), S(-6, -13), S(-9, 0), S(6, 0), S(6, -7), S(-7, 0), S(-17, 2), S(-18, 1),
        S(-32, -1), S(-22, 6), S(-22, 4), S(-12, 2), S(-12, 2), S(-18, 3), S(-20, -4), S(-13, -21),
        S(-11, 5), S(-13, 21), S(-24, 21), S(-26, 18), S(-11, 6), S(-13, 1), S(-24, 17), S(-21, 17),
        S(-2, 16), S(-20, 28), S(-13, 25), S(1, 17), S(-18, 28), S(-20, 22), S(-14, 23), S(-18, 16),
        S(15, 18), S(16, 16), S(7, 15), S(11, 17), S(20, 16), S(10, 13), S(7, 15), S(3, 19),
        S(-6, 29), S(28, 16), S(26, 26), S(18, 20), S(28, 14), S(22, 27), S(9, 22), S(19, 22),
        S(-3, 14), S(2, 13), S(10, 18), S(18, 15), S(9, 15), S(3, 18), S(-2, 9), S(6, 14),
    ],
    // queen, rank 1 first
    [
        S(-5, -11), S(2, -7), S(19, -18), S(9, -13), S(4, -10), S(14, -17), S(10, -9), S(-14, -17),
        S(29, -3), S(29, -4), S(31, -6), S(27, -9), S(28, -9), S(22, -5), S(21, 12), S(13, -5),
        S(12, -7), S(17, 8), S(34, 10), S(18, 16), S(21, 21), S(30, 7), S(32, -6), S(26, -8),
        S(26, -6), S(16, 16), S(27, 8), S(21, 25), S(29, 37), S(26, 23), S(21, 15), S(16, -4),
        S(22, 8), S(14, 28), S(20, 20), S(33, 33), S(25, 34), S(28, 24), S(17, 17), S(20, 4),
        S(13, -1), S(20, 13), S(30, 17), S(24, 14), S(28, 17), S(34, 25), S(19, 15), S(26, 0),
        S(25, -2), S(32, 20), S(27, 12), S(23, 24), S(10, 11), S(11, 12), S(18, 23), S(28, -1),
        S(14, 2), S(5, -3), S(8, 2), S(9, 3), S(4, -3), S(6, 5), S(13, 2), S(14, -8),
    ],
    // king, rank 1 first
    [
        S(-3, -40), S(28, -33), S(18, -44), S(-17, -37), S(-10, -36), S(-22, -36), S(13, -33), S(-2, -61),
        S(8, -39), S(-10, -11), S(1, -12), S(-27, -6), S(-18, -12), S(8, -11), S(9, -9), S(-9, -34),
        S(-20, -23), S(-21, 5), S(-19, 0), S(-30, 6), S(-19, 8), S(-30, 9), S(-25, -5), S(-22, -42),
        S(-33, -27), S(-39, 0), S(-41, 13), S(-39, 12), S(-45, 20), S(-38, 17), S(-29, 9), S(-35, -36),
        S(-46, -20), S(-50, 14), S(-42, 15), S(-43, 32), S(-47, 27), S(-49, 29), S(-46, 15), S(-51, -24),
        S(-60, -22), S(-54, 33), S(-61, 28), S(-62, 20), S(-59, 27), S(-60, 50), S(-53, 30), S(-60, -23),
        S(-61, -30), S(-57, 6), S(-63, -5), S(-59, 5), S(-61, 9), S(-60, 7), S(-60, 6), S(-61, -33),
        S(-63, -32), S(-60, -28), S(-60, -36), S(-63, -28), S(-61, -26), S(-59, -18), S(-58, -15), S(-60, -30),
    ],
];

/// Mobility per reachable square (not own-occupied, not attacked by enemy pawns), counted
/// from the typical number in `MOBILITY_CENTRE`, by role.
#[rustfmt::skip]
pub const MOBILITY: [S; 6] = [S(0, 0), S(6, 1), S(5, 5), S(3, 4), S(-1, 6), S(0, 0)];

/// A covered piece is worth its pool's mean material less this (it is undeveloped, and a
/// reveal may put the drawn role on a poor square).
pub const COVERED_DISCOUNT: S = S(37, 34);

/// Pawn shield on the three files around the king: a pawn one rank ahead,
pub const SHIELD_NEAR: S = S(5, -18);

/// two ranks ahead,
pub const SHIELD_FAR: S = S(9, -18);

/// or none.
pub const SHIELD_MISSING: S = S(-14, -9);

/// An isolated pawn.
pub const ISOLATED: S = S(-7, -12);

/// A pawn with another of its side ahead on its file.
pub const DOUBLED: S = S(-14, -26);

/// Passed pawn by rank from its own side (0 = own back rank).
#[rustfmt::skip]
pub const PASSED: [S; 8] = [S(-13, -9), S(-2, -1), S(-12, 19), S(-12, 30), S(14, 36), S(48, 59), S(47, 111), S(0, 0)];

/// Two revealed bishops.
pub const BISHOP_PAIR: S = S(26, 36);

/// A rook on a file without pawns,
pub const ROOK_OPEN_FILE: S = S(24, 18);

/// or without pawns of its side.
pub const ROOK_SEMI_OPEN_FILE: S = S(16, 30);

/// A piece attacked by an enemy pawn,
pub const THREAT_BY_PAWN: S = S(-51, -39);

/// a rook or queen attacked by an enemy minor.
pub const THREAT_BY_MINOR: S = S(-48, -28);
