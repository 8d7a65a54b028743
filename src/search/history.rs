//! Move-ordering statistics a worker learns while it searches: killer moves per ply, the
//! counter move to the opponent's last move, quiet-move history by side and from/to squares,
//! and continuation history (how good a quiet move was after the moves one and two plies
//! earlier), and capture history by side, moved piece, destination and victim (a covered
//! victim is a kind of its own). Updates use the "gravity" formula, which keeps every entry
//! within `HISTORY_MAX` and lets new evidence outweigh old.

use super::limits::MAX_PLY;
use crate::rules::{Color, Move, Piece, Position, Role};

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
/// Kinds of victim: the six roles, and a covered piece.
const VICTIMS: usize = 7;

pub struct History {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    captures: Vec<i16>,
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

/// Index of capture `m` in the capture history (en passant takes a pawn).
#[inline]
fn capture_index(position: &Position, m: Move) -> usize {
    let victim = match position.piece_at(m.to()) {
        Some(Piece::Revealed { role, .. }) => role.index(),
        Some(Piece::Covered { .. }) => VICTIMS - 1,
        None => Role::Pawn.index(),
    };
    let piece = PieceTo::of(position, m).index();
    (position.side_to_move().index() * PIECE_TO + piece) * VICTIMS + victim
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
            captures: vec![0; 2 * PIECE_TO * VICTIMS],
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

    /// The ordering score of capture `m`.
    pub fn capture_score(&self, position: &Position, m: Move) -> i32 {
        self.captures[capture_index(position, m)] as i32
    }

    /// `best` (a capture, or `None` where a quiet move cut) caused a beta cutoff at `depth`
    /// after the captures `tried` (`best` among them) failed to.
    pub fn reward_captures(&mut self, position: &Position, depth: i32, best: Option<Move>, tried: &[Move]) {
        let amount = bonus(depth);
        for &m in tried {
            let sign = if Some(m) == best { 1 } else { -1 };
            apply(&mut self.captures[capture_index(position, m)], sign * amount);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_history_rewards_the_cutting_capture_and_punishes_the_others() {
        // White's knight and bishop can both take the pawn on e5; the queen takes d7's
        // covered piece.
        let position = Position::from_fen("4k3/3x4/8/4p3/8/2B2N2/8/3QK3 w - - 0 1 p1").unwrap();
        let knight = position.parse_uci_move("f3e5").unwrap();
        let bishop = position.parse_uci_move("c3e5").unwrap();
        let queen = position.parse_uci_move("d1d7").unwrap();
        let mut history = History::new();
        history.reward_captures(&position, 6, Some(knight), &[queen, knight]);
        assert!(history.capture_score(&position, knight) > 0);
        assert!(history.capture_score(&position, queen) < 0);
        assert_eq!(history.capture_score(&position, bishop), 0);
        // A quiet cutoff punishes every capture tried before it.
        history.reward_captures(&position, 6, None, &[knight]);
        assert!(history.capture_score(&position, knight) < bonus(6));
    }
}
