//! Search: expectimax alpha-beta over covered chess, where a move that reveals a piece is a
//! chance node averaging its outcomes by their pool probabilities (Star1 windows, Ballard
//! 1983). Iterative deepening, a shared transposition table, Lazy SMP helper threads.
//!
//! The protocol talks to search only through [`SearchJob`], [`SearchControl`], [`Report`]
//! and [`SearchResult`], so the algorithm behind them can change freely.

pub mod ablation;
mod alphabeta;
mod baseline;
pub mod bench;
mod chance;
mod checks;
mod correction;
pub mod eval;
mod evaluator;
mod history;
mod iterative;
pub mod level;
mod memory;
mod ordering;
mod quiescence;
pub mod see;
mod time;
pub mod tt;
pub mod verify;
pub mod weights;
mod worker;

pub use evaluator::{Evaluator, NETWORK_BY_DEFAULT};
pub use memory::SearchMemory;
pub use time::TimeBudget;
pub use tt::TranspositionTable;

use crate::rules::{Move, Position};
pub use ablation::Ablation;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use worker::Worker;

/// Scores at or beyond this are mates.
pub const MATE: i32 = 32_000;
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The largest score that is not a mate: a decisive material edge.
pub const WIN: i32 = MATE_BOUND - 1;
pub const INFINITY: i32 = MATE + 1;
/// Deepest search the driver will start.
pub const MAX_DEPTH: u32 = 100;
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

/// One search to run.
#[derive(Clone, Debug)]
pub struct SearchJob {
    pub position: Position,
    /// Keys of the game's earlier positions, oldest first (for repetitions).
    pub history: Vec<u64>,
    pub limits: Limits,
    pub multipv: usize,
    pub threads: usize,
    pub move_overhead: Duration,
    /// What the strength level does ([`level::LevelParams::FULL`] at full strength).
    pub level: level::LevelParams,
    pub seed: u64,
    /// Take every covered piece as its cover for good: no chance nodes, no pools (the
    /// `CoverBaseline` option, for measuring what the chance model is worth).
    pub cover_baseline: bool,
    /// Parts of the selective search switched off (the `Ablate` option, for measuring what
    /// each is worth).
    pub ablation: Ablation,
    /// The static evaluation: the network or the hand-written terms.
    pub evaluator: Evaluator,
}

impl SearchJob {
    /// A search of `position` under `limits`, with nothing else set: one thread, one line,
    /// full strength, no history, no move overhead.
    pub fn new(position: Position, limits: Limits) -> SearchJob {
        SearchJob {
            position,
            history: Vec::new(),
            limits,
            multipv: 1,
            threads: 1,
            move_overhead: Duration::ZERO,
            level: level::LevelParams::FULL,
            seed: 0,
            cover_baseline: false,
            ablation: Ablation::default(),
            evaluator: Evaluator::standard(),
        }
    }
}

/// A score as UCI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with a mate as ±30,000 less its distance (for comparing lines).
    pub fn as_centipawns(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) if n > 0 => 30_000 - n,
            Score::Mate(n) => -30_000 - n,
        }
    }

    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score + 1) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// Whether a reported score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One line of search progress (an `info` line).
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// How a search ended.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: Option<Score>,
    pub nodes: u64,
}

/// Shared between the protocol thread and the search: stop and ponder flags, node count.
#[derive(Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    nodes: AtomicU64,
    ponderhit_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Control for a new search; `ponder` starts it in pondering mode.
    pub fn new_search(ponder: bool) -> SearchControl {
        let control = SearchControl::default();
        control.pondering.store(ponder, Ordering::Relaxed);
        control
    }

    /// Asks the search to end as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock() = Some(Instant::now());
        self.pondering.store(false, Ordering::Relaxed);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

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
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            chance_windows: true,
            star2: true,
            selective: true,
            ablation: Ablation::default(),
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
    /// Set when the main thread is done, to end the helper threads.
    pub abort: AtomicBool,
}

impl Shared<'_> {
    /// Time since the clock started counting for us (at ponderhit, when pondering).
    fn elapsed_for_limits(&self) -> Duration {
        match *self.control.ponderhit_at.lock() {
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
    tt.new_search();
    let mut limits = job.limits.clone();
    level::apply(&job.level, &mut limits);
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
        let legal = job.position.legal_moves();
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
                    let tables = memory.take(id, &job.level, job.seed, job.evaluator.key());
                    let mut worker = Worker::new(job, shared, id, tables);
                    worker.iterate(&root_moves, &limits, 1, |_| {});
                    memory.give_back(id, worker.into_tables());
                });
            }
            let tables = memory.take(0, &job.level, job.seed, job.evaluator.key());
            let mut worker = Worker::new(job, &shared, 0, tables);
            // A weaker level chooses among its best few moves: search that many lines and
            // show the GUI only the ones it asked for.
            let choosing = job.level.candidates > 1 && job.level.temperature_cp > 0;
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
                let chosen = level::choose(&job.level, &scored, job.position.hash(), job.seed);
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
