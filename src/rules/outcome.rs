//! How games end (RULES.md §3, §7): mate and stalemate, dead positions, and whether a side
//! could still mate (for the timeout rule).

use super::{Bitboard, Color, Position, Role};

/// The state of the side to move, from its legal moves alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStatus {
    Ongoing,
    Checkmate,
    Stalemate,
}

impl Position {
    pub fn move_status(&self) -> MoveStatus {
        if self.has_legal_move() {
            MoveStatus::Ongoing
        } else if self.is_check() {
            MoveStatus::Checkmate
        } else {
            MoveStatus::Stalemate
        }
    }

    pub fn is_checkmate(&self) -> bool {
        self.move_status() == MoveStatus::Checkmate
    }

    pub fn is_stalemate(&self) -> bool {
        self.move_status() == MoveStatus::Stalemate
    }

    /// A dead position (automatic draw): judged only with no covered piece on the board.
    /// K v K, K + one minor v K, and kings with bishops all on one square colour.
    pub fn is_insufficient_material(&self) -> bool {
        if self.covered().any() {
            return false;
        }
        let heavy = self.movers(Role::Pawn) | self.movers(Role::Rook) | self.movers(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.movers(Role::Knight);
        let bishops = self.movers(Role::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// Whether `color` could mate by some legal sequence, even with help (the usual
    /// approximation of RULES.md §7: a covered piece, pawn, rook or queen always can).
    pub fn can_mate(&self, color: Color) -> bool {
        let ours = self.pieces(color);
        let theirs = self.pieces(!color);
        let strong = self.covered() | self.movers(Role::Pawn) | self.movers(Role::Rook) | self.movers(Role::Queen);
        if (strong & ours).any() {
            return true;
        }
        let our_minors = (self.revealed(Role::Knight) | self.revealed(Role::Bishop)) & ours;
        let their_others = theirs & !self.movers(Role::King);
        if our_minors.is_empty() {
            return false;
        }
        if our_minors.count() == 1 && their_others.is_empty() {
            return false;
        }
        // Bishops only, all on one colour, against bishops only on that same colour.
        let our_knights = self.revealed(Role::Knight) & ours;
        let their_bishops = self.revealed(Role::Bishop) & theirs;
        if our_knights.is_empty() && their_others == their_bishops {
            let all_bishops = our_minors | their_bishops;
            if (all_bishops & Bitboard::LIGHT_SQUARES).is_empty() || (all_bishops & Bitboard::DARK_SQUARES).is_empty() {
                return false;
            }
        }
        true
    }
}
