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

use super::weights::{param, *};
use crate::nnue::Base;
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

/// Where the evaluation's terms go: summed into a score (`Total`), or recorded as counts of
/// each linear weight for tuning ([`Trace`]). The evaluation is written once, over this.
pub trait Terms {
    /// `count` times the linear weight `param`, whose value is `weight`.
    fn add(&mut self, param: usize, weight: S, count: i32);
    /// A covered piece's share of its pool: `value`, which is `count / total` times the
    /// pool's material (`pool` lists each role's count).
    fn pooled(&mut self, value: S, pool: &Pool, count: i32);
    /// A term that is not a linear weight (king danger, king distances).
    fn fixed(&mut self, value: S);
}

/// The plain sum of the terms.
#[derive(Default)]
struct Total(S);

impl Terms for Total {
    #[inline(always)]
    fn add(&mut self, _: usize, weight: S, count: i32) {
        self.0 += weight * count;
    }
    #[inline(always)]
    fn pooled(&mut self, value: S, _: &Pool, _: i32) {
        self.0 += value;
    }
    #[inline(always)]
    fn fixed(&mut self, value: S) {
        self.0 += value;
    }
}

/// What the static score of a position is made of: how often each linear weight counts
/// (White's minus Black's), the rest, and how the middlegame and endgame parts blend. The
/// score is linear in the weights for a given trace, which is what Texel tuning fits.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// (parameter, count), White's counts less Black's, each parameter once.
    pub counts: Vec<(u16, f32)>,
    /// The terms that are not linear weights, White's less Black's.
    pub fixed: (f32, f32),
    /// Game phase, 0 (endgame) to `PHASE_TOTAL`.
    pub phase: i32,
    /// Endgame scale out of 64 (taken as fixed: it depends on the weights only through the
    /// sign of the endgame score).
    pub scale: i32,
    /// +1 with White to move, -1 with Black (the tempo bonus goes to the side to move).
    pub side: i32,
    pub(crate) sign: f32,
    /// The score with the weights in force, White's less Black's (for the endgame scale).
    pub(crate) total: S,
}

impl Trace {
    /// The static score for White with the weights `values` (the flat parameter vector),
    /// before rounding.
    pub fn white_score(&self, values: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = (self.fixed.0 as f64, self.fixed.1 as f64);
        for &(p, count) in &self.counts {
            let (m, e) = values[p as usize];
            mg += count as f64 * m;
            eg += count as f64 * e;
        }
        let phase = self.phase as f64;
        let total = PHASE_TOTAL as f64;
        (mg * phase + eg * self.scale as f64 / 64.0 * (total - phase)) / total + (self.side * TEMPO) as f64
    }

    fn record(&mut self, param: usize, count: f32) {
        let count = count * self.sign;
        match self.counts.iter_mut().find(|(p, _)| *p as usize == param) {
            Some(entry) => entry.1 += count,
            None => self.counts.push((param as u16, count)),
        }
    }
}

impl Terms for Trace {
    fn add(&mut self, param: usize, weight: S, count: i32) {
        self.total += weight * (count * self.sign as i32);
        if count != 0 {
            self.record(param, count as f32);
        }
    }
    fn pooled(&mut self, value: S, pool: &Pool, count: i32) {
        self.total += value * self.sign as i32;
        let total = pool.total() as f32;
        for (role, n) in pool.outcomes() {
            self.record(param::MATERIAL + role.index(), count as f32 * n as f32 / total);
        }
    }
    fn fixed(&mut self, value: S) {
        self.total += value * self.sign as i32;
        self.fixed.0 += self.sign * value.0 as f32;
        self.fixed.1 += self.sign * value.1 as f32;
    }
}

/// Terms of `color`'s covered pieces (each the pool's mean material and phase, less the
/// discount; with `naive_covers`, its cover's), and the phase they carry.
fn covered_terms<T: Terms>(position: &Position, color: Color, naive_covers: bool, terms: &mut T) -> i32 {
    let covered = position.covered() & position.pieces(color);
    let pool = position.pool(color);
    let count = covered.count() as i32;
    let mut phase = 0;
    if count > 0 && naive_covers {
        for square in covered {
            let role = crate::rules::cover(square).unwrap_or(Role::Pawn);
            terms.add(param::MATERIAL + role.index(), MATERIAL[role.index()], 1);
            terms.add(param::COVERED_DISCOUNT, COVERED_DISCOUNT, -1);
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
        terms.pooled(S(material.0 * count / total, material.1 * count / total), pool, count);
        terms.add(param::COVERED_DISCOUNT, COVERED_DISCOUNT, -count);
        phase += phase_sum * count / total;
    }
    phase
}

/// The material part of `color`'s terms: covered pieces ([`covered_terms`]), revealed
/// pieces' material and piece-square tables, the king's table and the bishop pair; and the
/// phase they carry.
fn material_terms<T: Terms>(position: &Position, color: Color, naive_covers: bool, terms: &mut T) -> i32 {
    let ours = position.pieces(color);
    let mut phase = covered_terms(position, color, naive_covers, terms);
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let index = role.index();
        for square in position.revealed(role) & ours {
            let at = relative(square, color).index();
            terms.add(param::MATERIAL + index, MATERIAL[index], 1);
            terms.add(param::PST + 64 * index + at, PST[index][at], 1);
            phase += PHASE_WEIGHT[index];
        }
    }
    let at = relative(position.king(color), color).index();
    terms.add(param::PST + 64 * 5 + at, PST[5][at], 1);
    if (position.revealed(Role::Bishop) & ours).has_many() {
        terms.add(param::BISHOP_PAIR, BISHOP_PAIR, 1);
    }
    phase
}

