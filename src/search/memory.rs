//! What each search thread learns that is still true at the next move: the move-ordering
//! history, the correction history and the evaluation cache. A [`SearchMemory`] keeps them
//! between searches of one game (the protocol holds one next to its hash table and starts a
//! new one with a new table at `ucinewgame`); each thread of a search borrows its own set and
//! gives it back.

use super::correction::CorrectionHistory;
use super::history::History;
use super::level::LevelParams;
use parking_lot::Mutex;

/// Entries of the evaluation cache (a power of two).
pub(super) const EVAL_CACHE_SIZE: usize = 1 << 14;

/// How a search at a level evaluates: its misjudgement of covers and its noise (a fixed
/// function of the position and the seed). The cached evaluations are this flavour's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct EvalFlavour {
    pub noise_cp: i32,
    pub seed: u64,
    pub naive_covers: bool,
    /// The evaluation's key ([`super::Evaluator::key`]).
    pub evaluator: u64,
}

impl EvalFlavour {
    pub fn of(level: &LevelParams, seed: u64, evaluator: u64) -> EvalFlavour {
        EvalFlavour {
            noise_cp: level.noise_cp,
            seed,
            naive_covers: level.naive_covers,
            evaluator,
        }
    }
}

/// One thread's tables.
pub(super) struct ThreadTables {
    pub history: Box<History>,
    pub correction: Box<CorrectionHistory>,
    pub eval_cache: Box<[(u64, i32)]>,
    pub flavour: EvalFlavour,
}

impl ThreadTables {
    pub fn new(flavour: EvalFlavour) -> ThreadTables {
        ThreadTables {
            history: Box::default(),
            correction: Box::default(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE].into_boxed_slice(),
            flavour,
        }
    }
}

/// The tables of every thread, kept between searches.
#[derive(Default)]
pub struct SearchMemory {
    threads: Mutex<Vec<Option<ThreadTables>>>,
}

impl SearchMemory {
    pub fn new() -> SearchMemory {
        SearchMemory::default()
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        self.threads.lock().clear();
    }

    /// Thread `id`'s tables for a search at `level` with `seed`: what it learnt before, with
    /// the killers (moves of plies of the last search) forgotten, and the evaluation cache
    /// emptied if the evaluation it holds was another level's or another evaluator's.
    pub(super) fn take(&self, id: usize, level: &LevelParams, seed: u64, evaluator: u64) -> ThreadTables {
        let flavour = EvalFlavour::of(level, seed, evaluator);
        let kept = self.threads.lock().get_mut(id).and_then(Option::take);
        match kept {
            Some(mut tables) => {
                tables.history.forget_killers();
                if tables.flavour != flavour {
                    tables.eval_cache.fill((0, 0));
                    tables.flavour = flavour;
                }
                tables
            }
            None => ThreadTables::new(flavour),
        }
    }

    /// Keeps thread `id`'s tables for the next search.
    pub(super) fn give_back(&self, id: usize, tables: ThreadTables) {
        let mut threads = self.threads.lock();
        if threads.len() <= id {
            threads.resize_with(id + 1, || None);
        }
        threads[id] = Some(tables);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_threads_tables_and_forgets_another_levels_evaluations() {
        let memory = SearchMemory::new();
        let full = LevelParams::FULL;
        let mut tables = memory.take(1, &full, 7, 0);
        tables.eval_cache[3] = (42, 17);
        memory.give_back(1, tables);
        assert_eq!(memory.take(1, &full, 7, 0).eval_cache[3], (42, 17));
        // Taken and not given back: the next search starts afresh.
        assert_eq!(memory.take(1, &full, 7, 0).eval_cache[3], (0, 0));

        let mut tables = memory.take(0, &full, 7, 0);
        tables.eval_cache[3] = (42, 17);
        memory.give_back(0, tables);
        assert_eq!(
            memory.take(0, &full, 8, 0).eval_cache[3],
            (0, 0),
            "another seed's noise"
        );

        let mut tables = memory.take(0, &full, 7, 0);
        tables.eval_cache[3] = (42, 17);
        memory.give_back(0, tables);
        memory.clear();
        assert_eq!(memory.take(0, &full, 7, 0).eval_cache[3], (0, 0));
    }
}
