//! Legal move generation: check evasion masks and pins, so every generated move is legal
//! without playing it (the usual bitboard approach of fast perft programs).
//!
//! Covered pieces sit in the movement boards under their cover, so they are generated like
//! revealed pieces; the only covered-chess cases are castling with a covered corner piece
//! (nothing to do: it is the same king move) and a covered slider reaching its last rank,
//! which comes in four promotion versions while its pool holds a pawn.

use super::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use super::{Bitboard, Castling, Color, Move, MoveList, Position, Role, Square};

/// Receives generated moves. Perft's bulk counter and the move list both implement it.
pub trait MoveSink {
    fn push(&mut self, m: Move);

    /// A castling move; `corner` is where the corner piece stands (it may be covered).
    #[inline]
    fn push_castle(&mut self, m: Move, corner: Square) {
        let _ = corner;
        self.push(m);
    }

    /// Plain moves from `from` to each target square.
    #[inline]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

const fn last_rank(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard::RANK_8,
        Color::Black => Bitboard::RANK_1,
    }
}

#[inline]
fn push_promotions<S: MoveSink>(sink: &mut S, from: Square, to: Square) {
    for role in Role::PROMOTIONS {
        sink.push(Move::promotion(from, to, role));
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
    }

    /// Whether `m` is one of the legal moves here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        struct Any(bool);
        impl MoveSink for Any {
            #[inline]
            fn push(&mut self, _: Move) {
                self.0 = true;
            }
            #[inline]
            fn push_targets(&mut self, _: Square, targets: Bitboard) {
                self.0 |= targets.any();
            }
        }
        let mut any = Any(false);
        self.generate(&mut any);
        any.0
    }

    /// Our pieces that stand alone between our king and an enemy slider aimed at it.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        let us = self.side_to_move();
        let king = self.king(us);
        let occupied = self.occupied();
        let snipers = ((rook_attacks(king, Bitboard::EMPTY) & self.straight_sliders())
            | (bishop_attacks(king, Bitboard::EMPTY) & self.diagonal_sliders()))
            & self.them();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.has_many() {
                pinned |= blockers & self.us();
            }
        }
        pinned
    }

    /// The legal moves that land on `squares`, and every legal en passant capture, in the
    /// order [`Position::legal_moves`] gives them (captures and promotions for quiescence:
    /// `squares` = the enemy's pieces and the last rank).
    pub fn legal_moves_onto(&self, squares: Bitboard) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_onto(&mut moves, squares);
        moves
    }

    /// Generates every legal move into `sink`.
    #[inline]
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_onto(sink, Bitboard::FULL);
    }

    /// Generates the legal moves landing on `squares` (castling only when that is every
    /// square), and every legal en passant capture.
    #[inline]
    pub fn generate_onto<S: MoveSink>(&self, sink: &mut S, squares: Bitboard) {
        let us = self.side_to_move();
        let them = !us;
        let ours = self.us();
        let occupied = self.occupied();
        let king = self.king(us);

        // King steps: the destination must be safe with the king gone from its square.
        let without_king = occupied ^ king;
        for to in king_attacks(king) & !ours & squares {
            if !self.is_attacked_by(them, to, without_king) {
                sink.push(Move::new(king, to));
            }
        }

        let checkers = self.checkers();
        if checkers.has_many() {
            return;
        }
        let target = match checkers.single() {
            Some(checker) => between(king, checker) | checker,
            None => {
                if squares == Bitboard::FULL {
                    self.generate_castling(sink, king);
                }
                !ours
            }
        } & squares;
        let pinned = self.pinned();

        for from in self.movers(Role::Knight) & ours & !pinned {
            sink.push_targets(from, knight_attacks(from) & target);
        }

        let covered = self.covered();
        let promotion_squares = if self.pool(us).contains(Role::Pawn) {
            last_rank(us)
        } else {
            Bitboard::EMPTY
        };
        for from in self.diagonal_sliders() & ours {
            let mut targets = bishop_attacks(from, occupied) & target;
            if self.movers(Role::Queen).contains(from) {
                targets |= rook_attacks(from, occupied) & target;
            }
            if pinned.contains(from) {
                targets &= line(king, from);
            }
            self.push_slider(sink, from, targets, covered, promotion_squares);
        }
        for from in self.movers(Role::Rook) & ours {
            let mut targets = rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                targets &= line(king, from);
            }
            self.push_slider(sink, from, targets, covered, promotion_squares);
        }

        self.generate_pawns(sink, king, target, pinned);
    }

    /// A slider's moves; a covered slider landing on its last rank may reveal a pawn, so
    /// such a move comes in four promotion versions while the pool holds a pawn.
    #[inline]
    fn push_slider<S: MoveSink>(
        &self,
        sink: &mut S,
        from: Square,
        targets: Bitboard,
        covered: Bitboard,
        promotion_squares: Bitboard,
    ) {
        if covered.contains(from) {
            let promoting = targets & promotion_squares;
            for to in promoting {
                push_promotions(sink, from, to);
            }
            sink.push_targets(from, targets & !promoting);
        } else {
            sink.push_targets(from, targets);
        }
    }

    fn generate_castling<S: MoveSink>(&self, sink: &mut S, king: Square) {
        let us = self.side_to_move();
        let rights = self.castling_rights();
        if !rights.any_for(us) {
            return;
        }
        let occupied = self.occupied();
        for king_side in [true, false] {
            let castling = Castling::new(us, king_side);
            if rights.has(castling)
                && king == castling.king_from()
                && (occupied & castling.must_be_empty()).is_empty()
                && castling
                    .must_be_safe()
                    .iter()
                    .all(|&square| !self.is_attacked_by(!us, square, occupied))
            {
                sink.push_castle(Move::castle(king, castling.king_to()), castling.corner());
            }
        }
    }

    fn generate_pawns<S: MoveSink>(&self, sink: &mut S, king: Square, target: Bitboard, pinned: Bitboard) {
        let us = self.side_to_move();
        let occupied = self.occupied();
        let empty = !occupied;
        let enemies = self.them();
        let pawns = self.movers(Role::Pawn) & self.us();
        let last = last_rank(us);
        let (forward, double_rank): (i8, Bitboard) = match us {
            Color::White => (8, Bitboard::RANK_3),
            Color::Black => (-8, Bitboard::RANK_6),
        };
        let advance = |b: Bitboard| match us {
            Color::White => b.north(),
            Color::Black => b.south(),
        };

        // Unpinned pawns, all at once.
        let free = pawns & !pinned;
        let single = advance(free) & empty;
        let double = advance(single & double_rank) & empty & target;
        let single = single & target;
        for to in single & !last {
            sink.push(Move::new(to.offset(-forward), to));
        }
        for to in single & last {
            push_promotions(sink, to.offset(-forward), to);
        }
        for to in double {
            sink.push(Move::double_push(to.offset(-2 * forward), to));
        }
        let (west, east): (Bitboard, Bitboard) = match us {
            Color::White => (
                Bitboard((free & !Bitboard::FILE_A).0 << 7),
                Bitboard((free & !Bitboard::FILE_H).0 << 9),
            ),
            Color::Black => (
                Bitboard((free & !Bitboard::FILE_A).0 >> 9),
                Bitboard((free & !Bitboard::FILE_H).0 >> 7),
            ),
        };
        for (captures, delta) in [(west, forward - 1), (east, forward + 1)] {
            let captures = captures & enemies & target;
            for to in captures & !last {
                sink.push(Move::new(to.offset(-delta), to));
            }
            for to in captures & last {
                push_promotions(sink, to.offset(-delta), to);
            }
        }

        // Pinned pawns, one by one, along the pin line.
        for from in pawns & pinned {
            let pin_line = line(king, from);
            let mut targets = pawn_attacks(us, from) & enemies;
            let one = from.offset(forward);
            if empty.contains(one) {
                targets |= one;
                if double_rank.contains(one) {
                    let two = one.offset(forward);
                    if empty.contains(two) && (target & pin_line).contains(two) {
                        sink.push(Move::double_push(from, two));
                    }
                }
            }
            for to in targets & target & pin_line {
                if last.contains(to) {
                    push_promotions(sink, from, to);
                } else {
                    sink.push(Move::new(from, to));
                }
            }
        }

        // En passant: checked by playing it out on the occupancy.
        if let Some(square) = self.en_passant() {
            let victim = square.offset(-forward);
            for from in pawn_attacks(!us, square) & pawns {
                let after = (occupied ^ from ^ victim) | square;
                let attackers = self.attackers_to(king, after) & enemies & !Bitboard::from_square(victim);
                if attackers.is_empty() {
                    sink.push(Move::en_passant(from, square));
                }
            }
        }
    }
}
