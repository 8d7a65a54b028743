//! Time management: a soft limit (no new iteration after it) and a hard limit (abort the
//! search), from `movetime` or from the clock, increment and moves to go.

use super::Limits;
use std::time::Duration;

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
        let left = left.saturating_sub(move_overhead);
        let moves_to_go = limits.moves_to_go.unwrap_or(30).clamp(1, 50);
        let increment = limits.increment;
        let base = left / moves_to_go + increment * 3 / 4;
        // Never plan to use more than most of what is left.
        let cap = left.mul_f64(if moves_to_go == 1 { 0.9 } else { 0.5 });
        let soft = base.min(cap);
        let hard = (base * 3).min(cap).max(soft);
        TimeBudget {
            soft: Some(soft.max(Duration::from_millis(1))),
            hard: Some(hard.max(Duration::from_millis(1))),
        }
    }
}
