//! What a search may spend: the limits of `go`, and the deepest depth and ply the search
//! will ever reach.

use crate::rules::Move;
use std::time::Duration;

/// Deepest search the driver will start.
pub const MAX_DEPTH: u32 = 100;
/// Deepest ply a line may reach (the size of the per-ply stacks).
pub const MAX_PLY: usize = 128;

/// What the GUI asked for with `go`.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// The side to move's clock, its increment, and moves to the next time control.
    pub time_left: Option<Duration>,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
}
