//! Chance nodes: a move that reveals a piece is worth the probability-weighted mean of its
//! outcomes (expectimax), searched with the pruning of Ballard (1983) in the bounded domain
//! [-MEAN_BOUND, MEAN_BOUND], as refined by Hauk, Buro & Schaeffer (2004):
//!
//! - **Star2 probing**: before searching any outcome fully, each outcome's position is
//!   probed by searching only the opponent's first move (the hash move when there is one).
//!   A probe that fails high for the opponent caps that outcome's value for us; once the
//!   capped mean cannot exceed alpha the node fails low without a full search. An outcome
//!   searched by quiescence needs no probe: the opponent may stand pat there (unless in
//!   check), so its static evaluation already caps our value.
//! - **Star1 windows**: each outcome is then searched with the narrowest window in which it
//!   can still move the mean across alpha or beta, given the outcomes already searched and
//!   the bounds (probed caps, or the domain) of the rest.
//!
//! Mate scores do not average: outcome scores are clamped to +-MEAN_BOUND (a decisive edge)
//! for the mean, and the node is a mate only when every outcome mates (then it takes the
//! slowest). Unlikely outcomes are searched less deeply: an outcome of probability p loses
//! floor(log2(1/p)) plies (at most 3), so the tree spends its effort where the probability
//! mass is, as probability-limited search does.

use super::ordering::{order, OrderContext};
use super::score::{INFINITY, MATE, MATE_BOUND};
use super::tt::Bound;
use super::worker::{score_from_tt, Worker};
use crate::rules::{Move, Position, Role};

/// Outcome scores beyond this many centipawns count as this much in the mean.
const MEAN_BOUND: i64 = 3_000;
/// Most plies an unlikely outcome's search loses.
const MAX_OUTCOME_REDUCTION: i32 = 3;
/// Star2 probes from this remaining depth on (below it a probe costs what it saves).
const PROBE_DEPTH: i32 = 2;

/// Plies taken off an outcome's depth: floor(log2(total / count)), at most 3.
fn reduction(count: i64, total: i64) -> i32 {
    let mut reduction = 0;
    while reduction < MAX_OUTCOME_REDUCTION && count << (reduction + 1) <= total {
        reduction += 1;
    }
    reduction
}

fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

