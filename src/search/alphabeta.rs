//! The alpha-beta worker: iterative deepening, principal variation search, quiescence,
//! transposition table cutoffs, killer and history ordering. Reveal moves go through the
//! chance node of `chance.rs`.

use super::eval::evaluate;
use super::ordering::{attacker_value, order, victim_value};
use super::tt::{Bound, TtEntry};
use super::{
    Limits, Report, Score, ScoreBound, SearchJob, SearchResult, Shared, INFINITY, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY,
};
use crate::rules::{Move, Position, Role};
use std::sync::atomic::Ordering;

/// Quiescence plies after which the static evaluation is taken as is.
const MAX_QUIESCENCE_DEPTH: i32 = 12;
/// Quiescence plies in which a side in check tries every evasion.
const CHECK_EVASION_PLIES: i32 = 2;

pub(super) struct Worker<'a> {
    pub(super) shared: &'a Shared<'a>,
    root: Position,
    id: usize,
    /// Nodes not yet added to the shared counter.
    pending_nodes: u64,
    pub(super) stopped: bool,
    /// Keys of the game so far and of the current path, for repetitions.
    pub(super) keys: Vec<u64>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 64]; 64]>,
    seldepth: usize,
    /// Root moves to skip (earlier MultiPV lines of this iteration).
    excluded: Vec<Move>,
    root_moves: Vec<Move>,
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Worker<'a> {
    pub(super) fn new(job: &SearchJob, shared: &'a Shared<'a>, id: usize) -> Worker<'a> {
        let mut keys = job.history.clone();
        keys.push(job.position.hash());
        Worker {
            shared,
            root: job.position.clone(),
            id,
            pending_nodes: 0,
            stopped: false,
            keys,
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 64]; 64]),
            seldepth: 0,
            excluded: Vec::new(),
            root_moves: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn count_node(&mut self) {
        self.pending_nodes += 1;
        if self.pending_nodes >= 64 {
            self.flush_nodes();
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .control
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
        if self.shared.out_of_budget() {
            self.stopped = true;
        }
    }

    fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect()
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
        // Helpers start a little deeper so threads spread over depths (Lazy SMP).
        let first_depth = 1 + (self.id % 2) as u32;
        for depth in first_depth..=max_depth {
            if depth > first_depth && !self.shared.may_start_iteration() {
                break;
            }
            self.excluded.clear();
            let mut iteration_best = None;
            for line in 0..lines {
                self.seldepth = 0;
                let score = self.negamax(&self.root.clone(), depth as i32, -INFINITY, INFINITY, 0);
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
            if iteration_best.is_some() {
                best = iteration_best;
            }
            if self.stopped {
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

    /// Whether the position at `ply` is drawn by rule or by repetition on the path.
    fn is_draw(&self, position: &Position) -> bool {
        if position.halfmove_clock() >= 100 && !position.is_check() {
            return true;
        }
        if position.is_insufficient_material() {
            return true;
        }
        let window = (position.halfmove_clock() as usize + 1).min(self.keys.len());
        let key = position.hash();
        self.keys[self.keys.len() - window..self.keys.len() - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    /// Searches one move from `position`, returning its score for the side to move there.
    pub(super) fn search_move(
        &mut self,
        position: &Position,
        m: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if position.is_reveal(m) {
            return self.chance(position, m, depth, alpha, beta, ply);
        }
        let child = position.play(m, None);
        self.keys.push(child.hash());
        let score = -self.negamax(&child, depth, -beta, -alpha, ply + 1);
        self.keys.pop();
        score
    }

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
            return self.quiescence(position, alpha, beta, ply, depth);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if ply > 0 {
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
            return evaluate(position);
        }

        let key = position.hash();
        let entry = self.shared.tt.probe(key);
        let hash_move = entry.and_then(|e| e.best_move);
        if let Some(entry) = entry {
            if ply > 0 && !pv_node && entry.depth >= depth {
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
        let depth = if in_check { depth + 1 } else { depth };
        let mut moves = position.legal_moves();
        if ply == 0 {
            let (root_moves, excluded) = (&self.root_moves, &self.excluded);
            moves.retain(|m| root_moves.contains(&m) && !excluded.contains(&m));
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        order(position, &mut moves, hash_move, &self.killers[ply], &self.history);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (index, &m) in moves.iter().enumerate() {
            let mut score;
            if index == 0 {
                score = self.search_move(position, m, depth - 1, alpha, beta, ply);
            } else {
                score = self.search_move(position, m, depth - 1, alpha, alpha + 1, ply);
                if score > alpha && score < beta && !self.stopped {
                    score = self.search_move(position, m, depth - 1, alpha, beta, ply);
                }
            }
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !position.is_capture(m) {
                            self.remember_quiet(ply, m, depth);
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
        if self.excluded.is_empty() || ply > 0 {
            self.shared.tt.store(
                key,
                TtEntry {
                    best_move,
                    score: score_to_tt(best_score, ply),
                    depth,
                    bound,
                },
            );
        }
        best_score
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn remember_quiet(&mut self, ply: usize, m: Move, depth: i32) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let entry = &mut self.history[m.from().index()][m.to().index()];
        *entry = (*entry + depth * depth).min(50_000);
    }

    /// Quiescence search: captures and queen promotions until the position is quiet.
    /// `qdepth` is 0 at the first quiescence ply and falls by one per ply. Reveal captures
    /// (chance nodes, five-fold branching) are tried only at the first ply, captures that
    /// give up a more valuable piece on a defended square not at all, and check evasions
    /// only in the first plies, which keeps the tree bounded in covered positions.
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
            return evaluate(position);
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
            let stand_pat = evaluate(position);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            let them = !position.side_to_move();
            moves = position.legal_moves();
            moves.retain(|m| {
                let tactical = position.is_capture(m) || m.promotion_role() == Some(Role::Queen);
                if !tactical || (qdepth < 0 && position.is_reveal(m)) {
                    return false;
                }
                let losing = attacker_value(position, m) > victim_value(position, m) + 50
                    && position.is_attacked_by(them, m.to(), position.occupied() ^ m.from());
                !losing
            });
        }
        order(position, &mut moves, None, &[None, None], &self.history);
        for &m in moves.iter() {
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
