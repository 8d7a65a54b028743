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
    let go = Go {
        job,
        memory,
        control,
        start: Instant::now(),
    };
    let mut limits = job.limits.clone();
    let legal = job.position.legal_moves();
    let glance = level::apply(&job.level, &mut limits, job.position.hash(), legal.len(), job.seed);
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
    } else if let Some(glance) = glance {
        go.lapse(tt, &limits, &glance, &root_moves, &mut report)
    } else {
        let full = go.search(tt, &limits, &root_moves, Purpose::Play, &mut report);
        go.look_again(tt, &limits, full, None, &mut report)
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

/// What one search within a `go` is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// The move to play: every thread, the level's lines and its choice among them.
    Play,
    /// A lapse's glance: one thread, one line, few nodes.
    Glance,
    /// A second look at one move alone (a lapse's, or the level's choice), to score it
    /// with all the level's nodes.
    SecondLook,
}

/// The most moves a level's second look searches before it plays (see
/// [`Go::look_again`]).
const LOOKS: usize = 3;

/// What every search of one `go` shares: the job, the threads' memory, the control handle
/// (one node count for the whole move) and the clock (the move's time limits count from
/// the `go`, however many searches it makes).
struct Go<'a> {
    job: &'a SearchJob,
    memory: &'a SearchMemory,
    control: &'a SearchControl,
    start: Instant,
}

/// A search's result and its lines as the level saw them: each line's first move and score
/// in centipawns, best first (the last iteration with every line).
struct Searched {
    result: SearchResult,
    lines: Vec<(Move, i32)>,
}