impl Worker<'_> {
    /// The depth an outcome of `weight` out of `total` is searched to.
    fn outcome_depth(depth: i32, weight: i64, total: i64) -> i32 {
        if depth > 0 {
            (depth - reduction(weight, total)).max(0)
        } else {
            depth
        }
    }

    /// Star2 probe of `child` (the opponent to move): searches only its first move with the
    /// null window (beta - 1, beta) and returns the score if it fails high, a lower bound on
    /// the child's value for the opponent.
    fn probe(&mut self, child: &Position, depth: i32, beta: i32, ply: usize) -> Option<i32> {
        if self.is_draw(child) {
            return None;
        }
        let entry = self.shared.tt.probe(child.hash());
        if let Some(entry) = entry {
            let score = score_from_tt(entry.score, ply);
            if self.shared.config.selective
                && entry.depth >= depth
                && matches!(entry.bound, Bound::Lower | Bound::Exact)
                && score >= beta
            {
                return Some(score);
            }
        }
        let mut moves = child.legal_moves();
        if moves.is_empty() {
            let score = if child.is_check() { -MATE + ply as i32 } else { 0 };
            return (score >= beta).then_some(score);
        }
        let previous = self.previous_moves(ply);
        order(
            child,
            &mut moves,
            &OrderContext {
                hash_move: entry.and_then(|e| e.best_move),
                killers: self.tables.history.killers[ply],
                counter: self.tables.history.counter_move(previous[0]),
                history: &self.tables.history,
                previous,
            },
        );
        let first = moves.as_slice()[0];
        // The child's own search extends checks: the probe must search the same tree.
        let depth = if child.is_check() { depth + 1 } else { depth };
        let score = self.search_move(child, first, depth - 1, beta - 1, beta, ply);
        (!self.stopped && score >= beta).then_some(score)
    }

    /// The value of reveal move `m` for the side to move in `position`.
    pub(super) fn chance(
        &mut self,
        position: &Position,
        m: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        // The principal variation stops at a reveal.
        self.pv_len[ply + 1] = ply + 1;
        let pool = *position.pool(position.side_to_move());
        let total = pool.total() as i64;
        let (low, high) = (-MEAN_BOUND, MEAN_BOUND);
        // Likely outcomes first: their weight narrows the later windows most.
        let mut outcomes = [(Role::Pawn, 0u8); 5];
        let mut len = 0;
        for outcome in pool.outcomes() {
            outcomes[len] = outcome;
            len += 1;
        }
        let outcomes = &mut outcomes[..len];
        outcomes.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        let config = self.shared.config;
        if !config.chance_windows {
            return self.chance_full_width(position, m, depth, outcomes, total, ply);
        }

        // Star2 probing: caps on each outcome's value.
        let mut upper = [high; 5];
        let mut upper_sum = high * total;
        if config.star2 {
            for (index, &(role, count)) in outcomes.iter().enumerate() {
                let weight = count as i64;
                let child_depth = Self::outcome_depth(depth, weight, total);
                if upper_sum <= alpha as i64 * total {
                    return ceil_div(upper_sum, total) as i32;
                }
                if child_depth <= 0 {
                    // A quiescence outcome: the opponent can stand pat unless in check, so
                    // its static evaluation caps our value there, for the cost of one call.
                    let child = position.play(m, Some(role));
                    if !child.is_check() {
                        let cap = (-(self.evaluate(&child, ply + 1) as i64)).clamp(low, high);
                        if cap < upper[index] {
                            upper_sum -= weight * (upper[index] - cap);
                            upper[index] = cap;
                        }
                    }
                    continue;
                }
                if depth < PROBE_DEPTH {
                    continue;
                }
                let others = upper_sum - weight * upper[index];
                // The cap this outcome needs for a cutoff now, or at least alpha: with every
                // outcome capped at alpha the mean is too.
                let needed = floor_div(alpha as i64 * total - others, weight);
                let threshold = needed.max(alpha as i64).clamp(low, high - 1);
                if child_depth < 1 || threshold >= upper[index] {
                    // A quiescence node, where one move bounds nothing, or nothing to gain.
                    continue;
                }
                let child = position.play(m, Some(role));
                self.keys.push(child.hash());
                let probed = self.probe(&child, child_depth, -threshold as i32, ply + 1);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if let Some(score) = probed {
                    let cap = (-(score as i64)).clamp(low, high);
                    upper_sum -= weight * (upper[index] - cap);
                    upper[index] = cap;
                    if upper_sum <= alpha as i64 * total {
                        return ceil_div(upper_sum, total) as i32;
                    }
                }
            }
        }

        // Star1: each outcome in its window, the rest bounded by their caps.
        let mut sum = 0i64;
        let mut remaining = total;
        let mut rest_upper = upper_sum;
        let mut all_win = true;
        let mut all_loss = true;
        let mut slowest_mate = i32::MAX;
        for (index, &(role, count)) in outcomes.iter().enumerate() {
            let weight = count as i64;
            remaining -= weight;
            rest_upper -= weight * upper[index];
            let a = floor_div(alpha as i64 * total - sum - rest_upper, weight);
            let b = ceil_div(beta as i64 * total - sum - low * remaining, weight);
            if a >= upper[index] {
                // Even the best score here cannot lift the mean above alpha.
                return ceil_div(sum + weight * upper[index] + rest_upper, total) as i32;
            }
            if b <= low {
                return floor_div(sum + weight * low + low * remaining, total) as i32;
            }
            let a = a.max(low - 1);
            let b = b.min(high + 1).max(a + 1);

            let child = position.play(m, Some(role));
            self.keys.push(child.hash());
            let child_depth = Self::outcome_depth(depth, weight, total);
            let raw = -self.negamax(&child, child_depth, -(b as i32), -(a as i32), ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            all_win &= raw >= MATE_BOUND;
            all_loss &= raw <= -MATE_BOUND;
            slowest_mate = slowest_mate.min(raw);
            let value = (raw as i64).clamp(low, high);
            if value >= b {
                return floor_div(sum + weight * value + low * remaining, total) as i32;
            }
            if value <= a {
                return ceil_div(sum + weight * value + rest_upper, total) as i32;
            }
            sum += weight * value;
        }
        if all_win || all_loss {
            return slowest_mate;
        }
        floor_div(2 * sum + total, 2 * total) as i32
    }

    /// Plain expectimax: every outcome with a full window (for verifying the pruned node).
    fn chance_full_width(
        &mut self,
        position: &Position,
        m: Move,
        depth: i32,
        outcomes: &[(Role, u8)],
        total: i64,
        ply: usize,
    ) -> i32 {
        let mut sum = 0i64;
        let mut all_win = true;
        let mut all_loss = true;
        let mut slowest_mate = i32::MAX;
        for &(role, count) in outcomes {
            let weight = count as i64;
            let child = position.play(m, Some(role));
            self.keys.push(child.hash());
            let child_depth = Self::outcome_depth(depth, weight, total);
            let raw = -self.negamax(&child, child_depth, -INFINITY, INFINITY, ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            all_win &= raw >= MATE_BOUND;
            all_loss &= raw <= -MATE_BOUND;
            slowest_mate = slowest_mate.min(raw);
            sum += weight * (raw as i64).clamp(-MEAN_BOUND, MEAN_BOUND);
        }
        if all_win || all_loss {
            return slowest_mate;
        }
        floor_div(2 * sum + total, 2 * total) as i32
    }
}
