//! Static evaluation, tapered between middlegame and endgame by the material left (each term
//! is a pair from `weights.rs`): material, piece-square tables, mobility, king safety (attack
//! units on the king zone, pawn shield), pawn structure (passed, isolated, doubled), bishop
//! pair, rooks on open files, and threats against pieces.
//!
//! Covered chess: a covered piece is an equal draw from its side's pool, so it counts as the
//! pool's mean material (and mean game phase), less a discount for being undeveloped. It
//! attacks and shelters by its cover, as the rules make it. Pawns standing on their own back
//! rank (a reveal can put one there) score poorly through the pawn table's first rank.
//!
//! Scores are centipawns from the side to move's point of view.

use super::weights::*;
use crate::rules::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::rules::{Bitboard, Color, Pool, Position, Role, Square};

/// Centipawn value of each role for move ordering and exchange evaluation (the king's is
/// never counted).
pub const ROLE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

#[inline]
pub fn role_value(role: Role) -> i32 {
    ROLE_VALUE[role.index()]
}

/// Mean value of a draw from `pool` (0 when empty), in centipawns.
pub fn pool_mean(pool: &Pool) -> i32 {
    let total = pool.total() as i32;
    if total == 0 {
        return 0;
    }
    let sum: i32 = pool
        .outcomes()
        .map(|(role, count)| count as i32 * role_value(role))
        .sum();
    sum / total
}

const NOT_FILE_A: u64 = !Bitboard::FILE_A.0;
const NOT_FILE_H: u64 = !Bitboard::FILE_H.0;

/// Squares attacked by the pawns (and pawn covers) of `color`.
fn pawn_attack_span(pawns: Bitboard, color: Color) -> Bitboard {
    let p = pawns.0;
    match color {
        Color::White => Bitboard(((p & NOT_FILE_A) << 7) | ((p & NOT_FILE_H) << 9)),
        Color::Black => Bitboard(((p & NOT_FILE_A) >> 9) | ((p & NOT_FILE_H) >> 7)),
    }
}

/// The file of `file` and its neighbours.
fn file_and_neighbours(file: u8) -> Bitboard {
    let mut files = Bitboard::file(file);
    if file > 0 {
        files |= Bitboard::file(file - 1);
    }
    if file < 7 {
        files |= Bitboard::file(file + 1);
    }
    files
}

/// Ranks strictly ahead of `rank` for `color`.
fn ranks_ahead(rank: u8, color: Color) -> Bitboard {
    match color {
        Color::White if rank >= 7 => Bitboard::EMPTY,
        Color::White => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
    }
}

/// `square` as seen from White's side (Black's squares mirrored vertically).
#[inline]
fn relative(square: Square, color: Color) -> Square {
    match color {
        Color::White => square,
        Color::Black => square.flip(),
    }
}

fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Everything both sides' terms need.
struct Context {
    occupied: Bitboard,
    pawn_attacks: [Bitboard; 2],
    /// Revealed pawns by colour.
    pawns: [Bitboard; 2],
    /// Pieces that capture like pawns (revealed pawns and pawn covers) by colour.
    pawn_movers: [Bitboard; 2],
}

