//! The transposition table: a fixed array of clusters of four entries, one cache line each,
//! shared by search threads without locks (each entry stores key XOR data, so a torn write
//! reads as a miss; Hyatt & Mann's "lockless transposition table"). A new entry replaces
//! the entry of its own position, or else the cluster's least valuable: the shallowest,
//! counting each search it is old as 8 plies less.

use crate::rules::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One probed entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub best_move: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// Whether `data`, as read from this slot, was written for `key` (a torn write fails).
    #[inline]
    fn holds(&self, key: u64, data: u64) -> bool {
        self.check.load(Ordering::Relaxed) ^ data == key
    }
}

/// Entries that share one index: a cache line.
#[derive(Default)]
#[repr(align(64))]
struct Cluster([Slot; CLUSTER]);

/// Entries in a cluster.
const CLUSTER: usize = 4;
/// Plies of depth that one search of age costs an entry when a cluster chooses what to replace.
const AGE_WEIGHT: i32 = 8;

pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

fn pack(entry: &TtEntry, generation: u8) -> u64 {
    let m = entry.best_move.map_or(0, |m| m.to_u16()) as u64;
    let score = entry.score as i16 as u16 as u64;
    let depth = entry.depth.clamp(-1, 254) as i16 as u8 as u64;
    let bound = match entry.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    m | score << 16 | depth << 32 | bound << 40 | (generation as u64) << 48
}

/// The search (generation) that wrote packed `data`.
fn written_in(data: u64) -> u8 {
    (data >> 48) as u8
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 40) & 0xFF {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(TtEntry {
        best_move: Move::from_u16(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        depth: (data >> 32) as u8 as i8 as i32,
        bound,
    })
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one entry). Panics if the memory cannot
    /// be had; see [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).expect("memory for the transposition table")
    }

    /// A table of about `megabytes` MiB, or `None` if that much memory cannot be had.
    pub fn try_new(megabytes: usize) -> Option<TranspositionTable> {
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Cluster>()).max(1);
        // Zeroed memory from the allocator: pages are mapped lazily, so even a large table
        // costs nothing at startup, and a failed allocation is an answer, not an abort.
        let layout = std::alloc::Layout::array::<Cluster>(count).ok()?;
        // SAFETY: `layout` has a non-zero size (count >= 1 and a Cluster is 64 bytes).
        let pointer = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Cluster>();
        if pointer.is_null() {
            return None;
        }
        // SAFETY: the pointer comes from the global allocator with the layout of `count`
        // Clusters, and all-zero bytes are a valid Cluster (eight AtomicU64 holding 0), so
        // all `count` elements are initialized.
        let clusters = unsafe { Vec::from_raw_parts(pointer, count, count) };
        Some(TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        })
    }

    #[inline]
    fn cluster(&self, key: u64) -> &[Slot; CLUSTER] {
        let index = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index].0
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.cluster(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            slot.holds(key, data).then_some(data).and_then(unpack)
        })
    }

    /// Stores `entry` for `key`. The position's own entry, if the cluster has one, is kept
    /// when it is from this search, deeper and the new one is not exact (its move is kept
    /// when the new entry has none); otherwise the cluster's least valuable entry goes.
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let cluster = self.cluster(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut target = &cluster[0];
        let mut lowest = i32::MAX;
        for slot in cluster {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = unpack(data);
            if let Some(previous) = stored.filter(|_| slot.holds(key, data)) {
                if written_in(data) == generation && previous.depth > entry.depth && entry.bound != Bound::Exact {
                    return;
                }
                entry.best_move = entry.best_move.or(previous.best_move);
                target = slot;
                break;
            }
            // An empty slot first, then the shallowest, each search of age costing AGE_WEIGHT.
            let value = stored.map_or(i32::MIN, |stored| {
                stored.depth - AGE_WEIGHT * i32::from(generation.wrapping_sub(written_in(data)))
            });
            if value < lowest {
                lowest = value;
                target = slot;
            }
        }
        let data = pack(&entry, generation);
        target.data.store(data, Ordering::Relaxed);
        target.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    pub fn clear(&self) {
        for slot in self.clusters.iter().flat_map(|cluster| cluster.0.iter()) {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Permille of the first thousand entries used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = (self.clusters.len() * CLUSTER).min(1000);
        let used = self
            .clusters
            .iter()
            .flat_map(|cluster| cluster.0.iter())
            .take(sample)
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                unpack(data).is_some() && written_in(data) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: i32) -> TtEntry {
        TtEntry {
            best_move: None,
            score: depth,
            depth,
            bound: Bound::Lower,
        }
    }

    /// Keys that differ only in their low bits share a cluster.
    const BASE: u64 = 0x9E37_79B9_0000_0000;

    #[test]
    fn a_full_cluster_gives_up_its_shallowest_entry() {
        let tt = TranspositionTable::new(1);
        for (i, depth) in [6, 2, 9, 4].into_iter().enumerate() {
            tt.store(BASE + i as u64, entry(depth));
        }
        tt.store(BASE + 4, entry(3));
        let depths: Vec<_> = (0..5).map(|i| tt.probe(BASE + i).map(|e| e.depth)).collect();
        assert_eq!(depths, [Some(6), None, Some(9), Some(4), Some(3)]);
    }

    #[test]
    fn an_old_search_s_entries_go_before_this_one_s() {
        let tt = TranspositionTable::new(1);
        tt.store(BASE, entry(10));
        tt.new_search();
        for i in 1..4 {
            tt.store(BASE + i, entry(3));
        }
        tt.store(BASE + 4, entry(1));
        assert!(
            tt.probe(BASE).is_none(),
            "ten plies a search ago weigh less than three now"
        );
        assert!((1..5).all(|i| tt.probe(BASE + i).is_some()));
    }

    #[test]
    fn a_position_s_own_deeper_entry_stays_and_its_move_is_kept() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_u16(0x0C1C).expect("a move");
        tt.store(
            BASE,
            TtEntry {
                best_move: Some(m),
                ..entry(8)
            },
        );
        tt.store(BASE, entry(3));
        assert_eq!(tt.probe(BASE).map(|e| e.depth), Some(8));
        tt.new_search();
        tt.store(BASE, entry(3));
        let stored = tt.probe(BASE).expect("the entry");
        assert_eq!((stored.depth, stored.best_move), (3, Some(m)));
    }
}
