//! Chance nodes: a move that reveals a piece is worth the probability-weighted mean of its
//! outcomes (expectimax), searched with the pruning of Ballard (1983) in the bounded domain
//! [-MEAN_BOUND, MEAN_BOUND], as refined by Hauk, Buro & Schaeffer (2004). The mean is taken
//! over winning chances, a logistic of each outcome's score (as Pikafish's jieqi branch
//! does), not over centipawns: an even chance of a mate and of a level game is a good
//! position, not a score of half a mate. Decided by match (docs/strength.md).
//!
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
use crate::rules::{Move, Position, Role, MAX_MOVES};

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

/// Whether outcomes are averaged as winning chances (a logistic of the score) instead of
/// as centipawns.
const MEAN_IN_WIN_PROBABILITY: bool = true;
/// Centipawns per logistic unit of winning chances in covered chess (the training's K).
const WDL_SCALE: f64 = 400.0;
/// Mean units per certain win, in the win-probability domain.
const WIN_UNITS: f64 = 1_048_576.0;

/// The domain in which a chance node averages its outcomes: centipawns, or winning chances
/// in integer units (strictly increasing in the score on [-MEAN_BOUND - 1, MEAN_BOUND + 1],
/// so that bounds map to bounds). The windows are worked out in the domain and mapped back
/// to centipawns rounding outwards, so that a child's fail-high or fail-low is one in the
/// domain too.
mod domain {
    use super::{MEAN_BOUND, MEAN_IN_WIN_PROBABILITY, WDL_SCALE, WIN_UNITS};
    use once_cell::sync::Lazy;

    /// Every score's value, from -MEAN_BOUND - 1 to MEAN_BOUND + 1 (the logistic is worked
    /// out once, not at every outcome and bound).
    static UNITS: Lazy<Vec<i64>> = Lazy::new(|| {
        (-MEAN_BOUND - 1..=MEAN_BOUND + 1)
            .map(|cp| (WIN_UNITS / (1.0 + (-(cp as f64) / WDL_SCALE).exp())).round() as i64)
            .collect()
    });

    fn win_units(cp: i64) -> i64 {
        UNITS[(cp.clamp(-MEAN_BOUND - 1, MEAN_BOUND + 1) + MEAN_BOUND + 1) as usize]
    }

    /// A score (centipawns, or a bound such as alpha) in the domain.
    pub fn of(cp: i64) -> i64 {
        if MEAN_IN_WIN_PROBABILITY {
            win_units(cp)
        } else {
            cp
        }
    }

    /// An outcome's value in the domain (clamped to the decisive edge).
    pub fn value(cp: i64) -> i64 {
        of(cp.clamp(-MEAN_BOUND, MEAN_BOUND))
    }

    /// The largest score whose value is at most `units` (a centipawn bound below which a
    /// child's score stays below `units`).
    pub fn floor(units: i64) -> i32 {
        if !MEAN_IN_WIN_PROBABILITY {
            return units as i32;
        }
        // The values rise strictly with the score, so the scores at most `units` are a
        // prefix of the table; below its first, the score under the domain's edge.
        let below = UNITS.partition_point(|&value| value <= units) as i64;
        (below - MEAN_BOUND - 2) as i32
    }

    /// The smallest score whose value is at least `units`.
    pub fn ceil(units: i64) -> i32 {
        if !MEAN_IN_WIN_PROBABILITY {
            return units as i32;
        }
        // Past the table's last value, the score above the domain's edge.
        let below = UNITS.partition_point(|&value| value < units) as i64;
        (below - MEAN_BOUND - 1) as i32
    }

