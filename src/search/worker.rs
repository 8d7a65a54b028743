//! One search thread's state: node counting against the shared limits, the principal
//! variation, the path's keys for repetitions, the per-ply stack (static evaluations and
//! moves played, for pruning and continuation history) and the move-ordering statistics.

use super::ablation::Feature;
use super::eval::{base_score, evaluate_with};
use super::evaluator::with_base;
use super::history::PieceTo;
use super::job::SearchJob;
use super::limits::MAX_PLY;
use super::memory::{ThreadTables, EVAL_CACHE_SIZE};
use super::score::{MATE_BOUND, WIN};
use super::shared::Shared;
use super::tt::TtEntry;
use crate::nnue::{AccumulatorStack, Network};
use crate::rules::{Move, Position};
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub(super) struct Worker<'a> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) root: Position,
    pub(super) id: usize,
    /// Nodes not yet added to the shared counter.
    pending_nodes: u64,
    pub(super) stopped: bool,
    /// Keys of the game so far and of the current path, for repetitions.
    pub(super) keys: Vec<u64>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Static evaluation at each ply of the path (-INFINITY in check).
    pub(super) eval_stack: [i32; MAX_PLY + 2],
    /// The move played at each ply of the path (None: a null move or a chance draw).
    pub(super) move_stack: [Option<PieceTo>; MAX_PLY + 2],
    /// Whether the move at each ply was a null move.
    pub(super) null_stack: [bool; MAX_PLY + 2],
    pub(super) seldepth: usize,
    /// Root moves to skip (earlier MultiPV lines of this iteration).
    pub(super) excluded: Vec<Move>,
    pub(super) root_moves: Vec<Move>,
    /// What the thread learns: move-ordering history, correction history and the cache of
    /// static evaluations (re-searches, later iterations and the chance nodes' stand-pat
    /// caps evaluate the same positions again), kept from search to search.
    pub(super) tables: ThreadTables,
    /// Whether the correction is applied (not in unpruned verification searches, whose
    /// values must not depend on the order nodes are visited in).
    corrects: bool,
    /// The network and its accumulators, one per ply (`None`: the hand-written evaluation).
    network: Option<(Arc<Network>, Box<AccumulatorStack>)>,
}

pub(super) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Worker<'a> {
    pub(super) fn new(job: &SearchJob, shared: &'a Shared<'a>, id: usize, tables: ThreadTables) -> Worker<'a> {
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
            eval_stack: [0; MAX_PLY + 2],
            move_stack: [None; MAX_PLY + 2],
            null_stack: [false; MAX_PLY + 2],
            seldepth: 0,
            excluded: Vec::new(),
            root_moves: Vec::new(),
            tables,
            corrects: shared.config.selective && shared.config.ablation.uses(Feature::Correction),
            network: job
                .evaluator
                .network_for(&job.position)
                .map(|network| (Arc::clone(network), Box::new(AccumulatorStack::new(MAX_PLY + 2)))),
        }
    }

    /// The tables this worker learnt, to keep for the next search.
    pub(super) fn into_tables(self) -> ThreadTables {
        self.tables
    }

    /// The static evaluation as this search's strength sees it: the evaluation, with a
    /// weaker level's misjudgement of covers and its noise (a fixed function of the position
    /// and the seed).
    #[inline]
    pub(super) fn evaluate(&mut self, position: &Position, ply: usize) -> i32 {
        let raw = self.evaluate_raw(position, ply);
        self.corrected(position, raw)
    }

    /// `raw` (the static evaluation of `position`) with the correction history's amendment.
    #[inline]
    pub(super) fn corrected(&self, position: &Position, raw: i32) -> i32 {
        if !self.corrects {
            return raw;
        }
        (raw + self.tables.correction.correction(position)).clamp(-WIN, WIN)
    }

    /// Learns from a search of `position` to `depth` that found `score` where the static
    /// evaluation said `raw`.
    pub(super) fn update_correction(&mut self, position: &Position, depth: i32, score: i32, raw: i32) {
        if self.corrects {
            self.tables.correction.update(position, depth, score, raw);
        }
    }

    /// The static evaluation without the correction history. `ply` is where the search met
    /// the position (the network's accumulators are kept per ply).
    #[inline]
    pub(super) fn evaluate_raw(&mut self, position: &Position, ply: usize) -> i32 {
        let key = position.hash();
        let slot = &mut self.tables.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let flavour = self.tables.flavour;
        let mut score = match &mut self.network {
            Some((network, stack)) => {
                let base = base_score(network.base, position, flavour.naive_covers);
                with_base(base, stack.evaluate(network, position, ply))
            }
            None => evaluate_with(position, flavour.naive_covers),
        };
        if flavour.noise_cp != 0 {
            score += super::level::noise(key, flavour.seed, flavour.noise_cp);
        }
        *slot = (key, score);
        score
    }

    #[inline]
    pub(super) fn count_node(&mut self) {
        self.pending_nodes += 1;
        if self.pending_nodes >= 64 {
            self.flush_nodes();
        }
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .control
            .nodes
            .fetch_add(self.pending_nodes, Ordering::Relaxed);
        self.pending_nodes = 0;
        if self.shared.out_of_budget() {
            self.stopped = true;
        }
    }

    pub(super) fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect()
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Whether `position` is drawn by rule or by repetition on the path.
    pub(super) fn is_draw(&self, position: &Position) -> bool {
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

    /// The moves played one and two plies before `ply`, for continuation history.
    pub(super) fn previous_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.move_stack[p]),
            ply.checked_sub(2).and_then(|p| self.move_stack[p]),
        ]
    }

    /// Stores a result unless this is a root search with MultiPV exclusions (whose value is
    /// not the position's).
    pub(super) fn store(&self, ply: usize, key: u64, entry: TtEntry) {
        if self.excluded.is_empty() || ply > 0 {
            self.shared.tt.store(key, entry);
        }
    }

    /// Searches one move from `position`, returning its score for the side to move there.
    /// Reveal moves are chance nodes.
    pub(super) fn search_move(
        &mut self,
        position: &Position,
        m: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.move_stack[ply] = Some(PieceTo::of(position, m));
        self.null_stack[ply] = false;
        if position.is_reveal(m) {
            return self.chance(position, m, depth, alpha, beta, ply);
        }
        let child = position.play(m, None);
        self.keys.push(child.hash());
        let score = -self.negamax(&child, depth, -beta, -alpha, ply + 1);
        self.keys.pop();
        score
    }
}
