//! The position: where every piece stands, the pools, and the state FEN records. Moves are
//! played by copy-make ([`Position::play`]) or in place ([`Position::play_mut`]).

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::fen::{MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
use super::piece::{cover, COVER_SQUARES};
use super::{
    zobrist, Bitboard, ByColor, ByRole, Castling, CastlingRights, Color, Move, MoveKind, Piece, Pool, Role, Square,
};

/// A covered-chess position.
///
/// `movers[role]` holds every piece that moves as `role` this turn: revealed pieces of that
/// role and covered pieces whose cover is that role. `covered` says which of them are still
/// covered. Keeping covers in the movement boards lets move generation and attack detection
/// treat covered and revealed pieces alike at no cost.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    by_color: ByColor<Bitboard>,
    movers: ByRole<Bitboard>,
    covered: Bitboard,
    pools: ByColor<Pool>,
    side_to_move: Color,
    castling: CastlingRights,
    /// Set only when an en passant capture is legal.
    en_passant: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    hash: u64,
    checkers: Bitboard,
}

impl Position {
    /// The covered-chess start position.
    pub fn covered_start() -> Position {
        let mut position = Position::empty();
        for color in Color::ALL {
            for square in COVER_SQUARES[color.index()] {
                position.put(Piece::Covered { color }, square);
            }
            position.pools[color] = Pool::START;
        }
        position.put_king_and_castling();
        position.finish_setup();
        position
    }

    /// The standard chess start position (nothing covered).
    pub fn standard_start() -> Position {
        let mut position = Position::empty();
        for color in Color::ALL {
            for square in COVER_SQUARES[color.index()] {
                let role = cover(square).unwrap_or(Role::Pawn);
                position.put(Piece::Revealed { color, role }, square);
            }
        }
        position.put_king_and_castling();
        position.finish_setup();
        position
    }

    fn put_king_and_castling(&mut self) {
        self.put(
            Piece::Revealed {
                color: Color::White,
                role: Role::King,
            },
            Square::E1,
        );
        self.put(
            Piece::Revealed {
                color: Color::Black,
                role: Role::King,
            },
            Square::E8,
        );
        self.castling = CastlingRights::ALL;
    }

    /// A board with nothing on it, White to move; only for building positions.
    pub(crate) fn empty() -> Position {
        Position {
            by_color: ByColor::default(),
            movers: ByRole::default(),
            covered: Bitboard::EMPTY,
            pools: ByColor::new(Pool::EMPTY, Pool::EMPTY),
            side_to_move: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
        }
    }

    /// Puts a piece on an empty square (setup only; the hash is computed in `finish_setup`).
    pub(crate) fn put(&mut self, piece: Piece, square: Square) {
        let (color, role) = match piece {
            Piece::Revealed { color, role } => (color, role),
            Piece::Covered { color } => {
                self.covered |= square;
                (color, cover(square).unwrap_or(Role::Pawn))
            }
        };
        self.by_color[color] |= square;
        self.movers[role] |= square;
    }

    pub(crate) fn set_pool(&mut self, color: Color, pool: Pool) {
        self.pools[color] = pool;
    }

    pub(crate) fn set_state(
        &mut self,
        side_to_move: Color,
        castling: CastlingRights,
        en_passant: Option<Square>,
        halfmove_clock: u32,
        fullmove_number: u32,
    ) {
        self.side_to_move = side_to_move;
        self.castling = castling;
        self.en_passant = en_passant;
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
    }

    /// Drops an en passant square that allows no legal capture, then computes the derived
    /// state (checkers, hash).
    pub(crate) fn finish_setup(&mut self) {
        if let Some(square) = self.en_passant {
            if !self.en_passant_is_legal(square) {
                self.en_passant = None;
            }
        }
        self.checkers = self.attackers_to(self.king(self.side_to_move), self.occupied()) & self.them();
        self.hash = self.compute_hash();
    }

    // ----- queries -------------------------------------------------------------------

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square, present only when an en passant capture is legal.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    #[inline]
    pub fn pool(&self, color: Color) -> &Pool {
        &self.pools[color]
    }

