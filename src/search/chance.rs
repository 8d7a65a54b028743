//! Chance nodes: a move that reveals a piece is worth the probability-weighted mean of its
//! outcomes. Each outcome is searched with the Star1 window of Ballard (1983): given the
//! outcomes already searched and the score bounds of the rest, the narrowest window in which
//! this outcome can still move the mean across alpha or beta.
//!
//! Mate scores do not average: outcome scores are clamped to +-MEAN_BOUND (a decisive edge)
//! for the mean, and the node is a mate only when every outcome mates (then it takes the
//! slowest). Unlikely outcomes are searched less deeply: an outcome of probability p loses
//! floor(log2(1/p)) plies (at most 3), so the tree spends its effort where the probability
//! mass is, as probability-limited search does.

use super::worker::Worker;
use super::MATE_BOUND;

/// Outcome scores beyond this many centipawns count as this much in the mean.
const MEAN_BOUND: i64 = 3_000;

/// Plies taken off an outcome's depth: floor(log2(total / count)), at most 3.
fn reduction(count: i64, total: i64) -> i32 {
    let mut reduction = 0;
    while reduction < 3 && count << (reduction + 1) <= total {
        reduction += 1;
    }
    reduction
}
use crate::rules::{Move, Position, Role};

fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

impl Worker<'_> {
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

        let mut sum = 0i64;
        let mut remaining = total;
        let mut all_win = true;
        let mut all_loss = true;
        let mut slowest_mate = i32::MAX;
        for &mut (role, count) in outcomes {
            let weight = count as i64;
            remaining -= weight;
            let a = floor_div(alpha as i64 * total - sum - high * remaining, weight);
            let b = ceil_div(beta as i64 * total - sum - low * remaining, weight);
            if a >= high {
                // Even the best score here cannot lift the mean above alpha.
                return ceil_div(sum + weight * high + high * remaining, total) as i32;
            }
            if b <= low {
                return floor_div(sum + weight * low + low * remaining, total) as i32;
            }
            let a = a.max(low - 1);
            let b = b.min(high + 1).max(a + 1);

            let child = position.play(m, Some(role));
            self.keys.push(child.hash());
            let child_depth = if depth > 0 {
                (depth - reduction(weight, total)).max(0)
            } else {
                depth
            };
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
                return ceil_div(sum + weight * value + high * remaining, total) as i32;
            }
            sum += weight * value;
        }
        if all_win || all_loss {
            return slowest_mate;
        }
        floor_div(2 * sum + total, 2 * total) as i32
    }
}