impl Go<'_> {
    /// A lapse: the glance (a few nodes, a fresh hash table) picks the move, and the full
    /// search the level would otherwise make judges it. The glance's move stands unless that
    /// search, or a second look at the move alone when it is not among the search's lines
    /// (always, with `second_look`), scores it as throwing the game away
    /// ([`level::move_stands`]); then the level plays its full search's choice (looked at
    /// again, with `second_look`).
    fn lapse(
        &self,
        tt: &TranspositionTable,
        limits: &Limits,
        glance_limits: &Limits,
        root_moves: &[Move],
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        // A glance looks at the position afresh: the level's hash table holds what its
        // earlier, deeper searches saw of this position's lines, and would show it what it
        // is not looking at.
        let fresh = TranspositionTable::try_new(1);
        let glance = self
            .search(
                fresh.as_ref().unwrap_or(tt),
                glance_limits,
                root_moves,
                Purpose::Glance,
                report,
            )
            .result;
        let Some(glanced) = glance.best_move else {
            return glance;
        };
        let full = self.search(tt, limits, root_moves, Purpose::Play, report);
        let Some(&(_, best)) = full.lines.first() else {
            return glance;
        };
        if self.job.level.second_look {
            return self.look_again(tt, limits, full, Some(glance), report);
        }
        let glanced_score = match full.lines.iter().find(|&&(m, _)| m == glanced) {
            Some(&(_, score)) => Some(score),
            None => self.look(tt, limits, glanced, report).map(|(score, _)| score),
        };
        match glanced_score {
            Some(score) if !level::move_stands(best, score) => full.result,
            _ => glance,
        }
    }

    /// With `second_look`, the level looks again before it plays: a search of the move in
    /// hand alone (the lapse's `glance`, else the choice among the `full` search's lines),
    /// under the level's limits. The move stands unless the look scores it as throwing away
    /// a game the full search's best line did not lose ([`level::move_stands`]); then the
    /// full search's choice (after a lapse) and its other lines are looked at in their
    /// order, [`LOOKS`] looks in all, and the first that stands is played, or else the one
    /// that looked best.
    fn look_again(
        &self,
        tt: &TranspositionTable,
        limits: &Limits,
        full: Searched,
        glance: Option<SearchResult>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let Some(&(_, best)) = full.lines.first() else {
            return glance.unwrap_or(full.result);
        };
        if !self.job.level.second_look || level::already_lost(best) {
            return glance.unwrap_or(full.result);
        }
        let in_hand = glance.as_ref().unwrap_or(&full.result).best_move;
        // The move in hand, the full search's choice (a lapse's fallback), then its lines.
        let mut order: Vec<Move> = Vec::new();
        for m in [in_hand, full.result.best_move]
            .into_iter()
            .flatten()
            .chain(full.lines.iter().map(|&(m, _)| m))
        {
            if !order.contains(&m) {
                order.push(m);
            }
        }
        let mut looked_best: Option<(i32, SearchResult)> = None;
        for m in order.into_iter().take(LOOKS) {
            if self.control.is_stopped() {
                break;
            }
            let Some((score, looked)) = self.look(tt, limits, m, report) else {
                break;
            };
            if level::move_stands(best, score) {
                return match glance {
                    Some(glance) if Some(m) == in_hand => glance,
                    _ if Some(m) == in_hand => full.result,
                    _ => looked,
                };
            }
            if looked_best.as_ref().is_none_or(|&(most, _)| score > most) {
                looked_best = Some((score, looked));
            }
        }
        match looked_best {
            Some((_, result)) => result,
            None => glance.unwrap_or(full.result),
        }
    }

    /// A second look at `m` alone under `limits`: its score (none if the look finished no
    /// iteration) and the search's result.
    fn look(
        &self,
        tt: &TranspositionTable,
        limits: &Limits,
        m: Move,
        report: &mut dyn FnMut(&Report),
    ) -> Option<(i32, SearchResult)> {
        let look = self.search(tt, limits, &[m], Purpose::SecondLook, report);
        let &(_, score) = look.lines.first()?;
        Some((score, look.result))
    }

    /// One search of `root_moves` under `limits` (its node limit counts from the nodes the
    /// `go` has searched so far).
    fn search(
        &self,
        tt: &TranspositionTable,
        limits: &Limits,
        root_moves: &[Move],
        purpose: Purpose,
        report: &mut dyn FnMut(&Report),
    ) -> Searched {
        let Go {
            job,
            memory,
            control,
            start,
        } = *self;
        tt.new_search();
        let shared = Shared {
            config: SearchConfig {
                ablation: job.ablation,
                quiet_reduction: i32::from(job.level.quiet_reduction),
                ..SearchConfig::default()
            },
            control,
            tt,
            start,
            budget: TimeBudget::new(limits, job.move_overhead),
            node_limit: limits.nodes.map(|cap| control.nodes().saturating_add(cap)),
            only_move_at_once: purpose != Purpose::SecondLook,
            abort: AtomicBool::new(false),
        };
        let play = purpose == Purpose::Play;
        let helpers = if play { job.threads.clamp(1, 256) - 1 } else { 0 };
        // A weaker level chooses among its best few moves: search that many lines and show
        // the GUI only the ones it asked for. A glance looks at one line: its few nodes
        // spread over several lines would see one ply, and miss even a check that forks (a
        // person's glance looks at one move, and at its replies).
        let choosing = play && job.level.candidates > 1 && job.level.temperature_cp > 0;
        let lines = match purpose {
            Purpose::Play if choosing => job.multipv.max(job.level.candidates.min(root_moves.len())),
            Purpose::Play => job.multipv.max(1),
            Purpose::Glance | Purpose::SecondLook => 1,
        };
        std::thread::scope(|scope| {
            for id in 1..=helpers {
                let shared = &shared;
                let root_moves = root_moves.to_vec();
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
            // The lines of the iteration under way, and of the last one with every line.
            let mut current: Vec<(u32, usize, Move, i32)> = Vec::new();
            let mut last: Vec<(u32, usize, Move, i32)> = Vec::new();
            let mut result = worker.iterate(root_moves, limits, lines, |line: &Report| {
                if let Some(&first) = line.pv.first() {
                    current.retain(|&(depth, index, _, _)| depth == line.depth && index != line.multipv);
                    current.push((line.depth, line.multipv, first, line.score.as_centipawns()));
                    if current.len() == lines {
                        last.clone_from(&current);
                    }
                }
                if play && line.multipv <= job.multipv.max(1) {
                    report(line);
                }
            });
            shared.abort.store(true, Ordering::Relaxed);
            memory.give_back(0, worker.into_tables());
            last.sort_by_key(|&(_, index, _, _)| index);
            let lines: Vec<(Move, i32)> = last.iter().map(|&(_, _, m, score)| (m, score)).collect();
            if choosing && lines.len() > 1 {
                let chosen = level::choose(&job.level, &lines, job.position.hash(), job.seed, job.last_capture);
                if chosen.is_some() && chosen != result.best_move {
                    result.best_move = chosen;
                    result.ponder_move = None;
                }
            }
            Searched { result, lines }
        })
    }
}
