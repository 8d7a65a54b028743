//! Time management: a soft limit (no new iteration after it; the search scales it by how
//! stable its best move and score are) and a hard limit (abort the search), from `movetime`
//! or from the clock, increment, moves to go and the move overhead.

use super::limits::Limits;
use std::time::Duration;

/// Share of the planned time per move after which no new iteration starts (before scaling).
const SOFT_SHARE: f64 = 0.7;
/// The hard limit, in planned times per move (capped by what is left).
const HARD_FACTOR: u32 = 3;
/// Moves planned for when the clock does not say (sudden death, with or without increment).
const DEFAULT_MOVES_TO_GO: u32 = 20;
/// Below this many increments on the clock, a move uses less than one increment.
const LOW_TIME_INCREMENTS: u32 = 10;

/// When to stop thinking.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl TimeBudget {
    pub fn new(limits: &Limits, move_overhead: Duration) -> TimeBudget {
        if let Some(movetime) = limits.movetime {
            let time = movetime.saturating_sub(move_overhead).max(Duration::from_millis(1));
            return TimeBudget {
                soft: Some(time),
                hard: Some(time),
            };
        }
        let Some(left) = limits.time_left else {
            return TimeBudget { soft: None, hard: None };
        };
        // Keep a reserve against scheduling and pipe delays the overhead does not cover: a
        // share of the clock, and a cushion (up to 200 ms) the clock should not fall into,
        // since a loaded machine can stall a process longer than any one move's budget.
        let left = left.saturating_sub(move_overhead);
        let reserve = (left / 16).min(Duration::from_millis(100)) + (left / 2).min(Duration::from_millis(200));
        let left = left.saturating_sub(reserve);
        // Without `movestogo`, plan as if the rest of the game were this many moves: the
        // clock then shrinks by a constant share per move, so the opening and middlegame,
        // where most games are decided, get the most time.
        let moves_to_go = limits.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50);
        let increment = limits.increment;
        let base = left / moves_to_go + increment;
        // Never plan to use more than a share of what is left.
        let cap = left.mul_f64(if moves_to_go == 1 { 0.9 } else { 0.35 });
        let mut soft = base.mul_f64(SOFT_SHARE).min(cap);
        let mut hard = (base * HARD_FACTOR).min(cap).max(soft);
        // Low on time with an increment: spend less than the increment, so the clock grows
        // back to a cushion a scheduling hiccup cannot use up.
        if !increment.is_zero() && left < increment * LOW_TIME_INCREMENTS {
            soft = soft.min(increment / 2);
            hard = hard.min(increment.mul_f64(0.8)).max(soft);
        }
        TimeBudget {
            soft: Some(soft.max(Duration::from_millis(1))),
            hard: Some(hard.max(Duration::from_millis(1))),
        }
    }
}
