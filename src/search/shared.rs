//! What every thread of one running search shares: which parts of the search are on, the
//! control handle, the transposition table, and the time and node budget.

use super::ablation::Ablation;
use super::control::SearchControl;
use super::time::TimeBudget;
use super::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which parts of the search are on. Every search plays with all of them; verification
/// turns some off to compare the pruned search with the plain one.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Star1 windows at chance nodes (off: every outcome with a full window).
    pub chance_windows: bool,
    /// Star2 probing at chance nodes (needs `chance_windows`).
    pub star2: bool,
    /// Hash cutoffs, pruning, reductions, aspiration windows: everything that makes a
    /// value depend on the window or on earlier searches.
    pub selective: bool,
    /// Selective parts switched off one by one (with `selective` on).
    pub ablation: Ablation,
    /// Plies less deep that quiet moves giving no check are searched from the second ply on,
    /// out of check (a weaker level's `quiet_reduction`; 0 at full strength).
    pub quiet_reduction: i32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            chance_windows: true,
            star2: true,
            selective: true,
            ablation: Ablation::default(),
            quiet_reduction: 0,
        }
    }
}

/// Shared state of one running search.
pub(crate) struct Shared<'a> {
    pub config: SearchConfig,
    pub control: &'a SearchControl,
    pub tt: &'a TranspositionTable,
    pub start: Instant,
    pub budget: TimeBudget,
    pub node_limit: Option<u64>,
    /// Whether a root with one move is played after the first iteration under a clock (no
    /// choice to think about); off where that one move's value is what is asked.
    pub only_move_at_once: bool,
    /// Set when the main thread is done, to end the helper threads.
    pub abort: AtomicBool,
}

impl Shared<'_> {
    /// Time since the clock started counting for us (at ponderhit, when pondering).
    fn elapsed_for_limits(&self) -> Duration {
        match self.control.ponderhit_at() {
            Some(at) => at.elapsed(),
            None => self.start.elapsed(),
        }
    }

    /// Whether the hard limits are reached (never while pondering).
    pub fn out_of_budget(&self) -> bool {
        if self.control.is_stopped() || self.abort.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(limit) = self.node_limit {
            if self.control.nodes() >= limit {
                return true;
            }
        }
        if self.control.is_pondering() {
            return false;
        }
        matches!(self.budget.hard, Some(hard) if self.elapsed_for_limits() >= hard)
    }

    /// Whether there is time left to start another iteration, with the soft limit scaled
    /// by `scale` (how much the last iterations suggest the move needs).
    pub fn may_start_iteration(&self, scale: f64) -> bool {
        if self.control.is_pondering() {
            return true;
        }
        match self.budget.soft {
            Some(soft) => self.elapsed_for_limits() < soft.mul_f64(scale),
            None => true,
        }
    }
}