    /// The zobrist key: every square, both pools, side to move, castling rights and the
    /// en passant square when a capture there is legal (the repetition identity of RULES §7).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[Color::White] | self.by_color[Color::Black]
    }

    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    #[inline]
    pub fn us(&self) -> Bitboard {
        self.by_color[self.side_to_move]
    }

    #[inline]
    pub fn them(&self) -> Bitboard {
        self.by_color[!self.side_to_move]
    }

    /// Every covered piece, of both sides.
    #[inline]
    pub fn covered(&self) -> Bitboard {
        self.covered
    }

    /// Whether nothing is left to chance: no covered piece and both pools empty, so the
    /// game from here is plain chess (whichever variant it started as).
    #[inline]
    pub fn is_plain_chess(&self) -> bool {
        self.covered.is_empty() && self.pools[Color::White].is_empty() && self.pools[Color::Black].is_empty()
    }

    /// Pieces that move and attack as `role` now: revealed pieces of that role and covered
    /// pieces with that cover.
    #[inline]
    pub fn movers(&self, role: Role) -> Bitboard {
        self.movers[role]
    }

    /// Revealed pieces of `role`, both sides.
    #[inline]
    pub fn revealed(&self, role: Role) -> Bitboard {
        self.movers[role] & !self.covered
    }

    /// Pieces that slide along diagonals (bishops, queens, and such covers).
    #[inline]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.movers[Role::Bishop] | self.movers[Role::Queen]
    }

    /// Pieces that slide along ranks and files (rooks, queens, and such covers).
    #[inline]
    pub fn straight_sliders(&self) -> Bitboard {
        self.movers[Role::Rook] | self.movers[Role::Queen]
    }

    #[inline]
    pub fn king(&self, color: Color) -> Square {
        (self.movers[Role::King] & self.by_color[color]).first()
    }

    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// The role a piece on `square` moves as (its role, or its cover), if any.
    #[inline]
    pub fn mover_at(&self, square: Square) -> Option<Role> {
        if !self.occupied().contains(square) {
            return None;
        }
        Role::ALL.into_iter().find(|&role| self.movers[role].contains(square))
    }

    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let color = if self.by_color[Color::White].contains(square) {
            Color::White
        } else if self.by_color[Color::Black].contains(square) {
            Color::Black
        } else {
            return None;
        };
        if self.covered.contains(square) {
            return Some(Piece::Covered { color });
        }
        self.mover_at(square).map(|role| Piece::Revealed { color, role })
    }

    /// The cover of the covered piece on `square`, if one stands there.
    pub fn cover_at(&self, square: Square) -> Option<Role> {
        if self.covered.contains(square) {
            cover(square)
        } else {
            None
        }
    }

    /// Pieces of either side that attack `square`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let pawns = self.movers[Role::Pawn];
        (pawn_attacks(Color::White, square) & pawns & self.by_color[Color::Black])
            | (pawn_attacks(Color::Black, square) & pawns & self.by_color[Color::White])
            | (knight_attacks(square) & self.movers[Role::Knight])
            | (king_attacks(square) & self.movers[Role::King])
            | (bishop_attacks(square, occupied) & self.diagonal_sliders())
            | (rook_attacks(square, occupied) & self.straight_sliders())
    }

    /// Whether `color`'s pieces attack `square`, with `occupied` as the blockers.
    #[inline]
    pub fn is_attacked_by(&self, color: Color, square: Square, occupied: Bitboard) -> bool {
        (self.attackers_to(square, occupied) & self.by_color[color]).any()
    }

    /// Whether playing `m` reveals a covered piece (the mover, or the corner piece when
    /// castling).
    #[inline]
    pub fn is_reveal(&self, m: Move) -> bool {
        self.covered.contains(m.from())
            || (m.kind() == MoveKind::Castle && self.covered.contains(castle_corner(m.to())))
    }

    /// Whether `m` captures something.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.kind() == MoveKind::EnPassant || (m.kind() != MoveKind::Castle && self.them().contains(m.to()))
    }

    /// The reveal outcomes of `m` with their probabilities: one `(Some(role), p)` per role the
    /// pool holds if `m` reveals, else `(None, 1.0)`.
    pub fn reveal_outcomes(&self, m: Move) -> Vec<(Option<Role>, f64)> {
        if !self.is_reveal(m) {
            return vec![(None, 1.0)];
        }
        let pool = &self.pools[self.side_to_move];
        let total = pool.total() as f64;
        pool.outcomes()
            .map(|(role, count)| (Some(role), count as f64 / total))
            .collect()
    }

    /// Recomputes the zobrist key from scratch (incremental updates must agree with it).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for color in Color::ALL {
            for square in self.by_color[color] {
                hash ^= match self.piece_at(square) {
                    Some(Piece::Covered { .. }) => zobrist::covered(color, square),
                    Some(Piece::Revealed { role, .. }) => zobrist::piece(color, role, square),
                    None => 0,
                };
            }
            for role in Role::POOL_ORDER {
                hash ^= zobrist::pool(color, role, self.pools[color].count(role));
            }
        }
        hash ^= zobrist::castling(self.castling.bits());
        if let Some(square) = self.en_passant {
            hash ^= zobrist::en_passant(square);
        }
        if self.side_to_move == Color::Black {
            hash ^= zobrist::black_to_move();
        }
        hash
    }

    /// Whether the side to move can legally capture en passant on `square`.
    pub(crate) fn en_passant_is_legal(&self, square: Square) -> bool {
        let us = self.side_to_move;
        let victim = match us {
            Color::White => square.offset(-8),
            Color::Black => square.offset(8),
        };
        if !(self.revealed(Role::Pawn) & self.them()).contains(victim) {
            return false;
        }
        let king = self.king(us);
        let capturers = pawn_attacks(!us, square) & self.movers[Role::Pawn] & self.us();
        for from in capturers {
            let occupied = (self.occupied() ^ from ^ victim) | square;
            let attackers = self.attackers_to(king, occupied) & self.them() & !Bitboard::from_square(victim);
            if attackers.is_empty() {
                return true;
            }
        }
        false
    }

    /// This position with every covered piece taken as a revealed piece of its cover, and both
    /// pools empty: the plain-chess position a player who ignores the chance element sees.
    /// Covered pieces move and attack by their cover, so the legal moves are the same, except
    /// that a covered piece reaching its last rank no longer has promotion versions.
    pub fn covers_as_pieces(&self) -> Position {
        let mut plain = self.clone();
        plain.covered = Bitboard::EMPTY;
        plain.pools = ByColor::new(Pool::EMPTY, Pool::EMPTY);
        plain.hash = plain.compute_hash();
        plain
    }

    // ----- playing moves ---------------------------------------------------------------

    /// The position after `m`, with `reveal` the drawn role if `m` reveals a piece.
    /// `m` must be legal here, and `reveal` present exactly when [`Position::is_reveal`] holds
    /// and held by the pool.
    #[inline]
    pub fn play(&self, m: Move, reveal: Option<Role>) -> Position {
        let mut next = self.clone();
        next.play_mut(m, reveal);
        next
    }

    #[inline]
    fn remove_revealed(&mut self, color: Color, role: Role, square: Square) {
        self.by_color[color] ^= square;
        self.movers[role] ^= square;
        self.hash ^= zobrist::piece(color, role, square);
    }

    #[inline]
    fn add_revealed(&mut self, color: Color, role: Role, square: Square) {
        self.by_color[color] ^= square;
        self.movers[role] ^= square;
        self.hash ^= zobrist::piece(color, role, square);
    }

    /// Removes whatever stands on `square` (a piece of `color`).
    #[inline]
    fn remove_any(&mut self, color: Color, square: Square) {
        let role = self.mover_at(square).unwrap_or(Role::Pawn);
        self.by_color[color] ^= square;
        self.movers[role] ^= square;
        if self.covered.contains(square) {
            self.covered ^= square;
            self.hash ^= zobrist::covered(color, square);
        } else {
            self.hash ^= zobrist::piece(color, role, square);
        }
    }

    /// Takes the covered piece of `color` off `square` and draws `role` from its pool.
    #[inline]
    fn uncover(&mut self, color: Color, square: Square, role: Role) {
        let cover = self.mover_at(square).unwrap_or(Role::Pawn);
        self.by_color[color] ^= square;
        self.movers[cover] ^= square;
        self.covered ^= square;
        self.hash ^= zobrist::covered(color, square);
        let pool = &mut self.pools[color];
        let count = pool.count(role);
        debug_assert!(count > 0, "reveal of a role the pool lacks");
        self.hash ^= zobrist::pool(color, role, count) ^ zobrist::pool(color, role, count.saturating_sub(1));
        pool.set(role, count.saturating_sub(1));
        self.halfmove_clock = 0;
    }

    /// Plays `m` in place (see [`Position::play`]).
    pub fn play_mut(&mut self, m: Move, reveal: Option<Role>) {
        let us = self.side_to_move;
        let them = !us;
        let (from, to) = (m.from(), m.to());

        if let Some(square) = self.en_passant.take() {
            self.hash ^= zobrist::en_passant(square);
        }
        self.halfmove_clock = (self.halfmove_clock + 1).min(MAX_HALFMOVE_CLOCK);
        let mut new_en_passant = None;

        if m.kind() == MoveKind::Castle {
            let castling = Castling::new(us, to > from);
            self.remove_revealed(us, Role::King, from);
            self.add_revealed(us, Role::King, to);
            let corner = castling.corner();
            let role = if self.covered.contains(corner) {
                let role = reveal.unwrap_or(Role::Rook);
                self.uncover(us, corner, role);
                role
            } else {
                self.remove_revealed(us, Role::Rook, corner);
                Role::Rook
            };
            self.add_revealed(us, role, castling.corner_to());
        } else {
            let captured = if m.kind() == MoveKind::EnPassant {
                Some(Square::from_coords(to.file(), from.rank()))
            } else if self.by_color[them].contains(to) {
                Some(to)
            } else {
                None
            };
            if let Some(square) = captured {
                self.remove_any(them, square);
                self.halfmove_clock = 0;
            }
            let role = if self.covered.contains(from) {
                let role = reveal.unwrap_or(Role::Pawn);
                self.uncover(us, from, role);
                role
            } else {
                let role = self.mover_at(from).unwrap_or(Role::Pawn);
                self.remove_revealed(us, role, from);
                role
            };
            let mut landed = role;
            if role == Role::Pawn {
                self.halfmove_clock = 0;
                if let Some(promotion) = m.promotion_role() {
                    landed = promotion;
                } else if m.kind() == MoveKind::DoublePush {
                    new_en_passant = Some(Square::new(((from.index() + to.index()) / 2) as u8));
                }
            }
            self.add_revealed(us, landed, to);
        }

        let rights = self.castling.after_move(from, to);
        if rights != self.castling {
            self.hash ^= zobrist::castling(self.castling.bits()) ^ zobrist::castling(rights.bits());
            self.castling = rights;
        }

        self.side_to_move = them;
        self.hash ^= zobrist::black_to_move();
        if us == Color::Black {
            self.fullmove_number = (self.fullmove_number + 1).min(MAX_FULLMOVE_NUMBER);
        }
        if let Some(square) = new_en_passant {
            if self.en_passant_is_legal(square) {
                self.en_passant = Some(square);
                self.hash ^= zobrist::en_passant(square);
            }
        }
        self.checkers = self.attackers_to(self.king(them), self.occupied()) & self.by_color[us];
    }

    /// Passes the turn without moving (for null-move search). Not legal in check.
    pub fn play_null(&self) -> Position {
        let mut next = self.clone();
        if let Some(square) = next.en_passant.take() {
            next.hash ^= zobrist::en_passant(square);
        }
        next.side_to_move = !self.side_to_move;
        next.hash ^= zobrist::black_to_move();
        next.halfmove_clock = (next.halfmove_clock + 1).min(MAX_HALFMOVE_CLOCK);
        next.checkers = next.attackers_to(next.king(next.side_to_move), next.occupied()) & next.them();
        next
    }
}

/// The corner square a castling king move to `king_to` takes its piece from.
#[inline]
pub(crate) fn castle_corner(king_to: Square) -> Square {
    if king_to.file() > 4 {
        Square::from_coords(7, king_to.rank())
    } else {
        Square::from_coords(0, king_to.rank())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::covered_start()
    }
}
