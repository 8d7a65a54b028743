//! The transposition table: a fixed array of entries shared by search threads without
//! locks (each entry stores key XOR data, so a torn write reads as a miss; Hyatt & Mann's
//! "lockless transposition table").

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

pub struct TranspositionTable {
    slots: Vec<Slot>,
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
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        // Zeroed memory from the allocator: pages are mapped lazily, so even a large table
        // costs nothing at startup, and a failed allocation is an answer, not an abort.
        let layout = std::alloc::Layout::array::<Slot>(count).ok()?;
        // SAFETY: `layout` has a non-zero size (count >= 1 and a Slot is 16 bytes).
        let pointer = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
        if pointer.is_null() {
            return None;
        }
        // SAFETY: the pointer comes from the global allocator with the layout of `count`
        // Slots, and all-zero bytes are a valid Slot (two AtomicU64 holding 0), so all
        // `count` elements are initialized.
        let slots = unsafe { Vec::from_raw_parts(pointer, count, count) };
        Some(TranspositionTable {
            slots,
            generation: AtomicU8::new(0),
        })
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        let index = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        if slot.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        unpack(data)
    }

    pub fn store(&self, key: u64, entry: TtEntry) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let old = slot.data.load(Ordering::Relaxed);
        let same_key = slot.check.load(Ordering::Relaxed) ^ old == key;
        if let Some(previous) = unpack(old) {
            let old_generation = (old >> 48) as u8;
            // Keep a deeper entry of this search for the same key unless the new one is exact.
            if same_key && old_generation == generation && previous.depth > entry.depth && entry.bound != Bound::Exact {
                return;
            }
        }
        let mut entry = entry;
        if entry.best_move.is_none() && same_key {
            entry.best_move = unpack(old).and_then(|e| e.best_move);
        }
        let data = pack(&entry, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Permille of the first thousand slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                unpack(data).is_some() && (data >> 48) as u8 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}