/// Terms of `color`'s pieces, and the game phase they carry. With `naive_covers`, a covered
/// piece counts as its cover (a covered rook as a rook) instead of as a draw from the pool.
fn side_terms<T: Terms>(
    position: &Position,
    color: Color,
    context: &Context,
    naive_covers: bool,
    terms: &mut T,
) -> i32 {
    let us = color.index();
    let them = 1 - us;
    let ours = position.pieces(color);
    let covered = position.covered() & ours;
    let mut phase = covered_terms(position, color, naive_covers, terms);

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
            let at = relative(square, color).index();
            terms.add(param::MATERIAL + index, MATERIAL[index], 1);
            terms.add(param::PST + 64 * index + at, PST[index][at], 1);
            phase += PHASE_WEIGHT[index];
            let mobility = (reach & safe).count() as i32 - MOBILITY_CENTRE[index];
            terms.add(param::MOBILITY + index, MOBILITY[index], mobility);
            if role == Role::Rook {
                let file = Bitboard::file(square.file());
                if (file & (context.pawns[0] | context.pawns[1])).is_empty() {
                    terms.add(param::ROOK_OPEN_FILE, ROOK_OPEN_FILE, 1);
                } else if (file & context.pawns[us]).is_empty() {
                    terms.add(param::ROOK_SEMI_OPEN_FILE, ROOK_SEMI_OPEN_FILE, 1);
                }
            }
        }
    }
    if (position.revealed(Role::Bishop) & ours).has_many() {
        terms.add(param::BISHOP_PAIR, BISHOP_PAIR, 1);
    }

    // Threats against our pieces (covered ones included: they are worth a piece too).
    let non_pawns = ours & !context.pawn_movers[us] & !Bitboard::from_square(king);
    let threatened = (non_pawns & context.pawn_attacks[them]).count() as i32;
    terms.add(param::THREAT_BY_PAWN, THREAT_BY_PAWN, threatened);
    let heavy = ours & !position.covered() & (position.movers(Role::Rook) | position.movers(Role::Queen));
    let mut minor_attacks = Bitboard::EMPTY;
    for square in position.movers(Role::Knight) & position.pieces(!color) {
        minor_attacks |= knight_attacks(square);
    }
    for square in position.movers(Role::Bishop) & position.pieces(!color) {
        minor_attacks |= bishop_attacks(square, context.occupied);
    }
    let threatened = (heavy & minor_attacks).count() as i32;
    terms.add(param::THREAT_BY_MINOR, THREAT_BY_MINOR, threatened);

    // Pawns.
    let own_pawns = context.pawns[us];
    for square in own_pawns {
        let at = relative(square, color).index();
        terms.add(param::MATERIAL, MATERIAL[0], 1);
        terms.add(param::PST + at, PST[0][at], 1);
        let file = square.file();
        let neighbours = file_and_neighbours(file) & !Bitboard::file(file);
        if (own_pawns & neighbours).is_empty() {
            terms.add(param::ISOLATED, ISOLATED, 1);
        }
        let ahead = ranks_ahead(square.rank(), color);
        if (own_pawns & Bitboard::file(file) & ahead).any() {
            terms.add(param::DOUBLED, DOUBLED, 1);
        }
        if (context.pawn_movers[them] & file_and_neighbours(file) & ahead).is_empty() {
            let rank = relative(square, color).rank() as usize;
            terms.add(param::PASSED + rank, PASSED[rank], 1);
            let stop = match color {
                Color::White => Square::from_coords(file, (square.rank() + 1).min(7)),
                Color::Black => Square::from_coords(file, square.rank().saturating_sub(1)),
            };
            let weight = rank as i32 - 2;
            if weight > 0 {
                let kings = PASSED_ENEMY_KING * distance(enemy_king, stop) - PASSED_OWN_KING * distance(king, stop);
                terms.fixed(S(0, kings * weight));
            }
        }
    }

    // King: table, pawn shield, and the enemy's attack on our zone is scored on their side.
    let at = relative(king, color).index();
    terms.add(param::PST + 64 * 5 + at, PST[5][at], 1);
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
                terms.add(param::SHIELD_NEAR, SHIELD_NEAR, 1);
            } else if shield_pawns.contains(far) {
                terms.add(param::SHIELD_FAR, SHIELD_FAR, 1);
            } else {
                terms.add(param::SHIELD_MISSING, SHIELD_MISSING, 1);
            }
        }
    }
    if attackers >= 2 {
        let danger = (attack_units * attack_units / KING_DANGER_DIVISOR).min(KING_DANGER_MAX);
        terms.fixed(S(danger, attack_units));
    }
    phase
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

