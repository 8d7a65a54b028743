//! Correction history: how far, on average, searches have found the static evaluation to be
//! off in positions with the same pawns. After a node's search, the gap between its result
//! and its raw static evaluation is blended into an entry keyed by the side to move and the
//! revealed pawns; the node's static evaluation then adds the entry. The evaluation's
//! systematic misjudgements of a pawn structure (and of the covers around it) are learnt
//! during the search instead of paid for by every pruning decision that trusts it.

use crate::rules::{Color, Position, Role};

/// Entries per side (a power of two).
const SIZE: usize = 1 << 14;
/// Fixed-point scale of an entry (an entry is centipawns times this).
const GRAIN: i32 = 256;
/// The blend's denominator, and the largest weight one update gets (deep searches count
/// more, up to this).
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;
/// Bound of a correction, and of the gap one update blends in, in centipawns.
const MAX_CORRECTION: i32 = 32;
const MAX_GAP: i32 = 1_000;

pub struct CorrectionHistory {
    entries: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            entries: vec![0; 2 * SIZE],
        }
    }
}

/// The slot of `position`'s side to move and revealed pawns.
#[inline]
fn index(position: &Position) -> usize {
    let pawns = position.revealed(Role::Pawn);
    let white = (pawns & position.pieces(Color::White)).0;
    let black = (pawns & position.pieces(Color::Black)).0;
    let mixed = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    let slot = (mixed ^ (mixed >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - 14);
    position.side_to_move().index() * SIZE + slot as usize
}

impl CorrectionHistory {
    /// The correction to add to `position`'s static evaluation, in centipawns.
    #[inline]
    pub fn correction(&self, position: &Position) -> i32 {
        self.entries[index(position)] / GRAIN
    }

    /// Blends in a search of `depth` that found `score` where the raw static evaluation
    /// said `raw_eval`.
    pub fn update(&mut self, position: &Position, depth: i32, score: i32, raw_eval: i32) {
        let entry = &mut self.entries[index(position)];
        let target = (score - raw_eval).clamp(-MAX_GAP, MAX_GAP) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let blended = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        *entry = blended.clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN);
    }
}
