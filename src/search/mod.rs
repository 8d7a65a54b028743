//! Search: expectimax alpha-beta over covered chess, where a move that reveals a piece is a
//! chance node averaging its outcomes by their pool probabilities (Star1 windows, Ballard
//! 1983). Iterative deepening, a shared transposition table, Lazy SMP helper threads.
//!
//! The protocol talks to search only through [`SearchJob`], [`SearchControl`], [`Report`]
//! and [`SearchResult`], so the algorithm behind them can change freely.
//! This file is only the front: each type lives in a file named for it (`limits.rs`,
//! `score.rs`, `job.rs`, `control.rs`, `shared.rs`), the driver in `driver.rs`, and the
//! files of the folder import one another by those names, never through this one.

pub mod ablation;
mod alphabeta;
mod baseline;
pub mod bench;
mod chance;
mod checks;
mod control;
mod correction;
mod driver;
pub mod eval;
mod evaluator;
mod history;
mod iterative;
mod job;
pub mod level;
mod limits;
mod memory;
mod ordering;
mod quiescence;
mod score;
pub mod see;
mod shared;
mod time;
pub mod tt;
pub mod verify;
pub mod weights;
mod worker;

pub use ablation::Ablation;
pub use control::SearchControl;
pub use driver::{run, run_with_memory};
pub use evaluator::{Breakdown, Evaluator, NETWORK_IN_COVERED_CHESS, NETWORK_IN_PLAIN_CHESS};
pub use job::{Report, SearchJob, SearchResult};
pub use limits::{Limits, MAX_DEPTH, MAX_PLY};
pub use memory::SearchMemory;
pub use score::{Score, ScoreBound, INFINITY, MATE, MATE_BOUND, WIN};
pub use shared::SearchConfig;
pub use time::TimeBudget;
pub use tt::TranspositionTable;
