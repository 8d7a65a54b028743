//! Iterative deepening with aspiration windows: each depth is first searched in a narrow
//! window around the previous depth's score, widened on failure. The main worker also
//! decides, between iterations, whether the time left is worth another one: a best move
//! that keeps changing or a falling score buys time, a stable one saves it.

use super::job::{Report, SearchResult};
use super::limits::{Limits, MAX_DEPTH};
use super::score::{Score, ScoreBound, INFINITY, MATE_BOUND};
use super::worker::Worker;
use crate::rules::Move;

/// Depth from which aspiration windows are used, and their first half-width.
const ASPIRATION_DEPTH: u32 = 4;
const ASPIRATION_WINDOW: i32 = 25;
/// Soft time scale by the number of iterations the best move has not changed.
const STABILITY_SCALE: [f64; 5] = [1.6, 1.25, 1.0, 0.85, 0.7];
/// Soft time scale for a score that fell by at least 30 (and 80) centipawns since the last
/// iteration.
const SCORE_DROP_SCALE: [f64; 2] = [1.2, 1.5];

impl Worker<'_> {
    /// Searches the root at `depth` in an aspiration window around `previous` (full width
    /// when there is none).
    fn aspiration(&mut self, depth: u32, previous: Option<i32>) -> i32 {
        let root = self.root.clone();
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = match previous {
            Some(score) if depth >= ASPIRATION_DEPTH && score.abs() < MATE_BOUND => {
                ((score - delta).max(-INFINITY), (score + delta).min(INFINITY))
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let score = self.negamax(&root, depth as i32, alpha, beta, 0);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 1_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Iterative deepening over `root_moves`; the main worker (id 0) reports each line.
    pub(super) fn iterate(
        &mut self,
        root_moves: &[Move],
        limits: &Limits,
        multipv: usize,
        mut report: impl FnMut(&Report),
    ) -> SearchResult {
        self.root_moves = root_moves.to_vec();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = multipv.min(root_moves.len()).max(1);
        let mut best: Option<(Move, Option<Move>, i32)> = None;
        let mut stability = 0usize;
        let mut time_scale = 1.0;
        // Helpers start a little deeper so threads spread over depths (Lazy SMP).
        let first_depth = 1 + (self.id % 2) as u32;
        for depth in first_depth..=max_depth {
            if depth > first_depth && !self.shared.may_start_iteration(time_scale) {
                break;
            }
            self.excluded.clear();
            let mut iteration_best = None;
            for line in 0..lines {
                self.seldepth = 0;
                let previous = if lines == 1 {
                    best.map(|(_, _, score)| score)
                } else {
                    None
                };
                let score = self.aspiration(depth, previous);
                if self.stopped && !(depth == first_depth && line == 0 && self.pv_len[0] > 0) {
                    break;
                }
                let pv = self.root_pv();
                let Some(&first) = pv.first() else { break };
                self.excluded.push(first);
                if line == 0 {
                    iteration_best = Some((first, pv.get(1).copied(), score));
                }
                if self.id == 0 {
                    self.flush_nodes();
                    let elapsed = self.shared.start.elapsed();
                    report(&Report {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        multipv: line + 1,
                        score: Score::from_internal(score),
                        bound: ScoreBound::Exact,
                        nodes: self.shared.control.nodes(),
                        time: elapsed,
                        hashfull: self.shared.tt.hashfull(),
                        pv,
                    });
                }
                if self.stopped {
                    break;
                }
            }
            if let Some((m, _, score)) = iteration_best {
                match best {
                    Some((previous_move, _, previous_score)) => {
                        stability = if previous_move == m { stability + 1 } else { 0 };
                        time_scale = STABILITY_SCALE[stability.min(STABILITY_SCALE.len() - 1)];
                        if score <= previous_score - 80 {
                            time_scale *= SCORE_DROP_SCALE[1];
                        } else if score <= previous_score - 30 {
                            time_scale *= SCORE_DROP_SCALE[0];
                        }
                    }
                    None => time_scale = 1.0,
                }
                best = iteration_best;
            }
            if self.stopped {
                break;
            }
            // One move to play under a clock: nothing to think about (as Stockfish, which
            // caps such a move's time; a `movetime`, `nodes` or `depth` search of one move
            // is analysis of it and runs to its limit).
            if root_moves.len() == 1 && self.shared.only_move_at_once && limits.time_left.is_some() && !limits.infinite
            {
                break;
            }
            if let (Some(mate), Some((_, _, score))) = (limits.mate, best) {
                if let Score::Mate(moves) = Score::from_internal(score) {
                    if moves > 0 && moves as u32 <= mate {
                        break;
                    }
                }
            }
        }
        self.flush_nodes();
        let (best_move, ponder_move, score) = match best {
            Some((m, ponder, score)) => (Some(m), ponder, Some(Score::from_internal(score))),
            None => (root_moves.first().copied(), None, None),
        };
        SearchResult {
            best_move,
            ponder_move,
            score,
            nodes: self.shared.control.nodes(),
        }
    }
}