/// Everything both sides' terms need.
fn context(position: &Position) -> Context {
    let revealed_pawns = position.revealed(Role::Pawn);
    let pawn_movers = position.movers(Role::Pawn);
    let white = position.pieces(Color::White);
    let black = position.pieces(Color::Black);
    Context {
        occupied: position.occupied(),
        pawn_attacks: [
            pawn_attack_span(pawn_movers & white, Color::White),
            pawn_attack_span(pawn_movers & black, Color::Black),
        ],
        pawns: [revealed_pawns & white, revealed_pawns & black],
        pawn_movers: [pawn_movers & white, pawn_movers & black],
    }
}

/// The static score, optionally valuing covered pieces as their covers.
pub fn evaluate_with(position: &Position, naive_covers: bool) -> i32 {
    let context = context(position);
    let (mut white, mut black) = (Total::default(), Total::default());
    let white_phase = side_terms(position, Color::White, &context, naive_covers, &mut white);
    let black_phase = side_terms(position, Color::Black, &context, naive_covers, &mut black);
    let score = white.0 - black.0;
    let phase = (white_phase + black_phase).min(PHASE_TOTAL);
    let eg = score.1 * endgame_scale(position, score.1) / 64;
    taper(score.0, eg, phase) * position.side_to_move().sign() + TEMPO
}

/// The middlegame and endgame scores blended by `phase` (of [`PHASE_TOTAL`]).
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

/// The material part of the static score (`material_terms`, tapered, and the tempo), for
/// the side to move: what a network's correction is added to when it learns everything
/// else ([`crate::nnue::Base::Material`]). It costs a fraction of the whole evaluation: no
/// attacks are generated.
pub fn evaluate_material(position: &Position, naive_covers: bool) -> i32 {
    let (mut white, mut black) = (Total::default(), Total::default());
    let white_phase = material_terms(position, Color::White, naive_covers, &mut white);
    let black_phase = material_terms(position, Color::Black, naive_covers, &mut black);
    let score = white.0 - black.0;
    let phase = (white_phase + black_phase).min(PHASE_TOTAL);
    taper(score.0, score.1, phase) * position.side_to_move().sign() + TEMPO
}

/// What a network with `base` adds its output to at `position` (0 for a whole network), as
/// the search and the trainer both need it.
pub fn base_score(base: Base, position: &Position, naive_covers: bool) -> i32 {
    match base {
        Base::Nothing => 0,
        Base::HandWritten => evaluate_with(position, naive_covers),
        Base::Material => evaluate_material(position, naive_covers),
    }
}

/// The trace of the static score of `position` (see [`Trace`]).
pub fn trace(position: &Position) -> Trace {
    let context = context(position);
    let mut trace = Trace {
        sign: 1.0,
        ..Trace::default()
    };
    let white_phase = side_terms(position, Color::White, &context, false, &mut trace);
    trace.sign = -1.0;
    let black_phase = side_terms(position, Color::Black, &context, false, &mut trace);
    trace.phase = (white_phase + black_phase).min(PHASE_TOTAL);
    trace.scale = endgame_scale(position, trace.total.1);
    trace.side = position.side_to_move().sign();
    trace
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The material part is the whole evaluation without the terms that need attacks: equal
    /// at the starts, a queen ahead where one side has one more.
    #[test]
    fn the_material_part_counts_material_and_tables() {
        for position in [Position::covered_start(), Position::standard_start()] {
            assert_eq!(evaluate_material(&position, false), TEMPO);
        }
        let queen_up = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1").unwrap();
        let material = evaluate_material(&queen_up, false);
        assert!((800..1200).contains(&material), "{material}");
        let black_to_move = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1").unwrap();
        assert_eq!(evaluate_material(&black_to_move, false), -material + 2 * TEMPO);
    }

    /// The trace with the weights in force gives the static score, up to integer rounding.
    #[test]
    fn the_trace_reproduces_the_score() {
        let values: Vec<(f64, f64)> = super::super::weights::current()
            .iter()
            .map(|s| (s.0 as f64, s.1 as f64))
            .collect();
        for fen in super::super::bench::BENCH_FENS {
            let position = Position::from_fen(fen).unwrap();
            let score = evaluate(&position) * position.side_to_move().sign();
            let traced = trace(&position).white_score(&values);
            assert!((traced - score as f64).abs() <= 2.0, "{fen}: {traced} against {score}");
        }
    }
}
