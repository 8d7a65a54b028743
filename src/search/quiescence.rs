//! Quiescence search: captures and queen promotions until the position is quiet, standing
//! pat on the static evaluation. Captures that lose material by static exchange are skipped,
//! and so are captures that cannot lift the score near alpha even if the victim were free
//! (delta pruning). Reveal captures (chance nodes, five-fold branching) are tried only at the
//! first quiescence ply, and check evasions only in the first plies, which keeps the tree
//! bounded in covered positions.

use super::ablation::Feature;
use super::limits::MAX_PLY;
use super::ordering::{order_captures, victim_value};
use super::score::{INFINITY, MATE};
use super::see::see_ge;
use super::tt::Bound;
use super::worker::{score_from_tt, Worker};
use crate::rules::{Bitboard, Color, Position, Role, MAX_MOVES};

/// Quiescence plies after which the static evaluation is taken as is.
const MAX_QUIESCENCE_DEPTH: i32 = 12;
/// Quiescence plies in which a side in check tries every evasion.
const CHECK_EVASION_PLIES: i32 = 2;
/// Delta pruning margin: a capture must be able to bring the score this close to alpha.
const DELTA_MARGIN: i32 = 200;

impl Worker<'_> {
    /// `qdepth` is 0 at the first quiescence ply and falls by one per ply.
    pub(super) fn quiescence(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 2 || qdepth <= -MAX_QUIESCENCE_DEPTH {
            return self.evaluate(position, ply);
        }
        let pv_node = beta - alpha > 1;
        let selective = self.shared.config.selective;
        let reveals = qdepth >= 0 && self.shared.config.ablation.uses(Feature::QuiescenceReveals);
        if !pv_node && selective {
            if let Some(entry) = self.shared.tt.probe(position.hash()) {
                let score = score_from_tt(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }
        let in_check = position.is_check() && qdepth > -CHECK_EVASION_PLIES;
        let mut best_score;
        let mut moves;
        if in_check {
            moves = position.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best_score = -INFINITY;
        } else {
            if position.is_check() && !position.has_legal_move() {
                return -MATE + ply as i32;
            }
            let stand_pat = self.evaluate(position, ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            // Only captures and promotions can pass the filter below: generate no others.
            let last_rank = match position.side_to_move() {
                Color::White => Bitboard::RANK_8,
                Color::Black => Bitboard::RANK_1,
            };
            moves = position.legal_moves_onto(position.them() | last_rank);
            moves.retain(|m| {
                let promotion = m.promotion_role() == Some(Role::Queen);
                if !(position.is_capture(m) || promotion) || (!reveals && position.is_reveal(m)) {
                    return false;
                }
                if selective && !promotion && stand_pat + victim_value(position, m) + DELTA_MARGIN <= alpha {
                    return false;
                }
                see_ge(position, m, 0)
            });
        }
        let mut keys = [0; MAX_MOVES];
        for m in order_captures(position, &mut moves, &mut keys) {
            let score = self.search_move(position, m, qdepth - 1, alpha, beta, ply);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}
