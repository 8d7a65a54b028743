//! The search driver: starts the Lazy SMP helper threads and the main thread on one job,
//! plays the cover baseline as plain chess, and lets a weaker level choose among its best
//! lines.

use super::baseline;
use super::control::SearchControl;
use super::job::{Report, SearchJob, SearchResult};
use super::level;
use super::limits::Limits;
use super::memory::SearchMemory;
use super::shared::{SearchConfig, Shared};
use super::time::TimeBudget;
use super::tt::TranspositionTable;
use super::worker::Worker;
use crate::rules::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Runs a search to its end and returns the best move. `report` receives one [`Report`]
/// per completed iteration and principal variation. Blocks the calling thread; with
/// `infinite` or `ponder` it returns only after [`SearchControl::stop`] (or ponderhit).
/// Nothing but the hash table is kept from earlier searches (see [`run_with_memory`]).
pub fn run(
    job: &SearchJob,
    tt: &TranspositionTable,
    control: &SearchControl,
    report: impl FnMut(&Report),
) -> SearchResult {
    run_with_memory(job, tt, &SearchMemory::new(), control, report)
}

/// [`run`], with each thread's history, correction history and evaluation cache taken
/// from `memory` and given back to it at the end (the next move of a game starts from
/// what this one learnt).
pub fn run_with_memory(
    job: &SearchJob,
    tt: &TranspositionTable,
    memory: &SearchMemory,
    control: &SearchControl,
    mut report: impl FnMut(&Report),
) -> SearchResult {
    if job.cover_baseline {
        if let Some(position) = baseline::baseline_position(&job.position) {
            let plain = SearchJob {
                limits: Limits {
                    search_moves: baseline::baseline_moves(&position, &job.limits.search_moves),
                    ..job.limits.clone()
                },
                // The game's earlier positions had covered pieces: none can recur.
                history: Vec::new(),
                cover_baseline: false,
                position,
                ..job.clone()
            };
            let result = run_with_memory(&plain, tt, memory, control, report);
            return SearchResult {
                best_move: result.best_move.and_then(|m| baseline::real_move(&job.position, m)),
                ponder_move: None,
                ..result
            };
        }
    }
    let start = Instant::now();
    let mut limits = job.limits.clone();
    let legal = job.position.legal_moves();
    let lapse = level::apply(&job.level, &mut limits, job.position.hash(), legal.len(), job.seed);
    // A lapse looks at the position afresh: the level's hash table holds what its earlier,
    // deeper searches saw of this position's lines, and would show it what it is not looking
    // at.
    let fresh = lapse.then(|| TranspositionTable::try_new(1)).flatten();
    let tt = fresh.as_ref().unwrap_or(tt);
    tt.new_search();
    let shared = Shared {
        config: SearchConfig {
            ablation: job.ablation,
            ..SearchConfig::default()
        },
        control,
        tt,
        start,
        budget: TimeBudget::new(&limits, job.move_overhead),
        node_limit: limits.nodes,
        abort: AtomicBool::new(false),
    };

    let root_moves: Vec<Move> = {
        let all: Vec<Move> = legal.iter().copied().collect();
        let chosen: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| limits.search_moves.contains(m))
            .collect();
        if chosen.is_empty() {
            all
        } else {
            chosen
        }
    };

    let result = if root_moves.is_empty() {
        SearchResult {
            best_move: None,
            ponder_move: None,
            score: None,
            nodes: 0,
        }
    } else {
        let helpers = job.threads.clamp(1, 256) - 1;
        std::thread::scope(|scope| {
            for id in 1..=helpers {
                let shared = &shared;
                let root_moves = root_moves.clone();
                let limits = limits.clone();
                scope.spawn(move || {
                    let tables = memory.take(id, &job.level, job.seed, job.evaluator.key_for(&job.position));
                    let mut worker = Worker::new(job, shared, id, tables);
                    worker.iterate(&root_moves, &limits, 1, |_| {});
                    memory.give_back(id, worker.into_tables());
                });
            }
            let tables = memory.take(0, &job.level, job.seed, job.evaluator.key_for(&job.position));
            let mut worker = Worker::new(job, &shared, 0, tables);
            // A weaker level chooses among its best few moves: search that many lines and
            // show the GUI only the ones it asked for. A lapse glances at one line and plays
            // it: its few nodes spread over several lines would see one ply, and miss even a
            // check that forks (a person's glance looks at one move, and at its replies).
            let choosing = !lapse && job.level.candidates > 1 && job.level.temperature_cp > 0;
            let lines = if choosing {
                job.multipv.max(job.level.candidates.min(root_moves.len()))
            } else {
                job.multipv.max(1)
            };
            // The lines of the iteration under way, and of the last one with every line.
            let mut current: Vec<(u32, usize, Move, i32)> = Vec::new();
            let mut last: Vec<(u32, usize, Move, i32)> = Vec::new();
            let mut result = worker.iterate(&root_moves, &limits, lines, |line: &Report| {
                if let (true, Some(&first)) = (choosing, line.pv.first()) {
                    current.retain(|&(depth, index, _, _)| depth == line.depth && index != line.multipv);
                    current.push((line.depth, line.multipv, first, line.score.as_centipawns()));
                    if current.len() == lines {
                        last.clone_from(&current);
                    }
                }
                if line.multipv <= job.multipv.max(1) {
                    report(line);
                }
            });
            shared.abort.store(true, Ordering::Relaxed);
            memory.give_back(0, worker.into_tables());
            if choosing && last.len() > 1 {
                last.sort_by_key(|&(_, index, _, _)| index);
                let scored: Vec<(Move, i32)> = last.iter().map(|&(_, _, m, score)| (m, score)).collect();
                let chosen = level::choose(&job.level, &scored, job.position.hash(), job.seed, job.last_capture);
                if chosen.is_some() && chosen != result.best_move {
                    result.best_move = chosen;
                    result.ponder_move = None;
                }
            }
            result
        })
    };

    // UCI: after `go infinite` or while pondering, bestmove waits for stop (or ponderhit).
    while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    SearchResult {
        nodes: control.nodes(),
        ..result
    }
}
