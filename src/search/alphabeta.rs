//! The alpha-beta node: principal variation search with transposition table cutoffs, check
//! extension, internal iterative reduction, and the selectivity of modern engines: reverse
//! futility pruning, null move pruning (not without pieces, against zugzwang), late move
//! pruning, futility pruning, SEE pruning and late move reductions. Quiet moves that give
//! check are never pruned and are reduced less. A weaker level may search quiet moves less
//! deep still (`quiet_reduction`), so that it follows forcing lines further than quiet ones.
//!
//! Every pruning decision is taken here, at a node where the side to move chooses. A reveal
//! move is a chance node (`chance.rs`) whose outcomes are all searched (Star1 bounds only
//! skip outcomes that cannot change the result), so no pruning skips across chance
//! outcomes: a pruned move is one that a max node declines to look at, not a reveal outcome
//! assumed away.

use super::ablation::Feature;
use super::checks::gives_check;
use super::history::PieceTo;
use super::limits::MAX_PLY;
use super::ordering::{order, OrderContext};
use super::score::{INFINITY, MATE, MATE_BOUND};
use super::see::see_ge;
use super::tt::{Bound, TtEntry};
use super::worker::{score_from_tt, score_to_tt, Worker};
use crate::rules::{MoveList, Position, Role, MAX_MOVES};
use once_cell::sync::Lazy;

/// Reverse futility: at depth <= this, a static score this far above beta per ply cuts.
const RFP_DEPTH: i32 = 7;
const RFP_MARGIN: i32 = 75;
/// Null move: minimum depth, base reduction.
const NULL_MIN_DEPTH: i32 = 3;
const NULL_BASE_REDUCTION: i32 = 3;
/// Internal iterative reduction: depth from which a node without a hash move is reduced.
const IIR_DEPTH: i32 = 4;
/// Late move pruning: quiet moves looked at, at depth d, before the rest are skipped:
/// (LMP_BASE + d * d) / (2 if not improving else 1).
const LMP_DEPTH: i32 = 6;
const LMP_BASE: i32 = 3;
/// Futility: quiet moves skipped when static score + base + margin * depth <= alpha.
const FUTILITY_DEPTH: i32 = 6;
const FUTILITY_BASE: i32 = 80;
const FUTILITY_MARGIN: i32 = 90;
/// SEE pruning thresholds: quiet moves at -QUIET_SEE * d * d, captures at -CAPTURE_SEE * d.
const SEE_DEPTH: i32 = 8;
const QUIET_SEE: i32 = 25;
const CAPTURE_SEE: i32 = 90;
/// Late move reductions start from this depth and move number.
const LMR_DEPTH: i32 = 3;
/// History points per ply of reduction taken off (or added).
const LMR_HISTORY_DIVISOR: i32 = 8_000;
/// Quiet moves, and captures, remembered at a node for the history malus (each kind).
const MAX_TRIED: usize = 64;

/// Depths and move numbers below this have their late move reduction in a table.
const LMR_TABLE_SIZE: usize = 64;

/// Late move reduction for a quiet move by depth and move number: 0.75 + ln(d) ln(n) / 2.25.
fn lmr_formula(depth: i32, move_number: usize) -> i32 {
    let d = (depth.max(1) as f64).ln();
    let n = (move_number.max(1) as f64).ln();
    (0.75 + d * n / 2.25) as i32
}

