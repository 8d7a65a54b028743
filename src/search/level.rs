//! Strength levels 1..=5 for the `Level` option. Level 5 is full strength; lower levels cap
//! the search depth (a provisional scheme until calibrated levels replace it).

use super::Limits;

/// Depth cap by level (index 0 unused).
const DEPTH_CAP: [Option<u32>; 6] = [None, Some(1), Some(2), Some(3), Some(5), None];

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 5;

/// Tightens `limits` for `level`.
pub fn apply(level: u8, limits: &mut Limits) {
    let level = level.clamp(MIN_LEVEL, MAX_LEVEL) as usize;
    if let Some(cap) = DEPTH_CAP[level] {
        limits.depth = Some(limits.depth.map_or(cap, |depth| depth.min(cap)));
    }
}
