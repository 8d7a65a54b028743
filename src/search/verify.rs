//! Verification searches: the root value of a position at a fixed depth under a chosen
//! [`SearchConfig`], with its node count. With `selective` off the value depends only on
//! the game tree, so Star1/Star2 chance nodes must give exactly the value of full-window
//! expectimax, and the node counts show what the pruning saves.

use super::control::SearchControl;
use super::job::SearchJob;
use super::limits::Limits;
use super::memory::{EvalFlavour, ThreadTables};
use super::score::INFINITY;
use super::shared::{SearchConfig, Shared};
use super::time::TimeBudget;
use super::tt::TranspositionTable;
use super::worker::Worker;
use crate::rules::Position;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The root value of `position` after iterative deepening to `depth`, and the nodes it took.
pub fn root_value(position: &Position, depth: u32, config: SearchConfig) -> (i32, u64) {
    let tt = TranspositionTable::new(16);
    let control = SearchControl::new();
    let shared = Shared {
        config,
        control: &control,
        tt: &tt,
        start: Instant::now(),
        budget: TimeBudget { soft: None, hard: None },
        node_limit: None,
        only_move_at_once: true,
        abort: AtomicBool::new(false),
    };
    let job = SearchJob::new(position.clone(), Limits::default());
    let tables = ThreadTables::new(EvalFlavour::of(
        &job.level,
        job.seed,
        job.evaluator.key_for(&job.position),
    ));
    let mut worker = Worker::new(&job, &shared, 0, tables);
    worker.root_moves = position.legal_moves().iter().copied().collect();
    let mut score = 0;
    for d in 1..=depth.max(1) {
        score = worker.negamax(position, d as i32, -INFINITY, INFINITY, 0);
    }
    worker.flush_nodes();
    (score, control.nodes())
}