    /// The mean `sum / total` as a score, to the nearest centipawn.
    pub fn mean(sum: i64, total: i64) -> i32 {
        if MEAN_IN_WIN_PROBABILITY {
            let p = (sum as f64 / total as f64 / WIN_UNITS).clamp(1e-9, 1.0 - 1e-9);
            ((WDL_SCALE * (p / (1.0 - p)).ln()).round() as i64).clamp(-MEAN_BOUND, MEAN_BOUND) as i32
        } else {
            super::floor_div(2 * sum + total, 2 * total) as i32
        }
    }
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
        let mut keys = [0; MAX_MOVES];
        let previous = self.previous_moves(ply);
        let best_first = order(
            child,
            &mut moves,
            &mut keys,
            &OrderContext {
                hash_move: entry.and_then(|e| e.best_move),
                killers: self.tables.history.killers[ply],
                counter: self.tables.history.counter_move(previous[0]),
                history: &self.tables.history,
                previous,
            },
        )
        .next();
        let Some(first) = best_first else {
            let score = if child.is_check() { -MATE + ply as i32 } else { 0 };
            return (score >= beta).then_some(score);
        };
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
        let (low, high) = (domain::value(-MEAN_BOUND), domain::value(MEAN_BOUND));
        let (alpha_units, beta_units) = (domain::of(alpha as i64), domain::of(beta as i64));
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
                if upper_sum <= alpha_units * total {
                    return domain::ceil(ceil_div(upper_sum, total));
                }
                if child_depth <= 0 {
                    // A quiescence outcome: the opponent can stand pat unless in check, so
                    // its static evaluation caps our value there, for the cost of one call.
                    let child = position.play(m, Some(role));
                    if !child.is_check() {
                        let cap = domain::value(-(self.evaluate(&child, ply + 1) as i64));
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
                let needed = floor_div(alpha_units * total - others, weight);
                let threshold = needed.max(alpha_units).clamp(low, high - 1);
                if child_depth < 1 || threshold >= upper[index] {
                    // A quiescence node, where one move bounds nothing, or nothing to gain.
                    continue;
                }
                let child = position.play(m, Some(role));
                self.keys.push(child.hash());
                // A probe that fails high caps the outcome at or below `threshold`.
                let threshold_cp = domain::floor(threshold);
                let probed = self.probe(&child, child_depth, -threshold_cp, ply + 1);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if let Some(score) = probed {
                    let cap = domain::value(-(score as i64));
                    upper_sum -= weight * (upper[index] - cap);
                    upper[index] = cap;
                    if upper_sum <= alpha_units * total {
                        return domain::ceil(ceil_div(upper_sum, total));
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
            let a = floor_div(alpha_units * total - sum - rest_upper, weight);
            let b = ceil_div(beta_units * total - sum - low * remaining, weight);
            if a >= upper[index] {
                // Even the best score here cannot lift the mean above alpha.
                return domain::ceil(ceil_div(sum + weight * upper[index] + rest_upper, total));
            }
            if b <= low {
                return domain::floor(floor_div(sum + weight * low + low * remaining, total));
            }
            let a = a.max(low - 1);
            let b = b.min(high + 1).max(a + 1);

            let child = position.play(m, Some(role));
            self.keys.push(child.hash());
            let child_depth = Self::outcome_depth(depth, weight, total);
            let (a_cp, b_cp) = (domain::floor(a), domain::ceil(b));
            let raw = -self.negamax(&child, child_depth, -b_cp, -a_cp, ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            all_win &= raw >= MATE_BOUND;
            all_loss &= raw <= -MATE_BOUND;
            slowest_mate = slowest_mate.min(raw);
            let value = domain::value(raw as i64);
            if value >= b {
                return domain::floor(floor_div(sum + weight * value + low * remaining, total));
            }
            if value <= a {
                return domain::ceil(ceil_div(sum + weight * value + rest_upper, total));
            }
            sum += weight * value;
        }
        if all_win || all_loss {
            return slowest_mate;
        }
        domain::mean(sum, total)
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
            sum += weight * domain::value(raw as i64);
        }
        if all_win || all_loss {
            return slowest_mate;
        }
        domain::mean(sum, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores map to the domain strictly increasing, and the bounds map back outwards: the
    /// floor of a value is the largest score at or below it, the ceiling the smallest at or
    /// above it.
    #[test]
    fn the_mean_domain_maps_bounds_to_bounds() {
        for cp in -MEAN_BOUND - 1..=MEAN_BOUND {
            assert!(domain::of(cp) < domain::of(cp + 1), "{cp}");
        }
        let (lowest, highest) = (domain::of(-MEAN_BOUND - 1), domain::of(MEAN_BOUND + 1));
        let mut units = lowest + 1;
        while units < highest {
            let floor = domain::floor(units) as i64;
            assert!(domain::of(floor) <= units && domain::of(floor + 1) > units, "{units}");
            let ceil = domain::ceil(units) as i64;
            assert!(domain::of(ceil) >= units && domain::of(ceil - 1) < units, "{units}");
            units += 997;
        }
        for cp in [-MEAN_BOUND, -250, -1, 0, 1, 37, 800, MEAN_BOUND] {
            assert_eq!(domain::floor(domain::of(cp)) as i64, cp);
            assert_eq!(domain::ceil(domain::of(cp)) as i64, cp);
            assert_eq!(domain::mean(domain::of(cp) * 3, 3) as i64, cp);
        }
    }
}
