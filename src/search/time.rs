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
    /// The budget of `movetime` and of the clock: with both (a level's time cap under a
    /// clock, say), the tighter of each limit, so a cap never spends time the clock lacks.
    pub fn new(limits: &Limits, move_overhead: Duration) -> TimeBudget {
        let fixed = limits
            .movetime
            .map(|movetime| movetime.saturating_sub(move_overhead).max(Duration::from_millis(1)));
        let clock = TimeBudget::of_clock(limits, move_overhead);
        match (fixed, clock) {
            (Some(time), Some(clock)) => TimeBudget {
                soft: clock.soft.map(|soft| soft.min(time)),
                hard: clock.hard.map(|hard| hard.min(time)),
            },
            (Some(time), None) => TimeBudget {
                soft: Some(time),
                hard: Some(time),
            },
            (None, Some(clock)) => clock,
            (None, None) => TimeBudget { soft: None, hard: None },
        }
    }

    /// The budget the clock allows, if the search has one.
    fn of_clock(limits: &Limits, move_overhead: Duration) -> Option<TimeBudget> {
        let left = limits.time_left?;
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
        Some(TimeBudget {
            soft: Some(soft.max(Duration::from_millis(1))),
            hard: Some(hard.max(Duration::from_millis(1))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(10);

    fn clock(left_ms: u64, increment_ms: u64) -> Limits {
        Limits {
            time_left: Some(Duration::from_millis(left_ms)),
            increment: Duration::from_millis(increment_ms),
            ..Limits::default()
        }
    }

    #[test]
    fn a_movetime_alone_is_both_limits() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let budget = TimeBudget::new(&limits, OVERHEAD);
        assert_eq!(
            (budget.soft, budget.hard),
            (Some(Duration::from_millis(90)), Some(Duration::from_millis(90)))
        );
    }

    #[test]
    fn a_time_cap_never_spends_what_the_clock_lacks() {
        // A level's 400 ms cap with 600 ms left at 5+0.05: the clock's budget wins.
        let mut limits = clock(600, 50);
        let clock_only = TimeBudget::new(&limits, OVERHEAD);
        limits.movetime = Some(Duration::from_millis(400));
        let capped = TimeBudget::new(&limits, OVERHEAD);
        assert_eq!((capped.soft, capped.hard), (clock_only.soft, clock_only.hard));
        assert!(capped.hard.unwrap() < Duration::from_millis(100));
        // With time to spare, the cap binds.
        let mut limits = clock(60_000, 1_000);
        limits.movetime = Some(Duration::from_millis(150));
        let capped = TimeBudget::new(&limits, OVERHEAD);
        assert_eq!(capped.hard, Some(Duration::from_millis(140)));
        assert!(capped.soft.unwrap() <= Duration::from_millis(140));
    }
}