/// [`lmr_formula`] worked out once for the depths and move numbers a search mostly meets.
static LMR_TABLE: Lazy<[[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]> = Lazy::new(|| {
    let mut table = [[0; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    for (depth, row) in table.iter_mut().enumerate() {
        for (move_number, reduction) in row.iter_mut().enumerate() {
            *reduction = lmr_formula(depth as i32, move_number) as u8;
        }
    }
    table
});

/// Late move reduction for a quiet move by depth and move number ([`lmr_formula`]).
fn lmr_reduction(depth: i32, move_number: usize) -> i32 {
    match (usize::try_from(depth), move_number) {
        (Ok(d), n) if d < LMR_TABLE_SIZE && n < LMR_TABLE_SIZE => i32::from(LMR_TABLE[d][n]),
        _ => lmr_formula(depth, move_number),
    }
}

/// Whether `position`'s side to move has a piece other than pawns and king (covered pieces
/// count: they may be anything), so that passing is rarely better than moving.
fn has_non_pawn_material(position: &Position) -> bool {
    let us = position.us();
    let pawns_and_king = position.revealed(Role::Pawn) | position.movers(Role::King);
    (us & !pawns_and_king).any()
}

impl Worker<'_> {
    pub(super) fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            // Depth below zero comes from quiescence through a chance node: keep counting.
            return self.quiescence(position, alpha, beta, ply, depth);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        let selective = self.shared.config.selective;
        let ablation = self.shared.config.ablation;
        let uses = |feature| ablation.uses(feature);
        if !root {
            if self.is_draw(position) {
                return 0;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(position, ply);
        }

        let key = position.hash();
        let entry = self.shared.tt.probe(key);
        let hash_move = entry.and_then(|e| e.best_move);
        if let Some(entry) = entry {
            if !root && !pv_node && entry.depth >= depth && selective {
                let score = score_from_tt(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }

        let in_check = position.is_check();
        let (raw_eval, static_eval) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = self.evaluate_raw(position, ply);
            (raw, self.corrected(position, raw))
        };
        // The hash score, where its bound says it is more accurate than the static one.
        let mut eval = static_eval;
        if let Some(entry) = entry {
            let score = score_from_tt(entry.score, ply);
            let better = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score > eval,
                Bound::Upper => score < eval,
            };
            if !in_check && better && score.abs() < MATE_BOUND {
                eval = score;
            }
        }
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        if ply + 2 < self.tables.history.killers.len() {
            self.tables.history.killers[ply + 2] = [None; 2];
        }

        if !pv_node && !in_check && selective {
            if uses(Feature::ReverseFutility)
                && depth <= RFP_DEPTH
                && eval.abs() < MATE_BOUND
                && eval - RFP_MARGIN * (depth - improving as i32) >= beta
            {
                return eval;
            }
            let after_null = ply > 0 && self.null_stack[ply - 1];
            if uses(Feature::NullMove)
                && depth >= NULL_MIN_DEPTH
                && !after_null
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && has_non_pawn_material(position)
            {
                let reduction = NULL_BASE_REDUCTION + depth / 4 + ((eval - beta) / 200).min(3);
                let child = position.play_null();
                self.move_stack[ply] = None;
                self.null_stack[ply] = true;
                self.keys.push(child.hash());
                let score = -self.negamax(&child, (depth - 1 - reduction).max(0), -beta, -beta + 1, ply + 1);
                self.keys.pop();
                self.null_stack[ply] = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut depth = depth;
        if in_check {
            depth += 1;
        }
        if depth >= IIR_DEPTH && hash_move.is_none() && selective && uses(Feature::Iir) {
            depth -= 1;
        }

        let mut moves = position.legal_moves();
        if root {
            let (root_moves, excluded) = (&self.root_moves, &self.excluded);
            moves.retain(|m| root_moves.contains(&m) && !excluded.contains(&m));
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let previous = self.previous_moves(ply);
        let killers = self.tables.history.killers[ply];
        let counter = self.tables.history.counter_move(previous[0]);
        let mut keys = [0; MAX_MOVES];
        let ordered = order(
            position,
            &mut moves,
            &mut keys,
            &OrderContext {
                hash_move,
                killers,
                counter,
                history: &self.tables.history,
                previous,
            },
        );

        // A weaker level's blind spot: quiet moves that give no check, seen less deep beyond
        // the reply to its own move, unless they answer a check.
        let quiet_blindness = if in_check || ply < 2 {
            0
        } else {
            self.shared.config.quiet_reduction
        };
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        let mut quiet_count = 0usize;
        let mut move_count = 0usize;
        let color = position.side_to_move();
        for m in ordered {
            let capture = position.is_capture(m);
            let quiet = !capture && m.promotion_role().is_none();
            let check = quiet && gives_check(position, m);
            if !root && best_score > -MATE_BOUND && selective {
                if quiet && !check {
                    let limit = (LMP_BASE + depth * depth) / if improving { 1 } else { 2 };
                    if uses(Feature::LateMovePruning) && depth <= LMP_DEPTH && quiet_count as i32 >= limit {
                        continue;
                    }
                    if uses(Feature::Futility)
                        && !in_check
                        && depth <= FUTILITY_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
                    {
                        continue;
                    }
                    if uses(Feature::SeePruning)
                        && depth <= SEE_DEPTH
                        && !see_ge(position, m, -QUIET_SEE * depth * depth)
                    {
                        continue;
                    }
                } else if !quiet
                    && uses(Feature::SeePruning)
                    && depth <= SEE_DEPTH
                    && !see_ge(position, m, -CAPTURE_SEE * depth)
                {
                    continue;
                }
            }
            move_count += 1;
            let blind = if quiet && !check { quiet_blindness } else { 0 };
            let new_depth = (depth - 1 - blind).max(0);
            let mut score;
            if move_count == 1 {
                score = self.search_move(position, m, new_depth, alpha, beta, ply);
            } else {
                let mut reduction = 0;
                if depth >= LMR_DEPTH && quiet && selective && uses(Feature::Lmr) {
                    reduction = lmr_reduction(depth, move_count);
                    if pv_node {
                        reduction -= 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    if killers.contains(&Some(m)) || counter == Some(m) {
                        reduction -= 1;
                    }
                    if check {
                        reduction -= 1;
                    }
                    let history = self
                        .tables
                        .history
                        .quiet_score(color, m, PieceTo::of(position, m), previous);
                    reduction -= history / LMR_HISTORY_DIVISOR;
                    reduction = reduction.clamp(0, (new_depth - 1).max(0));
                }
                score = self.search_move(position, m, new_depth - reduction, alpha, alpha + 1, ply);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = self.search_move(position, m, new_depth, alpha, alpha + 1, ply);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = self.search_move(position, m, new_depth, alpha, beta, ply);
                }
            }
            if self.stopped {
                return 0;
            }
            if quiet && quiets.len() < MAX_TRIED {
                quiets.push(m);
            }
            if capture && captures.len() < MAX_TRIED {
                captures.push(m);
            }
            if quiet {
                quiet_count += 1;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.tables
                                .history
                                .reward_quiet(position, ply, depth, m, quiets.as_slice(), previous);
                        }
                        if uses(Feature::CaptureHistory) {
                            let best = capture.then_some(m);
                            self.tables
                                .history
                                .reward_captures(position, depth, best, captures.as_slice());
                        }
                        break;
                    }
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The evaluation was off where a quiet best move (or none) says so within the bound.
        let quiet_best = best_move.is_none_or(|m| !position.is_capture(m) && m.promotion_role().is_none());
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > static_eval,
            Bound::Upper => best_score < static_eval,
        };
        if !in_check && quiet_best && informative && best_score.abs() < MATE_BOUND {
            self.update_correction(position, depth, best_score, raw_eval);
        }
        self.store(
            ply,
            key,
            TtEntry {
                best_move,
                score: score_to_tt(best_score, ply),
                depth,
                bound,
            },
        );
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reduction_table_is_the_formula() {
        for depth in -2..80 {
            for move_number in 0..100 {
                assert_eq!(lmr_reduction(depth, move_number), lmr_formula(depth, move_number));
            }
        }
    }
}