/// Terms of `color`'s pieces, and the game phase they carry. With `naive_covers`, a covered
/// piece counts as its cover (a covered rook as a rook) instead of as a draw from the pool.
fn side_terms(position: &Position, color: Color, context: &Context, naive_covers: bool) -> (S, i32) {
    let us = color.index();
    let them = 1 - us;
    let ours = position.pieces(color);
    let covered = position.covered() & ours;
    let mut score = S(0, 0);
    let mut phase = 0;

    // Covered pieces: the pool's mean material and phase.
    let pool = position.pool(color);
    let count = covered.count() as i32;
    if count > 0 && naive_covers {
        for square in covered {
            let role = crate::rules::cover(square).unwrap_or(Role::Pawn);
            score += MATERIAL[role.index()] - COVERED_DISCOUNT;
            phase += PHASE_WEIGHT[role.index()];
        }
    } else if count > 0 {
        let total = pool.total() as i32;
        let mut material = S(0, 0);
        let mut phase_sum = 0;
        for (role, n) in pool.outcomes() {
            material += MATERIAL[role.index()] * n as i32;
            phase_sum += PHASE_WEIGHT[role.index()] * n as i32;
        }
        score += S(material.0 * count / total, material.1 * count / total) - COVERED_DISCOUNT * count;
        phase += phase_sum * count / total;
    }

    let king = position.king(color);
    let enemy_king = position.king(!color);
    let enemy_zone = king_attacks(enemy_king) | enemy_king;
    let safe = !ours & !context.pawn_attacks[them];
    let mut attack_units = 0;
    let mut attackers = 0;

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let index = role.index();
        for square in position.movers(role) & ours {
            let reach = match role {
                Role::Knight => knight_attacks(square),
                Role::Bishop => bishop_attacks(square, context.occupied),
                Role::Rook => rook_attacks(square, context.occupied),
                _ => queen_attacks(square, context.occupied),
            };
            let on_zone = (reach & enemy_zone).count() as i32;
            if on_zone > 0 {
                attackers += 1;
                attack_units += on_zone * KING_ATTACK_UNITS[index];
            }
            if covered.contains(square) {
                continue;
            }
            score += MATERIAL[index] + PST[index][relative(square, color).index()];
            phase += PHASE_WEIGHT[index];
            let mobility = (reach & safe).count() as i32 - MOBILITY_CENTRE[index];
            score += MOBILITY[index] * mobility;
            if role == Role::Rook {
                let file = Bitboard::file(square.file());
                if (file & (context.pawns[0] | context.pawns[1])).is_empty() {
                    score += ROOK_OPEN_FILE;
                } else if (file & context.pawns[us]).is_empty() {
                    score += ROOK_SEMI_OPEN_FILE;
                }
            }
        }
    }
    if (position.revealed(Role::Bishop) & ours).has_many() {
        score += BISHOP_PAIR;
    }

    // Threats against our pieces (covered ones included: they are worth a piece too).
    let non_pawns = ours & !context.pawn_movers[us] & !Bitboard::from_square(king);
    score += THREAT_BY_PAWN * (non_pawns & context.pawn_attacks[them]).count() as i32;
    let heavy = ours & !position.covered() & (position.movers(Role::Rook) | position.movers(Role::Queen));
    let mut minor_attacks = Bitboard::EMPTY;
    for square in position.movers(Role::Knight) & position.pieces(!color) {
        minor_attacks |= knight_attacks(square);
    }
    for square in position.movers(Role::Bishop) & position.pieces(!color) {
        minor_attacks |= bishop_attacks(square, context.occupied);
    }
    score += THREAT_BY_MINOR * (heavy & minor_attacks).count() as i32;

    // Pawns.
    let own_pawns = context.pawns[us];
    for square in own_pawns {
        score += MATERIAL[0] + PST[0][relative(square, color).index()];
        let file = square.file();
        let neighbours = file_and_neighbours(file) & !Bitboard::file(file);
        if (own_pawns & neighbours).is_empty() {
            score += ISOLATED;
        }
        let ahead = ranks_ahead(square.rank(), color);
        if (own_pawns & Bitboard::file(file) & ahead).any() {
            score += DOUBLED;
        }
        if (context.pawn_movers[them] & file_and_neighbours(file) & ahead).is_empty() {
            let rank = relative(square, color).rank() as usize;
            score += PASSED[rank];
            let stop = match color {
                Color::White => Square::from_coords(file, (square.rank() + 1).min(7)),
                Color::Black => Square::from_coords(file, square.rank().saturating_sub(1)),
            };
            let weight = rank as i32 - 2;
            if weight > 0 {
                let kings = PASSED_ENEMY_KING * distance(enemy_king, stop) - PASSED_OWN_KING * distance(king, stop);
                score += S(0, kings * weight);
            }
        }
    }

    // King: table, pawn shield, and the enemy's attack on our zone is scored on their side.
    score += PST[5][relative(king, color).index()];
    let forward: i8 = match color {
        Color::White => 8,
        Color::Black => -8,
    };
    let shield_pawns = context.pawn_movers[us];
    let relative_rank = relative(king, color).rank();
    if relative_rank < 6 {
        for file in king.file().saturating_sub(1)..=(king.file() + 1).min(7) {
            let base = Square::from_coords(file, king.rank());
            let near = base.offset(forward);
            let far = near.offset(forward);
            if shield_pawns.contains(near) {
                score += SHIELD_NEAR;
            } else if shield_pawns.contains(far) {
                score += SHIELD_FAR;
            } else {
                score += SHIELD_MISSING;
            }
        }
    }
    if attackers >= 2 {
        let danger = (attack_units * attack_units / KING_DANGER_DIVISOR).min(KING_DANGER_MAX);
        score += S(danger, attack_units);
    }
    (score, phase)
}

/// Endgame scale out of 64: a side ahead by at most a minor piece with no pawns and nothing
/// covered rarely wins.
fn endgame_scale(position: &Position, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let ours = position.pieces(strong);
    if (ours & (position.movers(Role::Pawn) | position.covered())).any() {
        return 64;
    }
    let material = |color: Color| -> i32 {
        let pieces = position.pieces(color);
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .map(|role| (position.movers(role) & pieces).count() as i32 * role_value(role))
            .sum()
    };
    if material(strong) - material(!strong) <= role_value(Role::Bishop) {
        16
    } else {
        64
    }
}

/// The static score of `position` for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    evaluate_with(position, false)
}

/// The static score, optionally valuing covered pieces as their covers.
pub fn evaluate_with(position: &Position, naive_covers: bool) -> i32 {
    let revealed_pawns = position.revealed(Role::Pawn);
    let pawn_movers = position.movers(Role::Pawn);
    let white = position.pieces(Color::White);
    let black = position.pieces(Color::Black);
    let context = Context {
        occupied: position.occupied(),
        pawn_attacks: [
            pawn_attack_span(pawn_movers & white, Color::White),
            pawn_attack_span(pawn_movers & black, Color::Black),
        ],
        pawns: [revealed_pawns & white, revealed_pawns & black],
        pawn_movers: [pawn_movers & white, pawn_movers & black],
    };
    let (white_score, white_phase) = side_terms(position, Color::White, &context, naive_covers);
    let (black_score, black_phase) = side_terms(position, Color::Black, &context, naive_covers);
    let score = white_score - black_score;
    let phase = (white_phase + black_phase).min(PHASE_TOTAL);
    let eg = score.1 * endgame_scale(position, score.1) / 64;
    let blended = (score.0 * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let us = position.side_to_move();
    blended * us.sign() + TEMPO
}
