//! One search to run, and what it gives back: the job the protocol hands over, the progress
//! lines it reports, and the result.

use super::ablation::Ablation;
use super::evaluator::Evaluator;
use super::level::LevelParams;
use super::limits::Limits;
use super::score::{Score, ScoreBound};
use crate::rules::{Move, Position, Square};
use std::time::Duration;

/// One search to run.
#[derive(Clone, Debug)]
pub struct SearchJob {
    pub position: Position,
    /// Keys of the game's earlier positions, oldest first (for repetitions).
    pub history: Vec<u64>,
    /// The square on which the opponent's last move captured, if it did (a weaker level
    /// recaptures there as people do).
    pub last_capture: Option<Square>,
    pub limits: Limits,
    pub multipv: usize,
    pub threads: usize,
    pub move_overhead: Duration,
    /// What the strength level does ([`LevelParams::FULL`] at full strength).
    pub level: LevelParams,
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
            last_capture: None,
            limits,
            multipv: 1,
            threads: 1,
            move_overhead: Duration::ZERO,
            level: LevelParams::FULL,
            seed: 0,
            cover_baseline: false,
            ablation: Ablation::default(),
            evaluator: Evaluator::standard(),
        }
    }
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
