//! Every evaluation weight in one place: material, piece-square tables and the positional
//! terms, each a middlegame/endgame pair that `eval.rs` blends by game phase (a tapered
//! evaluation). Tables are from White's point of view, rank 1 first; Black reads them
//! mirrored. Values are centipawns.
//!
//! The linear weights, those the evaluation adds up as `weight * count`, are in
//! `values`, which `veil tune` writes (Texel tuning, see `src/tuning`); [`BLOCKS`] says
//! where each of them sits in the flat parameter vector the tuner fits. The rest (phase,
//! king danger, mobility centres) are set by hand here.

mod values;

pub use values::*;

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame value, blended by phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, rhs: S) -> S {
        S(self.0 + rhs.0, self.1 + rhs.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, rhs: S) -> S {
        S(self.0 - rhs.0, self.1 - rhs.1)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, rhs: i32) -> S {
        S(self.0 * rhs, self.1 * rhs)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, rhs: S) {
        *self = *self + rhs;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, rhs: S) {
        *self = *self - rhs;
    }
}

/// Game phase each role contributes (the sum at the start is `PHASE_TOTAL`).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

/// Side to move bonus.
pub const TEMPO: i32 = 12;

/// Mobility is counted from the typical number of reachable squares, by role.
pub const MOBILITY_CENTRE: [i32; 6] = [0, 4, 6, 6, 12, 0];

/// King safety: attack units per square of the king zone an enemy piece attacks, by role.
pub const KING_ATTACK_UNITS: [i32; 6] = [1, 2, 2, 3, 5, 0];
/// Middlegame penalty = units^2 / KING_DANGER_DIVISOR, at most KING_DANGER_MAX, once at least
/// two pieces attack the zone.
pub const KING_DANGER_DIVISOR: i32 = 2;
pub const KING_DANGER_MAX: i32 = 500;

/// Endgame bonus per rank of advance (from rank 3) per square of king distance to the
/// passer's stop square: the enemy king's distance helps, our king's hurts less.
pub const PASSED_ENEMY_KING: i32 = 4;
pub const PASSED_OWN_KING: i32 = 2;

/// The shape of a block of linear weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    One,
    /// A list indexed by role or rank.
    List(usize),
    /// Piece-square tables: one of 64 squares per role.
    Tables(usize),
}

impl Shape {
    pub const fn size(self) -> usize {
        match self {
            Shape::One => 1,
            Shape::List(n) => n,
            Shape::Tables(n) => 64 * n,
        }
    }
}

/// One named block of linear weights: its place in the flat parameter vector.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub name: &'static str,
    pub doc: &'static str,
    pub at: usize,
    pub shape: Shape,
}

const fn block(name: &'static str, doc: &'static str, at: usize, shape: Shape) -> Block {
    Block { name, doc, at, shape }
}

/// Where each linear weight sits in the flat parameter vector.
pub mod param {
    use super::Shape;
    pub const MATERIAL: usize = 0;
    pub const PST: usize = MATERIAL + Shape::List(6).size();
    pub const MOBILITY: usize = PST + Shape::Tables(6).size();
    pub const COVERED_DISCOUNT: usize = MOBILITY + Shape::List(6).size();
    pub const SHIELD_NEAR: usize = COVERED_DISCOUNT + 1;
    pub const SHIELD_FAR: usize = SHIELD_NEAR + 1;
    pub const SHIELD_MISSING: usize = SHIELD_FAR + 1;
    pub const ISOLATED: usize = SHIELD_MISSING + 1;
    pub const DOUBLED: usize = ISOLATED + 1;
    pub const PASSED: usize = DOUBLED + 1;
    pub const BISHOP_PAIR: usize = PASSED + Shape::List(8).size();
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    pub const THREAT_BY_PAWN: usize = ROOK_SEMI_OPEN_FILE + 1;
    pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
    /// How many linear weights there are.
    pub const COUNT: usize = THREAT_BY_MINOR + 1;
}

