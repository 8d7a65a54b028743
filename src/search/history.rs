//! Move-ordering statistics a worker learns while it searches: killer moves per ply, the
//! counter move to the opponent's last move, quiet-move history by side and from/to squares,
//! and continuation history (how good a quiet move was after the moves one and two plies
//! earlier). Updates use the "gravity" formula, which keeps every entry within
//! `HISTORY_MAX` and lets new evidence outweigh old.

use super::limits::MAX_PLY;
use crate::rules::{Color, Move, Position, Role};

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// A moved piece (the role it moved as) and its destination, for continuation history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    pub fn of(position: &Position, m: Move) -> PieceTo {
        let role = position.mover_at(m.from()).unwrap_or(Role::Pawn);
        PieceTo((role.index() * 64 + m.to().index()) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

const PIECE_TO: usize = 6 * 64;

pub struct History {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    counter: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

/// The bonus (or malus) for a move that caused (or failed to cause) a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 24 + 40 * depth).min(2_000)
}

#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    let value = *entry as i32;
    let updated = value + bonus - value * bonus.abs() / HISTORY_MAX;
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

#[inline]
fn butterfly_index(color: Color, m: Move) -> usize {
    color.index() * 4096 + m.from().index() * 64 + m.to().index()
}

impl History {
    pub fn new() -> History {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            butterfly: vec![0; 2 * 64 * 64],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            counter: vec![None; PIECE_TO],
        }
    }

    /// Forgets the killer moves (they belong to the plies of one search).
    pub fn forget_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// The ordering score of quiet move `m` (`piece` is its [`PieceTo`]) after the moves
    /// `previous` one and two plies back.
    pub fn quiet_score(&self, color: Color, m: Move, piece: PieceTo, previous: [Option<PieceTo>; 2]) -> i32 {
        let mut score = self.butterfly[butterfly_index(color, m)] as i32;
        for p in previous.into_iter().flatten() {
            score += self.continuation[p.index() * PIECE_TO + piece.index()] as i32;
        }
        score
    }

    pub fn counter_move(&self, previous: Option<PieceTo>) -> Option<Move> {
        previous.and_then(|p| self.counter[p.index()])
    }

    /// `best` caused a beta cutoff at `depth` after the quiet moves `tried` failed to.
    #[allow(clippy::too_many_arguments)]
    pub fn reward_quiet(
        &mut self,
        position: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        previous: [Option<PieceTo>; 2],
    ) {
        let color = position.side_to_move();
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if let Some(p) = previous[0] {
            self.counter[p.index()] = Some(best);
        }
        let amount = bonus(depth);
        for &m in tried {
            let sign = if m == best { 1 } else { -1 };
            apply(&mut self.butterfly[butterfly_index(color, m)], sign * amount);
            let piece = PieceTo::of(position, m);
            for p in previous.into_iter().flatten() {
                apply(
                    &mut self.continuation[p.index() * PIECE_TO + piece.index()],
                    sign * amount,
                );
            }
        }
    }
}
