//! The handle shared between the protocol thread and a running search: stop and ponder
//! flags, the node count, and when a ponder search was told its move came.

use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Shared between the protocol thread and the search: stop and ponder flags, node count.
#[derive(Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    pub(super) nodes: AtomicU64,
    ponderhit_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Control for a new search; `ponder` starts it in pondering mode.
    pub fn new_search(ponder: bool) -> SearchControl {
        let control = SearchControl::default();
        control.pondering.store(ponder, Ordering::Relaxed);
        control
    }

    /// Asks the search to end as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock() = Some(Instant::now());
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// When [`ponderhit`](Self::ponderhit) came, if it did.
    pub(super) fn ponderhit_at(&self) -> Option<Instant> {
        *self.ponderhit_at.lock()
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}