/// The blocks of linear weights, in the order of the parameter vector.
pub const BLOCKS: [Block; 15] = [
    block("MATERIAL", "Material by role (pawn, knight, bishop, rook, queen, king).", param::MATERIAL, Shape::List(6)),
    block(
        "PST",
        "Piece-square tables by role, from White's side, square a1 first.",
        param::PST,
        Shape::Tables(6),
    ),
    block(
        "MOBILITY",
        "Mobility per reachable square (not own-occupied, not attacked by enemy pawns), counted\n/// from the typical number in `MOBILITY_CENTRE`, by role.",
        param::MOBILITY,
        Shape::List(6),
    ),
    block(
        "COVERED_DISCOUNT",
        "A covered piece is worth its pool's mean material less this (it is undeveloped, and a\n/// reveal may put the drawn role on a poor square).",
        param::COVERED_DISCOUNT,
        Shape::One,
    ),
    block(
        "SHIELD_NEAR",
        "Pawn shield on the three files around the king: a pawn one rank ahead,",
        param::SHIELD_NEAR,
        Shape::One,
    ),
    block("SHIELD_FAR", "two ranks ahead,", param::SHIELD_FAR, Shape::One),
    block("SHIELD_MISSING", "or none.", param::SHIELD_MISSING, Shape::One),
    block("ISOLATED", "An isolated pawn.", param::ISOLATED, Shape::One),
    block("DOUBLED", "A pawn with another of its side ahead on its file.", param::DOUBLED, Shape::One),
    block(
        "PASSED",
        "Passed pawn by rank from its own side (0 = own back rank).",
        param::PASSED,
        Shape::List(8),
    ),
    block("BISHOP_PAIR", "Two revealed bishops.", param::BISHOP_PAIR, Shape::One),
    block("ROOK_OPEN_FILE", "A rook on a file without pawns,", param::ROOK_OPEN_FILE, Shape::One),
    block("ROOK_SEMI_OPEN_FILE", "or without pawns of its side.", param::ROOK_SEMI_OPEN_FILE, Shape::One),
    block("THREAT_BY_PAWN", "A piece attacked by an enemy pawn,", param::THREAT_BY_PAWN, Shape::One),
    block("THREAT_BY_MINOR", "a rook or queen attacked by an enemy minor.", param::THREAT_BY_MINOR, Shape::One),
];

/// The linear weights now in force, as the flat parameter vector.
pub fn current() -> Vec<S> {
    let mut values = Vec::with_capacity(param::COUNT);
    values.extend_from_slice(&MATERIAL);
    for table in &PST {
        values.extend_from_slice(table);
    }
    values.extend_from_slice(&MOBILITY);
    values.extend([
        COVERED_DISCOUNT,
        SHIELD_NEAR,
        SHIELD_FAR,
        SHIELD_MISSING,
        ISOLATED,
        DOUBLED,
    ]);
    values.extend_from_slice(&PASSED);
    values.extend([
        BISHOP_PAIR,
        ROOK_OPEN_FILE,
        ROOK_SEMI_OPEN_FILE,
        THREAT_BY_PAWN,
        THREAT_BY_MINOR,
    ]);
    values
}

const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The source of `values.rs` for the parameter vector `values`; `origin` is said at its top.
pub fn source(values: &[S], origin: &str) -> String {
    use std::fmt::Write as _;
    assert_eq!(values.len(), param::COUNT, "a full parameter vector");
    let mut out = String::new();
    out.push_str("//! The linear evaluation weights, written by `veil tune` (see `mod.rs`).\n");
    for line in origin.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::S;\n");
    for block in &BLOCKS {
        let _ = write!(out, "\n/// {}\n", block.doc);
        let value = |i: usize| {
            let s = values[block.at + i];
            format!("S({}, {})", s.0, s.1)
        };
        match block.shape {
            Shape::One => {
                let _ = writeln!(out, "pub const {}: S = {};", block.name, value(0));
            }
            Shape::List(n) => {
                let items: Vec<String> = (0..n).map(value).collect();
                let _ = writeln!(
                    out,
                    "#[rustfmt::skip]\npub const {}: [S; {n}] = [{}];",
                    block.name,
                    items.join(", ")
                );
            }
            Shape::Tables(n) => {
                let _ = writeln!(out, "#[rustfmt::skip]\npub const {}: [[S; 64]; {n}] = [", block.name);
                for (table, role) in ROLE_NAMES.iter().enumerate().take(n) {
                    let _ = writeln!(out, "    // {role}, rank 1 first\n    [");
                    for rank in 0..8 {
                        let row: Vec<String> = (0..8).map(|file| value(64 * table + 8 * rank + file)).collect();
                        let _ = writeln!(out, "        {},", row.join(", "));
                    }
                    out.push_str("    ],\n");
                }
                out.push_str("];\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blocks_tile_the_parameter_vector() {
        let mut at = 0;
        for block in &BLOCKS {
            assert_eq!(block.at, at, "{}", block.name);
            at += block.shape.size();
        }
        assert_eq!(at, param::COUNT);
        assert_eq!(current().len(), param::COUNT);
    }

    #[test]
    fn values_rs_is_what_the_tuner_writes() {
        let text = include_str!("values.rs");
        let origin: String = text
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("//!"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        assert_eq!(source(&current(), &origin), text);
    }
}
